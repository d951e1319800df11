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

export class DropinApi implements IViewerSource {
  constructor(private _base: string) {}

  private _url(path: string, query: Query = {}): string {
    return athenaQueryUrl(this._base, path, query);
  }

  private _send(url: string, init: RequestInit = {}): Promise<Response> {
    return checked(() => fetch(url, { credentials: 'omit', mode: 'cors', referrerPolicy: 'no-referrer', ...init }), {
      unreachable: 'Cannot reach the assistant right now.',
      fallback: response => `The assistant answered ${response.status}.`,
      error: message => new Error(message)
    });
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
