"""Reading order: columns, lines, hyphenation.

Columns are found from vertical gutters — x ranges no narrow fragment crosses — that
split the page into sides full of long text lines. Table columns also leave gutters, so
a side only counts as a text column when its fragments look like prose (long, many);
otherwise a table would be read cell column by cell column. Lines that cross a gutter
(titles, full-width figures and captions) cut the page into bands; each band is read
column by column, bands top to bottom. A page with no gutter as a whole is tried block
by block (a figure or table across the gutter hides it only above the body).
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np
from dataclasses import dataclass, field

from .extract import Char, Fragment, median, strip_spaces
from .maths import compose

Box = tuple[float, float, float, float]  # x0, y0, x1, y1, top-left origin


@dataclass
class Line:
    """One text line of a page; ``boxes[i]`` is the box of ``text[i]``."""

    text: str
    boxes: list[Box]
    bbox: Box  # of the characters printed on this line (after hyphen repair too)
    size: float
    bold: bool
    cells: list[str] = field(default_factory=list)  # fragments split at wide gaps
    column: int = 0  # -1 for a line crossing a gutter
    band: int = 0
    note: bool = False  # opens with a footnote mark: a footnote's first line
    figure: bool = False  # a label printed on a picture (pages.mark_figure_text)

    def region(self) -> dict[str, float]:
        x0, y0, x1, y1 = self.bbox
        return {"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0}


def find_columns(frags: list[Fragment]) -> list[tuple[float, float]]:
    """x intervals of the page's text columns; one interval when the page is a single column."""
    if not frags:
        return []
    left, right = min(f.x0 for f in frags), max(f.x1 for f in frags)
    width = right - left
    narrow = [f for f in frags if f.x1 - f.x0 < 0.6 * width]
    gutters = _gutters(narrow, left, right)
    while gutters:
        columns = _intervals(left, right, gutters)
        bad = [i for i, col in enumerate(columns) if not _is_text_column(col, frags, width)]
        if not bad:
            return columns
        gutters = _drop_gutter_next_to(gutters, columns, bad[0])
    return [(left, right)]


def _gutters(frags: list[Fragment], left: float, right: float) -> list[tuple[float, float]]:
    """Runs of x (at least 5 pt wide, inside the text area) crossed by few fragments.

    A tenth of the fragments may cross: centred author lines, page numbers and short
    titles cross a real gutter; column validation then rejects gutters found by chance.
    """
    step = 1.0
    n = int((right - left) / step) + 1
    delta = np.zeros(n + 1, dtype=np.int64)
    for f in frags:
        delta[int((f.x0 - left) / step)] += 1
        delta[min(n, int((f.x1 - left) / step) + 1)] -= 1
    cover = np.cumsum(delta)[:n].tolist()
    tolerance = max(1, int(0.1 * len(frags)))
    runs: list[tuple[float, float]] = []
    start = None
    for i, count in enumerate(cover + [tolerance + 1]):
        if count <= tolerance and start is None:
            start = i
        elif count > tolerance and start is not None:
            if (i - start) * step >= 5 and start > 0 and i < n:
                runs.append(_emptiest(cover, start, i, left, step))
            start = None
    return runs


def _emptiest(cover: list[int], start: int, stop: int, left: float, step: float) -> tuple[float, float]:
    """The least-crossed stretch of a low-coverage run: the run itself is wider than the
    real gutter because a few long column lines reach into it."""
    low = min(cover[start:stop])
    first = next(i for i in range(start, stop) if cover[i] == low)
    last = first
    while last + 1 < stop and cover[last + 1] == low:
        last += 1
    return left + first * step, left + (last + 1) * step


def _intervals(left: float, right: float, gutters: list[tuple[float, float]]) -> list[tuple[float, float]]:
    edges = [left] + [x for g in gutters for x in g] + [right]
    return [(edges[i], edges[i + 1]) for i in range(0, len(edges), 2)]


def _is_text_column(col: tuple[float, float], frags: list[Fragment], page_width: float) -> bool:
    inside = [f for f in frags if f.x0 >= col[0] - 1 and f.x1 <= col[1] + 1]
    if len(inside) < 5 or col[1] - col[0] < max(90.0, 0.15 * page_width):
        return False
    prose = [f for f in inside if f.x1 - f.x0 >= 0.5 * (col[1] - col[0]) and len(f.chars) >= 15]
    return len(prose) >= 5 and len(prose) >= 0.25 * len(inside)


