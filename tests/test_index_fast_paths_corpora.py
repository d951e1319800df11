"""Issue 30's indexing fast paths on every text of the shared corpora and on the synthetic
archive of bench/scale.py: the same identifiers as the regex over the whole text, and the
same Markdown chunks as with markdown-it's inline parse of every heading (the quick sample
and the edges are in tests/test_index_fast_paths.py)."""

from __future__ import annotations

import importlib
import json
import random
import sys
from pathlib import Path

import pytest

from athena_lab.index import lexical
from athena_lab.ingest.chunking import chunk_document
from athena_lab.ingest.parsers import markdown
from corpus_files import CORPORA, REPO
from test_index_fast_paths import _chunks_without_the_heading_shortcut, _reference

pytestmark = pytest.mark.slow


def _corpus_texts() -> list[str]:
    docs = sorted(p for p in (CORPORA / "docs").rglob("*")
                  if p.suffix in {".md", ".rst", ".py", ".html", ".txt", ".ipynb", ".adoc", ".utf8"})
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in docs]
    with (CORPORA / "scifact" / "corpus.jsonl").open(encoding="utf-8") as f:
        texts += [json.loads(line)["text"] for line in f]
    return texts


def test_identifiers_are_the_same_on_every_text_of_the_corpora() -> None:
    texts = _corpus_texts()
    for text in texts:
        assert lexical.identifiers(text) == _reference(text)
    assert len(texts) > 5000


def _synthetic_archive(tmp_path: Path) -> list[Path]:
    sys.path.insert(0, str(REPO / "bench"))
    try:
        scale = importlib.import_module("scale")
    finally:
        sys.path.remove(str(REPO / "bench"))
    pool = scale.sentences()
    scale.write_archive(tmp_path, 2_000, random.Random(30).sample(pool, 5_000))
    return sorted(tmp_path.rglob("*.md"))


def test_synthetic_archive_gives_the_same_identifiers_and_chunks(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    pages = _synthetic_archive(tmp_path)
    chunks = 0
    for page in pages:
        text = page.read_text(encoding="utf-8")
        ours = chunk_document(markdown.parse(text, page.name))
        assert ours == _chunks_without_the_heading_shortcut(text, page.name, monkeypatch)
        for c in ours:
            assert lexical.identifiers(f"{c.heading}\n{c.text}") == _reference(f"{c.heading}\n{c.text}")
        chunks += len(ours)
    assert len(pages) == 200 and chunks >= 1_900


def test_every_markdown_file_of_the_corpora_gives_the_same_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    files = sorted((CORPORA / "docs").rglob("*.md"))
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        relative = str(path.relative_to(CORPORA))
        assert chunk_document(markdown.parse(text, relative)) == \
            _chunks_without_the_heading_shortcut(text, relative, monkeypatch), relative
    assert len(files) > 200
