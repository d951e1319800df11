/**
 * The only module that talks to the athena server. Every request goes through
 * ServerConnection so Jupyter's base URL, token and XSRF header are applied.
 */
import { URLExt } from '@jupyterlab/coreutils';
import { ServerConnection } from '@jupyterlab/services';

import { checked } from './core/http';
import { IPageImage, pageImage } from './core/pdfPage';
import { chatStreamer } from './core/stream';
import {
  IChunkState,
  ICitation,
  IConversation,
  IConversationSummary,
  IIndexInfo,
  IIndexStatus,
  IReindexJob
} from './types';

/** A server answer that is not a success, with the server's own message. */
export class AthenaError extends Error {
  constructor(
    message: string,
    readonly status: number
  ) {
    super(message);
  }
}

const settings = ServerConnection.makeSettings();

/** The server's base URL: what state kept in the browser is scoped to. */
export const serverUrl = settings.baseUrl;

function athenaUrl(path: string, query?: Record<string, string | number>): string {
  const base = URLExt.join(settings.baseUrl, 'athena', path);
  return query ? base + URLExt.objectToQueryString(query) : base;
}

function send(url: string, init: RequestInit = {}): Promise<Response> {
  return checked(() => ServerConnection.makeRequest(url, init, settings), {
    unreachable: 'Cannot reach the athena server: {reason}',
    fallback: response => `athena server answered ${response.status} ${response.statusText}`,
    error: (message, status) => new AthenaError(message, status)
  });
}

async function getJSON<T>(path: string, query?: Record<string, string | number>): Promise<T> {
  const response = await send(athenaUrl(path, query));
  return (await response.json()) as T;
}

export function getInfo(): Promise<IIndexInfo> {
  return getJSON<IIndexInfo>('info');
}

export function getStatus(): Promise<IIndexStatus> {
  return getJSON<IIndexStatus>('status');
}

export async function listConversations(limit = 30): Promise<IConversationSummary[]> {
  const body = await getJSON<{ conversations: IConversationSummary[] }>('conversations', {
    limit
  });
  return body.conversations;
}

export function getConversation(id: string): Promise<IConversation> {
  return getJSON<IConversation>(`conversations/${encodeURIComponent(id)}`);
}

export async function deleteConversation(id: string): Promise<void> {
  await send(athenaUrl(`conversations/${encodeURIComponent(id)}`), { method: 'DELETE' });
}

/** Drop question `turn` (0-based) and what followed, to ask it again; the conversation left. */
export async function rewindConversation(id: string, turn: number): Promise<IConversation> {
  const response = await send(athenaUrl(`conversations/${encodeURIComponent(id)}/rewind`), {
    method: 'POST',
    body: JSON.stringify({ turn })
  });
  return ((await response.json()) as { conversation: IConversation }).conversation;
}

/** Start a reindex; a job already running (409) is reported, not treated as a failure.
 * (A run started elsewhere, e.g. `athena index` in a terminal, also answers 409: its
 * progress shows in the status strip, which follows any live run.) */
export async function startReindex(): Promise<IReindexJob> {
  try {
    const response = await send(athenaUrl('reindex'), { method: 'POST' });
    return ((await response.json()) as { job: IReindexJob }).job;
  } catch (err) {
    if (err instanceof AthenaError && err.status === 409) {
      const job = await getReindex();
      return job.state === 'running' ? job : { state: 'running', error: err.message };
    }
    throw err;
  }
}

export async function getReindex(): Promise<IReindexJob> {
  return (await getJSON<{ job: IReindexJob }>('reindex')).job;
}

/** Where the cited chunks are now (GET /athena/chunks), in the order asked. */
export async function getChunks(ids: string[]): Promise<IChunkState[]> {
  if (!ids.length) {
    return [];
  }
  return (await getJSON<{ chunks: IChunkState[] }>('chunks', { ids: ids.join(',') })).chunks;
}

/** The server-rendered page image as an object URL, with its scale (core/pdfPage.ts). */
export async function pdfPageImage(citation: ICitation): Promise<IPageImage> {
  // The plain page: the cited regions are drawn over it (core/pdfPage.ts), narrower than the chunk.
  return pageImage(await send(athenaUrl('pdf/page', { path: citation.path, page: citation.page ?? 1 })));
}

/** Ask; each chat event goes to `onEvent` as it arrives. Resolves when the stream ends;
 * aborting `signal` stops it. */
export const streamChat = chatStreamer(init => send(athenaUrl('chat'), init),
  status => new AthenaError('The chat answer had no body to stream.', status));

/** BibTeX (or RIS, CSL-JSON) for cited chunks (GET /athena/cite), to paste into a paper. */
export async function getCitationText(
  chunkIds: string[],
  format: 'bibtex' | 'ris' | 'csl-json' = 'bibtex'
): Promise<string> {
  const query = chunkIds.map(id => `target=${encodeURIComponent(id)}`).join('&');
  const url = URLExt.join(settings.baseUrl, 'athena', 'cite') + `?${query}&format=${format}`;
  return (await send(url)).text();
}
