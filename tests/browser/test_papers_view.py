"""The papers view on a real Zotero library (tests/zotero_library.py), driven from the
keyboard in JupyterLab's sidebar and on the chat page: the list with its warnings, "which
papers discuss …?" with the best passage, filters, choosing papers to scope the next
question, and the Zotero link on a citation. Screenshots in both themes, narrow."""

from __future__ import annotations

from pathlib import Path

import pytest

from playwright.sync_api import expect  # noqa: E402
from chat_page import set_theme  # noqa: E402
from conftest import ARTIFACTS, CHROMIUM_FLAGS  # noqa: E402,F401
from http_servers import AthenaServer, fast_env, run_cli  # noqa: E402
from zotero_library import make_library  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SETTINGS = {"ATHENA_LLM__PROVIDER": "extractive", "ATHENA_EMBEDDING__PROVIDER": "none"}
FEKETA_TITLE = "Almost ISS property for feedback connected systems"


@pytest.fixture(scope="module")
def zotero_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_library(tmp_path_factory.mktemp("papers-view") / "Zotero")
    run_cli("index", str(root), env=fast_env())
    return root


def _tab_to(tab, selector: str, limit: int = 60) -> None:
    """Press Tab until ``selector`` has the focus (keyboard only, as a user would)."""
    for _ in range(limit):
        if tab.evaluate("(s) => document.activeElement && document.activeElement.matches(s)", selector):
            return
        tab.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def _choose_and_ask(tab, prefix: str, answer_selector: str, whole_tag: bool) -> None:
    """Choose with the keyboard — every paper the tag "R" shows (the tag becomes the scope),
    or one paper's checkbox in the whole list (the paper does) — and ask about them."""
    if whole_tag:
        _tab_to(tab, ".athena-papers-tag")
        tab.keyboard.type("R")  # a native select picks the option by its first letter: the tag "R"
        expect(tab.locator(".athena-papers-tag")).to_have_value("R")
        tab.locator('[data-testid="athena-papers-count"]', has_text="1 paper of 8").wait_for()
        _tab_to(tab, ".athena-papers-all")
    else:
        _tab_to(tab, '[data-paper-id="zotero:NZHRXDXN"] .athena-paper-choose')
    tab.keyboard.press("Space")
    tab.locator('[data-testid="athena-papers-chosen"]', has_text="1 chosen").wait_for()
    _tab_to(tab, '[data-testid="athena-papers-ask"]')
    tab.keyboard.press("Enter")
    chip = tab.locator('[data-testid="athena-scope"]')
    chip.wait_for()
    assert ("tag R" if whole_tag else "James et al., 2021") in chip.inner_text()
    expect(tab.locator('[data-testid="athena-input"]')).to_be_focused()
    tab.keyboard.type("What is multi-head attention?")
    tab.keyboard.press("Enter")
    # The chat page's CSP allows no eval: wait with locators, not wait_for_function.
    tab.locator(f"{answer_selector}:not({prefix}streaming)").last.wait_for(timeout=60_000)
    chips = tab.locator('[data-testid="question-filters"]').last.inner_text()
    assert ("tag: R" if whole_tag else "1 paper") in chips, chips


