"""Indexing on real files with the real stores and the real MiniLM model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from athena_lab.index.catalog import SCHEMA_VERSION
from athena_lab.errors import IndexBusyError
from athena_lab.ingest import pipeline
from athena_lab.ingest import vectors as vectors_phase
from athena_lab.workspace import Workspace
from corpus_files import copy_flask_subset

pytestmark = pytest.mark.slow

PAGES = ["quickstart.rst", "blueprints.rst", "config.rst", "testing.rst"]


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    root = copy_flask_subset(tmp_path / "docs", PAGES)
    (root / "notes.md").write_text(
        "---\ntitle: Team notes\n---\n# Deploying\n\nWe deploy with gunicorn behind nginx.\n\n"
        "## Rollback\n\nRun `make rollback` and check the `deploy_status` table.\n")
    return root


def _stores_agree(ws: Workspace) -> None:
    counts = ws.store.catalog.counts()
    assert ws.store.lexical.num_docs() == counts["chunks"]
    embedder = ws.embedder()
    assert embedder is not None
    vectors = ws.store.vectors(embedder.key, embedder.dimensions)
    assert vectors.live_count() == counts["chunks"]
    assert ws.store.catalog.chunks_needing_vectors(embedder.key) == []


def test_first_run_indexes_everything_into_three_consistent_stores(folder: Path) -> None:
    ws = Workspace(folder)
    summary = ws.index()
    assert (summary.new, summary.failed, summary.pending) == (5, 0, 0)
    assert summary.chunks > 20 and summary.embedded > 0
    assert (folder / ".athena" / "catalog.sqlite").is_file()
    _stores_agree(ws)
    assert ws.doctor().ok
    _doctor_and_health_agree(ws)


def _doctor_and_health_agree(ws: Workspace) -> None:
    """One set of probes (health.py): doctor's lines show the numbers /athena/health serves,
    read through the workspace's own methods (index_counts, vector_coverage)."""
    index = ws.health()["components"]["index"]["details"]
    counts = ws.index_counts()
    checks = {c.name: c for c in ws.doctor().checks}
    assert checks["index"].detail == (f"{index['files']} files, {index['chunks']} chunks, "
                                       f"{counts['failed']} failed, {counts['pending']} pending")
    assert checks["lexical"].ok and f"tantivy holds {index['lexical_docs']} documents" in checks["lexical"].detail
    coverage = ws.vector_coverage(ws.embedder())
    assert (coverage.live, coverage.missing, coverage.dimension_mismatch) == (index["chunks"], 0, None)
    assert checks["vectors"].detail.startswith(f"{coverage.live} live vectors for ")


def test_unchanged_files_are_not_reparsed_or_reembedded(folder: Path, monkeypatch) -> None:
    ws = Workspace(folder)
    ws.index()
    parsed = []
    monkeypatch.setattr(pipeline, "_parse_text", lambda *a: parsed.append(a) or pytest.fail("parsed"))
    summary = ws.index()
    assert (summary.unchanged, summary.new, summary.changed, summary.embedded) == (5, 0, 0, 0)
    assert summary.chunks_written == 0 and parsed == []


def test_touched_but_identical_file_is_confirmed_by_hash_not_reparsed(folder: Path) -> None:
    ws = Workspace(folder)
    ws.index()
    os.utime(folder / "notes.md", ns=(1, 1))
    summary = ws.index()
    assert summary.unchanged == 5 and summary.chunks_written == 0


def test_edit_reembeds_only_the_changed_chunk_and_ids_elsewhere_survive(folder: Path) -> None:
    ws = Workspace(folder)
    ws.index()
    before = {c.chunk_id: c for c in ws.store.catalog.chunks_for_path("quickstart.rst")}
    text = (folder / "quickstart.rst").read_text()
    # Insert a line near the top: line numbers below shift, other sections' ids must not.
    anchor = "A Minimal Application\n---------------------\n"
    (folder / "quickstart.rst").write_text(text.replace(anchor, anchor + "\nAn extra sentence about zebras.\n", 1))
    summary = ws.index()
    assert (summary.changed, summary.unchanged) == (1, 4)
    after = {c.chunk_id: c for c in ws.store.catalog.chunks_for_path("quickstart.rst")}
    elsewhere = [cid for cid, c in before.items() if "A Minimal Application" not in c.heading]
    assert len(elsewhere) > 10 and all(cid in after for cid in elsewhere)
    shifted = [cid for cid in elsewhere if after[cid].start_line != before[cid].start_line]
    assert shifted  # lines moved, ids stayed
    new_texts = {c.text_hash for c in after.values()} - {c.text_hash for c in before.values()}
    assert summary.embedded == len(new_texts) <= 2
    _stores_agree(ws)
    hit = ws.search("zebras", k=1).hits[0]
    assert "zebras" in hit.chunk.text and hit.chunk.path == "quickstart.rst"


