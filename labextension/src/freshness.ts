/**
 * Whether a citation still points at what the answer quoted. The live index keeps changing
 * the files under old answers; a citation carries its chunk id (stable when lines move
 * above it) and the hash of the text it quoted. Pure functions, unit-tested under node;
 * the same rule as athena_lab/citations/freshness.py.
 */
import { narrowest } from './core/citations';
import { IChunkState, ICitation } from './types';

export type Freshness = 'current' | 'moved' | 'changed' | 'gone';

export interface IFollowed {
  citation: ICitation;
  freshness: Freshness;
}

/** Can this citation be checked at all (it names a chunk and the hash of its text)? */
export function checkable(citation: ICitation): boolean {
  return Boolean(citation.chunk_id && citation.text_hash);
}

/** The citation moved to where its chunk is now, and what happened to it. */
export function followCitation(citation: ICitation, current: IChunkState | undefined): IFollowed {
  if (!checkable(citation) || !current) {
    return { citation, freshness: 'current' };
  }
  if (!current.found) {
    return { citation, freshness: 'gone' };
  }
  const place: Partial<ICitation> = {};
  for (const key of ['path', 'start_line', 'end_line', 'cell', 'page'] as const) {
    if (current[key] !== undefined) {
      (place as Record<string, unknown>)[key] = current[key];
    }
  }
  const moved = Object.entries(place).some(
    ([key, value]) => (citation as unknown as Record<string, unknown>)[key] !== value
  );
  const freshness: Freshness =
    current.text_hash !== citation.text_hash ? 'changed' : moved ? 'moved' : 'current';
  return { citation: { ...citation, ...place }, freshness };
}

/** The note a source list shows beside a citation, or '' when there is nothing to say. */
export function freshnessNote(freshness: Freshness): string {
  if (freshness === 'changed') {
    return 'source changed since this answer';
  }
  if (freshness === 'gone') {
    return 'passage no longer in the source';
  }
  return '';
}

/**
 * Where to open `cited` now: its narrowest place (the quoted sentences, core/citations.ts
 * `narrowest`), moved by as much as the live index moved its chunk (`followed`, from
 * followCitation). A changed passage opens at the chunk's current place, without the
 * answer's evidence: its sentences may no longer be where they were.
 */
export function openingPlace(cited: ICitation, followed: IFollowed): ICitation {
  if (followed.freshness === 'current') {
    return narrowest(cited);
  }
  const now = followed.citation;
  if (followed.freshness !== 'moved') {
    return { ...now, evidence: undefined };
  }
  const narrow = { ...narrowest(cited), path: now.path };
  if (cited.kind === 'notebook') {
    const cells = (now.cell ?? 0) - (cited.cell ?? 0);
    return { ...narrow, cell: narrow.cell != null ? narrow.cell + cells : now.cell };
  }
  if (cited.kind === 'pdf' || narrow.start_line == null || now.start_line == null || cited.start_line == null) {
    return now;
  }
  const lines = now.start_line - cited.start_line;
  const end = narrow.end_line ?? narrow.start_line;
  // The quoted sentences moved with their chunk: their own lines too (core/citations.ts citedRanges).
  const evidence = narrow.evidence?.map(e =>
    e.start_line != null && e.end_line != null ? { ...e, start_line: e.start_line + lines, end_line: e.end_line + lines } : e
  );
  return { ...narrow, evidence, start_line: narrow.start_line + lines, end_line: end + lines };
}
