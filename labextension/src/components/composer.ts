/**
 * The question box with its filters. Enter sends, Shift+Enter adds a line; while an
 * answer streams the send button becomes a stop button.
 */
import { IChatFilters } from '../types';
import { button, h } from '../core/dom';

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

export interface IComposerOptions {
  onSend: (question: string) => void;
  onStop: () => void;
}

export class Composer {
  readonly node: HTMLElement;
  readonly input: HTMLTextAreaElement;
  private _prefix: HTMLInputElement;
  private _kind: HTMLSelectElement;
  private _send: HTMLButtonElement;
  private _busy = false;

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
      h('div', { class: 'athena-input-row' }, this.input, this._send)
    );
    this.node.addEventListener('submit', event => event.preventDefault());
    this._updateSend();
  }

  get filters(): IChatFilters {
    return { path_prefix: this._prefix.value.trim(), kind: this._kind.value };
  }

  setDefaultFilters(filters: IChatFilters): void {
    this._prefix.value = filters.path_prefix ?? '';
    this._kind.value = filters.kind ?? '';
  }

  set busy(value: boolean) {
    this._busy = value;
    this._send.textContent = value ? 'Stop' : 'Send';
    this._send.setAttribute('aria-label', value ? 'Stop the answer' : 'Send question');
    this._updateSend();
  }

  /** Send stays disabled while there is no question; Stop is always available. */
  private _updateSend(): void {
    this._send.disabled = !this._busy && !this.input.value.trim();
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
    if (!question) {
      return;
    }
    this.input.value = '';
    this._updateSend();
    this._options.onSend(question);
  }
}
