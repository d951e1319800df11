"""reStructuredText by a line-based reader, without running docutils.

Docutils rejects every Sphinx directive it does not know and is slow on large trees;
for indexing we only need section titles, block boundaries and exact lines. Titles follow
docutils' rules: an underline (or over- and underline) of one punctuation character, at
least as long as the title or at least 4 characters, and a heading level per adornment
style in order of first appearance. Everything else is grouped into blocks by
indentation: a block runs on across blank lines while the following text is indented
deeper than its first line, which is how directive bodies, literal blocks and list items
nest in reST.
"""

from __future__ import annotations

import re

from athena_lab.document import Block, ParsedDocument
from athena_lab.ingest.parsers._common import SectionBuilder, line_block

NAME = "rst-lines"
VERSION = "1"

_ADORNMENT_CHARS = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_DIRECTIVE_RE = re.compile(r"^\.\.\s+([\w][\w:.+-]*)::")
_TARGET_RE = re.compile(r"^\.\.\s+(_|\|)")  # ".. _label:" targets, ".. |sub|" definitions
_FOOTNOTE_RE = re.compile(r"^\.\.\s+\[[^\]]+\]")
_LIST_RE = re.compile(r"^([-*+•‣⁃]|\d+[.)]|#[.)]|[a-zA-Z][.)]|\(\w+\))\s+\S")
_SIMPLE_TABLE_RE = re.compile(r"^=+( +=+)+\s*$")
_FIELD_RE = re.compile(r"^:([^:\s][^:]*):(\s+(.*))?$")
_ROLE_RE = re.compile(r":[\w:+.-]+:`([^`]*)`")
_LINK_TARGET_RE = re.compile(r"\s*<[^<>]+>$")
_CODE_DIRECTIVES = frozenset({"code-block", "code", "sourcecode", "highlight", "doctest",
                              "testcode", "testoutput", "prompt", "productionlist"})
_TABLE_DIRECTIVES = frozenset({"table", "list-table", "csv-table", "tabularcolumns"})


def parse(text: str, path: str) -> ParsedDocument:
    lines = text.splitlines()
    headings = _find_headings(lines)
    builder = SectionBuilder()
    metadata: dict[str, str] = {}
    body_start = 0
    for start, end, level, title in headings:
        _add_body(builder, lines, body_start, start, metadata if body_start == 0 else None)
        builder.heading(level, title, start + (2 if end - start == 3 else 1))
        body_start = end
    _add_body(builder, lines, body_start, len(lines), metadata if body_start == 0 else None)
    first_title = headings[0][3] if headings else None
    return ParsedDocument(path=path, doc_kind="rst", sections=builder.sections(first_title),
                          title=first_title, metadata=metadata)


def _find_headings(lines: list[str]) -> list[tuple[int, int, int, str]]:
    """(first line, end line exclusive, level, title) of each section title, 0-based."""
    styles: dict[tuple[str, bool], int] = {}
    found: list[tuple[int, int, int, str]] = []
    i, n = 0, len(lines)
    after_break = True  # start of file, a blank line, or the end of a previous title
    while i < n:
        match = _title_at(lines, i) if after_break else None
        if match:
            end, style, title = match
            level = styles.setdefault(style, len(styles) + 1)
            found.append((i, end, level, title))
            i = end
            after_break = True
            continue
        after_break = not lines[i].strip()
        i += 1
    return found


def _title_at(lines: list[str], i: int) -> tuple[int, tuple[str, bool], str] | None:
    line = lines[i]
    if _is_adornment(line) and i + 2 < len(lines):
        text, under = lines[i + 1], lines[i + 2]
        if text.strip() and _is_adornment(under) and under[0] == line[0]:
            return i + 3, (line[0], True), _clean_title(text)
    if i + 1 < len(lines) and line.strip() and not line[0].isspace() and not _is_adornment(line):
        under = lines[i + 1].rstrip()
        if _is_adornment(under) and (len(under) >= len(line.rstrip()) or len(under) >= 4):
            return i + 2, (under[0], False), _clean_title(line)
    return None


def _is_adornment(line: str) -> bool:
    stripped = line.rstrip()
    return (len(stripped) >= 2 and stripped[0] in _ADORNMENT_CHARS
            and stripped == stripped[0] * len(stripped))


def _clean_title(text: str) -> str:
    """Title text without inline markup, so heading paths read as plain words."""
    text = _ROLE_RE.sub(lambda m: _LINK_TARGET_RE.sub("", m.group(1)), text.strip())
    return text.replace("``", "").replace("`", "").replace("**", "")


