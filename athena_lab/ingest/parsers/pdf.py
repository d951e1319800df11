"""PDF parser: pypdfium2 text with per-line regions, OCR for scans, structure from layout.

The heavy lifting lives in ``athena_lab.pdf``; this module is the parser-registry face
(NAME, VERSION, parse) and turns pages into a ParsedDocument. It writes no files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from athena_lab.document import ParsedDocument
from athena_lab.pdf.document import open_pdf, password_for, structure_warnings
from athena_lab.pdf.meta import (
    arxiv_year,
    citation_label,
    document_authors,
    document_ids,
    document_title,
    document_year,
)
from athena_lab.pdf.pages import PageText, extract_page
from athena_lab.pdf.structure import hidden_lines, sections

NAME = "pypdfium2"
VERSION = "6"  # 3: PDF chunks of at most 1,000 characters; 4: DOI and arXiv id in the metadata; 5: columns found block by block; 6: maths (scripts, fractions), footnote marks, figure labels


@dataclass
class PdfOptions:
    #: relative path or bare file name → user password
    passwords: dict[str, str] = field(default_factory=dict)
    #: per-file limit enforced by ``athena_lab.ingest.pdf_pool``
    timeout_s: float = 60.0
    #: "auto" reads scanned pages with OCR when the ocr extra is installed; "off" never
    ocr: str = "auto"


def parse(abs_path: Path, path: str, options: PdfOptions) -> ParsedDocument:
    """Parse one PDF; raises ParseError when the file cannot be read at all."""
    doc = open_pdf(abs_path, path, password_for(path, options.passwords))
    try:
        info = _metadata(doc)
        pages = [extract_page(doc, i, options.ocr) for i in range(len(doc))]
    finally:
        doc.close()
    first = pages[0] if pages else None
    title = document_title(info, first)
    authors = document_authors(info, first)
    ids = document_ids(info, first, Path(path).name)
    year = arxiv_year(ids.get("arxiv")) or document_year(info, first)  # a preprint is cited by its arXiv year
    return ParsedDocument(
        path=path,
        doc_kind="pdf",
        sections=sections(pages, hidden_lines(pages)),
        title=title or Path(path).stem,
        metadata={
            "title": title, "authors": authors, "year": year, **ids,
            "label": citation_label(authors, year, title, Path(path).stem),
            "pages": [p.info() for p in pages],
        },
        warnings=structure_warnings(abs_path) + _document_warnings(pages),
        pages=len(pages),
    )


def _metadata(doc) -> dict[str, str]:
    """The info dictionary; some files carry metadata pdfium cannot decode."""
    try:
        return {k: v for k, v in doc.get_metadata_dict(skip_empty=True).items() if isinstance(v, str)}
    except Exception:  # noqa: BLE001 - unreadable metadata must not lose the text
        return {}


def _document_warnings(pages: list[PageText]) -> list[str]:
    """File-level summary of page problems, so a status line can say what is wrong."""
    if not pages:
        return ["no pages"]
    out: list[str] = []
    scanned = [p.number for p in pages if any(w.startswith(("scanned", "image-only")) for w in p.warnings)]
    if scanned:
        out.append(f"scanned: {len(scanned)} of {len(pages)} pages have no text layer "
                   f"({_page_list(scanned)})")
    garbled = [p.number for p in pages if any(w.startswith("garbled") for w in p.warnings)]
    if garbled:
        out.append(f"garbled text on {_page_list(garbled)}")
    chars = sum(p.chars for p in pages)
    if chars < 40 * len(pages) and not scanned:
        out.append(f"very little text: {chars} characters in {len(pages)} pages")
    return out


def _page_list(numbers: list[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:10])
    return f"page {shown}" if len(numbers) == 1 else f"pages {shown}{' …' if len(numbers) > 10 else ''}"
