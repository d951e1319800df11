"""The author-block CRF of bench/author_crf.py (measured, not adopted: docs/pdf.md), kept so
its result stays reproducible: the block under a built page's title is cut into words and
marks, weak labels come from a gold record (an initial matches its word), the fitted model
in bench/data loads and reads the built page's names, its reader takes the rules' place in
``paper_record`` for the call only, and fitting and decoding are deterministic (L-BFGS, no
seed)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from athena_lab.pdf import meta
from athena_lab.pdf.layout import Line
from athena_lab.pdf.meta import paper_record
from athena_lab.pdf.pages import PageText

pytest.importorskip("pycrfsuite")

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))
try:
    A = importlib.import_module("author_crf")
    L = importlib.import_module("line_classifier")
finally:
    sys.path.remove(str(BENCH))

pytestmark = pytest.mark.unit

AUTHORS = ["Ada Lovelace", "Alan Turing", "Grace Hopper"]


def line(text: str, x0: float, y0: float, x1: float, y1: float, size: float) -> Line:
    return Line(text=text, boxes=[], bbox=(x0, y0, x1, y1), size=size, bold=False, cells=[text])


def first_page() -> PageText:
    """A conference paper's first page: a title over two lines, a line of names with
    superscripts, an affiliation, an e-mail, then the abstract and the body."""
    lines = [line("Reading Records From the First Page", 150, 90, 462, 108, 17.2),
             line("of Papers Nobody Tuned On", 200, 112, 412, 130, 17.2),
             line("Ada Lovelace^1, A. Turing^2 and Grace Hopper^1*", 170, 150, 442, 162, 12.0),
             line("^1 University of Cambridge  ^2 Bletchley Park", 200, 166, 412, 178, 10.0),
             line("{ada,hopper}@cam.ac.uk", 246, 180, 366, 190, 9.0),
             line("Abstract", 284, 220, 328, 230, 10.0)]
    lines += [line("Some prose of the paper's abstract, set in the body type of the page, line after line.",
                   72, 240 + 12 * i, 540, 250 + 12 * i, 10.0) for i in range(30)]
    return PageText(number=1, width=612, height=792, lines=lines)


def test_the_block_under_the_title_is_cut_into_words_and_marks() -> None:
    page = first_page()
    lines = A.block(page, meta._title_lines(page))
    assert [ln.text for ln in lines] == [ln.text for ln in page.lines[2:5]]  # up to "Abstract"
    toks = [t.text for t in A.tokens(lines)]
    assert toks[:9] == ["Ada", "Lovelace", "^1", ",", "A.", "Turing", "^2", "and", "Grace"]
    assert "{ada,hopper}@cam.ac.uk" in toks


def test_weak_labels_come_from_the_gold_record() -> None:
    page = first_page()
    toks = A.tokens(A.block(page, meta._title_lines(page)))
    tags = A.gold_tags(toks, AUTHORS)
    assert tags is not None
    assert [t.text for t, tag in zip(toks, tags) if tag != "O"] == ["Ada", "Lovelace", "A.", "Turing", "Grace", "Hopper"]
    assert [tag for tag in tags if tag != "O"] == ["B", "I", "B", "I", "B", "I"]
    assert A.gold_tags(toks, ["Ada Lovelace", "Charles Babbage"]) is None  # a name the block lacks


def test_the_stored_model_loads_and_reads_the_names() -> None:
    assert A.MODEL.stat().st_size < 400_000  # small enough to keep in the checkout
    page = first_page()
    names, p = A.Reader(A.MODEL).tag(page, meta._title_lines(page))
    assert names == ["Ada Lovelace", "A. Turing", "Grace Hopper"]
    assert 0.0 < p <= 1.0


def test_the_reader_takes_the_rules_place_in_paper_record_for_the_call_only() -> None:
    page = first_page()
    rules = paper_record({}, page)
    reader = A.Reader(A.MODEL)
    record = L.record({}, page, read_authors=reader.names)
    assert record.authors == ["Ada Lovelace", "A. Turing", "Grace Hopper"]
    assert record.title == rules.title and record.year == rules.year
    assert paper_record({}, page) == rules


def test_fitting_and_decoding_are_deterministic(tmp_path: Path) -> None:
    page = first_page()
    lines = A.block(page, meta._title_lines(page))
    toks = A.tokens(lines)
    data = [(A.features(page, lines, toks), A.gold_tags(toks, AUTHORS))]
    A.fit(data, tmp_path / "a.crfsuite")
    A.fit(data, tmp_path / "b.crfsuite")
    assert (tmp_path / "a.crfsuite").read_bytes() == (tmp_path / "b.crfsuite").read_bytes()
    a, b = A.Reader(tmp_path / "a.crfsuite"), A.Reader(tmp_path / "b.crfsuite")
    assert a.tag(page, meta._title_lines(page)) == b.tag(first_page(), meta._title_lines(first_page()))
    assert A.decode(toks, ["B", "I", "O", "O", "B", "I", "O", "O", "B", "I"] + ["O"] * (len(toks) - 10)) == \
        ["Ada Lovelace", "A. Turing", "Grace Hopper"]
