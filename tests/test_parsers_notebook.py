from __future__ import annotations

import nbformat
import pytest
from nbformat import v4

from athena_lab.document import ParseError
from athena_lab.ingest.parsers import notebook


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
