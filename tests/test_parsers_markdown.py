from __future__ import annotations

from test_parsers_common import CORPUS, blocks, check_corpus

import pytest

from athena_lab.ingest.parsers import markdown

pytestmark = pytest.mark.unit


def _parse_file(relative: str):
    text = (CORPUS / relative).read_text(encoding="utf-8")
    return markdown.parse(text, relative), text


def test_every_block_of_real_markdown_points_at_its_source_lines():
    files = sorted((CORPUS / "fastapi/docs/en/docs/tutorial").rglob("*.md"))[:40]
    files += sorted((CORPUS / "pydantic/docs").rglob("*.md"))[:40]
    assert check_corpus(files, markdown.parse) > 1000


def test_fastapi_heading_path_lines_and_fenced_code_block():
    doc, _ = _parse_file("fastapi/docs/en/docs/tutorial/first-steps.md")
    assert doc.title == "First Steps"
    section = next(s for s in doc.sections if s.heading_path[-1] == "Check it")
    assert section.heading_path == ["First Steps", "Check it"]
    assert section.level == 3 and section.heading_line == 65
    code = next(b for b in section.blocks if b.kind == "code")
    assert (code.start_line, code.end_line) == (71, 73)
    assert '{"message": "Hello World"}' in code.text
    assert not any(b.text.startswith("### ") for b in blocks(doc))


def test_front_matter_is_metadata_not_a_chunk():
    doc, _ = _parse_file("pydantic/docs/migration.md")
    assert doc.metadata["description"] == "Migrating from Pydantic V1."
    first = blocks(doc)[0]
    assert first.start_line == 5 and first.text.startswith("Pydantic V2 introduces")
    assert not any("description:" in b.text for b in blocks(doc))


def test_front_matter_title_wins_and_lists_are_read():
    text = "---\ntitle: \"Guide\"\ntags: [a, b]\nauthors:\n  - Ann\n  - Bo\n---\n# Other\n\nBody\n"
    doc = markdown.parse(text, "g.md")
    assert doc.title == "Guide"
    assert doc.metadata == {"title": "Guide", "tags": ["a", "b"], "authors": ["Ann", "Bo"]}


def test_setext_headings_and_content_before_first_heading():
    text = "Intro line\n\nTitle\n=====\n\nbody\n\nSub\n---\n\nmore\n"
    doc = markdown.parse(text, "s.md")
    assert [(s.heading_path, s.level, s.heading_line) for s in doc.sections] == [
        (["Title"], 0, None), (["Title"], 1, 3), (["Title", "Sub"], 2, 8)]
    assert [(b.text, b.start_line) for b in blocks(doc)] == [
        ("Intro line", 1), ("body", 6), ("more", 11)]


def test_mdx_imports_dropped_and_jsx_children_kept_as_text():
    text = (
        "import Tabs from '@theme/Tabs';\n"        # 1
        "import {\n  A,\n} from './a';\n"          # 2-4
        "\n# Install\n\n"                           # 5-7
        "<Tabs>\n"                                  # 8
        "  <TabItem value=\"pip\">\n"               # 9
        "    Run this:\n\n"                         # 10-11
        "    ```bash\n    pip install x\n    ```\n" # 12-14
        "  </TabItem>\n</Tabs>\n\n"                 # 15-17
        "<Callout type=\"warn\">Careful now</Callout>\n"  # 18
        "export const meta = {a: 1};\n"             # 19
    )
    doc = markdown.parse(text, "docs/install.mdx")
    got = [(b.kind, b.start_line, b.end_line, b.text) for b in blocks(doc)]
    assert got == [("paragraph", 10, 10, "Run this:"),
                   ("code", 12, 14, "```bash\npip install x\n```"),
                   ("paragraph", 18, 18, "Careful now")]
    assert doc.title == "Install"


def test_html_block_keeps_text_without_tags_and_table_is_one_block():
    text = "# T\n\n<div class=\"x\">\n<b>Bold</b> words\n</div>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    doc = markdown.parse(text, "h.md")
    assert [(b.kind, b.start_line, b.end_line, b.text) for b in blocks(doc)] == [
        ("paragraph", 3, 5, "Bold words"), ("table", 7, 9, "| a | b |\n|---|---|\n| 1 | 2 |")]


def test_admonition_body_is_text_not_indented_code():
    text = "!!! note \"Heads up\"\n\n    Body of the note.\n\nAfter.\n"
    got = [(b.kind, b.start_line, b.text) for b in blocks(markdown.parse(text, "a.md"))]
    assert got == [("paragraph", 1, '!!! note "Heads up"'),
                   ("paragraph", 3, "Body of the note."), ("paragraph", 5, "After.")]


def test_empty_text_gives_no_blocks():
    doc = markdown.parse("", "e.md")
    assert blocks(doc) == [] and doc.title is None


def test_large_markdown_parses_in_linear_time():
    text = (CORPUS / "fastapi/docs/en/docs/tutorial/first-steps.md").read_text() * 40
    doc = markdown.parse(text, "big.md")
    assert len(blocks(doc)) > 2000
