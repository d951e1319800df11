"""The inline answer widget (built from labextension/src/widget/) in a real JupyterLab:
notebooks executed by nbclient in a real kernel (widget state saved) are opened in
Debian's chromium. The answer renders from that state under its question, a citation chip
asks Lab's athena extension to open the source (``athena:open-citation``) in an editor tab
with the cited lines selected, exactly as the sidebar does, Copy puts the answer and its
sources on the clipboard as Markdown, Markdown emphasis renders while nothing a model
wrote can run, fetch or run a Lab command, and the text reads at 4.5:1 in both themes."""

from __future__ import annotations

import itertools
import json
import shutil
import sys
from pathlib import Path
from urllib.parse import quote

import nbformat

from athena_lab.citations.labels import narrowest
import pytest
from nbformat.sign import NotebookNotary

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from chat_page import CONTRAST_JS, drawn, set_theme  # noqa: E402
from conftest import ARTIFACTS  # noqa: E402
from kernel_notebooks import answer_widget_state, execute, notebook  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

QUESTION = "How do I configure the SECRET_KEY in Flask?"
NOTEBOOK = "athena-answer.ipynb"
CRAFTED_NOTEBOOK = "athena-widget-markdown.ipynb"
SHOTS = ARTIFACTS / "widget"
# A model's answer with Markdown emphasis and every trick the sanitizer must defuse.
RICH_ANSWER = """Set **SECRET_KEY** in the *config* before the first request, e.g. `app.secret_key` [1].

```python
app.config["SECRET_KEY"] = "<b>not bold</b>"
```

<script>window.__athenaPwned = 'script'</script><img src="x" onerror="window.__athenaPwned = 'img'">
![chart](http://attacker.example/chart.png) [click](javascript:window.__athenaPwned='link')
<button data-commandlinker-command="help:about">about</button>
<span style="background:url(http://attacker.example/s.png)">styled</span>"""
CITATION = {"id": 1, "kind": "text", "path": "docs/config.rst", "start_line": 1, "end_line": 3,
            "label": "docs/config.rst:1\u20133", "snippet": "Configuration Handling"}


@pytest.fixture(scope="module")
def answer_notebook(corpus: Path) -> dict:
    """An executed notebook beside the indexed folder, saved with its widget state and
    signed as trusted (Lab renders widget views only in trusted outputs)."""
    nb = notebook(f"from athena_lab import Athena\na = Athena({str(corpus)!r})\na.ask({QUESTION!r})")
    execute(nb, corpus.parent)
    NotebookNotary().sign(nb)
    nbformat.write(nb, corpus.parent / NOTEBOOK)
    return answer_widget_state(nb, nb.cells[0])


@pytest.fixture(scope="module")
def crafted_notebook(corpus: Path) -> str:
    """Widgets made in a real kernel from given state: a model's answer with Markdown and
    hostile markup, one still streaming, one with no sources behind it."""
    nb = notebook(
        "from athena_lab.widget import AnswerWidget",
        f"AnswerWidget(None, question='How do I set the secret key?', answer={RICH_ANSWER!r},"
        f" citations=[{CITATION!r}], mode='provider:some-model')",
        f"AnswerWidget(None, question='Still answering?', answer='Part of an answer [1]', streaming=True,"
        f" citations=[{CITATION!r}])",
        "AnswerWidget(None, question='What is a zebra token?',"
        " answer='I found nothing about that in the indexed sources.', mode='extractive')",
    )
    execute(nb, corpus.parent)
    NotebookNotary().sign(nb)
    nbformat.write(nb, corpus.parent / CRAFTED_NOTEBOOK)
    return CRAFTED_NOTEBOOK


_copies = itertools.count()
# Closes notebook tabs without asking to save them (the widget manager marks them changed).
CLOSE_JS = """(paths) => {
  for (const w of Array.from(window.jupyterapp.shell.widgets('main'))) {
    if (w.context && paths.includes(w.context.path)) { w.context.model.dirty = false; w.dispose(); }
  }
}"""


@pytest.fixture
def open_widgets(page, corpus: Path):
    """``open_widgets(name, count=1)``: open a fresh copy of the notebook ``name`` in Lab and
    return its answer widgets once ``count`` have rendered. A copy, because Lab shows a
    notebook's saved widgets only when it opens the notebook with a new kernel: reconnecting
    to the kernel an earlier test started for it finds no widget models there, and Lab then
    shows the saved HTML (test_chat_ux.py). The copies' tabs are closed afterwards, so Lab
    does not restore them into later tests."""
    opened: list[str] = []

    def open_copy(name: str, count: int = 1):
        copy = f"{Path(name).stem}-{next(_copies)}.ipynb"
        shutil.copy(corpus.parent / name, corpus.parent / copy)
        opened.append(copy)
        panel = page.evaluate(
            "async (path) => (await window.jupyterapp.commands.execute('docmanager:open', {path})).id", copy)
        widgets = page.locator(f'[id="{panel}"] .athena-widget')
        widgets.nth(count - 1).locator(".athena-question").wait_for(timeout=60_000)
        return widgets

    yield open_copy
    if opened:
        close_and_save_layout(page, opened)


