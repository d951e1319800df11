"""Which lines of a first page are its title and its authors: a learned line classifier.

Bench code, not the package's: measured and not adopted (docs/pdf.md, "A learned line
classifier"), so ``paper_record`` keeps the rules and this stays here for the next attempt.

The record rules of ``athena_lab/pdf/meta.py`` fit the layouts they were tuned on and meet
every fresh collection with new ones (first sight 40–79 %, docs/pdf.md). This reads the same
``PageText`` lines with a small model instead: each line is described by what the page
prints (its type size against the page's body size and its rank among the sizes, where
it sits, the space around it, its words, and the rules' own helpers as yes/no facts:
an organisation, a place, name-shaped, a banner) and scored title / author / other by a
multinomial logistic regression whose weights are ``bench/data/line_model.json`` (fitted by
``bench/line_model.py`` on the hand-checked dev set; inference is plain numpy).

``classify`` gives each line its three probabilities; ``title_run`` picks the title, the
best run of neighbouring title lines in one type; ``author_names`` parses names, with
meta's own name parsers, from the lines scored author. ``record`` is ``paper_record`` with
such readers in place of the rules' choice of the title's lines and their reading of the
names (``reading``: meta's two functions swapped for the call), the rest of the record
(subtitle, the info dictionary's agreement, year, identifiers) the rules'. Used by
``bench/archive_metadata.py --loro``, ``bench/loro_first_sight.py`` and
tests/test_line_classifier.py.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

import numpy as np
from _common import REPO

from athena_lab.pdf import meta
from athena_lab.pdf.layout import Line
from athena_lab.pdf.pages import PageText

CLASSES = ("other", "title", "author")
MODEL = REPO / "bench" / "data" / "line_model.json"

_FEATURES_PER_LINE = (
    "size_ratio", "log_size_ratio", "size_rank", "largest", "above_body", "below_body", "body_size",
    "top", "bottom", "upper_quarter", "upper_half", "centre_offset", "width", "left", "cross_gutter",
    "gap_above", "gap_below", "same_size_above", "same_size_below", "log_words", "one_word",
    "capitalised", "upper", "digits", "at_sign", "email", "org", "place", "names", "name_count",
    "not_title", "title_shaped", "year", "bold", "figure", "note", "index", "first_line",
    "cells", "ends_comma", "stop", "colon", "lower_start", "above_largest", "below_largest",
    "rank_of_line", "chars",
)
_NEIGHBOURS = ("names", "org", "place", "email", "size_ratio", "largest", "title_shaped")
FEATURES = (*_FEATURES_PER_LINE, *(f"prev_{n}" for n in _NEIGHBOURS), *(f"next_{n}" for n in _NEIGHBOURS))


def body_size(lines: list[Line]) -> float:
    """The size most of the page's characters are set in."""
    if not lines:
        return 1.0
    return float(Counter(round(ln.size) for ln in lines for _ in ln.text).most_common(1)[0][0]) or 1.0


def _own(line: Line, page: PageText, body: float, sizes: list[int], top_largest: float) -> dict[str, float]:
    text = line.text.strip()
    words = text.split()
    height = max(page.height, 1.0)
    width = max(page.width, 1.0)
    x0, y0, x1, y1 = line.bbox
    ratio = line.size / body
    rank = sizes.index(round(line.size)) if round(line.size) in sizes else len(sizes)
    names = meta._line_names(line) if words else None
    letters = [w for w in words if w[:1].isalpha()]
    return {
        "size_ratio": min(ratio, 4.0),
        "log_size_ratio": math.log(max(ratio, 0.1)),
        "size_rank": min(rank, 5) / 5,
        "largest": float(rank == 0),
        "above_body": float(ratio >= 1.1),
        "below_body": float(ratio <= 0.92),
        "body_size": min(body, 20.0) / 20,
        "top": y0 / height,
        "bottom": y1 / height,
        "upper_quarter": float(y0 < 0.25 * height),
        "upper_half": float(y0 < 0.5 * height),
        "centre_offset": abs((x0 + x1) / 2 - width / 2) / width,
        "width": (x1 - x0) / width,
        "left": x0 / width,
        "cross_gutter": float(line.column == -1),
        "log_words": math.log1p(len(words)),
        "one_word": float(len(words) == 1),
        "capitalised": sum(w[:1].isupper() for w in letters) / max(len(letters), 1),
        "upper": float(text.isupper()),
        "digits": sum(ch.isdigit() for ch in text) / max(len(text), 1),
        "at_sign": float("@" in text),
        "email": float(bool(meta._EMAIL.search(text))),
        "org": float(meta._org(text)),
        "place": float(meta._place(text)),
        "names": float(names is not None),
        "name_count": min(len(names or []), 6) / 6,
        "not_title": float(bool(meta._NOT_TITLE.match(text))),
        "title_shaped": float(bool(words) and meta._title_shaped(line)),
        "year": float(bool(meta._ANY_YEAR.search(text))),
        "bold": float(line.bold),
        "figure": float(line.figure),
        "note": float(line.note),
        "cells": min(len(line.cells), 6) / 6,
        "ends_comma": float(text.endswith((",", "and"))),
        "stop": float(bool(meta._STOP_AUTHORS.match(text))),
        "colon": float(":" in text),
        "lower_start": float(text[:1].islower()),
        "above_largest": float(y1 <= top_largest),
        "below_largest": float(y0 > top_largest),
        "chars": min(len(text), 200) / 200,
    }


