import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
  answerAsMarkdown,
  citationLabel,
  citationLocation,
  findMarkers,
  normalisePrefix,
  relativePath
} from '../src/core/citations';
import { ICitation } from '../src/types';

const text: ICitation = {
  id: 1,
  kind: 'text',
  path: 'docs/auth.md',
  start_line: 40,
  end_line: 58,
  heading_path: 'Auth > Tokens'
};
const pdf: ICitation = { id: 2, kind: 'pdf', path: 'papers/x.pdf', page: 17 };
const notebook: ICitation = { id: 3, kind: 'notebook', path: 'nb/a.ipynb', cell: 12 };

test('labels name lines, pages and 1-based cells', () => {
  assert.equal(citationLabel(text), 'docs/auth.md:40\u201358 \u00b7 Auth > Tokens');
  assert.equal(citationLabel(pdf), 'papers/x.pdf p. 17');
  assert.equal(citationLabel(notebook), 'nb/a.ipynb cell 13');
  assert.equal(citationLabel({ ...text, end_line: 40, heading_path: null }), 'docs/auth.md:40');
});

test('only markers naming known citations are found', () => {
  const found = findMarkers('See [1] and [2, 3] but not [2024] or [x].', new Set([1, 2, 3]));
  assert.deepEqual(
    found.map(m => m.ids),
    [[1], [2, 3]]
  );
  assert.equal(found[0].index, 4);
});

test('links in an inserted answer are relative to the notebook', () => {
  assert.equal(relativePath('work/nb/a.ipynb', 'work/docs/auth.md'), '../docs/auth.md');
  assert.equal(relativePath('a.ipynb', 'docs/auth.md'), 'docs/auth.md');
  const md = answerAsMarkdown('Tokens expire [1] [2].', [text, pdf], normalisePrefix('proj'), 'proj/a.ipynb');
  assert.match(md, /1\. \[docs\/auth\.md:40\u201358\]\(docs\/auth\.md\) \u2014 Auth > Tokens/);
  assert.match(md, /2\. \[papers\/x\.pdf p\. 17\]\(papers\/x\.pdf#page=17\)/);
});

test('an empty or slash-ended lab path prefix stays usable', () => {
  assert.equal(normalisePrefix(''), '');
  assert.equal(normalisePrefix(null), '');
  assert.equal(normalisePrefix('a/b'), 'a/b/');
  assert.equal(normalisePrefix('a/b/'), 'a/b/');
});

// The same fixture pins athena_lab/models.py: every front end labels a citation alike.
const shared: { citation: ICitation; label: string }[] = JSON.parse(
  readFileSync(join(process.cwd(), '..', 'tests', 'fixtures', 'citation_labels.json'), 'utf8')
);

test('labels match the Python contract for every kind of citation', () => {
  for (const { citation, label } of shared) {
    assert.equal(citationLocation(citation), label);
  }
});

test("the server's label wins over the one derived here", () => {
  assert.equal(citationLocation({ ...notebook, label: 'nb/a.ipynb cell 99' }), 'nb/a.ipynb cell 99');
});
