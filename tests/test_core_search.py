"""Hybrid search over a real index: exact citations, filters, safety, degradation."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from athena_lab.errors import SearchError
from athena_lab.search.hybrid import citation
from athena_lab.workspace import Workspace
from corpus_files import copy_flask_subset

pytestmark = pytest.mark.slow

NOTEBOOK = {
    "nbformat": 4, "nbformat_minor": 5, "metadata": {},
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "id": "a", "source": "# Loading data\n\nWe read the survey answers with pandas."},
        {"cell_type": "code", "metadata": {}, "id": "b", "execution_count": 1,
         "source": "import pandas as pd\nsurvey = pd.read_csv('survey_answers.csv')\nsurvey.describe()",
         "outputs": [{"output_type": "stream", "name": "stdout", "text": "1204 rows loaded\n"}]},
    ],
}


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Workspace:
    root = copy_flask_subset(tmp_path_factory.mktemp("search") / "docs",
                             ["quickstart.rst", "blueprints.rst", "config.rst", "cli.rst", "tutorial/views.rst"])
    (root / "guides").mkdir()
    (root / "guides" / "deploy.md").write_text(
        "# Deployment\n\n## Behind a proxy\n\nSet `ProxyFix` when the app runs behind nginx.\n\n"
        "## Errors\n\nIf you see `werkzeug.exceptions.BadRequestKeyError` the form field is missing.\n")
    (root / "analysis.ipynb").write_text(json.dumps(NOTEBOOK))
    workspace = Workspace(root)
    workspace.index()
    return workspace


def test_hits_cite_exact_line_ranges_of_the_source(ws: Workspace) -> None:
    hits = ws.search("how do I register a blueprint on the application", k=5).hits
    assert hits[0].chunk.path in {"blueprints.rst", "tutorial/views.rst"}
    for hit in hits:
        if hit.chunk.doc_kind == "notebook":
            continue
        lines = (ws.root / hit.chunk.path).read_text().splitlines()
        cited = "\n".join(lines[hit.chunk.start_line - 1: hit.chunk.end_line])
        words = [w for w in hit.chunk.text.split() if w.isalpha() and len(w) > 3][:25]
        assert words and all(w in cited for w in words), hit.chunk.path


def test_citation_json_has_the_design_contract_fields(ws: Workspace) -> None:
    query = "register_blueprint"
    c = citation(ws.search(query, k=1).hits[0], query)
    assert {"kind", "path", "start_line", "end_line", "heading_path", "chunk_id", "snippet", "score"} <= set(c)
    # Both pages call app.register_blueprint; which ranks first is the fusion's business.
    assert c["kind"] == "text" and c["path"] in {"blueprints.rst", "cli.rst"} and c["start_line"] <= c["end_line"]
    assert "register_blueprint" in c["snippet"]


def test_notebook_hits_cite_cell_and_lines_within_the_cell(ws: Workspace) -> None:
    hit = ws.search("read the survey answers csv", k=3, kind="notebook").hits[0]
    c = citation(hit, "survey")
    assert c["kind"] == "notebook" and c["path"] == "analysis.ipynb"
    assert c["cell"] in (0, 1) and c["start_line"] >= 1


def test_identifier_queries_find_the_defining_section(ws: Workspace) -> None:
    hit = ws.search("ProxyFix", k=1).hits[0]
    assert hit.chunk.path == "guides/deploy.md" and "Behind a proxy" in hit.chunk.heading
    assert "ident" in hit.ranks
    hit = ws.search("what does `SECRET_KEY` do", k=3).hits
    assert any("SECRET_KEY" in h.chunk.text for h in hit)


def test_pasted_error_strings_are_matched_verbatim(ws: Workspace) -> None:
    hits = ws.search("werkzeug.exceptions.BadRequestKeyError: 400 Bad Request", k=3).hits
    assert hits[0].chunk.path == "guides/deploy.md"


@pytest.mark.parametrize("query", ['foo(', 'AND', '"x', "what's new?", "a:b:c", "`ticks`", "OR NOT TO",
                                   "+-&|!(){}[]^~*?:\\/<>=", "((((", "title:secret"])
def test_user_text_is_never_a_query_syntax_error(ws: Workspace, query: str) -> None:
    """Tantivy's query syntax (AND, quotes, field:value, brackets) in a user's text is words,
    never syntax: the keyword search finds what the same words without punctuation find,
    and punctuation alone finds nothing rather than failing."""
    found = [h.chunk.chunk_id for h in ws.search(query, k=3, mode="lexical").hits]
    words = re.sub(r"[^\w\s]", " ", query)
    assert found == ([h.chunk.chunk_id for h in ws.search(words, k=3, mode="lexical").hits] if words.strip() else [])
    ws.search(query, k=3)  # and the hybrid search takes it too


def test_empty_query_is_a_clear_error(ws: Workspace) -> None:
    with pytest.raises(SearchError, match="empty"):
        ws.search("   ")


def test_kind_and_path_prefix_filters_restrict_every_retriever(ws: Workspace) -> None:
    for mode in ("hybrid", "lexical", "vector"):
        hits = ws.search("errors behind a proxy", k=10, kind="markdown", mode=mode).hits
        assert hits and {h.chunk.doc_kind for h in hits} == {"markdown"}
        hits = ws.search("views and templates", k=10, path_prefix="tutorial/", mode=mode).hits
        assert hits and all(h.chunk.path.startswith("tutorial/") for h in hits)
    hits = ws.search("configuration", k=10, path_prefix="con").hits
    assert hits and all(h.chunk.path.startswith("con") for h in hits)
    with pytest.raises(SearchError, match="unknown kind"):
        ws.search("x", kind="spreadsheet")


def test_paraphrase_is_found_by_the_vector_half(ws: Workspace) -> None:
    hits = ws.search("split my web app into reusable components", k=5, mode="vector").hits
    assert any(h.chunk.path == "blueprints.rst" for h in hits)


def test_search_degrades_to_lexical_when_the_embedder_is_unavailable(ws: Workspace, tmp_path: Path) -> None:
    broken = Workspace(ws.root, overrides={"embedding.provider": "onnx", "embedding.model_dir": str(tmp_path)})
    result = broken.search("register a blueprint", k=3)
    assert result.hits and result.degraded and "lexical only" in result.degraded
    assert "model file not found" in result.degraded


def test_vectors_of_another_dimension_are_skipped_with_a_warning(ws: Workspace) -> None:
    embedder = ws.embedder()
    meta_path = ws.store.vectors(embedder.key, embedder.dimensions).meta_path
    original = meta_path.read_text()
    meta = json.loads(original)
    meta["dim"] = 768
    try:
        meta_path.write_text(json.dumps(meta))
        fresh = Workspace(ws.root)
        result = fresh.search("register a blueprint", k=3)
        assert result.hits and "dimension mismatch" in result.degraded
        assert any("768 dimensions" in w for w in result.warnings)
    finally:
        meta_path.write_text(original)


def test_stale_vectors_are_skipped_with_a_warning(ws: Workspace) -> None:
    conn = ws.store.catalog.conn
    row = ws.search("register a blueprint", k=1, mode="vector").hits[0].chunk
    conn.execute("UPDATE chunks SET vec_hash='stale' WHERE chunk_id=?", (row.chunk_id,))
    try:
        result = Workspace(ws.root).search("register a blueprint", k=5, mode="vector")
        assert row.chunk_id not in [h.chunk.chunk_id for h in result.hits]
        assert any("stale vector" in w for w in result.warnings)
    finally:
        conn.execute("UPDATE chunks SET vec_hash=text_hash WHERE chunk_id=?", (row.chunk_id,))


def test_neighbour_expansion_attaches_adjacent_chunks(ws: Workspace) -> None:
    hit = ws.search("register a blueprint", k=1, neighbours=1).hits[0]
    assert hit.neighbours
    ids = [n.chunk_id for n in hit.neighbours]
    assert hit.chunk.prev_id in ids or hit.chunk.next_id in ids


@pytest.mark.integration  # it runs `athena` in a process
def test_cli_search_json_prints_citations_with_scores(ws: Workspace) -> None:
    proc = subprocess.run([sys.executable, "-m", "athena_lab.cli", "search", "blueprint url prefix",
                           "--path", str(ws.root), "-k", "3", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    hits = json.loads(proc.stdout)
    assert len(hits) == 3 and all("score" in h and "start_line" in h for h in hits)


@pytest.mark.integration  # it runs `athena` in a process
def test_cli_search_human_output_and_bad_kind_error(ws: Workspace) -> None:
    proc = subprocess.run([sys.executable, "-m", "athena_lab.cli", "search", "blueprint", "--path",
                           str(ws.root), "-k", "2"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "blueprints.rst:" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "athena_lab.cli", "search", "x", "--path", str(ws.root),
                           "--kind", "nope"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "unknown kind 'nope'" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.integration  # it runs `athena` in a process
def test_cli_status_and_doctor_report_the_index(ws: Workspace) -> None:
    proc = subprocess.run([sys.executable, "-m", "athena_lab.cli", "status", "--path", str(ws.root), "--json"],
                          capture_output=True, text=True, timeout=300)
    status = json.loads(proc.stdout)
    assert status["counts"]["files"] == 7 and status["embedder"].startswith("all-MiniLM")
    proc = subprocess.run([sys.executable, "-m", "athena_lab.cli", "doctor", "--path", str(ws.root)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout
    assert "[ok ] embedder: all-MiniLM-L6-v2-int8: 384 dimensions" in proc.stdout
    assert "[ok ] vectors" in proc.stdout and "[ok ] lexical" in proc.stdout


@pytest.mark.integration  # it runs `athena` in a process
def test_cli_on_a_folder_without_index_says_what_to_run(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "athena_lab.cli", "search", "x", "--path", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "run `athena index" in proc.stderr


def test_a_who_cites_question_over_a_folder_without_reference_lists_searches_the_text(ws: Workspace) -> None:
    # "where is X referenced" reads as a question about citations; docs have no reference
    # lists, so it is searched as written rather than answered with nothing
    result = ws.search("Where is ProxyFix referenced?", k=3)
    assert result.hits and result.hits[0].chunk.path == "guides/deploy.md"
    assert any("no reference list names ProxyFix" in w for w in result.warnings)
