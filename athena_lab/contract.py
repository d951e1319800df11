"""The JSON shapes every front end exchanges: citations, the turn's event data, status and health.

docs/contract.md describes them; docs/contract.schema.json and the labextension's
core/contract.ts are generated from these TypedDicts by tools/contract_schema.py, so the
Python, the schema and the TypeScript cannot drift apart. How a citation is labelled is
``athena_lab.citations.labels``; how a turn's events fold into an answer is
``athena_lab.answer``; a question's options are ``athena_lab.request``.
"""

# No `from __future__ import annotations`: the TypedDicts below must see NotRequired at
# class creation (tools/contract_schema.py reads their required keys).
from typing import Any, Literal

from typing_extensions import NotRequired, TypedDict


class Region(TypedDict):
    """A highlight box on a PDF page, in PDF points from the page's top-left corner."""

    x: float
    y: float
    width: float
    height: float
    page: NotRequired[int]


class PersonName(TypedDict):
    """A name as a reference manager splits it (CSL's shape): family and given, or one
    ``literal`` name (an organisation)."""

    family: NotRequired[str]
    given: NotRequired[str]
    literal: NotRequired[str]


class ZoteroLink(TypedDict):
    """The Zotero item a source is an attachment of: ``uri`` selects it in Zotero."""

    key: str
    uri: str


class BibEntryLink(TypedDict):
    """The BibTeX entry a source's record is: the ``.bib`` file (root-relative) and its key,
    and how the entry was linked to the file: by a ``file`` field naming it, or by its
    ``title`` found on the file's first pages (an entry that names no file)."""

    file: str
    key: str
    linked_by: NotRequired[Literal["file", "title"]]


class BibRecord(TypedDict):
    """What to cite a source by (athena_lab/citations/bibliography.py): a Zotero item's record
    (``source: "zotero"``, with type, names, venue …) or a BibTeX entry's that links the
    file (``source: "bibtex"``), else what the PDF parser found on its first page; fields
    not found are absent, never guessed."""

    path: str
    title: NotRequired[str]
    authors: NotRequired[list[str]]
    year: NotRequired[int]
    doi: NotRequired[str]
    arxiv: NotRequired[str]
    source: NotRequired[Literal["zotero", "bibtex"]]
    type: NotRequired[str]  # Zotero's item type: journalArticle, conferencePaper, book …
    names: NotRequired[list[PersonName]]
    editors: NotRequired[list[PersonName]]
    venue: NotRequired[str]
    volume: NotRequired[str]
    issue: NotRequired[str]
    pages: NotRequired[str]
    publisher: NotRequired[str]
    url: NotRequired[str]
    label: NotRequired[str]  # "Fischer et al., 1985"
    zotero: NotRequired[ZoteroLink]
    bibtex: NotRequired[BibEntryLink]


class Evidence(TypedDict):
    """Where a sentence the answer took from a source is: lines of a text file, lines of one
    notebook cell (0-based ``cell``), or regions of a PDF page."""

    quote: str
    start_line: NotRequired[int]
    end_line: NotRequired[int]
    cell: NotRequired[int]
    page: NotRequired[int]
    regions: NotRequired[list[Region]]


class Citation(TypedDict):
    """One source of an answer or one search hit (search hits have no ``id``)."""

    id: NotRequired[int]
    kind: Literal["text", "notebook", "pdf"]
    path: str
    label: NotRequired[str]  # every citation since the label existed; not in older saved answers
    doc_kind: NotRequired[str]
    chunk_id: NotRequired[str | None]
    text_hash: NotRequired[str]
    snippet: NotRequired[str]
    heading_path: NotRequired[str | None]
    title: NotRequired[str | None]
    start_line: NotRequired[int | None]
    end_line: NotRequired[int | None]
    cell: NotRequired[int | None]
    end_cell: NotRequired[int | None]
    page: NotRequired[int | None]
    pages: NotRequired[list[int]]
    regions: NotRequired[list[Region]]
    confidence: NotRequired[float | None]
    warnings: NotRequired[list[str]]
    score: NotRequired[float]
    record: NotRequired[BibRecord]
    # PDFs: the passage is part of the paper's reference list (what it cites, not what it
    # says); only reference-list searches ("which papers cite X") return such passages.
    references: NotRequired[bool]
    evidence: NotRequired[list[Evidence]]
    # The docs site's page for this source, from the user's [dropin] site_url_map
    # (athena_lab/server/site_urls.py); added by the HTTP API, never stored.
    url: NotRequired[str]


