/**
 * Opens the evidence behind a citation in Lab: a text file in an editor with the cited
 * lines marked (citedLines.ts), a notebook at the cell holding the quote with its lines
 * marked, a PDF page preview with the quoted lines boxed (one preview tab per PDF).
 */
import { JupyterFrontEnd } from '@jupyterlab/application';
import { IDocumentManager } from '@jupyterlab/docmanager';
import { IDocumentWidget } from '@jupyterlab/docregistry';
import { FileEditor } from '@jupyterlab/fileeditor';
import { NotebookPanel } from '@jupyterlab/notebook';
import { CodeEditor } from '@jupyterlab/codeeditor';
import { MarkdownCell } from '@jupyterlab/cells';
import { showErrorMessage, WidgetTracker } from '@jupyterlab/apputils';

import { getChunks, getSourceKind } from './api';
import { markCitedLines } from './citedLines';
import { citedRanges, insideFolder, narrowest } from './core/citations';
import { checkable, followCitation, openingPlace } from './freshness';
import { createPdfPreview, PdfPreview, showInPreview } from './pdfPreview';
import { ICitation } from './types';

export interface IOpenContext {
  app: JupyterFrontEnd;
  docManager: IDocumentManager;
  /** Indexed root relative to the Lab root, '' or ending in '/'; null when outside it. */
  labPathPrefix: string | null;
}

/**
 * Mark the line ranges (1-based, inclusive) as cited, the first in view; an editor that is
 * not CodeMirror 6 gets the first range selected instead.
 */
function markLines(editor: CodeEditor.IEditor, ranges: Array<[number, number]>): void {
  if (!markCitedLines(editor, ranges)) {
    const [start, end] = ranges[0];
    const last = Math.max(0, editor.lineCount - 1);
    const from = Math.min(Math.max(start - 1, 0), last);
    const to = Math.min(Math.max(end - 1, from), last);
    const selection = { start: { line: from, column: 0 }, end: { line: to, column: (editor.getLine(to) ?? '').length } };
    editor.setSelection(selection);
    editor.revealSelection(selection);
  }
  editor.focus();
}

async function openText(ctx: IOpenContext, path: string, citation: ICitation): Promise<void> {
  const widget = ctx.docManager.openOrReveal(path, 'Editor') as
    | IDocumentWidget<FileEditor>
    | undefined;
  if (!widget) {
    throw new Error(`Lab cannot open ${path} in an editor.`);
  }
  await widget.context.ready;
  await widget.revealed;
  ctx.app.shell.activateById(widget.id);
  markLines(widget.content.editor, citedRanges(citation));
}

async function openNotebook(
  ctx: IOpenContext,
  path: string,
  citation: ICitation
): Promise<void> {
  const panel = ctx.docManager.openOrReveal(path, 'Notebook') as NotebookPanel | undefined;
  if (!panel) {
    throw new Error(`Lab cannot open ${path} as a notebook.`);
  }
  await panel.context.ready;
  await panel.revealed;
  ctx.app.shell.activateById(panel.id);
  const notebook = panel.content;
  const index = Math.min(Math.max(citation.cell ?? 0, 0), notebook.widgets.length - 1);
  notebook.activeCellIndex = index;
  await notebook.scrollToItem(index, 'center');
  const cell = notebook.widgets[index];
  // Lines within the cell come from the answer's evidence (the quote found in that cell).
  if (!cell || !citation.evidence?.length || citation.start_line == null) {
    return;
  }
  if (cell instanceof MarkdownCell && cell.rendered) {
    cell.rendered = false; // the source, so its cited lines can be marked
  }
  await cell.ready;
  if (cell.editor && !cell.inputHidden) {
    markLines(cell.editor, citedRanges(citation));
  }
}

/** The preview tab of each PDF, by Lab path: citing another page moves it there. */
const previews = new Map<string, PdfPreview>();

/** The command Lab's layout restorer reopens a preview tab with after a reload. */
export const PDF_PREVIEW_COMMAND = 'athena:open-pdf-preview';

/** The open preview tabs, for the layout restorer (index.ts): each is saved with its path
 * and the citation it shows, so a reload reopens it at that page with its regions. */
export const pdfPreviewTracker = new WidgetTracker<PdfPreview>({ namespace: 'athena-pdf-preview' });

/**
 * Open the PDF itself in Lab's viewer at `page`: its pdf-extension hands `#page=N` to the
 * browser's viewer. A viewer already open on the file is replaced, not re-pointed: Chromium's
 * viewer goes blank when only the fragment of its document changes.
 */
