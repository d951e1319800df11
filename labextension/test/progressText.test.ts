import { test } from 'node:test';
import assert from 'node:assert/strict';

import { formatDuration, isRunning, jobDoneText, jobProgressText, vectorsLine } from '../src/progressText';
import { IVectorState } from '../src/types';

const embedding: IVectorState = {
  state: 'embedding',
  done: 2310,
  total: 7050,
  rate: 31.4,
  eta_s: 151
};

test('the status strip says how far the vectors are, with rate and time left', () => {
  assert.equal(
    vectorsLine(embedding),
    'vectors 2,310 / 7,050 \u00b7 embedding \u00b7 31 chunks/s \u00b7 about 2 min 31 s left'
  );
  assert.equal(vectorsLine({ ...embedding, rate: null, eta_s: null }), 'vectors 2,310 / 7,050 \u00b7 embedding');
  assert.equal(vectorsLine({ ...embedding, rate: 3.94, eta_s: 13 }), 'vectors 2,310 / 7,050 \u00b7 embedding \u00b7 3.9 chunks/s \u00b7 about 13 s left');
  assert.ok(isRunning(embedding));
});

test('finished, partial, missing and off vectors each read plainly', () => {
  assert.equal(vectorsLine({ state: 'complete', done: 7050, total: 7050 }), 'vectors 7,050 / 7,050');
  assert.equal(
    vectorsLine({ state: 'partial', done: 64, total: 114 }),
    'vectors 64 / 114 \u00b7 search is partly lexical; reindex to finish'
  );
  assert.equal(vectorsLine({ state: 'missing', done: 0, total: 114 }), 'no vectors yet (0 / 114) \u00b7 reindex to embed them');
  assert.equal(vectorsLine({ state: 'off', done: 0, total: 114 }), 'vectors off (lexical search only)');
  assert.equal(
    vectorsLine({ state: 'indexing', done: 0, total: 0, phase: 'parse' }),
    'vectors 0 / 0 \u00b7 indexing (parse), embedding follows'
  );
  assert.equal(vectorsLine(null), '');
  assert.ok(!isRunning({ state: 'partial', done: 64, total: 114 }));
});

test('a running job shows its phase, then the vectors', () => {
  assert.equal(
    jobProgressText({ state: 'running', progress: { phase: 'parse', done: 12, total: 1622 } }),
    'parsing 12 / 1,622 files'
  );
  assert.equal(
    jobProgressText({
      state: 'running',
      progress: { phase: 'parse', done: 120, total: 1622, rate: 8.14, unit: 'files', eta_s: 185 }
    }),
    'parsing 120 / 1,622 files \u00b7 8.1 files/s \u00b7 about 3 min 5 s left'
  );
  assert.equal(jobProgressText({ state: 'running', progress: { phase: 'starting', done: 0, total: 0 } }), 'starting\u2026');
  assert.equal(
    jobProgressText({ state: 'running', progress: { phase: 'embed', done: 0, total: 4740, vectors: embedding } }),
    'embedding \u00b7 vectors 2,310 / 7,050 \u00b7 embedding \u00b7 31 chunks/s \u00b7 about 2 min 31 s left'
  );
  assert.equal(jobProgressText({ state: 'running' }), 'running');
});

test('durations read like the CLI says them', () => {
  assert.equal(formatDuration(0), '0 s');
  assert.equal(formatDuration(59.6), '1 min');
  assert.equal(formatDuration(125), '2 min 5 s');
  assert.equal(formatDuration(725), '12 min');
  assert.equal(formatDuration(3840), '1 h 4 min');
});

test('a finished reindex says what it did and how long it took', () => {
  assert.equal(
    jobDoneText({
      state: 'done',
      elapsed_s: 4.23,
      summary: { new: 3, changed: 1, unchanged: 8, removed: 0, failed: 0, chunks: 340, embedded: 41 }
    }),
    'Reindex done: 12 files (3 new, 1 changed) \u00b7 340 chunks \u00b7 41 embedded \u00b7 4.2 s'
  );
  assert.equal(
    jobDoneText({ state: 'done', elapsed_s: 75, summary: { unchanged: 1, chunks: 2 } }),
    'Reindex done: 1 file (no changes) \u00b7 2 chunks \u00b7 1 min 15 s'
  );
});
