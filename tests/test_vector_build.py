"""The vectors phase at scale, in small: windows of texts, batched graph inserts on the
configured threads, few saves of the whole graph, and a crash between saves.

Real catalog, real Tantivy, real hnswlib; the embedder is a small hashed bag of words (the
phase's behaviour, not relevance, is under test), put in place of the model the pipeline
would load. The folder is 60 pages of 8 sections, one chunk each (480 chunks, no two alike);
windows of 50 texts and insert batches of 64 make a 480-chunk run behave as a 1M one does.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from athena_lab.index import vectors as vector_module
from athena_lab.index.runtimes import usable_cores
from athena_lab.index.vectors import VectorIndex
from athena_lab.ingest import checkpoints as checkpoints_module
from athena_lab.ingest import pipeline
from athena_lab.ingest import vectors as vectors_phase
from athena_lab.ingest.checkpoints import VectorCheckpointer
from athena_lab.interrupt import StopRequest
from athena_lab.workspace import Workspace

pytestmark = pytest.mark.unit

PAGES, SECTIONS = 60, 8
WORDS = ("graph vector index catalog search window batch insert thread save memory chunk text "
         "archive paper query cache label shard build").split()


class Hashed:
    """Hashed bag of words → 32 dims, normalised; counts its calls."""

    name = "test:hashed-32"
    key = "testhashed32"
    dimensions = 32

    def __init__(self) -> None:
        self.calls = 0

    def _one(self, text: str) -> np.ndarray:
        v = np.zeros(self.dimensions, dtype=np.float32)
        for token in re.findall(r"\w+", text.lower()):
            seed = int.from_bytes(hashlib.blake2b(token.encode(), digest_size=8).digest(), "little")
            v += np.random.default_rng(seed).standard_normal(self.dimensions).astype(np.float32)
        return v / (np.linalg.norm(v) or 1.0)

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        self.calls += 1
        return np.stack([self._one(t) for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        return self._one(text)


def _folder(root: Path) -> Path:
    for p in range(PAGES):
        parts = [f"# Page {p}\n"]
        for s in range(SECTIONS):
            n = p * SECTIONS + s
            body = " ".join(f"{WORDS[(n * 7 + i * 3) % len(WORDS)]}{(n + i) % 97}" for i in range(40))
            parts.append(f"## Section {n}\n\nItem {n}: {body}.\n")
        (root / f"page{p:03d}.md").parent.mkdir(parents=True, exist_ok=True)
        (root / f"page{p:03d}.md").write_text("\n".join(parts), encoding="utf-8")
    return root


class Spy:
    """What reached the graph: insert calls (rows, threads), saves, and the most chunks the
    checkpointer held at once."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.inserts: list[tuple[int, int]] = []
        self.saves = 0
        self.held = 0
        insert, save, expect = VectorIndex.insert, VectorIndex.save, VectorCheckpointer.expect

        def spy_insert(index: VectorIndex, labels: np.ndarray, data: np.ndarray, threads: int = 1) -> None:
            self.inserts.append((len(labels), threads))
            insert(index, labels, data, threads)

        def spy_save(index: VectorIndex) -> None:
            self.saves += 1
            save(index)

        def spy_expect(ckpt: VectorCheckpointer, needing: Any) -> None:
            expect(ckpt, needing)
            self.held = max(self.held, sum(len(ids) for ids in ckpt._chunks.values()))

        monkeypatch.setattr(VectorIndex, "insert", spy_insert)
        monkeypatch.setattr(VectorIndex, "save", spy_save)
        monkeypatch.setattr(VectorCheckpointer, "expect", spy_expect)


@pytest.fixture()
def small_windows(monkeypatch: pytest.MonkeyPatch) -> Hashed:
    monkeypatch.setattr(vectors_phase, "EMBED_WINDOW", 50)
    monkeypatch.setattr(pipeline, "EMBED_WINDOW", 50)
    monkeypatch.setattr(checkpoints_module, "INSERT_BATCH", 64)
    embedder = Hashed()
    monkeypatch.setattr(pipeline, "make_embedder", lambda settings: embedder)
    return embedder


