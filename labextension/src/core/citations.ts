/**
 * Pure helpers about citations: how they are labelled, where a `[n]` marker sits in
 * answer text, and how an answer is written out as Markdown with links. No DOM, no
 * Lab imports, so they are unit-tested under plain node.
 */
import { inertMarkdown, inertText, safeDestination } from './inertMarkdown';
import { ICitation, IRegion } from '../types';

/**
 * Notebook citations carry the cell index as nbformat counts it (0-based); people count
 * cells from 1, like lines and pages.
 */
export function cellNumber(citation: ICitation): number {
  return (citation.cell ?? 0) + 1;
}

/**
 * The citation as its `evidence` narrows it (athena_lab/citations/labels.py `narrowest`): the lines
 * of the quoted sentences in a text file, the cell and its lines in a notebook, the first
 * page in a PDF. The label names this place, so opening a citation goes here too.
 */
export function narrowest(citation: ICitation): ICitation {
  const evidence = citation.evidence ?? [];
  if (!evidence.length) {
    return citation;
  }
  if (citation.kind === 'pdf') {
    const pages = evidence
      .flatMap(e => (e.regions?.length ? e.regions.map(r => r.page ?? e.page) : [e.page]))
      .filter((p): p is number => p != null);
    return pages.length ? { ...citation, page: Math.min(...pages) } : citation;
  }
  const lined = evidence.filter(e => e.start_line != null && e.end_line != null);
  if (!lined.length) {
    return citation;
  }
  const first = citation.kind === 'notebook' ? lined.filter(e => e.cell === lined[0].cell) : lined;
  return {
    ...citation,
    ...(citation.kind === 'notebook' ? { cell: first[0].cell, end_cell: null } : {}),
    start_line: Math.min(...first.map(e => e.start_line!)),
    end_line: Math.max(...first.map(e => e.end_line!))
  };
}

/**
 * The line ranges to mark when `citation` opens (1-based, inclusive, in order): each quoted
 * sentence's own lines (`evidence`, in the cell `narrowest` opens for a notebook), merged
 * where they touch, else the citation's lines. One `[1]` quoting two sentences thirty lines
 * apart marks those two places, not the thirty lines between them.
 */
export function citedRanges(citation: ICitation): Array<[number, number]> {
  const place = narrowest(citation);
  const lined = (citation.evidence ?? []).filter(
    e => e.start_line != null && e.end_line != null && (citation.kind !== 'notebook' || e.cell === place.cell)
  );
  if (!lined.length) {
    const start = place.start_line ?? 1;
    return [[start, place.end_line ?? start]];
  }
  const sorted = lined.map(e => [e.start_line!, e.end_line!] as [number, number]).sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [start, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1] + 1) {
      last[1] = Math.max(last[1], end);
    } else {
      merged.push([start, end]);
    }
  }
  return merged;
}

/**
 * The rectangles to outline on page `citation.page` (PDF points, top-left origin): the
 * lines of the quoted sentences when the answer located them (`evidence`), else the whole
 * chunk's regions on that page. The first one is where a preview scrolls to.
 */
export function pdfRegions(citation: ICitation): IRegion[] {
  const page = citation.page;
  const onPage = (regions: IRegion[], fallback?: number | null): IRegion[] =>
    regions.filter(r => (r.page ?? fallback ?? page) === page);
  const narrow = (citation.evidence ?? []).flatMap(e => onPage(e.regions ?? [], e.page));
  const regions = narrow.length ? narrow : onPage(citation.regions ?? []);
  return [...regions].sort((a, b) => a.y - b.y || a.x - b.x);
}

/**
 * Whether `path` names a file inside the indexed folder: relative, "/"-separated, with no
 * "..", "." or empty part and no backslash. A citation is data — one saved in someone else's
 * notebook may say anything — so nothing is opened from a path that fails this.
 */
export function insideFolder(path: unknown): path is string {
  if (typeof path !== 'string' || !path || path.startsWith('/') || /[\\\0]/.test(path)) {
    return false;
  }
  return path.split('/').every(part => part !== '' && part !== '.' && part !== '..');
}

