import { test } from 'node:test';
import assert from 'node:assert/strict';

import { answererLabel, foldStatus, IStreamStatus, progressDetail, SEARCHING } from '../src/core/status';
import { ChatEvent } from '../src/types';

function statuses(events: ChatEvent[]): Array<string | null> {
  let status: IStreamStatus | null = SEARCHING;
  return events.map(event => (status = foldStatus(status, event))?.text ?? null);
}

const HIT = { ref: 1, path: 'guide.md', where: 'guide.md:3', heading_path: null, score: 0.5, ranks: { bm25: 1 } };

test('the status follows the stream: searching, reading n sources, writing, then nothing', () => {
  assert.deepEqual(
    statuses([
      { type: 'start', data: { conversation_id: 'c1' } },
      { type: 'trace', data: { tool: 'searchDocs', input: {}, summary: '3 hits', hits: [HIT, HIT, HIT] } },
      { type: 'chunk', data: { content: '- Tokens rotate [1]' } },
      { type: 'citations', data: { citations: [{ id: 1, kind: 'text', path: 'guide.md' }] } },
      { type: 'chunk', data: { content: '\n- nightly [1]' } },
      { type: 'done', data: { mode: 'extractive' } }
    ]),
    ['searching\u2026', 'reading 3 sources\u2026', 'writing\u2026', 'writing\u2026', 'writing\u2026', null]
  );
});

test('a model tool call says what it does; one hit is one source; nothing found says so', () => {
  assert.deepEqual(
    statuses([
      { type: 'start', data: { conversation_id: 'c1' } },
      { type: 'trace', data: { tool: 'searchDocs', input: {}, summary: '1 hit', hits: [HIT] } },
      { type: 'trace', data: { tool: 'grepDocs', input: {}, summary: 'x', step: 1 } },
      { type: 'trace', data: { tool: 'readFile', input: {}, summary: 'x', step: 1 } },
      { type: 'trace', data: { tool: 'stepLimit', input: {}, summary: 'x', ok: false } },
      { type: 'compaction', data: { dropped_turns: 2 } },
      { type: 'error', data: { message: 'model gone' } }
    ]),
    [
      'searching\u2026',
      'reading 1 source\u2026',
      'searching\u2026',
      'reading\u2026',
      'reading\u2026',
      'summarising earlier turns\u2026',
      null
    ]
  );
  assert.equal(
    foldStatus(SEARCHING, { type: 'trace', data: { tool: 'searchDocs', input: {}, summary: 'no hits', hits: [] } })?.text,
    'no sources found\u2026'
  );
});

test('a local model says it is loading, then how many passages it reads and how long they are', () => {
  assert.deepEqual(
    statuses([
      { type: 'start', data: { conversation_id: 'c1' } },
      { type: 'trace', data: { tool: 'loadModel', input: {}, summary: 'loading the model\u2026' } },
      { type: 'trace', data: { tool: 'searchDocs', input: {}, summary: '2 hits', hits: [HIT, HIT] } },
      {
        type: 'trace',
        data: { tool: 'readPassages', input: { passages: 2, tokens: 640 }, summary: 'reading 2 passages (\u2248640 tokens)' }
      },
      { type: 'chunk', data: { content: 'Tokens rotate [1]' } }
    ]),
    ['searching\u2026', 'loading the model\u2026', 'reading 2 sources\u2026', 'reading 2 passages (\u2248640 tokens)\u2026', 'writing\u2026']
  );
});

test('the header names the provider alone when the server names no model', () => {
  assert.equal(answererLabel({ provider: 'openai', model: 'gpt-4o-mini' }), 'openai:gpt-4o-mini');
  assert.equal(answererLabel({ provider: 'local', model: null as unknown as string }), 'local');
});

test('sources, then the model loading, then its reading as a bar with tokens and the time left', () => {
  let status: IStreamStatus | null = SEARCHING;
  const seen: Array<IStreamStatus | null> = [];
  const events: ChatEvent[] = [
    { type: 'sources', data: { answer: '- A. [1]', citations: [], answer_follows: true } },
    { type: 'trace', data: { tool: 'loadModel', input: {}, summary: 'loading the model\u2026' } },
    { type: 'trace', data: { tool: 'readPassages', input: {}, summary: 'reading 5 passages (\u22481,150 tokens)' } },
    { type: 'progress', data: { stage: 'reading', done: 0, total: 1500, eta_s: null } },
    { type: 'progress', data: { stage: 'reading', done: 640, total: 1500, eta_s: 43.2 } },
    { type: 'chunk', data: { content: 'Tokens' } }
  ];
  for (const event of events) {
    seen.push((status = foldStatus(status, event)));
  }
  assert.deepEqual(
    seen.map(s => s?.text),
    [
      'the model is starting\u2026',
      'loading the model\u2026',
      'reading 5 passages (\u22481,150 tokens)\u2026',
      'reading 5 passages (\u22481,150 tokens)\u2026',
      'reading 5 passages (\u22481,150 tokens)\u2026',
      'writing\u2026'
    ]
  );
  assert.equal(progressDetail(seen[3]!.progress!), '0 / 1,500 prompt tokens');
  assert.equal(progressDetail(seen[4]!.progress!), '640 / 1,500 prompt tokens \u00b7 about 43 s left');
  assert.equal(seen[5]!.progress, undefined); // writing: the bar is gone
});

test('translating a question for search says so; an extractive answer keeps its status', () => {
  assert.deepEqual(
    statuses([
      { type: 'sources', data: { answer: '- A. [1]', citations: [], answer_follows: false } },
      { type: 'trace', data: { tool: 'translate', input: { language: 'es' }, summary: 'putting the question into English\u2026' } }
    ]),
    ['searching\u2026', 'putting the question into English\u2026']
  );
});
