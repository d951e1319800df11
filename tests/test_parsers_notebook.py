from __future__ import annotations

import nbformat
import pytest
from nbformat import v4

from athena_lab.errors import ParseError
from athena_lab.ingest.parsers import notebook

pytestmark = pytest.mark.unit


def _notebook_json() -> str:
    nb = v4.new_notebook(metadata={"kernelspec": {"name": "python3", "language": "python",
                                                  "display_name": "Python 3"}})
    nb.cells = [
        v4.new_markdown_cell("# Analysis\n\nWe load the data."),
        v4.new_code_cell("import math\n\nprint(math.pi)",
                         outputs=[v4.new_output("stream", text="3.14159\n")]),
        v4.new_markdown_cell("## Errors"),
        v4.new_code_cell("1/0", outputs=[v4.new_output(
            "error", ename="ZeroDivisionError", evalue="division by zero", traceback=[])]),
        v4.new_code_cell("x", outputs=[
            v4.new_output("execute_result", data={"text/plain": "1\n2", "image/png": "AAAA"},
                          execution_count=1),
            v4.new_output("display_data", data={"image/png": "AAAA"})]),
    ]
    return nbformat.writes(nb)


def test_cells_outputs_and_heading_path_across_cells():
    doc = notebook.parse(_notebook_json(), "nb/analysis.ipynb")
    assert doc.title == "Analysis" and doc.metadata == {"language": "python"}
    got = [(s.heading_path, [(b.kind, b.cell, b.start_line, b.end_line, b.text)
                             for b in s.blocks]) for s in doc.sections]
    assert got == [
        (["Analysis"], [("paragraph", 0, 3, 3, "We load the data."),
                        ("code", 1, 1, 3, "import math\n\nprint(math.pi)"),
                        ("output", 1, 1, 1, "3.14159")]),
        (["Analysis", "Errors"], [("code", 3, 1, 1, "1/0"),
                                  ("output", 3, 1, 1, "ZeroDivisionError: division by zero"),
                                  ("code", 4, 1, 1, "x"),
                                  ("output", 4, 1, 2, "1\n2")]),
    ]


@pytest.mark.parametrize("raw", ['{"cells": [', "[1, 2]", '{"nbformat": 4}'])
def test_broken_notebook_raises_parse_error_with_reason(raw):
    with pytest.raises(ParseError, match="^broken notebook: "):
        notebook.parse(raw, "bad.ipynb")


def test_empty_notebook_file_gives_no_blocks():
    assert notebook.parse("", "e.ipynb").sections == []


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
MARK = {"athena_lab": {"generated": True}}


def _notebook_with_athena_answers() -> str:
    """A hand-written notebook as Lab saves one after using athena in it."""
    nb = v4.new_notebook()
    answer = {"text/plain": "Register it with app.register_blueprint(bp) [1].\n\nSources:\n[1] flask/bp.rst"}
    nb.cells = [
        v4.new_markdown_cell("# Blueprints\n\nOur team registers the zebra blueprint at startup."),
        # The magic's answer: the question cell and its outputs are athena's business.
        v4.new_code_cell("%athena How do I register a blueprint?", outputs=[
            v4.new_output("stream", name="stderr", text="athena: indexing docs (first use)\n"),
            v4.new_output("display_data", data={**answer, WIDGET_VIEW: {"model_id": "m1"}},
                          metadata=MARK)]),
        v4.new_code_cell("%%athena --kind rst\nHow do I register a blueprint in detail?",
                         outputs=[v4.new_output("display_data", data=answer, metadata=MARK)]),
        # Athena.ask() amid the user's own code: the code and its own output stay.
        v4.new_code_cell("rows = load()\nprint(len(rows), 'okapi rows')\na.ask('How do I register a blueprint?')",
                         outputs=[v4.new_output("stream", text="42 okapi rows\n"),
                                  v4.new_output("execute_result", data=answer, metadata=MARK,
                                                execution_count=3)]),
        # An answer widget saved before outputs were marked: known by its saved model state.
        v4.new_code_cell("a.ask_widget('How do I register a blueprint?')", outputs=[
            v4.new_output("execute_result", data={**answer, WIDGET_VIEW: {"model_id": "old"}},
                          execution_count=4)]),
        # The sidebar's "Insert in notebook" cell.
        v4.new_markdown_cell("Register it with app.register_blueprint(bp) [1].\n\n**Sources**\n\n1. [bp.rst](x)",
                             metadata=MARK),
        v4.new_code_cell("x = 1\n%athena what is x?\nprint(x + 1, 'quokka')",
                         outputs=[v4.new_output("stream", text="2 quokka\n")]),
        # Other magics and outputs without the mark (or with it false) are the user's.
        v4.new_code_cell("%timeit f()\n%athenaeum_note", outputs=[
            v4.new_output("display_data", data={"text/plain": "a plot of the yak"},
                          metadata={"athena_lab": {"generated": False}}),
            v4.new_output("display_data", data={"text/plain": "another view", WIDGET_VIEW: {"model_id": "other"}})]),
    ]
    nb.metadata["widgets"] = {WIDGET_STATE: {"version_major": 2, "version_minor": 0, "state": {
        "old": {"model_name": "AnyModel", "model_module": "anywidget", "model_module_version": "~0.9.*",
                "state": {"_anywidget_id": "athena_lab.widget.AnswerWidget", "answer": "Register it…"}},
    }}}
    return nbformat.writes(nb)


def test_athena_answers_inserted_cells_and_magic_cells_are_left_out():
    doc = notebook.parse(_notebook_with_athena_answers(), "ux_test.ipynb")
    blocks = [(b.kind, b.cell, b.start_line, b.text) for s in doc.sections for b in s.blocks]
    assert blocks == [
        ("paragraph", 0, 3, "Our team registers the zebra blueprint at startup."),
        ("code", 3, 1, "rows = load()\nprint(len(rows), 'okapi rows')\na.ask('How do I register a blueprint?')"),
        ("output", 3, 1, "42 okapi rows"),
        ("code", 4, 1, "a.ask_widget('How do I register a blueprint?')"),
        ("code", 6, 1, "x = 1\n\nprint(x + 1, 'quokka')"),
        ("output", 6, 1, "2 quokka"),
        ("code", 7, 1, "%timeit f()\n%athenaeum_note"),
        ("output", 7, 1, "a plot of the yak"),
        ("output", 7, 1, "another view"),
    ]
    assert not any("register_blueprint" in text for *_, text in blocks)


def test_parser_version_moved_so_indexed_notebooks_are_parsed_again():
    assert notebook.VERSION != "1"


def test_a_new_empty_notebook_indexes_without_a_warning_an_empty_page_still_has_one(tmp_path):
    """Issue 31: a notebook just made in Lab (one empty code cell) showed a "no text to
    index" warning badge at once; an empty notebook is not a problem."""
    from athena_lab.workspace import Workspace

    (tmp_path / "Untitled.ipynb").write_text(nbformat.writes(v4.new_notebook(cells=[v4.new_code_cell("")])))
    (tmp_path / "notes.md").write_text("# Notes\n\nThe kiln fires at dawn.\n")
    (tmp_path / "empty.md").write_text("\n")
    ws = Workspace(tmp_path, overrides={"embedding.provider": "none"})
    try:
        ws.index()
        sources = ws.store.catalog.sources()
        assert sources["Untitled.ipynb"].warnings == []
        assert sources["empty.md"].warnings  # an empty page is still reported, as the README says
        warned = [f["path"] for f in ws.status()["files"] if f["warnings"]]  # the sidebar's badge counts these
        assert warned == ["empty.md"]
    finally:
        ws.close()
