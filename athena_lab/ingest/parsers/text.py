"""Plain text (README, LICENSE, .txt): paragraphs between blank lines.

Plain text has no reliable heading syntax, so the only heading recognised is a first line
underlined with ``===`` or ``---``; it becomes the title and everything stays in one
level-0 section.
"""

from __future__ import annotations

import re

from athena_lab.document import ParsedDocument, Section
from athena_lab.ingest.parsers._common import line_block

NAME = "plain-text"
VERSION = "1"

_UNDERLINE_RE = re.compile(r"^\s*(=+|-+)\s*$")
_LIST_RE = re.compile(r"^\s*([-*+•]|\d+[.)])\s+\S")


def parse(text: str, path: str) -> ParsedDocument:
    lines = text.splitlines()
    title, body_start = _title(lines)
    section = Section(heading_path=[], level=0, heading_line=1 if title else None)
    i = body_start
    while i < len(lines):
        j = i
        while j < len(lines) and lines[j].strip():
            j += 1
        block = line_block(lines, i, j, "list" if _LIST_RE.match(lines[i]) else "paragraph")
        if block:
            section.blocks.append(block)
        i = j + 1
    sections = [section] if section.blocks or title else []
    return ParsedDocument(path=path, doc_kind="text", sections=sections, title=title)


def _title(lines: list[str]) -> tuple[str | None, int]:
    if len(lines) >= 2 and lines[0].strip() and _UNDERLINE_RE.match(lines[1]):
        return lines[0].strip(), 2
    return None, 0
