import { test } from 'node:test';
import assert from 'node:assert/strict';

import { formatDuration, isRunning, jobProgressText, vectorsLine } from '../src/progressText';
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
    'parse 12/1,622'
  );
  assert.equal(
    jobProgressText({ state: 'running', progress: { phase: 'embed', done: 0, total: 4740, vectors: embedding } }),
    'embed \u00b7 vectors 2,310 / 7,050 \u00b7 embedding \u00b7 31 chunks/s \u00b7 about 2 min 31 s left'
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
