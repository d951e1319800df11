"""Pieces every text parser needs: the heading stack and line bookkeeping.

Each format finds its own headings and blocks; turning "a heading of level n at line k"
into sections with a correct ``heading_path`` is the same job everywhere, so it lives here
once and every format nests headings the same way.
"""

from __future__ import annotations

import html
import re

from athena_lab.document import Block, Section

_TAG_RE = re.compile(r"<[^>]*>")
_SPACE_RE = re.compile(r"[ \t\r\f\v]+")


class SectionBuilder:
    """Collects blocks into sections as headings arrive in document order."""

    def __init__(self) -> None:
        self._stack: list[tuple[int, str]] = []
        self._preamble = Section(heading_path=[], level=0)
        self._sections: list[Section] = [self._preamble]

    def heading(self, level: int, title: str, line: int) -> None:
        """Open a section; a heading closes every open section of the same or deeper level."""
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        self._stack.append((level, title))
        self._sections.append(Section(heading_path=[t for _, t in self._stack],
                                      level=level, heading_line=line))

    def add(self, block: Block) -> None:
        self._sections[-1].blocks.append(block)

    def sections(self, title: str | None = None) -> list[Section]:
        """The sections; the preamble only if it holds blocks, named after the title if known."""
        if title:
            self._preamble.heading_path = [title]
        if self._preamble.blocks:
            return list(self._sections)
        return self._sections[1:]


def line_block(lines: list[str], start: int, end: int, kind: str,
               cell: int | None = None) -> Block | None:
    """A block from 0-based ``lines[start:end]``, trimmed of blank edges, lines made 1-based.

    Returns None when only blank lines remain, so callers never emit empty blocks.
    """
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    if start >= end:
        return None
    return Block(text="\n".join(lines[start:end]), start_line=start + 1, end_line=end,
                 kind=kind, cell=cell)


def strip_tags(text: str) -> str:
    """Visible text of an HTML fragment, one output line per non-empty source line."""
    untagged = _TAG_RE.sub(lambda m: "\n" * m.group().count("\n"), text)
    out = (_SPACE_RE.sub(" ", html.unescape(line)).strip() for line in untagged.splitlines())
    return "\n".join(line for line in out if line)


def normalize_space(text: str) -> str:
    return " ".join(text.split())
