"""Vectors become searchable while a run is still embedding: they are committed in checkpoints.

One checkpointer serves both vector sets, the main vectors and the multilingual channel;
``Labels`` is what differs between them (where labels come from, which table records them).

Every ``interval_s`` of embedding (or less often when saving the graph is slow: at most
about a tenth of the time goes to saving), and always at the end or on a stop, the vectors
embedded since the last checkpoint are added to the hnswlib graph, the graph is saved
atomically (index/vectors.py), and the catalog records which chunk has which label. Readers
reload the graph when its file changes, so a search during indexing uses what is done.

Order keeps the stores consistent at every instant: labels are reserved (and, for the
main vectors, committed) first, then the graph is saved, then the catalog is updated in
one transaction. The graph
may briefly know labels the catalog does not — search ignores those and the next run
deletes them — never the reverse.
"""

from __future__ import annotations

import time
from typing import Iterable, Protocol, Sequence

import numpy as np

from athena_lab.index.catalog import Catalog, TextRow
from athena_lab.index.vectors import VectorIndex

SAVE_SHARE = 10  # wait at least this many times the last save's duration between saves


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
    def __init__(self, vectors: VectorIndex, labels: Labels, needing: list[TextRow], delete: set[int],
                 interval_s: float) -> None:
        """``needing``: (chunk_id, text_hash, …) of chunks without a current vector;
        ``delete``: labels to mark deleted at the first checkpoint (dead or stale vectors)."""
        self.vectors = vectors
        self.labels = labels
        self.interval_s = interval_s
        self._chunks: dict[str, list[str]] = {}  # text hash → chunk ids still without a vector
        for chunk_id, digest, *_rest in needing:
            self._chunks.setdefault(digest, []).append(chunk_id)
        self._ready: dict[str, np.ndarray] = {}  # vectors waiting for the next checkpoint
        self._delete = set(delete)
        self._last = time.monotonic()
        self._save_s = 0.0
        self.committed = 0  # chunks whose vectors this run committed
        self.fresh_chunks = 0  # chunks covered by vectors embedded (not cached) in this run

    def add(self, items: Iterable[tuple[str, np.ndarray]], *, fresh: bool = True) -> None:
        for digest, vector in items:
            if digest in self._chunks and digest not in self._ready:
                self._ready[digest] = vector
                if fresh:
                    self.fresh_chunks += len(self._chunks[digest])

    def due(self) -> bool:
        wait = max(self.interval_s, SAVE_SHARE * self._save_s)
        return bool(self._ready) and time.monotonic() - self._last >= wait

    def commit(self) -> int:
        """Make the ready vectors searchable; returns how many chunks got one."""
        if not self._ready and not self._delete:
            return 0
        pairs = [(chunk_id, digest) for digest in self._ready for chunk_id in self._chunks[digest]]
        labels = self.labels.reserve(len(pairs))
        add = {label: self._ready[digest] for label, (_cid, digest) in zip(labels, pairs)}
        started = time.perf_counter()
        self.vectors.update(add, self._delete)
        self._save_s = time.perf_counter() - started
        self.labels.record([(label, chunk_id, digest) for label, (chunk_id, digest) in zip(labels, pairs)])
        for digest in self._ready:
            del self._chunks[digest]
        self._ready.clear()
        self._delete.clear()
        self._last = time.monotonic()
        self.committed += len(pairs)
        return len(pairs)