def page_lines(page: PageText | None) -> list[Line]:
    """The lines the classifier reads: the page's lines in printed rows, pieces of one
    printed line that reading order split joined again (as the rules read a title: "Storm"
    "@Twitter" on one baseline is one line), cached on the page."""
    if page is None:
        return []
    cached = _ROWS.get(id(page))
    if cached is None or cached[0] is not page:
        rows = meta._rows(sorted(page.lines, key=lambda ln: (round(ln.bbox[1] / 3), ln.bbox[0])), gap=2.0)
        cached = _ROWS[id(page)] = (page, rows)
        while len(_ROWS) > 64:
            _ROWS.pop(next(iter(_ROWS)))
    return cached[1]


_ROWS: dict[int, tuple[PageText, list[Line]]] = {}


def features(page: PageText | None) -> np.ndarray:
    """One row of ``FEATURES`` per line of ``page_lines(page)``."""
    lines = page_lines(page)
    if page is None or not lines:
        return np.zeros((0, len(FEATURES)))
    body = body_size(lines)
    sizes = sorted({round(ln.size) for ln in lines if ln.bbox[1] < 0.75 * page.height and ln.text.strip()},
                   reverse=True)
    biggest = sizes[0] if sizes else 0
    top_largest = min((ln.bbox[1] for ln in lines if round(ln.size) == biggest), default=0.0)
    own = [_own(ln, page, body, sizes, top_largest) for ln in lines]
    order = sorted(range(len(lines)), key=lambda i: (lines[i].bbox[1], lines[i].bbox[0]))
    rank_of = {i: r for r, i in enumerate(order)}
    rows = []
    for i, line in enumerate(lines):
        f = own[i]
        f["index"] = min(i, 60) / 60
        f["first_line"] = float(i == 0)
        f["rank_of_line"] = min(rank_of[i], 60) / 60
        height = max(line.bbox[3] - line.bbox[1], 1.0)
        prev = _neighbour(lines, i, -1)
        nxt = _neighbour(lines, i, 1)
        f["gap_above"] = min(max((line.bbox[1] - lines[prev].bbox[3]) / height, -1.0), 5.0) / 5 if prev is not None else 1.0
        f["gap_below"] = min(max((lines[nxt].bbox[1] - line.bbox[3]) / height, -1.0), 5.0) / 5 if nxt is not None else 1.0
        f["same_size_above"] = float(prev is not None and abs(lines[prev].size - line.size) < 0.5)
        f["same_size_below"] = float(nxt is not None and abs(lines[nxt].size - line.size) < 0.5)
        for n in _NEIGHBOURS:
            f[f"prev_{n}"] = own[prev][n] if prev is not None else 0.0
            f[f"next_{n}"] = own[nxt][n] if nxt is not None else 0.0
        rows.append([f[name] for name in FEATURES])
    return np.asarray(rows, dtype=float)


def _neighbour(lines: list[Line], i: int, step: int) -> int | None:
    """The line printed right above (``step`` -1) or under (+1) line ``i``: the nearest one
    overlapping it across, else the one before or after it in reading order."""
    line = lines[i]
    best: int | None = None
    best_gap = math.inf
    for j, other in enumerate(lines):
        if j == i or not (other.bbox[0] < line.bbox[2] and line.bbox[0] < other.bbox[2]):
            continue
        gap = line.bbox[1] - other.bbox[3] if step < 0 else other.bbox[1] - line.bbox[3]
        if gap >= -0.3 * max(line.bbox[3] - line.bbox[1], 1.0) and gap < best_gap and \
                (other.bbox[1] < line.bbox[1] if step < 0 else other.bbox[1] > line.bbox[1]):
            best, best_gap = j, gap
    if best is None and 0 <= i + step < len(lines):
        return i + step
    return best


