"""What a public visitor may read: the sources the docs site publishes, nothing else.

In public mode (``[dropin] public``) a token-less reader of the docs site searches, asks,
opens a cited source, a notebook cell or a PDF page. ``Workspace.source_path`` confines
reads to the indexed folder's documents — for the owner. A visitor gets less: only a source
that is

- in the index's catalog (a file created after the last index run is not, whatever the
  include rules say: the owner's ``private-notes.md`` saved this morning is not published);
- matched by ``[dropin] public_paths`` (folder-path globs, ``site_urls.glob_regex``), or,
  when that is empty, by the ``[dropin] site_url_map`` globs: the paths the site publishes.
  Neither set: nothing is published;
- not a PDF the owner configured a password for.

``PublicCorpus`` wraps the workspace with that rule: it is what the agent loop (the
``Corpus`` protocol, agent/corpus.py) and the public routes read through when the request
came from a visitor. Search hits, grep matches, document lists, chunks and citation records
outside the published set are left out, and every read of one answers the same 404 as a
path that does not exist, so the answer does not tell a visitor whether a file is there.
A visitor's conversation is kept in memory for a while (``VisitorConversations``), never in
the owner's catalog.
docs/security.md, "Public mode"; tests/security/test_public_visitor.py.
"""

from __future__ import annotations

import json
import re
import threading
import time
import uuid
from collections import OrderedDict
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

from typing_extensions import Unpack

from athena_lab.answer import Answer, collect
from athena_lab.config import Config
from athena_lab.contract import DocEntry, GrepMatch, PdfPageText, SourceLines
from athena_lab.events import Event
from athena_lab.errors import MissingPathError, PathError
from athena_lab.request import AskOptions, AskRequest
from athena_lab.workspace import turn_events

from .site_urls import glob_regex

# Search this many more candidates than asked, so that hits outside the published set,
# dropped afterwards, do not leave a visitor with too few.
OVERFETCH = 4
MAX_FETCH = 200


class Published:
    """The rule: which catalog paths a visitor may see."""

    def __init__(self, ws: Any) -> None:
        dropin = ws.config.settings.dropin
        globs = list(getattr(dropin, "public_paths", None) or []) or list(dropin.site_url_map)
        self._patterns: list[re.Pattern[str]] = [glob_regex(g.strip().removeprefix("./")) for g in globs]
        self._ws = ws

    def allows(self, path: Any) -> bool:
        """True for a catalog source under a published glob that has no configured password."""
        if not isinstance(path, str) or not path or not any(p.match(path) for p in self._patterns):
            return False
        ws = self._ws
        return not ws.has_pdf_password(path) and ws.indexed(path)


def not_found(path: Any) -> MissingPathError:
    """The one answer for absent, refused and unpublished alike."""
    return MissingPathError(f"{str(path)[:200]}: no such published document")


