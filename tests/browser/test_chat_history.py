"""The sidebar chat's history and tools in a real JupyterLab: titles that tell conversations
apart with when they were used, delete with undo, edit-and-resend and regenerate, the
trace's hit table with retriever ranks, reindex progress and its done line, "Ask about this
cell", settings choices from the server, a header on one row, and a panel every control of
which is reached by Tab without focus ever falling to the page."""

from __future__ import annotations

import json
import re
import time

import pytest

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")

from playwright.sync_api import expect  # noqa: E402

from chat_page import ANSWER, ANSWER_DONE, ask, set_theme  # noqa: E402
from conftest import ARTIFACTS, open_chat  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHAT = '[data-testid="athena-chat"]'
HISTORY = '[data-testid="athena-conversations"]'
CELL_SOURCE = "app.config['SECRET_KEY'] = secrets.token_hex()\napp.testing = True\nclient = app.test_client()"


def api(page, path: str) -> dict:
    """GET an /athena/ route with the page's Lab session (its token cookie)."""
    base = page.url.split("/lab")[0]
    response = page.request.get(f"{base}/athena/{path}")
    assert response.ok, response.text()
    return response.json()


def wait_for_stored(page, check, failure: str, timeout: float = 30) -> None:
    """Poll the server until ``check()`` holds: what the server stores (an answer when its
    stream ends, a delete when its undo window does) has no element to wait on."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, failure
        page.wait_for_timeout(200)  # the interval between two looks, not a guess at when it is done


def delete_all_conversations(page) -> None:
    """Start from an empty history: earlier tests in the session leave theirs."""
    base = page.url.split("/lab")[0]
    xsrf = next((c["value"] for c in page.context.cookies() if c["name"] == "_xsrf"), "")
    for conversation in api(page, "conversations?limit=200")["conversations"]:
        response = page.request.delete(f"{base}/athena/conversations/{conversation['id']}",
                                       headers={"X-XSRFToken": xsrf})
        assert response.ok, response.text()


def new_conversation(page) -> None:
    page.locator(".athena-new").click()
    page.wait_for_function("document.querySelector('[data-testid=athena-chat]').dataset.conversationId === ''")


def open_history(page) -> None:
    toggle = page.locator(".athena-history-toggle")
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    # the list is drawn: its rows, or the line that says there are none yet
    page.locator(f"{HISTORY} .athena-conversation, {HISTORY} .athena-conversation-empty").first.wait_for()


def conversation_id(page) -> str:
    return page.locator(CHAT).get_attribute("data-conversation-id")


def test_history_titles_tell_repeated_questions_apart_and_say_when(page):
    question = f"How do I run the test client {int(time.time())}?"
    ask(page, question)
    first = conversation_id(page)
    new_conversation(page)
    ask(page, question)
    second = conversation_id(page)
    open_history(page)
    rows = page.locator(f"{HISTORY} li.athena-conversation")
    titles = rows.locator('[data-testid="athena-conversation-title"]')
    expect(titles.nth(0)).to_have_text(f"{question} (2)", timeout=15_000)  # refreshed after the answer
    expect(titles.nth(1)).to_have_text(question)
    # Cut short in a narrow panel, the number still tells them apart.
    number = rows.first.locator(".athena-conversation-number")
    assert number.text_content() == " (2)" and number.is_visible()
    box, row_box = number.bounding_box(), rows.first.locator(".athena-conversation-open").bounding_box()
    assert box["x"] + box["width"] <= row_box["x"] + row_box["width"]
    when = rows.first.locator('[data-testid="athena-conversation-when"]').inner_text()
    assert re.fullmatch(r"today \d\d:\d\d · 1 question", when), when
    assert rows.first.get_attribute("data-id") == second and rows.nth(1).get_attribute("data-id") == first
    assert "athena-current" in rows.first.get_attribute("class")


def test_delete_offers_undo_and_deletes_on_the_server_only_after_the_window(page):
    new_conversation(page)
    ask(page, "What does app.test_client return?")
    cid = conversation_id(page)
    open_history(page)
    row = page.locator(f'{HISTORY} li[data-id="{cid}"]')
    row.locator(".athena-conversation-delete").click()
    undo = row.locator('[data-testid="athena-conversation-undo"]')
    expect(undo).to_be_visible()
    expect(row).to_contain_text("Deleted")
    expect(undo).to_be_focused()
    assert page.locator(CHAT).get_attribute("data-conversation-id") == ""  # the view left it
    assert page.locator(ANSWER).count() == 0
    assert any(c["id"] == cid for c in api(page, "conversations?limit=200")["conversations"])  # not yet deleted
    undo.press("Enter")
    row.locator(".athena-conversation-open").wait_for()
    page.wait_for_function(f"document.querySelector('{CHAT}').dataset.conversationId === '{cid}'")
    page.locator(ANSWER_DONE).first.wait_for()
    assert page.locator(ANSWER_DONE).count() == 1  # undo brought the conversation back into view
    # focus returns to the row once the restored conversation has been drawn
    page.wait_for_function("document.activeElement.classList.contains('athena-conversation-open')", timeout=10_000)

    row.locator(".athena-conversation-delete").click()
    expect(undo).to_be_focused()
    expect(page.locator(f'{HISTORY} li[data-id="{cid}"]')).to_have_count(0, timeout=20_000)  # the window ends
    wait_for_stored(page, lambda: all(c["id"] != cid for c in api(page, "conversations?limit=200")["conversations"]),
                    "the conversation is still stored after its undo window")
    # focus stays on the page's controls when the focused row goes, never falls to <body>
    # (conversationList.ts: a neighbour, else the fallback, else the list itself)
    page.wait_for_function("document.activeElement !== null && document.activeElement !== document.body")


def test_a_reload_within_the_undo_window_still_deletes_the_conversation(page):
    new_conversation(page)
    ask(page, "How do I register a blueprint?")
    cid = conversation_id(page)
    open_history(page)
    page.locator(f'{HISTORY} li[data-id="{cid}"] .athena-conversation-delete').click()
    page.locator('[data-testid="athena-conversation-undo"]').wait_for()
    page.reload()  # leaving the page ends the undo window, as closing a mail client sends
    page.wait_for_function("window.jupyterapp && window.jupyterapp.shell", timeout=60_000)
    open_chat(page)
    wait_for_stored(page, lambda: all(c["id"] != cid for c in api(page, "conversations?limit=200")["conversations"]),
                    "the conversation deleted before the reload is still stored")
    open_history(page)
    assert page.locator(f'{HISTORY} li[data-id="{cid}"]').count() == 0


def test_edit_and_resend_replaces_the_question_and_regenerate_the_last_answer(page):
    new_conversation(page)
    ask(page, "How do I configure the SECRET_KEY?")
    ask(page, "What is a blueprint?")
    cid = conversation_id(page)
    first = page.locator(".athena-user-turn").first
    first.locator('[data-testid="athena-edit-question"]').click()
    box = first.locator('[data-testid="athena-edit-box"]')
    assert box.input_value() == "How do I configure the SECRET_KEY?"
    box.fill("How do I test with the test client?")
    box.press("Enter")
    page.wait_for_function("document.querySelectorAll('[data-testid=athena-answer]').length === 1")
    page.locator(ANSWER_DONE).wait_for(timeout=60_000)
    assert page.locator('[data-testid="athena-user-message"]').all_inner_texts() == [
        "How do I test with the test client?"]
    assert conversation_id(page) == cid  # the same conversation, from that question on
    stored = api(page, f"conversations/{cid}")["messages"]
    assert [m["content"] for m in stored if m["role"] == "user"] == ["How do I test with the test client?"]

    regenerate = page.locator('[data-testid="athena-regenerate"]')
    regenerate.click()
    page.locator(ANSWER_DONE).wait_for(timeout=60_000)
    page.wait_for_function("!document.querySelector('[data-testid=athena-answer].athena-streaming')")
    assert page.locator('[data-testid="athena-user-message"]').count() == 1
    assert page.locator(ANSWER).count() == 1
    wait_for_stored(page, lambda: [m["role"] for m in api(page, f"conversations/{cid}")["messages"]]
                    == ["user", "assistant"], "the regenerated answer is not stored")  # when its stream ends
    page.wait_for_function("document.activeElement !== document.body")
    expect(regenerate).to_be_visible()  # back under the new last answer


def test_trace_drawer_tabulates_each_hit_with_fused_score_and_retriever_ranks(page):
    answer = ask(page, "How do I configure the SECRET_KEY in Flask?")
    trace = answer.locator('[data-testid="athena-trace"]')
    trace.locator("summary").click()
    table = trace.locator(".athena-trace-hits table").first
    headers = table.locator("th").all_inner_texts()
    assert headers[:3] == ["#", "where", "fused"] and "BM25" in headers and "vector" in headers
    rows = table.locator('[data-testid="athena-trace-hit"]')
    assert rows.count() >= 3
    cells = rows.first.locator("td").all_inner_texts()
    assert cells[0] == "[1]" and cells[1].startswith("docs/") and float(cells[2]) > 0
    bm25 = headers.index("BM25")
    ranks = [rows.nth(i).locator("td").nth(bm25).inner_text() for i in range(rows.count())]
    assert all(r == "\u2013" or r.isdigit() for r in ranks) and any(r.isdigit() for r in ranks)
    scores = [float(rows.nth(i).locator("td").nth(2).inner_text()) for i in range(rows.count())]
    assert scores == sorted(scores, reverse=True)


def test_reindex_shows_progress_then_a_done_line_with_counts_and_time(page):
    page.evaluate("""() => {
      window.__athenaMessages = [];
      const el = document.querySelector('[data-testid=athena-index-message]');
      new MutationObserver(() => window.__athenaMessages.push(el.textContent))
        .observe(el, {childList: true, characterData: true, subtree: true});
    }""")
    page.locator(".athena-reindex").click()
    status = page.locator(".athena-index-status")
    page.wait_for_function("document.querySelector('.athena-index-status').dataset.reindex !== 'running'",
                           timeout=120_000)
    assert status.get_attribute("data-reindex") == "done"
    done = page.locator('[data-testid="athena-index-message"]').inner_text()
    assert re.fullmatch(r"Reindex done: 5 files \((no changes|[^)]*)\) · \d+ chunks( · \d+ embedded)? · \d+\.\d s",
                        done), done
    seen = page.evaluate("window.__athenaMessages")
    assert seen[0].startswith("Reindexing: starting"), seen
    # The done line stays while the strip refreshes itself: the refresh after the run
    # writes the line again, and it still says done.
    page.wait_for_function("""(done) => {
      const seen = window.__athenaMessages;
      return seen.length >= 2 && seen[seen.length - 1] === done && seen[seen.length - 2] === done;
    }""", arg=done)
    expect(page.locator('[data-testid="athena-index-message"]')).to_have_text(done)


@pytest.fixture
def cell_notebook(corpus) -> str:
    """A notebook beside the indexed folder (not in it), with one code cell. Written only when
    it differs, and atomically: Lab restores an open notebook tab while the page loads, and
    a file caught half-written shows a "File Load Error" dialog over everything."""
    path = corpus.parent / "ask_about_cell.ipynb"
    text = json.dumps({
        "cells": [{"cell_type": "code", "execution_count": None, "id": "c1", "metadata": {}, "outputs": [],
                   "source": CELL_SOURCE}],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4, "nbformat_minor": 5})
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        partial = path.with_suffix(".partial")
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
    return path.name


def open_notebook(page, name: str):
    page.evaluate(f"async () => {{ await window.jupyterapp.commands.execute('docmanager:open', "
                  f"{{path: '{name}', factory: 'Notebook'}}); }}")
    cell = page.locator(".jp-NotebookPanel:visible .jp-Cell").first
    cell.wait_for()
    return cell


def test_ask_about_this_cell_attaches_it_as_a_chip_and_sends_it_with_the_question(page, cell_notebook):
    cell = open_notebook(page, cell_notebook)
    cell.locator(".jp-InputPrompt").click(button="right")
    page.locator(".lm-Menu-item", has_text="Ask Athena about This Cell").click()
    chip = page.locator('[data-testid="athena-context"]')
    chip.wait_for()
    assert chip.inner_text().startswith("About cell 1 of ask_about_cell.ipynb · 3 lines")
    expect(page.locator('[data-testid="athena-input"]')).to_be_focused()
    chip.locator('[data-testid="athena-context-remove"]').click()
    expect(chip).to_be_hidden()

    # The keyboard shortcut from the notebook (command mode) attaches it again.
    cell.locator(".jp-InputPrompt").click()
    page.keyboard.press("Control+Shift+Y")
    chip.wait_for()
    assert "cell 1 of ask_about_cell.ipynb" in chip.inner_text()

    chats = []
    page.on("request", lambda r: chats.append(r.post_data) if "/athena/chat" in r.url else None)
    new_conversation(page)
    page.locator('[data-testid="athena-input"]').fill("What does this do?")
    page.locator('[data-testid="athena-input"]').press("Enter")
    answer = page.locator(ANSWER_DONE).first
    answer.wait_for(timeout=60_000)
    assert json.loads(chats[-1])["context"] == CELL_SOURCE
    assert not chip.is_visible()  # sent with this question only
    assert page.locator(".athena-user-context").inner_text() == "About cell 1 of ask_about_cell.ipynb"
    answer.locator('[data-testid="athena-trace"] summary').click()
    query = answer.locator(".athena-trace-input").first.inner_text()
    assert "SECRET_KEY" in query and "test_client" in query
    assert answer.locator('[data-testid="athena-citation"]').count() >= 1

    # Stored with the question: after a reload the bubble says what it was about, and
    # Regenerate sends the cell again.
    page.reload()
    page.wait_for_function("window.jupyterapp && window.jupyterapp.shell", timeout=60_000)
    open_chat(page)
    page.locator(ANSWER_DONE).first.wait_for(timeout=60_000)
    about = page.locator(".athena-user-context")
    assert about.inner_text() == "About cell 1 of ask_about_cell.ipynb"
    assert about.get_attribute("title").startswith(CELL_SOURCE[:40])
    with page.expect_request(lambda r: "/athena/chat" in r.url and r.method == "POST") as regenerated:
        page.locator('[data-testid="athena-regenerate"]').click()
    sent = json.loads(regenerated.value.post_data)
    assert sent["context"] == CELL_SOURCE and sent["context_label"] == "cell 1 of ask_about_cell.ipynb"
    page.locator(ANSWER_DONE).first.wait_for(timeout=60_000)


def test_ask_about_a_selection_sends_only_the_selected_lines(page, cell_notebook):
    cell = open_notebook(page, cell_notebook)
    cell.locator(".cm-content").click()
    page.evaluate("""() => {
      const cell = window.jupyterapp.shell.currentWidget.content.activeCell;
      cell.editor.setSelection({start: {line: 1, column: 0}, end: {line: 1, column: 18}});
    }""")
    page.evaluate("async () => { await window.jupyterapp.commands.execute('athena:ask-about-cell'); }")
    chip = page.locator('[data-testid="athena-context"]')
    chip.wait_for()
    assert "1 selected line of cell 1 of ask_about_cell.ipynb" in chip.inner_text()
    assert page.locator(".athena-context-chip").get_attribute("title") == "app.testing = True"


def test_settings_offer_the_servers_providers_and_all_kinds(page):
    page.evaluate("async () => { await window.jupyterapp.commands.execute('settingeditor:open', {query: 'Athena chat'}); }")
    provider = page.locator(".jp-SettingsPanel select").first
    provider.wait_for(timeout=30_000)
    selects = page.locator(".jp-SettingsPanel select")
    options = [s.locator("option").all_inner_texts() for s in selects.all()]
    providers = next(o for o in options if any(t.startswith("local") for t in o))
    assert providers[0].startswith("the server's choice (now extractive)")
    names = api(page, "info")["providers"]
    # the local provider is offered by the model it runs: "local: Qwen2.5 Coder 1.5B Instruct … on this machine"
    assert [t.split(":")[0] for t in providers[1:]] == names
    assert providers[1 + names.index("local")].startswith("local: Qwen2.5 Coder 1.5B Instruct")
    kinds = next(o for o in options if "PDFs" in o)
    assert kinds[0] == "all kinds"
    # Issue 21: the settings speak the user's words, not the HTTP API's.
    descriptions = page.locator(".jp-SettingsPanel").inner_text()
    assert "GET /athena" not in descriptions and "Which model answers the chat's questions" in descriptions
    page.screenshot(path=str(ARTIFACTS / "history-settings.png"))


def one_row(header) -> bool:
    """Every visible child of the header shares one line (their vertical extents overlap)."""
    return header.evaluate("""h => {
      const rects = Array.from(h.children).filter(c => c.getClientRects().length).map(c => c.getBoundingClientRect());
      return Math.max(...rects.map(r => r.top)) < Math.min(...rects.map(r => r.bottom));
    }""")


def test_panel_opens_wide_enough_for_its_header_on_one_row(page):
    mode = page.locator('[data-testid="athena-server-mode"]')
    # The chip is empty (no height) until /athena/info answers, which a loaded machine delays.
    page.locator('[data-testid="athena-server-mode"]', has_text="extractive").wait_for()
    assert mode.inner_text() == "extractive"
    header = page.locator(".athena-chat-header")
    assert one_row(header)
    assert header.evaluate("h => h.scrollWidth <= h.clientWidth")
    assert mode.evaluate("m => m.scrollWidth <= m.clientWidth"), "the server mode is cut off"
    assert page.locator(CHAT).evaluate("el => el.getBoundingClientRect().width") >= 320


INTERACTIVE = """el => Array.from(el.querySelectorAll(
  'button, input, select, textarea, summary, a[href], [tabindex]:not([tabindex="-1"])'))
  .filter(e => !e.disabled && e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden'
    && !e.closest('[hidden]') && !e.closest('details:not([open]) > :not(summary)'))"""


def settle(page, quiet_ms: int = 600) -> None:
    """Wait until nothing in the panel has changed for ``quiet_ms`` (a list re-rendered
    mid-walk would replace the controls being counted)."""
    page.evaluate(f"""() => new Promise(resolve => {{
      let timer = setTimeout(done, {quiet_ms});
      const seen = new MutationObserver(() => {{ clearTimeout(timer); timer = setTimeout(done, {quiet_ms}); }});
      function done() {{ seen.disconnect(); resolve(); }}
      setTimeout(done, 15000);  // a panel that never rests: walk it anyway
      seen.observe(document.querySelector('{CHAT}'), {{childList: true, subtree: true, attributes: true}});
    }})""")


def tab_through(page, backwards: bool = False) -> tuple[list[str], list[int]]:
    """Press Tab from the first control of the panel until focus leaves it; the keys of the
    elements reached, and the steps where focus was on <body>."""
    page.evaluate(f"""() => {{
      const all = ({INTERACTIVE})(document.querySelector('{CHAT}'));
      all.forEach((e, i) => e.dataset.tabKey = String(i));
      all[{'all.length - 1' if backwards else '0'}].focus();
    }}""")
    reached, on_body = [], []
    before_body = []
    for step in range(200):
        state = page.evaluate(f"""() => {{
          const a = document.activeElement;
          return {{body: a === document.body || a === null,
                   inside: Boolean(a && a.closest('{CHAT}')), key: a && a.dataset ? a.dataset.tabKey : null}};
        }}""")
        if state["body"]:
            on_body.append((step, before_body[-1] if before_body else None))
        if not state["inside"] and step > 0:
            break
        reached.append(state["key"])
        before_body.append(page.evaluate("document.activeElement.outerHTML.slice(0, 160)"))
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
    return reached, on_body


def test_tab_reaches_every_control_of_the_panel_and_never_drops_focus_to_the_page(page):
    delete_all_conversations(page)  # a history of a few rows, whatever ran before
    page.reload()
    page.wait_for_function("window.jupyterapp && window.jupyterapp.shell", timeout=60_000)
    open_chat(page)
    new_conversation(page)
    answer = ask(page, "How do I configure the SECRET_KEY in Flask?")
    answer.locator('[data-testid="athena-trace"] summary').click()
    open_history(page)
    settle(page)  # the history list refreshes after the answer: walk the panel as it stays
    total = page.locator(CHAT).evaluate(f"el => ({INTERACTIVE})(el).length")
    for backwards in (False, True):
        reached, on_body = tab_through(page, backwards)
        assert not on_body, f"focus fell to <body> at Tab steps {on_body}"
        missing = set(map(str, range(total))) - set(reached)
        names = page.evaluate("""keys => keys.map(k => {
          const e = document.querySelector(`[data-tab-key="${k}"]`);
          return e.outerHTML.slice(0, 120); })""", sorted(missing))
        assert not missing, f"never reached by {'Shift+' if backwards else ''}Tab: {names}"

    # Operating by keyboard keeps focus in the panel: send with the Send button…
    box = page.locator('[data-testid="athena-input"]')
    box.fill("What is a blueprint?")
    page.locator('[data-testid="athena-send"]').focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('[data-testid=athena-answer]:not(.athena-streaming)').length === 2",
                           timeout=60_000)
    page.wait_for_function(f"document.activeElement.closest('{CHAT}') !== null")
    # …and remove an attached context with its × button.
    page.locator('[data-testid="athena-edit-question"]').last.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    expect(page.locator('[data-testid="athena-edit-question"]').last).to_be_focused()


SHOTS = [("light", "JupyterLab Light", True), ("dark", "JupyterLab Dark", False)]


@pytest.mark.parametrize("name, theme, light", SHOTS)
def test_screenshots_of_history_trace_and_context_in_both_themes(page, cell_notebook, name, theme, light):
    page.evaluate(f"async () => {{ await window.jupyterapp.commands.execute('apputils:change-theme', "
                  f"{{theme: '{theme}'}}); }}")
    page.wait_for_function(f"document.body.dataset.jpThemeLight === '{str(light).lower()}'")
    new_conversation(page)
    answer = ask(page, "How do I configure the SECRET_KEY in Flask?")
    answer.locator('[data-testid="athena-trace"] summary').click()
    open_history(page)
    cell = open_notebook(page, cell_notebook)
    cell.locator(".jp-InputPrompt").click()
    page.evaluate("async () => { await window.jupyterapp.commands.execute('athena:ask-about-cell'); }")
    expect(page.locator('[data-testid="athena-context"]')).to_be_visible()
    expect(page.locator('[data-testid="athena-input"]')).to_be_focused()  # where "Ask about this cell" ends
    page.locator(CHAT).screenshot(path=str(ARTIFACTS / f"history-panel-{name}.png"))
    # The undo row, an open edit box and a finished reindex's done line.
    others = page.locator(f"{HISTORY} li.athena-conversation:not(.athena-current)")
    row = others.first if others.count() else None
    if row is not None:
        row.locator(".athena-conversation-delete").click()
        expect(row.locator('[data-testid="athena-conversation-undo"]')).to_be_focused()
    page.locator(".athena-user-turn").last.locator('[data-testid="athena-edit-question"]').click()
    page.locator(".athena-reindex").click()
    page.wait_for_function("document.querySelector('.athena-index-status').dataset.reindex === 'done'",
                           timeout=120_000)
    page.locator(".athena-user-turn").last.scroll_into_view_if_needed()
    page.locator(CHAT).screenshot(path=str(ARTIFACTS / f"history-undo-edit-done-{name}.png"))
    if row is not None:
        row.locator('[data-testid="athena-conversation-undo"]').click()
    page.locator(".athena-edit-cancel").click()
    answer.locator(".athena-trace-hits").first.scroll_into_view_if_needed()
    page.locator(CHAT).screenshot(path=str(ARTIFACTS / f"history-trace-{name}.png"))
    # Narrow: drag the sidebar's edge as far left as it goes.
    edge = page.locator(CHAT).evaluate("el => el.getBoundingClientRect().right")
    x, y = page.evaluate("""edge => {
      const handle = Array.from(document.querySelectorAll('.lm-SplitPanel-handle'))
        .map(h => h.getBoundingClientRect()).find(r => r.width && Math.abs(r.left - edge) < 8);
      return [handle.left + handle.width / 2, handle.top + 300];
    }""", edge)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(60, y, steps=8)
    page.mouse.up()
    # as narrow as it goes: its minimum, header still on one row (Lab lays the panels out in a frame)
    page.wait_for_function("el => { const w = el.getBoundingClientRect().width;"
                           " const least = parseFloat(getComputedStyle(el).minWidth);"
                           " return least >= 320 && w >= least - 2 && w <= least + 2; }",
                           arg=page.locator(CHAT).element_handle())
    page.set_viewport_size({"width": 760, "height": 760})  # and in a small window
    page.wait_for_function("el => el.getBoundingClientRect().right <= 760", arg=page.locator(CHAT).element_handle())
    page.locator(CHAT).screenshot(path=str(ARTIFACTS / f"history-panel-{name}-narrow.png"))
    assert one_row(page.locator(".athena-chat-header"))


def chips(turn) -> list[str]:
    """The filter chips a question's bubble shows (none: [])."""
    shown = turn.locator('[data-testid="question-filters"]')
    return shown.inner_text().split("\n") if shown.count() else []