export function openPdfDocument(ctx: IOpenContext, path: string, page: number): void {
  const open = ctx.docManager.findWidget(path);
  if (open && (!path.toLowerCase().endsWith('.pdf') || open.context.model.dirty)) {
    // Never closed: not a PDF viewer, or it holds changes (issue 31: a crafted chip named
    // a notebook here, and its unsaved edits were lost). Shown as it is.
    ctx.app.shell.activateById(open.id);
    return;
  }
  open?.dispose(); // a PDF viewer: read-only, nothing to save
  const widget = ctx.docManager.openOrReveal(path);
  if (!widget) {
    void showErrorMessage('Cannot open the PDF', `Lab cannot open ${path}.`);
    return;
  }
  widget.setFragment(`#page=${page}`);
  ctx.app.shell.activateById(widget.id);
}

/** Show `citation`'s page in the preview tab of the PDF at Lab path `path` (made when missing). */
export async function openPdfPreview(ctx: IOpenContext, path: string, citation: ICitation): Promise<void> {
  let preview = previews.get(path);
  if (!preview || preview.isDisposed) {
    const created = createPdfPreview(path, cited => openPdfDocument(ctx, path, cited.page ?? 1));
    created.id = `athena-pdf-${previews.size}-${Date.now()}`;
    created.disposed.connect(() => previews.get(path) === created && previews.delete(path));
    previews.set(path, created);
    ctx.app.shell.add(created, 'main');
    void pdfPreviewTracker.add(created);
    preview = created;
  }
  ctx.app.shell.activateById(preview.id);
  await showInPreview(preview, path, citation);
  void pdfPreviewTracker.save(preview); // the page it shows now is what a reload restores
}

/**
 * Where to open `cited`: its quoted sentences, moved as far as the live index moved its
 * chunk since the answer (freshness.ts openingPlace), or null after telling the user the
 * passage is gone.
 */
async function followed(cited: ICitation): Promise<ICitation | null> {
  if (!checkable(cited) || cited.kind === 'pdf') {
    return narrowest(cited);
  }
  let current;
  try {
    [current] = await getChunks([cited.chunk_id!]);
  } catch {
    return narrowest(cited); // cannot check: open where the answer said
  }
  const result = followCitation(cited, current);
  if (result.freshness === 'gone') {
    await showErrorMessage(
      'The cited passage is gone',
      `${cited.path} no longer holds the passage this answer cited: it was removed or rewritten since.`
    );
    return null;
  }
  return openingPlace(cited, result);
}

/**
 * `cited` with the kind the index's catalog gives its path, or null after telling the user
 * why nothing opens: a chip is data (a saved answer in someone else's notebook may name
 * `../private.txt`, or call a notebook a PDF), so only an indexed source inside the folder
 * is opened, and only as what it is (issue 31).
 */
async function cataloged(cited: ICitation): Promise<ICitation | null> {
  const path: unknown = cited.path;
  let kind: string | null = null;
  if (insideFolder(path)) {
    try {
      kind = await getSourceKind(path);
    } catch (err) {
      await showErrorMessage('Cannot open the source', `${path}: ${(err as Error).message ?? err}`);
      return null;
    }
  }
  if (kind === null) {
    await showErrorMessage(
      'Cannot open the source',
      `${String(path).slice(0, 200)} is not a source in the indexed folder, so it is not opened.`
    );
    return null;
  }
  return { ...cited, kind: kind as ICitation['kind'] };
}

/** Open the source of `citation`; problems are shown to the user, never thrown. */
export async function openCitation(ctx: IOpenContext, given: ICitation): Promise<void> {
  if (ctx.labPathPrefix === null) {
    await showErrorMessage(
      'Cannot open the source',
      `The indexed folder lies outside the folder Jupyter serves, so ${given.path} cannot be opened in Lab.`
    );
    return;
  }
  const cited = await cataloged(given);
  if (cited === null) {
    return;
  }
  const citation = await followed(cited);
  if (citation === null) {
    return;
  }
  const path = ctx.labPathPrefix + citation.path;
  try {
    if (citation.kind === 'pdf') {
      await openPdfPreview(ctx, path, citation);
    } else if (citation.kind === 'notebook') {
      await openNotebook(ctx, path, citation);
    } else {
      await openText(ctx, path, citation);
    }
  } catch (err) {
    await showErrorMessage('Cannot open the source', `${path}: ${(err as Error).message ?? err}`);
  }
}
