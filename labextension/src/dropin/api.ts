/**
 * The widget's requests: cross-origin to the athena server named by its script tag,
 * without cookies or a token (a docs site cannot keep a secret). The server lets them in
 * only in public mode, from an allowlisted origin (athena_lab/server/middleware.py).
 */
import { postChat } from '../core/stream';
import { ChatEvent, IChatRequest, ICitation } from '../types';
import { ICell, ISourceLines } from '../page/api';
import { IViewerSource } from '../page/viewer';

export class DropinApi implements IViewerSource {
  constructor(private _base: string) {}

  private _url(path: string, query: Record<string, string | number | null | undefined> = {}): string {
    const url = new URL(`athena/${path}`, this._base);
    for (const [key, value] of Object.entries(query)) {
      if (value !== null && value !== undefined && value !== '') {
        url.searchParams.set(key, String(value));
      }
    }
    return url.href;
  }

  private async _send(url: string, init: RequestInit = {}): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(url, { credentials: 'omit', mode: 'cors', referrerPolicy: 'no-referrer', ...init });
    } catch {
      throw new Error('Cannot reach the assistant right now.');
    }
    if (!response.ok) {
      let message = `The assistant answered ${response.status}.`;
      try {
        message = (await response.json())?.error?.message ?? message;
      } catch {
        // not JSON: keep the status
      }
      throw new Error(message);
    }
    return response;
  }

  async streamChat(request: IChatRequest, onEvent: (event: ChatEvent) => void, signal?: AbortSignal): Promise<void> {
    await postChat(init => this._send(this._url('chat'), init), request, onEvent, signal,
      () => new Error('The answer had no body to stream.'));
  }

  async getSource(path: string, start: number, end: number): Promise<ISourceLines> {
    return (await this._send(this._url('source', { path, start_line: start, end_line: end }))).json();
  }

  async getCells(citation: ICitation): Promise<ICell[]> {
    const query = { path: citation.path, cell: citation.cell ?? 0, end_cell: citation.end_cell ?? citation.cell ?? 0 };
    return ((await (await this._send(this._url('cell', query))).json()) as { cells: ICell[] }).cells;
  }

  /** Fetched, not an <img src>: an image request carries no Origin, which public mode needs. */
  async pdfImageUrl(citation: ICitation): Promise<string> {
    const query = { path: citation.path, page: citation.page ?? 1 }; // regions drawn over it (core/pdfPage.ts)
    return URL.createObjectURL(await (await this._send(this._url('pdf/page', query))).blob());
  }
}
