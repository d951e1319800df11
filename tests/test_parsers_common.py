"""Shared checks for the text-format parsers, plus tests of the section builder itself.

Other ``test_parsers_*`` modules import ``assert_blocks_come_from_source`` from here.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from athena_lab.document import Block, ParsedDocument
from athena_lab.ingest.parsers._common import SectionBuilder, line_block, strip_tags

from corpus_files import CORPORA  # noqa: E402

pytestmark = pytest.mark.unit

CORPUS = CORPORA / "docs"
_WORD_RE = re.compile(r"\w+")
_TAG_RE = re.compile(r"<[^>]*>")


def blocks(doc: ParsedDocument) -> list[Block]:
    return [block for section in doc.sections for block in section.blocks]


def assert_blocks_come_from_source(doc: ParsedDocument, source: str, *,
                                   markup: bool = False) -> int:
    """Every word of every block occurs in the source lines the block claims.

    ``markup`` compares against the lines with tags removed and entities decoded (HTML).
    Returns the number of blocks checked, so callers can also insist there were some.
    """
    lines = source.splitlines()
    checked = 0
    for block in blocks(doc):
        assert 1 <= block.start_line <= block.end_line <= len(lines), block
        segment = "\n".join(lines[block.start_line - 1:block.end_line])
        known = set(_WORD_RE.findall(segment))
        if markup:
            known |= set(_WORD_RE.findall(html.unescape(_TAG_RE.sub(" ", segment))))
            known |= set(_WORD_RE.findall(html.unescape(_TAG_RE.sub("", segment))))
        missing = [w for w in _WORD_RE.findall(block.text) if w not in known]
        assert not missing, f"{doc.path}:{block.start_line}-{block.end_line} lacks {missing[:5]}"
        checked += 1
    return checked


def check_corpus(paths: list[Path], parse: Callable[[str, str], ParsedDocument], *,
                 markup: bool = False) -> int:
    """Parse real files and check every block against its lines; returns blocks checked."""
    checked = 0
    for path in paths:
        text = path.read_text(encoding="utf-8")
        checked += assert_blocks_come_from_source(parse(text, str(path)), text, markup=markup)
    return checked


def test_heading_closes_sections_of_same_or_deeper_level():
    builder = SectionBuilder()
    builder.heading(1, "Tutorial", 1)
    builder.heading(2, "Security", 5)
    builder.heading(3, "OAuth2", 9)
    builder.heading(2, "Deploy", 20)
    paths = [s.heading_path for s in builder.sections()]
    assert paths == [["Tutorial"], ["Tutorial", "Security"],
                     ["Tutorial", "Security", "OAuth2"], ["Tutorial", "Deploy"]]


def test_preamble_kept_only_with_content_and_named_after_title():
    builder = SectionBuilder()
    builder.add(Block(text="before", start_line=1, end_line=1))
    builder.heading(1, "Doc", 3)
    first = builder.sections("Doc")[0]
    assert (first.heading_path, first.level, first.blocks[0].text) == (["Doc"], 0, "before")
    assert SectionBuilder().sections() == []


def test_line_block_trims_blank_edges_and_counts_from_one():
    block = line_block(["", "a", "b", "", ""], 0, 5, "paragraph")
    assert (block.text, block.start_line, block.end_line) == ("a\nb", 2, 3)
    assert line_block(["", "  "], 0, 2, "paragraph") is None


def test_strip_tags_handles_tags_spanning_lines_and_entities():
    assert strip_tags('<div\n class="x">Tom &amp; Jerry</div>\n<p>hi</p>') == "Tom & Jerry\nhi"
