/**
 * One assistant answer in the sidebar: streamed Markdown with clickable [n] markers,
 * unsupported sentences marked, the mode, the source list, the trace drawer and answer
 * actions. Like the chat page's view it is driven by the core's fold (core/answer.ts):
 * `update` takes each folded state and shows what changed since the last one.
 */
import { IRenderMimeRegistry } from '@jupyterlab/rendermime';

import { citationMarker, decorateAnswer, notFoundNote, stillUnsupported, unsupportedNote } from '../core/markers';
import { INotFound } from '../core/contract';
import { countRender, FrameScheduler, REST_FACTOR } from '../core/frame';
import { renderMarkdown } from '../markdown';
import { ICitation, IDoneEvent, ITraceEvent } from '../types';
import { button, flashCopied, h } from '../core/dom';
import { addCodeCopyButtons } from './codeBlocks';
import { attachSnippet, sourceList } from './sourceList';
import { IStreamStatus } from '../core/status';
import { IAnswerState } from '../core/answer';
import { quotesBlock } from '../core/answerText';
import { answerFrame, interruptedNote } from '../core/question';
import { drawStatus } from '../core/streamStatus';
import { TraceDrawer } from './traceDrawer';

export interface IAnswerActions {
  rendermime: IRenderMimeRegistry;
  onOpen: (citation: ICitation) => void;
  onCopy: (answer: AnswerView) => void;
  onInsert: (answer: AnswerView) => void;
  /** Each render reached the DOM (the panel keeps the bottom in view while following). */
  onRendered?: (answer: AnswerView) => void;
  /** Ask the question again (Retry under an answer the reader stopped). */
  onRetry: () => void;
}

/**
 * Rendering is paced by frames (core/frame.ts): however many chunks arrive, the whole
 * answer's Markdown is rendered at most once per animation frame — a token stream sends
 * many small chunks per frame, and one render per token made the display lag behind the
 * stream at O(n²) cost.
 *
 * The quotes of the `sources` event (an extractive answer, or those beside a model's)
 * arrive whole, in one event, and are drawn at once: the reader has them within a second.
 */

function modeLabel(mode: string): string {
  return mode === 'extractive' ? 'extractive (no model)' : mode;
}

export class AnswerView {
  readonly node: HTMLElement;
  text = '';
  /** The quotes beside a model's answer (the `sources` event), on screen before its words. */
  sources = '';
  citations: ICitation[] = [];
  private _body: HTMLElement;
  private _quotes = quotesBlock('athena-');
  /** The quotes as last drawn (they are rendered again only when they change). */
  private _quotesShown = '';
  private _mode: HTMLElement;
  private _status: HTMLElement;
  private _live = false;
  private _sources: HTMLElement;
  private _notes: HTMLElement;
  private _actions: HTMLElement;
  private _copy: HTMLButtonElement;
  private _trace = new TraceDrawer();
  private _unsupported: string[] = [];
  /** Names the model wrote that no indexed file holds (`done.not_found`), marked in the text. */
  private _notFound: INotFound[] = [];
  private _rendering: Promise<void> = Promise.resolve();
  private _renderQueued = false;
  private _frame = new FrameScheduler(() => this._queueRender());
  /** Chunks so far (data-chunks on the node, beside countRender's data-renders). */
  private _chunks = 0;
  /** The folded state last shown: `update` shows only what differs from it. */
  private _state: IAnswerState | null = null;

  constructor(private _options: IAnswerActions) {
    this._body = h('div', { class: 'athena-answer-body jp-RenderedHTMLCommon', 'aria-live': 'polite' });
    this._mode = h('span', { class: 'athena-mode', 'data-testid': 'athena-mode' });
    this._status = h('p', {
      class: 'athena-stream-status',
      role: 'status',
      'aria-live': 'polite',
      'data-testid': 'athena-stream-status'
    });
    this._status.hidden = true;
    this._sources = h('div');
    this._notes = h('div', { class: 'athena-answer-notes' });
    this._copy = button(
      'Copy',
      () => {
        // Lab's Clipboard.copyToSystem reports nothing back: say "Copied" when it returns.
        this._options.onCopy(this);
        flashCopied(this._copy, 'Copy', true);
      },
      { class: 'athena-copy', 'aria-label': 'Copy answer', 'data-testid': 'athena-copy' }
    );
    this._actions = h(
      'div',
      { class: 'athena-answer-actions' },
      this._copy,
      button('Insert in notebook', () => this._options.onInsert(this), {
        class: 'athena-insert',
        'aria-label': 'Insert answer as a Markdown cell in the active notebook'
      })
    );
    this._actions.hidden = true;
    // The model's words stream in above its status line; the quotes from the sources,
    // there first, stay under it.
    this.node = answerFrame('athena-', {}, this._mode, this._body, this._status, this._quotes.node, this._notes,
      this._sources, this._trace.node, this._actions);
  }

