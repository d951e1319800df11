"""Issue 21 §1 in a real Lab: the Markdown cell the sidebar's "Insert in notebook" adds is
saved with athena's mark in its metadata, so the notebook parser leaves it out (athena
never cites its own answers) while the user's own cells stay indexed."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")

from chat_page import ask  # noqa: E402

from athena_lab.ingest.parsers import notebook as notebook_parser  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

QUESTION = "How do I configure the SECRET_KEY in Flask?"
NOTEBOOK = "insert-marked.ipynb"


def test_an_inserted_answer_is_saved_marked_and_left_out_of_the_index(page, corpus: Path) -> None:
    nb = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                           "language": "python"}})
    nb.cells.append(nbformat.v4.new_markdown_cell("My own notes on the wallaby deployment."))
    nbformat.write(nb, corpus.parent / NOTEBOOK)
    page.evaluate(f"async () => {{ await window.jupyterapp.commands.execute('docmanager:open', {{path: '{NOTEBOOK}'}}); }}")
    page.locator(".jp-Notebook .jp-MarkdownCell").first.wait_for(timeout=60_000)
    page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=60_000)  # the notebook has settled
    answer = ask(page, QUESTION)
    answer.locator(".athena-insert").click()
    page.locator(".jp-Notebook .jp-MarkdownCell").nth(1).wait_for(timeout=30_000)
    page.evaluate("async () => { await window.jupyterapp.commands.execute('docmanager:save'); }")
    saved = corpus.parent / NOTEBOOK
    page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=30_000)

    cells = nbformat.read(saved, as_version=4).cells
    assert len(cells) == 2 and "SECRET_KEY" in cells[1].source, [c.source for c in cells]
    assert cells[1].metadata.get("athena_lab") == {"generated": True}, cells[1].metadata
    assert "athena_lab" not in cells[0].metadata
    doc = notebook_parser.parse(saved.read_text(encoding="utf-8"), NOTEBOOK)
    assert [(b.cell, b.text) for s in doc.sections for b in s.blocks] == [
        (0, "My own notes on the wallaby deployment.")]
