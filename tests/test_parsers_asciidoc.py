from __future__ import annotations

from test_parsers_common import assert_blocks_come_from_source, blocks

import pytest

from athena_lab.ingest.parsers import asciidoc

pytestmark = pytest.mark.unit

SOURCE = """\
= User Guide
Jane Doe <jane@example.org>
:toc: left
:version: 1.2

Intro para.

== Install

[source,python]
----
pip install x

more
----

.Options
|===
| a | b

| 1 | 2
|===

* one
* two

////
hidden comment
////

=== Deeper
NOTE: careful
"""


def test_headings_code_tables_lists_and_header_metadata():
    doc = asciidoc.parse(SOURCE, "guide.adoc")
    assert doc.title == "User Guide"
    assert doc.metadata == {"author": "Jane Doe <jane@example.org>", "toc": "left",
                            "version": "1.2"}
    assert [(s.heading_path, s.level, s.heading_line) for s in doc.sections] == [
        (["User Guide"], 1, 1), (["User Guide", "Install"], 2, 8),
        (["User Guide", "Install", "Deeper"], 3, 31)]
    assert [(b.kind, b.start_line, b.end_line) for b in blocks(doc)] == [
        ("paragraph", 6, 6), ("code", 10, 15), ("table", 17, 22), ("list", 24, 25),
        ("paragraph", 32, 32)]
    assert assert_blocks_come_from_source(doc, SOURCE) == 5
    assert "hidden" not in "".join(b.text for b in blocks(doc))


def test_unclosed_delimited_block_runs_to_end_without_error():
    doc = asciidoc.parse("== A\n----\ncode\n", "x.adoc")
    assert [(b.kind, b.start_line, b.end_line) for b in blocks(doc)] == [("code", 2, 3)]


def test_empty_asciidoc_gives_no_blocks():
    assert blocks(asciidoc.parse("", "e.adoc")) == []
