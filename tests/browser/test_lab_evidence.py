"""Cited evidence opens exactly in a real JupyterLab: a PDF preview scrolled to the boxes of
the quoted lines, one preview tab per PDF, "Open PDF" at the cited page, cited text lines
marked until dismissed, a notebook at the cell holding the quote."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import nbformat
import pytest

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")

from chat_page import ask, drawn, wait_for_theme  # noqa: E402
from conftest import ARTIFACTS, PDF_NAME, index_with_cli  # noqa: E402
from corpus_files import CORPORA  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PDF_PATH = f"papers/{PDF_NAME}"
LOW_ON_PAGE_1 = "When did Microsoft launch Word for MS-DOS?"  # the last lines of page 1
ON_PAGE_3 = "What did Track Changes allow users to do?"
# The cited file's tab (other editors may be open, hidden, from earlier tests).
CURRENT = "window.jupyterapp.shell.currentWidget.node"
TEXT_QUESTION = "When does the lighthouse keeper wind the clockwork lamp?"
NOTEBOOK_QUESTION = "How far do quokkas migrate each night?"
QUOKKA_QUOTE = "Quokkas migrate slowly"
SHOTS = ARTIFACTS / "evidence"


def _guide() -> str:
    """A Markdown page whose answer sits well below its top, in the middle of a section."""
    filler = [f"Paragraph {n} describes the harbour wall, the tides and the gulls." for n in range(1, 31)]
    return "\n\n".join([
        "# Lighthouse guide", *filler[:15], "## The lamp",
        "The lighthouse keeper winds the clockwork lamp every evening at dusk, before the first ship passes.",
        "Its lens turns twice a minute.", *filler[15:],
    ]) + "\n"


NOTEBOOK_CELLS = [
    ("markdown", "# Field notes"),
    ("code", "import math\nsites = ['north', 'south']\nprint(len(sites))"),
    ("markdown", "Island survey.\n\nTide tables were copied by hand.\n\n"
                 f"{QUOKKA_QUOTE}: about two kilometres a night across Rottnest Island."),
    ("code", "speed_km_per_night = 2\nprint(speed_km_per_night)"),
]
QUOKKA_CELL = next(i for i, (_, source) in enumerate(NOTEBOOK_CELLS) if QUOKKA_QUOTE in source)


def _notebook(path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(source) if kind == "markdown" else nbformat.v4.new_code_cell(source)
                for kind, source in NOTEBOOK_CELLS]
    nbformat.write(nb, str(path))


@pytest.fixture(scope="module")
def evidence_lab(start_lab, tmp_path_factory: pytest.TempPathFactory):
    """A Lab on a folder with a five-page PDF, a Markdown page and a notebook, indexed."""
    folder = tmp_path_factory.mktemp("evidence-root") / "project"
    for sub in ("docs", "papers", "notebooks"):
        (folder / sub).mkdir(parents=True)
    shutil.copy(CORPORA / "pdfs" / PDF_NAME, folder / PDF_PATH)
    (folder / "docs" / "guide.md").write_text(_guide(), encoding="utf-8")
    _notebook(folder / "notebooks" / "field.ipynb")
    index_with_cli(folder)
    with start_lab(folder, {"ATHENA_LLM__PROVIDER": "extractive"}) as url:
        yield url


@pytest.fixture
def lab_tab(open_lab_page, evidence_lab, request):
    with open_lab_page(evidence_lab, request.node.name) as tab:
        yield tab


def answer_citations(tab, question: str, kind: str) -> tuple[object, list[dict]]:
    """Ask; the finished answer and the citations it was sent with (from the SSE wire)."""
    chats = []
    tab.on("response", lambda r: chats.append(r) if "/athena/chat" in r.url else None)
    answer = ask(tab, question, kind=kind)
    citations: list[dict] = []
    for block in chats[-1].text().split("\n\n"):
        if block.startswith("event: citations"):
            for line in block.splitlines():
                if line.startswith("data: "):
                    citations = json.loads(line[len("data: "):])["citations"]
    assert citations, f"no citations for {question!r}"
    return answer, citations


def open_first(tab, answer, citations: list[dict], kind: str) -> dict:
    """Click the first listed source of `kind`; the citation it stands for."""
    source = answer.locator(f'[data-testid="athena-citation"][data-kind="{kind}"]').first
    label = source.inner_text()
    cited = next(c for c in citations if c["kind"] == kind and f"[{c['id']}]" in label)
    source.click()
    return cited


def narrow_regions(citation: dict) -> tuple[int, list[dict]]:
    """The page a PDF citation opens at and the quoted lines' regions on it (models.narrowest)."""
    regions = [{**r, "page": r.get("page", e.get("page"))} for e in citation.get("evidence") or []
               for r in e.get("regions") or []]
    assert regions, f"the citation has no located quote: {citation}"
    page = min(r["page"] for r in regions)
    return page, sorted((r for r in regions if r["page"] == page), key=lambda r: (r["y"], r["x"]))


