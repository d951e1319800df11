import { test } from 'node:test';
import assert from 'node:assert/strict';

import { previewText } from '../src/core/preview';
import { filterChips, isLongQuestion } from '../src/core/question';

const BASE = { id: 1, kind: 'text' as const, path: 'guide.md', snippet: '\u2026rotate every night. Tokens are\u2026' };

test('a preview shows the quoted sentences whole, code fenced, else the snippet', () => {
  assert.equal(previewText(BASE), BASE.snippet);
  const quoted = {
    ...BASE,
    evidence: [
      { quote: 'Tokens rotate every night.' },
      { quote: 'app = Flask(__name__)\napp.run()' },
      { quote: 'Tokens rotate every night.' }
    ]
  };
  assert.equal(previewText(quoted), 'Tokens rotate every night.\n\n```\napp = Flask(__name__)\napp.run()\n```');
  assert.equal(previewText(quoted, false), 'Tokens rotate every night.\n\napp = Flask(__name__)\napp.run()');
});

test('a question bubble names its filters; long questions collapse', () => {
  assert.deepEqual(filterChips({ kind: 'pdf', path_prefix: 'papers/' }), ['kind: pdf', 'under: papers/']);
  assert.deepEqual(filterChips({ kind: '', path_prefix: '' }), []);
  assert.deepEqual(filterChips(undefined), []);
  assert.equal(isLongQuestion('How do tokens rotate?'), false);
  assert.equal(isLongQuestion('x'.repeat(281)), true);
  assert.equal(isLongQuestion('a\nb\nc\nd\ne'), true);
});
