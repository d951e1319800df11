"""What a user tripped on (issue 31), each reproduced in chromium before it was fixed: in a
real JupyterLab — the history marking the conversation shown before, one citation of two
quotes marking the thirty lines between them, a Copy button over the code, a paper's author
offered as an example question, an empty notebook's warning badge, settings help sending
[llm] to the folder's athena.toml — and on the chat page `athena serve` answers at /: a
model's reST roles shown raw and its full stop left dangling after the [1] button.
Screenshots of each, light and dark, go to test-artifacts/trips/."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import nbformat
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")

from chat_page import ANSWER_DONE, ask, drawn, set_theme  # noqa: E402
from conftest import ARTIFACTS, index_with_cli  # noqa: E402
from corpus_files import CORPORA  # noqa: E402
from http_servers import AthenaServer, fast_env, run_cli  # noqa: E402
from wire_servers import OpenAIWireServer, Turn  # noqa: E402

SHOTS = ARTIFACTS / "trips"
HISTORY = '[data-testid="athena-conversations"]'
TRIMMED = "The lamp wick is trimmed every Sunday evening by the keeper."
REPLACED = "The lamp wick is replaced every spring by the keeper."
COMMAND = 'lamp-control --light --brightness=100 --keeper="night shift" --log=/var/log/lighthouse/lamp.log'
WICK_QUESTION = "When is the lamp wick trimmed and when is it replaced?"
LIGHT_QUESTION = "How do I light the lamp with lamp-control?"


def _guide() -> str:
    """One section, one chunk: two sentences about the wick twelve paragraphs apart, and a
    command too long for the panel's width."""
    filler = [f"Paragraph {n} describes the harbour wall, the tides and the gulls." for n in range(1, 13)]
    return "\n\n".join([
        "# Lighthouse guide", "## The lamp", TRIMMED, *filler, REPLACED,
        "Light the lamp with this command:", f"```\n{COMMAND}\n```",
    ]) + "\n"


def _trips_folder(folder: Path) -> Path:
    """The guide, the Attention paper and a notebook just made (one empty cell, as Lab
    makes them), indexed."""
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "guide.md").write_text(_guide(), encoding="utf-8")
    (folder / "papers").mkdir()
    shutil.copy(CORPORA / "pdfs" / "paper_attention_1706.03762.pdf", folder / "papers" / "attention.pdf")
    (folder / "notebooks").mkdir()
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("")]),
                   str(folder / "notebooks" / "Untitled.ipynb"))
    index_with_cli(folder)
    return folder


@pytest.fixture(scope="module")
def trips_lab(start_lab, tmp_path_factory: pytest.TempPathFactory):
    with start_lab(_trips_folder(tmp_path_factory.mktemp("trips-root") / "project"),
                   {"ATHENA_LLM__PROVIDER": "extractive"}) as url:
        yield url


@pytest.fixture
def lab_tab(open_lab_page, trips_lab, request):
    with open_lab_page(trips_lab, request.node.name) as tab:
        yield tab


