"""Narrowest locators (issue 12 §1): each quote is found again in its source and cited by
the lines, the cell + lines, or the page + line regions that hold it — on real indexes."""

from __future__ import annotations

import json
import shutil

import pypdfium2 as pdfium
import pytest

from athena_lab.agent.locate import find_lines, narrow, with_evidence
from athena_lab.citations.labels import citation_location
from athena_lab.search.hybrid import citation
from athena_lab.workspace import Workspace
from corpus_files import CORPORA

pytestmark = pytest.mark.unit

LEXICAL = {"embedding.provider": "none"}
NOTEBOOK = {
    "nbformat": 4, "nbformat_minor": 5, "metadata": {},
    "cells": [
        {"id": "c0", "cell_type": "markdown", "metadata": {}, "source": "# Loading sensor data"},
        {"id": "c1", "cell_type": "markdown", "metadata": {}, "source": "We read the readings first."},
        {"id": "c2", "cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
         "source": "import json\nrows = []"},
        {"id": "c3", "cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
         "source": "# smooth the signal\nwindowed = rolling_median(rows, width=7)\nprint(windowed)"},
    ],
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("evidence")
    (root / "sensors.ipynb").write_text(json.dumps(NOTEBOOK))
    (root / "guide.md").write_text("# Guide\n\nIntro line one.\nThe cache keeps\nentries for ten minutes.\n"
                                   "Then it forgets them.\n")
    shutil.copy(CORPORA / "pdfs" / "docling_multi_page.pdf", root / "history.pdf")
    ws = Workspace(root, overrides=LEXICAL)
    ws.index()
    yield ws
    ws.close()


def _cite(ws: Workspace, query: str, path: str) -> dict:
    hit = next(h for h in ws.search(query, k=10).hits if h.chunk.path == path)
    return {"id": 1, **citation(hit, query)}


def test_a_quote_wrapped_over_lines_is_found_by_its_letters():
    lines = ["Intro.", "The `cache` keeps", "entries for ten", "minutes. Then"]
    assert find_lines(lines, "The cache keeps entries for ten minutes.") == (1, 3)
    assert find_lines(lines, "not in there at all, anywhere") is None


def test_an_api_entry_quote_spans_its_name_through_its_description_across_option_lines():
    lines = ["Intro.", ".. confval:: numfig_format", "   :type: :code-py:`dict[str, str]`", "",
             "   A dictionary mapping figure and table", "   to their number formats.", "", "Later."]
    assert find_lines(lines, "numfig_format: A dictionary mapping figure and table to their number formats.") == (1, 5)
    assert find_lines(lines, "other_name: A dictionary mapping figure and table to their number formats.") is None


def test_text_quote_gets_its_exact_lines_and_the_label_names_them(folder):
    cite = _cite(folder, "cache entries minutes", "guide.md")
    [cited] = with_evidence(folder, [cite], [(1, "The cache keeps entries for ten minutes.")])
    assert cited["evidence"] == [{"start_line": 4, "end_line": 5, "quote": "The cache keeps entries for ten minutes."}]
    assert cited["label"] == "guide.md:4\u20135"
    assert cited["start_line"] <= 4 and cited["end_line"] >= 6  # the chunk's own locator stays


def test_a_notebook_quote_names_the_cell_that_holds_it_not_the_chunks_first(folder):
    cite = _cite(folder, "rolling_median windowed", "sensors.ipynb")
    assert cite["cell"] < 3 and cite["end_cell"] == 3  # the chunk spans cells; the quote is in the last
    entry = narrow(folder, cite, "windowed = rolling_median(rows, width=7)")
    assert entry["cell"] == 3 and (entry["start_line"], entry["end_line"]) == (2, 2)
    assert citation_location({**cite, "evidence": [entry]}) == "sensors.ipynb cell 4:2"


def test_a_pdf_quote_names_the_page_it_is_printed_on_and_its_line_regions(folder):
    pdf = pdfium.PdfDocument(str(folder.root / "history.pdf"))
    page_two = pdf[1].get_textpage().get_text_range()
    sentence = next(s.strip() for s in page_two.replace("\r\n", " ").split(". ") if len(s) > 60) + "."
    cite = _cite(folder, sentence, "history.pdf")
    cite["pages"] = sorted(set(cite["pages"]) | {1, 2})
    cite["page"] = 1
    entry = narrow(folder, cite, sentence)
    assert entry["page"] == 2 and entry["regions"] and all(r["page"] == 2 for r in entry["regions"])
    assert citation_location({**cite, "evidence": [entry]}) == "history.pdf p. 2"
    page = pdf[1]
    inside = " ".join(page.get_textpage().get_text_bounded(
        left=r["x"], bottom=page.get_height() - r["y"] - r["height"] * 0.7,
        right=r["x"] + r["width"], top=page.get_height() - r["y"] - r["height"] * 0.3) for r in entry["regions"])
    assert sentence.split()[0] in inside and sentence.split()[-1].strip(".") in inside


def test_a_sentence_cut_by_its_chunks_end_is_marked_to_where_it_ends_in_the_file(tmp_path):
    """Issue 31: a long paragraph is split between chunks mid-sentence (Flask's
    tutorial/views.rst: "… as it allows" / "you to change the URL later …"); the quote's
    lines ran to the chunk's end only, so the mark stopped before the sentence ended."""
    shutil.copy(CORPORA / "docs" / "flask" / "docs" / "tutorial" / "views.rst", tmp_path / "views.rst")
    ws = Workspace(tmp_path, overrides=LEXICAL)
    try:
        ws.index()
        source = (tmp_path / "views.rst").read_text().splitlines()
        cut = next(c for c in ws.store.catalog.chunks_for_path("views.rst")
                   if source[c.end_line - 1].rstrip().endswith("as it allows"))
        cite = {"id": 1, "kind": "text", "path": "views.rst", "start_line": cut.start_line,
                "end_line": cut.end_line, "chunk_id": cut.chunk_id}
        quote = "This is preferable to writing the URL directly as it allows"
        where = narrow(ws, cite, quote)
        assert where is not None and where["end_line"] > cut.end_line
        marked = " ".join(line.strip() for line in source[where["start_line"] - 1:where["end_line"]])
        assert quote in marked and "you to change the URL later without changing all code that links to it." in marked
        assert "URL." not in marked.split("links to it.")[1]  # and no further than that sentence's line
    finally:
        ws.close()


def test_a_quote_that_is_not_in_the_source_gets_no_narrower_locator(folder):
    cite = _cite(folder, "cache entries minutes", "guide.md")
    [cited] = with_evidence(folder, [cite], [(1, "A sentence the document never contained at all.")])
    assert "evidence" not in cited and cited["label"] == citation_location(cite)


def test_a_models_claim_is_narrowed_to_the_best_matching_sentence_of_its_chunk(folder):
    from athena_lab.agent.citations import TurnEvidence
    from athena_lab.agent.locate import model_quotes

    evidence = TurnEvidence()
    hit = next(h for h in folder.search("cache entries minutes", k=5).hits if h.chunk.path == "guide.md")
    evidence.add_hit(hit, "cache")
    quotes = model_quotes("Cached entries are kept for ten minutes [1].", evidence)
    assert quotes == [(1, "The cache keeps entries for ten minutes.")]


@pytest.mark.skipif(not __import__("athena_lab.pdf.ocr", fromlist=["x"]).ocr_available(), reason="OCR extra")
def test_an_ocr_quote_is_narrowed_to_its_lines_from_the_stored_chunk(tmp_path):
    """A scanned page's text came from OCR; its quote still gets the regions of its own
    lines (kept in the index), not the whole chunk's, and without running OCR again."""
    shutil.copy(CORPORA / "pdfs" / "scanned_docling_ocr_test.pdf", tmp_path / "scan.pdf")
    ws = Workspace(tmp_path, overrides=LEXICAL)
    ws.index()
    try:
        cite = _cite(ws, "Docling bundles PDF document conversion", "scan.pdf")
        assert any(w.startswith("scanned") for w in cite["warnings"])
        lines = [ln for ln in ws.chunk(cite["chunk_id"]).text.split("\n") if ln.strip()]
        at = next(i for i, ln in enumerate(lines) if "Docling bundles" in ln)
        quote = " ".join(lines[at:at + 2])
        entry = narrow(ws, cite, quote)
        assert entry is not None and entry["page"] == 1
        assert entry["regions"] == cite["regions"][at:at + 2] and len(cite["regions"]) > 2
        assert citation_location({**cite, "evidence": [entry]}) == "scan.pdf p. 1"
    finally:
        ws.close()