def _consistent(ws: Workspace, chunks: int) -> None:
    """Every chunk has a vector, and the graph holds exactly the labels the catalog records."""
    catalog = ws.store.catalog
    assert catalog.vector_counts(Hashed.key) == (chunks, chunks)
    assert not catalog.has_chunks_needing_vectors(Hashed.key)
    graph = VectorIndex(ws.index_dir / "vectors", Hashed.key, Hashed.dimensions)
    assert graph.labels() - graph.deleted_labels() == catalog.live_labels(Hashed.key)
    assert graph.live_count() == chunks


def test_a_build_reads_texts_a_window_at_a_time_inserts_in_batches_and_saves_the_graph_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_windows: Hashed) -> None:
    spy = Spy(monkeypatch)
    monkeypatch.setattr(vector_module, "INITIAL_CAPACITY", 16)
    ws = Workspace(_folder(tmp_path / "docs"), tmp_path / "index",
                   overrides={"index.vector_checkpoint_s": 3600})
    summary = ws.index()
    chunks = PAGES * SECTIONS
    assert summary.chunks == chunks and summary.embedded == chunks and summary.embedded_from_cache == 0
    assert summary.interrupted is None and not summary.errors
    _consistent(ws, chunks)
    # Texts came 50 at a time (the checkpointer held at most a window and an insert batch's
    # chunks, never all 480), the graph got them 64 at a time on every core, and was
    # written once, at the end, not once per window (10 windows).
    assert spy.held <= 50 + 64
    assert sum(rows for rows, _ in spy.inserts) == chunks
    assert max(rows for rows, _ in spy.inserts) == 64 and len(spy.inserts) == -(-chunks // 64)
    assert {threads for _, threads in spy.inserts} == {usable_cores()}
    assert spy.saves == 1
    # One allocation for the whole graph (reserved from the count), not 16 doubled to 512.
    meta = VectorIndex(ws.index_dir / "vectors", Hashed.key, Hashed.dimensions)._meta()
    assert meta["count"] == meta["max_elements"] == chunks
    ws.close()


def test_graph_threads_is_what_hnswlib_gets_and_saves_follow_the_interval(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_windows: Hashed) -> None:
    spy = Spy(monkeypatch)
    ws = Workspace(_folder(tmp_path / "docs"), tmp_path / "index",
                   overrides={"index.graph_threads": 1, "index.vector_checkpoint_s": 0})
    ws.index()
    _consistent(ws, PAGES * SECTIONS)
    assert {threads for _, threads in spy.inserts} == {1}
    # Interval 0: a save whenever the last one's tenfold wait is over; more than one, and
    # never more than one per embedding batch.
    assert 1 < spy.saves <= small_windows.calls + 1
    ws.close()


def test_a_crash_between_saves_loses_graph_inserts_not_vectors_and_the_next_run_finishes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_windows: Hashed) -> None:
    """A process killed after its first checkpoint: the inserts since are lost from the
    graph, and the catalog never names them; their vectors are in the cache."""
    folder = _folder(tmp_path / "docs")
    commit = VectorCheckpointer.commit
    state = {"saved": 0}

    def crash_after_first_save(ckpt: VectorCheckpointer) -> int:
        if state["saved"]:
            ckpt._inserted.clear()  # what a killed process never records
            raise SystemExit("killed")
        state["saved"] = commit(ckpt)
        return state["saved"]

    monkeypatch.setattr(VectorCheckpointer, "commit", crash_after_first_save)
    ws = Workspace(folder, tmp_path / "index", overrides={"index.vector_checkpoint_s": 0})
    with pytest.raises(SystemExit):
        ws.index()
    ws.close()
    monkeypatch.setattr(VectorCheckpointer, "commit", commit)
    ws = Workspace(folder, tmp_path / "index")
    catalog = ws.store.catalog
    saved = state["saved"]
    assert 0 < saved < PAGES * SECTIONS
    assert catalog.vector_counts(Hashed.key)[0] == saved
    graph = VectorIndex(ws.index_dir / "vectors", Hashed.key, Hashed.dimensions)
    assert graph.labels() == catalog.live_labels(Hashed.key)  # the saved graph: only recorded labels
    cached = catalog.cached_vectors(Hashed.key, [row[1] for row in catalog.chunks_needing_vectors(Hashed.key)])
    assert cached, "the vectors embedded after the save are in the cache"

    summary = ws.index()
    assert summary.chunks_written == 0 and summary.interrupted is None
    assert summary.embedded_from_cache == len(cached)
    assert summary.embedded == PAGES * SECTIONS - saved - len(cached)
    _consistent(ws, PAGES * SECTIONS)
    ws.close()