def _drop_gutter_next_to(gutters: list[tuple[float, float]], columns: list[tuple[float, float]],
                         index: int) -> list[tuple[float, float]]:
    """Merge a failing column with its narrower neighbour by removing the gutter between."""
    if index == 0:
        drop = 0
    elif index == len(columns) - 1:
        drop = index - 1
    else:
        left_w = columns[index - 1][1] - columns[index - 1][0]
        right_w = columns[index + 1][1] - columns[index + 1][0]
        drop = index - 1 if left_w <= right_w else index
    return gutters[:drop] + gutters[drop + 1:]


def column_of(frag: Fragment, columns: list[tuple[float, float]]) -> int:
    for i, (lo, hi) in enumerate(columns):
        if frag.x0 >= lo - 3 and frag.x1 <= hi + 3:
            return i
    return -1


def reading_order(frags: list[Fragment], rules: list[Box] | None = None) -> list[Line]:
    """Lines of the page in reading order, hyphenation repaired, maths composed.

    ``rules`` are the page's thin horizontal strokes (fraction bars; see ``maths``).

    When the page as a whole shows no gutter, its blocks are tried one by one: a figure
    or table with text across the gutter, or an author block above a two-column body,
    hides the gutter of the page but not that of the block below it.
    """
    columns = find_columns(frags)
    blocks = [(frags, columns)]
    if len(columns) == 1:
        split = [(zone, find_columns(zone)) for zone in _zones(frags)]
        if any(len(cols) > 1 for _, cols in split):
            blocks = split
    lines: list[Line] = []
    for block, cols in blocks:
        lines.extend(_read_block(block, cols, first_band=lines[-1].band + 2 if lines else 0,
                                 rules=rules or []))
    return repair_hyphenation(lines)


def _read_block(frags: list[Fragment], columns: list[tuple[float, float]], first_band: int,
                rules: list[Box]) -> list[Line]:
    if len(columns) > 1:
        frags = [piece for frag in frags for piece in _split_at_gutters(frag, columns)]
    grouped: dict[int, list[_Row]] = {}
    for frag in sorted(frags, key=lambda f: f.core[0] + f.core[1]):
        rows = grouped.setdefault(column_of(frag, columns) if len(columns) > 1 else 0, [])
        row = next((r for r in reversed(rows[-3:]) if r.takes(frag)), None)
        if row is None:
            rows.append(_Row(frag))
        else:
            row.add(frag)
    lines = [_make_line(row.frags, col, row.satellites, rules)
             for col, rows in grouped.items() for row in _attach_satellites(rows)]
    return _order_bands(lines, first_band)


def _attach_satellites(rows: list[_Row]) -> list[_Row]:
    """Fold the pieces of a formula printed above or below a line into it.

    A numerator, a denominator or a lowered subscript is its own row (its band barely
    overlaps the line's), so it would read as a line of its own and cut the sentence
    around it. A short row whose box touches a longer row's box, whose centre is within
    a line height of it, and which is set small or sits in a gap of that row belongs to it.
    """
    stats = {id(r): _RowStats(r) for r in rows}
    hosts = {id(row): _host(row, rows, stats) for row in rows}
    for row in rows:
        host = hosts[id(row)]
        if host is not None and hosts[id(host)] is not None:  # no chains: a host stays a line
            hosts[id(row)] = None
    _keep_fractions_whole(rows, hosts)
    out: list[_Row] = []
    for row in rows:
        host = hosts[id(row)]
        if host is None:
            out.append(row)
        else:
            host.satellites.extend(c for f in row.frags for c in f.chars if c.text != " ")
    return out


def _keep_fractions_whole(rows: list[_Row], hosts: dict[int, _Row | None]) -> None:
    """A full-size piece above or below a line is half of a display fraction: without a
    piece on the other side (a numerator too long to fold in) it stays a line of its own,
    or the denominator would read as a subscript at the line's end."""
    for host in {id(h): h for h in hosts.values() if h is not None}.values():
        mine = [r for r in rows if hosts[id(r)] is host]
        line_size = median([c.size for c in host.main.chars if c.text != " "])
        centre = (host.main.core[0] + host.main.core[1]) / 2
        full = [r for r in mine if median([c.size for f in r.frags for c in f.chars if c.text != " "])
                >= 0.85 * line_size]
        above = [r for r in full if (r.main.core[0] + r.main.core[1]) / 2 < centre]
        below = [r for r in full if r not in above]
        if not above or not below:
            for r in full:
                hosts[id(r)] = None