def close_and_save_layout(page, paths: list[str]) -> None:
    """Close the notebooks' tabs and wait until Lab has saved its layout without them
    (it saves a moment after a change): a later test's Lab does not restore them."""
    with page.expect_request(lambda r: r.method == "PUT" and "/api/workspaces/" in r.url, timeout=30_000):
        page.evaluate(CLOSE_JS, paths)


def test_saved_answer_widget_renders_and_a_chip_opens_the_source_at_the_cited_lines(page, answer_notebook,
                                                                                    open_widgets) -> None:
    widget = open_widgets(NOTEBOOK).first
    assert "language model" not in widget.locator(".athena-answer").inner_text(), "the mode is in the chip, not the answer"
    assert widget.locator(".athena-marker").count() >= 1, "[n] markers render as chips inside the text"
    chips = widget.locator(".athena-chip")
    assert chips.count() == len(answer_notebook["citations"]) >= 1
    first = next(c for c in answer_notebook["citations"] if c["kind"] == "text")
    chips.nth(answer_notebook["citations"].index(first)).click()
    page.wait_for_function(
        "(path) => { const w = window.jupyterapp.shell.currentWidget;"
        " return w && w.content && w.content.editor && w.context.path.endsWith(path); }",
        arg=first["path"], timeout=30_000)
    # The chip opens where the quoted sentences are, once the sidebar has checked where the
    # passage is now.
    # Each quoted sentence's own lines (core/citations.ts citedRanges), not the lines between them.
    spans = [(e["start_line"], e["end_line"]) for e in first.get("evidence") or []] or \
        [(narrowest(first)["start_line"], narrowest(first)["end_line"])]
    expected = sorted({n for start, end in spans for n in range(start, end + 1)})
    page.wait_for_function(
        """(want) => { const w = window.jupyterapp.shell.currentWidget; const view = w.content.editor.editor;
                      const lines = [...w.node.querySelectorAll('.athena-cited-line')]
                        .map(el => view.state.doc.lineAt(view.posAtDOM(el)).number);
                      return JSON.stringify(lines) === JSON.stringify(want); }""",
        arg=expected, timeout=10_000)
    assert page.evaluate("() => window.__athenaPwned") is None
    assert not page.athena_errors  # type: ignore[attr-defined]


def show(page, widget) -> None:
    """Bring the notebook tab holding ``widget`` to the front and scroll to it."""
    page.evaluate("(id) => window.jupyterapp.shell.activateById(id)",
                  widget.evaluate("el => el.closest('.jp-NotebookPanel').id"))
    widget.scroll_into_view_if_needed()


def test_a_chips_snippet_keeps_the_lines_of_its_source(page, answer_notebook, open_widgets) -> None:
    """Issue 31: the snippet under a chip flattened its source (code too) to one line."""
    widget = open_widgets(NOTEBOOK).first
    show(page, widget)
    box = widget.locator(".athena-snippet-box").first
    box.locator("summary").click()
    snippet = box.locator("pre")
    snippet.wait_for()
    SHOTS.mkdir(parents=True, exist_ok=True)
    for theme, light in (("JupyterLab Light", True), ("JupyterLab Dark", False)):
        set_theme(page, theme, light)
        drawn(page)
        widget.screenshot(path=str(SHOTS / f"widget-snippet-{'light' if light else 'dark'}.png"))
    set_theme(page, "JupyterLab Light", True)
    shown = snippet.inner_text()
    assert shown.count("\n") >= 2 and ":data:" not in shown, shown


def test_the_question_asked_shows_above_its_answer(page, answer_notebook, open_widgets) -> None:
    widget = open_widgets(NOTEBOOK).first
    question = widget.locator('[data-testid="athena-widget-question"]')
    assert question.inner_text().endswith(QUESTION)
    assert question.bounding_box()["y"] < widget.locator(".athena-answer").bounding_box()["y"]


