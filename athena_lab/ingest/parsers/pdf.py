"""PDF parser: pypdfium2 text with per-line regions, OCR for scans, structure from layout.

The heavy lifting lives in ``athena_lab.pdf``; this module is the parser-registry face
(NAME, VERSION, parse) and turns pages into a ParsedDocument. It writes no files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from athena_lab.document import ParsedDocument
from athena_lab.pdf.document import open_pdf, password_for, read_outline, structure_warnings
from athena_lab.pdf.meta import paper_record
from athena_lab.pdf.pages import PageText, extract_page
from athena_lab.pdf.structure import hidden_lines, sections

NAME = "pypdfium2"
VERSION = "7"  # 3: PDF chunks of at most 1,000 characters; 4: DOI and arXiv id in the metadata; 5: columns found block by block; 6: maths (scripts, fractions), footnote marks, figure labels; 7: garbled layers to OCR or unreadable, symbol glyphs, the record from the first page, outline sections, reference lists


@dataclass
class PdfOptions:
    #: relative path or bare file name → user password
    passwords: dict[str, str] = field(default_factory=dict)
    #: per-file limit enforced by ``athena_lab.ingest.pdf_pool``, for a file of up to
    #: ``PAGES_IN_BASE`` pages; longer files get ``page_s`` more per page, and every
    #: page sent to OCR ``ocr_page_s`` more (a 28-page scan is no hung file)
    timeout_s: float = 60.0
    page_s: float = 2.0
    ocr_page_s: float = 30.0
    #: "auto" reads scanned pages with OCR when the ocr extra is installed; "off" never
    ocr: str = "auto"


#: Pages a file may have within the base time limit.
PAGES_IN_BASE = 20


def time_limit(options: PdfOptions, pages: int) -> float:
    """Seconds a file of ``pages`` pages may take before OCR (each OCR'd page adds more)."""
    return options.timeout_s + options.page_s * max(0, pages - PAGES_IN_BASE)


def parse(abs_path: Path, path: str, options: PdfOptions,
          progress: Callable[[str, float], None] | None = None) -> ParsedDocument:
    """Parse one PDF; raises ParseError when the file cannot be read at all.

    ``progress(event, seconds)``: ``("pages", limit)`` once the page count is known and
    ``("ocr", seconds)`` before each page goes to OCR, so a caller enforcing a time limit
    can give a long file, or a scanned one, the time it needs."""
    doc = open_pdf(abs_path, path, password_for(path, options.passwords))
    try:
        if progress is not None:
            progress("pages", time_limit(options, len(doc)))
        on_ocr = (lambda: progress("ocr", options.ocr_page_s)) if progress is not None else None
        info = _metadata(doc)
        outline = read_outline(doc)
        pages = [extract_page(doc, i, options.ocr, on_ocr) for i in range(len(doc))]
    finally:
        doc.close()
    record = paper_record(info, pages[0] if pages else None, Path(path).name, pages[1] if len(pages) > 1 else None)
    return ParsedDocument(
        path=path,
        doc_kind="pdf",
        sections=sections(pages, hidden_lines(pages), outline),
        title=record.title or Path(path).stem,
        metadata={**record.metadata(Path(path).stem), "pages": [p.info() for p in pages]},
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
    read = [p.number for p in pages if p.source == "ocr" and any(w.startswith("garbled") for w in p.warnings)]
    if read:
        out.append(f"garbled text layer read with OCR on {_page_list(read)}")
    unreadable = [p for p in pages if p.source == "none" and any(w.startswith("garbled") for w in p.warnings)]
    if unreadable:
        hint = next((w.split(": unreadable, ", 1)[-1] for w in unreadable[0].warnings if "unreadable" in w), "")
        out.append(f"unreadable: garbled text layer on {_page_list([p.number for p in unreadable])}, "
                   f"not indexed ({hint})")
    chars = sum(p.chars for p in pages)
    if chars < 40 * len(pages) and not scanned and not unreadable:
        out.append(f"very little text: {chars} characters in {len(pages)} pages")
    return out


def _page_list(numbers: list[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:10])
    return f"page {shown}" if len(numbers) == 1 else f"pages {shown}{' …' if len(numbers) > 10 else ''}"
