import { test } from 'node:test';
import assert from 'node:assert/strict';

import { followCitation, freshnessNote, openingPlace } from '../src/freshness';
import { updatedAgo } from '../src/progressText';
import { ICitation } from '../src/types';

const cited: ICitation = {
  id: 1,
  kind: 'text',
  path: 'docs/auth.md',
  start_line: 40,
  end_line: 58,
  chunk_id: 'c1',
  text_hash: 'h1'
};

test('a citation whose lines moved opens at the chunk\u2019s new lines', () => {
  const now = { chunk_id: 'c1', found: true, path: 'docs/auth.md', text_hash: 'h1', start_line: 45, end_line: 63 };
  const result = followCitation(cited, now);
  assert.equal(result.freshness, 'moved');
  assert.equal(result.citation.start_line, 45);
  assert.equal(result.citation.end_line, 63);
  assert.equal(freshnessNote(result.freshness), '');
});

test('a changed or vanished passage is marked, an unchanged one is not', () => {
  const same = { chunk_id: 'c1', found: true, path: 'docs/auth.md', text_hash: 'h1', start_line: 40, end_line: 58 };
  assert.equal(followCitation(cited, same).freshness, 'current');
  const changed = followCitation(cited, { ...same, text_hash: 'h2' });
  assert.equal(freshnessNote(changed.freshness), 'source changed since this answer');
  const gone = followCitation(cited, { chunk_id: 'c1', found: false });
  assert.equal(gone.freshness, 'gone');
  assert.equal(gone.citation.start_line, 40);
  assert.equal(followCitation({ ...cited, text_hash: undefined }, undefined).freshness, 'current');
});

test('the status strip says how long ago the index changed', () => {
  assert.equal(updatedAgo(1000, 1003.4), 'updated 3 s ago');
  assert.equal(updatedAgo(1000, 1000.2), 'updated just now');
  assert.equal(updatedAgo(1000, 1000 + 300), 'updated 5 min ago');
  assert.equal(updatedAgo(0, 3 * 86400), 'updated 3 days ago');
});

test('a moved passage opens at its quoted sentences, moved as far as the chunk', () => {
  const quoted: ICitation = { ...cited, evidence: [{ quote: 'q', start_line: 44, end_line: 45 }] };
  const now = { chunk_id: 'c1', found: true, path: 'docs/auth.md', text_hash: 'h1', start_line: 50, end_line: 68 };
  const place = openingPlace(quoted, followCitation(quoted, now));
  assert.equal(place.start_line, 54);
  assert.equal(place.end_line, 55);
  const unmoved = openingPlace(quoted, followCitation(quoted, { ...now, start_line: 40, end_line: 58 }));
  assert.equal(unmoved.start_line, 44);
  const changed = openingPlace(quoted, followCitation(quoted, { ...now, text_hash: 'h2' }));
  assert.equal(changed.start_line, 50);
  assert.equal(changed.evidence, undefined);
});

test('a moved notebook passage opens at its quoted cell, shifted as the chunk was', () => {
  const nb: ICitation = { id: 2, kind: 'notebook', path: 'n.ipynb', cell: 2, end_cell: 4, chunk_id: 'c', text_hash: 'h',
    evidence: [{ quote: 'q', cell: 3, start_line: 2, end_line: 2 }] };
  const place = openingPlace(nb, followCitation(nb, { chunk_id: 'c', found: true, path: 'n.ipynb', text_hash: 'h', cell: 5 }));
  assert.equal(place.cell, 6);
  assert.equal(place.start_line, 2);
});
