import { test } from 'node:test';
import assert from 'node:assert/strict';

import { marked } from 'marked';

import { keptClasses } from '../src/core/sanitizer';

// sanitizeUntrustedHtml needs a DOMParser, which node lacks: these tests call the rule it
// applies to the `class` of every element it keeps.

test('content cannot borrow the host page\'s or Lab\'s classes', () => {
  assert.equal(keptClasses('div', 'root', false), '', 'a docs site\'s own layout class');
  assert.equal(keptClasses('span', 'jp-Dialog', false), '', 'Lab\'s dialog');
  assert.equal(keptClasses('span', 'jp-Dialog', true), '', 'not inside code either');
  assert.equal(keptClasses('p', 'athena-answer hero modal open', false), '');
  assert.equal(keptClasses('code', 'root language-python', false), 'language-python');
  assert.equal(keptClasses('div', 'language-python', false), '', 'a language class only on code');
  assert.equal(keptClasses('span', '\u037c1', false), '', 'highlight classes only inside code');
});

test('a fenced code block keeps the language class marked writes', () => {
  const html = marked.parse('```python\nprint(1)\n```\n', { async: false, gfm: true }) as string;
  const written = /<code class="([^"]*)"/.exec(html);
  assert.ok(written, html);
  assert.equal(keptClasses('code', written[1], false), 'language-python');
  assert.equal(keptClasses('code', 'language-c++', false), 'language-c++');
});

test('Lab\'s syntax highlighting inside code keeps its classes', () => {
  // @jupyterlab/codemirror highlights a fenced block into <span class="ͼt ͼ1a"> tokens.
  assert.equal(keptClasses('span', '\u037ct \u037c1a', true), '\u037ct \u037c1a');
});
