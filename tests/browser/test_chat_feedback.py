"""The sidebar chat while an answer streams and before the first question, in a real Lab:
the status line driven by the event stream, `[n]` links that work while the answer is
still streaming, hover previews that are readable and inside the panel, example questions
from the index's headings, long questions that collapse, the filters a question was asked
with, and filters that exclude every source. Screenshots (light, dark, narrow) go to
test-artifacts/streamux/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")

from playwright.sync_api import expect  # noqa: E402

from chat_page import ANSWER_DONE, ask, drawn, snippet_shown, wait_for_theme  # noqa: E402
from conftest import ARTIFACTS  # noqa: E402
from test_chat_stream_ux import QUESTION as SLOW_QUESTION, chat, send, slow_lab  # noqa: E402,F401  (fixtures)

from athena_lab.workspace import Workspace  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = ARTIFACTS / "streamux"
TEXT_QUESTION = "How do I configure the SECRET_KEY in Flask?"
FILTERED_OUT = "Your filters exclude every indexed source"

# Every text the answer's status line shows, in order (records keep each text node, so
# states set within one task are not lost), and whether it is hidden now.
WATCH_STATUS = """() => {
  window.__statuses = [];
  const messages = document.querySelector('[data-testid="athena-messages"]');
  new MutationObserver(records => {
    for (const r of records) {
      if (r.type === 'childList' && r.target.dataset && r.target.dataset.testid === 'athena-stream-status') {
        for (const node of r.addedNodes) window.__statuses.push(node.textContent);
      }
    }
  }).observe(messages, {childList: true, subtree: true});
}"""

# The first `[n]` link's state when it appears: was its answer still streaming?
WATCH_MARKER = """() => {
  window.__markerWhileStreaming = null;
  const messages = document.querySelector('[data-testid="athena-messages"]');
  const seen = new MutationObserver(() => {
    const marker = messages.querySelector('.athena-citation-marker');
    if (marker && window.__markerWhileStreaming === null) {
      window.__markerWhileStreaming = marker.closest('.athena-answer').classList.contains('athena-streaming');
      seen.disconnect();
    }
  });
  seen.observe(messages, {childList: true, subtree: true});
}"""


def new_conversation(page) -> None:
    page.evaluate("async () => { await window.jupyterapp.commands.execute('athena:new-conversation'); }")
    page.locator('[data-testid="athena-messages"] > *').first.wait_for()


def px(value: str) -> float:
    return float(re.sub(r"[^0-9.]", "", value) or 0)


def snippet_geometry(page) -> dict:
    """The shown preview's box, the panel's box, its text and font size, and the UI font size."""
    return page.evaluate("""() => {
      const pop = [...document.querySelectorAll('.athena-chat [data-testid="athena-snippet"]')].find(e => !e.hidden);
      const panel = document.querySelector('.athena-chat');
      const box = r => ({top: r.top, bottom: r.bottom, left: r.left, right: r.right});
      const text = pop.querySelector('.athena-snippet-text');
      return {pop: box(pop.getBoundingClientRect()), panel: box(panel.getBoundingClientRect()),
              text: pop.innerText, font: getComputedStyle(text.querySelector('p') || text).fontSize,
              ui: getComputedStyle(document.body).getPropertyValue('--jp-ui-font-size1'),
              scrolls: pop.scrollHeight > pop.clientHeight + 1, side: pop.dataset.side};
    }""")


def inside(inner: dict, outer: dict) -> bool:
    return (inner["top"] >= outer["top"] - 1 and inner["bottom"] <= outer["bottom"] + 1
            and inner["left"] >= outer["left"] - 1 and inner["right"] <= outer["right"] + 1)


def words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text))


def test_status_says_searching_reading_writing_and_goes_when_done(chat):
    chat.evaluate(WATCH_STATUS)
    answer = send(chat, SLOW_QUESTION)
    status = answer.locator('[data-testid="athena-stream-status"]')
    status.filter(has_text="writing").wait_for(timeout=30_000)
    assert "athena-streaming" in answer.get_attribute("class")
    assert status.get_attribute("data-phase") == "writing"
    chat.locator(ANSWER_DONE).last.wait_for(timeout=60_000)
    assert status.is_hidden(), "the status is removed when the answer is done"
    recorded = [s for s in chat.evaluate("window.__statuses") if s]
    seen = [s for n, s in enumerate(recorded) if n == 0 or s != recorded[n - 1]]
    # the quotes are shown, then the model starts; it says how much it reads before it
    # writes (the trace's readPassages step)
    assert len(seen) == 5 and re.fullmatch(r"reading 1 passage \(\u2248\d+ tokens\)\u2026", seen[3]), seen
    assert [seen[0], seen[1], seen[2], seen[4]] == ["searching\u2026", "reading 1 source\u2026",
                                                    "the model is starting\u2026", "writing\u2026"], seen


def test_markers_are_links_while_the_answer_still_streams(chat):
    chat.evaluate(WATCH_MARKER)
    answer = send(chat, SLOW_QUESTION)
    marker = answer.locator(".athena-citation-marker").first
    marker.wait_for(timeout=30_000)
    assert chat.evaluate("window.__markerWhileStreaming") is True, "[1] became a link only at the end"
    assert "athena-streaming" in answer.get_attribute("class")
    marker.click()  # opens while the answer streams on
    chat.wait_for_function(
        "() => { const w = window.jupyterapp.shell.currentWidget;"
        " return w && w.context && w.context.path.endsWith('walrus.md'); }", timeout=20_000)
    chat.locator(ANSWER_DONE).last.wait_for(timeout=60_000)


def test_hover_preview_is_readable_whole_and_inside_the_panel(page):
    answer = ask(page, TEXT_QUESTION, kind="rst")
    first = answer.locator(".athena-answer-body li").first
    sentence = first.inner_text().rsplit("[", 1)[0].strip()
    first.locator(".athena-citation-marker").first.hover()
    snippet_shown(page)
    shown = snippet_geometry(page)
    assert words(sentence) in words(shown["text"]), "the preview shows the quoted sentence whole"
    assert px(shown["font"]) >= px(shown["ui"]), f"preview text {shown['font']} < UI font {shown['ui']}"
    assert inside(shown["pop"], shown["panel"]), shown
    # The last source sits at the bottom of the conversation: its preview opens above, still inside.
    page.locator('[data-testid="athena-messages"]').evaluate("el => { el.scrollTop = el.scrollHeight; }")
    page.mouse.move(0, 0)  # the first preview closes…
    page.locator('.athena-chat [data-testid="athena-snippet"]:visible').wait_for(state="detached")
    answer.locator('[data-testid="athena-citation"]').last.hover()
    snippet_shown(page)  # …and the last one's opens
    last = snippet_geometry(page)
    assert inside(last["pop"], last["panel"]), last
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator('[data-testid="athena-chat"]').screenshot(path=str(SHOTS / "sidebar-hover-preview-light.png"))


def test_empty_chat_offers_heading_questions_that_ask_themselves(page, corpus: Path):
    new_conversation(page)
    examples = page.locator('.athena-chat [data-testid="example-question"]')
    examples.first.wait_for(timeout=30_000)
    ws = Workspace(corpus)
    try:
        expected = ws.example_questions()
    finally:
        ws.close()
    assert examples.all_inner_texts() == expected and expected
    SHOTS.mkdir(parents=True, exist_ok=True)
    panel = page.locator('[data-testid="athena-chat"]')
    panel.screenshot(path=str(SHOTS / "sidebar-empty-light.png"))
    page.evaluate("async () => { await window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'}); }")
    wait_for_theme(page, light=False)
    panel.screenshot(path=str(SHOTS / "sidebar-empty-dark.png"))
    page.evaluate("async () => { await window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Light'}); }")
    page.wait_for_function("document.body.dataset.jpThemeLight === 'true'")
    send_button = page.locator('[data-testid="athena-send"]')
    assert send_button.is_disabled(), "Send is disabled for an empty question"
    before = page.locator('[data-testid="athena-answer"]').count()
    examples.first.click()
    answer = page.locator('[data-testid="athena-answer"]').nth(before)
    page.wait_for_function("(el) => !el.classList.contains('athena-streaming')", arg=answer.element_handle(),
                           timeout=60_000)
    assert page.locator('[data-testid="athena-user-message"]').last.inner_text().startswith(expected[0])
    assert answer.locator('[data-testid="athena-citation"]').count() >= 1
    assert page.locator('.athena-chat [data-testid="empty-state"]').count() == 0


def test_long_question_collapses_and_the_bubble_shows_its_filters(page):
    new_conversation(page)
    long_question = "How do I configure the SECRET_KEY in Flask? " + " ".join(
        f"Context line {n}: the app runs behind a proxy and loads settings from files." for n in range(12))
    ask(page, long_question, kind="rst", prefix="docs/")
    bubble = page.locator('[data-testid="athena-user-message"]').last
    assert "athena-collapsed" in bubble.get_attribute("class")
    text = bubble.locator(".athena-question-text")
    shown = text.evaluate("el => ({height: el.clientHeight, full: el.scrollHeight})")
    assert shown["height"] < shown["full"] / 2, shown
    assert bubble.locator('[data-testid="question-filters"]').inner_text().split("\n") == ["kind: rst", "under: docs/"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    bubble.evaluate("el => el.scrollIntoView({block: 'start'})")
    page.locator('[data-testid="athena-chat"]').screenshot(path=str(SHOTS / "sidebar-long-question-collapsed-light.png"))
    text.click()
    assert "athena-collapsed" not in bubble.get_attribute("class")
    assert text.evaluate("el => el.clientHeight >= el.scrollHeight - 1")
    assert bubble.locator('[data-testid="question-toggle"]').inner_text() == "Show less"


def test_filters_that_exclude_every_source_say_so(page):
    answer = ask(page, TEXT_QUESTION, kind="pdf", prefix="docs/")
    body = answer.locator(".athena-answer-body").inner_text()
    assert FILTERED_OUT in body and "index has no evidence" not in body
    assert answer.get_attribute("data-no-evidence") == "filters"
    assert answer.locator(".athena-unsupported-list").count() == 0


def test_screenshots_streaming_status_light_dark_and_narrow(chat):
    SHOTS.mkdir(parents=True, exist_ok=True)
    panel = chat.locator('[data-testid="athena-chat"]')
    answer = send(chat, SLOW_QUESTION)
    answer.locator('[data-testid="athena-stream-status"]').filter(has_text="writing").wait_for(timeout=30_000)
    panel.screenshot(path=str(SHOTS / "sidebar-streaming-light.png"))
    chat.locator(ANSWER_DONE).last.wait_for(timeout=60_000)
    chat.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})")
    wait_for_theme(chat, light=False)
    try:
        answer = send(chat, SLOW_QUESTION)
        answer.locator('[data-testid="athena-stream-status"]').filter(has_text="writing").wait_for(timeout=30_000)
        answer.locator(".athena-citation-marker").first.hover()
        snippet_shown(chat)
        panel.screenshot(path=str(SHOTS / "sidebar-streaming-dark.png"))
        chat.locator(ANSWER_DONE).last.wait_for(timeout=60_000)
        chat.evaluate("() => window.jupyterapp.commands.execute('athena:new-conversation')")
        chat.locator('.athena-chat [data-testid="empty-state"]').wait_for()
        # the preview goes with the conversation it belonged to
        expect(chat.locator('.athena-chat [data-testid="athena-snippet"]:visible')).to_have_count(0)
        # A narrow panel: the preview still fits inside it.
        chat.set_viewport_size({"width": 700, "height": 800})
        chat.evaluate("() => window.jupyterapp.commands.execute('athena:focus-chat')")
        answer = ask(chat, SLOW_QUESTION)
        answer.locator('[data-testid="athena-citation"]').first.hover()
        snippet_shown(chat)
        geometry = snippet_geometry(chat)
        assert inside(geometry["pop"], geometry["panel"]), geometry
        panel.screenshot(path=str(SHOTS / "sidebar-narrow-dark.png"))
    finally:
        chat.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Light'})")
        chat.wait_for_function("document.body.dataset.jpThemeLight === 'true'")


# How many quoted sentences the newest answer showed at each redraw.
WATCH_BULLETS = """() => {
  window.__bullets = [];
  const messages = document.querySelector('[data-testid="athena-messages"]');
  new MutationObserver(() => {
    const answers = messages.querySelectorAll('[data-testid="athena-answer"]');
    const last = answers[answers.length - 1];
    if (last) {
      const n = last.querySelectorAll('.athena-answer-body li').length;
      if (window.__bullets[window.__bullets.length - 1] !== n) window.__bullets.push(n);
    }
  }).observe(messages, {childList: true, subtree: true});
}"""


def test_extractive_quotes_appear_all_at_once(page):
    new_conversation(page)
    page.evaluate(WATCH_BULLETS)
    answer = ask(page, TEXT_QUESTION, kind="rst")
    drawn(page)  # the finished answer's last redraw is on screen
    final = answer.locator(".athena-answer-body li").count()
    seen = [n for n in page.evaluate("window.__bullets") if n]
    # sources first: the quotes come in one event and are drawn in one go, not sentence by sentence
    assert final >= 2 and seen == [final], f"sentences drawn {seen}, {final} in the end"