def test_copy_puts_the_answer_with_its_sources_on_the_clipboard_as_markdown(page, answer_notebook, corpus,
                                                                           open_widgets) -> None:
    widget = open_widgets(NOTEBOOK).first
    copy = widget.locator('[data-testid="athena-widget-copy"]')
    assert copy.inner_text() == "Copy"
    copy.click()
    page.wait_for_function("(el) => el.textContent === 'Copied'", arg=copy.element_handle(), timeout=5_000)
    copied = page.evaluate("() => navigator.clipboard.readText()")
    answer, citations = answer_notebook["answer"], answer_notebook["citations"]
    assert copied.startswith(answer.strip()[:60]), copied[:200]
    assert "\n\n**Sources**\n\n" in copied
    # Absolute links (a pasted answer leaves the notebook): Jupyter's files/ URL of each source.
    folder = f"{page.evaluate('() => location.origin')}/files/{quote(corpus.name)}/"
    for c in citations:
        page_part = f"#page={c['page']}" if c["kind"] == "pdf" and c.get("page") else ""
        link = f"{c['id']}. [{c['label']}]({folder}{quote(c['path'])}{page_part})"
        assert link in copied, (link, copied)
    page.wait_for_function("(el) => el.textContent === 'Copy'", arg=copy.element_handle(), timeout=5_000)


LIVE_TEXT = "".join(f"Sentence {n} says how walrus tokens rotate [1]. " for n in range(1, 61))
VIEW_UP = "athena-live-view-up"  # the test writes it beside the notebook once the view shows
# A kernel streaming an answer into a live widget, 4 characters per trait sync (a token each).
LIVE_CELL = f"""import os, time
from athena_lab.widget import AnswerWidget
w = AnswerWidget(None, question='Streamed live?', streaming=True, citations=[{CITATION!r}])
display(w)
deadline = time.monotonic() + 120
while not os.path.exists({VIEW_UP!r}) and time.monotonic() < deadline:  # the view is up before the stream
    time.sleep(0.05)
text = {LIVE_TEXT!r}
for end in range(4, len(text) + 4, 4):
    w.answer = text[:end]
    time.sleep(0.002)
w.streaming = False"""


def test_a_live_widget_redraws_per_frame_not_per_trait_sync(page, corpus: Path) -> None:
    """Each sync arrives in its own message (a task of its own), so only frame pacing keeps
    the view from re-rendering the whole answer per token (widget.ts `schedule`)."""
    name = f"athena-live-{next(_copies)}.ipynb"
    nb = notebook(LIVE_CELL)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, corpus.parent / name)
    view_up = corpus.parent / VIEW_UP
    view_up.unlink(missing_ok=True)
    try:
        panel = page.evaluate(
            "async (path) => (await window.jupyterapp.commands.execute('docmanager:open', {path})).id", name)
        page.wait_for_function(
            """(id) => { const w = Array.from(window.jupyterapp.shell.widgets('main')).find(w => w.id === id);
                         const kernel = w && w.sessionContext.session && w.sessionContext.session.kernel;
                         return kernel && kernel.status === 'idle'; }""", arg=panel, timeout=120_000)
        page.evaluate("(id) => { window.jupyterapp.shell.activateById(id);"
                      " void window.jupyterapp.commands.execute('notebook:run-all-cells'); }", panel)
        widget = page.locator(f'[id="{panel}"] .athena-widget').first
        widget.locator(".athena-question").wait_for(timeout=120_000)
        view_up.write_text("")  # the kernel starts streaming now
        page.wait_for_function("(el) => el.querySelector('.athena-streaming').hidden",
                               arg=widget.element_handle(), timeout=120_000)
        # the last sync is drawn: all 60 sentences' markers are there
        page.wait_for_function("(el) => el.querySelectorAll('.athena-answer .athena-marker').length === 60",
                               arg=widget.element_handle())
        drawn(page)
        syncs = len(range(4, len(LIVE_TEXT) + 4, 4))
        draws = int(widget.get_attribute("data-renders"))
        print("widget", {"syncs": syncs, "draws": draws})
        assert draws * 4 <= syncs, f"{draws} redraws for {syncs} syncs: a redraw per sync or close to it"
        answer = widget.locator(".athena-answer")
        # Markers read "1" as chips, after the full stop the model wrote behind them (core/markers.ts).
        shown, streamed = answer.inner_text(), LIVE_TEXT.replace(" [1].", ". 1")
        assert " ".join(shown.split()) == " ".join(streamed.split()), "the final text is complete"
        assert answer.locator(".athena-marker").count() == 60
    finally:
        view_up.unlink(missing_ok=True)
        close_and_save_layout(page, [name])


