"""The hnswlib graph of one embedder: labels map to chunks through the catalog.

One file per embedder key, so switching models never mixes vector spaces, and a graph of
another dimension is detected and skipped instead of crashing a search. Saves go to a
temporary file first and replace the old one atomically.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Callable

import hnswlib
import numpy as np

M, EF_CONSTRUCTION = 32, 200


class VectorIndex:
    def __init__(self, directory: Path, embedder_key: str, dimensions: int, ef: int = 100) -> None:
        self.directory = directory
        self.path = directory / f"{embedder_key}.hnsw"
        self.meta_path = directory / f"{embedder_key}.json"
        self.dimensions = dimensions
        self.ef = ef
        self._lock = threading.Lock()
        self._graph: hnswlib.Index | None = None
        self._loaded_mtime: int | None = None
        self._deleted: set[int] = set()
        self.dimension_mismatch: int | None = None  # dims found on disk, if they differ

    def exists(self) -> bool:
        return self.path.is_file() and self.meta_path.is_file()

    def _meta(self) -> dict:
        return json.loads(self.meta_path.read_text())

    def _load(self) -> hnswlib.Index | None:
        if not self.exists():
            return None
        meta = self._meta()
        if meta["dim"] != self.dimensions:
            self.dimension_mismatch = meta["dim"]
            return None
        graph = hnswlib.Index(space="ip", dim=self.dimensions)
        graph.load_index(str(self.path), max_elements=meta["max_elements"], allow_replace_deleted=False)
        graph.set_ef(self.ef)  # load_index resets ef to 10
        return graph

    def graph(self, *, create: bool = False) -> hnswlib.Index | None:
        """The graph, reloaded when another process has saved a newer one."""
        with self._lock:
            mtime = self.path.stat().st_mtime_ns if self.path.is_file() else None
            if self._graph is None or mtime != self._loaded_mtime:
                self._graph = self._load()
                self._deleted = set(self._meta().get("deleted", [])) if self._graph else set()
                self._loaded_mtime = mtime
            if self._graph is None and create:
                graph = hnswlib.Index(space="ip", dim=self.dimensions)
                graph.init_index(max_elements=1024, M=M, ef_construction=EF_CONSTRUCTION)
                graph.set_ef(self.ef)
                self._graph = graph
            return self._graph

    def live_count(self) -> int:
        graph = self.graph()
        if graph is None:
            return 0
        return graph.element_count - len(self.deleted_labels())

    def deleted_labels(self) -> set[int]:
        return set(self._deleted)

    def labels(self) -> set[int]:
        graph = self.graph()
        return set(graph.get_ids_list()) if graph is not None else set()

    def update(self, add: dict[int, np.ndarray], delete: set[int]) -> None:
        """Add vectors under their labels and delete labels; then save atomically."""
        graph = self.graph(create=True)
        assert graph is not None
        deleted = self.deleted_labels()
        for label in delete - deleted:
            try:
                graph.mark_deleted(label)
                deleted.add(label)
            except RuntimeError:
                pass  # the label never made it into this graph
        if add:
            needed = graph.element_count + len(add)
            if needed > graph.get_max_elements():
                graph.resize_index(max(needed, graph.get_max_elements() * 2))
            labels = np.fromiter(add.keys(), dtype=np.int64, count=len(add))
            data = np.vstack(list(add.values())).astype(np.float32)
            graph.add_items(data, labels, num_threads=1)
            deleted -= set(add)
        self._save(graph, deleted)

    def _save(self, graph: hnswlib.Index, deleted: set[int]) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".hnsw.tmp")
        graph.save_index(str(tmp))
        meta = {"dim": self.dimensions, "max_elements": graph.get_max_elements(),
                "count": graph.element_count, "deleted": sorted(deleted)}
        tmp_meta = self.meta_path.with_suffix(".json.tmp")
        tmp_meta.write_text(json.dumps(meta))
        os.replace(tmp_meta, self.meta_path)
        os.replace(tmp, self.path)
        with self._lock:
            self._graph = graph
            self._deleted = set(deleted)
            self._loaded_mtime = self.path.stat().st_mtime_ns

    def search(self, vector: np.ndarray, k: int,
               allowed: Callable[[int], bool] | None = None) -> list[tuple[int, float]]:
        """(label, cosine similarity) of the nearest live vectors."""
        graph = self.graph()
        if graph is None:
            return []
        live = graph.element_count - len(self._deleted)
        k = min(k, live)
        if k <= 0:
            return []
        graph.set_ef(max(self.ef, k))
        try:
            labels, distances = graph.knn_query(vector.reshape(1, -1), k=k, filter=allowed)
        except RuntimeError:
            # Fewer than k items pass the filter: hnswlib refuses rather than returning fewer.
            return self._search_small(graph, vector, k, allowed)
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