def test_deleted_file_leaves_all_three_stores(folder: Path) -> None:
    ws = Workspace(folder)
    ws.index()
    (folder / "notes.md").unlink()
    summary = ws.index()
    assert summary.removed == 1
    assert ws.store.catalog.chunks_for_path("notes.md") == []
    assert all(h.chunk.path != "notes.md" for h in ws.search("gunicorn nginx rollback", k=10).hits)
    _stores_agree(ws)


def test_embedding_cache_forgets_text_that_left_the_folder(folder: Path) -> None:
    ws = Workspace(folder)
    ws.index()
    cached = lambda: ws.store.catalog.conn.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0]  # noqa: E731
    before = cached()
    (folder / "notes.md").unlink()
    ws.index()
    chunks = ws.store.catalog.counts()["chunks"]
    orphans = ws.store.catalog.conn.execute(
        "SELECT COUNT(*) FROM embeddings WHERE text_hash NOT IN (SELECT text_hash FROM chunks)").fetchone()[0]
    assert orphans == 0 and 0 < cached() < before and cached() <= chunks


def test_parser_version_bump_reparses_only_that_kind(folder: Path, monkeypatch) -> None:
    ws = Workspace(folder)
    ws.index()
    markdown = pipeline.parser_for("markdown")
    monkeypatch.setattr(markdown, "VERSION", markdown.VERSION + "-next")
    summary = ws.index()
    assert (summary.changed, summary.unchanged) == (1, 4)
    assert summary.embedded == 0  # same text, cached vectors


def test_lexical_format_change_rebuilds_tantivy_from_the_catalog_only(folder: Path, monkeypatch) -> None:
    from athena_lab.index import store as store_module

    Workspace(folder).index()
    from athena_lab.search import hybrid

    monkeypatch.setattr(store_module, "LEXICAL_VERSION", "next")
    monkeypatch.setattr(pipeline, "LEXICAL_VERSION", "next")
    monkeypatch.setattr(hybrid, "LEXICAL_VERSION", "next")
    ws = Workspace(folder)
    before = ws.search("register_blueprint", k=1)
    assert any("run `athena index` to rebuild" in w for w in before.warnings)
    summary = ws.index()
    assert (summary.unchanged, summary.chunks_written, summary.embedded) == (5, 0, 0)
    assert (folder / ".athena" / "tantivy-vnext").is_dir()
    assert not list((folder / ".athena").glob("tantivy-v1"))
    after = ws.search("register_blueprint", k=1, mode="lexical")
    assert after.hits[0].chunk.path == "blueprints.rst" and not after.warnings
    _stores_agree(ws)


def test_embedder_change_reembeds_without_reparsing(folder: Path, tmp_path: Path) -> None:
    from athena_lab.index.embeddings import minilm_paths

    ws = Workspace(folder)
    first = ws.index()
    # The same weights loaded as a generic local ONNX model folder: a different embedder config.
    model_dir = tmp_path / "local-model"
    model_dir.mkdir()
    model, tokenizer = minilm_paths()
    (model_dir / "model.onnx").symlink_to(model)
    (model_dir / "tokenizer.json").symlink_to(tokenizer)
    other = Workspace(folder, overrides={"embedding.provider": "onnx", "embedding.model_dir": str(model_dir),
                                      "embedding.max_tokens": 128})
    summary = other.index()
    assert summary.unchanged == 5 and summary.chunks_written == 0
    assert summary.embedded == first.embedded
    assert other.search("register a blueprint", k=3, mode="vector").hits
    _stores_agree(other)


