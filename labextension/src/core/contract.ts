/**
 * The contract's shapes (docs/contract.md), generated from athena_lab/contract.py by
 * tools/contract_schema.py — do not edit; tests/test_contract.py fails when it drifts.
 */

/** A highlight box on a PDF page, in PDF points from the page's top-left corner. */
export interface IRegion {
  x: number;
  y: number;
  width: number;
  height: number;
  page?: number;
}

/** A name as a reference manager splits it (CSL's shape): family and given, or one ``literal`` name (an organisation). */
export interface IPersonName {
  family?: string;
  given?: string;
  literal?: string;
}

/** The Zotero item a source is an attachment of: ``uri`` selects it in Zotero. */
export interface IZoteroLink {
  key: string;
  uri: string;
}

/** The BibTeX entry a source's record is: the ``.bib`` file (root-relative) and its key, and how the entry was linked to the file: by a ``file`` field naming it, or by its ``title`` found on the file's first pages (an entry that names no file). */
export interface IBibEntryLink {
  file: string;
  key: string;
  linked_by?: 'file' | 'title';
}

/** What to cite a source by (athena_lab/citations/bibliography.py): a Zotero item's record (``source: "zotero"``, with type, names, venue …) or a BibTeX entry's that links the file (``source: "bibtex"``), else what the PDF parser found on its first page; fields not found are absent, never guessed. */
export interface IBibRecord {
  path: string;
  title?: string;
  authors?: string[];
  year?: number;
  doi?: string;
  arxiv?: string;
  source?: 'zotero' | 'bibtex';
  type?: string;
  names?: IPersonName[];
  editors?: IPersonName[];
  venue?: string;
  volume?: string;
  issue?: string;
  pages?: string;
  publisher?: string;
  url?: string;
  label?: string;
  zotero?: IZoteroLink;
  bibtex?: IBibEntryLink;
}

/** Where a sentence the answer took from a source is: lines of a text file, lines of one notebook cell (0-based ``cell``), or regions of a PDF page. */
export interface IEvidence {
  quote: string;
  start_line?: number;
  end_line?: number;
  cell?: number;
  page?: number;
  regions?: IRegion[];
}

/** One source of an answer or one search hit (search hits have no ``id``). */
export interface ICitation {
  id?: number;
  kind: 'text' | 'notebook' | 'pdf';
  path: string;
  label?: string;
  doc_kind?: string;
  chunk_id?: string | null;
  text_hash?: string;
  snippet?: string;
  heading_path?: string | null;
  title?: string | null;
  start_line?: number | null;
  end_line?: number | null;
  cell?: number | null;
  end_cell?: number | null;
  page?: number | null;
  pages?: number[];
  regions?: IRegion[];
  confidence?: number | null;
  warnings?: string[];
  score?: number;
  record?: IBibRecord;
  references?: boolean;
  evidence?: IEvidence[];
  url?: string;
}

/** One hit of a search the agent ran, as the trace shows it: the fused (reciprocal-rank) score and the 1-based rank in each retriever that found it — ``bm25``, ``vector``, ``ident``, ``grep``, ``multilingual`` (``bm25@2`` … for a translated question's search). */
export interface ITraceHit {
  ref: number;
  path: string;
  where?: string;
  heading_path?: string | null;
  score: number;
  ranks: { [key: string]: number };
}

/** A name a model's answer uses (a call, setting, option, directive, command, environment variable or file name) that occurs nowhere in the indexed folder nor in the question, and where it stands: the sentence (marker-free, verbatim as in the answer, like an ``unsupported`` entry) or the code line. A front end marks it "not found in your documents". */
export interface INotFound {
  name: string;
  sentence: string;
}

export interface IStartData {
  conversation_id: string;
}

export interface ITraceData {
  tool: string;
  input: { [key: string]: unknown };
  summary: string;
  hits?: ITraceHit[];
  ok?: boolean;
  step?: number;
}

/** The offline answer, sent right after the first search, before any model loads: the quotes (Markdown with ``[n]`` markers, numbered from 1) and their citations. With ``answer_follows`` a model's answer streams next (``chunk``), its markers continuing this numbering; without it this is the answer (extractive mode, or nothing passes the filters). A later ``sources`` event (a search with the question in English) replaces this one whole, text and numbering, and always comes before the first ``chunk``. */
export interface ISourcesData {
  answer: string;
  citations: ICitation[];
  answer_follows: boolean;
}

/** How far a local model has read its prompt (passages, question, rules), before its first word: llama.cpp's own count, reported every 128 tokens. ``done`` and ``total`` count the tokens it has to read (its prompt cache skips the rest); ``eta_s`` is the time left at the speed measured so far (null before anything is measured). */
export interface IProgressData {
  stage: 'reading';
  done: number;
  total: number;
  eta_s: number | null;
}

export interface IChunkData {
  content: string;
}

export interface ICitationsData {
  citations: ICitation[];
}

export interface ICompactionData {
  dropped_turns: number;
  summary?: string;
}

export interface IDoneData {
  usage?: { [key: string]: number };
  unsupported?: string[];
  mode?: string;
  conversation_id?: string;
  degraded?: string | null;
  no_evidence?: 'filters' | 'index';
  building?: 'multilingual';
  not_found?: INotFound[];
}

