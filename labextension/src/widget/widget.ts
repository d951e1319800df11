/**
 * The notebook answer widget: the anywidget ES module `athena_lab/widget.py` loads as its
 * `_esm` (built by page.webpack.config.js into athena_lab/static/widget.js; docs/notebooks.md).
 *
 * The kernel folds the answer's events (athena_lab/answer.py `fold`) and syncs the result;
 * this view reads that state as the core's answer state and draws its text with the
 * same class as the chat page and the drop-in (core/answerText.ts: the Markdown through
 * `marked` and the core sanitizer — no scripts, no remote images, no command links —
 * `[n]` markers made from text nodes, unsupported sentences and the error), then the
 * citation chips, Copy's Markdown (made inert, with its sources) and the inline preview. Its stylesheet is scoped under `.athena-widget`.
 */
import { IAnswerState, shownText } from '../core/answer';
import { answerAsMarkdown, citationLabel, citationLocation, IJupyterPage, linkBase, narrowest } from '../core/citations';
import { button, flashCopied, h } from '../core/dom';
import { AnswerText } from '../core/answerText';
import { countRender, FrameScheduler } from '../core/frame';
import { ICitation, ITraceEvent } from '../types';
import { WIDGET_CSS } from './styles';

/** The Lab command (and window event) athena's extension opens a citation with. */
export const OPEN_COMMAND = 'athena:open-citation';
/**
 * A model key only Lab's saved-answer renderer answers (savedWidget.ts): true for an answer
 * saved in a notebook Jupyter does not trust. Its chips then open nothing.
 */
export const UNTRUSTED = 'athena_untrusted_output';
export const UNTRUSTED_NOTE =
  "This answer was saved in a notebook you have not trusted, so its sources do not open from here. " +
  'If you trust where it came from, trust the notebook (command palette: "Trust Notebook").';
const STYLE_ID = 'athena-widget-styles';

/** A citation as widget.py sends it: plus the cited source lines, for the inline preview. */
export interface IWidgetCitation extends ICitation {
  preview?: string[];
  preview_start?: number | null;
}

/** The part of anywidget's model this view uses. */
export interface IWidgetModel {
  get(name: string): unknown;
  on(event: string, callback: (...args: never[]) => void): void;
  off(event: string, callback: (...args: never[]) => void): void;
  send(content: Record<string, unknown>): void;
}

/** What the widget shows besides the answer itself. */
export interface IWidgetAnswer extends IAnswerState {
  question: string;
  notice: string;
  citations: IWidgetCitation[];
}

/** The synced traits that change what is drawn. */
const TRAITS = ['question', 'answer', 'sources', 'citations', 'unsupported', 'not_found', 'mode', 'trace', 'streaming', 'error', 'notice',
  'conversation_id', 'root'];

function claimText(claim: unknown): string {
  if (typeof claim === 'string') {
    return claim;
  }
  const record = (claim ?? {}) as { text?: string; claim?: string };
  return record.text ?? record.claim ?? JSON.stringify(claim);
}

/** The model's state as the core's answer state (the kernel has folded the events already). */
export function widgetAnswer(model: IWidgetModel): IWidgetAnswer {
  const text = (key: string) => String(model.get(key) ?? '');
  return {
    conversationId: text('conversation_id') || null,
    text: text('answer'),
    sources: text('sources'), // the quotes beside a model's answer, synced before its first word
    citations: (model.get('citations') as IWidgetCitation[] | undefined) ?? [],
    trace: (model.get('trace') as ITraceEvent[] | undefined) ?? [],
    unsupported: ((model.get('unsupported') as unknown[] | undefined) ?? []).map(claimText),
    notFound: (model.get('not_found') as IAnswerState['notFound'] | undefined) ?? [], // names no indexed file holds
    mode: text('mode') || null,
    droppedTurns: null,
    error: text('error') || null,
    finished: !model.get('streaming'),
    stopped: false, // the kernel reports a cut-short answer as its error
    question: text('question'),
    notice: text('notice'),
    status: null, // the kernel streams the text itself; no searching/reading line in a cell
    noEvidence: null, // the kernel's Answer carries no reason trait; the text says it
    building: null
  };
}

/** Ask JupyterLab's athena extension to open the source; true when something took it. */
export function openInLab(citation: ICitation): boolean {
  const app = (globalThis as { jupyterapp?: { commands?: { hasCommand(id: string): boolean; execute(id: string, args: unknown): Promise<unknown> } } }).jupyterapp;
  if (app?.commands?.hasCommand?.(OPEN_COMMAND)) {
    void app.commands.execute(OPEN_COMMAND, citation);
    return true;
  }
  if (typeof globalThis.dispatchEvent !== 'function') {
    return false;
  }
  const event = new CustomEvent(OPEN_COMMAND, { detail: citation, cancelable: true });
  // The extension calls preventDefault() when it opened the source.
  return !globalThis.dispatchEvent(event);
}