def test_bad_files_each_get_one_warning_and_the_rest_indexes(folder: Path) -> None:
    (folder / "binary.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(200))
    (folder / "latin1.md").write_bytes("# Caf\xe9\n\nCr\xe8me br\xfbl\xe9e recipe.\n".encode("latin-1"))
    (folder / "empty.md").write_text("")
    with open(folder / "huge.txt", "wb") as fh:
        fh.truncate(100 * 1024 * 1024)  # a sparse 100 MB file
    (folder / "broken.ipynb").write_text('{"cells": [ {"cell_type": "markdown", ')
    (folder / "loop").symlink_to(folder, target_is_directory=True)
    (folder / "dangling.md").symlink_to(folder / "missing.md")
    summary = Workspace(folder).index()
    warnings = summary.warnings
    assert "binary data" in warnings["binary.md"][0]
    assert "invalid UTF-8" in warnings["latin1.md"][0]
    assert "empty file" in warnings["empty.md"][0]
    assert "over the 20 MB limit" in warnings["huge.txt"][0]
    assert "broken notebook" in warnings["broken.ipynb"][0]
    assert "symlink loop" in warnings["loop"][0]
    assert "broken or looping symlink" in warnings["dangling.md"][0]
    assert all(len(w) == 1 for w in warnings.values())
    assert summary.failed == 2  # binary.md and broken.ipynb
    assert summary.new >= 7
    ws = Workspace(folder)
    assert any(h.chunk.path == "latin1.md" for h in ws.search("recipe", k=5).hits)
    status = ws.status()
    flagged = {f["path"] for f in status["files"] + status["skipped"] if f["warnings"]}
    assert {"binary.md", "latin1.md", "empty.md", "huge.txt", "broken.ipynb"} <= flagged


@pytest.mark.integration  # it runs `athena` in a process
def test_second_concurrent_index_exits_with_a_clear_message(folder: Path) -> None:
    ws = Workspace(folder)
    with ws.store.write_lock():
        with pytest.raises(IndexBusyError, match="another `athena index`"):
            Workspace(folder).index()
        proc = subprocess.run([sys.executable, "-m", "athena_lab.cli", "index", str(folder)],
                              capture_output=True, text=True, timeout=120)
    assert proc.returncode == 3
    assert "another `athena index` is updating" in proc.stderr and "Traceback" not in proc.stderr


def test_interrupted_run_keeps_answering_and_the_next_run_finishes(folder: Path, monkeypatch) -> None:
    ws = Workspace(folder)
    embedder = ws.embedder()
    calls = {"n": 0}
    original = type(embedder).embed_documents

    def interrupt_after_first_batch(self, texts):
        calls["n"] += 1
        if calls["n"] > 1:
            raise KeyboardInterrupt
        return original(self, texts)

    monkeypatch.setattr(vectors_phase, "EMBED_BATCH", 8)
    monkeypatch.setattr(type(embedder), "embed_documents", interrupt_after_first_batch)
    with pytest.raises(KeyboardInterrupt):
        ws.index()
    monkeypatch.undo()
    # Lexical search already answers from the committed catalog and Tantivy, and the batch
    # embedded before the interrupt was committed on the way out: it is searchable too.
    result = Workspace(folder).search("blueprint", k=3)
    assert result.hits and result.hits[0].chunk.path == "blueprints.rst"
    vectors = Workspace(folder).status()["vectors"]
    assert vectors["state"] == "partial" and vectors["done"] == 8 and vectors["total"] > 8
    assert result.degraded.startswith(f"hybrid over vectors 8 / {vectors['total']}, the rest lexical only")
    summary = Workspace(folder).index()
    assert summary.unchanged == 5 and summary.chunks_written == 0
    assert summary.embedded_from_cache == 0 and summary.embedded == vectors["total"] - 8
    _stores_agree(Workspace(folder))


@pytest.mark.integration  # it runs `athena` in a process
def test_read_only_folder_can_be_indexed_elsewhere(folder: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "index"
    os.chmod(folder, 0o555)
    try:
        proc = subprocess.run([sys.executable, "-m", "athena_lab.cli", "index", str(folder),
                               "--index-dir", str(elsewhere), "--json"],
                              capture_output=True, text=True, timeout=600)
    finally:
        os.chmod(folder, 0o755)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["new"] == 5
    assert not (folder / ".athena").exists() and (elsewhere / "catalog.sqlite").is_file()


def test_an_index_from_the_previous_schema_is_upgraded_in_place_with_its_history(folder: Path) -> None:
    import sqlite3

    ws = Workspace(folder, overrides={"embedding.provider": "none"})
    ws.index()
    cid = ws.conversations.create("how do I deploy?")
    chunks = ws.store.catalog.counts()["chunks"]
    ws.close()
    db = sqlite3.connect(folder / ".athena" / "catalog.sqlite")  # back to how version 1 left it
    db.execute("UPDATE manifest SET value='1' WHERE key='schema_version'")
    db.commit()
    db.close()
    again = Workspace(folder, overrides={"embedding.provider": "none"})
    assert again.store.catalog.get_manifest("schema_version") == SCHEMA_VERSION
    assert again.store.catalog.counts()["chunks"] == chunks and again.conversations.exists(cid)
    again.close()


def test_an_index_from_a_newer_athena_is_refused_with_what_to_do(folder: Path) -> None:
    import sqlite3

    from athena_lab.errors import CatalogError

    ws = Workspace(folder, overrides={"embedding.provider": "none"})
    ws.index()
    ws.close()
    db = sqlite3.connect(folder / ".athena" / "catalog.sqlite")
    db.execute("UPDATE manifest SET value='99' WHERE key='schema_version'")
    db.commit()
    db.close()
    with pytest.raises(CatalogError, match="newer than this athena_lab.*upgrade athena-lab"):
        Workspace(folder, overrides={"embedding.provider": "none"}).status()
