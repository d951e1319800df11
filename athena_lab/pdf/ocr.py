"""OCR for pages without a text layer, through the optional rapidocr-onnxruntime extra.

rapidocr ships its ONNX models inside the wheel, so nothing is downloaded at run time.
Its lines come with pixel boxes; we turn them into Lines with per-character boxes
(spread evenly over the line box) so OCR text gets regions like any other text.
"""

from __future__ import annotations

import importlib.util
import logging
from functools import lru_cache
from typing import Any

import pypdfium2 as pdfium

from .extract import Char, Fragment
from .layout import Line, reading_order

INSTALL_HINT = "scanned page: OCR not installed, install athena-lab[ocr]"
GARBLED_HINT = "OCR would read it: install athena-lab[ocr]"
#: Rendering scale for OCR: 2x (144 dpi) reads body text reliably on the test scans.
OCR_SCALE = 2.0


def ocr_available() -> bool:
    return importlib.util.find_spec("rapidocr_onnxruntime") is not None


@lru_cache(maxsize=1)
def _engine() -> Any:
    from rapidocr_onnxruntime import RapidOCR

    logging.getLogger("RapidOCR").setLevel(logging.ERROR)
    return RapidOCR()


def ocr_page(page: pdfium.PdfPage) -> tuple[list[Line], float]:
    """Lines read from the rendered page in reading order (columns found as for a text
    layer: a two-column scan reads column by column), and their mean recognition score."""
    import numpy as np

    image = page.render(scale=OCR_SCALE).to_pil().convert("RGB")
    result, _ = _engine()(np.asarray(image))
    pieces: list[Fragment] = []
    scores: list[float] = []
    for quad, text, score in sorted(result or [], key=lambda r: (_top(r[0]), _left(r[0]))):
        text = " ".join(str(text).split())
        if not text:
            continue
        pieces.append(_fragment(quad, text))
        scores.append(float(score))
    return reading_order(pieces), (sum(scores) / len(scores) if scores else 0.0)


def _top(quad: list[list[float]]) -> float:
    return min(p[1] for p in quad)


def _left(quad: list[list[float]]) -> float:
    return min(p[0] for p in quad)


def _fragment(quad: list[list[float]], text: str) -> Fragment:
    """One recognised line as characters spread evenly over its box (page points)."""
    xs = [p[0] / OCR_SCALE for p in quad]
    ys = [p[1] / OCR_SCALE for p in quad]
    x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
    step = (x1 - x0) / len(text)
    size = (y1 - y0) * 0.75
    return Fragment([Char(ch, x0 + i * step, y0, x0 + (i + 1) * step, y1, size, False)
                     for i, ch in enumerate(text)])
