"""What the agent needs of the folder it answers about — and nothing more.

The loop and its tools used to take the whole workspace as ``Any``, so nothing said which
of its dozens of methods the agent relied on, and the agent and the workspace imported
each other. ``Corpus`` names the few it uses; ``athena_lab.workspace.Workspace`` satisfies it,
and so can a test double or another host (the MCP server hands the same object).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from athena_lab.config import Config
from athena_lab.index.catalog import ChunkRow
from athena_lab.agent.conversations import ConversationStore
from athena_lab.index.embeddings import Embedder
from athena_lab.search.hybrid import SearchResult


class Corpus(Protocol):
    @property
    def root(self) -> Path: ...

    @property
    def config(self) -> Config: ...

    @property
    def conversations(self) -> ConversationStore: ...

    def embedder(self) -> Embedder | None: ...

    def multilingual_embedder(self) -> Embedder | None: ...

    def source_path(self, path: str) -> Path: ...

    def search(self, query: str, *, k: int | None = None, kind: str | None = None,
               path_prefix: str | None = None, neighbours: int = 0, mode: str = "hybrid",
               also: list[str] | None = None) -> SearchResult: ...

    def read_source(self, path: str, start_line: int = 1, end_line: int | None = None,
                    max_lines: int = 400) -> dict[str, Any]: ...

    def read_pdf_source(self, path: str, page: int, region: dict[str, float] | None = None) -> dict[str, Any]: ...

    def chunk(self, chunk_id: str) -> ChunkRow | None: ...

    def related(self, chunk_id: str, before: int = 1, after: int = 1) -> list[ChunkRow]: ...

    def list_docs(self, path_prefix: str | None = None, kind: str | None = None) -> list[dict[str, Any]]: ...

    def names_found(self, names: list[str]) -> set[str]: ...

    def grep(self, pattern: str, *, regex: bool = False, case_sensitive: bool = False,
             limit: int = 20, path_prefix: str | None = None) -> list[dict[str, Any]]: ...
