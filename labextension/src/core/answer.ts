/**
 * The one fold of the chat event stream into an answer (docs/http-api.md, "Chat events").
 * Pure: no DOM, no I/O. The sidebar, the chat page and the widget each keep an
 * `IAnswerState` per answer, fold every event into it, and redraw from what changed, so
 * they cannot disagree on what an answer is. Python has its own fold for the CLI and
 * magic (athena_lab/answer.py); this is its front-end twin.
 */
import { ChatEvent, ICitation, IStoredMessage, ITraceEvent } from '../types';
import { INotFound } from './contract';
import { foldStatus, IStreamStatus, SEARCHING } from './status';

export interface IAnswerState {
  /** Set by the `start` event: the conversation this answer belongs to. */
  conversationId: string | null;
  /** The answer: a model's words, or in extractive mode the quotes (the `sources` event). */
  text: string;
  /**
   * The quotes shown beside a model's answer: the `sources` event's text, on screen before
   * the model's first word; '' in extractive mode, where they are `text`.
   */
  sources: string;
  citations: ICitation[];
  trace: ITraceEvent[];
  /** Sentences the checker found no support for (from `done`). */
  unsupported: string[];
  /** Names the model wrote that no indexed file (nor the question) holds (`done.not_found`). */
  notFound: INotFound[];
  /** "extractive" or "provider:model" (from `done`). */
  mode: string | null;
  /** How many older turns the server summarised before this answer, if it did. */
  droppedTurns: number | null;
  error: string | null;
  /** True once `done` or `error` arrived: nothing more will change. */
  finished: boolean;
  /** The turn was cut short by the reader (Stop, a reload): stored as mode "interrupted". */
  stopped: boolean;
  /** What the turn is doing now ("reading 8 sources…"); null once finished (core/status.ts). */
  status: IStreamStatus | null;
  /** Why nothing is cited, when search found nothing: "filters" or "index" (from `done`). */
  noEvidence: string | null;
  /** What the server started building for this question (from `done`): "multilingual". */
  building: string | null;
}

export function emptyAnswer(): IAnswerState {
  return {
    conversationId: null,
    text: '',
    sources: '',
    citations: [],
    trace: [],
    unsupported: [],
    notFound: [],
    mode: null,
    droppedTurns: null,
    error: null,
    finished: false,
    stopped: false,
    status: SEARCHING,
    noEvidence: null,
    building: null
  };
}

/** `state` with `event` applied; never mutates `state` (so callers can diff old and new). */
export function foldEvent(state: IAnswerState, event: ChatEvent): IAnswerState {
  const status = foldStatus(state.status, event);
  return status === state.status ? foldAnswer(state, event) : { ...foldAnswer(state, event), status };
}

function foldAnswer(state: IAnswerState, event: ChatEvent): IAnswerState {
  switch (event.type) {
    case 'start':
      return { ...state, conversationId: event.data.conversation_id };
    case 'trace':
      return { ...state, trace: [...state.trace, event.data] };
    case 'sources':
      // The offline answer, first: beside the model's words that follow, else the answer.
      // A second one (the question searched again in English) replaces it whole.
      return event.data.answer_follows
        ? { ...state, sources: event.data.answer, citations: event.data.citations }
        : { ...state, text: event.data.answer, sources: '', citations: event.data.citations };
    case 'chunk':
      return { ...state, text: state.text + event.data.content };
    case 'citations':
      return { ...state, citations: event.data.citations };
    case 'compaction':
      return { ...state, droppedTurns: event.data.dropped_turns };
    case 'done':
      return {
        ...state,
        unsupported: event.data.unsupported ?? [],
        notFound: event.data.not_found ?? [],
        mode: event.data.mode ?? state.mode,
        noEvidence: event.data.no_evidence ?? null,
        building: event.data.building ?? null,
        finished: true
      };
    case 'error':
      return { ...state, error: event.data.message, finished: true };
    default:
      return state; // an event this front end does not know yet: ignored, not fatal
  }
}

/** The mode the server stores for an answer its reader cut short (agent/loop.py). */
export const INTERRUPTED = 'interrupted';

/** Over the quotes when a model's words come with them (docs/answers.md, "Sources first"). */
export const QUOTES_LEAD = 'From the sources:';

/**
 * What the reader sees, as one Markdown text (Copy, Insert in notebook): the model's words,
 * then the quotes under `QUOTES_LEAD`; or the quotes alone.
 */
export function shownText(state: Pick<IAnswerState, 'text' | 'sources'>): string {
  const said = state.text.trim();
  const quotes = state.sources.trim();
  return said && quotes ? `${said}\n\n${QUOTES_LEAD}\n\n${quotes}` : said || quotes;
}

/** Fold a whole recorded stream (tests, replay). */
export function foldEvents(events: ChatEvent[], state: IAnswerState = emptyAnswer()): IAnswerState {
  return events.reduce(foldEvent, state);
}

/** A saved assistant message (GET /athena/conversations/{id}) as a finished answer. */
export function storedAnswer(message: IStoredMessage): IAnswerState {
  return {
    ...emptyAnswer(),
    text: message.content,
    sources: message.sources ?? '', // the quotes beside a model's answer (absent: extractive, or older)
    citations: message.citations ?? [],
    unsupported: message.unsupported ?? [],
    notFound: message.not_found ?? [],
    mode: message.mode ?? null,
    trace: message.trace ?? [], // the steps it ran (absent on answers stored before they were kept)
    finished: true,
    stopped: message.mode === INTERRUPTED,
    status: null
  };
}

/**
 * Run one streamed turn (`run` calls its callback per event) and show each folded state;
 * the last state is finished — with "Stopped." when the reader aborted, or the error.
 * Every chat front end runs its turns through this (the sidebar, the chat page, the drop-in).
 */
export async function showStreamedAnswer(
  run: (onEvent: (event: ChatEvent) => void) => Promise<void>,
  show: (state: IAnswerState) => void
): Promise<IAnswerState> {
  let state = emptyAnswer();
  try {
    await run(event => {
      state = foldEvent(state, event);
      show(state);
    });
    if (!state.finished) {
      state = { ...state, finished: true, status: null };
      show(state);
    }
  } catch (err) {
    const aborted = (err as Error).name === 'AbortError';
    state = {
      ...state,
      error: aborted ? 'Stopped.' : (err as Error).message,
      finished: true,
      stopped: aborted,
      status: null
    };
    show(state);
  }
  return state;
}