class VisitorConversations:
    """Public visitors' conversations: in this process's memory, never in the owner's
    catalog (their history list stays the owner's own, and anonymous readers cannot grow it).

    Kept so the drop-in can ask a follow-up (the agent reads the earlier turns), and bounded
    every way: a conversation idle for ``ttl_s`` is forgotten, at most ``max_conversations``
    are kept (the least recently used go first), each with its newest ``max_messages``, and
    all of them together hold at most ``max_bytes`` of messages, as JSON (issue 31: without
    it, 1,000 conversations of twenty 8,000-character questions and twenty cited answers
    held 330 MiB of the owner's memory, measured with tracemalloc; at 32 MiB, 47 MiB).
    A visitor's conversation id means nothing to the owner's store, and the reverse.
    The subset of ``agent.conversations.ConversationStore`` the agent loop uses.
    """

    def __init__(self, ttl_s: float = 30 * 60, max_conversations: int = 1000, max_messages: int = 40,
                 clock: Any = time.monotonic, max_bytes: int = 32 << 20) -> None:
        self.ttl_s, self.max_conversations, self.max_messages = ttl_s, max_conversations, max_messages
        self.max_bytes = max_bytes
        self._bytes = 0  # the size of every kept conversation's messages, as ``_size`` counts it
        self._clock = clock
        self._lock = threading.Lock()
        self._items: OrderedDict[str, dict[str, Any]] = OrderedDict()

    def __len__(self) -> int:
        with self._lock:
            self._expire()
            return len(self._items)

    @property
    def size(self) -> int:
        """The bytes the kept conversations' messages hold (their JSON)."""
        with self._lock:
            return self._bytes

    def _expire(self) -> None:
        now = self._clock()
        while self._items:
            oldest = next(iter(self._items.values()))
            if (now - oldest["touched"] < self.ttl_s and len(self._items) <= self.max_conversations
                    and self._bytes <= self.max_bytes):
                return
            _, dropped = self._items.popitem(last=False)
            self._bytes -= dropped["bytes"]

    def create(self, title: str) -> str:
        cid = uuid.uuid4().hex
        with self._lock:
            self._items[cid] = {"id": cid, "title": " ".join(title.split())[:80], "messages": [],
                                "touched": self._clock(), "bytes": 0, "sizes": []}
            self._expire()
        return cid

    def exists(self, cid: str) -> bool:
        with self._lock:
            self._expire()
            return cid in self._items

    def add_message(self, cid: str, role: str, content: str, citations: list[dict[str, Any]] | None = None,
                    unsupported: list[str] | None = None, mode: str | None = None, **_: Any) -> None:
        with self._lock:
            self._expire()
            item = self._items.get(cid)
            if item is None:
                raise KeyError(f"unknown conversation {cid!r}")
            message: dict[str, Any] = {"role": role, "content": content}
            if citations is not None:
                message["citations"] = citations
            if unsupported is not None:
                message["unsupported"] = unsupported
            if mode is not None:
                message["mode"] = mode
            item["messages"] = (item["messages"] + [message])[-self.max_messages:]
            item["sizes"] = (item["sizes"] + [_size(message)])[-self.max_messages:]
            size = sum(item["sizes"])
            self._bytes += size - item["bytes"]
            item["bytes"] = size
            item["touched"] = self._clock()
            self._items.move_to_end(cid)
            self._expire()  # over the byte bound: the least recently used go (this one last)

    def get(self, cid: str) -> dict[str, Any] | None:
        with self._lock:
            self._expire()
            item = self._items.get(cid)
            if item is None:
                return None
            return {"id": cid, "title": item["title"], "messages": [dict(m) for m in item["messages"]]}


def _size(message: dict[str, Any]) -> int:
    """What one message costs to keep, near enough: the length of its JSON."""
    return len(json.dumps(message, ensure_ascii=False, default=str))