# --- the model ----------------------------------------------------------------------------

Model = dict[str, Any]


@lru_cache(maxsize=1)
def stored_model() -> Model:
    """The weights fitted on all of dev (``bench/line_model.py --write``)."""
    data: Model = json.loads(MODEL.read_text(encoding="utf-8"))
    if tuple(data["features"]) != FEATURES or tuple(data["classes"]) != CLASSES:
        raise ValueError(f"{MODEL.name} was fitted on other features: refit it (bench/line_model.py --write)")
    return data


def probabilities(x: np.ndarray, model: Model) -> np.ndarray:
    """The classes' probabilities of each row of ``x`` (lines × ``FEATURES``)."""
    if not len(x):
        return np.zeros((0, len(CLASSES)))
    z = (x - np.asarray(model["mean"])) / np.asarray(model["scale"])
    logits = z @ np.asarray(model["weights"]) + np.asarray(model["bias"])
    logits -= logits.max(axis=1, keepdims=True)
    e = np.exp(logits)
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


def classify(page: PageText | None, model: Model | None = None) -> np.ndarray:
    """Each line's probabilities of ``CLASSES``, one row per line of ``page_lines(page)``."""
    return probabilities(features(page), model or stored_model())


# --- decoding -----------------------------------------------------------------------------

def title_run(page: PageText | None, probs: np.ndarray) -> list[Line]:
    """The title: the line most likely a title in the page's upper three quarters, with the
    lines right above and under it in its type that are likely title lines too (up to five,
    one contiguous run); none when no line is more likely a title than not."""
    if page is None or not len(probs):
        return []
    lines = page_lines(page)
    t, a_ = CLASSES.index("title"), CLASSES.index("author")
    upper = [i for i, ln in enumerate(lines) if ln.bbox[1] < 0.75 * page.height and ln.text.strip()]
    if not upper:
        return []
    seed = max(upper, key=lambda i: (probs[i, t], -i))
    if probs[seed, t] < 0.5:
        return []
    run = [seed]

    def joins(a: int, b: int) -> bool:
        """Line ``b`` goes on with line ``a`` of the title: right under it, in its type (or
        nearly, when the model is sure of it: a title's last line set a little smaller)."""
        first, then = lines[a], lines[b]
        height = max(first.bbox[3] - first.bbox[1], 1.0)
        gap = then.bbox[1] - first.bbox[3]
        overlap = min(first.bbox[2], then.bbox[2]) - max(first.bbox[0], then.bbox[0])
        alike = abs(first.size - then.size) <= (0.12 if min(probs[a, t], probs[b, t]) < 0.5 else 0.3) \
            * max(first.size, then.size, 1.0)
        return alike and -0.5 * height <= gap <= 1.5 * height and overlap > 0 and probs[b, a_] < 0.9

    while len(run) < 5:
        below = [j for j in upper if j not in run and probs[j, t] >= 0.15 and joins(run[-1], j)]
        if not below:
            break
        run.append(min(below, key=lambda j: lines[j].bbox[1]))
    while len(run) < 5:
        above = [j for j in upper if j not in run and probs[j, t] >= 0.15 and joins(j, run[0])]
        if not above:
            break
        run.insert(0, max(above, key=lambda j: lines[j].bbox[1]))
    return [lines[i] for i in run]


def author_lines(page: PageText | None, probs: np.ndarray, title: list[Line]) -> list[Line]:
    """The lines scored author (more likely an author line than not), not of the title, in
    printed rows' order: under the title's top (when there is a title) and over the first
    heading that ends a byline ("Abstract", "1 Introduction") under it."""
    if page is None or not len(probs):
        return []
    a = CLASSES.index("author")
    rows = page_lines(page)
    top = min((ln.bbox[1] for ln in title), default=0.0)
    end = min((ln.bbox[1] for ln in rows if ln.bbox[1] > top and _ENDS_BYLINE.match(ln.text.strip())),
              default=0.8 * page.height)
    chosen = [ln for i, ln in enumerate(rows)
              if probs[i, a] >= 0.5 and ln not in title and top <= ln.bbox[1] < min(end, 0.8 * page.height)]
    return meta._in_rows(chosen)


# A heading after which no byline goes on: meta's stop words, and a numbered section's
# heading ("I. Introduction", "1 Introduction")
_ENDS_BYLINE = re.compile(r"^(?:(?:[IVX]+|\d+)\.?\s+)?(?:abstract|summary|introduction|keywords|key words|"
                          r"index terms|contents)\b", re.I)


