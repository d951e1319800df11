import { test } from 'node:test';
import assert from 'node:assert/strict';

import { followCitation, freshnessNote } from '../src/freshness';
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
