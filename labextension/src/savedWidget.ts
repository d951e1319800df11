/**
 * Saved answer widgets without their model. Lab's widget renderer prints "Error displaying
 * widget: model not found" when a notebook saved without widget state is reopened (or the
 * kernel restarted), and it offers no fallback to the other formats of the same output.
 * Every athena answer carries a static, escaped text/html rendering (athena_lab/render.py,
 * class "athena-static"): show that instead, sanitised as untrusted HTML.
 */
import { CodeCell } from '@jupyterlab/cells';
import { INotebookTracker, NotebookPanel } from '@jupyterlab/notebook';
import { IRenderMimeRegistry, MimeModel } from '@jupyterlab/rendermime';

const MISSING = 'Error displaying widget: model not found';
const STATIC_MARK = 'class="athena-static"';

/** The saved HTML of the output whose node holds `node`, when it is an athena answer. */
function savedHtml(panel: NotebookPanel, node: Element): string | null {
  for (const cell of panel.content.widgets) {
    if (!(cell instanceof CodeCell) || !cell.node.contains(node)) {
      continue;
    }
    const outputs = cell.outputArea;
    for (let i = 0; i < outputs.widgets.length; i++) {
      if (outputs.widgets[i].node.contains(node)) {
        const html = outputs.model.get(i)?.data['text/html'];
        const text = Array.isArray(html) ? html.join('') : html;
        return typeof text === 'string' && text.includes(STATIC_MARK) ? text : null;
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
    const html = savedHtml(panel, node);
    if (html === null) {
      continue;
    }
    const renderer = rendermime.createRenderer('text/html');
    // Untrusted: Lab's sanitizer runs even though render.py escaped everything already.
    await renderer.renderModel(new MimeModel({ data: { 'text/html': html }, trusted: false }));
    renderer.addClass('athena-saved-answer');
    renderer.node.dataset.testid = 'athena-saved-answer';
    node.replaceChildren(renderer.node);
  }
}

/** Watch every notebook for athena widgets whose model is gone. */
export function showSavedAnswers(notebooks: INotebookTracker, rendermime: IRenderMimeRegistry): void {
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
