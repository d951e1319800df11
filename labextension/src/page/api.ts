/**
 * The chat page's requests. Same origin as the page, so no CORS; the server's HttpOnly
 * cookie (set when the page was opened from the printed `?token=` URL) authenticates
 * them. The URL base is taken from the page's own address, so a reverse proxy may put the
 * page under a sub-path.
 */
import { athenaQueryUrl, checked, Query } from '../core/http';
import { IPageImage, pageImage } from '../core/pdfPage';
import { chatStreamer } from '../core/stream';
import {
  ICitation,
  IConversation,
  IConversationSummary,
  IIndexInfo
} from '../types';

/** A non-success answer from the server, with the server's own message. */
export class PageError extends Error {
  constructor(
    message: string,
    readonly status: number
  ) {
    super(message);
  }
}

function athenaUrl(path: string, query: Query = {}): string {
  return athenaQueryUrl(document.baseURI, path, query);
}

function send(url: string, init: RequestInit = {}): Promise<Response> {
  return checked(() => fetch(url, { credentials: 'same-origin', ...init }), {
    unreachable: 'Cannot reach the athena server: {reason}',
    fallback: response => `athena server answered ${response.status}`,
    error: (message, status) => new PageError(message, status),
    advice: status => (status === 401 ? ' Open the page again from the URL athena serve printed (it ends in ?token=…).' : '')
  });
}

async function getJSON<T>(path: string, query?: Query): Promise<T> {
  return (await (await send(athenaUrl(path, query))).json()) as T;
}

export const getInfo = (): Promise<IIndexInfo> => getJSON<IIndexInfo>('info');

export async function listConversations(limit = 30): Promise<IConversationSummary[]> {
  return (await getJSON<{ conversations: IConversationSummary[] }>('conversations', { limit })).conversations;
}

export const getConversation = (id: string): Promise<IConversation> =>
  getJSON<IConversation>(`conversations/${encodeURIComponent(id)}`);

export async function deleteConversation(id: string): Promise<void> {
  await send(athenaUrl(`conversations/${encodeURIComponent(id)}`), { method: 'DELETE' });
}

export interface ISourceLines {
  path: string;
  start_line: number;
  end_line: number;
  total_lines: number;
  lines: string[];
}

export const getSource = (path: string, start: number, end: number): Promise<ISourceLines> =>
  getJSON<ISourceLines>('source', { path, start_line: start, end_line: end });

export interface ICell {
  index: number;
  cell_type: string;
  source: string;
}

export async function getCells(citation: ICitation): Promise<ICell[]> {
  const query = { path: citation.path, cell: citation.cell ?? 0, end_cell: citation.end_cell ?? citation.cell ?? 0 };
  return (await getJSON<{ cells: ICell[] }>('cell', query)).cells;
}

/** The page image with its scale (core/pdfPage.ts), fetched with the cookie. */
export async function pdfPageImage(citation: ICitation): Promise<IPageImage> {
  // The plain page: the viewer draws the cited regions over it (core/pdfPage.ts).
  return pageImage(await send(athenaUrl('pdf/page', { path: citation.path, page: citation.page ?? 1 })));
}

/** Ask; each chat event goes to `onEvent` as it arrives. Resolves when the stream ends;
 * aborting `signal` stops it. */
export const streamChat = chatStreamer(init => send(athenaUrl('chat'), init),
  status => new PageError('The chat answer had no body to stream.', status));
