/**
 * The widget's client of the athena server (core/client.ts): cross-origin to the server
 * named by its script tag, without cookies or a token (a docs site cannot keep a secret).
 * The server lets the requests in only in public mode, from an allowlisted origin
 * (athena_lab/server/middleware.py).
 */
import { AthenaClient } from '../core/client';
import { athenaQueryUrl, checked } from '../core/http';

/** The client for the server at `base`. */
export function dropinClient(base: string): AthenaClient {
  return new AthenaClient({
    url: (path, query) => athenaQueryUrl(base, path, query),
    send: (url, init = {}) =>
      checked(() => fetch(url, { credentials: 'omit', mode: 'cors', referrerPolicy: 'no-referrer', ...init }), {
        unreachable: 'Cannot reach the assistant right now.',
        fallback: response => `The assistant answered ${response.status}.`,
        error: message => new Error(message)
      }),
    noBody: () => new Error('The answer had no body to stream.')
  });
}
