import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
  citedRanges,
  answerAsMarkdown,
  citationLabel,
  citationLocation,
  narrowest,
  findMarkers,
  insideFolder,
  linkBase,
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

test('a copied answer links its sources absolutely: Jupyter files/ under its root, else file:', () => {
  const page = 'http://127.0.0.1:8888/lab/tree/notes/a.ipynb';
  const jupyter = { baseUrl: '/user/ada/', serverRoot: '/home/ada' };
  const base = linkBase('/home/ada/my project', jupyter, page);
  assert.equal(base, 'http://127.0.0.1:8888/user/ada/files/my%20project/');
  const md = answerAsMarkdown('Tokens expire [1] [2].', [text, pdf], '', '', base);
  assert.match(md, /\(http:\/\/127\.0\.0\.1:8888\/user\/ada\/files\/my%20project\/docs\/auth\.md\)/);
  assert.match(md, /\(http:\/\/127\.0\.0\.1:8888\/user\/ada\/files\/my%20project\/papers\/x\.pdf#page=17\)/);
  assert.equal(linkBase('/home/ada', { baseUrl: '/', serverRoot: '/home/ada/' }, page), 'http://127.0.0.1:8888/files/');
  assert.equal(linkBase('/srv/docs', jupyter, page), 'file:///srv/docs/', 'outside the root: the same machine');
  assert.equal(linkBase('/home/adam', jupyter, page), 'file:///home/adam/', 'a sibling is not inside');
  assert.equal(linkBase('', null, page), page, 'no folder known: the page itself');
  assert.equal(linkBase('/srv/docs', { baseUrl: '/', serverRoot: '/' }, page), 'http://127.0.0.1:8888/files/srv/docs/',
    'a server rooted at / serves every folder');
  const linked = { baseUrl: '/', serverRoot: '/home/ada/work', realServerRoot: '/data/ada/work' };
  assert.equal(linkBase('/data/ada/work/docs', linked, page), 'http://127.0.0.1:8888/files/docs/',
    'a symlinked server root: the kernel names the real path');
  assert.equal(linkBase('/home/ada/work/docs', linked, page), 'http://127.0.0.1:8888/files/docs/');
  assert.equal(linkBase('C:\\Users\\ada\\p', null, page), 'file:///C:/Users/ada/p/', 'a Windows drive keeps its colon');
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

test('an inserted answer ends with a reference list for the cited papers', () => {
  const paper: ICitation = {
    id: 3,
    kind: 'pdf',
    path: 'papers/attention.pdf',
    page: 2,
    record: {
      path: 'papers/attention.pdf',
      title: 'Attention Is All You Need',
      authors: ['Ashish Vaswani', 'Noam Shazeer', 'Niki Parmar', 'Jakob Uszkoreit'],
      year: 2017,
      arxiv: '1706.03762'
    }
  };
  const md = answerAsMarkdown('Heads attend [3].', [paper, { ...paper, id: 4, page: 3 }], '', 'a.ipynb');
  assert.match(md, /\*\*References\*\*\n\n- Ashish Vaswani, Noam Shazeer, Niki Parmar et al\. \(2017\)\. \*Attention Is All You Need\*\. arXiv:1706\.03762\.\n$/);
  assert.equal(md.split('Attention Is All You Need').length, 2, 'one entry per paper');
});

test('a citation opens where its evidence is, as its label says', () => {
  const cited: ICitation = {
    ...text,
    evidence: [
      { quote: 'b', start_line: 44, end_line: 45 },
      { quote: 'a', start_line: 41, end_line: 41 }
    ]
  };
  assert.deepEqual([narrowest(cited).start_line, narrowest(cited).end_line], [41, 45]);
  const nb: ICitation = { ...notebook, end_cell: 14, evidence: [{ quote: 'x', cell: 13, start_line: 2, end_line: 3 }] };
  assert.deepEqual([narrowest(nb).cell, narrowest(nb).start_line, narrowest(nb).end_line], [13, 2, 3]);
  const page: ICitation = { ...pdf, evidence: [{ quote: 'y', page: 18, regions: [{ x: 1, y: 2, width: 3, height: 4, page: 19 }] }] };
  assert.equal(narrowest(page).page, 19);
  assert.equal(narrowest(text), text, 'no evidence: the passage itself');
});

test('one citation quoting two sentences far apart marks each, not the lines between', () => {
  // Issue 31: one [1] marked lines 87-120, spanning two quotes.
  const cited = {
    id: 1, kind: 'text', path: 'docs/config.rst', start_line: 80, end_line: 125,
    evidence: [
      { start_line: 118, end_line: 120, quote: 'Second quote.' },
      { start_line: 87, end_line: 88, quote: 'First quote.' },
      { start_line: 89, end_line: 89, quote: 'Right after it.' }
    ]
  } as unknown as ICitation;
  assert.deepEqual(citedRanges(cited), [[87, 89], [118, 120]]);
  assert.deepEqual(citedRanges({ ...cited, evidence: [] } as ICitation), [[80, 125]]);
  const notebook = {
    id: 2, kind: 'notebook', path: 'nb.ipynb', cell: 1, end_cell: 4,
    evidence: [{ cell: 3, start_line: 2, end_line: 2 }, { cell: 4, start_line: 1, end_line: 1 }, { cell: 3, start_line: 6, end_line: 7 }]
  } as unknown as ICitation;
  assert.deepEqual(citedRanges(notebook), [[2, 2], [6, 7]]); // the lines in the cell that opens
});

test('a citation opens only a path inside the indexed folder', () => {
  for (const path of ['docs/a.md', 'nb/x.ipynb', 'a b/c (1).pdf', '.github/x.md']) {
    assert.equal(insideFolder(path), true, path);
  }
  for (const path of ['../private.txt', '../work.ipynb', 'docs/../../x', '/etc/passwd', 'a//b', './a', 'a/.', 'a\\..\\b', '', null, 7]) {
    assert.equal(insideFolder(path), false, String(path));
  }
});
