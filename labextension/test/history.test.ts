import { test } from 'node:test';
import assert from 'node:assert/strict';

import { distinctTitles, whenLabel } from '../src/core/history';

const now = new Date(2026, 10, 20, 15, 30); // 20 Nov 2026, 15:30 local time

test('a conversation says when it was last used, in words', () => {
  assert.equal(whenLabel(new Date(2026, 10, 20, 10, 42).toISOString(), now), 'today 10:42');
  assert.equal(whenLabel(new Date(2026, 10, 19, 16, 5).toISOString(), now), 'yesterday 16:05');
  assert.equal(whenLabel(new Date(2026, 10, 3, 9, 0).toISOString(), now), '3 Nov');
  assert.equal(whenLabel(new Date(2025, 0, 7, 9, 0).toISOString(), now), '7 Jan 2025');
  assert.equal(whenLabel('not a date', now), '');
});

test('repeated and empty titles are told apart, the oldest keeping the bare title', () => {
  assert.deepEqual(distinctTitles(['How do I test?', 'Setup', 'How do I  test?', '', ' ']), [
    'How do I test? (2)',
    'Setup',
    'How do I test?',
    'Untitled (2)',
    'Untitled'
  ]);
  assert.deepEqual(distinctTitles(['A (2)', 'A', 'A']), ['A (2) (2)', 'A (2)', 'A']);
});