PREVIEW_STATE = """() => {
  const area = document.querySelector('[data-testid="athena-pdf-preview"] .athena-pdf-page');
  const boxes = [...area.querySelectorAll('[data-testid="pdf-region"]')];
  const view = area.getBoundingClientRect();
  const first = boxes[0].getBoundingClientRect();
  return {scrollTop: area.scrollTop, clientHeight: area.clientHeight,
          firstTop: first.top - view.top, firstBottom: first.bottom - view.top,
          offsetTop: boxes[0].offsetTop,
          page: Number(document.querySelector('[data-testid="athena-pdf-preview"]').dataset.page),
          boxes: boxes.map(b => ({x: Number(b.dataset.x), y: Number(b.dataset.y)}))};
}"""


def wait_for_boxes(tab, page: int) -> dict:
    tab.wait_for_function(
        "(page) => { const p = document.querySelector('[data-testid=\"athena-pdf-preview\"]');"
        " return p && Number(p.dataset.page) === page && p.querySelector('[data-testid=\"pdf-region\"]')"
        " && p.querySelector('img').complete; }", arg=page, timeout=30_000)
    drawn(tab)  # the scroll happens in the frame after the boxes are placed
    return tab.evaluate(PREVIEW_STATE)


def preview_tabs(tab) -> list[dict]:
    return tab.evaluate(
        "() => [...window.jupyterapp.shell.widgets('main')]"
        ".filter(w => w.hasClass('athena-pdf-preview-tab'))"
        ".map(w => ({label: w.title.label, caption: w.title.caption, id: w.id}))")


def test_pdf_preview_scrolls_to_the_first_box_of_the_quoted_lines(lab_tab):
    answer, citations = answer_citations(lab_tab, LOW_ON_PAGE_1, "pdf")
    cited = open_first(lab_tab, answer, citations, "pdf")
    page, regions = narrow_regions(cited)
    state = wait_for_boxes(lab_tab, page)
    # The boxes are the quoted lines, not the whole chunk: same page, same rectangles.
    assert state["page"] == page
    assert [(round(b["x"], 1), round(b["y"], 1)) for b in state["boxes"]] == \
        [(round(r["x"], 1), round(r["y"], 1)) for r in regions]
    chunk_regions = [r for r in cited.get("regions") or [] if r.get("page", cited.get("page")) == page]
    assert len(state["boxes"]) < len(chunk_regions) or not chunk_regions, "the whole chunk is boxed"
    # The first box is in view; it lies below the first screenful, so the page was scrolled.
    assert 0 <= state["firstTop"] and state["firstBottom"] <= state["clientHeight"], state
    assert state["offsetTop"] > state["clientHeight"], "pick a quote lower on the page"
    assert state["scrollTop"] > 0, state
    shoot(lab_tab, "pdf-preview-scrolled")
    # Narrower, the boxes shrink with the page and stay on the quoted lines.
    lab_tab.set_viewport_size({"width": 820, "height": 700})
    lab_tab.wait_for_function("window.innerWidth === 820")
    drawn(lab_tab)  # Lab lays its panels out in the frame after the resize, the preview its boxes in the next
    drawn(lab_tab)
    shoot(lab_tab, "pdf-preview-narrow", themes=("light",))


