import { test } from 'node:test';
import assert from 'node:assert/strict';

import { MAX_QUESTION_CHARS, questionLength } from '../src/core/questionLimit';

test('a short question shows no counter and is not refused', () => {
  assert.deepEqual(questionLength('What rotates the zebra tokens?'), { counter: '', refusal: '' });
});

test('near the limit the counter shows how many characters of how many', () => {
  const near = questionLength('x'.repeat(7012));
  assert.equal(near.counter, '7,012 / 8,000');
  assert.equal(near.refusal, '');
  assert.equal(questionLength('x'.repeat(MAX_QUESTION_CHARS)).refusal, '');
});

test('a 59,000-character question is refused with the limit and how much to cut', () => {
  const over = questionLength('x'.repeat(59000));
  assert.equal(over.counter, '59,000 / 8,000');
  assert.equal(over.refusal, 'The question is 59,000 characters; the limit is 8,000. Shorten it by 51,000 characters to send it.');
});

test('the server\u2019s own limit replaces the default', () => {
  assert.equal(questionLength('x'.repeat(120), 100).counter, '120 / 100');
});
