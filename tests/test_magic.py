"""%athena / %%athena in a real kernel on the indexed demo folder, offline (extractive)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from athena_lab.errors import MagicError
from athena_lab.magic import parse
from kernel_notebooks import answer_widget_state, copy_demo, execute, notebook, outputs_of, stream_text

pytestmark = pytest.mark.integration


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def session_nb(tmp_path_factory: pytest.TempPathFactory):
    """One kernel session exercising the magic cell by cell (kernels are slow to start)."""
    demo = copy_demo(tmp_path_factory, tmp_path_factory.mktemp("magic") / "demo")
    fresh = demo.parent / "fresh"
    fresh.mkdir()
    (fresh / "notes.md").write_text("# Lab notes\n\nThe centrifuge runs at 4 degrees overnight.\n")
    port = _closed_port()
    nb = notebook(
        "%load_ext athena_lab",
        f"%athena --path {demo} How do I declare a path parameter with a type?",
        "%athena and what about query parameters?",
        "%athena --new What does abort do in Flask?",
        "%%athena --path-prefix flask/ -k 3\nHow do I register an error handler?",
        "%athena --bogus what",
        f"import os; os.environ['ATHENA_LLM__BASE_URL'] = 'http://127.0.0.1:{port}/v1'",
        f"%athena --root {demo} --provider openai --model tiny what's a background task?",
        f"%athena --path {fresh} what temperature does the centrifuge run at?",
        f"%athena --path {demo.parent / 'missing'} anything",
    )
    return execute(nb, demo.parent)


def test_magic_streams_an_answer_widget_with_citations(session_nb) -> None:
    cell = session_nb.cells[1]
    state = answer_widget_state(session_nb, cell)
    assert state["question"] == "How do I declare a path parameter with a type?"
    assert state["streaming"] is False and state["mode"] == "extractive"
    assert "[1]" in state["answer"] and state["citations"]
    first = state["citations"][0]
    assert first["path"].startswith("fastapi/") and first["preview"], "chips carry the source lines"
    assert first["preview_start"] <= first["start_line"]
    text = cell.outputs[-1]["data"]["text/plain"]
    assert "Sources:" in text and first["path"] in text, "terminals and static viewers get the text fallback"


def test_follow_up_in_the_same_kernel_continues_the_conversation(session_nb) -> None:
    first = answer_widget_state(session_nb, session_nb.cells[1])
    follow = answer_widget_state(session_nb, session_nb.cells[2])
    assert follow["conversation_id"] == first["conversation_id"]
    assert "query" in follow["answer"].lower()


def test_new_starts_a_fresh_conversation(session_nb) -> None:
    first = answer_widget_state(session_nb, session_nb.cells[1])
    fresh = answer_widget_state(session_nb, session_nb.cells[3])
    assert fresh["conversation_id"] and fresh["conversation_id"] != first["conversation_id"]


def test_cell_magic_takes_the_body_as_question_and_filters_by_path_and_top_k(session_nb) -> None:
    state = answer_widget_state(session_nb, session_nb.cells[4])
    assert state["question"] == "How do I register an error handler?"
    assert state["citations"] and len(state["citations"]) <= 3
    assert all(c["path"].startswith("flask/") for c in state["citations"])


def test_unknown_option_is_one_line_with_usage(session_nb) -> None:
    cell = session_nb.cells[5]
    err = stream_text(cell, "stderr").strip()
    assert err.startswith("athena: unknown option --bogus") and "\n" not in err
    assert not outputs_of(cell, "error")


def test_provider_down_is_one_clear_line(session_nb) -> None:
    cell = session_nb.cells[7]
    err = stream_text(cell, "stderr").strip()
    assert err.startswith("athena: ") and "\n" not in err, err
    assert "127.0.0.1" in err or "connect" in err.lower(), err
    assert not outputs_of(cell, "error")


def test_a_folder_without_an_index_is_indexed_on_first_use(session_nb) -> None:
    cell = session_nb.cells[8]
    assert "indexing" in stream_text(cell, "stderr") and "first use" in stream_text(cell, "stderr")
    state = answer_widget_state(session_nb, cell)
    assert state["citations"] and state["citations"][0]["path"] == "notes.md"


def test_path_is_the_folder_as_in_the_cli_and_a_missing_one_points_at_path_prefix(session_nb) -> None:
    err = stream_text(session_nb.cells[9], "stderr").strip()
    assert err.startswith("athena: --path ") and "no such folder" in err and "--path-prefix" in err, err
    assert "\n" not in err


def test_question_keeps_apostrophes_and_quotes_verbatim() -> None:
    request = parse("--kind markdown -k 4 what's the \"body\" of a request?")
    assert request.question == "what's the \"body\" of a request?"
    assert request.k == 4 and request.filters == {"kind": "markdown"}
    assert parse("--top-k 3 why?").k == 3  # the old spelling is still read


def test_options_accept_equals_form_and_new_flag() -> None:
    request = parse("--new --path-prefix=fastapi/ --path=/data/docs --provider ollama --model qwen question")
    assert request.new and request.filters == {"path_prefix": "fastapi/"} and request.root == "/data/docs"
    assert (request.provider, request.model, request.question) == ("ollama", "qwen", "question")


def test_non_numeric_k_is_refused() -> None:
    with pytest.raises(MagicError, match="whole number"):
        parse("-k many question")


def test_cell_body_wins_over_line_text() -> None:
    assert parse("--path-prefix docs/", "  the body question \n").question == "the body question"


def test_demo_folder_is_small() -> None:
    size = sum(p.stat().st_size for p in (Path(__file__).parents[1] / "demo").rglob("*") if p.is_file()
               and ".athena" not in p.parts)
    assert size < 300_000


def test_question_mark_at_the_end_is_part_of_the_question_not_a_help_request() -> None:
    from IPython.core.inputtransformer2 import TransformerManager

    from athena_lab.magic import keep_question_marks

    manager = TransformerManager()
    manager.cleanup_transforms.append(keep_question_marks)
    code = manager.transform_cell("%athena what's a path parameter?\n")
    assert code == "get_ipython().run_line_magic('athena', \"what's a path parameter?\")\n"


def test_a_question_in_the_cell_that_loads_the_extension_is_asked_not_a_help_request(tmp_path_factory) -> None:
    """Issue 31: on a fresh kernel, ``%load_ext athena_lab`` and ``%athena …?`` in one cell
    gave IPython's "Object `type` not found": the cell was read before the magic existed."""
    demo = copy_demo(tmp_path_factory, tmp_path_factory.mktemp("one-cell") / "demo")
    nb = execute(notebook(f"%load_ext athena_lab\n%athena --path {demo} How do I declare a path parameter with a type?"),
                 demo.parent)
    cell = nb.cells[0]
    state = answer_widget_state(nb, cell)
    assert state["question"] == "How do I declare a path parameter with a type?"
    assert state["citations"] and "[1]" in state["answer"]
    assert "not found" not in " ".join(str(output) for output in cell.outputs)