class _RowStats:
    """What ``_host`` compares of every row, computed once per row, not once per pair."""

    def __init__(self, row: _Row) -> None:
        self.box = row.box()
        self.centre = (row.main.core[0] + row.main.core[1]) / 2
        self.size = median([c.size for c in row.main.chars if c.text != " "] or [0.0])


def _host(row: _Row, rows: list[_Row], stats: dict[int, _RowStats]) -> _Row | None:
    if not 0 < sum(f.printed for f in row.frags) <= 25:
        return None
    chars = [c for f in row.frags for c in f.chars if c.text != " "]
    y0, y1 = min(c.y0 for c in chars), max(c.y1 for c in chars)
    best: tuple[float, _Row] | None = None
    mid = size = 0.0
    for other in rows:
        ox0, oy0, ox1, oy1 = stats[id(other)].box
        # min(y1, oy1) <= max(y0, oy0), spelt out: rows are compared pairwise
        if other is row or (oy1 if oy1 < y1 else y1) <= (oy0 if oy0 > y0 else y0) \
                or len(other.main.chars) <= len(chars):
            continue
        if not mid:
            mid = median([(c.y0 + c.y1) / 2 for c in chars])
            size = median([c.size for c in chars])
        line_size = stats[id(other)].size
        distance = abs(mid - stats[id(other)].centre)
        if distance > line_size:
            continue
        if min(c.x0 for c in chars) < ox0 - 2 or max(c.x1 for c in chars) > ox1 + 2:
            continue
        if size >= 0.85 * line_size and _covered(chars, other) > 0.3:
            continue
        if best is None or distance < best[0]:
            best = (distance, other)
    # (judged last, for the few rows that have a line to fold into)
    return best[1] if best and not _words(row) else None


def _words(row: _Row) -> bool:
    """A piece of prose is a line, not a formula's piece: an ACM byline sets each name's
    affiliation ("Google, Inc.") small and so close under it that their boxes touch, and
    folded into the name's line it read "MattGoogle,hewErInc.icOtey". Judged by the row's
    own runs: one holding two words of three letters or more, letters most of it. A row
    gathers every script at one height across its line ("train" and "test" of D_train and
    D_test, "prod" and "CausE"), each a run of one word, which still fold in."""
    for frag in row.frags:
        text = frag.text
        words = re.findall(r"[^\W\d_]{3,}", text)
        printed = sum(1 for ch in text if not ch.isspace())
        if len(words) >= 2 and sum(len(w) for w in words) >= 0.6 * printed:
            return True
    return False


def _covered(chars: list[Char], row: _Row) -> float:
    """Share of the characters' width that the row's own characters also cover."""
    width = sum(c.x1 - c.x0 for c in chars) or 1.0
    spans = [(c.x0, c.x1) for f in row.frags for c in f.chars if c.text != " "]
    return sum(max((min(c.x1, b) - max(c.x0, a) for a, b in spans), default=0.0) for c in chars
               if any(min(c.x1, b) > max(c.x0, a) for a, b in spans)) / width


def _zones(frags: list[Fragment]) -> list[list[Fragment]]:
    """The page's blocks, top to bottom: cut where a blank strip runs across the whole
    text width (taller than a line of text), and before a fragment that spans most of
    that width (a caption, a full-width title or table row) unless one such opened the
    block: a run of them and its short last line stay together."""
    if not frags:
        return []
    left, right = min(f.x0 for f in frags), max(f.x1 for f in frags)
    wide = 0.6 * (right - left)
    line = median([f.core[1] - f.core[0] for f in frags])
    zones: list[list[Fragment]] = []
    bottom: float | None = None
    for frag in sorted(frags, key=lambda f: f.y0):
        spanning = frag.x1 - frag.x0 >= wide
        in_spanning = bool(zones) and zones[-1][0].x1 - zones[-1][0].x0 >= wide
        # A run of spanning lines (a caption, a wide paragraph) and the short line that
        # ends it stay one block: one paragraph, its hyphenated words joined.
        starts = bottom is None or frag.y0 - bottom >= line or (spanning and not in_spanning)
        if starts:
            zones.append([frag])
            bottom = frag.y1
        else:
            zones[-1].append(frag)
            bottom = frag.y1 if bottom is None else max(bottom, frag.y1)
    return zones


