"""The contract every front end shares: how a citation is labelled and how a turn's
events fold into an answer.

The CLI, the magic, the widget, the HTTP API and the sidebar used to label the same
notebook cell differently ("cell 12" in one, "cell 13" in another) and to fold the event
stream five times over. Here is the one label (1-based cells, ``p. 3``, en dashes) and
the one fold; the citation JSON also carries the label, so the JavaScript front ends
show the same text without re-deriving it. See docs/contract.md.
"""

# No `from __future__ import annotations`: the TypedDicts below must see NotRequired at
# class creation (tools/contract_schema.py reads their required keys).
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Literal, Mapping

from typing_extensions import NotRequired, TypedDict

from athena_lab.errors import AthenaError

DASH = "\u2013"
MAX_TOP_K = 50
MAX_CONTEXT_CHARS = 20000  # an attached notebook cell or selection ("Ask about this cell")
MAX_CONTEXT_LABEL_CHARS = 200  # what the attached context is called ("cell 3 of analysis.ipynb")


class RequestError(AthenaError):
    """A question or search that cannot be run as given; the message names the field."""


# -- the JSON shapes (docs/contract.md; docs/contract.schema.json and the labextension's
# core/contract.ts are generated from these by tools/contract_schema.py) -------------
class Region(TypedDict):
    """A highlight box on a PDF page, in PDF points from the page's top-left corner."""

    x: float
    y: float
    width: float
    height: float
    page: NotRequired[int]


class BibRecord(TypedDict):
    """What the parser found to cite a PDF by (athena_lab/bibliography.py); fields not
    found are absent, never guessed."""

    path: str
    title: NotRequired[str]
    authors: NotRequired[list[str]]
    year: NotRequired[int]
    doi: NotRequired[str]
    arxiv: NotRequired[str]


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
    """What a question's search is narrowed to: a document kind and a folder (``docs/``)."""

    kind: NotRequired[str]
    path_prefix: NotRequired[str]


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

EVENT_DATA: dict[str, type] = {"start": StartData, "trace": TraceData, "sources": SourcesData, "progress": ProgressData, "chunk": ChunkData,
                               "citations": CitationsData, "compaction": CompactionData, "done": DoneData,
                               "error": ErrorData}


def duration(seconds: float | None) -> str:
    """``42 s``, ``3 min 5 s``, ``2 h 10 min``: how long, as every front end and the
    progress line say it (the sidebar's JavaScript says it the same way)."""
    if seconds is None:
        return "?"
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        minutes, rest = divmod(seconds, 60)
        return f"{minutes} min" if minutes >= 10 or not rest else f"{minutes} min {rest} s"
    hours, rest = divmod(seconds, 3600)
    return f"{hours} h {rest // 60} min"


# -- the live index (ingest/watch.py) reports each batch to the CLI and the server in this shape

LOCK_WAIT_S = 1.0  # how long a live-index batch waits for the index lock before retrying


@dataclass
class Batch:
    """One applied batch: which paths, what the index run said, how long it took."""

    number: int
    paths: list[str]
    started_at: float
    seconds: float = 0.0
    summary: dict[str, Any] = field(default_factory=dict)
    error: str | None = None

    @property
    def files_changed(self) -> int:
        s = self.summary
        return sum(int(s.get(k) or 0) for k in ("new", "changed", "removed", "failed"))

    def line(self) -> str:
        """``updated 3 files (1 added, 1 changed, 1 deleted) in 0.8 s`` — one line a person reads."""
        if self.error:
            return f"update failed: {self.error}"
        s = self.summary
        parts = [f"{s.get(k)} {word}" for k, word in
                 (("new", "added"), ("changed", "changed"), ("removed", "deleted"), ("failed", "failed"))
                 if s.get(k)]
        n = self.files_changed
        what = f"updated {n} file{'s' if n != 1 else ''} ({', '.join(parts)})" if n else "nothing to update"
        return f"{what} in {self.seconds:.1f} s"

    def as_dict(self) -> dict[str, Any]:
        return {"number": self.number, "paths": len(self.paths), "started_at": self.started_at,
                "seconds": round(self.seconds, 3), "files_changed": self.files_changed,
                "line": self.line(), "error": self.error}


def cell_number(cell: int) -> int:
    """nbformat counts cells from 0; people count them from 1, like lines and pages."""
    return int(cell) + 1