/** "paper.pdf — p. 3": a PDF preview tab's title (the full path goes in its tooltip). */
export function pdfTabTitle(citation: ICitation): string {
  return `${citation.path.split('/').pop()} \u2014 p. ${citation.page ?? 1}`;
}

/** "path:40–58", "paper.pdf p. 3", "nb.ipynb cell 4" — what a source list shows. */
export function citationLocation(citation: ICitation): string {
  if (citation.label) {
    return citation.label; // the server's one label (athena_lab/citations/labels.py)
  }
  if (citation.kind === 'pdf') {
    const pages = (citation.pages ?? []).filter(p => p != null);
    const first = pages.length ? Math.min(...pages) : citation.page;
    const last = pages.length ? Math.max(...pages) : citation.page;
    return first != null && last != null && last !== first
      ? `${citation.path} pp. ${first}\u2013${last}`
      : `${citation.path} p. ${first ?? '?'}`;
  }
  if (citation.kind === 'notebook' && citation.cell != null) {
    const end = citation.end_cell;
    return end != null && end !== citation.cell
      ? `${citation.path} cells ${cellNumber(citation)}\u2013${end + 1}`
      : `${citation.path} cell ${cellNumber(citation)}`;
  }
  const start = citation.start_line;
  const end = citation.end_line;
  if (start == null) {
    return citation.path;
  }
  return end != null && end !== start
    ? `${citation.path}:${start}\u2013${end}`
    : `${citation.path}:${start}`;
}

/** The full label: location plus the heading path when there is one. */
export function citationLabel(citation: ICitation): string {
  const location = citationLocation(citation);
  return citation.heading_path ? `${location} \u00b7 ${citation.heading_path}` : location;
}

export interface IMarkerMatch {
  index: number;
  length: number;
  ids: number[];
}

const MARKER = /\[(\d+(?:\s*,\s*\d+)*)\]/g;

/**
 * Every `[n]` or `[n, m]` marker in `text` whose numbers are all known citation ids.
 * Unknown numbers (e.g. `[2024]` in a quoted document) are left as plain text.
 */
export function findMarkers(text: string, known: Set<number>): IMarkerMatch[] {
  const found: IMarkerMatch[] = [];
  for (const match of text.matchAll(MARKER)) {
    const ids = match[1].split(',').map(part => Number(part.trim()));
    if (ids.every(id => known.has(id))) {
      found.push({ index: match.index ?? 0, length: match[0].length, ids });
    }
  }
  return found;
}

/** Relative path from the directory of `fromFile` to `toPath` (both Lab-root relative). */
export function relativePath(fromFile: string, toPath: string): string {
  const fromDir = fromFile.split('/').slice(0, -1).filter(Boolean);
  const target = toPath.split('/').filter(Boolean);
  let shared = 0;
  while (
    shared < fromDir.length &&
    shared < target.length - 1 &&
    fromDir[shared] === target[shared]
  ) {
    shared++;
  }
  const ups = fromDir.slice(shared).map(() => '..');
  return [...ups, ...target.slice(shared)].join('/');
}

function encodePath(path: string): string {
  // A Windows drive ("C:") keeps its colon: file:///C%3A/… is no path.
  return path
    .split('/')
    .map(part => (/^[A-Za-z]:$/.test(part) ? part : encodeURIComponent(part)))
    .join('/');
}

function linkTarget(citation: ICitation, labPath: string, fromFile: string, base?: string): string {
  const relative = encodePath(relativePath(fromFile, labPath));
  const target = base ? new URL(relative, base).href : relative;
  return citation.kind === 'pdf' && citation.page ? `${target}#page=${citation.page}` : target;
}

/** The parts of Jupyter's page config (the `jupyter-config-data` script) links need. */
export interface IJupyterPage {
  /** The server's URL path ("/" or "/user/ada/"). */
  baseUrl: string;
  /** The server's root_dir, absolute, with "/" separators. */
  serverRoot: string;
  /**
   * The same folder with its symlinks resolved (athena's server extension adds it): the
   * kernel names folders by their real path, Jupyter's root_dir keeps the link.
   */
  realServerRoot?: string;
}