class StartData(TypedDict):
    conversation_id: str


class TraceHit(TypedDict):
    """One hit of a search the agent ran, as the trace shows it: the fused (reciprocal-rank)
    score and the 1-based rank in each retriever that found it — ``bm25``, ``vector``,
    ``ident``, ``grep``, ``multilingual`` (``bm25@2`` … for a translated question's search)."""

    ref: int
    path: str
    where: NotRequired[str]
    heading_path: NotRequired[str | None]
    score: float
    ranks: dict[str, int]


class TraceData(TypedDict):
    tool: str
    input: dict[str, Any]
    summary: str
    hits: NotRequired[list[TraceHit]]  # searches: what they found, with scores and ranks
    ok: NotRequired[bool]  # the model's tool calls: whether the tool ran
    step: NotRequired[int]  # the model's tool calls: which model call asked for it


class SourcesData(TypedDict):
    """The offline answer, sent right after the first search, before any model loads: the
    quotes (Markdown with ``[n]`` markers, numbered from 1) and their citations. With
    ``answer_follows`` a model's answer streams next (``chunk``), its markers continuing
    this numbering; without it this is the answer (extractive mode, or nothing passes the
    filters). A later ``sources`` event (a search with the question in English) replaces
    this one whole, text and numbering, and always comes before the first ``chunk``."""

    answer: str
    citations: list[Citation]
    answer_follows: bool


class ProgressData(TypedDict):
    """How far a local model has read its prompt (passages, question, rules), before its
    first word: llama.cpp's own count, reported every 128 tokens. ``done`` and ``total``
    count the tokens it has to read (its prompt cache skips the rest); ``eta_s`` is the
    time left at the speed measured so far (null before anything is measured)."""

    stage: Literal["reading"]
    done: int
    total: int
    eta_s: float | None


class ChunkData(TypedDict):
    content: str


class CitationsData(TypedDict):
    citations: list[Citation]


class CompactionData(TypedDict):
    dropped_turns: int
    summary: NotRequired[str]


class NotFound(TypedDict):
    """A name a model's answer uses (a call, setting, option, directive, command, environment
    variable or file name) that occurs nowhere in the indexed folder nor in the question, and
    where it stands: the sentence (marker-free, verbatim as in the answer, like an
    ``unsupported`` entry) or the code line. A front end marks it "not found in your documents"."""

    name: str
    sentence: str


class DoneData(TypedDict):
    usage: NotRequired[dict[str, int]]
    unsupported: NotRequired[list[str]]
    mode: NotRequired[str]
    conversation_id: NotRequired[str]
    degraded: NotRequired[str | None]
    # Why the answer cites nothing, when search found nothing: "filters" (the kind/path
    # filters leave no indexed source) or "index" (nothing indexed is about the question).
    no_evidence: NotRequired[Literal["filters", "index"]]
    # Set when the question started (or found running) a background build this answer
    # waited on: "multilingual" while its vectors are built. The front end follows the
    # build's progress (GET /athena/reindex) where the question was asked.
    building: NotRequired[Literal["multilingual"]]
    # A model's answer: the names it uses that the folder and the question lack (agent/names.py).
    # Their sentences carry no marker (and are in ``unsupported`` when they claim something).
    not_found: NotRequired[list[NotFound]]


class ErrorData(TypedDict):
    message: str


class IndexCounts(TypedDict):
    files: int
    failed: int
    pending: int
    chunks: int