def test_markdown_emphasis_renders_and_nothing_in_it_runs_fetches_or_commands(page, crafted_notebook,
                                                                              open_widgets) -> None:
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url) if "attacker.example" in request.url else None)
    answer = open_widgets(crafted_notebook, 3).first.locator(".athena-answer")
    assert answer.locator("strong").first.inner_text() == "SECRET_KEY"
    assert answer.locator("em").first.inner_text() == "config"
    assert answer.locator("p code").first.inner_text() == "app.secret_key"
    assert answer.locator("pre code").inner_text().strip() == 'app.config["SECRET_KEY"] = "<b>not bold</b>"'
    assert answer.locator(".athena-marker").count() == 1, "[1] is a chip; markup cannot forge one"
    assert answer.locator("script, img, style, [style], [onerror], [data-commandlinker-command]").count() == 0
    assert answer.locator("a[href^='javascript']").count() == 0
    remote = answer.locator("a.athena-remote-image")
    assert remote.get_attribute("href") == "http://attacker.example/chart.png", "a remote image is a link, not loaded"
    assert answer.locator("button:not(.athena-marker)").count() == 0, "content makes no buttons"
    drawn(page)  # what the rendered answer would run or load has started by the frame after it is drawn
    assert page.evaluate("() => window.__athenaPwned") is None
    assert not fetched, fetched


def test_copy_is_hidden_while_streaming_and_on_an_answer_without_sources(page, crafted_notebook, open_widgets) -> None:
    widgets = open_widgets(crafted_notebook, 3)
    copies = [widgets.nth(i).locator('[data-testid="athena-widget-copy"]') for i in range(3)]
    assert copies[0].is_visible(), "a finished answer with sources can be copied"
    assert not copies[1].is_visible() and widgets.nth(1).locator(".athena-streaming").is_visible()
    assert not copies[2].is_visible(), "no evidence, nothing to copy"


def test_widget_text_reads_at_4_5_to_1_in_light_and_dark(page, answer_notebook, crafted_notebook, open_widgets) -> None:
    """Ratios from the rendered colours (alpha blended): chips, hovered chips, markers, the
    question, Copy, the mode, the snippet toggle; screenshots of both themes."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    ARTIFACTS.mkdir(exist_ok=True)
    widget = open_widgets(NOTEBOOK).first
    crafted = open_widgets(crafted_notebook, 3).first
    parts = {"chip": ".athena-chip", "marker": ".athena-marker", "question": ".athena-question",
             "copy": ".athena-copy", "mode": ".athena-mode", "snippet toggle": ".athena-snippet-box summary"}
    ratios = {}
    try:
        for theme, light in (("JupyterLab Light", True), ("JupyterLab Dark", False)):
            set_theme(page, theme, light)
            name = "light" if light else "dark"
            for label, view in (("answer", widget), ("markdown", crafted)):
                show(page, view)
                for name_, selector in parts.items():
                    ratios[f"{theme}, {label}: {name_}"] = view.locator(selector).first.evaluate(CONTRAST_JS)
                chip = view.locator(".athena-chip").first
                chip.hover()
                ratios[f"{theme}, {label}: hovered chip"] = chip.evaluate(CONTRAST_JS)
                for shot in (SHOTS, ARTIFACTS):
                    view.screenshot(path=str(shot / f"widget-{label}-{name}.png"))
            page.screenshot(path=str(SHOTS / f"widget-lab-{name}.png"))
        # A narrow notebook: the width is the window's, not whatever an earlier test left the
        # sidebars at (Lab keeps their sizes in its workspace, shared by the whole session).
        page.evaluate("() => { const shell = window.jupyterapp.shell;"
                      " if (!shell.leftCollapsed) { shell.collapseLeft(); } }")
        page.set_viewport_size({"width": 520, "height": 900})
        show(page, widget)
        ratios["JupyterLab Dark, narrow: chip"] = widget.locator(".athena-chip").first.evaluate(CONTRAST_JS)
        # Lab lays the notebook out again after the resize, a frame or more later
        page.wait_for_function("el => el.scrollWidth <= el.clientWidth + 1", arg=widget.element_handle(),
                               timeout=10_000)  # nothing sticks out sideways
        widget.screenshot(path=str(SHOTS / "widget-answer-narrow-dark.png"))
    finally:
        set_theme(page, "JupyterLab Light", True)
    (ARTIFACTS / "widget-contrast.json").write_text(json.dumps(ratios, indent=1), encoding="utf-8")
    low = {k: round(v, 2) for k, v in ratios.items() if v < 4.5}
    assert not low, f"below 4.5:1: {low} (all: { {k: round(v, 2) for k, v in ratios.items()} })"
