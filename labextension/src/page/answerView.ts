/**
 * One answer on the chat page, redrawn from its folded state (core/answer.ts): the text
 * with `[n]` buttons, unsupported sentences marked and listed, the numbered sources (a
 * button each, with the snippet as plain text), the mode, the trace drawer, Copy.
 */
import { zoteroUri } from '../core/papers';
import { IAnswerState, shownText } from '../core/answer';
import { answerAsMarkdown, citationLabel } from '../core/citations';
import { button, h } from '../core/dom';
import { TraceDrawer } from '../components/traceDrawer';
import { ICitation } from '../types';
import { AnswerText } from '../core/answerText';
import { countRender, FrameScheduler } from '../core/frame';
import { previewText } from '../core/preview';
import { answerFrame, interruptedNote } from '../core/question';
import { drawStatus } from '../core/streamStatus';

export type OpenCitation = (citation: ICitation, trigger: HTMLElement) => void;

/** What differs between the chat page and the drop-in widget (src/dropin/). */
export interface IAnswerOptions {
  /** A source with a docs-site `url` (server's site_url_map) is a link to it, not a viewer button. */
  siteLinks?: boolean;
  /** Show the tool trace (the page does; a docs site's readers have no use for it). */
  trace?: boolean;
  /** Ask the question again: Retry under an answer its reader cut short (Stop, a reload). */
  onRetry?: () => void;
  /**
   * Show what answered: the owner's provider and model ("openai:gpt-4o-mini"), or
   * "extractive (no model)". The page's user chose it; a docs site's reader did not, and
   * the owner's setup is none of their business.
   */
  mode?: boolean;
}

export class PageAnswer {
  readonly node: HTMLElement;
  private _state: IAnswerState | null = null;
  private _text: AnswerText;
  private _mode = h('span', { class: 'answer-mode', 'data-testid': 'answer-mode' });
  private _status = h('p', { class: 'stream-status', role: 'status', 'aria-live': 'polite', 'data-testid': 'stream-status' });
  private _sources = h('ol', { class: 'sources', 'aria-label': 'Sources', 'data-testid': 'sources' });
  private _trace = new TraceDrawer();
  private _actions: HTMLElement;
  /** At most one render per frame while the text streams (core/frame.ts). */
  private _frame = new FrameScheduler(() => this._render());
  /** Text updates so far (data-chunks on the node, beside countRender's data-renders). */
  private _chunks = 0;

  constructor(
    private _open: OpenCitation,
    private _options: IAnswerOptions = { trace: true, mode: true }
  ) {
    this._text = new AnswerText(
      { prefix: '', markerClass: 'marker', bodyClass: 'answer-body', bodyTestid: 'answer-body', unsupportedTestid: 'unsupported' },
      (citation, marker) => this._open(citation, marker)
    );
    this._sources.hidden = true;
    this._trace.node.classList.toggle('trace-off', !_options.trace);
    this._actions = h(
      'div',
      { class: 'answer-actions' },
      button('Copy as Markdown', () => void this._copy(), { class: 'answer-copy' })
    );
    this._actions.hidden = true;
    // The model's words above its status line, the quotes from the sources under it: on
    // screen first, they stay where they are while the words stream in above.
    this.node = answerFrame('', { 'aria-busy': 'true' }, this._mode, this._text.body, this._status, this._text.quotes,
      this._text.notes, this._sources, this._trace.node, this._actions);
  }

  /** Show `next`; the text is re-rendered at most once per frame while it streams. */
  update(next: IAnswerState): void {
    const before = this._state;
    this._state = next;
    if (before && next.text !== before.text) {
      this.node.dataset.chunks = String(++this._chunks);
    }
    if (next.status !== before?.status) {
      drawStatus(this._status, next.status, '');
    }
    if (next.noEvidence) {
      this.node.dataset.noEvidence = next.noEvidence;
    }
    for (const step of this._options.trace ? next.trace.slice(before?.trace.length ?? 0) : []) {
      this._trace.add(step);
    }
    if (next.citations !== before?.citations) {
      this._showSources(next.citations);
    }
    const mode = next.stopped ? 'interrupted' : next.mode;
    if (mode && this._options.mode) {
      this._mode.textContent = mode === 'extractive' ? 'extractive (no model)' : mode;
      this.node.dataset.mode = mode;
    }
    if (next.finished) {
      this.node.classList.remove('streaming');
      this.node.setAttribute('aria-busy', 'false');
      this._actions.hidden = next.stopped || !shownText(next);
      this._frame.cancel();
      this._render(); // at once: tests and screen readers see the final text
      if (next.stopped && !before?.stopped) {
        this._interrupted();
      }
    } else if (
      next.text !== before?.text ||
      next.sources !== before?.sources ||
      next.citations !== before?.citations ||
      next.unsupported !== before?.unsupported ||
      next.error !== before?.error
    ) {
      this._frame.schedule(); // what the text shows changed (a status or trace step does not)
    }
  }

  private _render(): void {
    const state = this._state;
    if (!state) {
      return;
    }
    const started = performance.now();
    // Cut short by its reader: not an error (the note below says so and offers Retry).
    this._text.draw(state.stopped ? { ...state, error: null } : state);
    this.node.classList.toggle('failed', !!state.error && !state.stopped);
    if (state.text) {
      countRender(this.node, started); // renders of the answer's text (the quotes alone are not one)
    }
  }

  /** The turn was cut short (Stop, a reload mid-answer): keep what it showed, say so, offer Retry. */
  private _interrupted(): void {
    this.node.classList.add('interrupted');
    this._text.notes.querySelector('.interrupted-note')?.remove();
    if (this._options.onRetry) {
      this._text.notes.append(interruptedNote('', this._options.onRetry));
    }
  }

  private _showSources(citations: ICitation[]): void {
    this._sources.hidden = citations.length === 0;
    this._sources.replaceChildren(
      ...citations.map(citation => {
        const attrs = {
          class: 'source',
          'data-testid': 'source',
          'data-citation-id': String(citation.id),
          'data-kind': citation.kind
        };
        const open: HTMLElement =
          this._options.siteLinks && citation.url
            ? h('a', { ...attrs, href: citation.url, target: '_blank', rel: 'noopener noreferrer' })
            : button('', () => this._open(citation, open), attrs);
        open.append(
          h('span', { class: 'source-number' }, `[${citation.id}]`),
          h('span', { class: 'source-label' }, citationLabel(citation))
        );
        const preview = previewText(citation, false); // plain text here
        const snippet = preview ? h('p', { class: 'source-snippet', title: preview }, preview) : null;
        const zotero = this._options.siteLinks ? null : zoteroUri(citation.record);
        const link = zotero
          ? h('a', { class: 'athena-zotero-link', href: zotero, 'data-testid': 'zotero-link', title: 'Open this item in Zotero' }, 'Zotero')
          : null;
        return h('li', { 'data-kind': citation.kind }, open, link, snippet);
      })
    );
  }

  private async _copy(): Promise<void> {
    const state = this._state;
    if (state) {
      await navigator.clipboard?.writeText(answerAsMarkdown(shownText(state), state.citations, '', ''));
    }
  }
}
