"""Answers are drawn per frame, not per streamed token (docs/jupyterlab.md, docs/chat-page.md):
a model (an OpenAI-compatible test server over real HTTP) streams a long answer in
4-character pieces, as a language model streams tokens. The sidebar in a real Lab and the
chat page of a real `athena serve` count their Markdown renders (a MutationObserver on the
answer body, and the `data-renders` count the views keep), which must be far fewer than the
chunks while the final text is complete; the chat page leaves a reader who scrolled up where
they are. Figures go to test-artifacts/render-pacing-*.json (docs quote them)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")

from chat_page import ANSWER_DONE, drawn  # noqa: E402
from http_servers import AthenaServer, fast_env  # noqa: E402
from test_chat_stream_ux import ANSWER, LONG_LINE, QUESTION, chat_tab, model_settings, send, walrus_folder  # noqa: E402
from wire_servers import OpenAIWireServer, Turn  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
TOKENS = [ANSWER[i:i + 4] for i in range(0, len(ANSWER), 4)]  # ~350 chunks
DELAY_S = 0.002  # ~500 chunks a second (a fast local model, or chunks bunched by the network): several per frame
PAGE_DONE = '[data-testid="answer"][aria-busy="false"]'

SHOTS = ARTIFACTS / "render"
# Installed before the question is sent: counts each replacement of an answer body's
# content (one per Markdown render, in any version of the view).
WATCH_JS = """(bodySelector) => {
  window.__renders = 0;
  new MutationObserver(records => {
    window.__renders += records.filter(r => r.type === 'childList' && r.target.matches?.(bodySelector)
                                          && r.addedNodes.length).length;
  }).observe(document.body, {childList: true, subtree: true});
  window.__started = performance.now();
}"""
FIGURES_JS = """(answer) => ({renders: window.__renders, viewRenders: Number(answer.dataset.renders || 0),
  chunks: Number(answer.dataset.chunks || 0), renderMs: Number(answer.dataset.renderMs || 0),
  elapsedMs: Math.round(performance.now() - window.__started)})"""
# Chromium's own totals of main-thread time (seconds): all tasks, script, layout, style.
MAIN_THREAD = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")


class MainThread:
    """The main thread's time between `start()` and `figures()`, from Chromium (CDP)."""

    def __init__(self, tab) -> None:
        self._cdp = tab.context.new_cdp_session(tab)
        self._cdp.send("Performance.enable")
        self._start = self._read()

    def _read(self) -> dict[str, float]:
        metrics = {m["name"]: m["value"] for m in self._cdp.send("Performance.getMetrics")["metrics"]}
        return {name: metrics.get(name, 0.0) for name in MAIN_THREAD}

    def figures(self) -> dict[str, int]:
        end = self._read()
        return {f"{name[:-len('Duration')].lower()}Ms": round((end[name] - self._start[name]) * 1000)
                for name in MAIN_THREAD}


