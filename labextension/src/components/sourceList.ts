/**
 * The numbered source list under an answer. Each entry is a button that opens the
 * evidence; hovering or focusing it shows the snippet (rendered as sanitised Markdown).
 * Entries whose passage changed or vanished since the answer say so (live index).
 */
import { IRenderMimeRegistry } from '@jupyterlab/rendermime';

import { getChunks, getCitationText } from '../api';
import { citationLabel } from '../core/citations';
import { hideWhenDetached, placePopover, previewText } from '../core/preview';
import { checkable, followCitation, freshnessNote } from '../freshness';
import { renderMarkdown } from '../markdown';
import { zoteroUri } from '../core/papers';
import { ICitation } from '../types';
import { flashCopied, h } from '../core/dom';

export interface ISourceListOptions {
  rendermime: IRenderMimeRegistry;
  onOpen: (citation: ICitation) => void;
  /** Ask the server whether the cited passages changed since (stored answers; not one streaming now). */
  checkFreshness?: boolean;
}

/**
 * The source preview of `trigger` (a source or a `[n]` marker) on hover and focus: the
 * quoted sentences whole (core/preview.ts), at a readable size, kept inside the panel.
 */
export function attachSnippet(
  trigger: HTMLElement,
  citation: ICitation,
  rendermime: IRenderMimeRegistry
): HTMLElement {
  const popover = h('div', {
    class: 'athena-snippet jp-RenderedHTMLCommon',
    role: 'tooltip',
    'data-testid': 'athena-snippet',
    // A tooltip takes no focus: Tab into its links would land on a popover that hides on the
    // trigger's blur, dropping focus to the page.
    inert: true
  });
  popover.hidden = true;
  const text = previewText(citation);
  let rendered: Promise<void> | null = null;
  const show = async () => {
    if (!text) {
      return;
    }
    if (!rendered) {
      const body = h('div', { class: 'athena-snippet-text' });
      popover.replaceChildren(h('div', { class: 'athena-snippet-label' }, citationLabel(citation)), body);
      rendered = renderMarkdown(rendermime, body, text);
    }
    const container = (trigger.closest('.athena-chat') as HTMLElement | null) ?? trigger.parentElement!;
    popover.hidden = false;
    placePopover(popover, trigger, container);
    hideWhenDetached(popover, trigger, hide);
    await rendered;
    if (!popover.hidden) {
      placePopover(popover, trigger, container); // again at its rendered height
    }
  };
  const hide = () => {
    popover.hidden = true;
    popover.remove(); // it lives in the panel only while shown
  };
  trigger.addEventListener('mouseenter', () => void show());
  trigger.addEventListener('focus', () => void show());
  trigger.addEventListener('mouseleave', hide);
  trigger.addEventListener('blur', hide);
  return popover;
}

function sourceItem(citation: ICitation, options: ISourceListOptions): HTMLElement {
  const label = citationLabel(citation);
  const open = h(
    'button',
    {
      type: 'button',
      class: 'athena-citation',
      'data-testid': 'athena-citation',
      'data-citation-id': String(citation.id),
      'data-kind': citation.kind,
      'aria-label': `Open source ${citation.id}: ${label}`
    },
    h('span', { class: 'athena-citation-number' }, `[${citation.id}]`),
    h('span', { class: 'athena-citation-label' }, label)
  );
  open.addEventListener('click', () => options.onOpen(citation));
  const warnings = (citation.warnings ?? []).length
    ? h('span', { class: 'athena-citation-warning', title: citation.warnings!.join('\n') }, '\u26a0')
    : null;
  return h(
    'li',
    { class: 'athena-source', 'data-kind': citation.kind },
    open,
    warnings,
    citation.record && citation.chunk_id ? copyBibtexButton(citation.chunk_id) : null,
    zoteroLink(citation),
    attachSnippet(open, citation, options.rendermime)
  );
}

/** "Zotero" for a source that is a Zotero item's attachment: selects the item in Zotero. */
function zoteroLink(citation: ICitation): HTMLElement | null {
  const uri = zoteroUri(citation.record);
  return uri
    ? h('a', { class: 'athena-zotero-link', href: uri, 'data-testid': 'athena-zotero-link', title: 'Open this item in Zotero' }, 'Zotero')
    : null;
}

/** "Copy BibTeX" for a paper the parser found a record for; says "Copied" when it did. */
function copyBibtexButton(chunkId: string): HTMLElement {
  const button = h(
    'button',
    {
      type: 'button',
      class: 'athena-copy-bibtex',
      'data-testid': 'athena-copy-bibtex',
      title: 'Copy this source as BibTeX'
    },
    'BibTeX'
  );
  button.addEventListener('click', async () => {
    let ok = true;
    try {
      await navigator.clipboard.writeText(await getCitationText([chunkId]));
    } catch {
      ok = false;
    }
    flashCopied(button as HTMLButtonElement, 'BibTeX', ok);
  });
  return button;
}

/** An ordered list of the answer's citations, or nothing when there are none. */
export function sourceList(citations: ICitation[], options: ISourceListOptions): HTMLElement {
  const list = h('ol', { class: 'athena-sources', 'aria-label': 'Sources' });
  const items = citations.map(citation => sourceItem(citation, options));
  list.append(...items);
  list.hidden = citations.length === 0;
  if (options.checkFreshness !== false) {
    void markChangedSources(citations, items);
  }
  return list;
}

/** Ask the server where the cited chunks are now; note the ones that changed or went. */
async function markChangedSources(citations: ICitation[], items: HTMLElement[]): Promise<void> {
  const checked = citations.filter(checkable);
  if (!checked.length) {
    return;
  }
  let states;
  try {
    states = await getChunks(checked.map(c => c.chunk_id!));
  } catch {
    return; // no index, server gone: the list stays as it was answered
  }
  const byId = new Map(states.map(state => [state.chunk_id, state]));
  citations.forEach((citation, n) => {
    const note = freshnessNote(followCitation(citation, byId.get(citation.chunk_id ?? '')).freshness);
    if (note) {
      items[n].classList.add('athena-source-stale');
      items[n].append(h('span', { class: 'athena-citation-stale', 'data-testid': 'athena-citation-stale' }, note));
    }
  });
}
