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
#: Back matter and front matter headings: a section of their own at the top level, never
#: a subsection of the last numbered one ("7 Conclusion > References").
_TOP_LEVEL = re.compile(r"^(references|bibliography|literature cited|works cited|acknowledge?ments?|"
                        r"appendix( [a-z])?|appendices|abstract)\W*$", re.I)
#: A bibliography's heading: what the paper cites, not what it says.
REFERENCES_HEADING = re.compile(r"^((\d{1,2}|[IVX]{1,4}|[A-H])\.?\s+)?(references?( and notes)?|bibliography|"
                                r"literature( cited)?|works cited|cited literature|literatur|références|"
                                r"bibliographie|referencias|bibliografía|riferimenti|bibliografia)\W*$", re.I)
# An entry of a reference list: "[12] A. Author, …", "12. Author, A. …", "Author, A. B. (1999)".
_ENTRY = re.compile(r"^\s*(\[[\w+.-]{1,12}\]|\d{1,3}\.\s+[A-Z]|[A-Z][\w'’-]+,\s+(?:[A-Z]\.\s*){1,3})")
_YEAR = re.compile(r"\b(1[89]\d\d|20[0-4]\d)[a-z]?\b")
_NUMBER = re.compile(r"^(\d{1,2}(?:\.\d{1,2})*)\.?\s")
_ASCII_LETTER = re.compile(r"[A-Za-z]")


@dataclass
class OutlineEntry:
    """One bookmark of the PDF's own outline: its depth (1 = top), title, page (1-based)
    and the top of its destination in top-left page points (None when it has none)."""

    level: int
    title: str
    page: int
    top: float | None = None


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
    text = line.text
    if len(text) > 100 or len(text.split()) > 14:
        return False
    if text.isascii():  # ASCII letters are exactly what isalpha() says, counted in C
        return len(_ASCII_LETTER.findall(text)) >= 3
    return sum(c.isalpha() for c in text) >= 3


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
                sizes: list[float], outline: dict[tuple[int, int], tuple[int, str]] | None = None
                ) -> list[Block | Heading]:
    """Blocks and headings of one page, in reading order.

    ``outline``: (page, line) → (level, title) of the headings the PDF's outline points
    at. When given, it is the only source of headings besides the front and back matter
    ones (Abstract, References): type size guesses would add the author lines and drop
    a heading the outline names."""
    # figure labels are words of a drawing, not sentences: no block quotes them
    visible = [(n, ln) for n, ln in enumerate(page.lines, start=1)
               if (page.number, n) not in hidden and not ln.figure]
    tables = _table_lines(visible)
    runs: list[_Run | Heading] = []
    prev: Line | None = None
    prev_number = 0
    for number, line in visible:
        named = outline.get((page.number, number)) if outline is not None else None
        if outline is not None:
            level = named[0] if named else (1 if (_TOP_LEVEL.match(line.text.strip())
                                                  or REFERENCES_HEADING.match(line.text.strip()))
                                           and number not in tables and heading_level(line, body, sizes) is not None
                                           else None)
        else:
            level = heading_level(line, body, sizes) if number not in tables else None
            if level is not None and (_TOP_LEVEL.match(line.text.strip()) or REFERENCES_HEADING.match(line.text.strip())):
                level = 1
        if named is not None and named[1] == "":
            prev, prev_number = line, number
            continue  # the second line of a long outline title
        if named is not None:
            runs.append(Heading(named[1], level or 1, number))
        elif level is not None and page.source == "text":
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


