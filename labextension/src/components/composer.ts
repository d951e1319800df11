/**
 * The question box with its filters. Enter sends, Shift+Enter adds a line; while an
 * answer streams the send button becomes a stop button. "Ask about this cell" attaches a
 * cell or selection: a removable chip above the box, sent with the next question.
 */
import { IChatFilters } from '../types';
import { IPaperScope } from '../core/papers';
import { button, h } from '../core/dom';
import { MAX_QUESTION_CHARS, questionLength } from '../core/questionLimit';

/** Citation kinds and document kinds the server's `kind` filter accepts. */
export const KIND_CHOICES: Array<[string, string]> = [
  ['', 'All kinds'],
  ['text', 'Any text format'],
  ['markdown', 'Markdown'],
  ['rst', 'reStructuredText'],
  ['asciidoc', 'AsciiDoc'],
  ['html', 'HTML'],
  ['notebook', 'Notebooks'],
  ['pdf', 'PDFs']
];

/** A notebook cell or selection attached to the next question. */
export interface IAttachedContext {
  /** What the chip says: "cell 3 of analysis.ipynb", "4 selected lines of cell 3 of …". */
  label: string;
  text: string;
}

export interface IComposerOptions {
  onSend: (question: string, context: IAttachedContext | null) => void;
  onStop: () => void;
}

/** The server's limit on `context` (models.MAX_CONTEXT_CHARS). */
export const MAX_CONTEXT_CHARS = 20000;

export class Composer {
  readonly node: HTMLElement;
  readonly input: HTMLTextAreaElement;
  private _prefix: HTMLInputElement;
  private _kind: HTMLSelectElement;
  private _send: HTMLButtonElement;
  private _busy = false;
  private _context: IAttachedContext | null = null;
  private _chip = h('div', { class: 'athena-context', 'data-testid': 'athena-context' });
  /** Papers chosen in the papers view: the next questions search only them, until removed. */
  private _papers: IPaperScope | null = null;
  private _scopeChip = h('div', { class: 'athena-context athena-scope', 'data-testid': 'athena-scope' });
  private _maxChars = MAX_QUESTION_CHARS;
  /** "7,012 / 8,000" near the limit; over it, also why Send is refused (role=status: read out). */
  private _counter = h('div', { class: 'athena-counter', 'data-testid': 'athena-counter', role: 'status' });

  constructor(private _options: IComposerOptions) {
    this.input = h('textarea', {
      class: 'athena-input',
      'data-testid': 'athena-input',
      rows: '3',
      placeholder: 'Ask about your documents (Enter to send, Shift+Enter for a new line)',
      'aria-label': 'Question'
    });
    this.input.addEventListener('keydown', event => this._onKey(event));
    this.input.addEventListener('input', () => this._updateSend());
    this._prefix = h('input', {
      type: 'text',
      class: 'athena-filter-prefix',
      placeholder: 'path prefix, e.g. docs/',
      'aria-label': 'Only search under this path prefix'
    });
    this._kind = h(
      'select',
      { class: 'athena-filter-kind', 'aria-label': 'Only search this kind of document' },
      ...KIND_CHOICES.map(([value, label]) => h('option', { value }, label))
    );
    this._send = button('Send', () => this._onButton(), {
      class: 'athena-send jp-mod-styled',
      'data-testid': 'athena-send'
    });
    this.node = h(
      'form',
      { class: 'athena-composer', 'aria-label': 'Ask a question' },
      h('div', { class: 'athena-filters' }, this._prefix, this._kind),
      this._scopeChip,
      this._chip,
      h('div', { class: 'athena-input-row' }, this.input, this._send),
      this._counter
    );
    this._chip.hidden = true;
    this._scopeChip.hidden = true;
    this.node.addEventListener('submit', event => event.preventDefault());
    this._updateSend();
  }

  /** The server's limit on a question (GET /athena/info `limits`). */
  set maxChars(value: number) {
    if (Number.isInteger(value) && value > 0) {
      this._maxChars = value;
      this._updateSend();
    }
  }

  get maxChars(): number {
    return this._maxChars;
  }

  get filters(): IChatFilters {
    const filters: IChatFilters = { path_prefix: this._prefix.value.trim(), kind: this._kind.value };
    if (this._papers?.ids) {
      filters.papers = [...this._papers.ids];
    }
    return { ...filters, ...(this._papers?.filters ?? {}) };
  }

