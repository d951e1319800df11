/**
 * The main-area tab showing a cited PDF page as the server renders it, the cited regions
 * boxed and scrolled into view, with a button that opens the PDF itself at that page.
 * One tab per PDF: citing another page of it moves that tab to the new page.
 */
import { MainAreaWidget } from '@jupyterlab/apputils';
import { Widget } from '@lumino/widgets';

import { pdfPageImage } from './api';
import { citationLabel, pdfTabTitle } from './core/citations';
import { pdfPage } from './core/pdfPage';
import { athenaIcon } from './icon';
import { ICitation } from './types';

class PdfPageView extends Widget {
  private _objectUrl: string | null = null;
  private _label = document.createElement('span');
  private _area = document.createElement('div');
  private _citation: ICitation | null = null;
  /** Bumped by each show(), so a slow render of an earlier page never replaces a later one. */
  private _shown = 0;

  constructor(openPdf: (citation: ICitation) => void) {
    super();
    this.addClass('athena-pdf-preview');
    this.node.dataset.testid = 'athena-pdf-preview';
    const bar = document.createElement('div');
    bar.className = 'athena-pdf-preview-bar';
    this._label.className = 'athena-pdf-preview-label';
    const open = document.createElement('button');
    open.className = 'jp-Button jp-mod-styled jp-mod-accept athena-open-pdf';
    open.textContent = 'Open PDF';
    open.title = 'Open the PDF itself in Lab, at this page';
    open.addEventListener('click', () => this._citation && openPdf(this._citation));
    bar.append(this._label, open);
    this._area.className = 'athena-pdf-page';
    this._area.tabIndex = 0;
    this.node.append(bar, this._area);
  }

  get citation(): ICitation | null {
    return this._citation;
  }

  /** Show `citation`'s page (and its regions); resolves once they are on screen. */
  async showPage(citation: ICitation): Promise<void> {
    const shown = ++this._shown;
    this._citation = citation;
    this._label.textContent = citationLabel(citation);
    this._label.title = citationLabel(citation); // the whole label where the tab cuts it short
    this.node.dataset.page = String(citation.page ?? 1);
    const status = document.createElement('p');
    status.textContent = 'Rendering page\u2026';
    this._area.replaceChildren(status);
    try {
      const image = await pdfPageImage(citation);
      if (shown !== this._shown) {
        URL.revokeObjectURL(image.url);
        return;
      }
      this._revoke();
      this._objectUrl = image.url;
      const page = pdfPage(citation, image, {
        frame: 'athena-pdf-page-frame',
        image: 'athena-pdf-page-image',
        region: 'athena-pdf-region'
      });
      status.replaceWith(page.node);
      await page.ready;
    } catch (err) {
      if (shown === this._shown) {
        status.textContent = `Cannot show this page: ${(err as Error).message ?? err}`;
        status.className = 'athena-error';
        this._area.replaceChildren(status);
      }
    }
  }

  private _revoke(): void {
    if (this._objectUrl) {
      URL.revokeObjectURL(this._objectUrl);
      this._objectUrl = null;
    }
  }

  dispose(): void {
    this._revoke();
    super.dispose();
  }
}

export type PdfPreview = MainAreaWidget<PdfPageView>;

/** A preview tab for the PDF at `path`; `openPdf` opens the document itself at a citation's page. */
export function createPdfPreview(path: string, openPdf: (citation: ICitation) => void): PdfPreview {
  const widget = new MainAreaWidget({ content: new PdfPageView(openPdf) });
  widget.addClass('athena-pdf-preview-tab');
  widget.node.dataset.path = path;
  widget.title.icon = athenaIcon;
  widget.title.closable = true;
  widget.title.label = path.split('/').pop() ?? path;
  widget.title.caption = path;
  return widget;
}

/** Move `preview` to `citation`'s page: its title names the page, its tooltip the full path. */
export function showInPreview(preview: PdfPreview, path: string, citation: ICitation): Promise<void> {
  preview.title.label = pdfTabTitle(citation);
  preview.title.caption = `${path} \u2014 ${citationLabel(citation)}`;
  return preview.content.showPage(citation);
}
