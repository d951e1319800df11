from __future__ import annotations

from test_parsers_common import CORPUS, assert_blocks_come_from_source, blocks

import pytest

from athena_lab.ingest.parsers import text

pytestmark = pytest.mark.unit


def test_license_paragraphs_point_at_their_lines():
    source = (CORPUS / "httpd-manual/LICENSE").read_text(encoding="utf-8")
    doc = text.parse(source, "LICENSE")
    assert assert_blocks_come_from_source(doc, source) > 20
    assert len(doc.sections) == 1 and doc.sections[0].heading_path == []


def test_underlined_first_line_is_title_not_block():
    doc = text.parse("Title\n=====\n\npara one\nline2\n\n- a\n- b\n", "README")
    assert doc.title == "Title" and doc.sections[0].heading_line == 1
    assert [(b.kind, b.start_line, b.end_line) for b in blocks(doc)] == [
        ("paragraph", 4, 5), ("list", 7, 8)]


def test_empty_text_gives_no_blocks():
    assert blocks(text.parse("", "e.txt")) == []