class VectorStatus(TypedDict):
    """Vectors of the configured embedder: ``state`` is complete, embedding, indexing,
    partial, missing or off; ``message`` says it in one line for a person."""

    state: Literal["complete", "embedding", "indexing", "partial", "missing", "off"]
    done: int
    total: int
    embedder: str | None
    rate: float | None
    eta_s: float | None
    phase: str | None
    pid: int | None
    message: str


class MultilingualStatus(TypedDict):
    build: str
    done: int
    total: int
    model: str | None


class RunStatus(TypedDict):
    """The live index run writing this index (any process)."""

    pid: int
    phase: str
    done: int
    total: int
    started_at: float
    heartbeat: float
    embedder_key: str | None
    embedder: str | None
    rate: float | None
    live: bool


class FileStatus(TypedDict):
    path: str
    doc_kind: str
    status: str
    chunks: int
    pages: int | None
    warnings: list[str]
    indexed_at: float


class SkippedFile(TypedDict):
    path: str
    warnings: list[str]


class IndexStatus(TypedDict):
    """What ``athena status --json``, ``GET /athena/status`` and ``Workspace.status()`` give."""

    root: str
    index_dir: str
    last_indexed: float | None
    updated_at: float | None
    embedder: str | None
    counts: IndexCounts
    multilingual: MultilingualStatus
    vectors: VectorStatus
    run: RunStatus | None
    files: list[FileStatus]
    skipped: list[SkippedFile]


class ComponentHealth(TypedDict):
    """One probed component: ``status`` is up, down, missing or off."""

    status: str
    latency_ms: float
    error: NotRequired[str]
    details: NotRequired[dict[str, Any]]


class Health(TypedDict):
    """``GET /athena/health`` and ``Workspace.health()``: ``status`` is healthy, degraded or
    unhealthy; components ``index``, ``embedder`` and ``llm``."""

    status: str
    components: dict[str, ComponentHealth]


class AskFilters(TypedDict):
    """What a question's search is narrowed to: a document kind, a folder (``docs/``), and
    papers (search/papers.py): a Zotero collection or tag, an author, a year or range, or
    the papers chosen in the papers view (their ids)."""

    kind: NotRequired[str]
    path_prefix: NotRequired[str]
    collection: NotRequired[str]
    tag: NotRequired[str]
    author: NotRequired[str]
    year: NotRequired[str]
    papers: NotRequired[list[str]]


class Paper(TypedDict):
    """One paper of the archive (``athena papers``, ``GET /athena/papers``): a Zotero item
    with its attachments, or a PDF outside any library. ``record`` says where its title,
    authors and year come from: ``zotero``, ``pdf`` (guessed from its first page) or
    ``none``. ``paths`` are its indexed files; ``warnings`` name what is wrong (a missing
    attachment, a scanned or garbled file)."""

    id: str  # "zotero:KEY", "bibtex:KEY" (an entry of a .bib file in the folder), or the PDF's path
    title: str | None
    authors: list[str]
    surnames: list[str]  # family names as the record splits them ("Stein Shiromoto")
    year: int | None
    label: str
    pages: int | None
    paths: list[str]
    kinds: list[str]
    collections: list[str]
    tags: list[str]
    warnings: list[str]
    record: Literal["zotero", "bibtex", "pdf", "none"]
    doi: NotRequired[str]
    arxiv: NotRequired[str]
    venue: NotRequired[str]
    type: NotRequired[str]
    zotero: NotRequired[ZoteroLink]


class PaperHit(TypedDict):
    """A paper that answers "which papers discuss X?": its best passage (a citation) and
    how many of the passages found were its."""

    paper: Paper
    score: float
    passages: int
    best: Citation


class AttachedContext(TypedDict):
    """What a question was asked about: a notebook cell or a selection, and what the
    question's chip called it (``label``, when the front end sent one)."""

    text: str
    label: NotRequired[str]


