/**
 * The per-answer trace drawer: which tools ran, with what input, and what they found
 * (queries, hit paths and scores), as the server's `trace` events report it.
 */
import { ITraceEvent } from '../types';
import { h } from '../core/dom';

interface IHitLike {
  path?: string;
  score?: number;
  page?: number;
  start_line?: number;
}

function hitsOf(summary: unknown): IHitLike[] | null {
  if (summary && typeof summary === 'object' && Array.isArray((summary as any).hits)) {
    return (summary as any).hits as IHitLike[];
  }
  return null;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 1);
}

function hitLine(hit: IHitLike): HTMLElement {
  const where = hit.page != null ? ` p. ${hit.page}` : hit.start_line != null ? `:${hit.start_line}` : '';
  const score = typeof hit.score === 'number' ? hit.score.toFixed(3) : '';
  return h('li', {}, h('code', {}, `${hit.path ?? '?'}${where}`), ` ${score}`);
}

function traceItem(event: ITraceEvent): HTMLElement {
  const hits = hitsOf(event.summary);
  return h(
    'li',
    { class: 'athena-trace-item' },
    h('strong', {}, event.tool),
    h('pre', { class: 'athena-trace-input' }, describe(event.input)),
    hits
      ? h('ol', { class: 'athena-trace-hits' }, ...hits.map(hitLine))
      : h('pre', { class: 'athena-trace-summary' }, describe(event.summary))
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
