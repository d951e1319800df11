"""The indexing fast paths of issue 30 give exactly what the slow paths gave.

- ``lexical.identifiers`` runs the identifier regex only over the word runs that can hold
  an identifier; here it is held to the regex over the whole text (the code before issue
  30, kept below as ``_reference``) on hand-picked edges, random strings of the characters
  that matter, and a sample of the shared corpora (all of them, and bench/scale.py's
  synthetic archive: tests/test_index_fast_paths_corpora.py, slow).
- Markdown headings without inline markup skip markdown-it's inline parse: the chunks of
  the shared Markdown files are the same with and without that shortcut.
"""

from __future__ import annotations

import json
import random

import pytest

from athena_lab.index import lexical
from athena_lab.ingest.chunking import chunk_document
from athena_lab.ingest.parsers import markdown
from corpus_files import CORPORA

pytestmark = pytest.mark.unit


def _reference(text: str) -> list[str]:
    """``identifiers`` as it was before issue 30: ``_IDENT`` over the whole text."""
    found = set()
    for m in lexical._IDENT.finditer(text):
        token = m.group(0).rstrip("()").lower()
        found.add(token)
        if "." in token and not token.startswith("-"):
            found.update(part for part in token.split(".")[1:] if "_" in part or len(part) > 3)
    return sorted(t for t in found if 2 < len(t) <= 80)


EDGES = [
    "", "plain words of prose, nothing else.", "Use --verbose or -v, not real-time or -5.",
    "app.register_blueprint() and os.path.join(a, b) then flask.Flask.", "snake_case __init__ _x x_ a__b",
    "camelCase CamelCase HTTPException XMLParser HTTP_404 DNA mRNA iPhone 3DModel x2Y",
    "e.g. U.S.A. 3.5 v1.2.3 a.b foo..bar .hidden trailing. (--flag) [-x] {--y}",
    "--- -- - -a --a- a-b-c --x-y_z", "Ärger ÉTÉ naïve_wert ÄBC straße.Ding żółw.Żółw",
    "x(--y)z a(b).c_d() f()().g", "\t\n--tab\n.dot\n_under\nCAPS\n", "a" * 100 + "_b " + "C" * 90,
    "mixed-Case_thing.attrName--flag", "(app.run()) `ws.search(q)` \"os.environ['X']\"",
]


@pytest.mark.parametrize("text", EDGES)
def test_identifiers_match_the_whole_text_regex_on_edges(text: str) -> None:
    assert lexical.identifiers(text) == _reference(text)


def test_identifiers_match_the_whole_text_regex_on_random_strings() -> None:
    rng = random.Random(30)
    alphabet = "aBzZ09_-.() \n\tÄé"
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert lexical.identifiers(text) == _reference(text), repr(text)


def test_identifiers_match_the_whole_text_regex_on_a_sample_of_the_corpora() -> None:
    docs = sorted(p for p in (CORPORA / "docs").rglob("*") if p.suffix in {".md", ".rst", ".py", ".html"})
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in docs[::25]]
    with (CORPORA / "scifact" / "corpus.jsonl").open(encoding="utf-8") as f:
        texts += [json.loads(line)["text"] for _, line in zip(range(300), f)]
    found = 0
    for text in texts:
        ours = lexical.identifiers(text)
        assert ours == _reference(text)
        found += len(ours)
    assert len(texts) > 300 and found > 1000


def _chunks_without_the_heading_shortcut(text: str, path: str, monkeypatch: pytest.MonkeyPatch) -> list:
    with monkeypatch.context() as m:
        m.setattr(markdown, "_heading_title", lambda inline: markdown._heading_title_parsed(inline.content))
        return chunk_document(markdown.parse(text, path))


def test_markdown_heading_shortcut_gives_the_same_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    files = sorted((CORPORA / "docs").rglob("*.md"))
    headings = 0
    for path in files[::3]:
        text = path.read_text(encoding="utf-8", errors="replace")
        relative = str(path.relative_to(CORPORA))
        ours = chunk_document(markdown.parse(text, relative))
        assert ours == _chunks_without_the_heading_shortcut(text, relative, monkeypatch), relative
        headings += text.count("\n#")
    assert len(files[::3]) > 50 and headings > 500


@pytest.mark.parametrize("heading", [
    "Plain words", "Trailing  ", "Tab\there", "Ünïcode títle", "Numbers 1 2 3", "Dots. And, commas; (parens)",
    "With `code`", "With *emphasis*", "Escaped \\* star", "Entity &amp; sign", "Anchored { #anchor }",
    "A [link](x)", "<b>html</b>", "Colon: thing", "snake_case", "a-b", "Quote's \"double\"", "Question?",
])
def test_markdown_heading_shortcut_gives_the_parsed_title(heading: str) -> None:
    text = f"# {heading}\n\nBody.\n"
    tokens = markdown._MD.parse(text)
    inline = tokens[1]
    assert markdown._heading_title(inline) == markdown._heading_title_parsed(inline.content)
