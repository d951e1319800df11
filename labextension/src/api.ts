/**
 * The sidebar's client of the athena server (core/client.ts), sending every request
 * through ServerConnection so Jupyter's base URL, token and XSRF header are applied.
 */
import { URLExt } from '@jupyterlab/coreutils';
import { ServerConnection } from '@jupyterlab/services';

import { AthenaClient } from './core/client';
import { checked, Query } from './core/http';
import { IReindexJob } from './types';

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

function athenaUrl(path: string, query?: Query): string {
  const base = URLExt.join(settings.baseUrl, 'athena', path);
  const given = Object.entries(query ?? {}).filter(([, value]) => value !== null && value !== undefined);
  return given.length ? base + URLExt.objectToQueryString(Object.fromEntries(given)) : base;
}

const client = new AthenaClient({
  url: athenaUrl,
  send: (url, init = {}) =>
    checked(() => ServerConnection.makeRequest(url, init, settings), {
      unreachable: 'Cannot reach the athena server: {reason}',
      fallback: response => `athena server answered ${response.status} ${response.statusText}`,
      error: (message, status) => new AthenaError(message, status)
    }),
  noBody: status => new AthenaError('The chat answer had no body to stream.', status)
});

export const {
  getInfo,
  getStatus,
  listConversations,
  getConversation,
  deleteConversation,
  rewindConversation,
  getReindex,
  getChunks,
  getSourceKind,
  pdfPageImage,
  streamChat,
  getCitationText,
  getPapers,
  getPapersAbout
} = client;

/** Start a reindex; a job already running (409) is reported, not treated as a failure.
 * (A run started elsewhere, e.g. `athena index` in a terminal, also answers 409: its
 * progress shows in the status strip, which follows any live run.) */
export async function startReindex(): Promise<IReindexJob> {
  try {
    return await client.postReindex();
  } catch (err) {
    if (err instanceof AthenaError && err.status === 409) {
      const job = await getReindex();
      return job.state === 'running' ? job : { state: 'running', error: err.message };
    }
    throw err;
  }
}