  /**
   * Show `next`, a state of the fold (core/answer.ts): a streamed turn's states one after
   * another, or a stored answer's one finished state. The methods below are what it
   * calls; they stay public for a caller that adds one part to a shown answer.
   */
  update(next: IAnswerState): void {
    const before = this._state;
    this._state = next;
    if (next.status !== (before?.status ?? null)) {
      this.setStatus(next.status);
    }
    for (const step of next.trace.slice(before?.trace.length ?? 0)) {
      this.addTrace(step);
    }
    const shown = before?.text ?? '';
    if (next.text !== shown) {
      if (next.text.startsWith(shown)) {
        this.appendChunk(next.text.slice(shown.length));
      } else {
        this.replaceText(next.text); // a second sources event replaced an extractive answer
      }
    }
    if (next.sources !== this.sources) {
      this.sources = next.sources;
      this._frame.schedule();
    }
    // Two empty lists are the same list (each fold starts with its own): redrawing the
    // sources schedules a render, and a render of no text would count as one.
    const changed = before && next.citations !== before.citations && (next.citations.length || before.citations.length);
    if (before ? changed : next.citations.length > 0 || next.finished) {
      this.setCitations(next.citations);
    }
    if (!next.finished || before?.finished) {
      return;
    }
    if (next.stopped) {
      this.interrupt(this._options.onRetry);
    } else if (next.error !== null) {
      this.fail(next.error);
    } else {
      void this.finish({
        unsupported: next.unsupported,
        not_found: next.notFound,
        mode: next.mode ?? undefined,
        no_evidence: (next.noEvidence as 'filters' | 'index' | null) ?? undefined
      });
    }
  }

  /** What the turn is doing now ("reading 8 sources…", core/status.ts); null removes it. */
  setStatus(status: IStreamStatus | null): void {
    this._live = this._live || status !== null;
    drawStatus(this._status, status, 'athena-');
  }

  /** The whole text anew (the quotes of an extractive answer, replaced by a later search's). */
  replaceText(text: string): void {
    this.text = '';
    this.appendChunk(text);
  }

  appendChunk(content: string): void {
    this.text += content;
    this.node.dataset.chunks = String(++this._chunks);
    this._frame.schedule();
  }

  setCitations(citations: ICitation[]): void {
    this.citations = citations;
    // A streamed answer's sources are as fresh as can be: only stored ones are checked.
    const list = sourceList(citations, { ...this._options, checkFreshness: !this._live });
    this._sources.replaceWith(list);
    this._sources = list;
    this._frame.schedule();
  }

  addTrace(event: ITraceEvent): void {
    this._trace.add(event);
  }

  /** The stream ended: show the mode, mark unsupported sentences, enable actions. */
  finish(done: IDoneEvent): Promise<void> {
    this._unsupported = done.unsupported ?? [];
    this._notFound = done.not_found ?? [];
    this.setStatus(null);
    if (done.no_evidence) {
      this.node.dataset.noEvidence = done.no_evidence;
    }
    if (done.mode) {
      this._mode.textContent = modeLabel(done.mode);
      this.node.dataset.mode = done.mode;
    }
    // Nothing to copy or insert when no source backs the answer ("no evidence").
    this._actions.hidden = this.citations.length === 0;
    this._frame.schedule();
    // "Done" is what the reader sees: the streaming mark goes once the last text is drawn.
    return this.rendered().finally(() => this.node.classList.remove('athena-streaming'));
  }

