/**
 * The `[n]` markers and unsupported-sentence marks, applied to answer HTML that is
 * already rendered and sanitised. Working on the DOM (not on the Markdown) means a
 * document or a model can never forge a marker element: markers are made here, from
 * text nodes. Needs only `document` (no Lab), so the sidebar, the chat page at `/` and
 * the notebook widget share it: `decorateAnswer` is the one step after Markdown, whichever
 * renderer made the HTML (Lab's in the sidebar, ./render.ts elsewhere).
 */
import { citationLabel, findMarkers } from './citations';
import { INotFound } from './contract';
import { button, h } from './dom';
import { ICitation } from '../types';

/** What differs between the front ends' `[n]` buttons: their class, how a source opens. */
export interface IMarkerHooks {
  /** The front end's class for the button (its stylesheet's scope). */
  className: string;
  /** The citation numbered `id` now (the list can arrive after the marker is drawn). */
  citation: (id: number) => ICitation | undefined;
  /** Open the source (the sidebar's editor tab, the page's viewer, the widget's Lab command). */
  open: (citation: ICitation, marker: HTMLButtonElement) => void;
  /** Show `1` rather than `[1]` (the widget draws its markers as chips). */
  bare?: boolean;
  /**
   * A richer preview than the label in `title` (the sidebar's hover snippet); when given,
   * no `title` is set, so the browser's tooltip does not cover it.
   */
  preview?: (marker: HTMLButtonElement, citation: ICitation) => void;
}

/**
 * The one `[n]` button all front ends draw: it names the source it opens (to a screen
 * reader and as a tooltip) and opens the first citation of `[1, 2]`.
 */
export function citationMarker(ids: number[], text: string, hooks: IMarkerHooks): HTMLButtonElement {
  const first = hooks.citation(ids[0]);
  const label = first ? citationLabel(first) : '';
  const marker = button(
    hooks.bare ? text.replace(/^\[|\]$/g, '') : text,
    () => {
      const citation = hooks.citation(ids[0]);
      if (citation) {
        hooks.open(citation, marker);
      }
    },
    {
      class: hooks.className,
      'data-citation-id': String(ids[0]),
      'aria-label': `Open source ${ids.join(', ')}${label ? `: ${label}` : ''}`,
      title: label && !hooks.preview ? label : undefined
    }
  );
  if (first && hooks.preview) {
    hooks.preview(marker, first);
  }
  return marker;
}

/** Text nodes under `root` that are prose (not code), in document order. */
function proseTextNodes(root: HTMLElement): Text[] {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: node =>
      node.parentElement?.closest('code, pre, button, mark.athena-unsupported, mark.athena-not-found')
        ? NodeFilter.FILTER_REJECT
        : NodeFilter.FILTER_ACCEPT
  });
  const nodes: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    nodes.push(node as Text);
  }
  return nodes;
}

/** A sentence's own punctuation written after its markers: "… url_for [1]." */
const TRAILING_PUNCTUATION = /^[.,;:!?]+/;

/**
 * Replace each `[n]` marker naming a known citation with an element from `make`.
 * Works on the rendered DOM so Markdown can never forge a marker element.
 *
 * A model (and the markers added for it, agent/attribute.py) writes them before the full
 * stop, "… url_for [1].": drawn as a button, that full stop was left dangling after it, on
 * a line of its own when the line broke there. The punctuation goes back to its sentence,
 * before the markers: "… url_for. [1]", as the offline answer writes them.
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
    for (let i = 0; i < matches.length; i++) {
      // A run of markers separated by spaces only ("[1] [2].") moves its punctuation as one.
      let last = i;
      while (last + 1 < matches.length && !text.slice(end(matches[last]), matches[last + 1].index).trim()) {
        last++;
      }
      const punctuation = TRAILING_PUNCTUATION.exec(text.slice(end(matches[last])))?.[0] ?? '';
      const before = text.slice(cursor, matches[i].index);
      fragment.append(punctuation ? before.replace(/\s+$/, '') + punctuation + ' ' : before);
      for (let j = i; j <= last; j++) {
        if (j > i) {
          fragment.append(text.slice(end(matches[j - 1]), matches[j].index));
        }
        fragment.append(make(matches[j].ids, text.substr(matches[j].index, matches[j].length)));
      }
      cursor = end(matches[last]) + punctuation.length;
      i = last;
    }
    fragment.append(text.slice(cursor));
    node.replaceWith(fragment);
  }
}

function end(match: { index: number; length: number }): number {
  return match.index + match.length;
}

/** The heading over an answer's unsupported sentences, the same in every front end. */
export function unsupportedTitle(count: number): string {
  return `\u26a0 ${count} sentence${count === 1 ? '' : 's'} not supported by the sources`;
}

