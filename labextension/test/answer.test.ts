import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  emptyAnswer,
  foldEvent,
  foldEvents,
  IAnswerState,
  QUOTES_LEAD,
  showStreamedAnswer,
  shownText,
  storedAnswer
} from '../src/core/answer';
import { chatBody } from '../src/core/stream';
import { ChatEvent } from '../src/types';

const CITATION = { id: 1, kind: 'text' as const, path: 'guide.md', label: 'guide.md:3\u20134' };

const STREAM: ChatEvent[] = [
  { type: 'start', data: { conversation_id: 'c1' } },
  { type: 'trace', data: { tool: 'searchDocs', input: { q: 'x' }, summary: '0 hits' } },
  { type: 'chunk', data: { content: 'Tokens rotate ' } },
  { type: 'chunk', data: { content: 'nightly [1].' } },
  { type: 'citations', data: { citations: [CITATION] } },
  { type: 'done', data: { unsupported: ['Tokens rotate nightly.'], mode: 'extractive' } }
];

test('a recorded stream folds into one answer', () => {
  const answer = foldEvents(STREAM);
  assert.equal(answer.conversationId, 'c1');
  assert.equal(answer.text, 'Tokens rotate nightly [1].');
  assert.deepEqual(answer.citations, [CITATION]);
  assert.equal(answer.trace.length, 1);
  assert.deepEqual(answer.unsupported, ['Tokens rotate nightly.']);
  assert.equal(answer.mode, 'extractive');
  assert.equal(answer.finished, true);
  assert.equal(answer.error, null);
});

test('folding never mutates the state it is given', () => {
  const before = emptyAnswer();
  const after = foldEvent(before, { type: 'chunk', data: { content: 'a' } });
  assert.equal(before.text, '');
  assert.equal(after.text, 'a');
});

test('an error finishes the answer and keeps the text so far', () => {
  const answer = foldEvents([
    { type: 'chunk', data: { content: 'partial' } },
    { type: 'error', data: { message: 'model went away' } }
  ]);
  assert.equal(answer.text, 'partial');
  assert.equal(answer.error, 'model went away');
  assert.equal(answer.finished, true);
});

test('unknown events are ignored', () => {
  const state = emptyAnswer();
  assert.equal(foldEvent(state, { type: 'future', data: {} } as unknown as ChatEvent), state);
});

test('a stored message is a finished answer', () => {
  const answer = storedAnswer({
    role: 'assistant',
    content: 'x [1]',
    created_at: '2026-12-01T10:00:00.000000Z',
    citations: [CITATION],
    mode: 'extractive'
  });
  assert.equal(answer.finished, true);
  assert.equal(answer.citations.length, 1);
});

test('a turn the reader stopped keeps its text and is marked stopped, a failed one is not', async () => {
  const shown: IAnswerState[] = [];
  const stopped = await showStreamedAnswer(async onEvent => {
    onEvent({ type: 'chunk', data: { content: 'Tokens rot' } });
    throw Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' });
  }, state => shown.push(state));
  assert.deepEqual([stopped.text, stopped.stopped, stopped.finished, stopped.status], ['Tokens rot', true, true, null]);
  assert.equal(shown[shown.length - 1], stopped, 'the last state shown is the one returned');
  const failed = await showStreamedAnswer(async () => {
    throw new Error('Cannot reach the athena server');
  }, () => undefined);
  assert.deepEqual([failed.error, failed.stopped], ['Cannot reach the athena server', false]);
  const unfinished = await showStreamedAnswer(async onEvent => {
    onEvent({ type: 'chunk', data: { content: 'cut' } });
  }, () => undefined);
  assert.deepEqual([unfinished.finished, unfinished.status, unfinished.error], [true, null, null],
    'a stream that ends without done still ends the turn');
});

test('a stored interrupted answer is shown as stopped', () => {
  const message = { role: 'assistant' as const, content: 'x', created_at: '2026-12-01T10:00:00.000000Z' };
  assert.equal(storedAnswer({ ...message, mode: 'interrupted' }).stopped, true);
  assert.equal(storedAnswer({ ...message, mode: 'extractive' }).stopped, false);
});

test('the chat body leaves out empty filters', () => {
  const body = JSON.parse(chatBody({ question: 'q', filters: { path_prefix: '', kind: 'pdf' }, topK: 5 }));
  assert.deepEqual(body.filters, { kind: 'pdf' });
  assert.equal(body.k, 5);
  assert.equal(body.stream, true);
});

const QUOTE = { id: 2, kind: 'text' as const, path: 'guide.md', label: 'guide.md:9' };

test('sources first: the quotes come before the model, whose words fold beside them', () => {
  const quoted = foldEvents([
    { type: 'start', data: { conversation_id: 'c1' } },
    { type: 'sources', data: { answer: '- Tokens rotate nightly. [1]', citations: [CITATION], answer_follows: true } }
  ]);
  assert.equal(quoted.sources, '- Tokens rotate nightly. [1]');
  assert.equal(quoted.text, ''); // the model has not written yet
  assert.deepEqual(quoted.citations, [CITATION]);
  const answered = foldEvents(
    [
      { type: 'chunk', data: { content: 'They rotate every night [1], see also [2].' } },
      { type: 'citations', data: { citations: [CITATION, QUOTE] } },
      { type: 'done', data: { mode: 'local:qwen.gguf' } }
    ],
    quoted
  );
  assert.equal(answered.text, 'They rotate every night [1], see also [2].');
  assert.equal(answered.sources, '- Tokens rotate nightly. [1]'); // kept beside the words
  assert.equal(shownText(answered), `They rotate every night [1], see also [2].\n\n${QUOTES_LEAD}\n\n- Tokens rotate nightly. [1]`);
});

test('in extractive mode the sources are the answer, and a later one replaces it whole', () => {
  const first = foldEvents([
    { type: 'sources', data: { answer: '- Old quote. [1]', citations: [CITATION], answer_follows: false } }
  ]);
  assert.equal(first.text, '- Old quote. [1]');
  assert.equal(first.sources, '');
  const again = foldEvent(first, {
    type: 'sources',
    data: { answer: '- Better quote. [1]', citations: [QUOTE], answer_follows: false }
  });
  assert.equal(again.text, '- Better quote. [1]');
  assert.deepEqual(again.citations, [QUOTE]);
  assert.equal(shownText(again), '- Better quote. [1]');
});

test('a stored answer cut short shows its quotes and its partial words, stopped', () => {
  const stored = storedAnswer({
    role: 'assistant',
    content: 'They rotate',
    sources: '- Tokens rotate nightly. [1]',
    citations: [CITATION],
    mode: 'interrupted',
    created_at: '2026-12-04T00:00:00Z'
  });
  assert.equal(stored.text, 'They rotate');
  assert.equal(stored.sources, '- Tokens rotate nightly. [1]');
  assert.equal(stored.stopped, true);
});