def token_model(hold: threading.Event | None = None) -> OpenAIWireServer:
    """The model streams the answer; with ``hold``, it waits two thirds of the way until the test sets it
    (the reader scrolls up while the answer is surely mid-stream, however fast the machine)."""
    return OpenAIWireServer(lambda request: Turn(text=TOKENS, event_delay_s=DELAY_S, hold=hold,
                                                 hold_after=2 * len(TOKENS) // 3 if hold else None), models=["tiny"])


def record(name: str, figures: dict) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"render-pacing-{name}.json").write_text(json.dumps(figures, indent=2), encoding="utf-8")
    print(name, figures)


def assert_complete(text: str) -> None:
    """The drawn answer is the streamed one: every paragraph, in order, and the code line."""
    assert text.startswith("Walrus tokens rotate hourly")
    positions = [text.find(f"Step {n}: walrus tokens are rotated by the vault job") for n in range(1, 19)]
    assert all(p >= 0 for p in positions) and positions == sorted(positions), positions
    assert text.rstrip().endswith("finish their requests. [1]")  # the full stop goes before the marker
    assert LONG_LINE in text


@pytest.fixture(scope="module")
def token_lab(tmp_path_factory, start_lab) -> Iterator[str]:
    folder = walrus_folder(tmp_path_factory, "token-root")
    with token_model() as base_url, start_lab(folder, model_settings(base_url)) as url:
        yield url


#: set once the reader has scrolled up: the page's model holds its first answer two thirds of the way until then
READER_UP = threading.Event()


@pytest.fixture
def reader_up() -> Iterator[threading.Event]:
    """READER_UP, clear for the test and set after it, whatever happened (a held stream
    must not outlive its test)."""
    READER_UP.clear()
    yield READER_UP
    READER_UP.set()


@pytest.fixture(scope="module")
def token_serve(tmp_path_factory) -> Iterator[AthenaServer]:
    folder = walrus_folder(tmp_path_factory, "token-serve")
    with token_model(READER_UP) as base_url:
        settings = {k: v for k, v in model_settings(base_url).items() if k != "ATHENA_EMBEDDING__PROVIDER"}
        env = fast_env(**settings, ATHENA_SERVER__RATE_LIMIT_PER_MINUTE="1000")
        with AthenaServer(folder, env=env) as server:
            yield server


@pytest.fixture
def chat(token_lab: str, open_lab_page, request) -> Iterator[object]:
    with chat_tab(token_lab, open_lab_page, request.node.name) as tab:
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
    main = MainThread(chat)
    answer = send(chat, QUESTION)
    chat.locator(ANSWER_DONE).last.wait_for(timeout=60_000)
    figures = {**answer.evaluate(FIGURES_JS), **main.figures()}
    record("sidebar", figures)
    SHOTS.mkdir(parents=True, exist_ok=True)
    chat.screenshot(path=str(SHOTS / "sidebar-token-stream-done.png"))
    assert figures["chunks"] >= 200, figures  # the model's pieces reached the view as chunks
    assert figures["renders"] == figures["viewRenders"], "the view counts what reaches the DOM"
    assert figures["renders"] * 4 <= figures["chunks"], f"a render per chunk or close to it: {figures}"
    body = answer.locator(".athena-answer-body")
    assert_complete(body.inner_text())
    assert body.locator(".athena-citation-marker").count() == ANSWER.count("[1]"), "every [1] is a marker"


def test_chat_page_renders_a_token_stream_per_frame_and_leaves_a_reader_who_scrolled_up(chat_page, reader_up) -> None:
    tab = chat_page
    tab.evaluate(WATCH_JS, '[data-testid="answer-body"]')
    main = MainThread(tab)
    box = tab.locator('[data-testid="athena-input"]')
    box.fill(QUESTION)
    box.press("Enter")
    messages = tab.locator('[data-testid="messages"]')
    tab.wait_for_function("() => { const m = document.querySelector('[data-testid=messages]');"
                          " return m.scrollHeight > m.clientHeight + 200; }", timeout=30_000)
    # While the reader is at the bottom, the answer stays in view. The view follows once a
    # frame: measured just as the answer grew, it may be a frame behind on a loaded machine
    # (39 px once in CI, with other tests beside it), so it has a second to catch up, well
    # inside the stream (a timeout here fails the test).
    tab.wait_for_function("() => { const m = document.querySelector('[data-testid=messages]');"
                          " return m.scrollHeight - m.scrollTop - m.clientHeight <= 32; }", timeout=1_000)
    answer = tab.locator('[data-testid="answer"]').last
    assert answer.get_attribute("aria-busy") == "true", "the answer should still be streaming"
    messages.hover()
    tab.mouse.wheel(0, -5000)  # the reader scrolls up to read
    tab.wait_for_function("el => el.scrollTop < 50", arg=messages.element_handle())
    # The rest of the answer arrives while the reader is up there.
    text_now = len(answer.text_content())
    reader_up.set()
    tab.wait_for_function("([el, n]) => el.textContent.length > n + 40",
                          arg=[answer.element_handle(), text_now], timeout=30_000)
    drawn(tab)
    assert messages.evaluate("el => el.scrollTop") < 50, "the page pulled the reader back to the bottom"
    SHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(SHOTS / "page-scrolled-up-while-streaming.png"))
    tab.locator(PAGE_DONE).last.wait_for(timeout=60_000)
    figures = {**answer.evaluate(FIGURES_JS), **main.figures()}
    assert messages.evaluate("el => el.scrollTop") < 50, "the end of the answer pulled the reader down"
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
    # a reader at the bottom follows the new answer (the last scroll lands in the frame after the text)
    tab.wait_for_function("el => el.scrollHeight - el.scrollTop - el.clientHeight <= 32", arg=messages.element_handle())