def test_two_pages_of_one_pdf_share_one_preview_tab_titled_by_page(lab_tab):
    answer, citations = answer_citations(lab_tab, LOW_ON_PAGE_1, "pdf")
    first_page, _ = narrow_regions(open_first(lab_tab, answer, citations, "pdf"))
    wait_for_boxes(lab_tab, first_page)
    answer, citations = answer_citations(lab_tab, ON_PAGE_3, "pdf")
    second_page, regions = narrow_regions(open_first(lab_tab, answer, citations, "pdf"))
    assert second_page != first_page
    state = wait_for_boxes(lab_tab, second_page)
    assert len(state["boxes"]) == len(regions)
    tabs = preview_tabs(lab_tab)
    assert len(tabs) == 1, tabs
    assert tabs[0]["label"] == f"{PDF_NAME} \u2014 p. {second_page}"
    assert tabs[0]["caption"].startswith(f"project/{PDF_PATH}")
    assert lab_tab.locator(".lm-TabBar-tab .lm-TabBar-tabLabel", has_text=PDF_NAME).count() == 1


def test_open_pdf_opens_the_document_at_the_cited_page(lab_tab):
    answer, citations = answer_citations(lab_tab, ON_PAGE_3, "pdf")
    page, _ = narrow_regions(open_first(lab_tab, answer, citations, "pdf"))
    wait_for_boxes(lab_tab, page)
    lab_tab.locator(".athena-open-pdf").click()
    lab_tab.wait_for_function(
        "(path) => { const w = window.jupyterapp.shell.currentWidget;"
        " return w && w.context && w.context.path === path; }", arg=f"project/{PDF_PATH}", timeout=20_000)
    # Lab's pdf-extension hands the fragment to the browser's viewer: <object data="blob:…#page=N">.
    data = lab_tab.wait_for_function(
        """() => { const w = window.jupyterapp.shell.currentWidget;
                   const frame = w.node.querySelector('.jp-PDFContainer iframe');
                   const object = frame && frame.contentDocument && frame.contentDocument.querySelector('object');
                   return object && object.data && object.data.includes('#') && object.data; }""",
        timeout=20_000).json_value()
    assert data.startswith("blob:") and data.endswith(f"#page={page}"), data
    lab_tab.wait_for_timeout(3000)  # for the screenshot: the browser's viewer draws the page
    shoot(lab_tab, "open-pdf-at-page", themes=("light",))
    # The PDF already open, a source on another page moves its viewer there.
    answer, citations = answer_citations(lab_tab, LOW_ON_PAGE_1, "pdf")
    other, _ = narrow_regions(open_first(lab_tab, answer, citations, "pdf"))
    assert other != page
    wait_for_boxes(lab_tab, other)
    lab_tab.locator(".athena-open-pdf").click()
    lab_tab.wait_for_function(
        """(page) => { const w = window.jupyterapp.shell.currentWidget;
                       const frame = w.node.querySelector('.jp-PDFContainer iframe');
                       const object = frame && frame.contentDocument && frame.contentDocument.querySelector('object');
                       return object && object.data.endsWith('#page=' + page); }""", arg=other, timeout=20_000)
    documents = lab_tab.evaluate("() => [...window.jupyterapp.shell.widgets('main')]"
                                 ".filter(w => w.context && w.context.path.endsWith('.pdf')).length")
    assert documents == 1
    lab_tab.wait_for_timeout(3000)
    shoot(lab_tab, "open-pdf-again-at-other-page", themes=("light",))


EDITOR_MARKS = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const view = w.content.editor.editor;
  const lines = [...w.node.querySelectorAll('.athena-cited-line')]
    .map(el => view.state.doc.lineAt(view.posAtDOM(el)).number);
  return {path: w.context.path, lines, clear: w.node.querySelectorAll('[data-testid="athena-cited-clear"]').length};
}"""


def text_lines(citation: dict, cell: int | None = None) -> list[int]:
    """The lines of the quoted sentences (those in `cell`, for a notebook): each one's own."""
    evidence = [e for e in citation.get("evidence") or [] if cell is None or e.get("cell") == cell]
    assert evidence, f"the citation has no located quote: {citation}"
    return sorted({n for e in evidence for n in range(e["start_line"], e["end_line"] + 1)})


