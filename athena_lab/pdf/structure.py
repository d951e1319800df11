"""From page lines to document structure: furniture, headings, blocks, tables, captions.

Everything here works on the lines ``pages.extract_page`` produced and never renumbers
them, so a block's ``start_line``/``end_line`` are the page line numbers the source view
shows.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from dataclasses import dataclass, field

from athena_lab.document import Block, Region, Section

from .layout import Line
from .pages import PageText, garbled_reason

_PAGE_NUMBER = re.compile(r"^\W*(page\s*)?(\d{1,4}|[ivxlcdm]{1,6})(\s*(of|/)\s*\d{1,4})?\W*$", re.I)
_NUMBERED = re.compile(r"^((\d{1,2})(\.\d{1,2})*|[IVX]{1,4}|[A-H])\.?\s+\S")
_CAPTION = re.compile(r"^(Table|Figure|Fig\.|Tab\.|Listing|Algorithm)\s*[A-Z]?\d+(\.\d+)?\s*[.:|]", re.I)
_EQUATION_NUMBER = re.compile(r"\s\(\d{1,3}[a-z]?\)$")
_MARGIN = 0.12  # share of page height at top and bottom where furniture lives


@dataclass
class Heading:
    text: str
    level: int
    line: int


@dataclass
class _Run:
    """Lines being collected into one block."""

    kind: str
    lines: list[tuple[int, Line]] = field(default_factory=list)


def hidden_lines(pages: list[PageText]) -> set[tuple[int, int]]:
    """(page, line) pairs of running headers/footers and bare page numbers.

    A margin line is furniture when its text, digits ignored, recurs in the margin of
    at least a third of the pages; bare page numbers in the margin go on any multi-page
    document. One-page documents keep everything: nothing can be seen to repeat.
    """
    if len([p for p in pages if p.lines]) < 2:
        return set()
    margin: dict[tuple[int, int], str] = {}
    texts: dict[tuple[int, int], str] = {}
    for page in pages:
        for number, line in enumerate(page.lines, start=1):
            if line.bbox[1] < _MARGIN * page.height or line.bbox[3] > (1 - _MARGIN) * page.height:
                texts[(page.number, number)] = line.text
                # digits and punctuation ignored: running heads carry the page number
                # first on even pages and last on odd ones
                margin[(page.number, number)] = re.sub(r"[\W\d_]+", " ", line.text.lower()).strip() or "#"
    pages_with: dict[str, set[int]] = {}
    for (page_number, _), key in margin.items():
        pages_with.setdefault(key, set()).add(page_number)
    needed = max(2, round(len(pages) / 3))
    return {where for where, key in margin.items()
            if len(pages_with[key]) >= needed or _PAGE_NUMBER.match(texts[where])}


def body_size(pages: list[PageText]) -> float:
    """The most common text size, weighted by characters: the size of running text."""
    sizes: Counter[float] = Counter()
    for page in pages:
        for line in page.lines:
            sizes[round(line.size * 2) / 2] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 10.0


def heading_sizes(pages: list[PageText], body: float) -> list[float]:
    """Distinct sizes of large, short lines, biggest first: their rank is the heading level."""
    sizes = {round(ln.size * 2) / 2 for p in pages for ln in p.lines
             if ln.size >= body * 1.15 and _short(ln)}
    return sorted(sizes, reverse=True)


def _short(line: Line) -> bool:
    return (len(line.text) <= 100 and len(line.text.split()) <= 14
            and sum(c.isalpha() for c in line.text) >= 3)


def heading_level(line: Line, body: float, sizes: list[float]) -> int | None:
    """Level of a heading line, or None for ordinary text.

    Numbered headings ("3.2 Training") take their depth from the number; others rank by
    size; a bold line at body size is a low-level heading.
    """
    text = line.text.strip()
    if not _short(line) or text[-1] in ".,;" or _CAPTION.match(text) or line.note:
        return None  # a footnote or affiliation line ("1 ByteDance Research") is no "1 Introduction"
    numbered = _NUMBERED.match(text)
    if numbered and len(line.cells) <= 2 and (line.bold or line.size > body + 0.5):
        return numbered.group(1).count(".") + 1
    if len(line.cells) > 1:
        return None
    size = round(line.size * 2) / 2
    if size in sizes:
        return sizes.index(size) + 1
    if line.bold and len(text.split()) <= 8:
        return len(sizes) + 1
    return None


def page_blocks(page: PageText, hidden: set[tuple[int, int]], body: float,
                sizes: list[float]) -> list[Block | Heading]:
    """Blocks and headings of one page, in reading order."""
    # figure labels are words of a drawing, not sentences: no block quotes them
    visible = [(n, ln) for n, ln in enumerate(page.lines, start=1)
               if (page.number, n) not in hidden and not ln.figure]
    tables = _table_lines(visible)
    runs: list[_Run | Heading] = []
    prev: Line | None = None
    prev_number = 0
    for number, line in visible:
        level = heading_level(line, body, sizes) if number not in tables else None
        if level is not None and page.source == "text":
            last = runs[-1] if runs else None
            if isinstance(last, Heading) and prev is not None and _same_style(prev, line) and _close(prev, line):
                last.text += " " + line.text.strip()
            else:
                runs.append(Heading(line.text.strip(), level, number))
        else:
            kind = "table" if number in tables else "caption" if _CAPTION.match(line.text) else "paragraph"
            last = runs[-1] if runs else None
            if (not isinstance(last, _Run) or prev is None or number != prev_number + 1
                    or _starts_block(prev, line, kind, last.kind)):
                last = _Run(kind)  # a hidden line in between also ends the block
                runs.append(last)
            last.lines.append((number, line))
        prev, prev_number = line, number
    return [r if isinstance(r, Heading) else _block(page, r) for r in _attach_captions(runs)]


def _table_lines(visible: list[tuple[int, Line]]) -> set[int]:
    """Line numbers inside tables: three or more multi-cell lines, at most one other between."""
    out: set[int] = set()
    run: list[int] = []
    gap = 0
    for number, line in visible + [(-1, Line("", [], (0, 0, 0, 0), 0, False))]:
        if len(line.cells) > 1:
            run.append(number)
            gap = 0
            continue
        gap += 1
        if gap > 1 or number == -1:
            multi = [n for n in run if n > 0]
            if len(multi) >= 3:
                out.update(range(multi[0], multi[-1] + 1))
            run, gap = [], 0
    return out


def _same_style(a: Line, b: Line) -> bool:
    return abs(a.size - b.size) < 0.6 and a.bold == b.bold


def _close(a: Line, b: Line) -> bool:
    return 0 <= b.bbox[1] - a.bbox[3] < 0.8 * (a.bbox[3] - a.bbox[1]) and a.column == b.column


def _starts_block(prev: Line, line: Line, kind: str, run_kind: str) -> bool:
    if kind != run_kind and not (run_kind == "caption" and kind == "paragraph"):
        return True
    if kind == "table":
        return False
    if line.note:  # a footnote is its own paragraph, not the end of the body text above it
        return True
    if _display_equation(prev, line) or _display_equation(line, prev):
        return True  # a numbered formula is no part of the sentence after it
    if (prev.column, prev.band) != (line.column, line.band) or abs(prev.size - line.size) > 1.0:
        return True
    height = max(prev.bbox[3] - prev.bbox[1], 1.0)
    gap = line.bbox[1] - prev.bbox[3]
    if gap > 0.6 * height or gap < -height:
        return True
    indent = line.bbox[0] - prev.bbox[0]
    return 4 < indent < 40 and prev.text.rstrip()[-1:] in ".!?:"


def _display_equation(line: Line, other: Line) -> bool:
    """A line set in from its neighbour and ending in an equation number: "… (1)"."""
    return bool(_EQUATION_NUMBER.search(line.text)) and line.bbox[0] - other.bbox[0] > 20


def _attach_captions(runs: list[_Run | Heading]) -> list[_Run | Heading]:
    """A caption right before or after a table joins it, so the table chunk says what it is."""
    out: list[_Run | Heading] = []
    for run in runs:
        last = out[-1] if out else None
        if isinstance(run, _Run) and isinstance(last, _Run) and {run.kind, last.kind} == {"table", "caption"}:
            last.lines.extend(run.lines)
            last.kind = "table"
            continue
        out.append(run)
    return out


def _block(page: PageText, run: _Run) -> Block:
    lines = [ln for _, ln in run.lines]
    text = "\n".join(ln.text for ln in lines)
    warnings = list(page.warnings)
    confidence = page.confidence
    garbled = garbled_reason(text)
    if garbled and not any(w.startswith("garbled") for w in warnings):
        warnings.append(f"garbled text: {garbled}")
        confidence = min(confidence, 0.3)
    block = Block(text=text, start_line=run.lines[0][0], end_line=run.lines[-1][0], kind=run.kind,
                  page=page.number, regions=[_region(page.number, ln) for ln in lines],
                  confidence=round(confidence, 3), warnings=warnings)
    if run.kind == "table":
        block.extra["csv"] = _csv(lines)
    return block


def _region(page: int, line: Line) -> Region:
    x0, y0, x1, y1 = line.bbox
    return Region(page=page, x=x0, y=y0, width=x1 - x0, height=y1 - y0)


def _csv(lines: list[Line]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for line in lines:
        if not _CAPTION.match(line.text):
            writer.writerow(line.cells)
    return buffer.getvalue()


def sections(pages: list[PageText], hidden: set[tuple[int, int]]) -> list[Section]:
    """Sections with heading paths; content before the first heading has level 0."""
    body = body_size(pages)
    sizes = heading_sizes(pages, body)
    stack: list[Heading] = []
    out = [Section(heading_path=[], level=0)]
    for page in pages:
        for item in page_blocks(page, hidden, body, sizes):
            if isinstance(item, Heading):
                while stack and stack[-1].level >= item.level:
                    stack.pop()
                stack.append(item)
                out.append(Section(heading_path=[h.text for h in stack], level=item.level,
                                   heading_line=item.line))
            else:
                out[-1].blocks.append(item)
    return [s for s in out if s.blocks or s.level > 0]
