import { test } from 'node:test';
import assert from 'node:assert/strict';

import { IPaper } from '../src/core/contract';
import { keeps, paperMeta, papersCount, paperScope, parseYears, recordOrigin, scopeLabel, selectPapers, zoteroUri } from '../src/core/papers';
import { filterChips } from '../src/core/question';

function paper(id: string, over: Partial<IPaper> = {}): IPaper {
  return {
    id, title: id, authors: [], surnames: [], year: null, label: id, pages: null, paths: [`${id}.pdf`], kinds: ['pdf'],
    collections: [], tags: [], warnings: [], record: 'zotero', ...over
  };
}

const FISCHER = paper('zotero:NLS4LGVR', {
  title: 'Impossibility of distributed consensus with one faulty process',
  authors: ['Michael J. Fischer', 'Nancy A. Lynch', 'Michael S. Paterson'], surnames: ['Fischer', 'Lynch', 'Paterson'],
  year: 1985, pages: 9,
  label: 'Fischer et al., 1985', collections: ['Computer Science / Distributed Systems'], tags: ['consensus'],
  zotero: { key: 'NLS4LGVR', uri: 'zotero://select/library/items/NLS4LGVR' }
});
const LAMPORT = paper('zotero:Y82DIS32', { title: 'Paxos Made Simple', authors: ['Leslie Lamport'], year: 2001, pages: 14,
  label: 'Lamport, 2001', record: 'pdf', collections: ['Computer Science / Distributed Systems'] });
const MISSING = paper('zotero:8BVV9WNM', { title: 'Climate damage projections beyond annual temperature',
  authors: ['Paul Waidelich'], surnames: ['Waidelich'], year: 2024, label: 'Waidelich et al., 2024', paths: [],
  collections: ['Physics / Climate Change'], warnings: ['Waidelich et al. - 2024 - Climate.pdf: attachment missing'] });
const UNDATED = paper('storage/X/gfs.pdf', { title: 'The Google File System', pages: 15, label: 'The Google File System' });
const ALL = [FISCHER, LAMPORT, MISSING, UNDATED];

test('a year filter reads a year, a range and an open range, as the server does', () => {
  assert.deepEqual(parseYears('1985'), [1985, 1985]);
  assert.deepEqual(parseYears('1980-1990'), [1980, 1990]);
  assert.deepEqual(parseYears('2000-'), [2000, 9999]);
  assert.deepEqual(parseYears('-1999'), [0, 1999]);
  assert.deepEqual(parseYears('1990..1980'), [1980, 1990]);
  assert.equal(parseYears(''), null);
  assert.equal(parseYears('last year'), undefined);
});

test('papers are kept by author, year, collection (with its children) and tag', () => {
  assert.deepEqual(ALL.filter(p => keeps(p, { author: 'LYNCH' })), [FISCHER]);
  assert.deepEqual(ALL.filter(p => keeps(p, { year: '1980-2001' })), [FISCHER, LAMPORT]);
  assert.deepEqual(ALL.filter(p => keeps(p, { collection: 'Computer Science' })), [FISCHER, LAMPORT]);
  assert.deepEqual(ALL.filter(p => keeps(p, { collection: 'computer science / distributed systems' })), [FISCHER, LAMPORT]);
  assert.deepEqual(ALL.filter(p => keeps(p, { collection: 'Computer' })), []);
  assert.deepEqual(ALL.filter(p => keeps(p, { tag: 'Consensus' })), [FISCHER]);
});

test('papers sort by year, author, title or pages, those without the field last', () => {
  assert.deepEqual(selectPapers(ALL, {}, 'year').map(p => p.year), [1985, 2001, 2024, null]);
  assert.deepEqual(selectPapers(ALL, {}, 'year', true).map(p => p.year), [2024, 2001, 1985, null]);
  assert.deepEqual(selectPapers(ALL, {}, 'pages', true).map(p => p.pages), [15, 14, 9, null]);
  assert.deepEqual(selectPapers(ALL, {}, 'author').map(p => p.label), ['Fischer et al., 1985', 'Lamport, 2001',
    'Waidelich et al., 2024', 'The Google File System']);
  assert.deepEqual(selectPapers(ALL, {}, 'title').map(p => p.title![0]), ['C', 'I', 'P', 'T']);
});

test('a paper line names its authors, year and pages, or that it has no file', () => {
  assert.equal(paperMeta(FISCHER), 'Fischer, Lynch, Paterson \u00b7 1985 \u00b7 9 pp.');
  assert.equal(paperMeta(MISSING), 'Waidelich \u00b7 2024 \u00b7 no file');
  assert.equal(papersCount(ALL, 4), '4 papers \u00b7 1 with warnings');
  assert.equal(papersCount([FISCHER], 4), '1 paper of 4');
});

test('a paper says where its record came from', () => {
  assert.equal(recordOrigin(FISCHER), 'record from Zotero');
  assert.equal(recordOrigin(paper('bibtex:lamport1978', { record: 'bibtex' })), 'record from a BibTeX file');
  assert.match(recordOrigin(paper('x.pdf', { record: 'pdf' })), /^record read from its first page: if it is wrong, Copy BibTeX/);
  assert.equal(recordOrigin(paper('y.pdf', { record: 'none' })), 'no record found');
});

test('only a well-formed zotero://select link is offered', () => {
  assert.equal(zoteroUri(FISCHER), 'zotero://select/library/items/NLS4LGVR');
  assert.equal(zoteroUri({ zotero: { uri: 'zotero://select/groups/12/items/ABCDEFGH' } }), 'zotero://select/groups/12/items/ABCDEFGH');
  assert.equal(zoteroUri({ zotero: { uri: 'javascript:alert(1)' } }), null);
  assert.equal(zoteroUri({ zotero: { uri: 'zotero://select/library/items/NLS4LGVR"><img' } }), null);
  assert.equal(zoteroUri(LAMPORT), null);
});

test('chosen papers name the question bubble and the composer chip', () => {
  assert.deepEqual(filterChips({ papers: ['a', 'b', 'c'], tag: 'consensus' }), ['tag: consensus', '3 papers']);
  assert.equal(scopeLabel([FISCHER]), 'Fischer et al., 1985');
  assert.equal(scopeLabel([FISCHER, LAMPORT, MISSING]), '3 papers (Fischer et al., 1985; Lamport, 2001; \u2026)');
});

test('choosing all the papers a collection shows scopes by the collection, else by the papers', () => {
  const shown = selectPapers(ALL, { collection: 'Computer Science' }, 'title');
  assert.deepEqual(paperScope(shown, shown, { collection: 'Computer Science', author: '', year: 'nonsense' }),
    { filters: { collection: 'Computer Science' }, label: 'collection Computer Science' });
  assert.deepEqual(paperScope([FISCHER], shown, { collection: 'Computer Science' }),
    { ids: ['zotero:NLS4LGVR'], label: 'Fischer et al., 1985' });
  assert.deepEqual(paperScope(ALL, ALL, {}).ids, ALL.map(p => p.id));
});
