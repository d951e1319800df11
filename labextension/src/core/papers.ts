/**
 * The papers view's rules, shared by the sidebar and the chat page (components/papersView.ts):
 * which papers a filter keeps and in what order — the same rules as the server's
 * (athena_lab/search/papers.py), applied in the browser so typing in a filter answers at
 * once — what a paper's lines say, and the Zotero link a paper or citation may carry.
 */
import { IPaper } from './contract';

/** GET /athena/papers: every paper, and the collections and tags they have. */
export interface IPapersList {
  papers: IPaper[];
  collections: string[];
  tags: string[];
}

export type PaperSort = 'title' | 'author' | 'year' | 'pages';

export interface IPaperFilters {
  author?: string;
  /** "1985", "1980-1990", "2000-", "-1999" */
  year?: string;
  collection?: string;
  tag?: string;
}

/** "1985" → [1985, 1985]; ranges as the server reads them; null when empty, undefined when not a year. */
export function parseYears(text: string | undefined): [number, number] | null | undefined {
  const value = (text ?? '').trim();
  if (!value) {
    return null;
  }
  const match = /^(\d{4})?\s*(?:(-|\u2013|\.\.)\s*(\d{4})?)?$/.exec(value);
  if (!match || (!match[1] && !match[3])) {
    return undefined;
  }
  const low = match[1] ? Number(match[1]) : 0;
  const high = match[3] ? Number(match[3]) : match[2] ? 9999 : low;
  return [Math.min(low, high), Math.max(low, high)];
}

export function keeps(paper: IPaper, filters: IPaperFilters): boolean {
  const author = (filters.author ?? '').trim().toLowerCase();
  if (author && !paper.authors.some(name => name.toLowerCase().includes(author))) {
    return false;
  }
  const years = parseYears(filters.year);
  if (years && !(paper.year !== null && paper.year >= years[0] && paper.year <= years[1])) {
    return false;
  }
  const collection = (filters.collection ?? '').toLowerCase();
  if (collection && !paper.collections.some(c => c.toLowerCase() === collection || c.toLowerCase().startsWith(`${collection} / `))) {
    return false;
  }
  const tag = (filters.tag ?? '').toLowerCase();
  return !tag || paper.tags.some(t => t.toLowerCase() === tag);
}

function has(paper: IPaper, sort: PaperSort): boolean {
  return sort === 'title' ? !!paper.title : sort === 'author' ? paper.authors.length > 0 : sort === 'year' ? paper.year !== null : paper.pages !== null;
}

/** The papers `filters` keep, in `sort` order; papers without that field come last. */
export function selectPapers(papers: IPaper[], filters: IPaperFilters, sort: PaperSort, descending = false): IPaper[] {
  const kept = papers.filter(p => keeps(p, filters));
  const key = (p: IPaper): string | number =>
    sort === 'title' ? (p.title ?? p.label).toLowerCase() : sort === 'author' ? p.label.toLowerCase() : sort === 'year' ? p.year ?? 0 : p.pages ?? 0;
  const present = kept.filter(p => has(p, sort));
  present.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    const order = x < y ? -1 : x > y ? 1 : 0;
    return descending ? -order : order;
  });
  return [...present, ...kept.filter(p => !has(p, sort))];
}

/** "Fischer, Lynch, Paterson · 1985 · 9 pp." — the line under a paper's title. */
export function paperMeta(paper: IPaper): string {
  const surnames = paper.surnames;
  const who = surnames.length > 3 ? `${surnames.slice(0, 3).join(', ')} et al.` : surnames.join(', ');
  const parts = [who, paper.year ? String(paper.year) : '', paper.pages ? `${paper.pages} pp.` : ''];
  if (!paper.paths.length) {
    parts.push('no file');
  }
  return parts.filter(Boolean).join(' \u00b7 ');
}

/** Where its record comes from, in words. */
export function recordOrigin(paper: IPaper): string {
  switch (paper.record) {
    case 'zotero':
      return 'record from Zotero';
    case 'bibtex':
      return 'record from a BibTeX file';
    case 'pdf':
      return 'record read from its first page: if it is wrong, Copy BibTeX, correct the entry and save it in a .bib file in the folder';
    default:
      return 'no record found';
  }
}

/** "15 papers · 2 with warnings" (of 40 when filtered). */
export function papersCount(shown: IPaper[], total: number): string {
  const warned = shown.filter(p => p.warnings.length).length;
  const count = `${shown.length} paper${shown.length === 1 ? '' : 's'}${shown.length !== total ? ` of ${total}` : ''}`;
  return warned ? `${count} \u00b7 ${warned} with warnings` : count;
}

const ZOTERO_URI = /^zotero:\/\/select\/(library|groups\/\d{1,12})\/items\/[23456789A-Z]{8}$/;

/** The zotero://select link of a paper or citation record, when it has a well-formed one. */
export function zoteroUri(record: { zotero?: { uri?: string } } | undefined | null): string | null {
  const uri = record?.zotero?.uri;
  return typeof uri === 'string' && ZOTERO_URI.test(uri) ? uri : null;
}

/**
 * What "Ask about these" limits the next questions to: the chosen papers' ids, or — when
 * the papers chosen are exactly the ones a collection, tag, author or year filter shows —
 * that filter itself, so the question follows the collection as it grows.
 */
export interface IPaperScope {
  ids?: string[];
  filters?: IPaperFilters;
  label: string;
}

/** The scope for `chosen` among the `shown` papers under `filters` (see IPaperScope). */
export function paperScope(chosen: IPaper[], shown: IPaper[], filters: IPaperFilters): IPaperScope {
  const set = (values: Partial<Record<keyof IPaperFilters, string | undefined>>): IPaperFilters =>
    Object.fromEntries(Object.entries(values).filter(([, v]) => (v ?? '').trim())) as IPaperFilters;
  const named = set({ collection: filters.collection, tag: filters.tag, author: filters.author,
    year: parseYears(filters.year) ? filters.year : undefined });
  const ids = new Set(chosen.map(p => p.id));
  const all = shown.length > 0 && shown.length === chosen.length && shown.every(p => ids.has(p.id));
  if (all && Object.keys(named).length) {
    const label = Object.entries(named).map(([key, value]) => `${key} ${value}`).join(' \u00b7 ');
    return { filters: named, label };
  }
  return { ids: chosen.map(p => p.id), label: scopeLabel(chosen) };
}

/** What the composer's chip says for a scope of chosen papers. */
export function scopeLabel(papers: IPaper[]): string {
  if (papers.length === 1) {
    return papers[0].label;
  }
  const first = papers.slice(0, 2).map(p => p.label).join('; ');
  return `${papers.length} papers (${first}${papers.length > 2 ? '; \u2026' : ''})`;
}