class StoredMessage(TypedDict):
    """One message of a stored conversation (``GET /athena/conversations/{id}``): a question
    with the ``filters`` and the ``context`` it was asked with (each absent when none, and on
    questions stored before they were kept), or an answer with its citations and the
    ``trace`` of what it ran (absent on answers stored before it was kept)."""

    role: Literal["user", "assistant"]
    content: str
    created_at: str
    filters: NotRequired[AskFilters]
    context: NotRequired[AttachedContext]
    citations: NotRequired[list[Citation]]
    unsupported: NotRequired[list[str]]
    mode: NotRequired[str]
    trace: NotRequired[list[TraceData]]  # an answer's steps, so a reloaded chat still shows them
    # The quotes shown beside a model's answer (the sources event's text; its citations are
    # in ``citations``, one numbering); absent on an extractive answer, which is its quotes.
    sources: NotRequired[str]
    not_found: NotRequired[list[NotFound]]  # done.not_found of a model's answer, marked again on reload


class Conversation(TypedDict):
    """A stored conversation, oldest message first (``ConversationStore.get``)."""

    id: str
    title: str
    created_at: str
    updated_at: str
    messages: list[StoredMessage]


# The status and health shapes: closed in the schema (no field a client does not know of).
STATUS_SHAPES: tuple[type, ...] = (IndexCounts, VectorStatus, MultilingualStatus, RunStatus, FileStatus,
                                   SkippedFile, IndexStatus, ComponentHealth, Health)

EVENT_DATA: dict[str, type] = {"start": StartData, "trace": TraceData, "sources": SourcesData,
                               "progress": ProgressData, "chunk": ChunkData,
                               "citations": CitationsData, "compaction": CompactionData, "done": DoneData,
                               "error": ErrorData}


# -- what the facade's reading methods return (Workspace.read_source, grep, …); the HTTP
# routes and the agent's tools send them on as JSON ----------------------------------
class SourceLines(TypedDict):
    """``Workspace.read_source``: lines ``start_line``–``end_line`` (1-based) of a text source."""

    path: str
    start_line: int
    end_line: int
    total_lines: int
    lines: list[str]


class PdfLine(TypedDict):
    line: int
    text: str
    region: Region


class PdfPageText(TypedDict):
    """``Workspace.read_pdf_source``: one PDF page's text and lines, and the chunks cited on it."""

    page: int
    pages: int
    width: float
    height: float
    text: str
    lines: list[PdfLine]
    confidence: float | None
    warnings: list[str]
    source: str
    chunk_ids: NotRequired[list[str]]


class GrepMatch(TypedDict):
    """One line ``Workspace.grep`` matched: ``line`` in text sources, ``page`` in PDFs."""

    chunk_id: str
    path: str
    doc_kind: str
    line: int | None
    cell: int | None
    page: int | None
    text: str


class DocEntry(TypedDict):
    """One indexed source, as ``Workspace.list_docs`` lists it."""

    path: str
    doc_kind: str
    kind: str
    title: str | None
    chunks: int
    pages: int | None
    status: str
    warnings: list[str]
    copies: NotRequired[list[str]]  # other paths with the same bytes: indexed once, under this one


class ChunkState(TypedDict):
    """Where a chunk is now (``Workspace.chunk_states``); only ``chunk_id`` and ``found:
    false`` when the passage is no longer indexed."""

    chunk_id: str
    found: bool
    path: NotRequired[str]
    kind: NotRequired[str]
    text_hash: NotRequired[str]
    heading_path: NotRequired[str | None]
    start_line: NotRequired[int | None]
    end_line: NotRequired[int | None]
    cell: NotRequired[int | None]
    page: NotRequired[int | None]
    regions: NotRequired[list[Region]]


class LocalModel(TypedDict):
    """A model ``--provider local`` can run without a file (``Workspace.local_models``)."""

    name: str
    title: str
    bytes: int
    licence: str
    installed: bool
    default: bool
    install: str
