/**
 * The widget's client of the athena server (core/client.ts): cross-origin to the server
 * named by its script tag, without cookies or a token (a docs site cannot keep a secret).
 * The server lets the requests in only in public mode, from an allowlisted origin
 * (athena_lab/server/middleware.py); when it refuses, the widget says why and what to change.
 */
import { AthenaClient } from '../core/client';
import { athenaQueryUrl, checked, Query } from '../core/http';

const UNREACHABLE = 'Cannot reach the assistant right now.';
/** docs/chat-page.md, "Drop-in widget": the settings that let a docs site's readers ask. */
const FIX =
  'The site\u2019s owner allows it in the athena server\u2019s config: [dropin] public = true and this ' +
  'site\u2019s origin in [server] cors_origins (docs/chat-page.md, \u201cDrop-in widget\u201d).';
const REFUSED = `The assistant\u2019s server refused this page (its CORS check turned ${location.origin} away).`;
const NOT_PUBLIC = `This site may not ask without a token. ${FIX}`;

/**
 * A browser hides why a cross-origin request failed: a refused CORS preflight and a server
 * that is down both reject the fetch. The widget's own script answers without a token or
 * CORS (athena_lab/server/dropin.py), so an opaque request to it tells them apart: when
 * it arrives, the server is up and refused this page. The site's owner reads what to
 * change on the page's console; the panel says it in short.
 */
async function explained(err: Error, scriptUrl: string): Promise<Error> {
  if (err.message !== UNREACHABLE) {
    if (err.message.includes(NOT_PUBLIC)) {
      console.error(`athena drop-in widget: ${err.message}`);
    }
    return err;
  }
  try {
    await fetch(scriptUrl, { mode: 'no-cors', credentials: 'omit', cache: 'no-store' });
  } catch {
    return err; // the server itself is unreachable
  }
  console.error(`athena drop-in widget: ${REFUSED} ${FIX}`);
  return new Error(`${REFUSED} ${FIX}`);
}

/** The client for the server at `base`. */
export function dropinClient(base: string): AthenaClient {
  const url = (path: string, query?: Query): string => athenaQueryUrl(base, path, query);
  return new AthenaClient({
    url,
    send: async (target, init = {}) => {
      try {
        return await checked(
          () => fetch(target, { credentials: 'omit', mode: 'cors', referrerPolicy: 'no-referrer', ...init }),
          {
            unreachable: UNREACHABLE,
            fallback: response => `The assistant answered ${response.status}.`,
            error: message => new Error(message),
            advice: status => (status === 401 ? ` ${NOT_PUBLIC}` : '')
          }
        );
      } catch (err) {
        throw await explained(err as Error, url('widget.js'));
      }
    },
    noBody: () => new Error('The answer had no body to stream.')
  });
}
