"""The answer widget: state from real answers, sanitising renderer (run in node), rich API
display in a real kernel, and state saved in the notebook."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from athena_lab.render import answer_html
from athena_lab.widget import STATIC, AnswerWidget, with_previews
from athena_lab.workspace import Workspace
from kernel_notebooks import WIDGET_VIEW, answer_widget_state, copy_demo, execute, notebook, outputs_of

HOSTILE = ("See <script>alert(1)</script> and <img src=x onerror=alert(2)> **bold** `x<y` "
           "[ok](https://example.org/a) [bad](javascript:alert(3)) [1]\n\n- one\n- two [2]\n\n```\n<b>code</b>\n```")


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_demo(tmp_path_factory, tmp_path_factory.mktemp("widget") / "demo")


@pytest.fixture(scope="module")
def workspace(demo: Path):
    ws = Workspace(demo)
    yield ws
    ws.close()


def _node_render(text: str, ids: list[int]) -> str:
    node = shutil.which("node")
    assert node, "node is needed to run the widget's renderer"
    script = (f"import('{(STATIC / 'widget.js').as_uri()}').then(m => "
              f"process.stdout.write(m.renderMarkdown({json.dumps(text)}, new Set({json.dumps(ids)}))))")
    done = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_renderer_escapes_document_html_and_keeps_only_http_links() -> None:
    out = _node_render(HOSTILE, [1, 2])
    assert "<script" not in out and "<img" not in out and "javascript:" not in out.replace("[bad](javascript", "")
    assert "&lt;script&gt;" in out and "&lt;img src=x onerror=alert(2)&gt;" in out
    assert '<a href="https://example.org/a" target="_blank" rel="noopener noreferrer">ok</a>' in out
    assert "[bad](javascript:alert(3))" in out, "a javascript: link stays inert text"
    assert "<strong>bold</strong>" in out and "<code>x&lt;y</code>" in out
    assert "<ul><li>one</li>" in out and "<pre><code>&lt;b&gt;code&lt;/b&gt;</code></pre>" in out


def test_renderer_fetches_nothing_and_links_no_command() -> None:
    """Issue 10, finding 4, for the widget: remote images and command-linker buttons stay text."""
    out = _node_render('![chart](http://attacker.example/c.png) <img src="http://attacker.example/i">'
                       ' <button data-commandlinker-command="help:about">go</button>'
                       ' <span style="background:url(http://attacker.example/s)">x</span>', [])
    assert "<img" not in out and "<button" not in out and "<span" not in out
    assert 'data-commandlinker-command="' not in out and "data-commandlinker-command=&quot;" in out  # text only
    assert '!<a href="http://attacker.example/c.png" target="_blank" rel="noopener noreferrer">chart</a>' in out


def test_renderer_turns_known_markers_into_chips_and_leaves_unknown_ones() -> None:
    out = _node_render("A claim [1], another [7].", [1])
    assert '<button type="button" class="athena-marker" data-citation="1">1</button>' in out
    assert "[7]" in out


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
    assert state["_esm"].startswith("// athena_lab answer widget"), "the view's code travels with the state"
