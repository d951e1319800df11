/**
 * Whether a citation still points at what the answer quoted. The live index keeps changing
 * the files under old answers; a citation carries its chunk id (stable when lines move
 * above it) and the hash of the text it quoted. Pure functions, unit-tested under node;
 * the same rule as athena_lab/search/freshness.py.
 */
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
