/**
 * The words the sidebar uses for index progress: how many chunks have vectors, whether a
 * run is embedding the rest, how fast and how long. Pure functions (no DOM), so the
 * wording is unit-tested in node and matches what `athena status` says.
 */
import { IReindexJob, IVectorState } from './types';

/** 2310 → "2,310", whatever the browser's locale (the CLI and the API say it this way). */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** Seconds → "45 s", "2 min 5 s", "12 min", "1 h 4 min". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) {
    return `${s} s`;
  }
  if (s < 3600) {
    const minutes = Math.floor(s / 60);
    const rest = s % 60;
    return minutes >= 10 || rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
  }
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** "updated 3 s ago", "updated 5 min ago", "updated 2 days ago" — for the status strip. */
export function updatedAgo(updatedAt: number, now: number = Date.now() / 1000): string {
  const seconds = Math.max(0, now - updatedAt);
  if (seconds < 1) {
    return 'updated just now';
  }
  if (seconds >= 2 * 86400) {
    return `updated ${Math.floor(seconds / 86400)} days ago`;
  }
  return `updated ${formatDuration(seconds)} ago`;
}

/** " · 31 chunks/s · about 2 min left", or "" before the first rate is measured. */
export function paceText(rate?: number | null, etaSeconds?: number | null): string {
  if (!rate) {
    return '';
  }
  const speed = rate >= 10 ? formatCount(rate) : rate.toFixed(1);
  const left = etaSeconds === null || etaSeconds === undefined ? '' : ` \u00b7 about ${formatDuration(etaSeconds)} left`;
  return ` \u00b7 ${speed} chunks/s${left}`;
}

/** One line for the status strip: "vectors 2,310 / 7,050 · embedding · 31 chunks/s · about 2 min left". */
export function vectorsLine(vectors: IVectorState | null | undefined): string {
  if (!vectors) {
    return '';
  }
  const counts = `vectors ${formatCount(vectors.done)} / ${formatCount(vectors.total)}`;
  switch (vectors.state) {
    case 'off':
      return 'vectors off (lexical search only)';
    case 'complete':
      return counts;
    case 'embedding':
      return `${counts} \u00b7 embedding${paceText(vectors.rate, vectors.eta_s)}`;
    case 'indexing':
      return `${counts} \u00b7 indexing (${vectors.phase ?? 'starting'}), embedding follows`;
    case 'missing':
      return `no vectors yet (${formatCount(vectors.done)} / ${formatCount(vectors.total)}) \u00b7 reindex to embed them`;
    default:
      return `${counts} \u00b7 search is partly lexical; reindex to finish`;
  }
}

/** True while some index run (the sidebar's or a terminal's) is changing the index. */
export function isRunning(vectors: IVectorState | null | undefined): boolean {
  return vectors?.state === 'embedding' || vectors?.state === 'indexing';
}

/** What each phase of an index run is doing, in words (ingest/pipeline.py's phases). */
const PHASE_WORDS: Record<string, [string, string]> = {
  starting: ['starting', ''],
  scan: ['scanning', 'files'],
  parse: ['parsing', 'files'],
  lexical: ['writing the text index', 'chunks'],
  embed: ['embedding', 'chunks'],
  save: ['saving vectors', 'chunks']
};

/** " · 8.1 files/s · about 12 s left" for a phase's own rate, or "". */
function phasePace(rate: number | null | undefined, unit: string, eta?: number | null): string {
  if (!rate) {
    return '';
  }
  const speed = rate >= 10 ? formatCount(rate) : rate.toFixed(1);
  const left = eta === null || eta === undefined ? '' : ` \u00b7 about ${formatDuration(eta)} left`;
  return ` \u00b7 ${speed} ${unit}/s${left}`;
}

/**
 * The reindex message while a job runs: "parsing 12 / 40 files · 8.1 files/s · about 4 s left",
 * then the vectors line while embedding ("starting…" until the run reports its first counts).
 */
export function jobProgressText(job: IReindexJob): string {
  const p = job.progress;
  if (!p) {
    return job.state;
  }
  const [words, unit] = PHASE_WORDS[p.phase] ?? [p.phase, 'files'];
  if (p.phase === 'embed' || p.phase === 'save') {
    const vectors = vectorsLine(p.vectors);
    return vectors ? `${words} \u00b7 ${vectors}` : words;
  }
  if (!p.total) {
    return p.phase === 'starting' ? 'starting\u2026' : `${words}\u2026`;
  }
  const counts = `${words} ${formatCount(p.done)} / ${formatCount(p.total)} ${p.unit ?? unit}`;
  return counts + phasePace(p.rate, p.unit ?? unit, p.eta_s);
}

/** The line a finished reindex leaves: "Reindex done: 12 files (3 new, 1 changed) · 340 chunks · 4.2 s". */
export function jobDoneText(job: IReindexJob): string {
  const s = (job.summary ?? {}) as Record<string, number | null | undefined>;
  const n = (key: string): number => Number(s[key] ?? 0);
  const files = n('new') + n('changed') + n('unchanged');
  const changes = [
    n('new') ? `${formatCount(n('new'))} new` : '',
    n('changed') ? `${formatCount(n('changed'))} changed` : '',
    n('removed') ? `${formatCount(n('removed'))} removed` : '',
    n('failed') ? `${formatCount(n('failed'))} failed` : ''
  ].filter(Boolean);
  const parts = [
    `${formatCount(files)} file${files === 1 ? '' : 's'}` + (changes.length ? ` (${changes.join(', ')})` : ' (no changes)'),
    `${formatCount(n('chunks'))} chunks`
  ];
  if (n('embedded')) {
    parts.push(`${formatCount(n('embedded'))} embedded`);
  }
  const seconds = job.elapsed_s ?? (n('seconds') || null);
  if (seconds !== null && seconds !== undefined) {
    parts.push(seconds < 10 ? `${seconds.toFixed(1)} s` : formatDuration(seconds));
  }
  return `Reindex done: ${parts.join(' \u00b7 ')}`;
}
