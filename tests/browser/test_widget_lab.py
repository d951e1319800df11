"""The inline answer widget in a real JupyterLab: a notebook executed by nbclient (widget
state saved) is opened, the answer renders from that state, and a citation chip asks Lab
to open the source (``athena:open-citation``), falling back to the inline preview of the
cited lines when no extension takes it."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
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


def test_saved_answer_widget_renders_and_a_chip_falls_back_to_the_inline_preview(page, answer_notebook,
                                                                                  corpus: Path) -> None:
    page.evaluate("""() => {
        window.__athenaOpened = [];
        window.addEventListener('athena:open-citation', e => window.__athenaOpened.push(e.detail));
    }""")
    page.evaluate(f"() => window.jupyterapp.commands.execute('docmanager:open', {{path: '{NOTEBOOK}'}})")
    widget = page.locator(".athena-widget")
    widget.wait_for(timeout=60_000)
    assert widget.locator(".athena-answer").inner_text().startswith("Extractive answer")
    assert widget.locator(".athena-marker").count() >= 1, "[n] markers render as chips inside the text"
    chips = widget.locator(".athena-chip")
    assert chips.count() == len(answer_notebook["citations"]) >= 1
    first = answer_notebook["citations"][0]
    chips.first.click()
    opened = page.evaluate("() => window.__athenaOpened")
    assert opened and opened[0]["path"] == first["path"] and opened[0]["start_line"] == first["start_line"]
    cited = widget.locator(".athena-preview .athena-cited")
    cited.first.wait_for(timeout=10_000)
    source = (corpus / first["path"]).read_text(encoding="utf-8").splitlines()
    assert cited.count() == first["end_line"] - first["start_line"] + 1
    assert cited.first.locator(".athena-linetext").inner_text() == source[first["start_line"] - 1]
    assert page.evaluate("() => window.__athenaPwned") is None
    assert not page.athena_errors  # type: ignore[attr-defined]
