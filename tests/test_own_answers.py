"""athena never cites its own answers (issue 21): a notebook that holds athena's answers —
``%athena``, ``Athena.ask()``, a search table — sits in the indexed folder, is executed in a
real kernel, saved and indexed; the same question then cites the documents, not the
notebook, while the user's own Markdown and code output in that notebook are still found."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from athena_lab.workspace import Workspace
from kernel_notebooks import copy_demo, execute, notebook, outputs_of

pytestmark = pytest.mark.integration

QUESTION = "How do I register an error handler?"
MARK = {"athena_lab": {"generated": True}}
NOTEBOOK = "ux_test.ipynb"


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, nbformat.NotebookNode]:
    demo = copy_demo(tmp_path_factory, tmp_path_factory.mktemp("own-answers") / "demo")
    nb = notebook(
        'print("numbat calibration:", 3 + 4, "runs")',
        "%load_ext athena_lab",
        f"%athena --path {demo} {QUESTION}",
        f"%%athena\n{QUESTION}",
        f"from athena_lab import Athena\na = Athena({str(demo)!r})\na.ask({QUESTION!r})",
        "a.search('register error handler', k=3)",
    )
    nb.cells.insert(0, nbformat.v4.new_markdown_cell(
        "# Lab notes\n\nOur wombat service restarts every night at three."))
    execute(nb, demo)
    nbformat.write(nb, demo / NOTEBOOK)  # saved as Lab saves it, in the indexed folder
    return demo, nb


@pytest.fixture(scope="module")
def workspace(saved: tuple[Path, nbformat.NotebookNode]):
    ws = Workspace(saved[0], overrides={"llm.provider": "extractive"})
    summary = ws.index()
    assert summary.new == 1 and summary.failed == 0, summary
    yield ws
    ws.close()


def test_athena_outputs_are_saved_with_the_mark(saved: tuple[Path, nbformat.NotebookNode]) -> None:
    nb = nbformat.read(saved[0] / NOTEBOOK, as_version=4)
    for index in (3, 4, 5, 6):  # %athena, %%athena, Athena.ask(), the search table
        shown = [o for o in outputs_of(nb.cells[index]) if o["output_type"] in ("display_data", "execute_result")]
        assert shown and all(o["metadata"].get("athena_lab") == MARK["athena_lab"] for o in shown), \
            (index, nb.cells[index].outputs)
    assert "Sources:" in outputs_of(nb.cells[3], "display_data")[-1]["data"]["text/plain"], \
        "the saved answer quotes the documents: what would be cited if it were indexed"
    user_output = outputs_of(nb.cells[1], "stream")[0]
    assert "athena_lab" not in user_output.get("metadata", {})


def _notebook_text(workspace: Workspace) -> str:
    """Everything the index holds of the notebook (it is small: all its chunks match)."""
    found = workspace.search_citations("numbat wombat Athena register error handler", k=100)
    return "\n".join(workspace.chunk(c["chunk_id"]).text for c in found if c["path"] == NOTEBOOK)


def test_the_same_question_cites_the_documents_not_the_notebook(workspace: Workspace) -> None:
    answer = workspace.ask(QUESTION)
    cited = [c["path"] for c in answer.citations]
    assert cited and NOTEBOOK not in cited and all(p.startswith("flask/") for p in cited), cited
    indexed = _notebook_text(workspace)
    # Nothing of athena's answers (their text quotes Flask's docs and lists them as sources)
    # nor of the search table is indexed; the %athena question cells are not either.
    assert "Sources:" not in indexed and "errorhandling.rst" not in indexed and "%athena" not in indexed
    assert "register_error_handler" not in indexed and "Register handlers" not in indexed


def test_the_users_own_cells_and_outputs_in_that_notebook_are_still_found(workspace: Workspace) -> None:
    indexed = _notebook_text(workspace)
    assert "Our wombat service restarts every night at three." in indexed  # the user's Markdown
    assert "numbat calibration: 7 runs" in indexed  # the user's own code output
    assert "a = Athena(" in indexed  # the user's own code
    for query in ("wombat service restarts every night", "numbat calibration 7 runs"):
        assert workspace.search_citations(query, k=3)[0]["path"] == NOTEBOOK, query
