"""The chat page `athena serve` answers at / (docs/chat-page.md), in Debian's chromium
against a real `athena serve` subprocess opened from the URL it printed (?token=…):
streamed answers with [n] markers, each kind of citation opened in the source viewer,
keyboard-only use, phone width, light and dark. Screenshots go to test-artifacts/."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import nbformat
import pytest

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")

from playwright.sync_api import expect  # noqa: E402
from conftest import ARTIFACTS, FLASK_PAGES, HOSTILE_MD, PDF_NAME  # noqa: E402
from corpus_files import CORPORA  # noqa: E402
from http_servers import AthenaServer, fast_env, run_cli  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAGE_BUILT = Path(__file__).resolve().parents[2] / "athena_lab" / "static" / "page" / "page.js"
TEXT_QUESTION = "How do I configure the SECRET_KEY in Flask?"
PDF_QUESTION = "When was the typewriter invented?"
NOTEBOOK_QUESTION = "How fast do quokkas migrate?"
DONE = '[data-testid="answer"][aria-busy="false"]'

def _notebook(path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Field notes"),
        nbformat.v4.new_markdown_cell("Quokkas migrate slowly: about two kilometres a night across Rottnest Island."),
        nbformat.v4.new_code_cell("speed_km_per_night = 2  # quokka migration speed\nprint(speed_km_per_night)"),
    ]
    nbformat.write(nb, str(path))


@pytest.fixture(scope="module")
def athena(tmp_path_factory: pytest.TempPathFactory):
    """`athena serve` (extractive answers, lexical search) on Flask pages, a PDF, a
    notebook and a hostile Markdown page, indexed the way a user does it."""
    if not PAGE_BUILT.is_file():
        pytest.skip("the chat page is not built: cd labextension && npm run build:prod")
    folder = tmp_path_factory.mktemp("page-root") / "project"
    for sub in ("docs", "papers", "notebooks"):
        (folder / sub).mkdir(parents=True)
    for page in FLASK_PAGES:
        shutil.copy(CORPORA / "docs" / "flask" / "docs" / page, folder / "docs" / page)
    shutil.copy(CORPORA / "pdfs" / PDF_NAME, folder / "papers" / PDF_NAME)
    (folder / "docs" / "hostile.md").write_text(HOSTILE_MD, encoding="utf-8")
    _notebook(folder / "notebooks" / "field.ipynb")
    run_cli("index", str(folder), env=fast_env())
    # One browser here asks dozens of questions a minute; the default limit (60 requests a
    # minute per address) is for people.
    env = fast_env(ATHENA_LLM__PROVIDER="extractive", ATHENA_SERVER__RATE_LIMIT_PER_MINUTE="1000")
    with AthenaServer(folder, env=env) as server:
        yield server


def _open(browser, athena, name: str, **context_options):
    """A fresh context on the printed URL; returns (context, tab)."""
    options = {"viewport": {"width": 1280, "height": 820}, **context_options}
    context = browser.new_context(**options)
    tab = context.new_page()
    tab.athena_errors = []
    tab.on("pageerror", lambda exc: tab.athena_errors.append(str(exc)))
    tab.on("console", lambda msg: tab.athena_errors.append(msg.text) if msg.type == "error" else None)
    tab.goto(athena.page_url)
    tab.locator('[data-testid="index-status"]').filter(has_text="chunks").wait_for(timeout=30_000)
    ARTIFACTS.mkdir(exist_ok=True)
    return context, tab


@pytest.fixture
def tab(browser, athena):
    context, page = _open(browser, athena, "chat-page")
    yield page
    context.close()


def ask(tab, question: str, kind: str = "", prefix: str = ""):
    tab.locator(".athena-filter-kind").select_option(kind)
    tab.locator(".athena-filter-prefix").fill(prefix)
    before = tab.locator(DONE).count()
    box = tab.locator('[data-testid="athena-input"]')
    box.fill(question)
    box.press("Enter")
    answer = tab.locator(DONE).nth(before)
    answer.wait_for(timeout=60_000)
    return answer


def test_page_is_served_with_a_strict_csp_and_drops_the_token_from_the_address(browser, athena):
    context = browser.new_context()
    tab = context.new_page()
    response = tab.goto(athena.page_url)
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "default-src 'none'" in csp and "unsafe-inline" not in csp
    assert "token=" not in tab.url  # redirected to / once the cookie was set
    context.close()


def test_page_answers_with_markers_and_a_source_list(tab):
    answer = ask(tab, TEXT_QUESTION)
    assert "secret" in answer.locator('[data-testid="answer-body"]').inner_text().lower()
    assert answer.locator("button.marker").count() >= 1
    sources = answer.locator('[data-testid="source"]')
    assert sources.count() >= 1
    assert "docs/" in sources.first.inner_text()
    assert tab.athena_errors == []
    tab.screenshot(path=str(ARTIFACTS / "chat-page-light.png"))


def test_text_citation_opens_at_the_cited_lines(tab):
    answer = ask(tab, TEXT_QUESTION, kind="rst")
    source = answer.locator('[data-testid="source"][data-kind="text"]').first
    label = source.inner_text()
    source.click()
    viewer = tab.locator('[data-testid="viewer"]')
    viewer.wait_for(state="visible")
    cited = viewer.locator(".line.cited")
    cited.first.wait_for()
    numbers = [int(n) for n in cited.evaluate_all("els => els.map(e => e.dataset.line)")]
    # The label reads "docs/x.rst:40–58": the highlighted lines are exactly those.
    span = label.rsplit(":", 1)[1].split(" ")[0].replace("\u2013", "-").split("-")
    assert numbers[0] == int(span[0]) and numbers[-1] == int(span[-1])
    assert viewer.locator(".line:not(.cited)").count() > 0  # context around them, numbered too
    assert cited.first.is_visible()  # scrolled into view
    tab.screenshot(path=str(ARTIFACTS / "chat-page-text-citation.png"))


def test_pdf_citation_shows_the_page_with_highlight_boxes(tab):
    answer = ask(tab, PDF_QUESTION, kind="pdf")
    answer.locator('[data-testid="source"][data-kind="pdf"]').first.click()
    image = tab.locator('[data-testid="pdf-image"]')
    image.wait_for(state="visible")
    tab.wait_for_function("() => document.querySelector('[data-testid=\"pdf-image\"]').naturalWidth > 0")
    box = tab.locator('[data-testid="pdf-region"]').first
    box.wait_for(state="visible")
    # The quoted lines' boxes over the plain page, the first scrolled into the viewer's view.
    assert tab.evaluate("() => { const b = document.querySelector('[data-testid=\"pdf-region\"]').getBoundingClientRect();"
                        " const v = document.querySelector('[data-testid=\"viewer-body\"]').getBoundingClientRect();"
                        " return b.top >= v.top && b.bottom <= v.bottom; }")
    tab.screenshot(path=str(ARTIFACTS / "chat-page-pdf-citation.png"))


def test_notebook_citation_shows_its_cell(tab):
    answer = ask(tab, NOTEBOOK_QUESTION, kind="notebook")
    source = answer.locator('[data-testid="source"][data-kind="notebook"]').first
    assert "cell" in source.inner_text()
    source.click()
    cell = tab.locator('[data-testid="notebook-cell"]').first
    cell.wait_for(state="visible")
    assert "uokka" in cell.inner_text()


def test_keyboard_alone_sends_and_opens_a_source(tab):
    expect(tab.locator('[data-testid="athena-input"]')).to_be_focused()
    tab.keyboard.type(TEXT_QUESTION)
    tab.keyboard.press("Enter")
    answer = tab.locator(DONE).first
    answer.wait_for(timeout=60_000)
    for _ in range(60):  # Tab forward until a source button has the focus
        tab.keyboard.press("Tab")
        if tab.evaluate("document.activeElement.dataset.testid") == "source":
            break
    else:
        pytest.fail("no source button reachable with Tab")
    tab.keyboard.press("Enter")
    tab.locator('[data-testid="viewer"] .line.cited').first.wait_for()
    expect(tab.locator("#viewer-title")).to_be_focused()
    tab.keyboard.press("Escape")
    tab.locator('[data-testid="viewer"]').wait_for(state="hidden")
    tab.wait_for_function("document.activeElement.dataset.testid === 'source'")  # back on the button that opened it


def test_history_lists_and_reopens_the_conversation(tab):
    ask(tab, TEXT_QUESTION)
    tab.get_by_role("button", name="Start a new conversation").click()
    assert tab.locator(DONE).count() == 0
    tab.locator(".history-toggle").click()
    row = tab.locator("li.athena-conversation").first
    row.locator(".athena-conversation-open").click()
    tab.locator(DONE).first.wait_for()
    assert tab.locator(DONE).first.locator("button.marker").count() >= 1
    # The history marks the conversation reopened (issue 31: the mark stayed where it was).
    shown = tab.evaluate("() => document.body.querySelector('[data-conversation-id]')?.dataset.conversationId")
    assert row.get_attribute("data-id") == shown and "athena-current" in row.get_attribute("class")


def test_page_reload_shows_the_restored_question_with_its_filters(tab):
    ask(tab, TEXT_QUESTION, kind="rst", prefix="docs/")
    tab.reload()
    question = tab.locator('[data-testid="question"]').first
    question.wait_for(timeout=30_000)
    assert question.locator('[data-testid="question-filters"]').inner_text().split("\n") == ["kind: rst", "under: docs/"]
    assert tab.locator(".athena-filter-kind").input_value() == ""
    assert tab.athena_errors == []


def test_document_scripts_never_run(tab):
    answer = ask(tab, "Where are zebra tokens stored?", prefix="docs/hostile")
    assert answer.locator('[data-testid="source"]').count() >= 1
    answer.locator('[data-testid="source"]').first.click()
    tab.locator('[data-testid="viewer"] .line').first.wait_for()
    assert tab.evaluate("window.__athenaPwned === undefined")


def test_phone_width_layout(browser, athena):
    context, tab = _open(browser, athena, "phone", viewport={"width": 390, "height": 844},
                         is_mobile=True, has_touch=True)
    try:
        ask(tab, TEXT_QUESTION)
        assert tab.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        tab.screenshot(path=str(ARTIFACTS / "chat-page-phone.png"))
        tab.locator('[data-testid="source"]').first.click()
        viewer = tab.locator('[data-testid="viewer"]')
        viewer.locator(".line.cited").first.wait_for()
        assert viewer.bounding_box()["width"] >= 380  # the viewer covers the width
        tab.screenshot(path=str(ARTIFACTS / "chat-page-phone-source.png"))
    finally:
        context.close()


def test_dark_scheme_and_a_long_conversation(browser, athena):
    context, tab = _open(browser, athena, "dark", color_scheme="dark")
    try:
        background = tab.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(21, 23, 27)"
        ask(tab, TEXT_QUESTION)
        ask(tab, "How do I test a Flask application with the test client?")
        tab.screenshot(path=str(ARTIFACTS / "chat-page-dark.png"))
        ask(tab, "What configuration values does Flask use for sessions and cookies?", kind="rst")
        tab.screenshot(path=str(ARTIFACTS / "chat-page-long-answer.png"))
    finally:
        context.close()


# Every text the newest answer's status line shows (records keep each text node).
WATCH_STATUS = """() => {
  window.__statuses = [];
  new MutationObserver(records => {
    for (const r of records) {
      if (r.type === 'childList' && r.target.dataset && r.target.dataset.testid === 'stream-status') {
        for (const node of r.addedNodes) window.__statuses.push(node.textContent);
      }
    }
  }).observe(document.querySelector('[data-testid="messages"]'), {childList: true, subtree: true});
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_page_empty_state_examples_status_filters_and_filtered_out_reason(browser, athena, scheme):
    context, tab = _open(browser, athena, f"page-feedback-{scheme}", color_scheme=scheme)
    shots = ARTIFACTS / "streamux"
    shots.mkdir(parents=True, exist_ok=True)
    try:
        examples = tab.locator('[data-testid="example-question"]')
        examples.first.wait_for(timeout=30_000)
        assert all(text.startswith(("Tell me about ", "How ", "What ", "Why ")) for text in examples.all_inner_texts())
        tab.screenshot(path=str(shots / f"page-empty-{scheme}.png"))
        assert tab.locator('[data-testid="athena-send"]').is_disabled(), "Send is disabled for an empty question"
        tab.evaluate(WATCH_STATUS)
        first = examples.first.inner_text()
        examples.first.click()
        answer = tab.locator(DONE).first
        answer.wait_for(timeout=60_000)
        assert tab.locator('[data-testid="question"]').first.inner_text() == first
        assert answer.locator("button.marker").count() >= 1
        recorded = [s for s in tab.evaluate("window.__statuses") if s]
        # extractive: the quotes are the answer, in one event, so no "writing…" follows the reading
        assert recorded[0] == "searching\u2026" and re.fullmatch(r"reading \d+ sources?\u2026", recorded[-1]), recorded
        assert answer.locator('[data-testid="stream-status"]').is_hidden()
        # A long question collapses; its bubble names the filters; filters that leave nothing say so.
        long_question = TEXT_QUESTION + " " + " ".join(f"Detail {n}: the app loads settings from files." for n in range(14))
        filtered = ask(tab, long_question, kind="pdf", prefix="docs/")
        bubble = tab.locator('[data-testid="question"]').last
        assert "collapsed" in bubble.get_attribute("class")
        assert bubble.locator('[data-testid="question-filters"]').inner_text().split("\n") == ["kind: pdf", "under: docs/"]
        body = filtered.locator('[data-testid="answer-body"]').inner_text()
        assert "Your filters exclude every indexed source" in body and "index has no evidence" not in body
        assert filtered.get_attribute("data-no-evidence") == "filters"
        bubble.evaluate("el => el.scrollIntoView({block: 'start'})")
        tab.screenshot(path=str(shots / f"page-filtered-out-{scheme}.png"))
        bubble.locator(".question-text").click()
        assert "collapsed" not in bubble.get_attribute("class")
        assert tab.athena_errors == []
    finally:
        context.close()


@pytest.fixture(params=["light", "dark"])
def scheme_tab(browser, athena, request):
    context, page = _open(browser, athena, "chat-page", color_scheme=request.param)
    page.scheme = request.param
    yield page
    context.close()


def test_page_counts_a_long_question_and_refuses_it_before_send(scheme_tab):
    """Issue 21: a 59,000-character paste is refused where it was typed, with the server's
    limit (GET /athena/info `limits`) and how much to cut, and no request goes out."""
    tab = scheme_tab
    chats = []
    tab.on("request", lambda request: chats.append(request.url) if request.url.endswith("/chat") else None)
    box = tab.locator('[data-testid="athena-input"]')
    box.fill("x" * 59000)
    counter = tab.locator('[data-testid="athena-counter"]')
    assert counter.inner_text() == ("59,000 / 8,000 The question is 59,000 characters; the limit is 8,000. "
                                    "Shorten it by 51,000 characters to send it.")
    send = tab.locator('[data-testid="athena-send"]')
    assert send.is_disabled()
    box.press("Enter")
    tab.wait_for_timeout(500)
    assert chats == [] and box.input_value() == "x" * 59000
    # The disabled Send must not look like the accent-coloured one that sends.
    disabled_bg = send.evaluate("el => getComputedStyle(el).backgroundColor")
    tab.screenshot(path=str(ARTIFACTS / f"chat-page-counter-over-{tab.scheme}.png"))
    box.fill("x" * 7012)
    assert counter.inner_text() == "7,012 / 8,000" and send.is_enabled()
    assert send.evaluate("el => getComputedStyle(el).backgroundColor") != disabled_bg
    box.fill("short")
    assert counter.is_hidden()
