from __future__ import annotations

from test_parsers_common import CORPUS, blocks, check_corpus

import pytest

from athena_lab.ingest.parsers import rst

pytestmark = pytest.mark.unit


def test_every_block_of_real_rst_points_at_its_source_lines():
    files = sorted((CORPUS / "sphinx").rglob("*.rst")) + sorted((CORPUS / "flask").rglob("*.rst"))
    assert check_corpus(files, rst.parse) > 4000


def test_flask_quickstart_sections_literal_blocks_and_simple_table():
    text = (CORPUS / "flask/docs/quickstart.rst").read_text(encoding="utf-8")
    doc = rst.parse(text, "quickstart.rst")
    assert doc.title == "Quickstart"
    section = next(s for s in doc.sections if s.heading_path[-1] == "Variable Rules")
    assert section.heading_path == ["Quickstart", "Routing", "Variable Rules"]
    assert (section.level, section.heading_line) == (3, 174)
    table = next(b for b in section.blocks if b.kind == "table")
    assert (table.start_line, table.end_line) == (201, 207)
    code = next(b for b in section.blocks if b.kind == "code")
    assert code.start_line == 182 and "from markupsafe import escape" in code.text


def test_sphinx_over_and_underlined_title_and_dropped_targets():
    text = (CORPUS / "sphinx/doc/usage/quickstart.rst").read_text(encoding="utf-8")
    doc = rst.parse(text, "quickstart.rst")
    assert doc.title == "Getting started"
    assert (doc.sections[0].level, doc.sections[0].heading_line) == (1, 2)
    assert not any(b.text.startswith(".. _") or b.text.startswith(".. __") for b in blocks(doc))


def test_adornment_levels_follow_first_appearance_like_docutils():
    text = ("#####\nBook\n#####\n\nIntro\n\nPart\n****\n\nText\n\nChapter\n=======\n\n"
            "x\n\nOther part\n**********\n\ny\n")
    doc = rst.parse(text, "b.rst")
    assert [(s.heading_path, s.level, s.heading_line) for s in doc.sections] == [
        (["Book"], 1, 2), (["Book", "Part"], 2, 7), (["Book", "Part", "Chapter"], 3, 12),
        (["Book", "Other part"], 2, 17)]


def test_directives_literal_blocks_and_comments():
    text = (
        "Title\n=====\n\n"                                 # 1-3
        "Run this::\n\n    make html\n    make pdf\n\n"     # 4-8
        ".. note::\n\n   Be careful.\n\n"                  # 9-12
        ".. code-block:: python\n\n   print(1)\n\n"        # 13-16
        ".. this is a comment\n   spanning lines\n\n"      # 17-19
        ".. _label:\n\n"                                   # 20-21
        ".. automodule:: pkg.mod\n   :members:\n\n"        # 22-24
        "- one\n\n- two\n"                                 # 25-27
    )
    got = [(b.kind, b.start_line, b.end_line) for b in blocks(rst.parse(text, "d.rst"))]
    assert got == [("paragraph", 4, 4), ("code", 6, 7), ("directive", 9, 11),
                   ("code", 13, 15), ("directive", 22, 23), ("list", 25, 27)]


def test_leading_field_list_is_metadata_and_short_underline_is_text():
    doc = rst.parse(":orphan:\n:tocdepth: 2\n\nLong title here\n--\n", "m.rst")
    assert doc.metadata == {"orphan": "", "tocdepth": "2"}
    assert [(b.kind, b.start_line, b.end_line) for b in blocks(doc)] == [("paragraph", 4, 5)]


def test_empty_rst_gives_no_blocks():
    assert blocks(rst.parse("", "e.rst")) == []
