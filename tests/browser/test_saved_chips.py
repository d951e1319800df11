"""Issue 31, finding 4: a saved answer in someone else's notebook could act for its reader.

Its chips were followed as written: one opened ``../private.txt``; "Open PDF" on a chip
that called ``../work.ipynb`` a PDF disposed the reader's open notebook, unsaved edits and
all. A real Lab opens the reader's notebook, edits it without saving, then opens a shared
notebook holding a saved answer with crafted chips:

- unsigned (untrusted, as a notebook from someone else is), its chips open nothing and say
  why, as Jupyter's own untrusted output runs nothing;
- signed (trusted), a chip opens only an indexed source inside the folder, as the kind the
  index gives it: ``../`` paths open nothing, a notebook called a PDF opens as the notebook;
- the reader's notebook stays open with its edits throughout, also when a PDF preview is
  made for its path by command and its "Open PDF" is clicked.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator

import nbformat
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")

from chat_page import drawn, set_theme  # noqa: E402
from conftest import ARTIFACTS  # noqa: E402

ANSWER_MIME = "application/vnd.athena.answer+json"
WORK = "work.ipynb"
SHARED = "shared-answer.ipynb"
SIGNED = "shared-answer-signed.ipynb"
CHIPS = [
    {"id": 1, "kind": "text", "path": "../private.txt", "start_line": 1, "end_line": 1},
    {"id": 2, "kind": "pdf", "path": f"../{WORK}", "page": 1},
    {"id": 3, "kind": "pdf", "path": "notes.ipynb", "page": 1},  # an indexed notebook, called a PDF
    {"id": 4, "kind": "text", "path": "docs/guide.md", "start_line": 3, "end_line": 3},
]
MAIN_PATHS = """() => Array.from(window.jupyterapp.shell.widgets('main'))
    .map(w => (w.context && w.context.path) || (w.node.dataset && w.node.dataset.path) || w.title.label)"""
WORK_DIRTY = f"""() => {{ const w = Array.from(window.jupyterapp.shell.widgets('main'))
    .find(w => w.context && w.context.path === '{WORK}'); return w ? w.context.model.dirty : null; }}"""


def _notebook(cells: list) -> nbformat.NotebookNode:
    return nbformat.v4.new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})


def _shared(signed: bool) -> nbformat.NotebookNode:
    state = {"question": "Where are the tokens?", "answer": "They are in the guide [4] and elsewhere [1] [2] [3].",
             "citations": CHIPS, "mode": "extractive", "unsupported": [], "trace": []}
    output = nbformat.v4.new_output("display_data", data={ANSWER_MIME: state, "text/plain": "athena answer"})
    cell = nbformat.v4.new_code_cell("%athena Where are the tokens?", outputs=[output], execution_count=1)
    nb = _notebook([cell])
    if signed:
        from nbformat.sign import NotebookNotary

        NotebookNotary().sign(nb)
    return nb


@pytest.fixture(scope="module")
def chips_lab(tmp_path_factory, start_lab) -> Iterator[str]:
    root = tmp_path_factory.mktemp("chips-root")
    folder = root / "project"
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "guide.md").write_text("# Guide\n\nTokens live in the vault.\n", encoding="utf-8")
    nbformat.write(_notebook([nbformat.v4.new_markdown_cell("# Notes\n\nTokens are rotated nightly.")]),
                   folder / "notes.ipynb")
    (root / "private.txt").write_text("the reader's private notes\n", encoding="utf-8")
    nbformat.write(_notebook([nbformat.v4.new_markdown_cell("My work")]), root / WORK)
    nbformat.write(_shared(False), root / SHARED)
    nbformat.write(_shared(True), root / SIGNED)
    lexical = {"ATHENA_EMBEDDING__PROVIDER": "none"}
    subprocess.run([sys.executable, "-m", "athena_lab.cli", "index", str(folder)], check=True, timeout=300,
                   capture_output=True, env={**os.environ, **lexical})
    with start_lab(folder, {**lexical, "ATHENA_LLM__PROVIDER": "extractive"}) as url:
        yield url


def _open(page, path: str):
    page.evaluate(f"async () => {{ await window.jupyterapp.commands.execute('docmanager:open', {{path: {json.dumps(path)}}}); }}")
    panel = page.get_by_label(path, exact=True)
    panel.wait_for(timeout=60_000)
    return panel


def _dismiss_dialog(page) -> str:
    dialog = page.locator(".jp-Dialog")
    dialog.wait_for(timeout=15_000)
    text = dialog.inner_text()
    dialog.locator(".jp-Dialog-button").last.click()
    dialog.wait_for(state="detached")
    return text


def test_crafted_chips_open_nothing_and_unsaved_edits_stay(chips_lab, open_lab_page, request) -> None:
    with open_lab_page(chips_lab, request.node.name) as page:
        _open(page, WORK).locator(".jp-MarkdownCell").first.wait_for(timeout=60_000)
        page.evaluate(f"""() => Array.from(window.jupyterapp.shell.widgets('main'))
            .find(w => w.context && w.context.path === '{WORK}').content.model.sharedModel.cells[0]
            .setSource('My work, and an edit the reader has not saved')""")
        page.wait_for_function(WORK_DIRTY)

        untrusted = _open(page, SHARED).locator('[data-testid="athena-saved-answer"]')
        untrusted.locator(".athena-chip").first.wait_for(timeout=60_000)
        before = page.evaluate(MAIN_PATHS)
        for n, chip in enumerate(CHIPS):
            untrusted.locator(".athena-chip").nth(n).click()
            drawn(page)
            opened = page.evaluate(MAIN_PATHS)
            assert opened == before, f"an untrusted notebook's chip {chip} opened {set(opened) - set(before)}"
            assert page.locator(".jp-Dialog").count() == 0
        assert "not trusted" in untrusted.locator('[data-testid="athena-untrusted"]').inner_text()
        for theme, light in (("JupyterLab Dark", False), ("JupyterLab Light", True)):
            set_theme(page, theme, light)
            untrusted.screenshot(path=str(ARTIFACTS / f"saved-answer-untrusted-{'light' if light else 'dark'}.png"))

        signed = _open(page, SIGNED).locator('[data-testid="athena-saved-answer"]')
        signed.locator(".athena-chip").first.wait_for(timeout=60_000)
        chips = signed.locator(".athena-chip")
        before = page.evaluate(MAIN_PATHS)
        chips.nth(0).click()  # ../private.txt
        assert "not a source in the indexed folder" in _dismiss_dialog(page)
        chips.nth(1).click()  # ../work.ipynb, called a PDF
        assert "not a source in the indexed folder" in _dismiss_dialog(page)
        assert page.evaluate(MAIN_PATHS) == before
        assert page.evaluate(WORK_DIRTY) is True

        chips.nth(2).click()  # notes.ipynb, called a PDF: opened as the notebook it is
        page.wait_for_function("() => { const w = window.jupyterapp.shell.currentWidget;"
                               " return w && w.context && w.context.path === 'project/notes.ipynb' && w.content.widgets; }",
                               timeout=30_000)
        assert page.locator('[data-testid="athena-pdf-preview"]').count() == 0
        _open(page, SIGNED)
        chips.nth(3).click()  # a real indexed source: opens
        page.wait_for_function("() => { const w = window.jupyterapp.shell.currentWidget;"
                               " return w && w.context && w.context.path === 'project/docs/guide.md'; }", timeout=30_000)
        paths = page.evaluate(MAIN_PATHS)
        assert "private.txt" not in paths and not any("private" in str(p) for p in paths), paths

        # A PDF preview for the reader's notebook's path (by command, as Lab's layout restorer
        # reopens one), and its "Open PDF": the notebook with unsaved edits is not closed.
        page.evaluate(f"""() => window.jupyterapp.commands.execute('athena:open-pdf-preview',
            {{path: '{WORK}', citation: {{id: 1, kind: 'pdf', path: '{WORK}', page: 1}}}})""")
        page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab", has_text=f"{WORK} \u2014 p. 1").click()
        preview = page.locator('[data-testid="athena-pdf-preview"] >> visible=true')
        preview.locator(".athena-open-pdf").click()
        drawn(page)
        assert page.evaluate(WORK_DIRTY) is True, "the reader's notebook was closed with its edits"
        source = page.evaluate(f"""() => Array.from(window.jupyterapp.shell.widgets('main'))
            .find(w => w.context && w.context.path === '{WORK}').content.model.sharedModel.cells.map(c => c.getSource()).join("\\n")""")
        assert "an edit the reader has not saved" in source, source
