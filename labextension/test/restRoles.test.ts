import { test } from 'node:test';
import assert from 'node:assert/strict';

import { withoutRestRoles } from '../src/core/restRoles';

/** [what a model wrote, what the answer shows]. */
const SHOWN: Array<[string, string]> = [
  // Issue 31: the chat page showed ":func:`~flask.url_for`" as written.
  ['Build it with :func:`~flask.url_for` [1].', 'Build it with `url_for` [1].'],
  ['Set :data:`SECRET_KEY` and :py:meth:`Flask.run`.', 'Set `SECRET_KEY` and `Flask.run`.'],
  ['See :ref:`URL Building <url-building>` and :doc:`testing`.', 'See URL Building and testing.'],
  ['Use :func:`send_file <flask.send_file>`.', 'Use send_file.']
];

/** Code keeps its roles as written; text without roles is left alone. */
const KEPT = [
  'Before `a`.\n\n```rst\nUse :func:`~flask.url_for` here.\n```\n\nAfter `b`.',
  'Write ``:func:`x` `` in the docs.',
  'No roles: a `code` span and a time 10:30.'
];

test('a reST role in an answer shows as Sphinx shows it, not raw', () => {
  for (const [written, shown] of SHOWN) {
    assert.equal(withoutRestRoles(written), shown);
  }
});

test('code blocks and code spans keep their roles as written', () => {
  assert.equal(
    withoutRestRoles('Before :func:`a`.\n\n```rst\nUse :func:`~flask.url_for` here.\n```\n\nAfter :class:`b`.'),
    KEPT[0]
  );
  for (const text of KEPT.slice(1)) {
    assert.equal(withoutRestRoles(text), text);
  }
});
