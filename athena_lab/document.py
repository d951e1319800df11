"""The shapes that flow from parsers to the chunker and into the index.

Parsers know file formats; the chunker knows sizes and boundaries; the index knows
storage. These dataclasses are the only thing they share, so each can change alone.
Lines are 1-based and inclusive. For notebooks, lines count within the cell.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal


#: Block kinds the chunker treats specially: code and table blocks are never split.
ATOMIC_BLOCK_KINDS = frozenset({"code", "table"})


@dataclass
class Region:
    """A rectangle on a PDF page, in PDF points, origin top-left of the page."""

    page: int
    x: float
    y: float
    width: float
    height: float

    def as_dict(self) -> dict[str, float]:
        return {"x": round(self.x, 2), "y": round(self.y, 2),
                "width": round(self.width, 2), "height": round(self.height, 2)}


@dataclass
class Block:
    """One contiguous piece of a section: a paragraph, list, code block, table, output.

    ``start_line``/``end_line`` locate the block in the source file (or in its
    notebook cell, or in the extracted text of its PDF page).
    """

    text: str
    start_line: int
    end_line: int
    kind: str = "paragraph"  # paragraph | code | table | list | quote | output | heading | caption
    cell: int | None = None  # notebook cell index (0-based, as nbformat counts)
    page: int | None = None  # PDF page number (1-based)
    regions: list[Region] = field(default_factory=list)  # PDF: one rectangle per text line
    confidence: float | None = None  # PDF extraction confidence, 0..1
    warnings: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)  # e.g. PDF tables: {"csv": "..."}


@dataclass
class Section:
    """Content under one heading. ``heading_path`` includes this section's own title."""

    heading_path: list[str]
    level: int  # 0 for content before the first heading
    blocks: list[Block] = field(default_factory=list)
    heading_line: int | None = None  # line of the heading itself, if any


@dataclass
class ParsedDocument:
    """What a parser returns for one file."""

    path: str  # POSIX, relative to the indexed root
    doc_kind: str  # markdown | rst | asciidoc | text | html | notebook | pdf
    sections: list[Section]
    title: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)  # front matter, PDF info, ...
    warnings: list[str] = field(default_factory=list)  # file-level problems, user-readable
    pages: int | None = None  # PDFs only


CitationKind = Literal["text", "notebook", "pdf"]
CITATION_KINDS: tuple[CitationKind, ...] = ("text", "notebook", "pdf")
DOC_KINDS = ("markdown", "rst", "asciidoc", "text", "html", "notebook", "pdf")


def citation_kind(doc_kind: str) -> CitationKind:
    """The citation ``kind`` of docs/contract.md: text, notebook or pdf."""
    if doc_kind == "pdf":
        return "pdf"
    if doc_kind == "notebook":
        return "notebook"
    return "text"


#: Written into the metadata of what athena itself puts in a notebook — the answer and
#: search displays (``%athena``, ``Athena.ask()``, the widget) and the Markdown cell the
#: sidebar's "Insert in notebook" adds (labextension/src/core/generated.ts) — so the
#: notebook parser leaves it out: athena never indexes or cites its own answers.
GENERATED_MARK: dict[str, Any] = {"athena_lab": {"generated": True}}
#: The saved widget state's ``_anywidget_id`` of the answer widget (a widget view whose
#: output lacks the mark, e.g. one saved before the mark existed, is recognised by it).
ANSWER_WIDGET_ID = "athena_lab.widget.AnswerWidget"


def is_generated(metadata: Any) -> bool:
    """True for a cell's or an output's metadata that carries ``GENERATED_MARK``."""
    mark = metadata.get("athena_lab") if isinstance(metadata, dict) else None
    return isinstance(mark, dict) and mark.get("generated") is True