def author_names(lines: list[Line]) -> list[str]:
    """The names on the author lines, parsed with the rules' parsers (a line of names, a
    list wrapped over two lines, names beside their affiliations)."""
    names: list[str] = []
    skip = False
    for i, line in enumerate(lines):
        if skip:
            skip = False
            continue
        found = meta._line_names(line) or meta._names_beside_affiliations(line.cells)
        if found is None and i + 1 < len(lines) and _follows(line, lines[i + 1]):
            found = meta._names(f"{line.text.strip()} {lines[i + 1].text.strip()}")
            skip = found is not None
        names.extend(n for n in found or [] if n not in names)
    return names[:100]


def _follows(line: Line, then: Line) -> bool:
    """``then`` goes on with ``line``: the same type, right under it, starting near it."""
    height = max(line.bbox[3] - line.bbox[1], 1.0)
    return abs(line.size - then.size) < 0.5 and -0.2 * height <= then.bbox[1] - line.bbox[3] < 1.5 * height \
        and abs(then.bbox[0] - line.bbox[0]) < 0.5 * (line.bbox[2] - line.bbox[0])


# --- the record ---------------------------------------------------------------------------

TitleReader = Callable[[PageText | None], list[Line]]
AuthorReader = Callable[[PageText | None, list[Line]], list[str]]


@contextmanager
def reading(read_title: TitleReader | None = None, read_authors: AuthorReader | None = None) -> Iterator[None]:
    """Within the block, ``meta.paper_record`` takes its title's lines from ``read_title``
    (in place of ``meta._title_lines``) and the names under them from ``read_authors`` (in
    place of ``meta._page_authors``); both are put back after. A reader that needs the rules'
    own answer takes the functions before the block (``rules_readers``)."""
    # the rules' own reader also takes the file's name (a pointer to the title's lines):
    # the classifier's readers read the page alone
    by_page = (lambda page, file_name="": read_title(page)) if read_title is not None else None
    swap = {"_title_lines": by_page, "_page_authors": read_authors}
    saved = {name: getattr(meta, name) for name in swap}
    try:
        for name, reader in swap.items():
            if reader is not None:
                setattr(meta, name, reader)
        yield
    finally:
        for name, function in saved.items():
            setattr(meta, name, function)


def rules_readers() -> tuple[TitleReader, AuthorReader]:
    """The rules' choice of the title's lines and their reading of the names under them."""
    return meta._title_lines, meta._page_authors


def record(info: dict[str, str], first: PageText | None, file_name: str = "", after: PageText | None = None, *,
           read_title: TitleReader | None = None, read_authors: AuthorReader | None = None) -> meta.PaperRecord:
    """``meta.paper_record`` with ``read_title`` / ``read_authors`` (``reading``)."""
    with reading(read_title, read_authors):
        return meta.paper_record(info, first, file_name, after)


# --- labels from the gold -----------------------------------------------------------------

def _norm(text: str | None) -> str:
    return meta._key(text or "")


def gold_labels(page: PageText | None, title: str | None, authors: list[str]) -> list[int]:
    """Weak labels of the page's lines from a hand-checked record: title lines are the
    longest run of neighbouring lines whose text is part of the gold title; author lines
    name one of the gold authors (a surname as a word, and not a line of prose)."""
    if page is None:
        return []
    lines = page_lines(page)
    labels = [0] * len(lines)
    gold = _norm(title)
    if gold:
        hits = [len(_norm(ln.text)) >= min(4, len(gold)) and _norm(ln.text) in gold
                and ln.bbox[1] < 0.8 * page.height for ln in lines]
        runs: list[list[int]] = []
        for i, hit in enumerate(hits):
            if hit and runs and runs[-1][-1] == i - 1:
                runs[-1].append(i)
            elif hit:
                runs.append([i])
        if runs:
            best = max(runs, key=lambda r: (sum(len(_norm(lines[i].text)) for i in r), -r[0]))
            if sum(len(_norm(lines[i].text)) for i in best) >= 0.5 * len(gold):
                for i in best:
                    labels[i] = CLASSES.index("title")
    surnames = {_norm(meta._surname(a).split()[-1]) for a in authors if a.split()} - {""}
    for i, line in enumerate(lines):
        if labels[i] or line.bbox[1] > 0.8 * page.height:
            continue
        words = {_norm(w) for w in re.split(r"[\s,;&·•]+", line.text)}
        if surnames & words and len(line.text.split()) <= 30 and \
                not re.search(r"©|copyright|permission|\baddress", line.text, re.I):
            labels[i] = CLASSES.index("author")
    return labels
