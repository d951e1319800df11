"""What the agent needs of the folder it answers about — and nothing more.

The loop and its tools used to take the whole workspace as ``Any``, so nothing said which
of its dozens of methods the agent relied on, and the agent and the workspace imported
each other. ``Corpus`` names the few it uses; ``athena_lab.workspace.Workspace`` satisfies it,
and so can a test double or another host (the MCP server hands the same object).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Collection, Protocol

from athena_lab.config import Config
from athena_lab.contract import DocEntry, GrepMatch, PdfPageText, SourceLines
from athena_lab.index.catalog import ChunkRow
from athena_lab.index.embeddings import Embedder
from athena_lab.search.hybrid import SearchResult


class Conversations(Protocol):
    """Where a turn keeps its conversation: the catalog's ``ConversationStore``, or a public
    visitor's in memory (server/public.py)."""

    def create(self, title: str) -> str: ...

    def exists(self, cid: str) -> bool: ...

    def get(self, cid: str) -> dict[str, Any] | None: ...

    def add_message(self, cid: str, role: str, content: str, citations: list[dict[str, Any]] | None = None,
                    unsupported: list[str] | None = None, mode: str | None = None, *,
                    filters: dict[str, Any] | None = None, context: str | None = None,
                    context_label: str | None = None, trace: list[dict[str, Any]] | None = None,
                    sources: str | None = None, not_found: list[dict[str, str]] | None = None) -> None: ...


class Corpus(Protocol):
    @property
    def root(self) -> Path: ...

    @property
    def config(self) -> Config: ...

    @property
    def conversations(self) -> Conversations: ...

    def embedder(self) -> Embedder | None: ...

    def multilingual_embedder(self) -> Embedder | None: ...

    def source_path(self, path: str) -> Path: ...

    def search(self, query: str, *, k: int | None = None, kind: str | None = None,
               path_prefix: str | None = None, neighbours: int = 0, mode: str = "hybrid",
               also: list[str] | None = None, paths: Collection[str] | None = None) -> SearchResult: ...

    def scope_paths(self, filters: dict[str, Any] | None) -> frozenset[str] | None: ...

    def read_source(self, path: str, start_line: int = 1, end_line: int | None = None,
                    max_lines: int = 400) -> SourceLines: ...

    def read_pdf_source(self, path: str, page: int, region: dict[str, float] | None = None) -> PdfPageText: ...

    def chunk(self, chunk_id: str) -> ChunkRow | None: ...

    def related(self, chunk_id: str, before: int = 1, after: int = 1) -> list[ChunkRow]: ...

    def list_docs(self, path_prefix: str | None = None, kind: str | None = None) -> list[DocEntry]: ...

    def names_found(self, names: list[str]) -> set[str]: ...

    def grep(self, pattern: str, *, regex: bool = False, case_sensitive: bool = False,
             limit: int = 20, path_prefix: str | None = None) -> list[GrepMatch]: ...
