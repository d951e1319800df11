"""Every notebook in notebooks/ runs top to bottom in a real kernel, offline, extractive."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import nbformat
import pytest

from kernel_notebooks import (REPO, WIDGET_VIEW, answer_widget_state, copy_demo, execute, outputs_of,
                              stream_text)

pytestmark = [pytest.mark.integration, pytest.mark.slow]

NOTEBOOKS = REPO / "notebooks"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """notebooks/ and an indexed demo/ side by side, as in the repository."""
    root = tmp_path_factory.mktemp("notebooks")
    copy_demo(tmp_path_factory, root / "demo")
    shutil.copytree(NOTEBOOKS, root / "notebooks")
    return root / "notebooks"


def run(workdir: Path, name: str, env: dict[str, str] | None = None) -> nbformat.NotebookNode:
    nb = nbformat.read(workdir / name, as_version=4)
    return execute(nb, workdir, timeout=600, env=env)


def _errors(nb: nbformat.NotebookNode) -> list[str]:
    return [stream_text(c, "stderr") for c in nb.cells if c.cell_type == "code" and "athena:" in stream_text(c, "stderr")]


def _cell(nb: nbformat.NotebookNode, starts: str) -> nbformat.NotebookNode:
    return next(c for c in nb.cells if c.cell_type == "code" and c.source.startswith(starts))


def test_quickstart_searches_asks_and_follows_up(workdir: Path) -> None:
    nb = run(workdir, "quickstart.ipynb")
    assert not _errors(nb)
    search = outputs_of(_cell(nb, "hits = a.search"), "execute_result")[0]["data"]
    assert "<table>" in search["text/html"]
    answer = answer_widget_state(nb, _cell(nb, "answer = a.ask"))
    follow = answer_widget_state(nb, _cell(nb, "follow_up = a.ask"))
    assert answer["citations"] and follow["conversation_id"] == answer["conversation_id"]
    first_magic = answer_widget_state(nb, _cell(nb, "%athena How do I return"))
    second_magic = answer_widget_state(nb, _cell(nb, "%athena and can I"))
    fresh = answer_widget_state(nb, _cell(nb, "%%athena --new"))
    assert second_magic["conversation_id"] == first_magic["conversation_id"] != fresh["conversation_id"]
    assert "handling-errors.md" in " ".join(c["path"] for c in first_magic["citations"])
    assert fresh["citations"] and all(c["path"].startswith("flask/") for c in fresh["citations"])


def test_pdf_archive_cites_pages_with_regions_and_shows_a_preview(workdir: Path) -> None:
    nb = run(workdir, "pdf_archive.ipynb")
    assert not _errors(nb)
    preview = outputs_of(_cell(nb, "from IPython.display import Image"), "execute_result")[0]["data"]
    assert "image/png" in preview
    answer = answer_widget_state(nb, _cell(nb, "answer = a.ask"))
    assert answer["citations"] and all(c["kind"] == "pdf" for c in answer["citations"])
    assert all(c["page"] >= 1 and c["regions"] for c in answer["citations"])
    magic = _cell(nb, "%athena --kind pdf")
    assert any(WIDGET_VIEW in o.get("data", {}) for o in outputs_of(magic))


def test_evaluation_reports_recall_and_ndcg_per_k(workdir: Path, corpora: Path) -> None:
    nb = run(workdir, "evaluation.ipynb", env={"ATHENA_SCIFACT": str(corpora / "scifact")})
    demo = ast.literal_eval(outputs_of(_cell(nb, "a = Athena(DEMO)"), "execute_result")[0]["data"]["text/plain"])
    assert set(demo) == {1, 3, 5, 10} and demo[10] >= demo[1] and demo[10] >= 0.7
    scifact = ast.literal_eval(outputs_of(_cell(nb, "scifact_rows = {}"), "execute_result")[0]["data"]["text/plain"])
    assert set(scifact) == {1, 3, 5, 10}
    assert scifact[10]["recall"] >= scifact[1]["recall"] and scifact[10]["ndcg"] > 0.3, scifact
    last = nb.cells[-1]
    assert outputs_of(last, "display_data") or "SciFact nDCG" in stream_text(last, "stdout")
