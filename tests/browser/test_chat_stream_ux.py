"""Issue 12 §4 with a model that streams slowly (a fake OpenAI-compatible server over real
HTTP): scrolling while an answer streams, Stop and a reload mid-stream keep the partial
answer marked interrupted with Retry, code blocks and the answer's buttons; screenshots of a
long answer in a narrow panel, light and dark."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")

from chat_page import ANSWER_DONE, ask, drawn, wait_for_theme  # noqa: E402
from wire_servers import OpenAIWireServer, Turn  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
QUESTION = "How are walrus tokens rotated?"
LONG_LINE = "rotate_walrus_tokens(vault, schedule='hourly', keep_last=3, notify=['ops@example.org'], dry_run=False)"
PARAGRAPHS = "\n\n".join(
    f"Step {n}: walrus tokens are rotated by the vault job, which checks the schedule and keeps the "
    f"last three tokens so that running clients can finish their requests [1]." for n in range(1, 19))
ANSWER = f"""Walrus tokens rotate hourly [1].

```python
{LONG_LINE}
```

{PARAGRAPHS}
"""
DOC = """# Walrus tokens

Walrus tokens are rotated every hour by the vault job. The job keeps the last three tokens
so that running clients can finish their requests.
"""


def _pieces(text: str, size: int = 24) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)]


LEXICAL = {"ATHENA_EMBEDDING__PROVIDER": "none"}


def walrus_folder(tmp_path_factory, name: str) -> Path:
    """A one-page folder (walrus.md), indexed for lexical search only."""
    folder = tmp_path_factory.mktemp(name) / "project"
    folder.mkdir()
    (folder / "walrus.md").write_text(DOC, encoding="utf-8")
    subprocess.run([sys.executable, "-m", "athena_lab.cli", "index", str(folder)], check=True, timeout=300,
                   capture_output=True, env={**os.environ, **LEXICAL})
    return folder


def model_settings(base_url: str) -> dict[str, str]:
    """Lexical search, answers from the OpenAI-compatible test model at ``base_url``."""
    return {**LEXICAL, "ATHENA_LLM__PROVIDER": "openai", "ATHENA_LLM__BASE_URL": base_url,
            "ATHENA_LLM__MODEL": "tiny"}


@pytest.fixture(scope="module")
def slow_lab(tmp_path_factory, start_lab) -> Iterator[str]:
    """Lab on a one-page folder, answering through a model that takes ~6 s per answer."""
    folder = walrus_folder(tmp_path_factory, "slow-root")
    model = OpenAIWireServer(lambda request: Turn(text=_pieces(ANSWER), event_delay_s=0.05), models=["tiny"])
    with model as base_url, start_lab(folder, model_settings(base_url)) as url:
        yield url


@contextmanager
def chat_tab(url: str, open_lab_page, name: str) -> Iterator[object]:
    """A Lab tab on ``url`` with the chat shown and a new conversation started."""
    with open_lab_page(url, name) as tab:
        tab.evaluate("() => window.jupyterapp.commands.execute('athena:new-conversation')"
                     " .catch(() => undefined)")
        yield tab


@pytest.fixture
def chat(slow_lab: str, open_lab_page, request) -> Iterator[object]:
    with chat_tab(slow_lab, open_lab_page, request.node.name) as tab:
        yield tab


def send(page, question: str, prefix: str = "") -> object:
    """Type and send a question without waiting for the answer; the newest answer."""
    page.locator(".athena-filter-prefix").fill(prefix)
    box = page.locator('[data-testid="athena-input"]')
    box.fill(question)
    box.press("Enter")
    return page.locator('[data-testid="athena-answer"]').last


def scroll_state(page) -> dict:
    return page.locator('[data-testid="athena-messages"]').evaluate(
        "el => ({top: el.scrollTop, gap: el.scrollHeight - el.scrollTop - el.clientHeight,"
        " scrollable: el.scrollHeight > el.clientHeight + 100})")


def test_streaming_follows_the_bottom_only_while_the_reader_is_there(chat):
    answer = send(chat, QUESTION)
    chat.wait_for_function(
        "() => { const m = document.querySelector('[data-testid=athena-messages]');"
        " return m.scrollHeight > m.clientHeight + 100; }", timeout=30_000)
    assert "athena-streaming" in answer.get_attribute("class")
    assert answer.locator('[data-testid="athena-mode"]').is_hidden(), "an empty mode chip while streaming"
    # a streaming answer keeps the bottom in view: the view follows once a frame, so measured
    # just as the answer grew it may be a frame behind on a loaded machine (39 px, a line);
    # it has a second to catch up, well inside the stream (a timeout fails the test)
    chat.wait_for_function("() => { const m = document.querySelector('[data-testid=athena-messages]');"
                           " return m.scrollHeight - m.scrollTop - m.clientHeight <= 32; }", timeout=1_000)
    assert answer.locator(".athena-answer-actions").is_hidden(), "no Copy/Insert while streaming"
    messages = chat.locator('[data-testid="athena-messages"]')
    messages.hover()
    chat.mouse.wheel(0, -5000)  # the reader scrolls up to read
    chat.wait_for_function("el => el.scrollTop < 50", arg=messages.element_handle())
    # more of the answer arrives and is drawn while the reader is up there
    chat.wait_for_function("([el, n]) => el.textContent.length > n + 40", timeout=30_000,
                           arg=[answer.element_handle(), len(answer.text_content())])
    drawn(chat)
    assert "athena-streaming" in answer.get_attribute("class"), "the answer should still be streaming"
    assert scroll_state(chat)["top"] < 50, "the panel yanked the reader back to the bottom"
    # Back at the bottom (a jump: a wheel fling animates while the text grows under it).
    messages.evaluate("el => { el.scrollTop = el.scrollHeight; }")
    chat.locator(ANSWER_DONE).last.wait_for(timeout=60_000)
    # the end stays in view (the last scroll lands in the frame after the text)
    chat.wait_for_function("el => el.scrollHeight - el.scrollTop - el.clientHeight <= 32", arg=messages.element_handle())
    copy = answer.locator('[data-testid="athena-copy"]')
    box, view = copy.bounding_box(), messages.bounding_box()
    assert view["y"] <= box["y"] and box["y"] + box["height"] <= view["y"] + view["height"] + 1, \
        "the finished answer's actions are in view"


def test_stop_keeps_the_partial_answer_as_interrupted_with_retry_across_a_reload(chat, slow_lab, show_chat):
    answer = send(chat, QUESTION)
    # Stop once the first phrase is drawn (renders come per frame, not per token)
    answer.locator(".athena-answer-body p").filter(has_text="Walrus tokens rotate hourly").first.wait_for(timeout=30_000)
    stop = chat.locator('[data-testid="athena-send"]')
    assert stop.inner_text() == "Stop"
    stop.click()
    note = answer.locator('[data-testid="athena-interrupted"]')
    note.wait_for(timeout=10_000)
    assert answer.locator(".athena-error").count() == 0, "Stop is not an error"
    assert "athena-failed" not in answer.get_attribute("class")
    partial = answer.locator(".athena-answer-body").inner_text()
    assert partial.startswith("Walrus tokens rotate hourly")
    # The server stored what was streamed, marked interrupted, and the reload shows it.
    cid = chat.locator('[data-testid="athena-chat"]').get_attribute("data-conversation-id")
    chat.wait_for_function(
        """async (cid) => { const r = await fetch(`${location.origin}/athena/conversations/${cid}`);
             const c = await r.json(); return c.messages.some(m => m.mode === 'interrupted'); }""",
        arg=cid, timeout=20_000, polling=500)
    chat.reload()
    chat.wait_for_function("window.jupyterapp && window.jupyterapp.shell", timeout=60_000)
    show_chat(chat)
    restored = chat.locator('[data-testid="athena-answer"]').last
    restored.locator('[data-testid="athena-interrupted"]').wait_for(timeout=30_000)
    assert restored.locator(".athena-answer-body").inner_text().startswith("Walrus tokens rotate hourly")
    answers = chat.locator('[data-testid="athena-answer"]')
    before = answers.count()
    restored.locator('[data-testid="athena-retry"]').click()
    again = answers.nth(before)
    again.wait_for(timeout=10_000)
    chat.wait_for_function("(n) => { const a = document.querySelectorAll('[data-testid=athena-answer]')[n];"
                           " return a && a.dataset.mode && !a.classList.contains('athena-streaming'); }",
                           arg=before, timeout=60_000)
    assert "Step 18" in again.locator(".athena-answer-body").inner_text()
    assert chat.locator('[data-testid="athena-user-message"]').last.inner_text() == QUESTION


def test_code_blocks_scroll_and_copy_and_the_answer_buttons(chat):
    send_button = chat.locator('[data-testid="athena-send"]')
    assert send_button.is_disabled(), "Send is disabled for an empty question"
    chat.locator('[data-testid="athena-input"]').fill("   ")
    assert send_button.is_disabled()
    chat.locator('[data-testid="athena-input"]').fill("")
    answer = ask(chat, QUESTION)
    pre = answer.locator(".athena-answer-body pre").first
    style = pre.evaluate("""el => ({bg: getComputedStyle(el).backgroundColor, x: getComputedStyle(el).overflowX,
        wider: el.scrollWidth > el.clientWidth, page: getComputedStyle(el.closest('.athena-chat')).backgroundColor})""")
    assert style["bg"] not in ("rgba(0, 0, 0, 0)", style["page"]), "code has its own background"
    assert style["x"] == "auto" and style["wider"], "a long line scrolls sideways instead of being cut"
    code_copy = answer.locator('[data-testid="athena-code-copy"]').first
    code_copy.click()
    # The label changes once the clipboard write has resolved.
    answer.locator('[data-testid="athena-code-copy"]', has_text="Copied").first.wait_for(timeout=5_000)
    assert chat.evaluate("() => navigator.clipboard.readText()") == LONG_LINE
    copy = answer.locator('[data-testid="athena-copy"]')
    copy.click()
    assert copy.inner_text() == "Copied"
    # No evidence (a path prefix that matches nothing): nothing to copy or insert.
    empty = send(chat, QUESTION, prefix="nowhere/")
    chat.locator(ANSWER_DONE).last.wait_for(timeout=60_000)
    assert empty.locator(".athena-answer-actions").is_hidden()


def test_screenshots_long_answer_narrow_panel_light_and_dark(chat):
    answer = ask(chat, QUESTION)
    ARTIFACTS.mkdir(exist_ok=True)
    panel = chat.locator('[data-testid="athena-chat"]')
    answer.locator('[data-testid="athena-citation"]').first.hover()
    panel.screenshot(path=str(ARTIFACTS / "chat-long-answer-narrow-light.png"))
    chat.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Dark'})")
    wait_for_theme(chat, light=False)
    answer.locator('[data-testid="athena-citation"]').first.hover()
    panel.screenshot(path=str(ARTIFACTS / "chat-long-answer-narrow-dark.png"))
    chat.evaluate("() => window.jupyterapp.commands.execute('apputils:change-theme', {theme: 'JupyterLab Light'})")
    chat.wait_for_function("document.body.dataset.jpThemeLight === 'true'")