def _split_at_gutters(frag: Fragment, columns: list[tuple[float, float]]) -> list[Fragment]:
    """Cut a fragment at the word gap inside a gutter: narrow gutters are barely wider
    than a word gap, so two columns can arrive as one fragment. Kept whole (a spanning
    line) unless every piece then fits a column."""
    if column_of(frag, columns) != -1:
        return [frag]
    cuts = []
    for left, right in zip(columns, columns[1:]):
        middle = (left[1] + right[0]) / 2
        spaces = [j for j, c in enumerate(frag.chars)
                  if c.text == " " and left[1] - 3 <= (c.x0 + c.x1) / 2 <= right[0] + 3]
        if spaces:
            cuts.append(min(spaces, key=lambda j: abs((frag.chars[j].x0 + frag.chars[j].x1) / 2 - middle)))
    bounds = [0] + cuts + [len(frag.chars)]
    pieces = [strip_spaces(frag.chars[a:b]) for a, b in zip(bounds, bounds[1:])]
    pieces = [p for p in pieces if p.chars]
    if all(column_of(p, columns) != -1 for p in pieces):
        return pieces
    return [frag]


class _Row:
    """Fragments sharing a baseline band.

    The band is that of the row's longest fragment: growing it with every joiner would
    let a tall symbol (√, ∑) or a subscript bridge two lines into one.
    """

    def __init__(self, frag: Fragment) -> None:
        self.frags = [frag]
        self.main = frag
        self.satellites: list[Char] = []  # formula pieces above/below, see _attach_satellites

    def box(self) -> Box:
        return (min(f.x0 for f in self.frags), min(f.y0 for f in self.frags),
                max(f.x1 for f in self.frags), max(f.y1 for f in self.frags))

    def takes(self, frag: Fragment) -> bool:
        (a0, a1), (b0, b1) = self.main.core, frag.core
        return min(a1, b1) - max(a0, b0) >= 0.5 * min(a1 - a0, b1 - b0)

    def add(self, frag: Fragment) -> None:
        self.frags.append(frag)
        if len(frag.chars) > len(self.main.chars):
            self.main = frag


def _cells(chars: list[Char], row: list[Fragment]) -> list[str]:
    """The line's text split where each fragment after the first begins, scripts written as
    the line's text writes them: a byline's names set apart with a raised letter each
    ("Claudio Bettini^y   X. Sean Wang^z") keep the caret that marks the letter as no part
    of the name."""
    if len(row) < 2:
        return [f.text for f in row]
    starts = {id(f.chars[0]) for f in row[1:] if f.chars}
    cells: list[str] = []
    cell: list[str] = []
    for c in chars:
        if id(c) in starts and cell:
            cells.append("".join(cell).strip())
            cell = []
        cell.append(c.text)
    cells = [c for c in cells + ["".join(cell).strip()] if c]
    if len(cells) != len(row):
        return [f.text for f in row]
    # (only a piece that ends in one raised mark after a name's word, its letters as they were: where
    # compose moved or dropped a character, a footnote's star that parts two names, "Sanjeev
    # Setia∗ Sushil Jajodia", or wrote a formula's or a table's script, "Area (km^2)", the piece
    # keeps its own text)
    return [c if _NAME_MARK.search(c) and _unmarked(c) == _unmarked(f.text) else f.text for c, f in zip(cells, row)]


_NAME_MARK = re.compile(r"(?:^|\s)[A-Z][a-z'’-]+\^(?:[^\s()]|\([^\s()]{1,3}\))$")  # (not a formula's "S^2", "β^(SLE)")


def _unmarked(text: str) -> str:
    return re.sub(r"[\s^()]", "", text)