export interface IErrorData {
  message: string;
}

/** What a question's search is narrowed to: a document kind, a folder (``docs/``), and papers (search/papers.py): a Zotero collection or tag, an author, a year or range, or the papers chosen in the papers view (their ids). */
export interface IAskFilters {
  kind?: string;
  path_prefix?: string;
  collection?: string;
  tag?: string;
  author?: string;
  year?: string;
  papers?: string[];
}

/** What a question was asked about: a notebook cell or a selection, and what the question's chip called it (``label``, when the front end sent one). */
export interface IAttachedContext {
  text: string;
  label?: string;
}

/** One message of a stored conversation (``GET /athena/conversations/{id}``): a question with the ``filters`` and the ``context`` it was asked with (each absent when none, and on questions stored before they were kept), or an answer with its citations and the ``trace`` of what it ran (absent on answers stored before it was kept). */
export interface IStoredMessage {
  role: 'user' | 'assistant';
  content: string;
  created_at: string;
  filters?: IAskFilters;
  context?: IAttachedContext;
  citations?: ICitation[];
  unsupported?: string[];
  mode?: string;
  trace?: ITraceData[];
  sources?: string;
  not_found?: INotFound[];
}

/** A stored conversation, oldest message first (``ConversationStore.get``). */
export interface IConversation {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  messages: IStoredMessage[];
}

/** One paper of the archive (``athena papers``, ``GET /athena/papers``): a Zotero item with its attachments, or a PDF outside any library. ``record`` says where its title, authors and year come from: ``zotero``, ``pdf`` (guessed from its first page) or ``none``. ``paths`` are its indexed files; ``warnings`` name what is wrong (a missing attachment, a scanned or garbled file). */
export interface IPaper {
  id: string;
  title: string | null;
  authors: string[];
  surnames: string[];
  year: number | null;
  label: string;
  pages: number | null;
  paths: string[];
  kinds: string[];
  collections: string[];
  tags: string[];
  warnings: string[];
  record: 'zotero' | 'bibtex' | 'pdf' | 'none';
  doi?: string;
  arxiv?: string;
  venue?: string;
  type?: string;
  zotero?: IZoteroLink;
}

/** A paper that answers "which papers discuss X?": its best passage (a citation) and how many of the passages found were its. */
export interface IPaperHit {
  paper: IPaper;
  score: number;
  passages: number;
  best: ICitation;
}

export interface IIndexCounts {
  files: number;
  failed: number;
  pending: number;
  chunks: number;
}

/** Vectors of the configured embedder: ``state`` is complete, embedding, indexing, partial, missing or off; ``message`` says it in one line for a person. */
export interface IVectorStatus {
  state: 'complete' | 'embedding' | 'indexing' | 'partial' | 'missing' | 'off';
  done: number;
  total: number;
  embedder: string | null;
  rate: number | null;
  eta_s: number | null;
  phase: string | null;
  pid: number | null;
  message: string;
}

export interface IMultilingualStatus {
  build: string;
  done: number;
  total: number;
  model: string | null;
}

/** The live index run writing this index (any process). */
export interface IRunStatus {
  pid: number;
  phase: string;
  done: number;
  total: number;
  started_at: number;
  heartbeat: number;
  embedder_key: string | null;
  embedder: string | null;
  rate: number | null;
  live: boolean;
}

export interface IFileStatus {
  path: string;
  doc_kind: string;
  status: string;
  chunks: number;
  pages: number | null;
  warnings: string[];
  indexed_at: number;
}

export interface ISkippedFile {
  path: string;
  warnings: string[];
}

/** What ``athena status --json``, ``GET /athena/status`` and ``Workspace.status()`` give. */
export interface IIndexStatus {
  root: string;
  index_dir: string;
  last_indexed: number | null;
  updated_at: number | null;
  embedder: string | null;
  counts: IIndexCounts;
  multilingual: IMultilingualStatus;
  vectors: IVectorStatus;
  run: IRunStatus | null;
  files: IFileStatus[];
  skipped: ISkippedFile[];
}

/** One probed component: ``status`` is up, down, missing or off. */
export interface IComponentHealth {
  status: string;
  latency_ms: number;
  error?: string;
  details?: { [key: string]: unknown };
}

/** ``GET /athena/health`` and ``Workspace.health()``: ``status`` is healthy, degraded or unhealthy; components ``index``, ``embedder`` and ``llm``. */
export interface IHealth {
  status: string;
  components: { [key: string]: IComponentHealth };
}

/** One event of the chat stream, as the server sends it. */
export type ChatEvent =
  | { type: 'start'; data: IStartData }
  | { type: 'trace'; data: ITraceData }
  | { type: 'sources'; data: ISourcesData }
  | { type: 'progress'; data: IProgressData }
  | { type: 'chunk'; data: IChunkData }
  | { type: 'citations'; data: ICitationsData }
  | { type: 'compaction'; data: ICompactionData }
  | { type: 'done'; data: IDoneData }
  | { type: 'error'; data: IErrorData };
