"""Sources first in chromium (issue 28 item 4, issue 31 items 4, 6 and 10): the bundled
0.5B model answers in a real Lab and behind a real `athena serve` chat page. The quotes
from the sources and their citations are on screen before the model's first word, under
the line that says the model is loading and then shows its reading as a bar with the
tokens read and the time left; the model's words then stream in above the quotes, which
appear once. A reload mid-answer brings back the quotes and the partial words, stopped,
with Retry — on the chat page as in the sidebar. Screenshots (light and dark, a narrow
panel, the reading bar, a reload mid-answer) go to test-artifacts/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")

from chat_page import wait_for_theme  # noqa: E402
from conftest import ARTIFACTS  # noqa: E402
from http_servers import AthenaServer, fast_env, run_cli  # noqa: E402
from test_chat_stream_ux import LEXICAL, send  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SMALL = "qwen2.5-coder-0.5b-instruct"
DOC = """# Walrus tokens

Walrus tokens are rotated every hour by the vault job. The job keeps the last three tokens
so that running clients can finish their requests.

## Revoking

Run `walrus revoke --all` to revoke every token at once; clients must then log in again.
"""
QUESTION = "How often are walrus tokens rotated, and how many are kept?"
MODEL = {**LEXICAL, "ATHENA_LLM__PROVIDER": "local", "ATHENA_LLM__ANSWER_STYLE": "free", "ATHENA_LLM__MODEL": SMALL, "ATHENA_LLM__TEMPERATURE": "0",
         "ATHENA_LLM__MAX_TOKENS": "60", "ATHENA_LLM__MAX_STEPS": "1"}
PAGE_BUILT = Path(__file__).resolve().parents[2] / "athena_lab" / "static" / "page" / "page.js"

# When the newest answer first shows quotes, and when its model text: recorded in the page
# by a MutationObserver (performance.now()), so the order is what the reader saw.
WATCH = """([answer, quotes, body]) => {
  window.__seen = {};
  new MutationObserver(() => {
    const all = document.querySelectorAll(answer);
    const last = all[all.length - 1];
    if (!last) return;
    const q = last.querySelector(quotes), b = last.querySelector(body);
    if (q && !q.closest('[hidden]') && q.textContent.trim() && !window.__seen.quotes) window.__seen.quotes = performance.now();
    if (b && !b.hidden && b.textContent.trim() && !window.__seen.words) window.__seen.words = performance.now();
  }).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
}"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    pytest.importorskip("xllamacpp")
    from athena_lab.agent.providers import bundled

    if not bundled.installed(bundled.lookup(SMALL)):
        pytest.skip(f"the bundled {SMALL} is not installed: pip install -e '.[dev]'")
    root = tmp_path_factory.mktemp("sources-ui") / "project"
    root.mkdir()
    (root / "walrus.md").write_text(DOC, encoding="utf-8")
    run_cli("index", str(root), env=fast_env())
    return root


@pytest.fixture(scope="module")
def local_lab(folder: Path, start_lab) -> Iterator[str]:
    with start_lab(folder, MODEL) as url:
        yield url


def _send(chat, question: str):
    """Send the question and return its answer; on a machine this busy the panel can still
    be settling when the first Enter comes, so press it again if the box kept the question."""
    answer = send(chat, question)
    box = chat.locator('[data-testid="athena-input"]')
    for _ in range(3):
        try:
            chat.wait_for_function("(el) => el.value === ''", arg=box.element_handle(), timeout=10_000)
            break
        except Exception:
            box.press("Enter")
    return answer  # a lazy locator: the newest answer, whichever Enter sent it


