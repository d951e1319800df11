/**
 * One answer on the chat page, redrawn from its folded state (core/answer.ts): the text
 * with `[n]` buttons, unsupported sentences marked and listed, the numbered sources (a
 * button each, with the snippet as plain text), the mode, the trace drawer, Copy.
 */
import { zoteroUri } from '../core/papers';
import { IAnswerState } from '../core/answer';
import { answerAsMarkdown, citationLabel } from '../core/citations';
import { button, h } from '../core/dom';
import { TraceDrawer } from '../components/traceDrawer';
import { ICitation } from '../types';
import { AnswerText } from '../core/answerText';
import { countRender, FrameScheduler } from '../core/frame';
import { previewText } from '../core/preview';
import { answerFrame } from '../core/question';

export type OpenCitation = (citation: ICitation, trigger: HTMLElement) => void;

/** What differs between the chat page and the drop-in widget (src/dropin/). */
export interface IAnswerOptions {
  /** A source with a docs-site `url` (server's site_url_map) is a link to it, not a viewer button. */
  siteLinks?: boolean;
  /** Show the tool trace (the page does; a docs site's readers have no use for it). */
  trace?: boolean;
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
    this.node = answerFrame('', { 'aria-busy': 'true' }, this._mode, this._text.body, this._status, this._text.notes,
      this._sources, this._trace.node, this._actions);
  }

  /** Show `next`; the text is re-rendered at most once per frame while it streams. */
  update(next: IAnswerState): void {
    const before = this._state;
    this._state = next;
    if (before && next.text !== before.text) {
      this.node.dataset.chunks = String(++this._chunks);
    }
    if (next.status !== before?.status) {
      this._status.hidden = !next.status;
      this._status.textContent = next.status?.text ?? '';
      this._status.dataset.phase = next.status?.phase ?? '';
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
    if (next.mode && this._options.mode) {
      this._mode.textContent = next.mode === 'extractive' ? 'extractive (no model)' : next.mode;
      this.node.dataset.mode = next.mode;
    }
    if (next.finished) {
      this.node.classList.remove('streaming');
      this.node.setAttribute('aria-busy', 'false');
      this._actions.hidden = !next.text;
      this._frame.cancel();
      this._render(); // at once: tests and screen readers see the final text
    } else if (
      next.text !== before?.text ||
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
    this._text.draw(state);
    this.node.classList.toggle('failed', !!state.error);
    countRender(this.node, started);
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
      await navigator.clipboard?.writeText(answerAsMarkdown(state.text, state.citations, '', ''));
    }
  }
}
