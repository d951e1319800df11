/**
 * The chat page's client of the athena server (core/client.ts). Same origin as the page,
 * so no CORS; the server's HttpOnly cookie (set when the page was opened from the printed
 * `?token=` URL) authenticates the requests. The URL base is taken from the page's own
 * address, so a reverse proxy may put the page under a sub-path.
 */
import { AthenaClient } from '../core/client';
import { athenaQueryUrl, checked } from '../core/http';

export type { ICell, ISourceLines } from '../core/client';

/** A non-success answer from the server, with the server's own message. */
export class PageError extends Error {
  constructor(
    message: string,
    readonly status: number
  ) {
    super(message);
  }
}

export const pageClient = new AthenaClient({
  url: (path, query) => athenaQueryUrl(document.baseURI, path, query),
  send: (url, init = {}) =>
    checked(() => fetch(url, { credentials: 'same-origin', ...init }), {
      unreachable: 'Cannot reach the athena server: {reason}',
      fallback: response => `athena server answered ${response.status}`,
      error: (message, status) => new PageError(message, status),
      advice: status => (status === 401 ? ' Open the page again from the URL athena serve printed (it ends in ?token=…).' : '')
    }),
  noBody: status => new PageError('The chat answer had no body to stream.', status)
});

export const {
  getInfo,
  listConversations,
  getConversation,
  deleteConversation,
  streamChat,
  getPapers,
  getPapersAbout,
  getCitationText
} = pageClient;