def _make_line(row: list[Fragment], column: int, satellites: list[Char] | None = None,
               rules: list[Box] | None = None) -> Line:
    rtl = _right_to_left(row)
    row = sorted(row, key=lambda f: f.x0, reverse=rtl)
    chars: list[Char] = []
    for frag in row:
        if chars:
            prev = chars[-1]
            chars.append(Char(" ", prev.x1, prev.y0, max(prev.x1, frag.x0), prev.y1, prev.size, prev.bold))
        chars.extend(frag.chars)
    note = False
    glyphs = {id(c) for c in chars + (satellites or [])}
    if not rtl:
        chars, note = compose(chars + (satellites or []), rules or [])
    printed = [c for c in chars if c.text != " "]
    # the line's type is its glyphs': the carets and brackets compose writes around a script
    # are set in the script's size, and a run of them (a CACM section's label read into a
    # title's line, "^(Syst)Co^(em)n^scurrent ^(Editor)Reading") would make the median a
    # script's (the glyphs compose kept, by identity: the footnote marks it drops count as
    # little as the signs it writes)
    glyph_sizes = [c.size for c in printed if id(c) in glyphs]
    texts = [c.text for c in chars]
    text = "".join(texts)
    boxes: list[Box]
    if len(text) == len(chars) and "" not in texts:  # one code point each
        boxes = [(c.x0, c.y0, c.x1, c.y1) for c in chars]
    else:
        boxes = []
        for c in chars:  # one box per code point: a ligature's letters share theirs
            boxes.extend([(c.x0, c.y0, c.x1, c.y1)] * len(c.text))
    letters = [c.bold for c in printed if c.text.isalpha()]
    return Line(
        text=text,
        boxes=boxes,
        bbox=(min([c.x0 for c in printed]), min([c.y0 for c in printed]),
              max([c.x1 for c in printed]), max([c.y1 for c in printed])),
        size=median(glyph_sizes or [c.size for c in printed]),
        bold=all(letters) and bool(letters),
        cells=_cells(chars, row) if not satellites else [text],
        column=column,
        note=note,
    )


def _right_to_left(row: list[Fragment]) -> bool:
    """Most letters Arabic/Hebrew: the row's pieces read from the right."""
    texts = [c.text for f in row for c in f.chars]
    if not texts or max(texts) < "\u0590":
        return False  # no character opens with a code point of a right-to-left script
    letters = [c.text[0] for f in row for c in f.chars if c.text[:1].isalpha()]
    rtl = sum(1 for ch in letters if unicodedata.bidirectional(ch) in ("R", "AL"))
    return rtl > len(letters) / 2


def _order_bands(lines: list[Line], first_band: int = 0) -> list[Line]:
    """Top to bottom by band; inside a band, column by column."""
    lines = sorted(lines, key=lambda ln: ln.bbox[1])
    out: list[Line] = []
    band: list[Line] = []
    number = first_band
    for line in lines:
        if line.column != -1:
            band.append(line)
            continue
        # Spanning lines in a row (a caption, a wide paragraph) share one band, so they
        # read as one paragraph and a word hyphenated across them is joined.
        if band or not out or out[-1].column != -1:
            out.extend(_flush(band, number))
            band = []
            number += 2
        line.band = number - 1
        out.append(line)
    out.extend(_flush(band, number))
    return out


def _flush(band: list[Line], number: int) -> list[Line]:
    for line in band:
        line.band = number
    return sorted(band, key=lambda ln: (ln.column, ln.bbox[1]))


def repair_hyphenation(lines: list[Line]) -> list[Line]:
    """Join a word split across two lines of the same column onto the first line.

    The moved characters keep their own boxes, so the character map stays exact; the
    line's rectangle stays the one it is printed in. Soft hyphens are invisible breaks
    and are dropped everywhere.
    """
    out: list[Line] = []
    for line in lines:
        prev = out[-1] if out else None
        if prev is not None and _continues(prev, line):
            _join(prev, line)
            if not line.text:
                continue
        out.append(line)
    for line in out:
        _drop_soft_hyphens(line)
    return [ln for ln in out if ln.text.strip()]


def _continues(prev: Line, line: Line) -> bool:
    text = prev.text
    return (len(text) >= 2 and text[-1] in "-\u00ad" and text[-2].isalpha()
            and line.text[:1].islower() and prev.column == line.column and prev.band == line.band)


def _join(prev: Line, line: Line) -> None:
    cut = line.text.find(" ")
    cut = len(line.text) if cut < 0 else cut
    prev.text = prev.text[:-1] + line.text[:cut]
    prev.boxes = prev.boxes[:-1] + line.boxes[:cut]
    rest = cut + 1 if cut < len(line.text) else cut
    line.text, line.boxes = line.text[rest:], line.boxes[rest:]
    if line.cells:
        line.cells[0] = line.cells[0][min(len(line.cells[0]), rest):]
        line.cells = [c for c in line.cells if c]
    if not line.text:
        prev.bbox = _union(prev.bbox, line.bbox)


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _drop_soft_hyphens(line: Line) -> None:
    if "\u00ad" not in line.text:
        return
    keep = [i for i, ch in enumerate(line.text) if ch != "\u00ad"]
    line.text = "".join(line.text[i] for i in keep)
    line.boxes = [line.boxes[i] for i in keep]