def narrowest(c: Mapping[str, Any]) -> Mapping[str, Any]:
    """The citation as its ``evidence`` entries narrow it: their lines, cell or pages.

    A chunk is what search found; the evidence is where the quoted sentences are. The
    label names the latter, so "p. 3" is the page the quote is printed on.
    """
    evidence = [e for e in (c.get("evidence") or []) if isinstance(e, Mapping)]
    if not evidence:
        return c
    if c.get("kind") == "pdf":
        pages = sorted({int(r.get("page", e.get("page"))) for e in evidence
                        for r in (e.get("regions") or [e]) if r.get("page", e.get("page")) is not None})
        return {"kind": "pdf", "path": c.get("path"), "page": pages[0] if pages else c.get("page"), "pages": pages}
    if c.get("kind") == "notebook":
        cells = sorted({int(e["cell"]) for e in evidence if e.get("cell") is not None})
        if len(cells) != 1:
            return {"kind": "notebook", "path": c.get("path"), "cell": cells[0], "end_cell": cells[-1]} if cells else c
        return {"kind": "notebook", "path": c.get("path"), "cell": cells[0],
                "cell_lines": (min(int(e["start_line"]) for e in evidence), max(int(e["end_line"]) for e in evidence))}
    return {"kind": c.get("kind"), "path": c.get("path"),
            "start_line": min(int(e["start_line"]) for e in evidence),
            "end_line": max(int(e["end_line"]) for e in evidence)}


def citation_location(c: Mapping[str, Any]) -> str:
    """``guide.md:40–58``, ``paper.pdf p. 3`` (``pp. 3–4``), ``nb.ipynb cell 4`` (``cells 4–6``,
    ``cell 4:2–5`` for lines of one cell), narrowed to the citation's ``evidence`` when it has any."""
    c = narrowest(c)
    path = str(c.get("path") or "?")
    kind = c.get("kind")
    if kind == "pdf":
        pages = [p for p in (c.get("pages") or []) if p is not None]
        first, last = (min(pages), max(pages)) if pages else (c.get("page"), c.get("page"))
        if first is not None and last is not None and last != first:
            return f"{path} pp. {first}{DASH}{last}"
        return f"{path} p. {first if first is not None else '?'}"
    if kind == "notebook" and c.get("cell") is not None:
        first = cell_number(c["cell"])
        end = c.get("end_cell")
        if end is not None and int(end) != int(c["cell"]):
            return f"{path} cells {first}{DASH}{cell_number(end)}"
        if c.get("cell_lines"):
            start, end = c["cell_lines"]
            return f"{path} cell {first}:{start}" + (f"{DASH}{end}" if end != start else "")
        return f"{path} cell {first}"
    start, end = c.get("start_line"), c.get("end_line")
    if start is None:
        return path
    return f"{path}:{start}{DASH}{end}" if end is not None and end != start else f"{path}:{start}"


def citation_label(c: Mapping[str, Any]) -> str:
    """What a source list shows: the location, then the heading path when there is one."""
    location = citation_location(c)
    heading = c.get("heading_path")
    return f"{location} \u00b7 {heading}" if heading else location


def labelled(c: dict[str, Any]) -> dict[str, Any]:
    """The citation JSON with its ``label``, so no front end re-derives it."""
    c["label"] = citation_location(c)
    return c


