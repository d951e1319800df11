"""AsciiDoc by a line-based reader: ``=`` headings, delimited blocks, tables, header.

Heading level is the number of ``=`` (the document title ``= Title`` is level 1). The
header — attribute lines (``:name: value``) and the author/revision lines under the
title — becomes metadata. Block attribute lines (``[source,python]``) and block titles
(``.Title``) belong to the block they introduce, so a code block's lines include them.
"""

from __future__ import annotations

import re

from athena_lab.document import Block, ParsedDocument
from athena_lab.ingest.parsers._common import SectionBuilder, line_block

NAME = "asciidoc-lines"
VERSION = "1"

_HEADING_RE = re.compile(r"^(={1,6})\s+(\S.*?)\s*$")
_ATTRIBUTE_RE = re.compile(r"^:(!?[\w-]+!?):\s*(.*)$")
_PREFIX_RE = re.compile(r"^(\[[^\]]*\]|\.[^.\s].*)\s*$")  # [source,python] or .Block title
_LIST_RE = re.compile(r"^\s*(\*+|-|\.+|\d+\.|[^:]+::)(\s+\S|$)")
_MACRO_RE = re.compile(r"^[a-z]+::\S*\[.*\]\s*$")  # image::x.png[], include::a.adoc[]
#: Delimiter lines: listing and literal blocks are code, ``|===`` style are tables,
#: ``////`` is a comment block (dropped); other delimited blocks are kept as text.
_DELIMITERS = [
    (re.compile(r"^-{4,}$"), "code"),
    (re.compile(r"^\.{4,}$"), "code"),
    (re.compile(r"^[|,:!]={3,}$"), "table"),
    (re.compile(r"^_{4,}$"), "quote"),
    (re.compile(r"^/{4,}$"), None),
    (re.compile(r"^(={4,}|\*{4,}|\+{4,}|--)$"), "paragraph"),
]


def parse(text: str, path: str) -> ParsedDocument:
    lines = text.splitlines()
    builder = SectionBuilder()
    metadata, title, i = _header(lines, builder)
    while i < len(lines):
        line = lines[i]
        heading = _HEADING_RE.match(line)
        if not line.strip() or line.startswith("//") and not line.startswith("////"):
            i += 1
        elif heading:
            level, name = len(heading.group(1)), heading.group(2)
            builder.heading(level, name, i + 1)
            title = title or (name if level == 1 else None)
            i += 1
        else:
            i = _add_block(builder, lines, i)
    return ParsedDocument(path=path, doc_kind="asciidoc", sections=builder.sections(),
                          title=title, metadata=metadata)


def _header(lines: list[str],
            builder: SectionBuilder) -> tuple[dict[str, str], str | None, int]:
    """Read the document header: metadata, the title (opened as the level-1 section) and
    the index of the first body line."""
    metadata: dict[str, str] = {}
    i = 0
    while i < len(lines) and (not lines[i].strip() or lines[i].startswith("//")
                              or _ATTRIBUTE_RE.match(lines[i])):
        _attribute(lines[i], metadata)
        i += 1
    heading = _HEADING_RE.match(lines[i]) if i < len(lines) else None
    if not heading or len(heading.group(1)) != 1:
        return metadata, None, i
    title = heading.group(2)
    builder.heading(1, title, i + 1)
    extra = 0
    i += 1
    while i < len(lines) and lines[i].strip():
        if not _attribute(lines[i], metadata) and not lines[i].startswith("//"):
            metadata[("author", "revision")[min(extra, 1)]] = lines[i].strip()
            extra += 1
        i += 1
    return metadata, title, i


def _attribute(line: str, metadata: dict[str, str]) -> bool:
    match = _ATTRIBUTE_RE.match(line)
    if match:
        metadata[match.group(1)] = match.group(2).strip()
    return bool(match)


def _add_block(builder: SectionBuilder, lines: list[str], i: int) -> int:
    """Add the block starting at ``i`` (with its attribute/title prefix); return its end."""
    start = i
    while i < len(lines) and _PREFIX_RE.match(lines[i]) and not _delimiter(lines[i]):
        i += 1
    if i >= len(lines) or not lines[i].strip():
        _emit(builder, line_block(lines, start, i, "paragraph"))
        return i
    delimited = _delimiter(lines[i])
    if delimited:
        pattern_line, kind = lines[i].rstrip(), delimited[1]
        end = i + 1
        while end < len(lines) and lines[end].rstrip() != pattern_line:
            end += 1
        end = min(end + 1, len(lines))
        if kind:
            _emit(builder, line_block(lines, start, end, kind))
        return end
    end = i
    while end < len(lines) and lines[end].strip() and not _delimiter(lines[end]) \
            and not _HEADING_RE.match(lines[end]):
        end += 1
    _emit(builder, line_block(lines, start, end, _paragraph_kind(lines[i])))
    return end


def _delimiter(line: str) -> tuple[re.Pattern[str], str | None] | None:
    stripped = line.rstrip()
    return next(((p, kind) for p, kind in _DELIMITERS if p.match(stripped)), None)


def _paragraph_kind(first: str) -> str:
    if _MACRO_RE.match(first):
        return "directive"
    if first.startswith((" ", "\t")):
        return "code"  # a literal paragraph
    return "list" if _LIST_RE.match(first) else "paragraph"


def _emit(builder: SectionBuilder, block: Block | None) -> None:
    if block:
        builder.add(block)