  /**
   * The turn was cut short (Stop, a reload mid-stream): keep the partial text, say so
   * neutrally (it is not an error) and offer to ask again. The note comes with the drawn
   * text, never above an empty body (a restored answer is drawn a frame later).
   */
  interrupt(onRetry: () => void): void {
    this.setStatus(null);
    this.node.classList.add('athena-interrupted');
    this.node.dataset.mode = 'interrupted';
    this._mode.textContent = 'interrupted';
    this._actions.hidden = true;
    this._frame.schedule();
    void this.rendered().finally(() => {
      this._notes.querySelector('.athena-interrupted-note')?.remove();
      this._notes.append(interruptedNote('athena-', onRetry));
      this.node.classList.remove('athena-streaming');
      this._options.onRendered?.(this); // a reader following the bottom sees the note and Retry
    });
  }

  fail(message: string): void {
    this.setStatus(null);
    this.node.classList.add('athena-failed');
    this._notes.append(h('p', { class: 'athena-error', role: 'alert' }, message));
    this._actions.hidden = !this.text;
    void this.rendered().finally(() => this.node.classList.remove('athena-streaming'));
  }

  /** Resolves once every requested render (frames still to come included) has reached the DOM. */
  async rendered(): Promise<void> {
    for (;;) {
      await this._frame.ran();
      const last = this._rendering;
      await last;
      if (last === this._rendering && !this._frame.pending) {
        return; // no render queued meanwhile, nor a next step's frame
      }
    }
  }

  /** A frame came: render (after the one in progress, if any — Lab's renderer is async). */
  private _queueRender(): void {
    if (this._renderQueued) {
      return;
    }
    this._renderQueued = true;
    this._rendering = this._rendering.then(async () => {
      this._renderQueued = false;
      await this._render();
    });
  }

  private async _render(): Promise<void> {
    const started = performance.now();
    const host = h('div');
    const text = this.text;
    await renderMarkdown(this._options.rendermime, host, text);
    const known = new Set(this.citations.map(c => c.id));
    const missing = decorateAnswer(host, this._unsupported, known, (ids, text) => this._marker(ids, text),
      this._notFound);
    addCodeCopyButtons(host);
    this._body.replaceChildren(...Array.from(host.childNodes));
    this._body.hidden = !this.text && !!this.sources; // the model has not written yet: the quotes lead
    await this._renderQuotes(known);
    this._renderNotes(missing);
    if (text) {
      countRender(this.node, started); // renders of the answer's text (the quotes alone are not one)
    }
    this._frame.rest(REST_FACTOR * (performance.now() - started)); // Lab's renderer is async: the scheduler cannot time it
    this._options.onRendered?.(this);
  }

  /** The quotes beside a model's answer, rendered like the answer (verbatim: nothing flagged). */
  private async _renderQuotes(known: Set<number>): Promise<void> {
    this._quotes.node.hidden = !this.sources;
    const drawn = `${this.sources}\u0000${[...known].join(',')}`;
    if (drawn === this._quotesShown) {
      return; // unchanged: a token of the model's answer does not render the quotes again
    }
    this._quotesShown = drawn;
    const host = h('div');
    if (this.sources) {
      await renderMarkdown(this._options.rendermime, host, this.sources);
      decorateAnswer(host, [], known, (ids, text) => this._marker(ids, text));
      addCodeCopyButtons(host);
    }
    this._quotes.body.replaceChildren(...Array.from(host.childNodes));
  }

  private _renderNotes(missing: string[]): void {
    this._notes.querySelector('.athena-unsupported-list')?.remove();
    this._notes.querySelector('.athena-not-found-list')?.remove();
    const unsupported = stillUnsupported(this._unsupported, this._notFound);
    if (unsupported.length) {
      this._notes.prepend(unsupportedNote('athena-', 'athena-unsupported', unsupported.length, missing));
    }
    const names = notFoundNote('athena-', this._notFound);
    if (names) {
      this._notes.prepend(names);
    }
  }

  private _marker(ids: number[], text: string): HTMLElement {
    return citationMarker(ids, text, {
      className: 'athena-citation-marker',
      citation: id => this.citations.find(c => c.id === id),
      open: citation => this._options.onOpen(citation),
      // the same hover preview as its source in the list
      preview: (marker, citation) => attachSnippet(marker, citation, this._options.rendermime)
    });
  }
}
