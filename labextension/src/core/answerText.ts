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
import { IAnswerState } from './answer';
import { h } from './dom';
import { citationMarker, unsupportedNote } from './markers';
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
export type AnswerTextState = Pick<IAnswerState, 'text' | 'citations' | 'unsupported' | 'error'>;

export class AnswerText {
  readonly body: HTMLElement;
  readonly notes: HTMLElement;
  private _citations: ICitation[] = [];

  constructor(
    private _look: IAnswerTextLook,
    private _open: (citation: ICitation, marker: HTMLElement) => void
  ) {
    this.body = h('div', { class: _look.bodyClass, 'data-testid': _look.bodyTestid });
    this.notes = h('div', { class: `${_look.prefix}answer-notes` });
  }

  /** Redraw the text and notes from `state` (whole: callers limit this to once a frame). */
  draw(state: AnswerTextState): void {
    this._citations = state.citations;
    const known = new Set(state.citations.map(c => c.id));
    const missing = renderAnswer(this.body, state.text, state.unsupported, known, (ids, text) =>
      citationMarker(ids, text, {
        className: this._look.markerClass,
        bare: this._look.bare,
        citation: id => this.citation(id),
        open: (citation, marker) => this._open(citation, marker)
      })
    );
    const prefix = this._look.prefix;
    const notes: HTMLElement[] = [];
    if (state.error) {
      notes.push(h('p', { class: `${prefix}error`, role: 'alert' }, state.error));
    }
    if (state.unsupported.length) {
      // The sentences found in the text are marked there; the list names the others.
      notes.push(unsupportedNote(prefix, this._look.unsupportedTestid, state.unsupported.length, missing));
    }
    this.notes.replaceChildren(...notes);
  }

  /** The citation numbered `id` in the state drawn last. */
  citation(id: number): ICitation | undefined {
    return this._citations.find(c => c.id === id);
  }
}
