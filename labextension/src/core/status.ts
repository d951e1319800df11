/**
 * What an answer is doing while it streams, in a few words — "searching…", "reading 8
 * sources…", "writing…" — folded from the same chat events as the answer itself
 * (docs/http-api.md, "Chat events"). Pure (no DOM), so the sidebar, the chat page and the
 * widget say the same thing, and node tests pin the wording. `null`: nothing to show
 * (before the request, and once the answer is done, failed or stopped).
 */
import { formatCount, formatDuration } from '../progressText';
import { ChatEvent, IIndexInfo } from '../types';

export type StreamPhase = 'searching' | 'reading' | 'writing' | 'summarising';

export interface IStreamStatus {
  phase: StreamPhase;
  text: string;
  /** While a local model reads its prompt: llama.cpp's count of tokens read (`progress`). */
  progress?: IReadProgress;
}

/** How far a model has read its prompt, and the time left at its measured speed. */
export interface IReadProgress {
  done: number;
  total: number;
  /** Seconds left; null before any speed is measured. */
  etaS: number | null;
}

/**
 * "600 / 1,500 prompt tokens · about 40 s left" — the words beside the progress bar. The
 * prompt is the passages with the question and the rules, so it is more than the passages'
 * own count the status line names.
 */
export function progressDetail(progress: IReadProgress): string {
  const left = progress.etaS === null ? '' : ` \u00b7 about ${formatDuration(Math.max(1, progress.etaS))} left`;
  return `${formatCount(progress.done)} / ${formatCount(progress.total)} prompt tokens${left}`;
}

/** The status as the request leaves, before the server says anything. */
export const SEARCHING: IStreamStatus = { phase: 'searching', text: 'searching\u2026' };

/** What a tool call (trace event without hits) tells the user the turn is doing now. */
function toolStatus(tool: string): IStreamStatus | null {
  if (/search|grep|find|lookup|list|related/i.test(tool)) {
    return SEARCHING;
  }
  if (/read|open|get|page|cell|source|neighbo/i.test(tool)) {
    return { phase: 'reading', text: 'reading\u2026' };
  }
  return null;
}

function sources(n: number): string {
  return `${n} source${n === 1 ? '' : 's'}`;
}

/** `status` with `event` applied; never mutates. */
export function foldStatus(status: IStreamStatus | null, event: ChatEvent): IStreamStatus | null {
  switch (event.type) {
    case 'start':
      return SEARCHING;
    case 'trace': {
      const hits = event.data.hits;
      if (Array.isArray(hits)) {
        return hits.length
          ? { phase: 'reading', text: `reading ${sources(hits.length)}\u2026` }
          : { phase: 'reading', text: 'no sources found\u2026' };
      }
      if (event.data.tool === 'loadModel') {
        return { phase: 'reading', text: 'loading the model\u2026' };
      }
      if (event.data.tool === 'translate') {
        return { phase: 'searching', text: 'putting the question into English\u2026' };
      }
      if (event.data.tool === 'readPassages' && event.data.summary) {
        // What a model reads before it writes: "reading 5 passages (≈1,200 tokens)", which
        // on a CPU takes long enough that the size is worth saying.
        return { phase: 'reading', text: `${event.data.summary}\u2026` };
      }
      return toolStatus(event.data.tool) ?? status;
    }
    case 'sources':
      // The quotes are on screen; a model reads them next (its load or reading says more).
      return event.data.answer_follows ? { phase: 'reading', text: 'the model is starting\u2026' } : status;
    case 'progress':
      return {
        phase: 'reading',
        text: status?.phase === 'reading' ? status.text : 'reading the passages\u2026',
        progress: { done: event.data.done, total: event.data.total, etaS: event.data.eta_s ?? null }
      };
    case 'compaction':
      return { phase: 'summarising', text: 'summarising earlier turns\u2026' };
    case 'chunk':
      return event.data.content ? { phase: 'writing', text: 'writing\u2026' } : status;
    case 'done':
    case 'error':
      return null;
    default:
      return status;
  }
}

/**
 * Who answers, as the header says it: "provider:model", or the provider alone when the
 * server names no model (the local provider serves a GGUF file, not a model name).
 */
export function answererLabel(info: Pick<IIndexInfo, 'provider' | 'model'>): string {
  return info.model ? `${info.provider}:${info.model}` : String(info.provider);
}
