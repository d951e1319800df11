/**
 * An answer's text and its notes, drawn from the folded answer state (./answer.ts): the
 * Markdown through the core pipeline (./render.ts), `[n]` buttons made from text nodes
 * (./markers.ts), unsupported sentences marked in place and the ones not found listed,
 * and the error. The chat page, the drop-in and the notebook widget (live, and a saved
 * answer without its kernel) all draw their answer text with this one class, so they
 * cannot disagree on what a marker, an unsupported sentence or an error looks like; only
 * the class names differ, so each front end styles it in its own scope.
 */
import { ICitation } from '../types';
import { IAnswerState, QUOTES_LEAD } from './answer';
import { h } from './dom';
import { citationMarker, notFoundNote, stillUnsupported, unsupportedNote } from './markers';
import { renderAnswer } from './render';

/** What differs between the front ends drawing an answer's text: names, not behaviour. */
export interface IAnswerTextLook {
  /** Prefix of the notes' classes: '' on the chat page and drop-in, 'athena-' in a notebook. */
  prefix: string;
  /** The `[n]` button's class (its stylesheet's scope). */
  markerClass: string;
  /** Show `1` rather than `[1]` (the widget draws its markers as chips). */
  bare?: boolean;
  /** The text's element: its class and test id. */
  bodyClass: string;
  bodyTestid: string;
  /** The test id of the unsupported-sentences note. */
  unsupportedTestid: string;
}

/** The parts of the answer state the text is drawn from. */
export type AnswerTextState = Pick<IAnswerState, 'text' | 'sources' | 'citations' | 'unsupported' | 'error'> &
  Partial<Pick<IAnswerState, 'notFound'>>;

/**
 * The quotes shown beside a model's answer (the `sources` event), under "From the
 * sources:": on screen before the model's first word, below where its words will stream.
 * Hidden when there are none (extractive answers are their quotes: they are the text).
 */
export function quotesBlock(prefix: string): { node: HTMLElement; body: HTMLElement } {
  const body = h('div', { class: `${prefix}quotes-body`, 'data-testid': `${prefix}quotes` });
  const node = h(
    'section',
    { class: `${prefix}quotes`, 'aria-label': 'Quotes from the sources' },
    h('p', { class: `${prefix}quotes-lead` }, QUOTES_LEAD),
    body
  );
  node.hidden = true;
  return { node, body };
}

export class AnswerText {
  readonly body: HTMLElement;
  readonly notes: HTMLElement;
  /** The quotes beside a model's answer; front ends place it under the text's status line. */
  readonly quotes: HTMLElement;
  private _quotesBody: HTMLElement;
  /** The quotes and citation numbers drawn last: a token of the model's words does not redraw them. */
  private _quotesDrawn = '';
  private _citations: ICitation[] = [];

  constructor(
    private _look: IAnswerTextLook,
    private _open: (citation: ICitation, marker: HTMLElement) => void
  ) {
    this.body = h('div', { class: _look.bodyClass, 'data-testid': _look.bodyTestid });
    this.notes = h('div', { class: `${_look.prefix}answer-notes` });
    const quotes = quotesBlock(_look.prefix);
    this.quotes = quotes.node;
    this._quotesBody = quotes.body;
  }

  /** Redraw the text, the quotes and the notes from `state` (whole: callers limit this to once a frame). */
  draw(state: AnswerTextState): void {
    this._citations = state.citations;
    const known = new Set(state.citations.map(c => c.id));
    const marker = (ids: number[], text: string) =>
      citationMarker(ids, text, {
        className: this._look.markerClass,
        bare: this._look.bare,
        citation: id => this.citation(id),
        open: (citation, button) => this._open(citation, button)
      });
    const notFound = state.notFound ?? [];
    const missing = renderAnswer(this.body, state.text, state.unsupported, known, marker, notFound);
    this.body.hidden = !state.text && !!state.sources; // the model has not written yet: the quotes lead
    this.quotes.hidden = !state.sources;
    const quotes = `${state.sources}\u0000${[...known].join(',')}`;
    if (quotes !== this._quotesDrawn) {
      this._quotesDrawn = quotes;
      if (state.sources) {
        renderAnswer(this._quotesBody, state.sources, [], known, marker); // verbatim: nothing to flag
      } else {
        this._quotesBody.replaceChildren();
      }
    }
    const prefix = this._look.prefix;
    const notes: HTMLElement[] = [];
    if (state.error) {
      notes.push(h('p', { class: `${prefix}error`, role: 'alert' }, state.error));
    }
    const names = notFoundNote(prefix, notFound);
    if (names) {
      notes.push(names);
    }
    const unsupported = stillUnsupported(state.unsupported, notFound);
    if (unsupported.length) {
      // The sentences found in the text are marked there; the list names the others.
      notes.push(unsupportedNote(prefix, this._look.unsupportedTestid, unsupported.length, missing));
    }
    this.notes.replaceChildren(...notes);
  }

  /** The citation numbered `id` in the state drawn last. */
  citation(id: number): ICitation | undefined {
    return this._citations.find(c => c.id === id);
  }
}