def shoot(tab, name: str) -> None:
    """The page as the test left it, in Lab's light and dark theme."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    news = tab.locator(".jp-Notification-Toast-Close, .jp-toast-close").first
    if news.is_visible():
        news.click()  # Lab's question about news would cover part of the shot
    for theme, light in (("JupyterLab Light", True), ("JupyterLab Dark", False)):
        set_theme(tab, theme, light)
        tab.wait_for_function("() => !document.querySelector('#jupyterlab-splash')")  # the theme change's splash
        drawn(tab)
        tab.screenshot(path=str(SHOTS / f"{name}-{'light' if light else 'dark'}.png"))
    set_theme(tab, "JupyterLab Light", True)


def test_history_marks_the_conversation_the_chat_shows_after_switching(lab_tab):
    ask(lab_tab, LIGHT_QUESTION)
    first = lab_tab.locator('[data-testid="athena-chat"]').get_attribute("data-conversation-id")
    lab_tab.locator(".athena-new").click()
    ask(lab_tab, WICK_QUESTION)
    second = lab_tab.locator('[data-testid="athena-chat"]').get_attribute("data-conversation-id")
    lab_tab.locator(".athena-history-toggle").click()
    current = lab_tab.locator(f"{HISTORY} li.athena-current")
    current.wait_for()
    assert current.get_attribute("data-id") == second
    lab_tab.locator(f'{HISTORY} li[data-id="{first}"] .athena-conversation-open').click()
    lab_tab.wait_for_function(
        "(id) => document.querySelector('[data-testid=athena-chat]').dataset.conversationId === id", arg=first)
    lab_tab.locator(ANSWER_DONE).first.wait_for()
    drawn(lab_tab)
    shoot(lab_tab, "history-after-switch")
    marked = lab_tab.evaluate(
        f"() => [...document.querySelectorAll('{HISTORY} li.athena-current')].map(li => li.dataset.id)")
    assert marked == [first], "the history marks the conversation shown before the switch"
    assert lab_tab.locator(f'{HISTORY} li[data-id="{first}"] [aria-current="true"]').count() == 1
    # New: no row is the one shown.
    lab_tab.locator(".athena-new").click()
    lab_tab.wait_for_function("document.querySelector('[data-testid=athena-chat]').dataset.conversationId === ''")
    assert lab_tab.locator(f"{HISTORY} li.athena-current").count() == 0


MARKED_TEXT = """() => {
  const view = window.jupyterapp.shell.currentWidget.content.editor.editor;
  const numbers = [...document.querySelectorAll('.jp-FileEditor:not(.lm-mod-hidden) .athena-cited-line')]
    .map(el => view.state.doc.lineAt(view.posAtDOM(el)).number);
  return {numbers, text: numbers.map(n => view.state.doc.line(n).text).join('\\n')};
}"""


def test_one_citation_of_two_quotes_marks_each_quote_not_the_lines_between(lab_tab):
    answer = ask(lab_tab, WICK_QUESTION)
    source = answer.locator('[data-testid="athena-citation"][data-kind="text"]').first
    source.click()
    lab_tab.wait_for_function(
        "() => { const w = window.jupyterapp.shell.currentWidget;"
        " return w && w.context && w.context.path.endsWith('guide.md') && w.node.querySelector('.athena-cited-line'); }",
        timeout=20_000)
    drawn(lab_tab)
    shoot(lab_tab, "two-quotes-marked")
    marked = lab_tab.evaluate(MARKED_TEXT)
    guide = _guide().splitlines()
    lines_of = {quote: guide.index(quote) + 1 for quote in (TRIMMED, REPLACED)}
    assert TRIMMED in marked["text"] and REPLACED in marked["text"], marked  # the marked text holds each quote
    assert marked["numbers"] == sorted(lines_of.values()), marked  # and nothing between them


def test_the_copy_button_of_a_code_block_covers_none_of_its_code(lab_tab):
    answer = ask(lab_tab, LIGHT_QUESTION)
    block = answer.locator(".athena-code-block").first
    block.wait_for()
    block.scroll_into_view_if_needed()
    shoot(lab_tab, "code-copy")
    covered = block.evaluate("""(block) => {
      const copy = block.querySelector('[data-testid="athena-code-copy"]').getBoundingClientRect();
      const pre = block.querySelector('pre');
      const range = document.createRange();
      range.selectNodeContents(pre);
      const seen = pre.getBoundingClientRect();
      return [...range.getClientRects()].filter(r => r.width > 0 && r.left < Math.min(copy.right, seen.right)
        && r.right > copy.left && r.top < copy.bottom && r.bottom > copy.top).length;
    }""")
    assert covered == 0, "the Copy button lies over the code's text"
    assert COMMAND in block.locator("pre").inner_text()


def test_example_questions_ask_about_the_papers_sections_not_its_authors(lab_tab):
    examples = lab_tab.locator('[data-testid="example-question"]')
    examples.first.wait_for()
    shoot(lab_tab, "example-questions")
    shown = examples.all_inner_texts()
    assert len(shown) == 4, shown
    assert not [q for q in shown if "Polosukhin" in q or "@" in q], shown
    assert any("Attention" in q for q in shown), shown  # the paper's sections are offered


def test_a_new_empty_notebook_gets_no_warning_badge(lab_tab):
    lab_tab.wait_for_function(
        "() => /chunks/.test(document.querySelector('[data-testid=athena-index-summary]')?.textContent ?? '')")
    shoot(lab_tab, "no-warning-badge")
    assert lab_tab.locator('[data-testid="athena-warnings-badge"]').is_hidden()


def test_settings_help_sends_llm_to_your_config_not_the_folders(lab_tab):
    lab_tab.evaluate("() => window.jupyterapp.commands.execute('settingeditor:open', {query: 'Athena chat'})")
    lab_tab.get_by_text("Which model answers", exact=False).first.wait_for(timeout=30_000)
    shoot(lab_tab, "settings-help")
    schema = lab_tab.evaluate("""async () => {
      const plugin = await window.jupyterapp.serviceManager.settings.fetch('athena-lab:plugin');
      return plugin.schema.properties;
    }""")
    for key in ("provider", "model"):
        help_text = schema[key]["description"]
        assert "config.toml" in help_text and not re.search(r"athena\.toml \(?\[llm\]", help_text), help_text


# -- the chat page at / with a model that writes like one ---------------------------------

MODEL_ANSWER = "Build the URL with :func:`~flask.url_for` [1]. It takes the endpoint name [1]."


@pytest.fixture(scope="module")
def model_page(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("trips-page") / "project"
    (folder / "docs").mkdir(parents=True)
    shutil.copy(CORPORA / "docs" / "flask" / "docs" / "quickstart.rst", folder / "docs" / "quickstart.rst")
    run_cli("index", str(folder), env=fast_env())
    model = OpenAIWireServer(lambda request: Turn(text=[MODEL_ANSWER[i:i + 20] for i in range(0, len(MODEL_ANSWER), 20)]),
                             models=["tiny"])
    with model as base_url:
        env = fast_env(ATHENA_LLM__PROVIDER="openai", ATHENA_LLM__BASE_URL=base_url, ATHENA_LLM__MODEL="tiny",
                       ATHENA_SERVER__RATE_LIMIT_PER_MINUTE="1000")
        with AthenaServer(folder, env=env) as server:
            yield server


def test_the_chat_page_shows_a_models_rest_role_as_code_and_its_full_stop_before_the_marker(browser, model_page):
    SHOTS.mkdir(parents=True, exist_ok=True)
    shown = []
    for scheme in ("light", "dark"):  # both pictures first, then what they must show
        context = browser.new_context(viewport={"width": 900, "height": 700}, color_scheme=scheme)
        tab = context.new_page()
        tab.goto(model_page.page_url)
        box = tab.locator("textarea").first
        box.fill("How do I build a URL to a view function?")
        box.press("Enter")
        body = tab.locator('[data-testid="answer"][aria-busy="false"] [data-testid="answer-body"]').first
        body.wait_for(timeout=60_000)
        tab.screenshot(path=str(SHOTS / f"page-model-answer-{scheme}.png"))
        shown.append((body.inner_text(), body.locator("code", has_text="url_for").count(),
                      body.locator("button", has_text="[1]").count()))
        context.close()
    for text, code, markers in shown:
        assert ":func:" not in text and code == 1, text
        assert not re.search(r"\]\s*[.,;:!?]", text), text  # no "." left after a [1]
        assert markers == 2
