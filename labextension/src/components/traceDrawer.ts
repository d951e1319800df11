/**
 * The per-answer trace drawer: which tools ran, with what input, and what they found.
 * A search's hits show as a table: evidence number, where, the fused score and the hit's
 * rank in each retriever (BM25, vector, …; "–" where that retriever did not find it), as
 * the server's `trace` events report them (contract.TraceHit).
 */
import { ITraceEvent } from '../types';
import { h } from '../core/dom';

interface IHitLike {
  ref?: number;
  path?: string;
  where?: string;
  score?: number;
  page?: number;
  start_line?: number;
  ranks?: Record<string, number>;
}

/** Column order and headings of the retrievers a hit can come from (search/hybrid.py). */
const RETRIEVERS: Array<[string, string]> = [
  ['bm25', 'BM25'],
  ['vector', 'vector'],
  ['ident', 'ident'],
  ['grep', 'phrase'],
  ['multilingual', 'multi']
];

function hitsOf(summary: unknown): IHitLike[] | null {
  const hits = summary && typeof summary === 'object' ? (summary as { hits?: unknown }).hits : undefined;
  return Array.isArray(hits) ? (hits as IHitLike[]) : null;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 1);
}

function whereOf(hit: IHitLike): string {
  if (hit.where) {
    return hit.where;
  }
  const at = hit.page != null ? ` p. ${hit.page}` : hit.start_line != null ? `:${hit.start_line}` : '';
  return `${hit.path ?? '?'}${at}`;
}

/** "docs/config.rst:25–42" with line-break chances after each "/" and before ":" (narrow panels). */
function breakable(where: string): Array<string | HTMLElement> {
  const out: Array<string | HTMLElement> = [];
  where.split(/(?<=\/)|(?=:)/).forEach((part, i) => {
    if (i) {
      out.push(h('wbr'));
    }
    out.push(part);
  });
  return out;
}

/** The best rank a retriever gave the hit, over the question and its translation ("bm25", "bm25@2"). */
function rankIn(ranks: Record<string, number>, retriever: string): number | null {
  const found = Object.entries(ranks)
    .filter(([name]) => name === retriever || name.startsWith(`${retriever}@`))
    .map(([, rank]) => rank);
  return found.length ? Math.min(...found) : null;
}

/** The hits of one search as a table: [n], where, fused score, rank per retriever. */
export function hitsTable(hits: IHitLike[]): HTMLElement {
  const used = RETRIEVERS.filter(([name]) => hits.some(hit => rankIn(hit.ranks ?? {}, name) !== null));
  const columns = used.length ? used : RETRIEVERS.slice(0, 2);
  const head = h(
    'tr',
    {},
    h('th', { scope: 'col' }, '#'),
    h('th', { scope: 'col' }, 'where'),
    h('th', { scope: 'col', title: 'fused (reciprocal-rank) score' }, 'fused'),
    ...columns.map(([, label]) => h('th', { scope: 'col', title: `rank in the ${label} results` }, label))
  );
  const rows = hits.map(hit =>
    h(
      'tr',
      { 'data-testid': 'athena-trace-hit' },
      h('td', {}, hit.ref != null ? `[${hit.ref}]` : ''),
      h('td', { class: 'athena-trace-where', title: whereOf(hit) }, ...breakable(whereOf(hit))),
      h('td', { class: 'athena-trace-score' }, typeof hit.score === 'number' ? hit.score.toFixed(4) : ''),
      ...columns.map(([name]) => {
        const rank = rankIn(hit.ranks ?? {}, name);
        return h('td', { class: 'athena-trace-rank' }, rank === null ? '\u2013' : String(rank));
      })
    )
  );
  return h(
    'div',
    { class: 'athena-trace-hits', tabindex: '0', role: 'group', 'aria-label': `${hits.length} hits` },
    h('table', {}, h('thead', {}, head), h('tbody', {}, ...rows))
  );
}

function traceItem(event: ITraceEvent): HTMLElement {
  const hits = (event.hits as IHitLike[] | undefined) ?? hitsOf(event.summary);
  return h(
    'li',
    { class: 'athena-trace-item' },
    h('strong', {}, event.tool),
    event.step ? h('span', { class: 'athena-trace-step' }, ` (model call ${event.step})`) : null,
    h('pre', { class: 'athena-trace-input' }, describe(event.input)),
    typeof event.summary === 'string' ? h('p', { class: 'athena-trace-summary' }, event.summary) : null,
    hits ? hitsTable(hits) : typeof event.summary === 'string' ? null : h('pre', { class: 'athena-trace-summary' }, describe(event.summary))
  );
}

export class TraceDrawer {
  readonly node: HTMLDetailsElement;
  private _list: HTMLOListElement;
  private _summary: HTMLElement;
  private _count = 0;

  constructor() {
    this._list = h('ol', { class: 'athena-trace-list' });
    this._summary = h('summary', {}, 'Trace (0 steps)');
    this.node = h(
      'details',
      { class: 'athena-trace', 'data-testid': 'athena-trace' },
      this._summary,
      this._list
    );
    this.node.hidden = true;
  }

  add(event: ITraceEvent): void {
    this._count++;
    this.node.hidden = false;
    this._summary.textContent = `Trace (${this._count} step${this._count === 1 ? '' : 's'})`;
    this._list.append(traceItem(event));
  }
}
