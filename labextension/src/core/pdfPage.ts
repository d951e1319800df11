/**
 * One PDF page as the server renders it (plain, athena_lab/pdf/preview.py) with the cited
 * regions drawn over it as boxes, scrolled so the first box is in view. Shared by the Lab
 * preview tab (../pdfPreview.ts) and the chat page's viewer (../page/viewer.ts); plain DOM.
 */
import { ICitation, IRegion } from '../types';
import { pdfRegions } from './citations';
import { h } from './dom';

/** The server renders PDF pages at 2 px per point (athena_lab/pdf/preview.py), less on a
 * page past its pixel cap (a poster, a map); it says which in `X-Athena-Scale`. */
export const PDF_SCALE = 2;

/** A rendered page: an image URL and its pixels per PDF point. */
export interface IPageImage {
  url: string;
  scale: number;
}

/** The page image of a `GET /athena/pdf/page` response, as an object URL with its scale. */
export async function pageImage(response: Response): Promise<IPageImage> {
  const scale = Number(response.headers.get('X-Athena-Scale'));
  return { url: URL.createObjectURL(await response.blob()), scale: scale > 0 ? scale : PDF_SCALE };
}

/** Class names of the parts, so each host styles them under its own root. */
export interface IPdfPageClasses {
  frame: string;
  image: string;
  region: string;
}

export interface IPdfPage {
  /** The frame: the image with the boxes over it. */
  node: HTMLElement;
  /** Resolves once the image has loaded and the boxes are placed (rejects when it cannot load). */
  ready: Promise<void>;
}

/**
 * The page of `citation` from `page`, its regions (core/citations.ts pdfRegions) boxed.
 * When the image has loaded, the nearest scrolling ancestor is scrolled so the first box
 * sits a third of the way down its view.
 */
export function pdfPage(citation: ICitation, page: IPageImage, classes: IPdfPageClasses): IPdfPage {
  const image = h('img', {
    class: classes.image,
    'data-testid': 'pdf-image',
    alt: `Page ${citation.page ?? 1} of ${citation.path}, cited regions highlighted`
  });
  const node = h('div', { class: classes.frame, 'data-page': String(citation.page ?? 1) }, image);
  const ready = new Promise<void>((resolve, reject) => {
    image.addEventListener('load', () => {
      // Boxes in % of the page, so they follow the image at any width.
      const widthPt = image.naturalWidth / page.scale;
      const heightPt = image.naturalHeight / page.scale;
      const boxes = pdfRegions(citation).map(region => regionBox(region, widthPt, heightPt, classes.region));
      node.append(...boxes);
      requestAnimationFrame(() => {
        if (boxes.length) {
          scrollToBox(boxes[0]);
        }
        resolve();
      });
    });
    image.addEventListener('error', () => reject(new Error(`Cannot show page ${citation.page} of ${citation.path}.`)));
  });
  image.src = page.url;
  return { node, ready };
}

function regionBox(region: IRegion, widthPt: number, heightPt: number, className: string): HTMLElement {
  const box = h('div', { class: className, 'data-testid': 'pdf-region' });
  box.dataset.x = String(region.x);
  box.dataset.y = String(region.y);
  box.dataset.page = String(region.page ?? '');
  box.style.left = `${(100 * region.x) / widthPt}%`;
  box.style.top = `${(100 * region.y) / heightPt}%`;
  box.style.width = `${(100 * region.width) / widthPt}%`;
  box.style.height = `${(100 * region.height) / heightPt}%`;
  return box;
}

/** The nearest ancestor that scrolls vertically, or null. */
function scroller(node: HTMLElement): HTMLElement | null {
  for (let at = node.parentElement; at; at = at.parentElement) {
    const overflow = getComputedStyle(at).overflowY;
    if ((overflow === 'auto' || overflow === 'scroll') && at.scrollHeight > at.clientHeight) {
      return at;
    }
  }
  return null;
}

/** Scroll only the box's own scroller (never Lab's shell): the box a third of the way down. */
export function scrollToBox(box: HTMLElement): void {
  const area = scroller(box);
  if (!area) {
    return;
  }
  const offset = box.getBoundingClientRect().top - area.getBoundingClientRect().top;
  area.scrollTop = Math.max(0, area.scrollTop + offset - area.clientHeight / 3);
  const sideways = box.getBoundingClientRect().left - area.getBoundingClientRect().left;
  if (sideways < 0 || sideways > area.clientWidth) {
    area.scrollLeft = Math.max(0, area.scrollLeft + sideways - 24);
  }
}
