/**
 * The papers view, in the sidebar and on the chat page: the archive's papers (Zotero items
 * and PDFs) with title, authors, year, pages and warnings, filtered by author, year,
 * collection and tag and sorted (core/papers.ts); papers chosen with their checkboxes
 * scope the next question ("Ask about these") or are copied as BibTeX; "Which papers
 * discuss …?" lists the papers that do, each with its best passage, which opens like a
 * citation. A paper from Zotero links to its item there (zotero://select/…). Every
 * control is a native input, select or button, so the view works from the keyboard.
 */
import { button, flashCopied, h } from '../core/dom';
import { IPaper, IPaperHit } from '../core/contract';
import {
  IPaperFilters,
  IPaperScope,
  IPapersList,
  PaperSort,
  paperMeta,
  papersCount,
  parseYears,
  paperScope,
  recordOrigin,
  selectPapers,
  zoteroUri
} from '../core/papers';
import { ICitation } from '../types';

export interface IPapersViewOptions {
  /** GET /athena/papers */
  load: () => Promise<IPapersList>;
  /** GET /athena/papers?about=… */
  about: (question: string) => Promise<IPaperHit[]>;
  /** BibTeX of these papers (GET /athena/cite?target=ID…) */
  bibtex: (ids: string[]) => Promise<string>;
  /** "Ask about these": limit the next question to the chosen papers (or the filter showing them). */
  onScope: (scope: IPaperScope) => void;
  /** Open a paper's best passage, as a citation opens. */
  onOpen: (citation: ICitation) => void;
}

const SORTS: Array<[PaperSort, string]> = [
  ['title', 'Title'],
  ['author', 'Author'],
  ['year', 'Year'],
  ['pages', 'Pages']
];

/**
 * One warning of a paper, shown in two lines: a library with items attached to the wrong
 * PDFs gives each of them a paragraph (the file, the item, what to check), which would
 * bury the list in a narrow sidebar. Click, Enter or Space shows the whole text; screen
 * readers read it whole anyway (the clamp only hides it from view).
 */
function warningLine(text: string): HTMLElement {
  const node = h(
    'div',
    {
      class: 'athena-paper-warning',
      'data-testid': 'athena-paper-warning',
      role: 'button',
      tabindex: '0',
      'aria-expanded': 'false',
      title: text
    },
    `\u26a0 ${text}`
  );
  const toggle = (): void => {
    node.setAttribute('aria-expanded', String(node.classList.toggle('athena-paper-warning-open')));
  };
  node.addEventListener('click', toggle);
  node.addEventListener('keydown', event => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      toggle();
    }
  });
  return node;
}

export class PapersView {
  readonly node: HTMLElement;
  private _papers: IPaper[] = [];
  private _shown: IPaper[] = [];
  private _chosen = new Set<string>();
  private _descending = false;
  private _list = h('ul', { class: 'athena-papers-list', 'aria-label': 'Papers', 'data-testid': 'athena-papers-list' });
  private _count = h('p', { class: 'athena-papers-count', role: 'status', 'data-testid': 'athena-papers-count' });
  private _results = h('section', { class: 'athena-papers-results', 'aria-label': 'Papers that discuss it' });
  private _question: HTMLInputElement;
  private _author: HTMLInputElement;
  private _year: HTMLInputElement;
  private _collection: HTMLSelectElement;
  private _tag: HTMLSelectElement;
  private _sort: HTMLSelectElement;
  private _order: HTMLButtonElement;
  private _all: HTMLInputElement;
  private _chosenCount = h('span', { class: 'athena-papers-chosen', 'data-testid': 'athena-papers-chosen' });
  private _ask: HTMLButtonElement;
  private _copy: HTMLButtonElement;