def test_cited_text_lines_stay_marked_after_a_click_until_dismissed(lab_tab):
    answer, citations = answer_citations(lab_tab, TEXT_QUESTION, "markdown")
    cited = open_first(lab_tab, answer, citations, "text")
    lab_tab.wait_for_function(
        "() => { const w = window.jupyterapp.shell.currentWidget;"
        " return w && w.context && w.context.path.endsWith('guide.md') && w.node.querySelector('.athena-cited-line'); }",
        timeout=20_000)
    marks = lab_tab.evaluate(EDITOR_MARKS)
    assert marks["lines"] == text_lines(cited), (marks, cited)
    assert marks["clear"] == 1
    assert "lighthouse keeper winds" in lab_tab.locator(".athena-cited-line").first.inner_text()
    shoot(lab_tab, "text-marked")
    # Its × dismisses it.
    lab_tab.locator('.jp-FileEditor:visible [data-testid="athena-cited-clear"]').click()
    lab_tab.wait_for_function(f"() => !{CURRENT}.querySelector('.athena-cited-line')")
    # Opened again, the mark comes back; a click elsewhere in the editor (which would drop
    # a selection) keeps it, and Escape in the editor dismisses it.
    answer.locator('[data-testid="athena-citation"][data-kind="text"]').first.click()
    lab_tab.locator(".jp-FileEditor:visible .athena-cited-line").first.wait_for()
    lab_tab.locator(".jp-FileEditor:visible .cm-line").first.click()
    # The click has reached the editor once focus is in it (Escape goes to the focused editor too).
    lab_tab.wait_for_function(f"() => {CURRENT}.querySelector('.cm-editor').contains(document.activeElement)")
    drawn(lab_tab)
    assert lab_tab.evaluate(EDITOR_MARKS)["lines"] == marks["lines"]
    lab_tab.keyboard.press("Escape")
    lab_tab.wait_for_function(f"() => !{CURRENT}.querySelector('.athena-cited-line')")
    # An edit dismisses it as well: the marked lines no longer hold what was cited.
    answer.locator('[data-testid="athena-citation"][data-kind="text"]').first.click()
    lab_tab.locator(".jp-FileEditor:visible .athena-cited-line").first.wait_for()
    assert not lab_tab.evaluate("() => window.jupyterapp.shell.currentWidget.context.model.dirty")
    lab_tab.keyboard.type("x")
    lab_tab.wait_for_function(f"() => !{CURRENT}.querySelector('.athena-cited-line')")
    lab_tab.keyboard.press("Control+z")  # leave the file as indexed


def test_notebook_citation_opens_at_the_cell_holding_the_quote(lab_tab):
    answer, citations = answer_citations(lab_tab, NOTEBOOK_QUESTION, "notebook")
    cited = open_first(lab_tab, answer, citations, "notebook")
    holding = QUOKKA_CELL
    lab_tab.wait_for_function(
        "(i) => { const w = window.jupyterapp.shell.currentWidget;"
        " return w && w.content && w.content.activeCellIndex === i"
        " && w.content.widgets[i].node.querySelector('.athena-cited-line'); }", arg=holding, timeout=20_000)
    marked = lab_tab.evaluate(
        """(i) => { const cell = window.jupyterapp.shell.currentWidget.content.widgets[i];
                    const view = cell.editor.editor;
                    return [...cell.node.querySelectorAll('.athena-cited-line')]
                      .map(el => view.state.doc.lineAt(view.posAtDOM(el)).number); }""", holding)
    assert marked == text_lines(cited, holding), (marked, cited.get("evidence"))
    assert QUOKKA_QUOTE in lab_tab.locator(".jp-Notebook .athena-cited-line").first.inner_text()
    shoot(lab_tab, "notebook-cell-marked", themes=("light",))


def shoot(tab, name: str, themes: tuple[str, ...] = ("light", "dark")) -> None:
    """Screenshots of what the test left on screen, in each theme, for people to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    out = SHOTS
    out.mkdir(parents=True, exist_ok=True)
    names = {"light": "JupyterLab Light", "dark": "JupyterLab Dark"}
    for theme in themes:
        tab.evaluate("(t) => window.jupyterapp.commands.execute('apputils:change-theme', {theme: t})", names[theme])
        tab.wait_for_function("(t) => document.body.dataset.jpThemeName === t", arg=names[theme], timeout=10_000)
        wait_for_theme(tab, light=theme == "light")
        tab.screenshot(path=str(out / f"{name}-{theme}.png"))
    if themes[-1] != "light":
        tab.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Light'})")
