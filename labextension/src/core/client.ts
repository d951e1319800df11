/**
 * The one client of the athena server's HTTP API, used by every front end: the Lab
 * sidebar (src/api.ts), the chat page (src/page/api.ts) and the drop-in (src/dropin/api.ts).
 * What differs between them is only how a request is sent — Jupyter's ServerConnection
 * (base URL, XSRF), a same-origin fetch with the server's cookie, or a cross-origin fetch
 * without credentials — and the error type they raise; that is the `ITransport`.
 * Methods are arrow properties so a front end can hand them out on their own.
 */
import { IPaperHit } from './contract';
import { Query } from './http';
import { IPapersList } from './papers';
import { IPageImage, pageImage } from './pdfPage';
import { chatStreamer } from './stream';
import {
  IChunkState,
  ICitation,
  IConversation,
  IConversationSummary,
  IIndexInfo,
  IIndexStatus,
  IReindexJob
} from '../types';

/** How one front end reaches the server. */
export interface ITransport {
  /** The URL of `athena/<path>` with `query`. */
  url(path: string, query?: Query): string;
  /** Send a request; a network failure or non-success answer rejects with the front end's error. */
  send(url: string, init?: RequestInit): Promise<Response>;
  /** The error for a chat answer with no stream in it. */
  noBody(status: number): Error;
}

/** Lines of a text source (GET /athena/source). */
export interface ISourceLines {
  path: string;
  start_line: number;
  end_line: number;
  total_lines: number;
  lines: string[];
}

/** One notebook cell (GET /athena/cell). */
export interface ICell {
  index: number;
  cell_type: string;
  source: string;
}

export class AthenaClient {
  constructor(private _transport: ITransport) {}

  private async _json<T>(path: string, query?: Query, init?: RequestInit): Promise<T> {
    const response = await this._transport.send(this._transport.url(path, query), init);
    return (await response.json()) as T;
  }

  readonly getInfo = (): Promise<IIndexInfo> => this._json<IIndexInfo>('info');

  readonly getStatus = (): Promise<IIndexStatus> => this._json<IIndexStatus>('status');

  readonly listConversations = async (limit = 30): Promise<IConversationSummary[]> =>
    (await this._json<{ conversations: IConversationSummary[] }>('conversations', { limit })).conversations;

  readonly getConversation = (id: string): Promise<IConversation> =>
    this._json<IConversation>(`conversations/${encodeURIComponent(id)}`);

  readonly deleteConversation = async (id: string): Promise<void> => {
    await this._transport.send(this._transport.url(`conversations/${encodeURIComponent(id)}`), { method: 'DELETE' });
  };

  /** Drop question `turn` (0-based) and what followed, to ask it again; the conversation left. */
  readonly rewindConversation = async (id: string, turn: number): Promise<IConversation> =>
    (
      await this._json<{ conversation: IConversation }>(`conversations/${encodeURIComponent(id)}/rewind`, undefined, {
        method: 'POST',
        body: JSON.stringify({ turn })
      })
    ).conversation;

  /** Start a reindex (POST /athena/reindex); a run already going answers 409. */
  readonly postReindex = async (): Promise<IReindexJob> =>
    (await this._json<{ job: IReindexJob }>('reindex', undefined, { method: 'POST' })).job;

  readonly getReindex = async (): Promise<IReindexJob> => (await this._json<{ job: IReindexJob }>('reindex')).job;

  /** Where the cited chunks are now (GET /athena/chunks), in the order asked. */
  readonly getChunks = async (ids: string[]): Promise<IChunkState[]> =>
    ids.length ? (await this._json<{ chunks: IChunkState[] }>('chunks', { ids: ids.join(',') })).chunks : [];

  /** The kind the index's catalog gives `path` (GET /athena/catalog), or null when it is no indexed source. */
  readonly getSourceKind = async (path: string): Promise<string | null> => {
    try {
      return (await this._json<{ kind: string }>('catalog', { path })).kind;
    } catch (err) {
      if ((err as { status?: number }).status === 404) {
        return null;
      }
      throw err;
    }
  };

  readonly getSource = (path: string, start: number, end: number): Promise<ISourceLines> =>
    this._json<ISourceLines>('source', { path, start_line: start, end_line: end });

  readonly getCells = async (citation: ICitation): Promise<ICell[]> => {
    const query = { path: citation.path, cell: citation.cell ?? 0, end_cell: citation.end_cell ?? citation.cell ?? 0 };
    return (await this._json<{ cells: ICell[] }>('cell', query)).cells;
  };

  /**
   * The server-rendered page image as an object URL, with its scale (core/pdfPage.ts).
   * Fetched, not an <img src>: it carries the front end's auth, and the drop-in's
   * cross-origin request its Origin, which public mode needs. The plain page: the cited
   * regions are drawn over it, narrower than the chunk.
   */
  readonly pdfPageImage = async (citation: ICitation): Promise<IPageImage> =>
    pageImage(await this._transport.send(this._transport.url('pdf/page', { path: citation.path, page: citation.page ?? 1 })));

  /** The archive's papers with the collections and tags they have (GET /athena/papers). */
  readonly getPapers = (): Promise<IPapersList> => this._json<IPapersList>('papers');

  /** "Which papers discuss …?" (GET /athena/papers?about=…): papers, each with its best passage. */
  readonly getPapersAbout = async (about: string, k = 5): Promise<IPaperHit[]> =>
    (await this._json<{ papers: IPaperHit[] }>('papers', { about, k })).papers;

  /** BibTeX (or RIS, CSL-JSON) for cited chunks or papers (GET /athena/cite), to paste into a paper. */
  readonly getCitationText = async (
    chunkIds: string[],
    format: 'bibtex' | 'ris' | 'csl-json' = 'bibtex'
  ): Promise<string> => {
    const query = chunkIds.map(id => `target=${encodeURIComponent(id)}`).join('&');
    return (await this._transport.send(`${this._transport.url('cite')}?${query}&format=${format}`)).text();
  };

  /** Ask; each chat event goes to `onEvent` as it arrives. Resolves when the stream ends;
   * aborting `signal` stops it. */
  readonly streamChat = chatStreamer(
    init => this._transport.send(this._transport.url('chat'), init),
    status => this._transport.noBody(status)
  );
}