def stored_filters(page, cid: str, questions: int) -> list:
    """Each stored question's filters, once the conversation holds `questions` answered ones
    (an answer is stored when its stream ends)."""
    wait_for_stored(page, lambda: [m["role"] for m in api(page, f"conversations/{cid}")["messages"]]
                    == ["user", "assistant"] * questions, f"{questions} answered questions are not stored")
    return [m.get("filters") for m in api(page, f"conversations/{cid}")["messages"] if m["role"] == "user"]


def test_a_restored_question_shows_its_filters_and_is_asked_again_with_them(page):
    new_conversation(page)
    ask(page, "What is a blueprint?")
    ask(page, "How do I configure the SECRET_KEY?", kind="rst", prefix="docs/")
    cid = conversation_id(page)
    page.reload()
    page.wait_for_function("window.jupyterapp && window.jupyterapp.shell", timeout=60_000)
    open_chat(page)
    page.wait_for_function(f"document.querySelector('{CHAT}').dataset.conversationId === '{cid}'")
    turns = page.locator(".athena-user-turn")
    turns.nth(1).wait_for()
    assert [chips(turns.nth(0)), chips(turns.nth(1))] == [[], ["kind: rst", "under: docs/"]]
    assert page.locator(".athena-filter-kind").input_value() == ""  # the composer keeps its own filters
    shots = ARTIFACTS / "filters"
    shots.mkdir(parents=True, exist_ok=True)
    try:
        for name, theme, light in SHOTS:
            set_theme(page, theme, light)
            turns.nth(1).scroll_into_view_if_needed()
            turns.nth(1).screenshot(path=str(shots / f"restored-question-{name}.png"))
            page.locator(CHAT).screenshot(path=str(shots / f"restored-conversation-{name}.png"))
    finally:
        set_theme(page, "JupyterLab Light", True)

    # Regenerate asks the restored question again with its filters, not the (empty) composer's.
    page.locator('[data-testid="athena-regenerate"]').click()
    page.wait_for_function("document.querySelectorAll('[data-testid=athena-answer]').length === 2")
    page.locator(ANSWER_DONE).nth(1).wait_for(timeout=60_000)
    page.wait_for_function("!document.querySelector('[data-testid=athena-answer].athena-streaming')")
    assert chips(turns.nth(1)) == ["kind: rst", "under: docs/"]
    assert stored_filters(page, cid, 2) == [None, {"kind": "rst", "path_prefix": "docs/"}]
    sources = page.locator(ANSWER).nth(1).locator(".athena-citation-label").all_inner_texts()
    assert sources and all(s.startswith("docs/") and ".rst" in s for s in sources), sources

    # Edit-and-resend asks the first question again without filters, as it was asked,
    # whatever the composer now holds.
    page.locator(".athena-filter-kind").select_option("pdf")
    turns.nth(0).locator('[data-testid="athena-edit-question"]').click()
    box = turns.nth(0).locator('[data-testid="athena-edit-box"]')
    box.fill("What is a blueprint for?")
    box.press("Enter")
    page.wait_for_function("document.querySelectorAll('[data-testid=athena-answer]').length === 1")
    page.locator(ANSWER_DONE).wait_for(timeout=60_000)
    assert chips(turns.nth(0)) == []
    assert stored_filters(page, cid, 1) == [None]
    page.locator(".athena-filter-kind").select_option("")
