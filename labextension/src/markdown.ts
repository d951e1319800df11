/**
 * Renders model output and document snippets as Markdown through Lab's own renderer
 * (its Markdown parser, code highlighting and math), always untrusted and through the
 * sidebar's own sanitizer (./sanitizer.ts): nothing a document or a model writes can
 * run, fetch from another host or trigger a Lab command.
 */
import { IRenderMimeRegistry, MimeModel } from '@jupyterlab/rendermime';

import { findMarkers } from './citations';
import { untrustedSanitizer } from './sanitizer';

const MIME = 'text/markdown';

const untrustedRegistries = new WeakMap<IRenderMimeRegistry, IRenderMimeRegistry>();

/** `rendermime` with the untrusted sanitizer, made once per registry. */
function untrusted(rendermime: IRenderMimeRegistry): IRenderMimeRegistry {
  let registry = untrustedRegistries.get(rendermime);
  if (!registry) {
    registry = rendermime.clone({ sanitizer: untrustedSanitizer });
    untrustedRegistries.set(rendermime, registry);
  }
  return registry;
}

/** Render `text` into `host`, replacing what was there. */
export async function renderMarkdown(
  rendermime: IRenderMimeRegistry,
  host: HTMLElement,
  text: string
): Promise<void> {
  const renderer = untrusted(rendermime).createRenderer(MIME);
  const model = new MimeModel({ data: { [MIME]: text }, trusted: false });
  await renderer.renderModel(model);
  host.replaceChildren(...Array.from(renderer.node.childNodes));
  renderer.dispose();
}

/** Text nodes under `root` that are prose (not code), in document order. */
function proseTextNodes(root: HTMLElement): Text[] {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: node =>
      node.parentElement?.closest('code, pre, button, mark.athena-unsupported')
        ? NodeFilter.FILTER_REJECT
        : NodeFilter.FILTER_ACCEPT
  });
  const nodes: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    nodes.push(node as Text);
  }
  return nodes;
}

/**
 * Replace each `[n]` marker naming a known citation with an element from `make`.
 * Works on the rendered DOM so Markdown can never forge a marker element.
 */
export function linkMarkers(
  root: HTMLElement,
  known: Set<number>,
  make: (ids: number[], text: string) => HTMLElement
): void {
  for (const node of proseTextNodes(root)) {
    const text = node.data;
    const matches = findMarkers(text, known);
    if (!matches.length) {
      continue;
    }
    const fragment = document.createDocumentFragment();
    let cursor = 0;
    for (const match of matches) {
      fragment.append(text.slice(cursor, match.index));
      fragment.append(make(match.ids, text.substr(match.index, match.length)));
      cursor = match.index + match.length;
    }
    fragment.append(text.slice(cursor));
    node.replaceWith(fragment);
  }
}

/**
 * Wrap each unsupported sentence in a visible mark where it lies within one text node.
 * Returns the sentences that could not be located, so the caller can list them.
 */
export function markUnsupported(root: HTMLElement, sentences: string[]): string[] {
  const missing: string[] = [];
  for (const sentence of sentences) {
    const needle = sentence.trim();
    const node = needle
      ? proseTextNodes(root).find(candidate => candidate.data.includes(needle))
      : undefined;
    if (!node) {
      missing.push(sentence);
      continue;
    }
    const start = node.data.indexOf(needle);
    const target = node.splitText(start);
    target.splitText(needle.length);
    const mark = document.createElement('mark');
    mark.className = 'athena-unsupported';
    mark.title = 'Not supported by the cited sources';
    target.replaceWith(mark);
    mark.append(target);
  }
  return missing;
}