def test_a_stop_between_batches_saves_everything_embedded_and_the_next_run_embeds_the_rest(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_windows: Hashed) -> None:
    folder = _folder(tmp_path / "docs")
    stop = StopRequest()
    embed = small_windows.embed_documents

    def stop_after_five(texts: list[str]) -> np.ndarray:
        if small_windows.calls == 5:
            stop.request("SIGTERM")
        return embed(texts)

    monkeypatch.setattr(small_windows, "embed_documents", stop_after_five)
    ws = Workspace(folder, tmp_path / "index", overrides={"index.vector_checkpoint_s": 3600})
    first = ws.index(stop=stop)
    assert first.interrupted == "SIGTERM"
    done = ws.store.catalog.vector_counts(Hashed.key)[0]
    assert done == first.embedded and 0 < done < PAGES * SECTIONS
    monkeypatch.setattr(small_windows, "embed_documents", embed)
    second = ws.index()
    assert second.embedded == PAGES * SECTIONS - done and second.embedded_from_cache == 0
    _consistent(ws, PAGES * SECTIONS)
    ws.close()


def test_windows_give_every_row_once_while_rows_get_vectors_meanwhile(tmp_path: Path,
                                                                      small_windows: Hashed) -> None:
    ws = Workspace(_folder(tmp_path / "docs"), tmp_path / "index")
    ws.index(embed=False)
    catalog = ws.store.catalog
    assert catalog.needing_vectors_count(Hashed.key) == PAGES * SECTIONS
    seen: list[str] = []
    for n, window in enumerate(catalog.needing_vector_windows(Hashed.key, 37)):
        assert len(window) <= 37
        seen += [row[0] for row in window]
        with catalog.transaction():  # this window's rows get vectors before the next is read
            catalog.set_vectors([(1000 * n + i, row[1], Hashed.key, row[0]) for i, row in enumerate(window)])
    assert len(seen) == len(set(seen)) == PAGES * SECTIONS
    assert catalog.needing_vectors_count(Hashed.key) == 0
    ws.close()


def test_embedding_calls_hold_multiples_of_eight_texts_within_the_character_budget() -> None:
    rng = np.random.default_rng(3)
    lengths = sorted(int(n) for n in rng.integers(20, 1500, size=700))
    texts = {f"h{i}": "x" * n for i, n in enumerate(lengths)}
    groups = vectors_phase.embed_groups(list(texts), texts)
    assert [h for group in groups for h in group] == list(texts)  # every text, in order, once
    assert all(len(group) % vectors_phase.GROUP_STEP == 0 for group in groups[:-1])
    for group in groups:
        longest = max(len(texts[h]) for h in group)
        assert len(group) * longest <= vectors_phase.EMBED_CHARS or len(group) <= vectors_phase.EMBED_BATCH // 4
        assert len(group) <= vectors_phase.EMBED_BATCH
