"""The answer widget: state from real answers, rich API display in a real kernel, and state
saved in the notebook. The view itself (labextension/src/widget/) is tested in a real Lab:
tests/browser/test_widget_lab.py."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from athena_lab.render import answer_html
from athena_lab.widget import ANSWER_MIME, WIDGET_JS, AnswerWidget, with_previews
from athena_lab.workspace import Workspace
from kernel_notebooks import WIDGET_VIEW, answer_widget_state, copy_demo, execute, notebook, outputs_of

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_demo(tmp_path_factory, tmp_path_factory.mktemp("widget") / "demo")


@pytest.fixture(scope="module")
def workspace(demo: Path):
    ws = Workspace(demo)
    yield ws
    ws.close()


def test_widget_state_from_a_real_answer_has_citations_with_source_lines(workspace: Workspace) -> None:
    answer = workspace.ask("How do I declare a path parameter with a type?")
    widget = AnswerWidget.from_answer(answer, workspace, question="path parameter?")
    state = widget.get_state()
    assert state["answer"] == answer.answer and state["mode"] == "extractive"
    assert state["conversation_id"] == answer.conversation_id
    cited = state["citations"][0]
    source = (workspace.root / cited["path"]).read_text(encoding="utf-8").splitlines()
    first = cited["preview_start"]
    assert cited["preview"] == source[first - 1:first - 1 + len(cited["preview"])]
    assert first <= cited["start_line"] <= cited["end_line"] < first + len(cited["preview"])


def test_streamed_events_fill_the_same_state_as_the_collected_answer(workspace: Workspace) -> None:
    question = "What does abort do in Flask?"
    widget = AnswerWidget(workspace, question=question)
    seen_streaming = []
    for event in workspace.ask_events(question):
        widget.apply(event)
        seen_streaming.append(widget.streaming)
    assert seen_streaming[0] is True and widget.streaming is False
    assert widget.answer.strip() and widget.citations and not widget.error
    assert [step["tool"] for step in widget.trace], "the trace is kept for 'trace on demand'"


def test_an_error_event_ends_streaming_with_the_message(workspace: Workspace) -> None:
    widget = AnswerWidget(workspace)
    for event in workspace.ask_events("anything", conversation_id="no-such-conversation"):
        widget.apply(event)
    assert "unknown conversation" in widget.error and widget.streaming is False


def test_pdf_citation_preview_is_a_page_png_with_regions(workspace: Workspace) -> None:
    hits = workspace.search_citations("multi page", kind="pdf", k=1)
    assert hits, "the demo PDF is indexed"
    widget = AnswerWidget(workspace, citations=with_previews(workspace, [{**hits[0], "id": 1}]))
    reply = widget.page_preview(1)
    assert "error" not in reply, reply
    assert base64.b64decode(reply["png"])[:8] == b"\x89PNG\r\n\x1a\n"
    assert widget.citations[0]["preview"], "PDF chips carry the chunk text for the inline preview"


def test_page_preview_without_the_kernel_workspace_says_why() -> None:
    widget = AnswerWidget(citations=[{"id": 1, "kind": "pdf", "path": "x.pdf", "page": 1}])
    assert "kernel" in widget.page_preview(1)["error"]


def test_static_fallback_escapes_answer_and_snippets() -> None:
    out = answer_html("<script>x</script>", [{"id": 1, "kind": "text", "path": "a<b>.md", "start_line": 1,
                                               "snippet": "<img onerror=1>"}], ["<i>claim</i>"])
    assert "<script>" not in out and "<img" not in out and "<i>claim" not in out
    assert "&lt;script&gt;" in out and "a&lt;b&gt;.md:1" in out


def test_static_fallback_renders_the_answers_markdown_not_its_markers() -> None:
    """Issue 21: where no widget code runs (GitHub, nbviewer, a Lab without athena) the
    saved answer reads as a list and a code block, not "- " lines and fence markers."""
    out = answer_html("- rotate tokens [1]\n- nightly\n\n```python\nkey = 1\n```\n[x](javascript:alert(1)) "
                      "![chart](http://attacker.example/chart.png)", [], [])
    assert "<ul>\n<li>rotate tokens [1]</li>" in out and '<pre><code class="language-python">key = 1' in out
    assert "```" not in out and "- rotate" not in out
    assert 'href="javascript' not in out
    assert "<img" not in out and '<a href="http://attacker.example/chart.png">chart</a>' in out  # a link, never fetched


def test_the_widget_saves_its_answer_state_beside_the_view_for_lab_to_redraw() -> None:
    widget = AnswerWidget(question="Why?", answer="- yes [1]", mode="extractive",
                          citations=[{"id": 1, "kind": "text", "path": "a.md", "start_line": 2}])
    data, _ = widget._repr_mimebundle_()
    state = data[ANSWER_MIME]
    assert state["answer"] == "- yes [1]" and state["question"] == "Why?" and state["citations"][0]["path"] == "a.md"
    assert state["streaming"] is False


@pytest.fixture(scope="module")
def api_nb(demo: Path):
    nb = notebook(
        f"from athena_lab import Athena\na = Athena({str(demo)!r})",
        "a.search('how do I declare a path parameter', k=3)",
        "answer = a.ask('How do I declare a path parameter with a type?')\nanswer",
        "print(repr(answer.answer[:20]))",
    )
    return execute(nb, demo.parent)


def test_search_result_is_an_html_table_in_a_notebook(api_nb) -> None:
    data = outputs_of(api_nb.cells[1], "execute_result")[0]["data"]
    assert "<table>" in data["text/html"] and "fastapi/path-params.md" in data["text/html"]
    assert data["text/plain"].startswith("3 hits for 'how do I declare a path parameter'")


def test_answer_is_the_widget_in_a_notebook_and_its_state_is_saved(api_nb) -> None:
    cell = api_nb.cells[2]
    result = outputs_of(cell, "execute_result")[0]["data"]
    assert WIDGET_VIEW in result and "Sources:" in result["text/plain"]
    state = answer_widget_state(api_nb, cell)
    assert "[1]" in state["answer"] and "language model" not in state["answer"] and state["citations"]
    assert state["_esm"] == WIDGET_JS.read_text(encoding="utf-8"), "the view's code travels with the state"
    assert state["_esm"].startswith("// athena_lab answer widget, built from"), "the built ES module"
    assert state["question"] == "How do I declare a path parameter with a type?", "a.ask() shows its question"


def test_the_quotes_reach_the_widget_before_the_model_writes_and_stay_beside_its_words(workspace: Workspace) -> None:
    """Sources first in a notebook (%athena streams into this widget): the sources event
    fills the quotes and their citations at once; the model's words then fill the answer,
    and the fallbacks show both, the quotes once."""
    from wire_servers import OpenAIWireServer, Turn

    question = "What does abort do in Flask?"
    widget = AnswerWidget(workspace, question=question)
    with OpenAIWireServer([Turn(text=["It stops the request ", "with an HTTP error [1]."])]) as url:
        before_words = None
        for event in workspace.ask_events(question, provider="openai", model="tiny", base_url=url):
            widget.apply(event)
            if event.type == "sources":
                before_words = (widget.answer, widget.sources, list(widget.citations))
    assert before_words is not None
    said, quotes, cited = before_words
    assert said == "" and quotes.strip() and cited and cited[0].get("preview")  # the quotes, linked, before any word
    assert widget.answer.startswith("It stops the request with an HTTP error [")
    assert widget.sources == quotes
    data, _ = widget._repr_mimebundle_()
    assert data["text/plain"].count("From the sources:") == 1 and quotes.strip() in data["text/plain"]
    assert data[ANSWER_MIME]["sources"] == quotes  # saved with the notebook: Lab redraws both without a kernel


def test_a_name_no_indexed_file_holds_is_shown_as_not_found_once(workspace: Workspace) -> None:
    """done.not_found (the names a model made up) reaches the widget and its fallbacks, and
    its sentence is named once, as not found, not again as unsupported."""
    from wire_servers import OpenAIWireServer, Turn

    made_up = "Call `flask.abort_everything_now()` to stop every request at once."
    widget = AnswerWidget(workspace, question="What does abort do in Flask?")
    with OpenAIWireServer([Turn(text=[made_up])]) as url:
        for event in workspace.ask_events("What does abort do in Flask?", provider="openai", model="tiny",
                                          base_url=url):
            widget.apply(event)
    names = [n["name"] for n in widget.not_found]
    assert any("abort_everything_now" in name for name in names), widget.not_found
    text = widget._repr_mimebundle_()[0]["text/plain"]
    assert "Not found in your documents" in text and "abort_everything_now" in text
    assert "Not supported by the sources" not in text  # the sentence is said once, as not found
    assert widget._repr_mimebundle_()[0][ANSWER_MIME]["not_found"] == widget.not_found
