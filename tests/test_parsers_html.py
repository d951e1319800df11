from __future__ import annotations

from test_parsers_common import CORPUS, blocks, check_corpus

import pytest

from athena_lab.ingest.parsers import html

pytestmark = pytest.mark.unit

MANUAL = CORPUS / "httpd-manual/docs/manual"


def test_every_block_of_real_html_points_at_its_source_lines():
    files = sorted(MANUAL.rglob("*.html.en.utf8"))[:80]
    assert check_corpus(files, html.parse, markup=True) > 2000


def test_mod_rewrite_sections_tables_and_no_navigation_boilerplate():
    text = (MANUAL / "mod/mod_rewrite.html.en.utf8").read_text(encoding="utf-8")
    doc = html.parse(text, "mod_rewrite.html")
    assert doc.title == "mod_rewrite - Apache HTTP Server Version 2.5"
    section = next(s for s in doc.sections if s.heading_path[-1] == "RewriteRule Directive")
    assert section.heading_path == ["Apache Module mod_rewrite", "RewriteRule Directive"]
    assert (section.level, section.heading_line) == (2, 1075)
    table = section.blocks[0]
    assert (table.kind, table.start_line) == ("table", 1076)
    assert table.text.splitlines()[0] == "Description: | Defines rules for the rewriting engine"
    everything = "\n".join(b.text for b in blocks(doc))
    for boilerplate in ("Available Languages", "Sitemap", "Copyright 2023", "¶", "var comments"):
        assert boilerplate not in everything


def test_pre_is_one_code_block_with_whitespace_kept():
    text = "<h1>T</h1>\n<p>Intro\ntext</p>\n<pre>a  b\n  c\n</pre>\n<ul><li>x</li>\n<li>y</li></ul>\n"
    doc = html.parse(text, "t.html")
    assert [(b.kind, b.start_line, b.end_line, b.text) for b in blocks(doc)] == [
        ("paragraph", 2, 3, "Intro text"), ("code", 4, 6, "a  b\n  c"),
        ("list", 7, 8, "- x\n- y")]
    assert doc.title == "T"


def test_unclosed_dropped_element_is_reported_not_silently_lost():
    doc = html.parse("<p>kept</p>\n<nav>menu\n<p>lost", "bad.html")
    assert [b.text for b in blocks(doc)] == ["kept"]
    assert doc.warnings and "unclosed <nav> from line 2" in doc.warnings[0]


def test_empty_html_gives_no_blocks():
    assert blocks(html.parse("", "e.html")) == []
