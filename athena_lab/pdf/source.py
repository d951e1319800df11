"""The text of one PDF page as a citation sees it: numbered lines with rectangles.

Uses ``pages.extract_page`` — the same extraction as ``parse()`` — so a block's
``start_line``..``end_line`` name exactly these lines.
"""

from __future__ import annotations

from pathlib import Path

from athena_lab.contract import PdfLine, PdfPageText, Region
from athena_lab.errors import ParseError

from .document import open_pdf
from .pages import extract_page


def read_pdf_source(abs_pdf: Path, page: int, region: dict[str, float] | None = None,
                    password: str | None = None, ocr: str = "auto") -> PdfPageText:
    """Page ``page`` (1-based): its text and lines; with ``region``, only lines touching it."""
    doc = open_pdf(Path(abs_pdf), Path(abs_pdf).name, password)
    try:
        count = len(doc)
        if not 1 <= page <= count:
            raise ParseError(f"{Path(abs_pdf).name} has no page {page} (it has {count})")
        extracted = extract_page(doc, page - 1, ocr)
    finally:
        doc.close()
    lines: list[PdfLine] = [{"line": n, "text": ln.text, "region": _rounded(ln.region())}
                            for n, ln in enumerate(extracted.lines, start=1)]
    if region is not None:
        lines = [ln for ln in lines if _intersects(ln["region"], region)]
    return {
        "page": page, "pages": count, "width": round(extracted.width, 2),
        "height": round(extracted.height, 2),
        "text": "\n".join(ln["text"] for ln in lines), "lines": lines,
        "confidence": extracted.confidence, "warnings": extracted.warnings,
        "source": extracted.source,
    }


def _rounded(region: dict[str, float]) -> Region:
    return {"x": round(region["x"], 2), "y": round(region["y"], 2), "width": round(region["width"], 2),
            "height": round(region["height"], 2)}


def _intersects(a: Region | dict[str, float], b: Region | dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])