def test_the_papers_view_in_lab_from_the_keyboard_in_both_themes(start_lab, open_lab_page, zotero_folder) -> None:
    with start_lab(zotero_folder, SETTINGS) as url, open_lab_page(url, "lab-papers-view") as tab:
        # The sidebar at its opening width (its minimum, 360 px) is the narrow panel.
        tab.locator('[data-testid="athena-input"]').focus()
        _tab_to(tab, '[data-testid="athena-papers-toggle"]')  # back up to the header, from the question box
        tab.keyboard.press("Enter")
        tab.locator('[data-testid="athena-papers-count"]', has_text="8 papers").wait_for()
        assert tab.evaluate("document.activeElement.matches('[data-testid=\"athena-papers-question\"]')")
        warnings = tab.locator('[data-testid="athena-paper-warning"]')
        # the missing attachment, and the five items on other papers' pages (tests/zotero_library.py)
        assert warnings.count() == 6 and "attachment missing" in " ".join(warnings.all_inner_texts())
        tab.keyboard.type("Which papers discuss multi-head attention?")
        tab.keyboard.press("Enter")
        hits = tab.locator('[data-testid="athena-papers-hits"] > li')
        hits.first.wait_for()
        assert FEKETA_TITLE in hits.first.inner_text() and "p. " in hits.first.inner_text()
        papers = tab.locator('[data-testid="athena-papers"]')
        papers.screenshot(path=str(ARTIFACTS / "lab-papers-found-narrow-light.png"))
        set_theme(tab, "JupyterLab Dark", False)
        papers.screenshot(path=str(ARTIFACTS / "lab-papers-found-narrow-dark.png"))
        set_theme(tab, "JupyterLab Light", True)
        _tab_to(tab, ".athena-papers-results-close")
        tab.keyboard.press("Enter")  # back to the list, its filters and warnings
        assert tab.locator(".athena-papers-results").is_hidden()
        papers.screenshot(path=str(ARTIFACTS / "lab-papers-narrow-light.png"))
        set_theme(tab, "JupyterLab Dark", False)
        papers.screenshot(path=str(ARTIFACTS / "lab-papers-narrow-dark.png"))
        set_theme(tab, "JupyterLab Light", True)
        # A long warning shows two lines until it is opened, from the keyboard too.
        long = warnings.filter(has_text="does not print the title").first
        shut = long.bounding_box()["height"]
        long.focus()
        tab.keyboard.press("Enter")
        assert long.get_attribute("aria-expanded") == "true" and long.bounding_box()["height"] > 1.5 * shut
        papers.screenshot(path=str(ARTIFACTS / "lab-papers-warning-open-light.png"))
        tab.keyboard.press(" ")
        assert long.get_attribute("aria-expanded") == "false" and long.bounding_box()["height"] == shut
        _choose_and_ask(tab, ".athena-", ".athena-answer", whole_tag=True)
        sources = tab.locator(".athena-answer").last.locator(".athena-source")
        sources.first.wait_for()
        assert all("James et al., 2021" in t for t in sources.all_inner_texts())
        link = tab.locator(".athena-answer").last.locator('[data-testid="athena-zotero-link"]').first
        assert link.get_attribute("href") == "zotero://select/library/items/NZHRXDXN"
        tab.locator(".athena-chat").screenshot(path=str(ARTIFACTS / "lab-papers-scoped-answer-light.png"))
        set_theme(tab, "JupyterLab Dark", False)
        tab.locator(".athena-chat").screenshot(path=str(ARTIFACTS / "lab-papers-scoped-answer-dark.png"))
        set_theme(tab, "JupyterLab Light", True)
        assert not tab.athena_errors


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_papers_view_on_the_chat_page_from_the_keyboard(browser, zotero_folder, scheme: str) -> None:
    env = fast_env(ATHENA_LLM__PROVIDER="extractive", ATHENA_SERVER__RATE_LIMIT_PER_MINUTE="1000")
    with AthenaServer(zotero_folder, env=env) as server:
        context = browser.new_context(viewport={"width": 1180, "height": 820}, color_scheme=scheme)
        tab = context.new_page()
        errors: list[str] = []
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        try:
            tab.goto(server.page_url)
            tab.locator('[data-testid="index-status"]').filter(has_text="chunks").wait_for(timeout=30_000)
            tab.locator('[data-testid="athena-input"]').focus()
            _tab_to(tab, '[data-testid="papers-toggle"]')
            tab.keyboard.press("Enter")
            tab.locator('[data-testid="athena-papers-count"]', has_text="8 papers").wait_for()
            tab.keyboard.type("Which papers discuss multi-head attention?")
            tab.keyboard.press("Enter")
            tab.locator('[data-testid="athena-papers-hits"] > li').first.wait_for()
            _tab_to(tab, ".athena-papers-passage")
            tab.keyboard.press("Enter")  # the best passage opens in the viewer, at its page
            tab.locator(".viewer .pdf-page").wait_for(timeout=30_000)
            tab.screenshot(path=str(ARTIFACTS / f"page-papers-{scheme}.png"))
            _choose_and_ask(tab, ".", "[data-testid=\"answer\"]", whole_tag=False)
            sources = tab.locator(".answer").last.locator('[data-testid="source"]')
            assert sources.count() and all("James et al., 2021" in t for t in sources.all_inner_texts())
            assert tab.locator(".answer").last.locator('[data-testid="zotero-link"]').first.get_attribute("href") == \
                "zotero://select/library/items/NZHRXDXN"
            tab.screenshot(path=str(ARTIFACTS / f"page-papers-scoped-{scheme}.png"))
            tab.set_viewport_size({"width": 420, "height": 820})  # a phone: the papers cover the chat
            _tab_to(tab, ".viewer button")  # the viewer's Close
            tab.keyboard.press("Enter")
            tab.locator('[data-testid="papers-toggle"]').focus()
            tab.keyboard.press("Enter")
            tab.locator('[data-testid="athena-papers-count"]').wait_for()
            assert tab.locator(".viewer-title").count() == 0 or not tab.locator(".viewer").is_visible()
            tab.screenshot(path=str(ARTIFACTS / f"page-papers-narrow-{scheme}.png"))
            assert not errors
        finally:
            context.close()
