"""The inline answer widget in a real JupyterLab: a notebook executed by nbclient (widget
state saved) is opened, the answer renders from that state, and a citation chip asks Lab's
athena extension to open the source (``athena:open-citation``) in an editor tab with the
cited lines selected, exactly as the sidebar does."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

from athena_lab.models import narrowest
import pytest
from nbformat.sign import NotebookNotary

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from kernel_notebooks import answer_widget_state, execute, notebook  # noqa: E402

QUESTION = "How do I configure the SECRET_KEY in Flask?"
NOTEBOOK = "athena-answer.ipynb"


@pytest.fixture(scope="module")
def answer_notebook(corpus: Path) -> dict:
    """An executed notebook beside the indexed folder, saved with its widget state and
    signed as trusted (Lab renders widget views only in trusted outputs)."""
    nb = notebook(f"from athena_lab import Athena\na = Athena({str(corpus)!r})\na.ask({QUESTION!r})")
    execute(nb, corpus.parent)
    NotebookNotary().sign(nb)
    nbformat.write(nb, corpus.parent / NOTEBOOK)
    return answer_widget_state(nb, nb.cells[0])


def test_saved_answer_widget_renders_and_a_chip_opens_the_source_at_the_cited_lines(page, answer_notebook,
                                                                                    corpus: Path) -> None:
    page.evaluate(f"() => window.jupyterapp.commands.execute('docmanager:open', {{path: '{NOTEBOOK}'}})")
    widget = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .athena-widget").first
    widget.wait_for(timeout=60_000)
    assert "language model" not in widget.locator(".athena-answer").inner_text(), "the mode is in the chip, not the answer"
    assert widget.locator(".athena-marker").count() >= 1, "[n] markers render as chips inside the text"
    chips = widget.locator(".athena-chip")
    assert chips.count() == len(answer_notebook["citations"]) >= 1
    first = next(c for c in answer_notebook["citations"] if c["kind"] == "text")
    chips.nth(answer_notebook["citations"].index(first)).click()
    page.wait_for_function(
        "(path) => { const w = window.jupyterapp.shell.currentWidget;"
        " return w && w.content && w.content.editor && w.context.path.endsWith(path); }",
        arg=first["path"], timeout=30_000)
    # The chip opens where the quoted sentences are (the label's lines: models.narrowest),
    # once the sidebar has checked where the passage is now.
    cited = narrowest(first)
    expected = {"start": cited["start_line"] - 1, "end": cited["end_line"] - 1}
    page.wait_for_function(
        """(want) => { const s = window.jupyterapp.shell.currentWidget.content.editor.getSelection();
                      return s.start.line === want.start && s.end.line === want.end; }""",
        arg=expected, timeout=10_000)
    assert page.evaluate("() => window.__athenaPwned") is None
    assert not page.athena_errors  # type: ignore[attr-defined]
