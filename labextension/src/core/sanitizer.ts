/**
 * The sanitizer for everything the sidebar, the chat page, the drop-in and the notebook
 * widget render from model answers and document snippets. It is DOMPurify with the
 * project's rules on top. Lab's own sanitizer is made for notebooks a person chose to
 * open: it keeps remote images (a request that fires with no click and can carry data out
 * in its URL) and command-linker attributes (a click runs a Lab command). A model's answer
 * or an indexed document is neither chosen nor reviewed, so here the rules are stricter:
 *
 * - an allowlist of prose elements; scripts, styles, frames, objects, forms, media,
 *   inline SVG/MathML and document-level elements are removed with their content, and
 *   any other element is unwrapped (its text stays);
 * - an allowlist of attributes: no event handlers, no `style` (so no CSS `url()`), no
 *   `srcset`/`background`/`poster`, no `id`/`name` (DOM clobbering), no `data-*` (so
 *   no command linker);
 * - no `class` but the ones the project's own Markdown renderers write (`keptClasses`):
 *   any other class would let an answer borrow the host page's or Lab's styles (a
 *   `<div class="root">` drawn over a docs site, a `<span class="jp-Dialog">`);
 * - links only to absolute http(s) and mailto URLs, opened in a new tab with no referrer;
 * - images only from `data:` URLs of image types (nothing to fetch). That includes
 *   `image/svg+xml`: an SVG shown through `<img>` runs no script and loads nothing, and
 *   Lab draws Mermaid diagrams that way. A remote image becomes a link to it instead.
 *
 * The result is DOM nodes (`sanitizeToFragment`), inserted as they are: cleaning HTML,
 * serializing it and parsing it again is how mutation XSS slips through a sanitizer. The
 * one string output (`sanitizeUntrustedHtml`) exists because Lab's render registry takes
 * an `ISanitizer` that returns a string; it is DOMPurify's own string mode.
 */
import createDOMPurify, { type DOMPurify } from 'dompurify';

/** Elements kept (with their attributes filtered). */
export const KEPT_ELEMENTS: readonly string[] = [
  'a', 'abbr', 'b', 'bdi', 'bdo', 'blockquote', 'br', 'caption', 'cite', 'code', 'col',
  'colgroup', 'dd', 'del', 'details', 'dfn', 'div', 'dl', 'dt', 'em', 'figcaption', 'figure',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img', 'input', 'ins', 'kbd', 'li', 'mark',
  'ol', 'p', 'pre', 'q', 'rp', 'rt', 'ruby', 's', 'samp', 'small', 'span', 'strike', 'strong',
  'sub', 'summary', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'time', 'tr', 'tt',
  'u', 'ul', 'var', 'wbr'
];

/** Elements removed with everything inside them (any other element is unwrapped). */
const DROP = [
  'applet', 'area', 'audio', 'base', 'canvas', 'datalist', 'dialog', 'embed', 'form', 'frame',
  'frameset', 'head', 'iframe', 'link', 'map', 'math', 'meta', 'noembed', 'noframes',
  'noscript', 'object', 'optgroup', 'option', 'param', 'picture', 'plaintext', 'portal',
  'script', 'select', 'slot', 'source', 'style', 'svg', 'template', 'textarea', 'title',
  'track', 'video', 'xmp'
];

/** Attributes kept on any kept element; which element may carry which is checked below. */
const GLOBAL_ATTRIBUTES = new Set(['title', 'lang', 'dir', 'class']);
const ATTRIBUTES: Record<string, string[]> = {
  a: ['href'],
  img: ['src', 'alt', 'width', 'height'],
  td: ['colspan', 'rowspan', 'align'],
  th: ['colspan', 'rowspan', 'align', 'scope'],
  col: ['span'],
  colgroup: ['span'],
  ol: ['start', 'reversed', 'type'],
  li: ['value'],
  details: ['open'],
  input: ['type', 'checked', 'disabled'],
  time: ['datetime']
};
const ALL_ATTRIBUTES = [...GLOBAL_ATTRIBUTES, ...new Set(Object.values(ATTRIBUTES).flat())];