  constructor(private _options: IPapersViewOptions) {
    this._question = h('input', {
      type: 'search',
      class: 'athena-papers-question',
      placeholder: 'Which papers discuss\u2026?',
      'aria-label': 'Which papers discuss this? (Enter to find them)',
      'data-testid': 'athena-papers-question'
    });
    this._question.addEventListener('keydown', event => {
      if (event.key === 'Enter') {
        event.preventDefault();
        void this.findAbout();
      }
    });
    this._author = h('input', { type: 'search', class: 'athena-papers-author', placeholder: 'author', 'aria-label': 'Only papers by this author' });
    this._year = h('input', {
      type: 'search',
      class: 'athena-papers-year',
      placeholder: 'year(s)',
      'aria-label': 'Only papers of this year or range',
      inputmode: 'numeric'
    });
    this._collection = h('select', { class: 'athena-papers-collection', 'aria-label': 'Only papers in this collection' });
    this._tag = h('select', { class: 'athena-papers-tag', 'aria-label': 'Only papers with this tag' });
    this._sort = h(
      'select',
      { class: 'athena-papers-sort', 'aria-label': 'Sort papers by' },
      ...SORTS.map(([value, label]) => h('option', { value }, `Sort: ${label}`))
    );
    this._order = button('\u2191', () => this._toggleOrder(), {
      class: 'athena-papers-order',
      'aria-label': 'Ascending order (click for descending)',
      title: 'Ascending'
    });
    for (const input of [this._author, this._year]) {
      input.addEventListener('input', () => this._render());
    }
    for (const select of [this._collection, this._tag, this._sort]) {
      select.addEventListener('change', () => this._render());
    }
    this._all = h('input', { type: 'checkbox', class: 'athena-papers-all', 'data-testid': 'athena-papers-all' });
    this._all.addEventListener('change', () => this._chooseAll(this._all.checked));
    this._ask = button('Ask about these', () => this._scope(), {
      class: 'athena-papers-ask jp-mod-styled',
      'data-testid': 'athena-papers-ask'
    });
    this._copy = button('Copy BibTeX', () => void this._copyBibtex(), {
      class: 'athena-papers-bibtex',
      'data-testid': 'athena-papers-bibtex'
    });
    this.node = h(
      'section',
      { class: 'athena-papers', 'aria-label': 'Papers', 'data-testid': 'athena-papers' },
      h(
        'form',
        { class: 'athena-papers-find', role: 'search', 'aria-label': 'Which papers discuss' },
        this._question,
        button('Find', () => void this.findAbout(), { class: 'athena-papers-find-button', 'data-testid': 'athena-papers-find' })
      ),
      this._results,
      h('div', { class: 'athena-papers-filters', role: 'group', 'aria-label': 'Filter and sort papers' },
        this._author, this._year, this._collection, this._tag, this._sort, this._order),
      h(
        'div',
        { class: 'athena-papers-actions' },
        h('label', { class: 'athena-papers-all-label' }, this._all, ' All shown'),
        this._chosenCount,
        this._ask,
        this._copy
      ),
      this._count,
      this._list
    );
    this.node.querySelector('form')!.addEventListener('submit', event => event.preventDefault());
    this._results.hidden = true;
    this.node.hidden = true;
    this._updateChosen();
  }

  get open(): boolean {
    return !this.node.hidden;
  }

  set open(value: boolean) {
    this.node.hidden = !value;
  }

  /** The papers now chosen, in list order. */
  get chosen(): IPaper[] {
    return this._papers.filter(p => this._chosen.has(p.id));
  }

  focus(): void {
    this._question.focus();
  }

  /** Load (or reload) the papers; the choice is kept for papers still there. */
  async refresh(): Promise<void> {
    let list: IPapersList;
    try {
      list = await this._options.load();
    } catch (err) {
      this._count.textContent = `Cannot list the papers: ${(err as Error).message}`;
      return;
    }
    this._papers = list.papers;
    const ids = new Set(list.papers.map(p => p.id));
    this._chosen = new Set([...this._chosen].filter(id => ids.has(id)));
    this._fill(this._collection, 'All collections', list.collections);
    this._fill(this._tag, 'All tags', list.tags);
    this._render();
  }

  /** "Which papers discuss …?": the papers that do, each with its best passage. */
  async findAbout(): Promise<void> {
    const question = this._question.value.trim();
    if (!question) {
      this._results.hidden = true;
      return;
    }
    this._results.hidden = false;
    this._results.replaceChildren(h('p', { class: 'athena-papers-note', role: 'status' }, 'Looking for papers\u2026'));
    let hits: IPaperHit[];
    try {
      hits = await this._options.about(question);
    } catch (err) {
      this._results.replaceChildren(h('p', { class: 'athena-papers-note', role: 'alert' }, (err as Error).message));
      return;
    }
    this._results.replaceChildren(
      h('h3', { class: 'athena-papers-results-title' }, hits.length ? 'The papers that discuss it, best first' : 'No paper discusses it'),
      h('ol', { class: 'athena-papers-hits', 'data-testid': 'athena-papers-hits' }, ...hits.map(hit => this._hit(hit))),
      button('Close', () => this._closeResults(), { class: 'athena-papers-results-close', 'aria-label': 'Close these results' })
    );
  }

  private _closeResults(): void {
    this._results.hidden = true;
    this._question.focus();
  }

  private _hit(hit: IPaperHit): HTMLElement {
    const best = hit.best as ICitation;
    const where = best.page ? `p. ${best.page}` : best.label;
    const open = button(`${where}: ${best.snippet ?? ''}`, () => this._options.onOpen(best), {
      class: 'athena-papers-passage',
      'aria-label': `Open the best passage of ${hit.paper.label}, ${where}`
    });
    return h(
      'li',
      { class: 'athena-papers-hit', 'data-paper-id': hit.paper.id },
      h('div', { class: 'athena-paper-title' }, hit.paper.title ?? hit.paper.label),
      h('div', { class: 'athena-paper-meta' }, `${paperMeta(hit.paper)} \u00b7 ${hit.passages} passage${hit.passages === 1 ? '' : 's'}`),
      open
    );
  }