def _add_body(builder: SectionBuilder, lines: list[str], start: int, end: int,
              metadata: dict[str, str] | None) -> None:
    """Blocks of one section body; ``metadata`` collects a leading field list (docinfo).

    List items separated by blank lines are separate units; consecutive ones are one list.
    """
    blocks: list[Block] = []
    list_start: int | None = None
    i = start
    while i < end:
        if not lines[i].strip():
            i += 1
            continue
        j = _unit_end(lines, i, end)
        kind = _unit_kind(lines[i])
        merged = line_block(lines, list_start, j, "list") if (
            kind == "list" and list_start is not None) else None
        if merged:
            blocks[-1] = merged
        else:
            list_start = i if kind == "list" else None
            blocks.extend(_unit_blocks(lines, i, j, metadata))
        metadata = metadata if kind == "field" else None
        i = j
    for block in blocks:
        builder.add(block)


def _unit_end(lines: list[str], i: int, end: int) -> int:
    """End (exclusive) of the unit starting at ``i``: runs on over deeper-indented text."""
    base = _indent(lines[i])
    j = i + 1
    while j < end:
        if lines[j].strip():
            if _indent(lines[j]) < base:
                break
            j += 1
            continue
        k = j
        while k < end and not lines[k].strip():
            k += 1
        if k >= end or _indent(lines[k]) <= base:
            break
        j = k
    return j


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _unit_kind(first: str) -> str:
    stripped = first.strip()
    if first[0].isspace():
        return "quote"
    if stripped == ".." or stripped.startswith(".. "):
        return "explicit"
    if _LIST_RE.match(stripped):
        return "list"
    if stripped.startswith(("+-", "+=")) or _SIMPLE_TABLE_RE.match(stripped):
        return "table"
    if stripped.startswith(">>>"):
        return "code"
    if _FIELD_RE.match(stripped):
        return "field"
    if _is_adornment(stripped) and len(stripped) >= 4:
        return "transition"
    return "paragraph"


def _unit_blocks(lines: list[str], i: int, j: int,
                 metadata: dict[str, str] | None) -> list[Block]:
    kind = _unit_kind(lines[i])
    if kind == "explicit":
        explicit = _explicit_kind(lines[i].strip())
        block = line_block(lines, i, j, explicit) if explicit else None
        return [block] if block else []
    if kind == "transition" and j == i + 1:
        return []
    if kind == "field" and metadata is not None and _all_fields(lines[i:j], metadata):
        return []
    if kind == "paragraph":
        return _paragraph_blocks(lines, i, j)
    block = line_block(lines, i, j, kind if kind in ("list", "table", "code", "quote")
                       else "paragraph")
    return [block] if block else []


def _explicit_kind(first: str) -> str | None:
    """Block kind of an explicit markup unit; None for comments, targets, substitutions."""
    if _TARGET_RE.match(first):
        return None
    if _FOOTNOTE_RE.match(first):
        return "paragraph"
    directive = _DIRECTIVE_RE.match(first)
    if not directive:
        return None
    name = directive.group(1).lower().rsplit(":", 1)[-1]
    if name in _CODE_DIRECTIVES:
        return "code"
    if name in _TABLE_DIRECTIVES:
        return "table"
    return "directive"


def _all_fields(unit: list[str], metadata: dict[str, str]) -> bool:
    """Docinfo field lists (``:orphan:``, ``:tocdepth: 2``) before the title → metadata."""
    found = [_FIELD_RE.match(line.strip()) for line in unit if line.strip()]
    matches = [m for m in found if m is not None]
    if len(matches) != len(found):
        return False
    for match in matches:
        metadata[match.group(1)] = (match.group(3) or "").strip()
    return True


def _paragraph_blocks(lines: list[str], i: int, j: int) -> list[Block]:
    """A paragraph, split from its literal block when its first part ends with ``::``."""
    first_end = i
    while first_end < j and lines[first_end].strip():
        first_end += 1
    if first_end < j and lines[first_end - 1].rstrip().endswith("::"):
        blocks = []
        if lines[i].strip() != "::":
            blocks.append(line_block(lines, i, first_end, "paragraph"))
        blocks.append(line_block(lines, first_end, j, "code"))
        return [b for b in blocks if b]
    block = line_block(lines, i, j, "paragraph")
    return [block] if block else []