def _shot(locator, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    locator.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def test_sidebar_shows_the_quotes_first_then_the_reading_bar_then_the_model_words_above_them(
        local_lab: str, open_lab_page, request):
    with open_lab_page(local_lab, request.node.name) as chat:
        chat.evaluate(WATCH, ['[data-testid="athena-answer"]', '[data-testid="athena-quotes"]', ".athena-answer-body"])
        answer = _send(chat, QUESTION)
        quotes = answer.locator('[data-testid="athena-quotes"]')
        quotes.filter(has_text="rotated every hour").wait_for(timeout=180_000)  # a cold Lab on a busy machine
        assert answer.locator("section.athena-quotes .athena-citation-marker").count() >= 1  # [n] links at once
        assert answer.locator('[data-testid="athena-citation"]').count() >= 1  # and the source list
        assert "From the sources:" in answer.inner_text()
        # the model reads the passages: llama.cpp's count as a bar, with the time left
        bar = answer.locator('[data-testid="athena-read-progress"]')
        bar.wait_for(timeout=240_000)
        status = answer.locator('[data-testid="athena-stream-status"]').inner_text()
        assert re.search(r"reading \d+ passages? .*[\d,]+ / [\d,]+ prompt tokens", status, re.S), status
        # llama.cpp's next report (every 128 tokens) moves the bar, with the time left
        chat.wait_for_function("(bar) => !bar.isConnected || Number(bar.value) > 0", arg=bar.element_handle(),
                               timeout=240_000)
        panel = chat.locator('[data-testid="athena-chat"]')
        _shot(panel, "sources-first-sidebar-reading-light")
        chat.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})")
        wait_for_theme(chat, light=False)
        _shot(panel, "sources-first-sidebar-reading-dark")
        # the model's first words: above the quotes, which stay where they were
        words = answer.locator(".athena-answer-body")
        words.filter(has_text=re.compile(r"\w")).wait_for(timeout=900_000)
        seen = chat.evaluate("() => window.__seen")
        assert seen.get("quotes") and seen.get("words") and seen["quotes"] < seen["words"], seen
        assert words.bounding_box()["y"] < quotes.bounding_box()["y"]
        assert "From the sources" not in words.inner_text()
        # the quotes once: no second copy under the model's words
        assert answer.locator("section.athena-quotes").count() == 1
        assert answer.inner_text().count("From the sources") == 1
        _shot(panel, "sources-first-sidebar-writing-dark")
        # Stop (a 0.5B on a busy machine writes slowly): the words so far and the quotes stay
        if "athena-streaming" in answer.get_attribute("class"):
            chat.locator('[data-testid="athena-send"]').click()
            answer.locator('[data-testid="athena-interrupted"]').wait_for(timeout=60_000)
        chat.wait_for_function("(el) => !el.classList.contains('athena-streaming')", arg=answer.element_handle(),
                               timeout=60_000)
        assert answer.locator('[data-testid="athena-stream-status"]').is_hidden()
        assert "rotated every hour" in quotes.inner_text() and words.inner_text().strip()
        # a narrow panel: the quotes and the bar wrap, nothing is cut
        chat.set_viewport_size({"width": 700, "height": 900})
        chat.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Light'})")
        wait_for_theme(chat, light=True)
        _shot(panel, "sources-first-sidebar-stopped-narrow-light")
        wide = quotes.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
        assert wide, "the quotes fit the narrow panel"
        assert chat.athena_errors == []


def test_sidebar_reload_mid_answer_brings_back_the_quotes_and_partial_words_with_retry(
        local_lab: str, open_lab_page, show_chat, request):
    with open_lab_page(local_lab, request.node.name) as chat:
        answer = _send(chat, QUESTION)
        answer.locator('[data-testid="athena-quotes"]').filter(has_text="rotated every hour").wait_for(timeout=60_000)
        answer.locator(".athena-answer-body").filter(has_text=re.compile(r"\w")).wait_for(timeout=400_000)
        assert "athena-streaming" in answer.get_attribute("class"), "the answer ended before the reload"
        cid = chat.locator('[data-testid="athena-chat"]').get_attribute("data-conversation-id")
        chat.reload()
        chat.wait_for_function("window.jupyterapp && window.jupyterapp.shell", timeout=60_000)
        chat.wait_for_function(
            """async (cid) => { const r = await fetch(`${location.origin}/athena/conversations/${cid}`);
                 const c = await r.json(); return c.messages.some(m => m.mode === 'interrupted'); }""",
            arg=cid, timeout=120_000, polling=500)
        show_chat(chat)
        restored = chat.locator('[data-testid="athena-answer"]').last
        restored.locator('[data-testid="athena-interrupted"]').wait_for(timeout=60_000)
        assert "rotated every hour" in restored.locator('[data-testid="athena-quotes"]').inner_text()
        assert restored.locator("section.athena-quotes .athena-citation-marker").count() >= 1
        assert restored.locator('[data-testid="athena-retry"]').is_visible()
        _shot(chat.locator('[data-testid="athena-chat"]'), "sources-first-sidebar-reloaded-light")


