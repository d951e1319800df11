/**
 * Untrusted Markdown (model answers, document text) to DOM outside Lab — the chat page,
 * the drop-in widget and the notebook answer widget: `marked` parses it, the core
 * sanitizer (./sanitizer.ts, DOMPurify with the sidebar's rules) returns inert DOM nodes, which
 * are inserted as they are (never serialized and parsed again), then the core
 * marks unsupported sentences and turns `[n]` into buttons (./markers.ts decorateAnswer).
 * The sidebar renders through Lab's own Markdown renderer (src/markdown.ts: maths,
 * highlighted code, Lab's theme) with the same sanitizer and the same decorateAnswer.
 */
import { marked } from 'marked';

import { INotFound } from './contract';
import { decorateAnswer } from './markers';
import { withoutRestRoles } from './restRoles';
import { sanitizeToFragment } from './sanitizer';

/** `text` rendered into `host` (replacing what was there), made safe; reST roles are shown
 * as Sphinx shows them (./restRoles.ts). */
export function renderMarkdown(host: HTMLElement, text: string): void {
  const html = marked.parse(withoutRestRoles(text), { async: false, gfm: true }) as string;
  host.replaceChildren(sanitizeToFragment(html));
}

/**
 * An answer: Markdown, unsupported sentences marked, markers made by `marker`.
 * Returns the unsupported sentences that could not be found in the text.
 */
export function renderAnswer(
  host: HTMLElement,
  text: string,
  unsupported: string[],
  known: Set<number>,
  marker: (ids: number[], text: string) => HTMLElement,
  notFound: INotFound[] = []
): string[] {
  renderMarkdown(host, text);
  return decorateAnswer(host, unsupported, known, marker, notFound);
}
