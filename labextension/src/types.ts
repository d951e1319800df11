/**
 * Shapes of the /athena/ HTTP API (docs/http-api.md). Kept in one place so the
 * components and the API module agree on what the server sends.
 */

import {
  IAskFilters,
  ICitation as IContractCitation,
  ICompactionData,
  IConversation as IContractConversation,
  IDoneData,
  IErrorData,
  IProgressData,
  IRegion,
  IRunStatus,
  IStartData,
  IStoredMessage as IContractStoredMessage,
  ITraceData,
  IVectorStatus
} from './core/contract';

export type { IRegion };

export type CitationKind = IContractCitation['kind'];

/**
 * A citation of an answer (core/contract.ts, generated from athena_lab/contract.py): always
 * numbered, since `[n]` markers name it.
 */
export interface ICitation extends IContractCitation {
  id: number;
}

/** What a question's search is narrowed to (core/contract.ts `IAskFilters`). */
export type IChatFilters = IAskFilters;

export interface IChatRequest {
  question: string;
  conversationId?: string | null;
  filters?: IChatFilters;
  provider?: string;
  model?: string;
  topK?: number;
  /** A notebook cell or selection the question is about ("Ask about this cell"). */
  context?: string;
  /** What the question's chip calls it ("cell 3 of analysis.ipynb"), stored with it. */
  contextLabel?: string;
}

export type ITraceEvent = ITraceData;
export type IDoneEvent = Partial<IDoneData>;

/** One parsed server-sent event of the chat stream (core/contract.ts's, with numbered citations). */
export type ChatEvent =
  | { type: 'start'; data: IStartData }
  | { type: 'trace'; data: ITraceEvent }
  | { type: 'sources'; data: { answer: string; citations: ICitation[]; answer_follows: boolean } }
  | { type: 'progress'; data: IProgressData }
  | { type: 'chunk'; data: { content: string } }
  | { type: 'citations'; data: { citations: ICitation[] } }
  | { type: 'compaction'; data: ICompactionData }
  | { type: 'done'; data: IDoneEvent }
  | { type: 'error'; data: IErrorData };

export interface IConversationSummary {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  turns: number;
}

/** One stored message (core/contract.ts): a question with the filters it was asked
 * with, or an answer with its numbered citations. */
export interface IStoredMessage extends Omit<IContractStoredMessage, 'citations'> {
  citations?: ICitation[];
}

/** GET /athena/conversations/{id} (core/contract.ts `IConversation`). */
export interface IConversation extends Omit<IContractConversation, 'messages'> {
  messages: IStoredMessage[];
}

export interface IIndexInfo {
  version: string;
  root: string;
  lab_path_prefix: string | null;
  provider: string;
  /** The provider names a chat may ask for (the settings' provider choices). */
  providers?: string[];
  /** The models the local provider runs without a file (pip install 'athena-lab[local]'). */
  local_models?: Array<{ name: string; title: string; installed: boolean; default: boolean; install: string }>;
  model: string;
  mode: string;
  index: {
    files: number;
    chunks: number;
    last_indexed: number | string | null;
    /** When the index last changed (epoch seconds): "updated 3 s ago". */
    updated_at?: number | null;
    warnings: number;
    /** How many chunks have vectors and what is happening to the rest (null: no index). */
    vectors?: IVectorState | null;
    /** The index run writing right now (from the sidebar or a terminal), if any. */
    run?: IIndexRun | null;
  };
  /** Set when Lab was started by `athena lab`: open the chat on start. */
  open_chat?: boolean;
  /** Questions the empty chat offers, made from the index's section headings. */
  examples?: string[];
  /** The live index: whether the server re-indexes files as they are saved. */
  live?: ILiveIndex | null;
  /** What the server refuses: the composers count and refuse a longer question before Send. */
  limits?: { max_question_chars: number };
}

export interface ILiveIndex {
  watching: boolean;
  batches: number;
  error?: string | null;
}

/** GET /athena/chunks: where a cited chunk is now, or `found: false`. */
export interface IChunkState {
  chunk_id: string;
  found: boolean;
  path?: string;
  text_hash?: string;
  start_line?: number;
  end_line?: number;
  cell?: number | null;
  page?: number | null;
}

/** A file named in the status with the warnings the indexer recorded for it. */
export interface IFileWarnings {
  path: string;
  warnings: string[];
}

export interface IFileStatus extends IFileWarnings {
  doc_kind: string;
  status?: string;
  chunks: number;
  pages?: number | null;
  indexed_at: number | string | null;
}

export interface IIndexStatus {
  files: IFileStatus[];
  pending: IFileWarnings[];
  failed: IFileWarnings[];
  skipped?: IFileWarnings[];
  last_indexed?: number | string | null;
}

/**
 * GET /athena/status `vectors` (core/contract.ts `IVectorStatus`); the status strip reads
 * partial ones too (a job's progress, old servers), so only the counts are required.
 */
export type IVectorState = Pick<IVectorStatus, 'state' | 'done' | 'total'> & Partial<IVectorStatus>;

/** The index run writing right now (core/contract.ts `IRunStatus`). */
export type IIndexRun = IRunStatus;

export interface IReindexJob {
  id?: string | null;
  state: 'idle' | 'running' | 'done' | 'stopped' | 'failed';
  pid?: number | null;
  progress?: {
    done: number;
    total: number;
    phase: string;
    vectors?: IVectorState | null;
    rate?: number | null;
    /** What `rate` counts: files (scanning, parsing) or chunks (text index, embedding). */
    unit?: 'files' | 'chunks';
    eta_s?: number | null;
    message?: string | null;
  } | null;
  started_at?: number;
  finished_at?: number | null;
  /** Seconds since the job started (till it finished). */
  elapsed_s?: number;
  summary?: unknown;
  error?: string | null;
}
