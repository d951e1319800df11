/**
 * The source viewer beside the chat (a full-screen sheet at phone width). It opens a
 * citation where the evidence is: a text source at the cited lines (line numbers, the
 * cited ones highlighted, scrolled into view), a notebook citation as its cells, a PDF
 * citation as the server-rendered page with the quoted lines boxed, the first in view. Escape closes it
 * and gives focus back to the button that opened it.
 */
import { cellNumber, citationLabel, narrowest } from '../core/citations';
import { button, h } from '../core/dom';
import { IPageImage, pdfPage } from '../core/pdfPage';
import { ICitation } from '../types';
import { ICell, ISourceLines, pageClient } from './api';
import { renderMarkdown } from '../core/render';

/** Lines shown above and below the cited ones. */
const CONTEXT = 12;

/** Where the viewer reads sources: the page's same-origin API, or the widget's cross-origin one. */
export interface IViewerSource {
  getSource(path: string, start: number, end: number): Promise<ISourceLines>;
  getCells(citation: ICitation): Promise<ICell[]>;
  /** The page image (a blob: URL) and its scale, fetched with the page's cookie or, by the
   * widget, cross-origin without credentials. */
  pdfPageImage(citation: ICitation): Promise<IPageImage>;
}

export const pageSource: IViewerSource = pageClient;

export class SourceViewer {
  readonly node: HTMLElement;
  private _title = h('h2', { class: 'viewer-title', id: 'viewer-title', tabindex: '-1' });
  private _body = h('div', { class: 'viewer-body', 'data-testid': 'viewer-body' });
  private _trigger: HTMLElement | null = null;
  /** Bumped by each open(): a citation that loads after a later one was opened is dropped. */
  private _opened = 0;

  /**
   * `onToggle` tells the host the viewer opened or closed; the page marks its <body> (the
   * widget must not touch the host page's body).
   */
  constructor(
    private _source: IViewerSource = pageSource,
    private _onToggle: (open: boolean) => void = open => document.body.classList.toggle('viewer-open', open)
  ) {
    this.node = h(
      'aside',
      { class: 'viewer', 'aria-labelledby': 'viewer-title', 'data-testid': 'viewer' },
      h(
        'header',
        { class: 'viewer-header' },
        this._title,
        button('Close', () => this.close(), { class: 'viewer-close', 'aria-label': 'Close the source' })
      ),
      this._body
    );
    this.node.hidden = true;
    this.node.addEventListener('keydown', event => {
      if (event.key === 'Escape') {
        this.close();
      }
    });
  }

  async open(cited: ICitation, trigger: HTMLElement | null): Promise<void> {
    const opened = ++this._opened;
    // Where the quoted sentences are, as the label says (core/citations.ts narrowest).
    const citation = narrowest(cited);
    this._trigger = trigger;
    this.node.hidden = false;
    this.node.dataset.kind = citation.kind;
    this._onToggle(true);
    this._title.textContent = `[${citation.id}] ${citationLabel(citation)}`;
    this._body.replaceChildren(h('p', { class: 'muted' }, 'Loading\u2026'));
    this._title.focus();
    try {
      const view =
        citation.kind === 'pdf'
          ? await pdfView(this._source, citation)
          : citation.kind === 'notebook'
            ? await notebookView(this._source, citation)
            : await textView(this._source, citation);
      if (opened !== this._opened) {
        return; // another citation was opened while this one loaded
      }
      this._body.replaceChildren(view);
      if (citation.kind !== 'pdf') {
        this._body.querySelector('.cited')?.scrollIntoView({ block: 'center' }); // a PDF page scrolls to its first box
      }
    } catch (err) {
      if (opened !== this._opened) {
        return;
      }
      this._body.replaceChildren(h('p', { class: 'error', role: 'alert' }, (err as Error).message));
    }
  }

  close(): void {
    this.node.hidden = true;
    this._onToggle(false);
    this._trigger?.focus();
    this._trigger = null;
  }

  get isOpen(): boolean {
    return !this.node.hidden;
  }
}

async function textView(api: IViewerSource, citation: ICitation): Promise<HTMLElement> {
  const first = citation.start_line ?? 1;
  const last = citation.end_line ?? first;
  const source = await api.getSource(citation.path, Math.max(1, first - CONTEXT), last + CONTEXT);
  const lines = source.lines.map((text, n) => {
    const number = source.start_line + n;
    const cited = number >= first && number <= last;
    return h(
      'div',
      { class: cited ? 'line cited' : 'line', 'data-line': String(number) },
      h('span', { class: 'line-number', 'aria-hidden': 'true' }, String(number)),
      h('code', {}, text || ' ')
    );
  });
  return h(
    'div',
    { class: 'code', role: 'region', 'aria-label': `Lines ${first}\u2013${last} of ${citation.path}`, tabindex: '0' },
    ...lines
  );
}

async function notebookView(api: IViewerSource, citation: ICitation): Promise<HTMLElement> {
  const cells = await api.getCells(citation);
  return h(
    'div',
    { class: 'notebook' },
    ...cells.map(cell => {
      const body = h('div', { class: 'cell-body' });
      if (cell.cell_type === 'markdown') {
        renderMarkdown(body, cell.source);
      } else {
        body.append(h('pre', {}, h('code', {}, cell.source)));
      }
      const number = cellNumber({ ...citation, cell: cell.index });
      return h(
        'section',
        { class: 'cell cited', 'data-cell-type': cell.cell_type, 'data-testid': 'notebook-cell' },
        h('header', { class: 'cell-header' }, `cell ${number} \u00b7 ${cell.cell_type}`),
        body
      );
    })
  );
}

async function pdfView(api: IViewerSource, citation: ICitation): Promise<HTMLElement> {
  // The quoted lines boxed (core/pdfPage.ts), the first box scrolled into view once loaded.
  const image = await api.pdfPageImage(citation);
  const page = pdfPage(citation, image, {
    frame: 'pdf-page cited',
    image: 'pdf-image',
    region: 'pdf-region'
  });
  page.ready
    .catch((err: Error) => page.node.replaceWith(h('p', { class: 'error', role: 'alert' }, err.message)))
    .finally(() => URL.revokeObjectURL(image.url)); // a loaded <img> keeps showing it
  return page.node;
}