const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);
const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp|avif|bmp|svg\+xml)[;,]/i;
/** `marked` and Lab's Markdown parser mark a fenced block's language on its `<code>`. */
const CODE_LANGUAGE = /^language-[\w+#.-]{1,64}$/;
/** Lab's syntax highlighting (CodeMirror's generated names) on the `<span>`s inside code. */
const HIGHLIGHT_TOKEN = /^\u037c[0-9a-z]{1,6}$/;
const NUMBER = /^\d{1,5}$/;

/** The URL when it is an absolute http(s)/mailto link, else null (relative, javascript:, …). */
export function safeLinkUrl(raw: string): string | null {
  try {
    const url = new URL(raw.trim());
    return LINK_PROTOCOLS.has(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * The classes of `className` an element keeps: only what the project's own Markdown
 * renderers write — `language-*` on `<code>` (`marked`, Lab's parser) and CodeMirror's
 * highlight classes on a `<span>` inside code. Everything else goes, so content cannot
 * take on the host page's, Lab's or athena's own classes.
 */
export function keptClasses(tag: string, className: string, inCode: boolean): string {
  const names = className.split(/\s+/).filter(Boolean);
  if (tag === 'code') {
    return names.filter(name => CODE_LANGUAGE.test(name)).join(' ');
  }
  if (tag === 'span' && inCode) {
    return names.filter(name => HIGHLIGHT_TOKEN.test(name)).join(' ');
  }
  return '';
}

/** Make `a` open in a new tab without telling the target where it came from. */
function hardenLink(a: Element, href: string): void {
  a.setAttribute('href', href);
  a.setAttribute('target', '_blank');
  a.setAttribute('rel', 'noopener noreferrer');
  a.setAttribute('referrerpolicy', 'no-referrer');
}

/** A remote image as a link the reader may follow, or its alt text when it has no URL. */
function replaceImage(img: Element): Node {
  const doc = img.ownerDocument;
  const alt = img.getAttribute('alt') || '';
  const url = safeLinkUrl(img.getAttribute('src') || '');
  if (!url || url.startsWith('mailto:')) {
    return doc.createTextNode(alt);
  }
  const link = doc.createElement('a');
  hardenLink(link, url);
  link.className = 'athena-remote-image';
  link.title = `Remote image, not loaded: ${url}`;
  link.textContent = alt || url;
  return link;
}

/**
 * The rules DOMPurify's allowlists cannot say, applied to the DOM it returned: links
 * hardened or stripped, remote images turned into links, only checkboxes kept (disabled).
 * Nothing here parses HTML; it only moves and creates nodes.
 */
function applyLinkAndImageRules(root: DocumentFragment): void {
  for (const a of Array.from(root.querySelectorAll('a[href]'))) {
    const href = safeLinkUrl(a.getAttribute('href') || '');
    if (href === null) {
      a.removeAttribute('href');
    } else {
      hardenLink(a, href);
    }
  }
  for (const img of Array.from(root.querySelectorAll('img'))) {
    const src = (img.getAttribute('src') || '').trim();
    if (DATA_IMAGE.test(src)) {
      img.setAttribute('src', src);
    } else {
      img.replaceWith(replaceImage(img));
    }
  }
  for (const input of Array.from(root.querySelectorAll('input'))) {
    if (input.getAttribute('type') !== 'checkbox') {
      input.remove();
    } else {
      input.setAttribute('disabled', '');
    }
  }
}

/** A DOMPurify instance for `window` carrying the per-attribute rules as a hook. */
function makePurifier(window: Window): DOMPurify {
  const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    const tag = node.nodeName.toLowerCase();
    const name = data.attrName;
    if (!GLOBAL_ATTRIBUTES.has(name) && !(ATTRIBUTES[tag] ?? []).includes(name)) {
      data.keepAttr = false;
    } else if (name === 'class') {
      data.attrValue = keptClasses(tag, data.attrValue, node.closest('code') !== null);
      data.keepAttr = data.attrValue !== '';
    } else if ((name === 'width' || name === 'height') && !NUMBER.test(data.attrValue)) {
      data.keepAttr = false;
    }
  });
  return purify;
}

const CONFIG = {
  ALLOWED_TAGS: [...KEPT_ELEMENTS],
  ALLOWED_ATTR: ALL_ATTRIBUTES,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  FORBID_CONTENTS: DROP,
  KEEP_CONTENT: true,
  RETURN_DOM_FRAGMENT: true as const
};

/** The sanitizer bound to one window (the page's, or a test's DOM). */
export interface IUntrustedSanitizer {
  /** `dirty` HTML as DOM nodes that hold only what the rules allow. */
  toFragment(dirty: string): DocumentFragment;
  /** The same as HTML text, for APIs that take a string (Lab's `ISanitizer`). */
  toHtml(dirty: string): string;
}

/** Build the sanitizer for `window`; the page uses `sanitizeToFragment` below. */
export function createUntrustedSanitizer(window: Window): IUntrustedSanitizer {
  const purify = makePurifier(window);
  const toFragment = (dirty: string): DocumentFragment => {
    const fragment = purify.sanitize(dirty, CONFIG);
    applyLinkAndImageRules(fragment);
    return fragment;
  };
  return {
    toFragment,
    toHtml: (dirty: string): string => {
      const holder = window.document.createElement('div');
      holder.append(toFragment(dirty));
      return holder.innerHTML;
    }
  };
}

let pageSanitizer: IUntrustedSanitizer | null = null;

/** The sanitizer for this page, made on first use (module load may precede the DOM). */
function page(): IUntrustedSanitizer {
  pageSanitizer ??= createUntrustedSanitizer(window);
  return pageSanitizer;
}

/** `dirty` HTML as safe DOM nodes for this page, ready to insert. */
export function sanitizeToFragment(dirty: string): DocumentFragment {
  return page().toFragment(dirty);
}

/** `dirty` HTML reduced to what the rules allow, as text (only for Lab's `ISanitizer`). */
export function sanitizeUntrustedHtml(dirty: string): string {
  return page().toHtml(dirty);
}
