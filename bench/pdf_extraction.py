"""PDF text extraction speed and coverage, athena_lab side by side with pypdf and pdfplumber.

Usage:  python bench/pdf_extraction.py [PDF_DIR]   (default: corpora/pdfs under $ATHENA_SHARED)

For every readable, unencrypted PDF in the folder, each extractor pulls the text of
every page; we report pages per second and the share of pages that yield any text.
athena_lab's number includes what the others do not give: per-character boxes, lines
with rectangles, column order and hyphen repair (OCR is off: it is a separate cost).
Files an extractor cannot open count as zero pages with text for it.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pypdfium2 as pdfium

from athena_lab.pdf.pages import extract_page

DEFAULT_DIR = Path(os.environ.get("ATHENA_SHARED", Path(__file__).resolve().parents[2] / "shared")) / "corpora" / "pdfs"


def athena_pages(path: Path) -> list[str]:
    doc = pdfium.PdfDocument(str(path))
    try:
        return ["\n".join(ln.text for ln in extract_page(doc, i, ocr="off").lines) for i in range(len(doc))]
    finally:
        doc.close()


def pypdf_pages(path: Path) -> list[str]:
    import pypdf

    return [page.extract_text() or "" for page in pypdf.PdfReader(str(path)).pages]


def pdfplumber_pages(path: Path) -> list[str]:
    import pdfplumber

    with pdfplumber.open(str(path)) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


EXTRACTORS: dict[str, Callable[[Path], list[str]]] = {
    "athena_lab (pypdfium2, text + boxes)": athena_pages,
    "pypdf": pypdf_pages,
    "pdfplumber": pdfplumber_pages,
}


def readable(folder: Path) -> list[tuple[Path, int]]:
    """PDFs pdfium opens without a password, with their page counts (the common ground)."""
    out = []
    for path in sorted(folder.glob("*.pdf")):
        try:
            doc = pdfium.PdfDocument(str(path))
        except pdfium.PdfiumError:
            continue
        out.append((path, len(doc)))
        doc.close()
    return out


def run(folder: Path) -> None:
    logging.disable(logging.WARNING)  # pypdf and pdfminer log every odd font; only the table matters
    files = readable(folder)
    total_pages = sum(n for _, n in files)
    print(f"{len(files)} PDFs, {total_pages} pages in {folder}\n")
    print(f"{'extractor':40} {'seconds':>8} {'pages/s':>8} {'pages with text':>16}")
    for name, extract in EXTRACTORS.items():
        with_text, started = 0, time.perf_counter()
        for path, _ in files:
            try:
                with_text += sum(1 for text in extract(path) if text.strip())
            except Exception:  # noqa: BLE001 - a library failing on a file is part of the result
                pass
        seconds = time.perf_counter() - started
        print(f"{name:40} {seconds:8.1f} {total_pages / seconds:8.1f} "
              f"{with_text / total_pages:15.1%}")


if __name__ == "__main__":
    run(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_DIR)
