/**
 * A main-area tab showing one PDF page as the server renders it, cited regions
 * highlighted, with a button to open the PDF itself in Lab's viewer.
 */
import { MainAreaWidget } from '@jupyterlab/apputils';
import { Widget } from '@lumino/widgets';

import { pdfPageImage } from './api';
import { citationLabel } from './core/citations';
import { athenaIcon } from './icon';
import { ICitation } from './types';

class PdfPageView extends Widget {
  private _objectUrl: string | null = null;

  constructor(citation: ICitation, openPdf: () => void) {
    super();
    this.addClass('athena-pdf-preview');
    this.node.dataset.testid = 'athena-pdf-preview';
    const bar = document.createElement('div');
    bar.className = 'athena-pdf-preview-bar';
    const label = document.createElement('span');
    label.textContent = citationLabel(citation);
    const open = document.createElement('button');
    open.className = 'jp-Button jp-mod-styled jp-mod-accept athena-open-pdf';
    open.textContent = 'Open PDF';
    open.addEventListener('click', openPdf);
    bar.append(label, open);
    this.node.append(bar, this._imageArea(citation));
  }

  private _imageArea(citation: ICitation): HTMLElement {
    const area = document.createElement('div');
    area.className = 'athena-pdf-page';
    const status = document.createElement('p');
    status.textContent = 'Rendering page\u2026';
    area.append(status);
    pdfPageImage(citation)
      .then(url => {
        this._objectUrl = url;
        const img = document.createElement('img');
        img.className = 'athena-pdf-page-image';
        img.alt = `Page ${citation.page} of ${citation.path}, cited regions highlighted`;
        img.src = url;
        status.replaceWith(img);
      })
      .catch(err => {
        status.textContent = `Cannot show this page: ${err.message ?? err}`;
        status.className = 'athena-error';
      });
    return area;
  }

  dispose(): void {
    if (this._objectUrl) {
      URL.revokeObjectURL(this._objectUrl);
    }
    super.dispose();
  }
}

/** A preview tab for a PDF citation; `openPdf` opens the document itself. */
export function createPdfPreview(
  citation: ICitation,
  openPdf: () => void
): MainAreaWidget<PdfPageView> {
  const widget = new MainAreaWidget({ content: new PdfPageView(citation, openPdf) });
  widget.id = `athena-pdf-${citation.chunk_id ?? citation.path}-${citation.page}`;
  widget.title.label = `${citation.path.split('/').pop()} p. ${citation.page}`;
  widget.title.caption = citationLabel(citation);
  widget.title.icon = athenaIcon;
  widget.title.closable = true;
  return widget;
}
