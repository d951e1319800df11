"""The three stores of one index directory, opened together.

Layout of the index directory: ``catalog.sqlite``, ``tantivy-vN/``, ``vectors/<key>.hnsw``,
``previews/`` and ``index.lock``. The lock is held by whoever writes (``athena index``,
a reindex job); readers never take it.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, NamedTuple

import filelock

from athena_lab.errors import IndexBusyError
from athena_lab.index.catalog import Catalog
from athena_lab.index.lexical import LEXICAL_VERSION, LexicalIndex
from athena_lab.index.vectors import VectorIndex


class VectorCoverage(NamedTuple):
    """One embedder's vectors in the graph: what ``athena doctor`` checks."""

    live: int  # vectors in the graph
    missing: int  # chunks without a current vector of this embedder
    dimension_mismatch: int | None  # the graph's dimensions when they differ from the embedder's


class IndexStore:
    def __init__(self, index_dir: Path, *, create: bool = True) -> None:
        self.index_dir = index_dir
        self.catalog = Catalog(index_dir / "catalog.sqlite", create=create)
        self._lexical: LexicalIndex | None = None
        self._vectors: dict[str, VectorIndex] = {}

    @property
    def lexical(self) -> LexicalIndex:
        if self._lexical is None:
            # A new lexical format gets a fresh directory, rebuilt from the catalog.
            self._lexical = LexicalIndex(self.index_dir / f"tantivy-v{LEXICAL_VERSION}")
        return self._lexical

    def vectors(self, embedder_key: str, dimensions: int, ef: int = 100) -> VectorIndex:
        if embedder_key not in self._vectors:
            self._vectors[embedder_key] = VectorIndex(self.index_dir / "vectors", embedder_key,
                                                      dimensions, ef)
        return self._vectors[embedder_key]

    def vector_writer(self, embedder_key: str, dimensions: int, ef: int = 100) -> VectorIndex:
        """A private copy of the graph for an index run to grow and save.

        Searches keep using their own copy (``vectors``), which reloads when the saved file
        changes: hnswlib is not safe to resize while another thread queries the same graph.
        """
        return VectorIndex(self.index_dir / "vectors", embedder_key, dimensions, ef)

    def counts(self) -> dict[str, int]:
        """files, failed, pending and chunks (the catalog) and lexical_docs (tantivy): the
        numbers health and doctor compare, without their reaching into either store."""
        counts = self.catalog.counts()
        return {"files": counts["files"], "failed": counts["failed"], "pending": counts["pending"],
                "chunks": counts["chunks"], "lexical_docs": self.lexical.num_docs()}

    def vector_coverage(self, embedder_key: str, dimensions: int) -> VectorCoverage:
        """How far the graph of ``embedder_key`` covers the catalog's chunks."""
        missing = self.catalog.needing_vectors_count(embedder_key)
        vectors = self.vectors(embedder_key, dimensions)
        if vectors.dimension_mismatch is not None:
            return VectorCoverage(0, missing, vectors.dimension_mismatch)
        return VectorCoverage(vectors.live_count(), missing, None)

    @property
    def previews_dir(self) -> Path:
        return self.index_dir / "previews"

    @contextmanager
    def write_lock(self, wait_s: float = 0.0) -> Iterator[None]:
        """Exclusive right to write; a second writer waits ``wait_s`` then gets a clear error."""
        self.index_dir.mkdir(parents=True, exist_ok=True)
        lock = filelock.FileLock(str(self.index_dir / "index.lock"))
        try:
            lock.acquire(timeout=wait_s)
        except filelock.Timeout:
            raise IndexBusyError(
                f"another `athena index` is updating {self.index_dir} right now; wait for it to "
                "finish, or pass --wait SECONDS to queue behind it") from None
        try:
            yield
        finally:
            lock.release()

    def close(self) -> None:
        self.catalog.close()