def outline_lines(pages: list[PageText], outline: list[OutlineEntry],
                  hidden: set[tuple[int, int]]) -> dict[tuple[int, int], tuple[int, str]] | None:
    """The page lines the PDF's outline points at: (page, line) → (level, title); a title
    printed over two lines marks its second line with an empty title. None when the
    outline is missing or most of it cannot be found on the pages (then the type sizes
    decide)."""
    found: dict[tuple[int, int], tuple[int, str]] = {}
    entries = [e for e in outline if 1 <= e.page <= len(pages) and _key(e.title)]
    for entry in entries:
        page = pages[entry.page - 1]
        want = _key(entry.title)
        best: tuple[float, int] | None = None
        for number, line in enumerate(page.lines, start=1):
            got = _key(line.text)
            if (page.number, number) in hidden or (page.number, number) in found or not got:
                continue
            if want.startswith(got) and len(got) >= min(8, len(want)) or got.startswith(want):
                distance = abs(line.bbox[1] - entry.top) if entry.top is not None else float(number)
                if best is None or distance < best[0]:
                    best = (distance, number)
        if best is None:
            continue
        number = best[1]
        found[(page.number, number)] = (entry.level, " ".join(entry.title.split()))
        rest = want[len(_key(page.lines[number - 1].text)):]
        while rest and number < len(page.lines):
            number += 1
            got = _key(page.lines[number - 1].text)
            if not got or not rest.startswith(got):
                break
            found[(page.number, number)] = (entry.level, "")
            rest = rest[len(got):]
    titles = sum(1 for v in found.values() if v[1])
    return found if len(entries) >= 2 and titles >= 0.6 * len(entries) else None


def _key(text: str) -> str:
    return re.sub(r"[\W_]+", "", text).lower()


def _numbering(text: str) -> tuple[int, ...] | None:
    match = _NUMBER.match(text)
    return tuple(int(n) for n in match.group(1).split(".")) if match else None


def _outranks(parent: Heading, child: Heading) -> bool:
    """``parent`` may hold ``child``: by level, and when both are numbered, by number
    ("6.2" never sits under "5", even when "6" was not recognised as a heading)."""
    if parent.level >= child.level:
        return False
    mine, theirs = _numbering(parent.text), _numbering(child.text)
    if mine is None or theirs is None:
        return True
    return len(mine) < len(theirs) and theirs[:len(mine)] == mine


def sections(pages: list[PageText], hidden: set[tuple[int, int]],
             outline: list[OutlineEntry] | None = None) -> list[Section]:
    """Sections with heading paths; content before the first heading has level 0."""
    body = body_size(pages)
    sizes = heading_sizes(pages, body)
    marked = outline_lines(pages, outline or [], hidden)
    stack: list[Heading] = []
    out = [Section(heading_path=[], level=0)]
    for page in pages:
        for item in page_blocks(page, hidden, body, sizes, marked):
            if isinstance(item, Heading):
                while stack and not _outranks(stack[-1], item):
                    stack.pop()
                stack.append(item)
                out.append(Section(heading_path=[h.text for h in stack], level=item.level,
                                   heading_line=item.line))
            else:
                out[-1].blocks.append(item)
    out = [s for s in out if s.blocks or s.level > 0]
    mark_references(out)
    return out


def mark_references(sections_: list[Section]) -> None:
    """Blocks of the paper's reference list become kind "reference": under a References
    (Bibliography, Literature cited …) heading, or — a list with no recognised heading —
    a run of numbered entries with years in the last third of the paper."""
    pages = max((b.page or 0 for s in sections_ for b in s.blocks), default=0)
    for section in sections_:
        named = any(REFERENCES_HEADING.match(h) for h in section.heading_path[-1:])
        for block in section.blocks:
            if block.kind in ("table", "caption"):
                continue
            if named or ((block.page or 0) > pages * 2 / 3 and _entries(block.text)):
                block.kind = "reference"


def _entries(text: str) -> bool:
    """Most lines of a block read as reference entries: a bracketed or numbered start, or
    a surname with initials, and years."""
    lines = [ln for ln in text.split("\n") if ln.strip()]
    starts = sum(1 for ln in lines if _ENTRY.match(ln))
    years = len(_YEAR.findall(text))
    return len(lines) >= 2 and starts >= max(2, len(lines) // 4) and years >= starts
