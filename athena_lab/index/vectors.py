"""The hnswlib graph of one embedder: labels map to chunks through the catalog.

One file per embedder key, so switching models never mixes vector spaces, and a graph of
another dimension is detected and skipped instead of crashing a search. Saves go to a
temporary file first and replace the old one atomically.

Readers and the writer never share a mutable graph. hnswlib does not support
``resize_index`` (nor ``add_items`` / ``mark_deleted``) while another thread runs
``knn_query`` on the same graph: it crashes or returns labels that were never added. So
a search reads a published ``_View`` that nothing mutates, and the writer grows a private
draft (its own copy, loaded from disk): ``insert`` and ``delete`` change only the draft,
``save`` writes it and only then retires the view (``update`` does all three); the next
search loads the saved graph. A search already running keeps its old view. Inserting and
saving are apart because at scale they cost very differently: a save writes the whole
graph (1.8 GB at 1M chunks), so a build inserts in batches on every core and saves now
and then (ingest/checkpoints.py).
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import hnswlib
import numpy as np

M, EF_CONSTRUCTION = 32, 200
INITIAL_CAPACITY = 1024


@dataclass(frozen=True)
class _View:
    """A graph as searches see it: never mutated once published."""

    graph: hnswlib.Index
    deleted: frozenset[int]


class VectorIndex:
    def __init__(self, directory: Path, embedder_key: str, dimensions: int, ef: int = 100) -> None:
        self.directory = directory
        self.path = directory / f"{embedder_key}.hnsw"
        self.meta_path = directory / f"{embedder_key}.json"
        self.dimensions = dimensions
        self.ef = ef
        self._lock = threading.Lock()  # guards the published view
        self._write_lock = threading.Lock()  # one update at a time
        self._view: _View | None = None
        self._view_mtime: int | None = None
        self._draft: _View | None = None  # the writer's private graph
        self._draft_mtime: int | None = None  # the file's mtime when the draft was loaded or saved
        self._dirty = False  # the draft has inserts or deletes not saved yet
        self.dimension_mismatch: int | None = None  # dims found on disk, if they differ

    def exists(self) -> bool:
        return self.path.is_file() and self.meta_path.is_file()

    def _meta(self) -> dict:
        return json.loads(self.meta_path.read_text())

    def _mtime(self) -> int | None:
        return self.path.stat().st_mtime_ns if self.path.is_file() else None

    def _load(self, capacity: int = 0) -> _View | None:
        """A fresh graph object from disk, with room for ``capacity`` elements."""
        if not self.exists():
            return None
        meta = self._meta()
        if meta["dim"] != self.dimensions:
            self.dimension_mismatch = meta["dim"]
            return None
        graph = hnswlib.Index(space="ip", dim=self.dimensions)
        graph.load_index(str(self.path), max_elements=max(meta["max_elements"], capacity),
                         allow_replace_deleted=False)
        graph.set_ef(self.ef)  # load_index resets ef to 10
        return _View(graph, frozenset(meta.get("deleted", [])))

    def _current(self) -> _View | None:
        """The published view, reloaded when the file on disk is newer (another process or
        our own update saved it)."""
        with self._lock:
            mtime = self._mtime()
            if self._view is None or mtime != self._view_mtime:
                self._view = self._load()
                self._view_mtime = mtime
            return self._view

    def graph(self) -> hnswlib.Index | None:
        """The graph searches read (None when there is none or its dimensions differ)."""
        view = self._current()
        return view.graph if view is not None else None

    def live_count(self) -> int:
        view = self._current()
        return 0 if view is None else view.graph.element_count - len(view.deleted)

    def deleted_labels(self) -> set[int]:
        view = self._current()
        return set(view.deleted) if view is not None else set()

    def labels(self) -> set[int]:
        view = self._current()
        return set(view.graph.get_ids_list()) if view is not None else set()

    def release_view(self) -> None:
        """Drop the published graph this object holds: a writer about to load its own copy
        would otherwise hold the graph twice (the next search loads it again)."""
        with self._lock:
            self._view, self._view_mtime = None, None

    def update(self, add: dict[int, np.ndarray], delete: set[int], threads: int = 1) -> None:
        """Add vectors under their labels and delete labels on a private graph; save it
        atomically; then let searches move to it."""
        with self._write_lock:
            self._delete(delete)
            if add:
                labels = np.fromiter(add.keys(), dtype=np.int64, count=len(add))
                self._insert(labels, np.vstack(list(add.values())).astype(np.float32), threads)
            self._save_draft()

    def insert(self, labels: np.ndarray, data: np.ndarray, threads: int = 1) -> None:
        """Add vectors to the writer's graph without saving it: searches see them after the
        next ``save``, and a crash before it loses them from the graph (never from the
        embedding cache). hnswlib spreads one call over ``threads`` threads."""
        with self._write_lock:
            self._insert(labels, data, threads)

    def delete(self, labels: set[int]) -> None:
        """Mark labels deleted in the writer's graph; saved by the next ``save``."""
        with self._write_lock:
            self._delete(labels)

    def save(self) -> None:
        """Save the writer's graph atomically; then let searches move to it."""
        with self._write_lock:
            self._save_draft()

    def reserve(self, adding: int) -> None:
        """Room for ``adding`` more vectors in the writer's graph, allocated once: a build of
        1M vectors would otherwise grow it by doubling, copying the graph each time."""
        with self._write_lock:
            self._draft_for(adding)

    def _insert(self, labels: np.ndarray, data: np.ndarray, threads: int) -> None:
        draft = self._draft_for(len(labels))
        draft.graph.add_items(data, labels, num_threads=max(1, threads))
        self._draft = _View(draft.graph, draft.deleted - frozenset(int(label) for label in labels))
        self._dirty = True

    def _delete(self, labels: set[int]) -> None:
        draft = self._draft_for(0)
        deleted = set(draft.deleted)
        for label in labels - deleted:
            try:
                draft.graph.mark_deleted(label)
                deleted.add(label)
            except RuntimeError:
                pass  # the label never made it into this graph
        self._draft = _View(draft.graph, frozenset(deleted))
        self._dirty = True

    def _draft_for(self, adding: int) -> _View:
        """The writer's graph with room for ``adding`` more: the one it holds if it has
        changes not saved yet or the file is still the one it saved, else a new copy from
        disk (never the published object)."""
        draft = self._draft
        if draft is None or (not self._dirty and self._mtime() != self._draft_mtime):
            needed = adding + (self._meta()["count"] if self.exists() else 0)
            draft = self._load(capacity=needed)
            if draft is None:
                graph = hnswlib.Index(space="ip", dim=self.dimensions)
                graph.init_index(max_elements=max(INITIAL_CAPACITY, adding), M=M, ef_construction=EF_CONSTRUCTION)
                graph.set_ef(self.ef)
                draft = _View(graph, frozenset())
            self._draft, self._draft_mtime = draft, self._mtime()
        graph = draft.graph
        needed = graph.element_count + adding
        if needed > graph.get_max_elements():
            graph.resize_index(max(needed, graph.get_max_elements() * 2))  # private: no reader holds it
        return draft

    def _save_draft(self) -> None:
        draft = self._draft_for(0)
        graph, deleted = draft.graph, draft.deleted
        self.directory.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".hnsw.tmp")
        graph.save_index(str(tmp))
        meta = {"dim": self.dimensions, "max_elements": graph.get_max_elements(),
                "count": graph.element_count, "deleted": sorted(deleted)}
        tmp_meta = self.meta_path.with_suffix(".json.tmp")
        tmp_meta.write_text(json.dumps(meta))
        os.replace(tmp_meta, self.meta_path)
        os.replace(tmp, self.path)
        self.dimension_mismatch = None
        self._draft_mtime, self._dirty = self._mtime(), False
        with self._lock:
            self._view, self._view_mtime = None, None  # the next search loads the saved graph

    def search(self, vector: np.ndarray, k: int,
               allowed: Callable[[int], bool] | None = None) -> list[tuple[int, float]]:
        """(label, cosine similarity) of the nearest live vectors."""
        view = self._current()
        if view is None:
            return []
        k = min(k, view.graph.element_count - len(view.deleted))
        if k <= 0:
            return []
        try:
            labels, distances = view.graph.knn_query(vector.reshape(1, -1), k=k, filter=allowed)
        except RuntimeError:
            # Fewer than k items pass the filter: hnswlib refuses rather than returning fewer.
            return self._search_small(view.graph, vector, k, allowed)
        return [(int(l), float(1.0 - d)) for l, d in zip(labels[0], distances[0])]

    def _search_small(self, graph: hnswlib.Index, vector: np.ndarray, k: int,
                      allowed: Callable[[int], bool] | None) -> list[tuple[int, float]]:
        while k > 1:
            k //= 2
            try:
                labels, distances = graph.knn_query(vector.reshape(1, -1), k=k, filter=allowed)
                return [(int(l), float(1.0 - d)) for l, d in zip(labels[0], distances[0])]
            except RuntimeError:
                continue
        return []
