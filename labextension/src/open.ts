/**
 * Opens the evidence behind a citation in Lab: a text file in an editor with the cited
 * lines selected, a notebook at the cited cell, a PDF page preview with highlights.
 */
import { JupyterFrontEnd } from '@jupyterlab/application';
import { IDocumentManager } from '@jupyterlab/docmanager';
import { IDocumentWidget } from '@jupyterlab/docregistry';
import { FileEditor } from '@jupyterlab/fileeditor';
import { NotebookPanel } from '@jupyterlab/notebook';
import { CodeEditor } from '@jupyterlab/codeeditor';
import { showErrorMessage } from '@jupyterlab/apputils';

import { getChunks } from './api';
import { narrowest } from './core/citations';
import { checkable, followCitation } from './freshness';
import { createPdfPreview } from './pdfPreview';
import { ICitation } from './types';

export interface IOpenContext {
  app: JupyterFrontEnd;
  docManager: IDocumentManager;
  /** Indexed root relative to the Lab root, '' or ending in '/'; null when outside it. */
  labPathPrefix: string | null;
}

/** Select lines `start`..`end` (1-based, inclusive) and scroll them into view. */
function selectLines(editor: CodeEditor.IEditor, start: number, end: number): void {
  const last = Math.max(0, editor.lineCount - 1);
  const from = Math.min(Math.max(start - 1, 0), last);
  const to = Math.min(Math.max(end - 1, from), last);
  const selection = {
    start: { line: from, column: 0 },
    end: { line: to, column: (editor.getLine(to) ?? '').length }
  };
  editor.setSelection(selection);
  editor.revealSelection(selection);
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
  const start = citation.start_line ?? 1;
  selectLines(widget.content.editor, start, citation.end_line ?? start);
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
  if (cell?.editor && citation.start_line != null && !cell.inputHidden) {
    await cell.ready;
    selectLines(cell.editor, citation.start_line, citation.end_line ?? citation.start_line);
  }
}

function openPdfPreview(ctx: IOpenContext, path: string, citation: ICitation): void {
  const preview = createPdfPreview(citation, () => {
    void ctx.app.commands.execute('docmanager:open', { path });
  });
  const existing = Array.from(ctx.app.shell.widgets('main')).find(w => w.id === preview.id);
  if (existing) {
    preview.dispose();
    ctx.app.shell.activateById(existing.id);
    return;
  }
  ctx.app.shell.add(preview, 'main');
  ctx.app.shell.activateById(preview.id);
}

/**
 * The citation at its chunk's current place (the live index may have moved its lines since
 * the answer), or null after telling the user the passage is gone.
 */
async function followed(citation: ICitation): Promise<ICitation | null> {
  if (!checkable(citation) || citation.kind === 'pdf') {
    return citation;
  }
  let current;
  try {
    [current] = await getChunks([citation.chunk_id!]);
  } catch {
    return citation; // cannot check: open where the answer said
  }
  const result = followCitation(citation, current);
  if (result.freshness === 'gone') {
    await showErrorMessage(
      'The cited passage is gone',
      `${citation.path} no longer holds the passage this answer cited: it was removed or rewritten since.`
    );
    return null;
  }
  // Unmoved: the answer's own citation, whose evidence lines still hold.
  return result.freshness === 'current' ? citation : result.citation;
}

/** Open the source of `citation`; problems are shown to the user, never thrown. */
export async function openCitation(ctx: IOpenContext, cited: ICitation): Promise<void> {
  if (ctx.labPathPrefix === null) {
    await showErrorMessage(
      'Cannot open the source',
      `The indexed folder lies outside the folder Jupyter serves, so ${cited.path} cannot be opened in Lab.`
    );
    return;
  }
  const found = await followed(cited);
  if (found === null) {
    return;
  }
  // Where the quoted sentences are, when the answer says (else the whole passage); the
  // live index's follow-up only moves passages, so it is applied to the chunk first.
  const citation = found === cited ? narrowest(cited) : found;
  const path = ctx.labPathPrefix + citation.path;
  try {
    if (citation.kind === 'pdf') {
      openPdfPreview(ctx, path, citation);
    } else if (citation.kind === 'notebook') {
      await openNotebook(ctx, path, citation);
    } else {
      await openText(ctx, path, citation);
    }
  } catch (err) {
    await showErrorMessage('Cannot open the source', `${path}: ${(err as Error).message ?? err}`);
  }
}
