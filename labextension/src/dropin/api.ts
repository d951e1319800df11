/**
 * The widget's requests: cross-origin to the athena server named by its script tag,
 * without cookies or a token (a docs site cannot keep a secret). The server lets them in
 * only in public mode, from an allowlisted origin (athena_lab/server/middleware.py).
 */
import { athenaQueryUrl, checked, Query } from '../core/http';
import { IPageImage, pageImage } from '../core/pdfPage';
import { chatStreamer } from '../core/stream';
import { ICitation } from '../types';
import { ICell, ISourceLines } from '../page/api';
import { IViewerSource } from '../page/viewer';

const UNREACHABLE = 'Cannot reach the assistant right now.';
/** docs/chat-page.md, "Drop-in widget": the settings that let a docs site's readers ask. */
const FIX =
  'The site\u2019s owner allows it in the athena server\u2019s config: [widget] public = true and this ' +
  'site\u2019s origin in [server] cors_origins (docs/chat-page.md, \u201cDrop-in widget\u201d).';
const REFUSED = `The assistant\u2019s server refused this page (its CORS check turned ${location.origin} away).`;
const NOT_PUBLIC = `This site may not ask without a token. ${FIX}`;

export class DropinApi implements IViewerSource {
  constructor(private _base: string) {}

  private _url(path: string, query: Query = {}): string {
    return athenaQueryUrl(this._base, path, query);
  }

  private async _send(url: string, init: RequestInit = {}): Promise<Response> {
    try {
      return await checked(
        () => fetch(url, { credentials: 'omit', mode: 'cors', referrerPolicy: 'no-referrer', ...init }),
        {
          unreachable: UNREACHABLE,
          fallback: response => `The assistant answered ${response.status}.`,
          error: message => new Error(message),
          advice: status => (status === 401 ? ` ${NOT_PUBLIC}` : '')
        }
      );
    } catch (err) {
      throw await this._explained(err as Error);
    }
  }

  /**
   * A browser hides why a cross-origin request failed: a refused CORS preflight and a server
   * that is down both reject the fetch. The widget's own script answers without a token or
   * CORS (athena_lab/server/dropin.py), so an opaque request to it tells them apart: when
   * it arrives, the server is up and refused this page. The site's owner reads what to
   * change on the page's console; the panel says it in short.
   */
  private async _explained(err: Error): Promise<Error> {
    if (err.message !== UNREACHABLE) {
      if (err.message.includes(NOT_PUBLIC)) {
        console.error(`athena drop-in widget: ${err.message}`);
      }
      return err;
    }
    try {
      await fetch(this._url('widget.js'), { mode: 'no-cors', credentials: 'omit', cache: 'no-store' });
    } catch {
      return err; // the server itself is unreachable
    }
    console.error(`athena drop-in widget: ${REFUSED} ${FIX}`);
    return new Error(`${REFUSED} ${FIX}`);
  }

  readonly streamChat = chatStreamer(init => this._send(this._url('chat'), init),
    () => new Error('The answer had no body to stream.'));

  async getSource(path: string, start: number, end: number): Promise<ISourceLines> {
    return (await this._send(this._url('source', { path, start_line: start, end_line: end }))).json();
  }

  async getCells(citation: ICitation): Promise<ICell[]> {
    const query = { path: citation.path, cell: citation.cell ?? 0, end_cell: citation.end_cell ?? citation.cell ?? 0 };
    return ((await (await this._send(this._url('cell', query))).json()) as { cells: ICell[] }).cells;
  }

  /** Fetched, not an <img src>: an image request carries no Origin, which public mode needs. */
  async pdfImage(citation: ICitation): Promise<IPageImage> {
    const query = { path: citation.path, page: citation.page ?? 1 }; // regions drawn over it (core/pdfPage.ts)
    return pageImage(await this._send(this._url('pdf/page', query)));
  }
}
