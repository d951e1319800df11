import { test } from 'node:test';
import assert from 'node:assert/strict';

import { SSEParser } from '../src/core/sse';

test('events split across reads are reassembled in order', () => {
  const parser = new SSEParser();
  const wire = 'event: start\ndata: {"conversation_id": "c1"}\n\nevent: chunk\ndata: {"content": "Hel';
  const first = parser.push(wire);
  assert.deepEqual(first, [{ event: 'start', data: '{"conversation_id": "c1"}' }]);
  const second = parser.push('lo"}\n\nevent: done\r\ndata: {}\r\n\r\n');
  assert.deepEqual(second, [
    { event: 'chunk', data: '{"content": "Hello"}' },
    { event: 'done', data: '{}' }
  ]);
});

test('multi-line data is joined and comments are ignored', () => {
  const parser = new SSEParser();
  const events = parser.push(': keep-alive\n\nevent: chunk\ndata: a\ndata: b\n\n');
  assert.deepEqual(events, [{ event: 'chunk', data: 'a\nb' }]);
});

test('a final event without a trailing blank line is flushed', () => {
  const parser = new SSEParser();
  assert.deepEqual(parser.push('event: error\ndata: {"message": "x"}'), []);
  assert.deepEqual(parser.flush(), [{ event: 'error', data: '{"message": "x"}' }]);
});

test('a \\r\\n line end split across two reads is one line end, not an event boundary', () => {
  const parser = new SSEParser();
  assert.deepEqual(parser.push('event: chunk\r'), []);
  assert.deepEqual(parser.push('\ndata: {"content": "Hi"}\r'), []);
  assert.deepEqual(parser.push('\n\r\n'), [{ event: 'chunk', data: '{"content": "Hi"}' }]);
  assert.deepEqual(parser.flush(), []);
});
