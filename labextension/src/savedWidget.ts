/**
 * Saved answer widgets without their model. Lab's widget renderer prints "Error displaying
 * widget: model not found" when a notebook saved without widget state is reopened (or the
 * kernel restarted), and it offers no fallback to the other formats of the same output.
 * Every athena answer also carries its state (athena_lab/widget.py, ANSWER_MIME): draw that
 * with the answer widget's own view, so a saved answer reads as it did live — Markdown
 * rendered through the core sanitizer, [n] markers and source chips that open the
 * evidence in Lab (the view's open-citation command). An older output without that state
 * falls back to its static HTML (athena_lab/render.py, class "athena-static"), sanitised
 * as untrusted HTML.
 */
import { CodeCell } from '@jupyterlab/cells';
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { IRenderMime, IRenderMimeRegistry, MimeModel } from '@jupyterlab/rendermime';
import { Widget } from '@lumino/widgets';
import widgetView, { IWidgetModel, UNTRUSTED } from './widget/widget';

const MISSING = 'Error displaying widget: model not found';
const STATIC_MARK = 'class="athena-static"';
/** The answer's state beside the widget view (athena_lab/widget.py ANSWER_MIME). */
export const ANSWER_MIME = 'application/vnd.athena.answer+json';

/**
 * A finished answer's saved state read through the widget view's model interface: it
 * never changes and nothing answers a message (a PDF page image needs the kernel; the
 * chips open the page in Lab instead). `trusted` is the output's trust as Jupyter keeps
 * it (the notebook's signature, or output made in this session): an untrusted output
 * only shows, as Jupyter's own untrusted output does; its chips open nothing (widget.ts).
 */
function savedModel(state: Record<string, unknown>, trusted: boolean): IWidgetModel {
  return {
    get: name => (name === 'streaming' ? false : name === UNTRUSTED ? !trusted : state[name]),
    on: () => undefined,
    off: () => undefined,
    send: () => undefined
  };
}

/** Draw the saved answer `state` into `node` with the widget's view. */
export function renderSavedAnswer(node: HTMLElement, state: Record<string, unknown>, trusted: boolean): void {
  const el = document.createElement('div');
  node.replaceChildren(el);
  widgetView.render({ model: savedModel(state, trusted), el });
}

/** The output under `node`'s saved formats, when it is an athena answer. */
function savedOutput(
  panel: NotebookPanel,
  node: Element
): { state: Record<string, unknown> | null; html: string | null; trusted: boolean } | null {
  for (const cell of panel.content.widgets) {
    if (!(cell instanceof CodeCell) || !cell.node.contains(node)) {
      continue;
    }
    const outputs = cell.outputArea;
    for (let i = 0; i < outputs.widgets.length; i++) {
      if (outputs.widgets[i].node.contains(node)) {
        const output = outputs.model.get(i);
        const data = output?.data ?? {};
        const state = data[ANSWER_MIME];
        const html = data['text/html'];
        const text = Array.isArray(html) ? html.join('') : html;
        const saved = {
          state: state && typeof state === 'object' && !Array.isArray(state) ? (state as Record<string, unknown>) : null,
          html: typeof text === 'string' && text.includes(STATIC_MARK) ? text : null,
          trusted: output?.trusted === true
        };
        return saved.state || saved.html ? saved : null;
      }
    }
  }
  return null;
}

async function replaceMissing(panel: NotebookPanel, rendermime: IRenderMimeRegistry): Promise<void> {
  const broken = Array.from(panel.content.node.querySelectorAll('.jupyter-widgets')).filter(
    node => node.childElementCount === 0 && node.textContent === MISSING
  );
  for (const node of broken) {
    const saved = savedOutput(panel, node);
    if (saved === null) {
      continue;
    }
    const holder = document.createElement('div');
    holder.classList.add('athena-saved-answer');
    holder.dataset.testid = 'athena-saved-answer';
    if (saved.state) {
      renderSavedAnswer(holder, saved.state, saved.trusted);
    } else {
      const renderer = rendermime.createRenderer('text/html');
      // Untrusted: Lab's sanitizer runs even though render.py escaped everything already.
      await renderer.renderModel(new MimeModel({ data: { 'text/html': saved.html! }, trusted: false }));
      holder.append(renderer.node);
    }
    node.replaceChildren(holder);
  }
}

/**
 * Lab draws ANSWER_MIME itself where the widget view cannot be chosen at all (no widget
 * manager: ipywidgets' extension missing). Ranked after the widget view (rank 0), so a
 * live widget keeps streaming; safe, because the view sanitises what it draws and runs
 * nothing from the answer.
 */
export const savedAnswerRenderer: IRenderMime.IRendererFactory = {
  safe: true,
  mimeTypes: [ANSWER_MIME],
  defaultRank: 1,
  createRenderer: () => new SavedAnswerWidget()
};

class SavedAnswerWidget extends Widget implements IRenderMime.IRenderer {
  constructor() {
    super();
    this.addClass('athena-saved-answer');
    this.node.dataset.testid = 'athena-saved-answer';
  }

  renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    renderSavedAnswer(this.node, (model.data[ANSWER_MIME] ?? {}) as Record<string, unknown>, model.trusted);
    return Promise.resolve();
  }
}

/** Watch every notebook for athena widgets whose model is gone. */
export function showSavedAnswers(notebooks: INotebookTracker, rendermime: IRenderMimeRegistry): void {
  if (!rendermime.getFactory(ANSWER_MIME)) {
    rendermime.addFactory(savedAnswerRenderer, 1);
  }
  notebooks.widgetAdded.connect((_, panel) => {
    let queued = false;
    const observer = new MutationObserver(() => {
      if (!queued) {
        queued = true;
        requestAnimationFrame(() => {
          queued = false;
          void replaceMissing(panel, rendermime);
        });
      }
    });
    observer.observe(panel.content.node, { childList: true, subtree: true, characterData: true });
    panel.disposed.connect(() => observer.disconnect());
  });
}
