"""The line classifier of bench/line_classifier.py (measured, not adopted: docs/pdf.md), kept
so its negative result stays reproducible: the weights in bench/data load and fit its
features, a built first page's title and author lines are scored right, the title decodes
as one contiguous run, weak labels come from a gold record, its readers take the rules'
place in ``paper_record`` (and only for the call), and the same page and data give the same
answer every time (bench/line_model.py fits it)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import numpy as np
import pytest

from athena_lab.pdf import meta
from athena_lab.pdf.layout import Line
from athena_lab.pdf.meta import paper_record
from athena_lab.pdf.pages import PageText

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))
try:
    L = importlib.import_module("line_classifier")
    line_model = importlib.import_module("line_model")
finally:
    sys.path.remove(str(BENCH))

pytestmark = pytest.mark.unit


def line(text: str, x0: float, y0: float, x1: float, y1: float, size: float) -> Line:
    return Line(text=text, boxes=[], bbox=(x0, y0, x1, y1), size=size, bold=False, cells=[text])


def first_page() -> PageText:
    """A conference paper's first page: a title over two lines, a line of names, an
    affiliation, an e-mail, then the abstract and the body in one column."""
    lines = [line("Reading Records From the First Page", 150, 90, 462, 108, 17.2),
             line("of Papers Nobody Tuned On", 200, 112, 412, 130, 17.2),
             line("Ada Lovelace, Alan Turing and Grace Hopper", 170, 150, 442, 162, 12.0),
             line("University of Cambridge", 236, 166, 376, 178, 10.0),
             line("{ada,alan}@cam.ac.uk", 246, 180, 366, 190, 9.0),
             line("Abstract", 284, 220, 328, 230, 10.0)]
    lines += [line("Some prose of the paper's abstract, set in the body type of the page, line after line.",
                   72, 240 + 12 * i, 540, 250 + 12 * i, 10.0) for i in range(30)]
    return PageText(number=1, width=612, height=792, lines=lines)


def test_the_weights_load_and_fit_the_features() -> None:
    model = L.stored_model()
    assert tuple(model["features"]) == L.FEATURES and tuple(model["classes"]) == L.CLASSES
    assert np.asarray(model["weights"]).shape == (len(L.FEATURES), len(L.CLASSES))
    assert len(model["mean"]) == len(model["scale"]) == len(L.FEATURES)
    assert L.MODEL.stat().st_size < 50_000  # small enough to keep in the checkout


def test_a_built_pages_title_and_author_lines_are_classified_right() -> None:
    page = first_page()
    probs = L.classify(page)
    rows = L.page_lines(page)
    assert probs.shape == (len(rows), len(L.CLASSES))
    assert np.allclose(probs.sum(axis=1), 1.0)
    best = [L.CLASSES[int(i)] for i in probs.argmax(axis=1)]
    assert best[:2] == ["title", "title"]
    assert best[2] == "author"
    assert set(best[3:]) == {"other"}


def test_decoding_picks_one_contiguous_title_run_and_the_names() -> None:
    page = first_page()
    probs = L.classify(page)
    title = L.title_run(page, probs)
    assert [ln.text for ln in title] == ["Reading Records From the First Page", "of Papers Nobody Tuned On"]
    authors = L.author_names(L.author_lines(page, probs, title))
    assert authors == ["Ada Lovelace", "Alan Turing", "Grace Hopper"]


def test_a_run_stops_at_a_line_out_of_its_place() -> None:
    """Only lines right under or over the run, in its type, join it: a title-like line far
    down the page does not, whatever the model says of it."""
    page = first_page()
    rows = L.page_lines(page)
    probs = np.tile([0.0, 0.0, 1.0], (len(rows), 1))
    probs[0] = probs[1] = probs[10] = [0.0, 1.0, 0.0]
    assert L.title_run(page, probs) == rows[:2]
    probs[:] = [1.0, 0.0, 0.0]
    assert L.title_run(page, probs) == []


def test_weak_labels_come_from_the_gold_record() -> None:
    page = first_page()
    labels = L.gold_labels(page, "Reading Records from the First Page of Papers Nobody Tuned On",
                           ["Ada Lovelace", "Alan Turing", "Grace Hopper"])
    assert labels[:4] == [1, 1, 2, 0] and set(labels[4:]) == {0}


def test_the_readers_take_the_rules_place_in_paper_record_for_the_call_only() -> None:
    page = first_page()
    probs = L.classify(page)
    rules = paper_record({}, page)
    record = L.record({}, page, read_title=lambda p: L.title_run(p, probs),
                      read_authors=lambda p, t: L.author_names(L.author_lines(p, probs, t)))
    assert record.title == "Reading Records From the First Page of Papers Nobody Tuned On"
    assert record.authors == ["Ada Lovelace", "Alan Turing", "Grace Hopper"]
    # the readers are what the record is read with (meta still calls the two functions it swaps)
    record = L.record({}, page, read_title=lambda p: [], read_authors=lambda p, t: ["Charles Babbage"])
    assert not record.title and record.authors == ["Charles Babbage"]
    assert paper_record({}, page) == rules
    assert L.rules_readers() == (meta._title_lines, meta._page_authors)


def test_the_whole_path_is_deterministic() -> None:
    """The same page scores the same; the same data fit the same weights (Newton's method
    from zero: no seed)."""
    page = first_page()
    assert np.array_equal(L.classify(page), L.classify(first_page()))
    x = L.features(page)
    y = np.asarray(L.gold_labels(page, "Reading Records from the First Page of Papers Nobody Tuned On",
                                 ["Ada Lovelace", "Alan Turing", "Grace Hopper"]))
    assert line_model.fit(x, y, steps=8) == line_model.fit(x, y, steps=8)