  /** Limit the next questions to these papers (their ids or the filter that shows them, and
   * what the chip calls them); null: all papers again. */
  setPapers(papers: IPaperScope | null): void {
    this._papers = papers && (papers.ids?.length || Object.keys(papers.filters ?? {}).length) ? papers : null;
    this._scopeChip.hidden = !this._papers;
    if (!this._papers) {
      this._scopeChip.replaceChildren();
      return;
    }
    this._scopeChip.replaceChildren(
      h(
        'span',
        { class: 'athena-context-chip', title: this._papers.label },
        h('span', { class: 'athena-context-kind' }, 'Only'),
        ` ${this._papers.label}`
      ),
      button('\u2715', () => {
        this.setPapers(null);
        this.input.focus();
      }, {
        class: 'athena-context-remove',
        'data-testid': 'athena-scope-remove',
        'aria-label': 'Search all papers again (remove the choice of papers)'
      })
    );
  }

  setDefaultFilters(filters: IChatFilters): void {
    this._prefix.value = filters.path_prefix ?? '';
    this._kind.value = filters.kind ?? '';
  }

  get context(): IAttachedContext | null {
    return this._context;
  }

  /** Attach a cell or selection to the next question (cut to the server's limit). */
  setContext(context: IAttachedContext | null): void {
    if (context && context.text.length > MAX_CONTEXT_CHARS) {
      context = { label: `${context.label} (first ${MAX_CONTEXT_CHARS.toLocaleString('en-US')} characters)`,
        text: context.text.slice(0, MAX_CONTEXT_CHARS) };
    }
    this._context = context;
    this._chip.hidden = !context;
    if (!context) {
      this._chip.replaceChildren();
      return;
    }
    const lines = context.text.split('\n').length;
    this._chip.replaceChildren(
      h(
        'span',
        { class: 'athena-context-chip', title: context.text.slice(0, 2000) },
        h('span', { class: 'athena-context-kind' }, 'About'),
        ` ${context.label} \u00b7 ${lines} line${lines === 1 ? '' : 's'}`
      ),
      button('\u2715', () => this._removeContext(), {
        class: 'athena-context-remove',
        'data-testid': 'athena-context-remove',
        'aria-label': `Remove the attached ${context.label}`
      })
    );
  }

  /** Put `question` back in the box (edit and resend uses the inline editor instead). */
  setQuestion(question: string): void {
    this.input.value = question;
    this._updateSend();
  }

  set busy(value: boolean) {
    this._busy = value;
    this._send.textContent = value ? 'Stop' : 'Send';
    this._send.setAttribute('aria-label', value ? 'Stop the answer' : 'Send question');
    this._updateSend();
  }

  /** Send stays disabled while there is no question or it is over the server's limit (the
   * counter says so); Stop is always available. A button that disables itself while
   * focused would drop focus to the page: it goes to the box. */
  private _updateSend(): void {
    const length = questionLength(this.input.value, this._maxChars);
    this._counter.hidden = !length.counter;
    this._counter.classList.toggle('athena-counter-over', !!length.refusal);
    this._counter.replaceChildren(
      h('span', { class: 'athena-counter-count' }, length.counter),
      length.refusal ? h('span', { class: 'athena-counter-refusal' }, ` ${length.refusal}`) : ''
    );
    this.input.setAttribute('aria-invalid', length.refusal ? 'true' : 'false');
    const disabled = !this._busy && (!this.input.value.trim() || !!length.refusal);
    if (disabled && document.activeElement === this._send) {
      this.input.focus();
    }
    this._send.disabled = disabled;
  }

  private _removeContext(): void {
    this.setContext(null);
    this.input.focus();
  }

  private _onKey(event: KeyboardEvent): void {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      if (!this._busy) {
        this._submit();
      }
    }
  }

  private _onButton(): void {
    if (this._busy) {
      this._options.onStop();
    } else {
      this._submit();
    }
  }

  private _submit(): void {
    const question = this.input.value.trim();
    if (!question || questionLength(question, this._maxChars).refusal) {
      return; // the counter already says why, next to the box
    }
    const context = this._context;
    this.input.value = '';
    this.setContext(null);
    this._updateSend();
    this._options.onSend(question, context);
  }
}