@pytest.fixture(scope="module")
def page_server(folder: Path):
    if not PAGE_BUILT.is_file():
        pytest.skip("the chat page is not built: cd labextension && npm run build:prod")
    env = fast_env(**{k: v for k, v in MODEL.items() if k.startswith("ATHENA_LLM")})
    with AthenaServer(folder, env=env) as server:
        yield server


def _page(browser, server: AthenaServer, scheme: str = "light"):
    context = browser.new_context(viewport={"width": 1100, "height": 860}, color_scheme=scheme)
    tab = context.new_page()
    tab.athena_errors = []
    tab.on("pageerror", lambda exc: tab.athena_errors.append(str(exc)))
    tab.goto(server.page_url)
    tab.locator('[data-testid="index-status"]').filter(has_text="chunks").wait_for(timeout=30_000)
    return context, tab


def _ask_page(tab, question: str):
    before = tab.locator('[data-testid="answer"]').count()
    box = tab.locator('[data-testid="athena-input"]')
    box.fill(question)
    box.press("Enter")
    return tab.locator('[data-testid="answer"]').nth(before)


def test_chat_page_shows_the_quotes_first_and_after_a_reload_mid_answer_the_stopped_note_and_retry(
        browser, page_server):
    context, tab = _page(browser, page_server, "dark")
    try:
        tab.evaluate(WATCH, ['[data-testid="answer"]', '[data-testid="quotes"]', '[data-testid="answer-body"]'])
        answer = _ask_page(tab, QUESTION)
        answer.locator('[data-testid="quotes"]').filter(has_text="rotated every hour").wait_for(timeout=60_000)
        assert answer.locator("section.quotes button.marker").count() >= 1
        answer.locator('[data-testid="read-progress"]').wait_for(timeout=240_000)
        assert re.search(r"[\d,]+ / [\d,]+ prompt tokens", answer.locator('[data-testid="stream-status"]').inner_text())
        _shot(tab, "sources-first-page-reading-dark")
        answer.locator('[data-testid="answer-body"]').filter(has_text=re.compile(r"\w")).wait_for(timeout=400_000)
        seen = tab.evaluate("() => window.__seen")
        assert seen.get("quotes") and seen.get("words") and seen["quotes"] < seen["words"], seen
        assert answer.get_attribute("aria-busy") == "true", "the answer ended before the reload"
        tab.reload()  # mid-answer: the page remembers the conversation and opens it again
        restored = tab.locator('[data-testid="answer"]').last
        note = restored.locator('[data-testid="interrupted"]')
        note.wait_for(timeout=120_000)
        assert note.inner_text().startswith("Stopped before the answer was complete.")
        assert restored.get_attribute("data-mode") == "interrupted"
        assert "rotated every hour" in restored.locator('[data-testid="quotes"]').inner_text()
        assert restored.locator('[role="alert"]').count() == 0, "a reader's reload is not an error"
        _shot(tab, "sources-first-page-reloaded-dark")
        answers = tab.locator('[data-testid="answer"]')
        count = answers.count()
        restored.locator('[data-testid="retry"]').click()
        again = answers.nth(count)
        again.locator('[data-testid="quotes"]').filter(has_text="rotated every hour").wait_for(timeout=60_000)
        tab.locator('[data-testid="answer"][aria-busy="false"]').nth(count).wait_for(timeout=400_000)
        assert again.locator('[data-testid="answer-body"]').inner_text().strip()
        assert tab.athena_errors == []
    finally:
        context.close()


def test_chat_page_light_narrow_with_the_quotes_under_the_answer(browser, page_server):
    context, tab = _page(browser, page_server, "light")
    try:
        tab.set_viewport_size({"width": 420, "height": 860})
        answer = _ask_page(tab, "How do I revoke every walrus token?")
        tab.locator('[data-testid="answer"][aria-busy="false"]').last.wait_for(timeout=400_000)
        quotes = answer.locator('[data-testid="quotes"]')
        assert "walrus revoke --all" in quotes.inner_text()
        assert quotes.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), "the quotes fit a phone's width"
        _shot(tab, "sources-first-page-narrow-light")
    finally:
        context.close()
