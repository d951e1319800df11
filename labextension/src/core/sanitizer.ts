/**
 * The sanitizer for everything the sidebar and the chat page render from model answers and document
 * snippets. Lab's own sanitizer is made for notebooks a person chose to open: it keeps
 * remote images (a request that fires with no click and can carry data out in its URL)
 * and command-linker attributes (a click runs a Lab command). A model's answer or an
 * indexed document is neither chosen nor reviewed, so here the rules are stricter:
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
 * Parsing happens in a DOMParser document, which has no browsing context: nothing in it
 * loads or runs while it is being cleaned.
 */
/** Elements kept (with their attributes filtered). */
const KEEP = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'blockquote', 'br', 'caption', 'cite', 'code', 'col',
  'colgroup', 'dd', 'del', 'details', 'dfn', 'div', 'dl', 'dt', 'em', 'figcaption', 'figure',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'i', 'img', 'input', 'ins', 'kbd', 'li', 'mark',
  'ol', 'p', 'pre', 'q', 'rp', 'rt', 'ruby', 's', 'samp', 'small', 'span', 'strike', 'strong',
  'sub', 'summary', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'time', 'tr', 'tt',
  'u', 'ul', 'var', 'wbr'
]);

/** Elements removed with everything inside them. */
const DROP = new Set([
  'applet', 'area', 'audio', 'base', 'canvas', 'datalist', 'dialog', 'embed', 'form', 'frame',
  'frameset', 'head', 'iframe', 'link', 'map', 'math', 'meta', 'noembed', 'noframes',
  'noscript', 'object', 'optgroup', 'option', 'param', 'plaintext', 'portal', 'script',
  'select', 'slot', 'source', 'style', 'svg', 'template', 'textarea', 'title', 'track',
  'video', 'xmp'
]);

const GLOBAL_ATTRIBUTES = ['title', 'lang', 'dir', 'class'];
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

/** Make `a` open in a new tab without telling the target where it came from. */
function hardenLink(a: Element, href: string): void {
  a.setAttribute('href', href);
  a.setAttribute('target', '_blank');
  a.setAttribute('rel', 'noopener noreferrer');
  a.setAttribute('referrerpolicy', 'no-referrer');
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

function filterAttributes(element: Element, tag: string): void {
  const allowed = new Set([...GLOBAL_ATTRIBUTES, ...(ATTRIBUTES[tag] ?? [])]);
  for (const { name } of Array.from(element.attributes)) {
    if (!allowed.has(name)) {
      element.removeAttribute(name);
    }
  }
  const classes = keptClasses(tag, element.getAttribute('class') || '', element.closest('code') !== null);
  if (classes) {
    element.setAttribute('class', classes);
  } else {
    element.removeAttribute('class');
  }
  for (const size of ['width', 'height']) {
    const value = element.getAttribute(size);
    if (value !== null && !NUMBER.test(value)) {
      element.removeAttribute(size);
    }
  }
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

/** Clean one kept element in place; returns a replacement node when it must change. */
function cleanElement(element: Element, tag: string): Node | null {
  if (tag === 'img') {
    const src = (element.getAttribute('src') || '').trim();
    if (!DATA_IMAGE.test(src)) {
      return replaceImage(element);
    }
    filterAttributes(element, tag);
    element.setAttribute('src', src);
    return null;
  }
  if (tag === 'input' && element.getAttribute('type') !== 'checkbox') {
    return element.ownerDocument.createTextNode('');
  }
  filterAttributes(element, tag);
  if (tag === 'input') {
    element.setAttribute('disabled', '');
  }
  if (tag === 'a') {
    const href = safeLinkUrl(element.getAttribute('href') || '');
    if (href === null) {
      element.removeAttribute('href');
    } else {
      hardenLink(element, href);
    }
  }
  return null;
}

/** Clean the children of `parent`, depth first. */
function cleanChildren(parent: Node): void {
  for (const child of Array.from(parent.childNodes)) {
    if (child.nodeType === Node.COMMENT_NODE || child.nodeType === Node.PROCESSING_INSTRUCTION_NODE) {
      child.remove();
      continue;
    }
    if (child.nodeType !== Node.ELEMENT_NODE) {
      continue;
    }
    const element = child as Element;
    const tag = element.localName.toLowerCase();
    if (DROP.has(tag) || element.namespaceURI !== 'http://www.w3.org/1999/xhtml') {
      element.remove();
      continue;
    }
    cleanChildren(element);
    if (!KEEP.has(tag)) {
      element.replaceWith(...Array.from(element.childNodes));
      continue;
    }
    const replacement = cleanElement(element, tag);
    if (replacement) {
      element.replaceWith(replacement);
    }
  }
}

/** `dirty` HTML reduced to what the rules above allow. */
export function sanitizeUntrustedHtml(dirty: string): string {
  const doc = new DOMParser().parseFromString(`<!DOCTYPE html><body>${dirty}`, 'text/html');
  cleanChildren(doc.body);
  return doc.body.innerHTML;
}
