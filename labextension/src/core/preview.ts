/**
 * The source preview shown when hovering (or focusing) a `[n]` marker or a source: the
 * whole sentences the answer quotes from that source (its `evidence`), else the search
 * snippet; placed next to what was hovered but always inside the chat's own box, below
 * it when there is room and above it otherwise, so the panel never clips it.
 */
import { ICitation } from '../types';

/**
 * What a preview of `citation` says: the quoted sentences whole, else the snippet. As
 * Markdown (code blocks fenced) unless `markdown` is false (shown as plain text).
 */
export function previewText(citation: ICitation, markdown = true): string {
  const quotes = (citation.evidence ?? []).map(e => e.quote?.trim()).filter((q): q is string => !!q);
  if (!quotes.length) {
    return citation.snippet ?? '';
  }
  // A quoted sentence is one line; a quoted code block or table keeps its lines, fenced.
  const shown = Array.from(new Set(quotes)).map(q => (markdown && q.includes('\n') ? '```\n' + q + '\n```' : q));
  return shown.join('\n\n');
}

/** Hide `popover` once `trigger` leaves the page (re-rendered, conversation cleared). */
export function hideWhenDetached(popover: HTMLElement, trigger: HTMLElement, hide: () => void): void {
  const check = () => {
    if (popover.hidden) {
      return;
    }
    if (!trigger.isConnected) {
      hide();
      return;
    }
    window.setTimeout(check, 250);
  };
  window.setTimeout(check, 250);
}

const GAP = 4;

/**
 * Put `popover` (absolutely positioned, a child of `container`: the chat's own box) under
 * `trigger`, or above it when there is more room there; its width and height never exceed
 * the container, so nothing clips it.
 */
export function placePopover(popover: HTMLElement, trigger: HTMLElement, container: HTMLElement): void {
  if (popover.parentElement !== container) {
    container.append(popover);
  }
  const box = container.getBoundingClientRect();
  const at = trigger.getBoundingClientRect();
  const width = Math.max(120, Math.min(box.width - 2 * GAP, 480));
  popover.style.position = 'absolute';
  popover.style.boxSizing = 'border-box';
  popover.style.right = 'auto';
  popover.style.width = `${width}px`;
  const left = Math.min(Math.max(at.left - box.left, GAP), box.width - GAP - width);
  popover.style.left = `${Math.round(left)}px`;
  const below = box.bottom - at.bottom - 2 * GAP;
  const above = at.top - box.top - 2 * GAP;
  const room = Math.max(60, below, above);
  popover.style.maxHeight = `${Math.round(room)}px`;
  const height = Math.min(popover.scrollHeight, room);
  const under = below >= height || below >= above;
  const top = under ? at.bottom - box.top + GAP : at.top - box.top - GAP - height;
  popover.style.top = `${Math.round(Math.max(GAP, top))}px`;
  popover.dataset.side = under ? 'below' : 'above';
}