class PublicCorpus:
    """The workspace as a public visitor sees it (module docstring). Implements the agent's
    ``Corpus`` protocol and the few workspace methods the public routes call; nothing else
    is reachable through it."""

    def __init__(self, ws: Any, conversations: VisitorConversations | None = None) -> None:
        self._ws = ws
        self.published = Published(ws)
        self._conversations = conversations if conversations is not None else VisitorConversations()

    # what the agent reads unchanged ------------------------------------------------------
    @property
    def root(self) -> Path:
        return self._ws.root

    @property
    def config(self) -> Any:
        """The owner's configuration as a visitor's turn reads it: without a model unless
        the owner set ``[dropin] public_model``, and with it, the model's timeout within the
        visitors' time cap (agent/model_work.py holds the rest of the rule)."""
        return visitor_config(self._ws.config)

    @property
    def conversations(self) -> VisitorConversations:
        """Visitors' own, in memory: never the owner's history (VisitorConversations)."""
        return self._conversations

    def embedder(self) -> Any:
        return self._ws.embedder()

    def multilingual_embedder(self) -> Any:
        return self._ws.multilingual_embedder()

    def has_index(self) -> bool:
        return self._ws.has_index()

    # reads, each checked first ---------------------------------------------------------------
    def _check(self, path: Any) -> str:
        if not self.published.allows(path):
            raise not_found(path)
        return path

    def _read(self, path: Any, read: Any, *args: Any) -> Any:
        """``read(path, *args)`` for a published path; a refusal of it is a 404 as well."""
        self._check(path)
        try:
            return read(path, *args)
        except PathError as exc:
            if getattr(exc, "status", 400) in (403, 404):
                raise not_found(path) from None
            raise

    def source_path(self, path: str) -> Path:
        return self._read(path, self._ws.source_path)

    def read_source(self, path: str, start_line: int = 1, end_line: int | None = None,
                    max_lines: int = 400) -> SourceLines:
        return self._read(path, self._ws.read_source, start_line, end_line, max_lines)

    def read_pdf_source(self, path: str, page: int, region: dict[str, float] | None = None) -> PdfPageText:
        return self._read(path, self._ws.read_pdf_source, page, region)

    def pdf_page_image(self, path: str, page: int, chunk_id: str | None = None) -> tuple[bytes, float]:
        return self._read(path, self._ws.pdf_page_image, page, chunk_id)

    def chunk(self, chunk_id: str) -> Any:
        row = self._ws.chunk(chunk_id)
        return row if row is not None and self.published.allows(row.path) else None

    def related(self, chunk_id: str, before: int = 1, after: int = 1) -> list[Any]:
        if self.chunk(chunk_id) is None:
            raise MissingPathError(f"unknown chunk id {chunk_id!r}")
        return self._ws.related(chunk_id, before, after)

    def list_docs(self, path_prefix: str | None = None, kind: str | None = None) -> list[DocEntry]:
        return [d for d in self._ws.list_docs(path_prefix, kind) if self.published.allows(d.get("path"))]

    def grep(self, pattern: str, *, regex: bool = False, case_sensitive: bool = False,
             limit: int = 20, path_prefix: str | None = None) -> list[GrepMatch]:
        found = self._ws.grep(pattern, regex=regex, case_sensitive=case_sensitive,
                              limit=min(limit * OVERFETCH, MAX_FETCH), path_prefix=path_prefix)
        return [m for m in found if self.published.allows(m.get("path"))][:limit]

    def names_found(self, names: list[str]) -> set[str]:
        """Only names a published source holds: whether an unpublished file names something
        is not a visitor's to learn from an answer's "not found in your documents" marks."""
        return {n for n in self._ws.names_found(names) if self.grep(n, limit=1)}

    def search(self, query: str, *, k: int | None = None, **options: Any) -> Any:
        wanted = k or self._ws.config.settings.search.k
        result = self._ws.search(query, k=min(wanted * OVERFETCH, MAX_FETCH), **options)
        result.hits = [h for h in result.hits if self.published.allows(h.chunk.path)][:wanted]
        return result

    def scope_paths(self, filters: dict[str, Any] | None) -> frozenset[str] | None:
        """The files a paper filter keeps; search then keeps only the published ones."""
        return self._ws.scope_paths(filters)

    def search_citations(self, query: str, **options: Any) -> list[dict[str, Any]]:
        return self.search(query, **options).citations()

    def cite(self, targets: list[str]) -> list[dict[str, Any]]:
        for target in targets:
            row = self._ws.chunk(target) if self._ws.has_index() else None
            if not self.published.allows(row.path if row is not None else target):
                raise MissingPathError(f"{str(target)[:200]}: neither a chunk id nor an indexed file")
        return self._ws.cite(targets)

    # a chat turn: the loop takes this view as its corpus ----------------------------------------
    def ask_events(self, request: AskRequest | str, **options: Unpack[AskOptions]) -> Iterator[Event]:
        return turn_events(self, request, for_visitor=True, **options)

    def ask(self, request: AskRequest | str, **options: Unpack[AskOptions]) -> Answer:
        return collect(self.ask_events(request, **options))


def visitor_config(config: Config) -> Config:
    """``config`` with the ``[llm]`` a public visitor's turn may use (PublicCorpus.config)."""
    dropin, llm = config.settings.dropin, config.settings.llm
    if not dropin.public_model:
        llm = replace(llm, provider="extractive", translate="off", model_path="")
    elif dropin.public_model_seconds:
        llm = replace(llm, timeout_s=min(llm.timeout_s, dropin.public_model_seconds))
    return replace(config, settings=replace(config.settings, llm=llm))


class VisitorChatSlots:
    """How many public visitors' chat turns may run at once: in all (the visitors' own
    worker pool, so the owner's turns never queue behind theirs) and from one address (so
    one reader's program cannot hold every slot with open streams).

    ``take`` answers why not (``"busy"`` or ``"address"``) or None and holds a slot until
    ``give_back``; the server turns a refusal into 503 or 429 instead of queueing the turn.
    """

    def __init__(self, total: int, per_address: int = 2) -> None:
        self.total = max(1, total)
        self.per_address = max(1, per_address)
        self._lock = threading.Lock()
        self._running: dict[str, int] = {}

    def take(self, address: str) -> str | None:
        with self._lock:
            if self._running.get(address, 0) >= self.per_address:
                return "address"
            if sum(self._running.values()) >= self.total:
                return "busy"
            self._running[address] = self._running.get(address, 0) + 1
            return None

    def give_back(self, address: str) -> None:
        with self._lock:
            left = self._running.get(address, 0) - 1
            if left > 0:
                self._running[address] = left
            else:
                self._running.pop(address, None)