def test_other_help_requests_in_the_loading_cell_stay_help_and_the_stand_ins_go(capsys) -> None:
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    try:
        shell.run_cell("%load_ext athena_lab\n%athena --path /no/such/folder what is a blueprint?\nlen?",
                       store_history=True)
        out = capsys.readouterr()
        assert "--path /no/such/folder: no such folder" in out.err and "not found" not in out.out + out.err
        assert "Return the number of items" in out.out  # len? is IPython's help, as before
        shell.run_cell("len?", store_history=True)
        assert "Return the number of items" in capsys.readouterr().out
        assert shell.magics_manager.magics["line"]["pinfo"].__name__ == "pinfo"  # the stand-in is gone
    finally:
        InteractiveShell.clear_instance()


def test_terminal_ipython_streams_plain_text_with_numbered_sources(tmp_path_factory, capsys) -> None:
    from IPython.core.interactiveshell import InteractiveShell

    demo = copy_demo(tmp_path_factory, tmp_path_factory.mktemp("terminal") / "demo")
    shell = InteractiveShell.instance()
    try:
        shell.run_line_magic("load_ext", "athena_lab")
        shell.run_cell(f"%athena --path {demo} What does abort do in Flask?")
        out = capsys.readouterr()
    finally:
        InteractiveShell.clear_instance()
    assert out.out.startswith("- ") and "[1]" in out.out and "Sources:\n  [1] flask/" in out.out, out  # no mode preamble
    assert "athena:" not in out.err


def test_magic_help_names_the_cli_options() -> None:
    from athena_lab.magic import AthenaMagics

    doc = AthenaMagics.athena.__doc__ or ""
    assert "--path DIR" in doc and "--path-prefix PREFIX" in doc and "--new" in doc