def distinct_labels(citations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Labels a reader can tell apart: two passages quoted from one page, cell or line range
    (with one heading) would read the same twice in a source list. Each such label gets
    what differs: the passage's own lines, pages or cells when those differ, else its
    place among them ("passage 2 of 3", in citation order). Idempotent: labels are
    derived from the locators, never from an earlier label."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for c in citations:
        groups.setdefault(citation_label(c), []).append(c)
    for same in groups.values():
        if len(same) < 2:
            continue
        spans = [_span(c) for c in same]
        distinct = all(spans) and len(set(spans)) == len(spans)
        for n, c in enumerate(same, 1):
            extra = f"passage in {spans[n - 1]}" if distinct else f"passage {n} of {len(same)}"
            c["label"] = f"{citation_location(c)} ({extra})"
    return citations


def _span(c: Mapping[str, Any]) -> str:
    """The whole passage's lines, pages or cells (not narrowed to its quote), or ''."""
    if c.get("kind") == "pdf":
        pages = sorted({int(p) for p in (c.get("pages") or []) if p is not None})
        return f"pp. {pages[0]}{DASH}{pages[-1]}" if len(pages) > 1 else ""
    if c.get("kind") == "notebook":
        if c.get("cell") is None:
            return ""
        end = c.get("end_cell")
        return (f"cells {cell_number(c['cell'])}{DASH}{cell_number(end)}" if end is not None and end != c["cell"]
                else f"cell {cell_number(c['cell'])}")
    start, end = c.get("start_line"), c.get("end_line")
    if start is None:
        return ""
    return f"lines {start}{DASH}{end}" if end is not None and end != start else f"line {start}"


@dataclass
class Answer:
    """One finished turn, as ``Workspace.ask``, ``athena ask --json`` and the API return it."""

    answer: str = ""
    citations: list[dict[str, Any]] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    mode: str = ""
    # The quotes shown beside a model's answer (the sources event); "" when the answer is
    # the quotes (extractive mode).
    sources: str = ""
    trace: list[dict[str, Any]] = field(default_factory=list)
    conversation_id: str | None = None
    usage: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    degraded: str | None = None  # search ran without (all) vectors, and why — e.g. still embedding
    no_evidence: str | None = None  # "filters" or "index" when search found nothing to cite
    # names a model's answer uses that the folder and the question lack, and where ({name, sentence})
    not_found: list[dict[str, str]] = field(default_factory=list)
    streaming: bool = False

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("streaming")
        return data


def fold(answer: Answer, event: Any) -> Answer:
    """Apply one turn event (an ``Event`` or its ``{"type", "data"}`` dict) to ``answer``.

    Every Python front end folds the stream with this, so a field added to the events
    reaches the CLI, the magic, the widget and the API at once. Returns ``answer``.
    """
    kind = event["type"] if isinstance(event, Mapping) else event.type
    data = (event.get("data") if isinstance(event, Mapping) else event.data) or {}
    if kind == "start":
        answer.streaming = True
        answer.conversation_id = data.get("conversation_id") or answer.conversation_id
    elif kind == "trace":
        answer.trace.append(dict(data))
    elif kind == "sources":
        # The offline answer: beside the model's words when they follow, else the answer.
        if data.get("answer_follows"):
            answer.sources = data.get("answer") or ""
        else:
            answer.answer, answer.sources = data.get("answer") or "", ""
        answer.citations = list(data.get("citations") or [])
    elif kind == "chunk":
        answer.answer += data.get("content", "")
    elif kind == "citations":
        answer.citations = list(data.get("citations") or [])
    elif kind == "done":
        answer.usage = dict(data.get("usage") or {})
        answer.unsupported = list(data.get("unsupported") or [])
        answer.mode = data.get("mode") or answer.mode
        answer.degraded = data.get("degraded")
        answer.no_evidence = data.get("no_evidence")
        answer.not_found = list(data.get("not_found") or [])
        answer.streaming = False
    elif kind == "error":
        answer.error = data.get("message") or "the answer failed"
        answer.streaming = False
    return answer


def collect(stream: Iterable[Any]) -> Answer:
    """Run a turn's events to the end and gather them into one Answer."""
    answer = Answer()
    for event in stream:
        fold(answer, event)
    return answer


@dataclass
class AskRequest:
    """One question and its options, as every front end passes them to the agent loop.

    ``validate`` runs in ``Workspace.ask_events``, before a conversation is created, so a
    bad option is refused the same way from the CLI, the magic, the widget and HTTP (400
    before any stream) — and leaves no empty conversation behind.
    """

    question: str
    conversation_id: str | None = None
    filters: dict[str, str] = field(default_factory=dict)
    provider: str | None = None
    model: str | None = None
    top_k: int | None = None
    context: str | None = None  # what the question is about: a notebook cell or editor selection
    context_label: str | None = None  # what the front end calls that context, shown again on reload

    def validate(self) -> "AskRequest":
        from athena_lab.config import LLM_PROVIDERS
        from athena_lab.document import CITATION_KINDS, DOC_KINDS
        from athena_lab.paths import normalize_prefix

        if not self.question or not self.question.strip():
            raise RequestError("the question is empty: ask something")
        if self.top_k is not None and (isinstance(self.top_k, bool) or not isinstance(self.top_k, int)
                                       or not 1 <= self.top_k <= MAX_TOP_K):
            raise RequestError(f"'top_k' must be a whole number between 1 and {MAX_TOP_K}, not {self.top_k!r}")
        # A Provider object handed in by code (tests, notebooks) needs no name check; its
        # filters are checked like anyone's.
        if isinstance(self.provider, str) and self.provider not in LLM_PROVIDERS:
            raise RequestError(f"'provider' must be one of: {', '.join(LLM_PROVIDERS)}, not {self.provider!r}")
        if self.context is not None:
            if not isinstance(self.context, str):
                raise RequestError(f"'context' must be a string (the cell or selection asked about), not {self.context!r}")
            if len(self.context) > MAX_CONTEXT_CHARS:
                raise RequestError(f"'context' is {len(self.context)} characters; the limit is {MAX_CONTEXT_CHARS} "
                                   "(select the part of the cell the question is about)")
            self.context = self.context if self.context.strip() else None
        if self.context_label is not None:
            if not isinstance(self.context_label, str):
                raise RequestError(f"'context_label' must be a string (what the attached cell or selection "
                                   f"is called), not {self.context_label!r:.80}")
            # A long notebook name makes a long label: cut it rather than refuse the question.
            label = self.context_label.strip()[:MAX_CONTEXT_LABEL_CHARS]
            self.context_label = (label or None) if self.context else None
        unknown = set(self.filters or {}) - {"path_prefix", "kind"}
        if unknown:
            raise RequestError(f"'filters' may hold only path_prefix and kind, not {', '.join(sorted(unknown))}")
        if self.filters:
            kind = self.filters.get("kind")
            if kind and kind not in CITATION_KINDS + DOC_KINDS:
                raise RequestError(f"filters.kind: unknown kind {kind!r}; use one of: {', '.join(DOC_KINDS)} "
                                   f"(or a citation kind: {', '.join(CITATION_KINDS)})")
            self.filters = {"kind": self.filters.get("kind"),
                            "path_prefix": normalize_prefix(self.filters.get("path_prefix"), "filters.path_prefix")}
        return self