  private _fill(select: HTMLSelectElement, all: string, values: string[]): void {
    const current = select.value;
    select.replaceChildren(h('option', { value: '' }, all), ...values.map(v => h('option', { value: v }, v)));
    select.value = values.includes(current) ? current : '';
    select.hidden = values.length === 0;
  }

  private _filters(): IPaperFilters {
    return { author: this._author.value, year: this._year.value, collection: this._collection.value, tag: this._tag.value };
  }

  private _render(): void {
    const filters = this._filters();
    const badYear = parseYears(filters.year) === undefined;
    this._year.setAttribute('aria-invalid', badYear ? 'true' : 'false');
    this._shown = selectPapers(this._papers, badYear ? { ...filters, year: '' } : filters, this._sort.value as PaperSort, this._descending);
    this._count.textContent = this._papers.length
      ? papersCount(this._shown, this._papers.length) + (badYear ? ' \u00b7 the year filter needs 1985 or 1980-1990' : '')
      : 'No papers yet: index a folder of PDFs or a Zotero data directory.';
    this._list.replaceChildren(...this._shown.map(paper => this._row(paper)));
    this._updateChosen();
  }

  private _row(paper: IPaper): HTMLElement {
    const title = paper.title ?? paper.paths[0] ?? paper.id;
    const box = h('input', { type: 'checkbox', class: 'athena-paper-choose', 'aria-label': `Choose ${paper.label}: ${title}` });
    box.checked = this._chosen.has(paper.id);
    box.addEventListener('change', () => {
      if (box.checked) {
        this._chosen.add(paper.id);
      } else {
        this._chosen.delete(paper.id);
      }
      this._updateChosen();
    });
    const where = [...paper.collections, ...paper.tags.map(t => `#${t}`)].join(' \u00b7 ');
    const uri = zoteroUri(paper);
    return h(
      'li',
      { class: 'athena-paper', 'data-paper-id': paper.id, 'data-testid': 'athena-paper' },
      box,
      h(
        'div',
        { class: 'athena-paper-body' },
        h('div', { class: 'athena-paper-title', title: paper.paths.join('\n') || paper.id }, title),
        h('div', { class: 'athena-paper-meta', title: recordOrigin(paper) }, paperMeta(paper)),
        where ? h('div', { class: 'athena-paper-where' }, where) : null,
        ...paper.warnings.map(warningLine),
        uri ? h('a', { class: 'athena-zotero-link', href: uri, 'aria-label': `Open ${paper.label} in Zotero` }, 'Open in Zotero') : null
      )
    );
  }

  private _toggleOrder(): void {
    this._descending = !this._descending;
    this._order.textContent = this._descending ? '\u2193' : '\u2191';
    this._order.title = this._descending ? 'Descending' : 'Ascending';
    this._order.setAttribute('aria-label', this._descending ? 'Descending order (click for ascending)' : 'Ascending order (click for descending)');
    this._render();
  }

  private _chooseAll(on: boolean): void {
    for (const paper of this._shown) {
      if (on) {
        this._chosen.add(paper.id);
      } else {
        this._chosen.delete(paper.id);
      }
    }
    this._render();
  }

  private _updateChosen(): void {
    const n = this._chosen.size;
    this._chosenCount.textContent = n ? `${n} chosen` : 'none chosen';
    this._ask.disabled = n === 0;
    this._copy.disabled = n === 0;
    const shownChosen = this._shown.filter(p => this._chosen.has(p.id)).length;
    this._all.checked = this._shown.length > 0 && shownChosen === this._shown.length;
    this._all.indeterminate = shownChosen > 0 && shownChosen < this._shown.length;
    this._all.setAttribute('aria-label', this._all.checked ? 'Unchoose all papers shown' : 'Choose all papers shown');
  }

  private _scope(): void {
    const chosen = this.chosen;
    if (chosen.length) {
      this._options.onScope(paperScope(chosen, this._shown, this._filters()));
    }
  }

  private async _copyBibtex(): Promise<void> {
    let ok = true;
    try {
      await navigator.clipboard.writeText(await this._options.bibtex(this.chosen.map(p => p.id)));
    } catch {
      ok = false;
    }
    flashCopied(this._copy, 'Copy BibTeX', ok);
  }
}

/** What the papers view needs of a front end's client (core/client.ts). */
export interface IPapersClient {
  getPapers: () => Promise<IPapersList>;
  getPapersAbout: (about: string) => Promise<IPaperHit[]>;
  getCitationText: (targets: string[]) => Promise<string>;
}

/**
 * The papers view of a front end: its client, the composer whose next questions "Ask about
 * these" scopes (then `done`, which closes the view), and how a best passage opens.
 */
export function papersView(
  client: IPapersClient,
  composer: { setPapers(papers: IPaperScope | null): void },
  done: () => void,
  onOpen: (citation: ICitation) => void
): PapersView {
  return new PapersView({
    load: client.getPapers,
    about: question => client.getPapersAbout(question),
    bibtex: ids => client.getCitationText(ids),
    onScope: scope => {
      composer.setPapers(scope);
      done();
    },
    onOpen
  });
}