/**
 * The absolute URL a copied answer's source links resolve against (a pasted answer lands
 * anywhere — a chat, a document — where relative links lead nowhere): Jupyter's `files/`
 * URL of the indexed folder `root` when the page is Jupyter's and the folder lies under
 * its root, as named or with its symlinks resolved (the file itself, in any Jupyter front
 * end; a PDF opens at `#page=`), else the folder as a `file:` URL (the same machine),
 * else the page's own base URL.
 */
export function linkBase(root: string, jupyter: IJupyterPage | null, pageUrl: string): string {
  const folder = root.replace(/\\/g, '/').replace(/\/+$/, '');
  if (!folder) {
    return pageUrl;
  }
  // A server whose root is "/" serves every absolute folder ("" once the slash is cut).
  const roots = jupyter ? [jupyter.serverRoot, jupyter.realServerRoot] : [];
  for (const serverRoot of roots.filter(Boolean).map(r => r!.replace(/\\/g, '/').replace(/\/+$/, ''))) {
    if (jupyter && (folder === serverRoot || folder.startsWith(`${serverRoot}/`))) {
      const inside = folder.slice(serverRoot.length).replace(/^\//, '');
      const base = jupyter.baseUrl.endsWith('/') ? jupyter.baseUrl : `${jupyter.baseUrl}/`;
      return new URL(`${base}files/${inside ? `${encodePath(inside)}/` : ''}`, pageUrl).href;
    }
  }
  return `file://${encodePath(folder.startsWith('/') ? folder : `/${folder}`)}/`;
}

/**
 * The answer as Markdown for a notebook cell or the clipboard: the text (made inert, see
 * ./inertMarkdown.ts: a notebook renders it with Lab's default sanitizer), then one link
 * per citation, relative to the notebook at `fromFile` so the links open in Lab — or,
 * given `base` (see `linkBase`), absolute links resolved against it.
 */
export function answerAsMarkdown(
  answer: string,
  citations: ICitation[],
  labPathPrefix: string,
  fromFile: string,
  base?: string
): string {
  answer = inertMarkdown(answer);
  if (!citations.length) {
    return answer;
  }
  // Every text here came from a document or the server (a saved answer's may be anyone's):
  // each goes through inertText, each link target through safeDestination.
  const sources = citations.map(citation => {
    const target = safeDestination(linkTarget(citation, labPathPrefix + citation.path, fromFile, base));
    const heading = citation.heading_path ? ` \u2014 ${inertText(citation.heading_path)}` : '';
    return `${inertText(String(citation.id))}. [${inertText(citationLocation(citation))}](${target})${heading}`;
  });
  const references = referenceList(citations);
  const refs = references.length ? `\n**References**\n\n${references.join('\n')}\n` : '';
  return `${answer.trim()}\n\n**Sources**\n\n${sources.join('\n')}\n${refs}`;
}

/**
 * "Vaswani, Shazeer, Parmar et al. (2017). *Attention Is All You Need*. arXiv:1706.03762."
 * — one entry per cited paper whose record the parser found (citation.record), in the
 * order first cited; the researcher's reference manager takes it from there (`athena cite`).
 */
export function referenceList(citations: ICitation[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const citation of citations) {
    const record = citation.record;
    if (!record || !record.title || seen.has(record.path)) {
      continue;
    }
    seen.add(record.path);
    const names = (Array.isArray(record.authors) ? record.authors : []).map(name => String(name));
    const who = names.length > 3 ? `${names.slice(0, 3).join(', ')} et al.` : names.join(', ');
    const parts = [
      `${who ? `${inertText(who)} ` : ''}${record.year ? `(${inertText(String(record.year))})` : '(n.d.)'}.`,
      `*${inertText(record.title)}*.`,
      record.doi ? `doi:${inertText(record.doi)}.` : '',
      record.arxiv ? `arXiv:${inertText(record.arxiv)}.` : ''
    ];
    out.push(`- ${parts.filter(Boolean).join(' ')}`);
  }
  return out;
}

/** lab_path_prefix normalised so it can be prepended to a citation path. */
export function normalisePrefix(prefix: string | null | undefined): string {
  if (!prefix) {
    return '';
  }
  return prefix.endsWith('/') ? prefix : `${prefix}/`;
}
