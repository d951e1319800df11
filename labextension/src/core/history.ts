/**
 * How the conversation history reads: when each conversation was last used, said the
 * way people say it ("today 10:42", "yesterday 16:05", "3 Nov", "3 Nov 2025"), and
 * titles that tell conversations apart. Pure functions, unit-tested in node.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function clock(when: Date): string {
  return `${String(when.getHours()).padStart(2, '0')}:${String(when.getMinutes()).padStart(2, '0')}`;
}

function sameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** "today 10:42", "yesterday 16:05", "3 Nov" (this year), "3 Nov 2025" — in local time. */
export function whenLabel(iso: string, now: Date = new Date()): string {
  const when = new Date(iso);
  if (isNaN(when.getTime())) {
    return '';
  }
  if (sameDay(when, now)) {
    return `today ${clock(when)}`;
  }
  const yesterday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  if (sameDay(when, yesterday)) {
    return `yesterday ${clock(when)}`;
  }
  const day = `${when.getDate()} ${MONTHS[when.getMonth()]}`;
  return when.getFullYear() === now.getFullYear() ? day : `${day} ${when.getFullYear()}`;
}

/**
 * The titles to show, one per conversation, in order: empty ones become "Untitled" and a
 * title seen before gets " (2)", " (3)" … (the server numbers new ones; older saved
 * conversations may still share a title). The oldest keeps the bare title.
 */
export function distinctTitles(titles: string[]): string[] {
  const clean = titles.map(t => t.split(/\s+/).filter(Boolean).join(' ') || 'Untitled');
  const taken = new Set<string>();
  const out: string[] = new Array(clean.length);
  // Newest first in the list: number from the oldest (the end) so numbers stay put.
  for (let i = clean.length - 1; i >= 0; i--) {
    let title = clean[i];
    for (let n = 2; taken.has(title); n++) {
      title = `${clean[i]} (${n})`;
    }
    taken.add(title);
    out[i] = title;
  }
  return out;
}
