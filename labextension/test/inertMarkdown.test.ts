import { test } from 'node:test';
import assert from 'node:assert/strict';

import { answerAsMarkdown } from '../src/core/citations';
import { inertMarkdown } from '../src/core/inertMarkdown';

test('raw HTML becomes text a notebook shows instead of renders', () => {
  assert.equal(
    inertMarkdown('See <img src="http://evil/x?d=1"> and <button data-commandlinker-command="help:about">go</button>'),
    'See &lt;img src="http://evil/x?d=1"> and &lt;button data-commandlinker-command="help:about">go&lt;/button>'
  );
  assert.equal(inertMarkdown('<!-- hidden --> <?php ?> <!DOCTYPE x>'), '&lt;!-- hidden --> &lt;?php ?> &lt;!DOCTYPE x>');
});

test('images become links, escaped ones stay text', () => {
  assert.equal(inertMarkdown('![chart](http://evil/c.png)'), '[image: chart](http://evil/c.png)');
  assert.equal(inertMarkdown('a ![x][ref] b'), 'a [image: x][ref] b');
  assert.equal(inertMarkdown('\\![not an image](u)'), '\\![not an image](u)');
  assert.equal(inertMarkdown('\\\\![x](u)'), '\\\\[image: x](u)', 'an escaped backslash leaves a real image');
  assert.equal(inertMarkdown('[![badge](http://b/i.svg)](http://b)'), '[[image: badge](http://b/i.svg)](http://b)');
});

test('code is left exactly as written', () => {
  const fenced = '```html\n<img src="http://x">\n![a](b)\n```\n<b>after</b>';
  assert.equal(inertMarkdown(fenced), '```html\n<img src="http://x">\n![a](b)\n```\n&lt;b>after&lt;/b>');
  assert.equal(inertMarkdown('~~~\n<i>\n~~~'), '~~~\n<i>\n~~~');
  assert.equal(inertMarkdown('use `<div>` or ``a ` <b>`` here <i>'), 'use `<div>` or ``a ` <b>`` here &lt;i>');
});

test('what only looks like code is made inert', () => {
  // An escaped backtick opens no code span, so the tag after it is real HTML.
  assert.equal(inertMarkdown('\\`<img src=x>`'), '\\`&lt;img src=x>`');
  // A run of two never closed by a run of two is not a code span either.
  assert.equal(inertMarkdown('``<img src=x>`'), '``&lt;img src=x>`');
  // A backtick in a backtick fence's info string makes it a paragraph, not a fence.
  assert.equal(inertMarkdown('```a`\n<img src=x>'), '```a`\n&lt;img src=x>');
  // "```python" inside a fence does not close it; only a bare fence does.
  assert.equal(inertMarkdown('```\n```python\n<x>\n```\n<y>'), '```\n```python\n<x>\n```\n&lt;y>');
});

test('autolinks and comparisons are kept', () => {
  assert.equal(inertMarkdown('<https://flask.palletsprojects.com/> and a < b, 3<4'),
    '<https://flask.palletsprojects.com/> and a < b, 3<4');
});

test('inserted answers are inert, with their source links intact', () => {
  const md = answerAsMarkdown('Minted at dawn [1] <img src="http://evil/x">', [
    { id: 1, kind: 'text', path: 'docs/q.md', start_line: 3, end_line: 3 }
  ], '', 'nb.ipynb');
  assert.equal(md, 'Minted at dawn [1] &lt;img src="http://evil/x">\n\n**Sources**\n\n1. [docs/q.md:3](docs/q.md)\n');
});
