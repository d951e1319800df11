"""JupyterLab as a normal install runs it: no ``expose_app_in_browser``, so nothing of the
extension may lean on ``window.jupyterapp``. The sidebar opens from its tab, answers, and
the saved answer widget's chip opens the source through the window event it dispatches."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.sign import NotebookNotary

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from kernel_notebooks import answer_widget_state, execute, notebook  # noqa: E402

from chat_page import ANSWER_DONE  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

QUESTION = "How do I configure the SECRET_KEY in Flask?"
NOTEBOOK = "plain-answer.ipynb"


@pytest.fixture(scope="module")
def plain_lab(start_lab, corpus: Path):
    nb = notebook(f"from athena_lab import Athena\na = Athena({str(corpus)!r})\na.ask({QUESTION!r})")
    execute(nb, corpus.parent)
    NotebookNotary().sign(nb)
    nbformat.write(nb, corpus.parent / NOTEBOOK)
    state = answer_widget_state(nb, nb.cells[0])
    with start_lab(corpus, {"ATHENA_LLM__PROVIDER": "extractive"}, expose_app=False) as url:
        yield url, state


def test_without_the_exposed_app_the_sidebar_answers_and_a_widget_chip_opens_the_source(browser, plain_lab):
    url, state = plain_lab
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        tab.goto(url)
        assert tab.evaluate("() => window.jupyterapp") is None, "this Lab must not expose the app"
        box = tab.locator('[data-testid="athena-input"]')
        side_tab = tab.locator('.jp-SideBar .lm-TabBar-tab[data-id="athena-chat"]')
        side_tab.wait_for(timeout=60_000)
        tab.locator(".jp-LabShell").wait_for()
        # Lab has restored its layout (the panel may come back open) when its splash is gone
        tab.locator("#jupyterlab-splash").wait_for(state="detached", timeout=60_000)
        if not box.is_visible() and "lm-mod-current" not in (side_tab.get_attribute("class") or ""):
            side_tab.click()
        box.wait_for(state="visible")
        box.fill(QUESTION)
        box.press("Enter")
        answer = tab.locator(ANSWER_DONE).first
        answer.wait_for(timeout=60_000)
        assert answer.locator('[data-testid="athena-citation"]').count() >= 1

        tab.goto(url.replace("/lab?", f"/lab/tree/{NOTEBOOK}?"))
        chips = tab.locator(".athena-widget .athena-chip")
        chips.first.wait_for(timeout=60_000)
        first = next(c for c in state["citations"] if c["kind"] == "text")
        chips.nth(state["citations"].index(first)).click()
        name = first["path"].rsplit("/", 1)[-1]
        tab.locator(".lm-DockPanel-tabBar .lm-TabBar-tabLabel", has_text=name).wait_for(timeout=30_000)
        tab.locator(".jp-FileEditor [data-testid=athena-cited-line]").first.wait_for(timeout=10_000)
        assert not errors
    finally:
        tab.screenshot(path=str(Path("test-artifacts") / "plain-install.png"))
        context.close()
