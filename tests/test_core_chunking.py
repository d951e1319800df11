"""Chunking rules on parsed Markdown: whole code blocks and tables, splits, merges, ids."""

from __future__ import annotations

import pytest

from athena_lab.ingest.chunking import MAX_CHARS, chunk_document
from athena_lab.ingest.parsers import markdown

pytestmark = pytest.mark.unit


def _chunks(text: str):
    return chunk_document(markdown.parse(text, "doc.md"))


def test_sections_become_chunks_with_their_heading_path_and_lines() -> None:
    para = "Tokens expire after an hour and must be refreshed by the client. " * 6
    text = f"# Auth\n\n{para}\n\n## Tokens\n\n{para}\n"
    chunks = _chunks(text)
    assert [c.heading for c in chunks] == ["Auth", "Auth > Tokens"]
    assert (chunks[1].start_line, chunks[1].end_line) == (7, 7)


def test_code_blocks_and_tables_are_never_split() -> None:
    code = "\n".join(f"    value_{i} = compute({i})  # step {i}" for i in range(120))
    table = "\n".join(["| a | b |", "|---|---|"] + [f"| row {i} | {'x' * 30} |" for i in range(80)])
    text = f"# Big\n\n```python\n{code}\n```\n\n{table}\n"
    chunks = _chunks(text)
    code_chunk = next(c for c in chunks if "value_0" in c.text)
    assert "value_119" in code_chunk.text and len(code_chunk.text) > MAX_CHARS
    table_chunk = next(c for c in chunks if "row 0" in c.text)
    assert "row 79" in table_chunk.text


def test_oversized_prose_is_split_at_paragraph_boundaries() -> None:
    paras = [f"Paragraph {i} talks about topic {i}. " * 12 for i in range(12)]
    text = "# Long\n\n" + "\n\n".join(paras) + "\n"
    chunks = _chunks(text)
    assert len(chunks) > 1 and all(len(c.text) <= MAX_CHARS for c in chunks)
    for c in chunks:  # no paragraph is cut in two
        assert c.text.count("Paragraph") % 12 == 0


def test_tiny_sections_join_a_neighbour_and_keep_their_title_findable() -> None:
    body = "Install the package with pip and import it in your project. " * 8
    text = f"# Guide\n\nShort intro.\n\n## Install\n\n{body}\n\n## Note\n\nTiny.\n"
    chunks = _chunks(text)
    assert len(chunks) == 1
    assert "Short intro." in chunks[0].text and "Tiny." in chunks[0].text and "Note" in chunks[0].text


def test_front_matter_is_metadata_and_never_a_chunk() -> None:
    doc = markdown.parse("---\ntitle: Hello\ntags: [a, b]\n---\n", "doc.md")
    assert doc.metadata.get("title") == "Hello"
    assert chunk_document(doc) == []


def test_chunk_ids_survive_edits_in_other_sections() -> None:
    body = "Some words about the topic at hand, repeated to make a real chunk. " * 6
    before = _chunks(f"# A\n\n{body}\n\n# B\n\n{body}\n\n# C\n\n{body}\n")
    after = _chunks(f"# A\n\n{body}\nAn added sentence.\n\nAnother paragraph.\n\n# B\n\n{body}\n\n# C\n\n{body}\n")
    ids_before = {c.heading: c.chunk_id for c in before}
    ids_after = {c.heading: c.chunk_id for c in after}
    assert ids_before == ids_after
    assert [c.start_line for c in after][1:] != [c.start_line for c in before][1:]


def test_neighbour_links_follow_reading_order() -> None:
    body = "Enough text to stand alone as a chunk of its own in this document. " * 6
    chunks = _chunks(f"# A\n\n{body}\n\n# B\n\n{body}\n\n# C\n\n{body}\n")
    assert chunks[0].prev_id is None and chunks[0].next_id == chunks[1].chunk_id
    assert chunks[2].prev_id == chunks[1].chunk_id and chunks[2].next_id is None
