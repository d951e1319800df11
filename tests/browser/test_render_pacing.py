"""Answers are drawn per frame, not per streamed token (docs/jupyterlab.md, docs/chat-page.md):
a model (an OpenAI-compatible test server over real HTTP) streams a long answer in
4-character pieces, as a language model streams tokens. The sidebar in a real Lab and the
chat page of a real `athena serve` count their Markdown renders (a MutationObserver on the
answer body, and the `data-renders` count the views keep), which must be far fewer than the
chunks while the final text is complete; the chat page leaves a reader who scrolled up where
they are. Figures go to test-artifacts/render-pacing-*.json (docs quote them)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")

from chat_page import ANSWER_DONE  # noqa: E402
from http_servers import AthenaServer, fast_env  # noqa: E402
from test_chat_stream_ux import ANSWER, LEXICAL, LONG_LINE, QUESTION, send, walrus_folder  # noqa: E402
from wire_servers import OpenAIWireServer, Turn  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
TOKENS = [ANSWER[i:i + 4] for i in range(0, len(ANSWER), 4)]  # ~350 chunks
DELAY_S = 0.008  # ~3 s of streaming: many chunks per frame at times, a few frames per chunk at others
PAGE_DONE = '[data-testid="answer"][aria-busy="false"]'

# Installed before the question is sent: counts each replacement of an answer body's
# content (one per Markdown render, in any version of the view) and the main thread's
# long tasks (over 50 ms) while the answer streams.
WATCH_JS = """(bodySelector) => {
  window.__renders = 0; window.__longTaskMs = 0; window.__longTasks = 0;
  new MutationObserver(records => {
    window.__renders += records.filter(r => r.type === 'childList' && r.target.matches?.(bodySelector)
                                          && r.addedNodes.length).length;
  }).observe(document.body, {childList: true, subtree: true});
  try {
    new PerformanceObserver(list => list.getEntries().forEach(e => {
      window.__longTaskMs += e.duration; window.__longTasks += 1; })).observe({type: 'longtask'});
  } catch (e) { /* no long-task timing */ }
  window.__started = performance.now();
}"""
FIGURES_JS = """(answer) => ({renders: window.__renders, viewRenders: Number(answer.dataset.renders || 0),
  chunks: Number(answer.dataset.chunks || 0), renderMs: Number(answer.dataset.renderMs || 0),
  longTaskMs: Math.round(window.__longTaskMs), longTasks: window.__longTasks,
  elapsedMs: Math.round(performance.now() - window.__started)})"""


def token_model() -> OpenAIWireServer:
    return OpenAIWireServer(lambda request: Turn(text=TOKENS, event_delay_s=DELAY_S), models=["tiny"])


def model_settings(base_url: str) -> dict[str, str]:
    return {**LEXICAL, "ATHENA_LLM__PROVIDER": "openai", "ATHENA_LLM__BASE_URL": base_url,
            "ATHENA_LLM__MODEL": "tiny"}


def record(name: str, figures: dict) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"render-pacing-{name}.json").write_text(json.dumps(figures, indent=2), encoding="utf-8")
    print(name, figures)


def assert_complete(text: str) -> None:
    """The drawn answer is the streamed one: every paragraph, in order, and the code line."""
    assert text.startswith("Walrus tokens rotate hourly")
    positions = [text.find(f"Step {n}: walrus tokens are rotated by the vault job") for n in range(1, 19)]
    assert all(p >= 0 for p in positions) and positions == sorted(positions), positions
    assert text.rstrip().endswith("finish their requests [1].")
    assert LONG_LINE in text


@pytest.fixture(scope="module")
def token_lab(tmp_path_factory, start_lab) -> Iterator[str]:
    folder = walrus_folder(tmp_path_factory, "token-root")
    with token_model() as base_url, start_lab(folder, model_settings(base_url)) as url:
        yield url


@pytest.fixture(scope="module")
def token_serve(tmp_path_factory) -> Iterator[AthenaServer]:
    folder = walrus_folder(tmp_path_factory, "token-serve")
    with token_model() as base_url:
        env = fast_env(**model_settings(base_url), ATHENA_SERVER__RATE_LIMIT_PER_MINUTE="1000")
        with AthenaServer(folder, env=env) as server:
            yield server


@pytest.fixture
def chat(token_lab: str, open_lab_page, request) -> Iterator[object]:
    with open_lab_page(token_lab, request.node.name) as tab:
        tab.evaluate("() => window.jupyterapp.commands.execute('athena:new-conversation')"
                     " .catch(() => undefined)")
        yield tab


@pytest.fixture
def chat_page(browser, token_serve: AthenaServer) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1100, "height": 700})
    tab = context.new_page()
    tab.goto(token_serve.page_url)
    tab.locator('[data-testid="index-status"]').filter(has_text="chunks").wait_for(timeout=30_000)
    yield tab
    context.close()


def test_sidebar_renders_a_token_stream_per_frame_not_per_chunk(chat) -> None:
    chat.evaluate(WATCH_JS, ".athena-answer-body")
    answer = send(chat, QUESTION)
    chat.locator(ANSWER_DONE).last.wait_for(timeout=60_000)
    figures = answer.evaluate(FIGURES_JS)
    record("sidebar", figures)
    assert figures["chunks"] >= 200, figures  # the model's pieces reached the view as chunks
    assert figures["renders"] == figures["viewRenders"], "the view counts what reaches the DOM"
    assert figures["renders"] * 4 <= figures["chunks"], f"a render per chunk or close to it: {figures}"
    body = answer.locator(".athena-answer-body")
    assert_complete(body.inner_text())
    assert body.locator(".athena-citation-marker").count() == ANSWER.count("[1]"), "every [1] is a marker"


def test_chat_page_renders_a_token_stream_per_frame_and_leaves_a_reader_who_scrolled_up(chat_page) -> None:
    tab = chat_page
    tab.evaluate(WATCH_JS, '[data-testid="answer-body"]')
    box = tab.locator('[data-testid="athena-input"]')
    box.fill(QUESTION)
    box.press("Enter")
    messages = tab.locator('[data-testid="messages"]')
    tab.wait_for_function("() => { const m = document.querySelector('[data-testid=messages]');"
                          " return m.scrollHeight > m.clientHeight + 200; }", timeout=30_000)
    gap = "el => el.scrollHeight - el.scrollTop - el.clientHeight"
    assert messages.evaluate(gap) <= 32, "while the reader is at the bottom, the answer stays in view"
    answer = tab.locator('[data-testid="answer"]').last
    assert answer.get_attribute("aria-busy") == "true", "the answer should still be streaming"
    messages.hover()
    tab.mouse.wheel(0, -5000)  # the reader scrolls up to read
    tab.wait_for_timeout(800)
    assert answer.get_attribute("aria-busy") == "true", "the answer should still be streaming"
    assert messages.evaluate("el => el.scrollTop") < 50, "the page pulled the reader back to the bottom"
    tab.locator(PAGE_DONE).last.wait_for(timeout=60_000)
    assert messages.evaluate("el => el.scrollTop") < 50, "the end of the answer pulled the reader down"
    figures = answer.evaluate(FIGURES_JS)
    record("page", figures)
    assert figures["chunks"] >= 200, figures
    assert figures["renders"] * 4 <= figures["chunks"], f"a render per chunk or close to it: {figures}"
    body = answer.locator('[data-testid="answer-body"]')
    assert_complete(body.inner_text())
    assert body.locator("button.marker").count() == ANSWER.count("[1]")
    # Back at the bottom, the next answer is followed again.
    messages.evaluate("el => { el.scrollTop = el.scrollHeight; }")
    box.fill("And how often?")
    box.press("Enter")
    tab.locator(PAGE_DONE).nth(1).wait_for(timeout=60_000)
    tab.wait_for_timeout(300)
    assert messages.evaluate(gap) <= 32, "a reader at the bottom follows the new answer"
