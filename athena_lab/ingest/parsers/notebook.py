"""Jupyter notebooks: markdown cells drive the heading path across the whole notebook.

Every block carries ``cell`` (0-based, as nbformat counts). For markdown, code and raw
cells ``start_line``/``end_line`` are lines of that cell's source. For ``output`` blocks
they are lines of the output's own text (an output has no source lines); the citation
still opens the cell, whose output holds the text.

What athena wrote itself is left out, so it never cites its own answers: outputs and
cells marked ``GENERATED_MARK`` (document.py; the magic's, the widget's and
``Athena.ask()``'s displays, the sidebar's inserted Markdown cell), answer-widget views
saved without the mark, and cells that only ask athena (``%athena``/``%%athena``, with
their outputs: the question is a request, not content — indexed, it would be the best
match for the same question asked again). The user's own cells and outputs are indexed.
"""

from __future__ import annotations

import re
from typing import Any

from athena_lab.document import ANSWER_WIDGET_ID, Block, is_generated, ParsedDocument
from athena_lab.errors import ParseError
from athena_lab.ingest.parsers._common import SectionBuilder, line_block
from athena_lab.ingest.parsers.markdown import add_markdown

NAME = "nbformat"
VERSION = "2"  # 2: leaves out what athena wrote (answers, inserted cells, %athena cells)

#: Rich outputs read as text, best first; images and HTML are skipped.
_TEXT_MIMES = ("text/markdown", "text/plain")
_WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
_WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
#: A line that asks athena (the question is its argument) or loads the magic.
_ATHENA_LINE = re.compile(r"^\s*(%athena\b|%(re)?load_ext\s+athena_lab\s*$)")
_ATHENA_CELL = re.compile(r"^\s*%%athena\b")


def parse(text: str, path: str) -> ParsedDocument:
    """``text`` is the notebook's raw JSON."""
    if not text.strip():
        return ParsedDocument(path=path, doc_kind="notebook", sections=[])
    notebook = _read(text, path)
    builder = SectionBuilder()
    title = None
    answer_views = _answer_widget_models(notebook)
    for index, cell in enumerate(notebook.cells):
        source = cell.get("source", "")
        if is_generated(cell.get("metadata")):
            continue
        if cell.cell_type == "markdown":
            found = add_markdown(builder, source, cell=index)
            title = title or found["h1"]
        else:
            lines = source.splitlines()
            if cell.cell_type == "code":
                if _only_asks_athena(lines):
                    continue
                # A question asked amid the user's own code: that code stays (lines keep their numbers).
                lines = ["" if _ATHENA_LINE.match(line) else line for line in lines]
            kind = "code" if cell.cell_type == "code" else "paragraph"
            _add(builder, line_block(lines, 0, len(lines), kind, index))
            for output in cell.get("outputs", []):
                if not _athena_output(output, answer_views):
                    _add(builder, _output_block(output, index))
    return ParsedDocument(path=path, doc_kind="notebook", sections=builder.sections(title),
                          title=title, metadata=_metadata(notebook))


def _read(text: str, path: str) -> Any:
    # Imported here: nbformat pulls in jsonschema (~1 s), and a run that parses no notebook
    # only needs this module's NAME and VERSION.
    import nbformat

    try:
        return nbformat.reads(text, as_version=4)
    except Exception as exc:  # nbformat raises JSON, validation and key errors alike
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ParseError(f"broken notebook: {reason}") from exc


def _only_asks_athena(lines: list[str]) -> bool:
    """A ``%%athena`` cell, or one whose every line (comments aside) is ``%athena …``."""
    content = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    if content and _ATHENA_CELL.match(content[0]):
        return True
    return bool(content) and all(_ATHENA_LINE.match(line) for line in content) and \
        any(line.lstrip().startswith("%athena") for line in content)


def _answer_widget_models(notebook: Any) -> set[str]:
    """The model ids of answer widgets in the notebook's saved widget state."""
    state = notebook.get("metadata", {}).get("widgets", {}).get(_WIDGET_STATE, {}).get("state", {})
    if not isinstance(state, dict):
        return set()
    return {model_id for model_id, entry in state.items()
            if isinstance(entry, dict) and isinstance(entry.get("state"), dict)
            and entry["state"].get("_anywidget_id") == ANSWER_WIDGET_ID}


def _athena_output(output: Any, answer_views: set[str]) -> bool:
    if is_generated(output.get("metadata")):
        return True
    view = output.get("data", {}).get(_WIDGET_VIEW)
    return isinstance(view, dict) and view.get("model_id") in answer_views


def _output_block(output: Any, cell: int) -> Block | None:
    text = _output_text(output)
    lines = text.splitlines()
    return line_block(lines, 0, len(lines), "output", cell)


def _output_text(output: Any) -> str:
    kind = output.get("output_type")
    if kind == "stream":
        return _joined(output.get("text", ""))
    if kind in ("execute_result", "display_data"):
        data = output.get("data", {})
        return next((_joined(data[m]) for m in _TEXT_MIMES if m in data), "")
    if kind == "error":
        return f"{output.get('ename', '')}: {output.get('evalue', '')}"
    return ""


def _joined(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def _metadata(notebook: Any) -> dict[str, Any]:
    meta = notebook.get("metadata", {})
    language = meta.get("kernelspec", {}).get("language") or \
        meta.get("language_info", {}).get("name")
    return {"language": language} if language else {}


def _add(builder: SectionBuilder, block: Block | None) -> None:
    if block:
        builder.add(block)
