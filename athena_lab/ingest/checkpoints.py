"""Vectors become searchable while a run is still embedding: they are committed in checkpoints.

One checkpointer serves both vector sets, the main vectors and the multilingual channel;
``Labels`` is what differs between them (where labels come from, which table records them).

Adding to the graph and saving it are apart, since at scale they cost very differently:
- **Insert**: vectors go into the writer's hnswlib graph ``INSERT_BATCH`` at a time, on
  ``threads`` threads (``index.graph_threads``; 0: every core), as soon as a batch is
  full. So at most one batch of vectors waits in memory, and inserting costs the same
  however often the graph is saved.
- **Save** (the checkpoint): every ``interval_s`` of embedding, and less often as the graph
  grows, since a save writes the whole graph: the next one waits at least ``SAVE_SHARE``
  times as long as the last save took, so saves take at most about a tenth of the run and
  their spacing grows with the graph (geometrically, over a long build). Always at the end
  or on a stop. A save writes the graph atomically (index/vectors.py) and then the catalog
  records which chunk has which label. Readers reload the graph when its file changes, so
  a search during indexing uses what is saved.

Order keeps the stores consistent at every instant: labels are reserved (and, for the
main vectors, committed) first, then the vectors are inserted, then the graph is saved,
then the catalog is updated in one transaction. The graph may briefly know labels the
catalog does not — search ignores those and the next run deletes them — never the
reverse. A crash between saves loses the inserts since the last one from the graph, not
the vectors: they are in the embedding cache, and the next run takes them from there.

What the checkpointer holds is bounded whatever the archive's size: the chunks of the
window being embedded (``expect``), at most one insert batch of vectors, and the
(label, chunk, hash) rows inserted since the last save.
"""

from __future__ import annotations

import time
from typing import Iterable, Protocol, Sequence

import numpy as np

from athena_lab.index.catalog import Catalog
from athena_lab.index.vectors import VectorIndex

SAVE_SHARE = 10  # wait at least this many times the last save's duration between saves
INSERT_BATCH = 2048  # vectors added to the graph per hnswlib call (spread over its threads)


class Labels(Protocol):
    """Where a vector set keeps its labels: how fresh ones are taken and how the catalog
    learns which chunk each one holds (the catalog is the commit point)."""

    def reserve(self, count: int) -> Sequence[int]: ...

    def record(self, rows: list[tuple[int, str, str]]) -> None:
        """(label, chunk_id, text_hash) of vectors now in the graph, in one transaction."""
        ...


class ChunkLabels:
    """The main vectors: labels reserved (and committed) in the catalog, never reused;
    each chunk's row holds its label."""

    def __init__(self, catalog: Catalog, embedder_key: str) -> None:
        self.catalog = catalog
        self.embedder_key = embedder_key

    def reserve(self, count: int) -> Sequence[int]:
        return self.catalog.next_labels(count)

    def record(self, rows: list[tuple[int, str, str]]) -> None:
        with self.catalog.transaction():
            self.catalog.set_vectors([(label, digest, self.embedder_key, chunk_id) for label, chunk_id, digest in rows])


class ChannelLabels:
    """The multilingual channel (index/channel.py): labels after the highest one its table
    records; a label the graph knows but the table does not is overwritten by the next run."""

    def __init__(self, catalog: Catalog, embedder_key: str) -> None:
        self.catalog = catalog
        self.embedder_key = embedder_key
        self._next = catalog.channel_next_label(embedder_key)

    def reserve(self, count: int) -> Sequence[int]:
        start, self._next = self._next, self._next + count
        return range(start, start + count)

    def record(self, rows: list[tuple[int, str, str]]) -> None:
        with self.catalog.transaction():
            self.catalog.channel_add(self.embedder_key, rows)


class VectorCheckpointer:
    def __init__(self, vectors: VectorIndex, labels: Labels, delete: set[int], interval_s: float,
                 *, threads: int = 1, needing: Iterable[tuple[str, ...]] = ()) -> None:
        """``delete``: labels to mark deleted at the first checkpoint (dead or stale vectors);
        ``threads``: hnswlib's insert threads; ``needing``: (chunk_id, text_hash, …) of chunks
        without a current vector, or given a window at a time to ``expect``."""
        self.vectors = vectors
        self.labels = labels
        self.interval_s = interval_s
        self.threads = max(1, threads)
        self._chunks: dict[str, list[str]] = {}  # text hash → chunk ids still without a vector
        self._ready: dict[str, np.ndarray] = {}  # vectors waiting to be inserted
        self._inserted: list[tuple[int, str, str]] = []  # (label, chunk id, hash) in the graph, not saved yet
        self._delete = set(delete)
        self._last = time.monotonic()
        self._save_s = 0.0
        self.committed = 0  # chunks whose vectors this run committed
        self.fresh_chunks = 0  # chunks covered by vectors embedded (not cached) in this run
        self.saves = 0  # checkpoints saved by this run
        self.expect(needing)

    def expect(self, needing: Iterable[tuple[str, ...]]) -> None:
        """Chunks (chunk_id, text_hash, …) that need a vector: the next window of them."""
        for chunk_id, digest, *_rest in needing:
            self._chunks.setdefault(digest, []).append(chunk_id)

    def add(self, items: Iterable[tuple[str, np.ndarray]], *, fresh: bool = True) -> None:
        for digest, vector in items:
            if digest in self._chunks and digest not in self._ready:
                self._ready[digest] = vector
                if fresh:
                    self.fresh_chunks += len(self._chunks[digest])
                if len(self._ready) >= INSERT_BATCH:
                    self._insert()

    def due(self) -> bool:
        wait = max(self.interval_s, SAVE_SHARE * self._save_s)
        return bool(self._ready or self._inserted) and time.monotonic() - self._last >= wait

    def _insert(self) -> None:
        """Put the ready vectors in the graph under fresh labels, one label per chunk."""
        if not self._ready:
            return
        pairs = [(chunk_id, digest) for digest in self._ready for chunk_id in self._chunks[digest]]
        labels = self.labels.reserve(len(pairs))
        data = np.empty((len(pairs), self.vectors.dimensions), dtype=np.float32)
        for row, (_cid, digest) in enumerate(pairs):
            data[row] = self._ready[digest]
        self.vectors.insert(np.fromiter(labels, dtype=np.int64, count=len(pairs)), data, self.threads)
        self._inserted.extend((label, chunk_id, digest) for label, (chunk_id, digest) in zip(labels, pairs))
        for digest in self._ready:
            del self._chunks[digest]
        self._ready.clear()

    def commit(self) -> int:
        """Make the vectors embedded so far searchable; returns how many chunks got one."""
        self._insert()
        if not self._inserted and not self._delete:
            return 0
        if self._delete:
            self.vectors.delete(self._delete)
        started = time.perf_counter()
        self.vectors.save()
        self._save_s = time.perf_counter() - started
        self.labels.record(self._inserted)
        count = len(self._inserted)
        self._inserted = []
        self._delete.clear()
        self._last = time.monotonic()
        self.committed += count
        self.saves += 1
        return count