/** Jupyter's page config (Lab, Notebook 7), or null where the widget is shown elsewhere. */
function jupyterPage(doc: Document): IJupyterPage | null {
  try {
    const config = JSON.parse(doc.getElementById('jupyter-config-data')?.textContent ?? 'null');
    if (!config || typeof config.serverRoot !== 'string') {
      return null;
    }
    const real = config.athenaRealServerRoot;
    return {
      baseUrl: String(config.baseUrl ?? '/'),
      serverRoot: config.serverRoot,
      realServerRoot: typeof real === 'string' ? real : undefined
    };
  } catch {
    return null;
  }
}

/** The widget's stylesheet, once per document (Lab, or a front end's output iframe). */
function addStyles(doc: Document): void {
  let style = doc.getElementById(STYLE_ID);
  if (!style) {
    style = doc.createElement('style');
    style.id = STYLE_ID;
    doc.head.append(style);
  }
  if (style.textContent !== WIDGET_CSS) {
    style.textContent = WIDGET_CSS; // a newer widget in the same page brings its rules
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** One rendered answer widget; `draw` brings it up to date with the model. */
class AnswerView {
  private _question = h('div', { class: 'athena-question', 'data-testid': 'athena-widget-question' });
  /** The text and its notes, drawn as on the chat page (core/answerText.ts). */
  private _text = new AnswerText(
    {
      prefix: 'athena-',
      markerClass: 'athena-marker',
      bare: true,
      bodyClass: 'athena-answer',
      bodyTestid: 'athena-widget-answer',
      unsupportedTestid: 'athena-widget-unsupported'
    },
    citation => this._open(citation.id)
  );
  private _status = h('span', { class: 'athena-streaming' }, 'answering\u2026');
  private _sources = h('ol', { class: 'athena-sources', 'aria-label': 'Sources' });
  private _copy: HTMLButtonElement;
  private _actions: HTMLElement;
  private _footer = h('div', { class: 'athena-footer' });
  private _preview = h('div', { class: 'athena-preview' });
  private _drawn: { citations?: unknown; footer?: string } = {};
  private _state: IWidgetAnswer;
  private _frame = new FrameScheduler(() => this.draw());

  constructor(
    private _model: IWidgetModel,
    private _el: HTMLElement
  ) {
    const el = _el;
    this._state = widgetAnswer(_model);
    this._copy = button('Copy', () => void this._copyAnswer(), {
      class: 'athena-copy',
      title: 'Copy the answer as Markdown, with its sources',
      'aria-label': 'Copy the answer as Markdown, with its sources',
      'data-testid': 'athena-widget-copy'
    });
    this._actions = h('div', { class: 'athena-actions' }, this._copy);
    el.classList.add('athena-widget');
    el.replaceChildren(
      this._question,
      this._text.body,
      this._status,
      this._text.quotes,
      this._text.notes,
      this._sources,
      this._actions,
      this._footer,
      this._preview
    );
    this._sources.addEventListener('click', event => {
      const chip = (event.target as Element).closest?.('.athena-chip') as HTMLElement | null;
      if (chip) {
        this._open(Number(chip.dataset.citation));
      }
    });
    this.draw();
  }

  /**
   * Redraw at the next frame (core/frame.ts), once however many trait syncs came before it:
   * a streamed chunk syncs text, mode and streaming, and a token stream syncs many chunks
   * per frame, each in its own message (task), so a microtask batch would still redraw
   * the whole answer per token.
   */
  schedule = (): void => this._frame.schedule();

  /** Stop drawing (the view is gone). */
  dispose(): void {
    this._frame.cancel();
  }

  draw(): void {
    const started = performance.now();
    const state = (this._state = widgetAnswer(this._model));
    this._question.textContent = state.question;
    this._question.hidden = !state.question;
    this._text.draw(state);
    this._status.hidden = state.finished;
    if (state.citations !== this._drawn.citations) {
      this._drawn.citations = state.citations;
      this._drawSources(state.citations);
    }
    // Nothing to copy while the answer is still coming, or when no source backs it.
    this._actions.hidden = !state.finished || !state.citations.length || !shownText(state);
    const footer = JSON.stringify([state.mode, state.notice, state.trace]);
    if (footer !== this._drawn.footer) {
      this._drawn.footer = footer;
      this._drawFooter(state);
    }
    countRender(this._el, started);
  }

  /** A reply to a page-image request (`page_preview` in widget.py). */
  onMessage = (msg: { type?: string; id?: unknown; png?: string; error?: string }): void => {
    if (msg?.type !== 'preview' || String(msg.id) !== this._preview.dataset.pending) {
      return;
    }
    const img = this._preview.querySelector<HTMLImageElement>('img.athena-page');
    if (msg.png && img) {
      img.src = `data:image/png;base64,${msg.png}`;
      img.hidden = false;
    } else if (msg.error) {
      this._preview.append(h('div', { class: 'athena-error' }, msg.error));
    }
  };

  private _drawSources(citations: IWidgetCitation[]): void {
    this._sources.hidden = !citations.length;
    this._sources.replaceChildren(
      ...citations.map(c =>
        h(
          'li',
          { class: 'athena-source' },
          h(
            'button',
            {
              type: 'button',
              class: 'athena-chip',
              'data-citation': String(c.id),
              title: c.heading_path || c.title || c.path
            },
            `[${c.id}] ${citationLocation(c)}`
          ),
          h(
            'details',
            { class: 'athena-snippet-box' },
            h('summary', {}, 'snippet'),
            h('pre', { class: 'athena-snippet' }, c.snippet ?? '')
          )
        )
      )
    );
  }

  private _drawFooter(state: IWidgetAnswer): void {
    const parts: HTMLElement[] = [];
    if (state.mode) {
      parts.push(h('span', { class: 'athena-mode', 'data-testid': 'athena-widget-mode' }, state.mode));
    }
    if (state.notice) {
      // e.g. "hybrid over vectors 2,310 / 7,050, embedding (…)": the search was not full hybrid
      parts.push(h('span', { class: 'athena-notice' }, state.notice));
    }
    if (state.trace.length) {
      const steps = state.trace.map(step => {
        const input = typeof step.input === 'string' ? step.input : JSON.stringify(step.input ?? {});
        return h('li', {}, h('code', {}, step.tool ?? 'step'), ` ${input} \u2192 ${step.summary ?? ''}`);
      });
      parts.push(
        h(
          'details',
          { class: 'athena-trace' },
          h('summary', {}, `trace (${plural(state.trace.length, 'step')})`),
          h('ol', {}, ...steps)
        )
      );
    }
    this._footer.replaceChildren(...parts);
    this._footer.hidden = !parts.length;
  }

  private _citation(id: number): IWidgetCitation | undefined {
    return this._state.citations.find(c => c.id === id);
  }

  private _open(id: number): void {
    const citation = this._citation(id);
    if (citation && this._model.get(UNTRUSTED) === true) {
      this._preview.hidden = false;
      this._preview.replaceChildren(h('div', { class: 'athena-notice', 'data-testid': 'athena-untrusted' }, UNTRUSTED_NOTE));
      return;
    }
    if (citation && !openInLab(citation)) {
      this._showPreview(citation);
    }
  }

  private async _copyAnswer(): Promise<void> {
    const { citations } = this._state;
    const text = shownText(this._state);
    // Absolute links: a pasted answer leaves the notebook (core/citations.ts linkBase).
    const doc = this._el.ownerDocument;
    const base = linkBase(String(this._model.get('root') ?? ''), jupyterPage(doc), doc.baseURI);
    try {
      await navigator.clipboard.writeText(answerAsMarkdown(text, citations, '', '', base));
      flashCopied(this._copy, 'Copy', true);
    } catch {
      flashCopied(this._copy, 'Copy', false);
    }
  }

  /** The evidence inline, where no Lab extension opened it (classic Notebook, VS Code, nbviewer). */
  private _showPreview(citation: IWidgetCitation): void {
    const preview = this._preview;
    const close = button('\u00d7', () => preview.replaceChildren(), {
      class: 'athena-preview-close',
      title: 'Close the preview',
      'aria-label': 'Close the preview'
    });
    preview.replaceChildren(h('div', { class: 'athena-preview-head' }, h('span', {}, citationLabel(citation)), close));
    const lines = citation.preview ?? [];
    const first = citation.preview_start;
    if (lines.length && first != null) {
      const cited = narrowest(citation); // the lines the label names
      const start = cited.start_line ?? Infinity;
      const end = cited.end_line ?? start;
      preview.append(
        h(
          'div',
          { class: 'athena-preview-lines' },
          ...lines.map((line, i) =>
            h(
              'div',
              { class: first + i >= start && first + i <= end ? 'athena-line athena-cited' : 'athena-line' },
              h('span', { class: 'athena-lineno' }, String(first + i)),
              h('span', { class: 'athena-linetext' }, line)
            )
          )
        )
      );
    } else {
      preview.append(h('pre', { class: 'athena-snippet' }, lines.length ? lines.join('\n') : (citation.snippet ?? '')));
    }
    if (citation.kind === 'pdf') {
      const img = h('img', { class: 'athena-page', alt: `${citation.path}, page ${citation.page}` });
      img.hidden = true;
      preview.append(img);
      preview.dataset.pending = String(citation.id);
      this._model.send({ type: 'preview', id: citation.id });
    }
  }
}

/** anywidget's entry: draw the answer into `el` and follow the model until the view goes. */
function render({ model, el }: { model: IWidgetModel; el: HTMLElement }): () => void {
  addStyles(el.ownerDocument);
  const view = new AnswerView(model, el);
  for (const name of TRAITS) {
    model.on(`change:${name}`, view.schedule);
  }
  model.on('msg:custom', view.onMessage);
  return () => {
    view.dispose();
    for (const name of TRAITS) {
      model.off(`change:${name}`, view.schedule);
    }
    model.off('msg:custom', view.onMessage);
  };
}

export default { render };
