"""Issue 31, finding 1: "Insert in notebook" and "Copy" wrote live HTML around the answer.

The answer's own text was made inert line by line, but the parts built around it were not:
a document's heading went raw into the Sources list, a PDF's /Author raw into References,
and a code span opening on one line and closing on the next hid a later ``<img>`` from the
line scanner. In Lab each ``<img src="https://…">`` loaded when the cell rendered.

A real Lab indexes a folder whose headings and PDF metadata carry tags, answers through a
wire-fake model that streams the split-code-span trick, and the test inserts the answer in
a notebook (and pastes what Copy put on the clipboard into another cell), where Lab's own
Markdown renderer and default sanitizer render it. The attacker's server must get no
request and no request may leave Lab's origin; the tags show as text. The same payloads are
in the unit tests of the Markdown builder (labextension/test/inertMarkdown.test.ts).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")

from chat_page import ask, drawn  # noqa: E402
from corpus_files import CORPORA  # noqa: E402
from printed_pdf import printed_pdf  # noqa: E402
from test_sidebar_leaks import (  # noqa: E402
    Attacker,
    assert_nothing_left,
    attacker,  # noqa: F401  (the fixture: an attacker's server for this module)
    lab_answering,
    record_foreign_requests,
)

QUESTION = "How are wombat tokens minted, and what about the crazy ones?"
NOTEBOOK = "wombat-notes.ipynb"
PDF = "misc_pypdf_crazyones-pdfa.pdf"  # "Here's to the crazy ones…": a real text PDF


def hostile_page(attacker: str) -> str:
    """Headings carry tags: they reach the Sources list as the citation's heading path
    (Markdown's parser drops a raw tag from a heading but decodes an escaped one)."""
    return (f'# Wombat tokens\n\n## Minting &lt;img src="{attacker}/heading-md.png"&gt; and `code\n'
            'Wombat tokens are minted at dawn by the crazy ones and rotated hourly.\n')


def hostile_rst(attacker: str) -> str:
    """reStructuredText keeps a tag in a title as written."""
    title = f'Wombat rotation <img src="{attacker}/heading-rst.png">'
    return f"{title}\n{'=' * len(title)}\n\nWombat tokens are rotated hourly, minted at dawn.\n"


def hostile_answer(attacker: str) -> str:
    """A code span that opens on one line and closes on the next: the old line scanner
    paired the second backtick with a later one and left the tag between them raw."""
    return (f"Wombat tokens are minted at dawn [1]. Wombat tokens are rotated hourly [2] [3]. "
            f"Here's to the crazy ones [1] [2] [3]. The code `a\n"
            f"b` <img src=\"{attacker}/split-code-span.png\"> `c` is here.\n\n"
            f"![chart]({attacker}/markdown-image.png) <svg><image href=\"{attacker}/svg.png\"/></svg>\n")


@pytest.fixture(scope="module")
def inert_lab(tmp_path_factory, attacker: Attacker, start_lab) -> Iterator[str]:
    import pypdfium2 as pdfium

    folder = tmp_path_factory.mktemp("inert-root") / "project"
    folder.mkdir()
    (folder / "wombat.md").write_text(hostile_page(attacker.url), encoding="utf-8")
    (folder / "rotation.rst").write_text(hostile_rst(attacker.url), encoding="utf-8")
    # The PDF's record is what its first page prints (its /Info fields only where they
    # agree): the page prints the tags as its title and author line, over the real text.
    title = f'Crazy <img src="{attacker.url}/pdf-title.png"> ones'
    author = f'<img src="{attacker.url}/pdf-author.png">, Ada Lovelace'
    source = pdfium.PdfDocument(str(CORPORA / "pdfs" / PDF))
    body = source[0].get_textpage().get_text_range().splitlines()[2:]  # below its own title and date
    source.close()
    lines = [(title, 22.0), (author, 12.0), ("", 12.0)] + [(line, 11.0) for line in body]
    (folder / "crazy.pdf").write_bytes(printed_pdf(lines, {"Title": title, "Author": author}))
    yield from lab_answering(start_lab, folder, NOTEBOOK, [hostile_answer(attacker.url)])
    shutil.rmtree(folder.parent, ignore_errors=True)


@pytest.fixture
def inert_page(inert_lab: str, open_lab_page, attacker: Attacker, request) -> Iterator[object]:
    with open_lab_page(inert_lab, request.node.name) as tab:
        record_foreign_requests(tab, inert_lab)
        attacker.hits.clear()
        yield tab


def _rendered_cells(page):
    return page.locator(".jp-Notebook .jp-MarkdownCell.jp-mod-rendered .jp-RenderedMarkdown")


def test_inserted_and_copied_answers_with_hostile_headings_and_pdf_metadata_fetch_nothing(
        inert_page, attacker: Attacker) -> None:
    page = inert_page
    page.evaluate(f"async () => {{ await window.jupyterapp.commands.execute('docmanager:open', {{path: '{NOTEBOOK}'}}); }}")
    page.locator(".jp-Notebook .jp-MarkdownCell").first.wait_for(timeout=60_000)
    answer = ask(page, QUESTION)
    citations = answer.locator('[data-testid="athena-citation"]')
    assert citations.count() >= 3, answer.inner_text()

    answer.locator(".athena-insert").click()
    inserted = _rendered_cells(page).nth(1)
    inserted.wait_for(timeout=30_000)
    drawn(page)
    assert_nothing_left(page, attacker)
    text = inserted.inner_text()
    # Every tag is shown as the text it was, in the answer, the Sources and the References.
    for shown in ("split-code-span.png", "heading-md.png", "heading-rst.png", "pdf-author.png", "pdf-title.png"):
        assert f'{attacker.url}/{shown}' in text, (shown, text)
    assert "Sources" in text and "References" in text and "Ada Lovelace" in text
    assert inserted.locator("img, svg, image").count() == 0
    links = inserted.locator("a").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert f"{attacker.url}/markdown-image.png" in links  # the image, offered as a link

    # Copy: what it put on the clipboard, pasted into a new Markdown cell and rendered.
    answer.locator(".athena-copy").click()
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert "pdf-author.png" in copied and "heading-rst.png" in copied
    page.evaluate("""(source) => {
        const panel = window.jupyterapp.shell.currentWidget;
        const notebook = panel.content;
        notebook.activeCellIndex = notebook.widgets.length - 1;
        window.jupyterapp.commands.execute('notebook:insert-cell-below');
        window.jupyterapp.commands.execute('notebook:change-cell-to-markdown');
        notebook.activeCell.model.sharedModel.setSource(source);
        return window.jupyterapp.commands.execute('notebook:run-cell');
    }""", copied)
    pasted = _rendered_cells(page).nth(2)
    pasted.wait_for(timeout=30_000)
    assert "pdf-author.png" in pasted.inner_text()
    assert pasted.locator("img, svg, image").count() == 0
    drawn(page)
    assert_nothing_left(page, attacker)