/**
 * An answer's rendered, sanitised Markdown in `host` made into the answer every front end
 * shows: unsupported sentences marked where they lie, then each `[n]` naming a `known`
 * citation made a button by `marker`. The sidebar (after Lab's renderer) and the chat
 * page, drop-in and notebook widget (after ./render.ts) all call this, so a marker or an
 * unsupported sentence cannot look different between them. Returns the unsupported
 * sentences not found in the text, for the note under it (`unsupportedNote`).
 */
export function decorateAnswer(
  host: HTMLElement,
  unsupported: string[],
  known: Set<number>,
  marker: (ids: number[], text: string) => HTMLElement,
  notFound: INotFound[] = []
): string[] {
  markNotFound(host, notFound);
  const missing = markUnsupported(host, stillUnsupported(unsupported, notFound));
  linkMarkers(host, known, marker);
  return missing;
}

/**
 * The unsupported sentences that are not already marked as holding a name the folder
 * lacks (`done.not_found`): such a sentence is said once, as "not found in your documents".
 */
export function stillUnsupported(unsupported: string[], notFound: INotFound[]): string[] {
  const said = new Set(notFound.map(entry => entry.sentence.trim()));
  return unsupported.filter(sentence => !said.has(sentence.trim()));
}

/**
 * Mark each sentence (or code line) of a model's answer that uses a name found nowhere in
 * the indexed folder nor in the question (`done.not_found`, agent/names.py): a visible mark
 * naming it, in prose where the sentence lies in one text node, or on the line of a code
 * block. A sentence not located stays listed in the note (`notFoundNote`) all the same.
 */
export function markNotFound(root: HTMLElement, notFound: INotFound[]): void {
  const bySentence = new Map<string, string[]>();
  for (const { name, sentence } of notFound) {
    const key = sentence.trim();
    if (key) {
      bySentence.set(key, [...(bySentence.get(key) ?? []), name]);
    }
  }
  for (const [sentence, names] of bySentence) {
    const node =
      proseTextNodes(root).find(candidate => candidate.data.includes(sentence)) ??
      codeTextNodes(root).find(candidate => candidate.data.includes(sentence));
    if (!node) {
      continue;
    }
    const target = node.splitText(node.data.indexOf(sentence));
    target.splitText(sentence.length);
    const mark = document.createElement('mark');
    mark.className = 'athena-not-found';
    mark.dataset.names = names.join(', ');
    mark.title = `Not found in your documents: ${names.join(', ')}`;
    target.replaceWith(mark);
    mark.append(target);
  }
}

/** Text nodes inside code blocks (a name the answer's code uses sits on one of its lines). */
function codeTextNodes(root: HTMLElement): Text[] {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: node =>
      node.parentElement?.closest('pre') && !node.parentElement.closest('button, mark')
        ? NodeFilter.FILTER_ACCEPT
        : NodeFilter.FILTER_REJECT
  });
  const nodes: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    nodes.push(node as Text);
  }
  return nodes;
}

/**
 * The note under a model's answer that uses names the folder lacks: each name, once, as
 * "not found in your documents" — what the reader must not take from the sources. The
 * sidebar, the chat page, the drop-in and the notebook widget show this one note.
 */
export function notFoundNote(prefix: string, notFound: INotFound[]): HTMLElement | null {
  const names = [...new Set(notFound.map(entry => entry.name))];
  if (!names.length) {
    return null;
  }
  const items = names.map(name => h('li', {}, h('code', {}, name)));
  return h(
    'div',
    { class: `${prefix}not-found-list`, 'data-testid': `${prefix}not-found`, role: 'note' },
    h('strong', {}, `\u26a0 Not found in your documents (${names.length}): the model wrote `
      + `${names.length === 1 ? 'this name' : 'these names'}, which no indexed file contains`),
    h('ul', {}, ...items)
  );
}

/**
 * The note under an answer with unsupported sentences: the heading counting them all, and
 * the ones not found in the text (those found are marked there). `prefix` scopes the class
 * to the front end's stylesheet ('athena-' in Lab and notebooks, '' on the chat page).
 */
export function unsupportedNote(prefix: string, testid: string, count: number, missing: string[]): HTMLElement {
  return h(
    'div',
    { class: `${prefix}unsupported-list`, 'data-testid': testid },
    h('strong', {}, unsupportedTitle(count)),
    missing.length ? h('ul', {}, ...missing.map(sentence => h('li', {}, sentence))) : null
  );
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
