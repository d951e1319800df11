"""Jupyter notebooks: markdown cells drive the heading path across the whole notebook.

Every block carries ``cell`` (0-based, as nbformat counts). For markdown, code and raw
cells ``start_line``/``end_line`` are lines of that cell's source. For ``output`` blocks
they are lines of the output's own text (an output has no source lines); the citation
still opens the cell, whose output holds the text.
"""

from __future__ import annotations

from typing import Any

from athena_lab.document import Block, ParsedDocument, ParseError
from athena_lab.ingest.parsers._common import SectionBuilder, line_block
from athena_lab.ingest.parsers.markdown import add_markdown

NAME = "nbformat"
VERSION = "1"

#: Rich outputs read as text, best first; images and HTML are skipped.
_TEXT_MIMES = ("text/markdown", "text/plain")


def parse(text: str, path: str) -> ParsedDocument:
    """``text`` is the notebook's raw JSON."""
    if not text.strip():
        return ParsedDocument(path=path, doc_kind="notebook", sections=[])
    notebook = _read(text, path)
    builder = SectionBuilder()
    title = None
    for index, cell in enumerate(notebook.cells):
        source = cell.get("source", "")
        if cell.cell_type == "markdown":
            found = add_markdown(builder, source, cell=index)
            title = title or found["h1"]
        else:
            kind = "code" if cell.cell_type == "code" else "paragraph"
            _add(builder, line_block(source.splitlines(), 0, len(source.splitlines()), kind,
                                     index))
            for output in cell.get("outputs", []):
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
