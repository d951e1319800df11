"""One page → its lines in reading order, with a confidence and warnings.

This is the single extraction both ``parse()`` and ``read_pdf_source()`` call, so the
line numbers a citation carries are the line numbers the source view shows. Line
numbers do not depend on other pages (header/footer stripping only hides lines).
"""

from __future__ import annotations

import ctypes
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from .extract import CharStats, fragments, page_chars, page_transform
from .layout import Line, reading_order
from .ocr import GARBLED_HINT, INSTALL_HINT, ocr_available, ocr_page

_CAPTION_START = re.compile(r"^\s*(Figure|Fig\.|Table|Tab\.|Abbildung|Abb\.|Tabelle|Listing|Algorithm)\s*[A-Z]?\d",
                            re.I)
_NUMBERED = re.compile(r"^\s*\d{1,2}(\.\d{1,2})*\.?\s+\S")
#: Fewer printed characters than this and a page counts as having very little text.
LOW_TEXT_CHARS = 40
# A publisher's download stamp over a scan: IEEE Xplore's "Authorized licensed use limited to:
# … Downloaded on … from IEEE Xplore", IOP's "This content was downloaded from IP address …",
# a portal's "Downloaded from orbit.dtu.dk on: …". A scanned page carrying only such a line
# has no text of its own.
_DOWNLOAD_STAMP = re.compile(r"authorized licensed use limited to\b|this content (?:was )?downloaded from\b|"
                             r"^\s*downloaded (?:from|by|on)\b", re.I)


@dataclass
class PageText:
    number: int  # 1-based
    width: float
    height: float
    lines: list[Line]
    source: str = "text"  # text | ocr | none
    confidence: float = 1.0
    warnings: list[str] = field(default_factory=list)
    margin: str = ""  # rotated text in the margin (an arXiv stamp), not part of the lines
    scan: bool = False  # the text layer lies over an image of the page: a scan's own OCR

    @property
    def chars(self) -> int:
        return sum(len(ln.text) for ln in self.lines)

    def info(self) -> dict:
        return {"page": self.number, "chars": self.chars, "confidence": round(self.confidence, 2),
                "warnings": list(self.warnings), "source": self.source}


def extract_page(doc: pdfium.PdfDocument, index: int, ocr: str = "auto",
                 on_ocr: Callable[[], None] | None = None) -> PageText:
    """Text lines of page ``index`` (0-based); OCR when the page is a scan or its text
    layer is garbled and OCR is allowed. ``on_ocr`` is called before a page goes to OCR
    (the worker pool gives the file more time)."""
    page = doc[index]
    try:
        width, height = page.get_size()
        textpage = page.get_textpage()
        stats = CharStats()
        try:
            rules, pictures, backdrop = page_shapes(page, width, height)
            lines = reading_order(fragments(page_chars(page, textpage, stats)), rules=rules)
            mark_figure_text(lines, pictures)
        finally:
            textpage.close()
        result = PageText(index + 1, width, height, lines, margin=stats.margin_text, scan=backdrop)
        printed = sum(printed_chars(ln.text) for ln in lines)
        if printed < LOW_TEXT_CHARS and _has_images(page):
            return _scanned(page, result, ocr, on_ocr)
        stamped = sum(printed_chars(ln.text) for ln in lines if not _DOWNLOAD_STAMP.search(ln.text))
        if stamped < LOW_TEXT_CHARS and _covering_image(page, width, height):
            return _scanned(page, result, ocr, on_ocr)  # a scan with a publisher's download stamp
        # (a page with a few real characters, a stamp or a page number, goes to OCR only when
        # OCR can read it: without OCR a figure's page keeps the words its text layer has)
        if printed < LOW_TEXT_CHARS and (printed == 0 or ocr != "off" and ocr_available()) and _outlined(page):
            return _scanned(page, result, ocr, on_ocr, drawn="text drawn as outlines")
        garbled = garbled_reason("\n".join(ln.text for ln in lines), stats.unmapped)
        if garbled:
            return _garbled(page, result, ocr, garbled, on_ocr)
        _judge_text(result, printed, stats.unmapped)
        return result
    finally:
        page.close()


Box = tuple[float, float, float, float]
#: ``\s`` is what ``str.isspace`` says is a space, counted in C
_SPACE = re.compile(r"\s")


def printed_chars(text: str) -> int:
    """The characters of ``text`` that are not spaces (``not ch.isspace()``)."""
    return len(text) - len(_SPACE.findall(text))


def page_shapes(page: pdfium.PdfPage, width: float, height: float) -> tuple[list[Box], list[Box], bool]:
    """The page's thin horizontal strokes, its pictures, as top-left boxes, and whether an
    image covers half of it (a scan under its text layer), in one pass.

    Strokes are fraction bars (and radical bars): a fraction's bar is a path, not a
    character, and the only thing telling a numerator over a denominator from a
    superscript over a subscript (Wᵢ^Q); strokes inside a drawing (a form) count too.
    Pictures are images and embedded drawings; one covering most of the page is a
    background or a scan, not a figure. Pages of thousands of paths (vector plots) give
    no strokes: theirs are no fraction bars. Raw calls: wrapping every object in Python
    would cost more than the reading itself on text-heavy pages.
    """
    a, b, c, d, e, f = page_transform(page)
    rules: list[Box] = []
    pictures: list[Box] = []
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    paths = 0
    backdrop = False

    def box(obj: pdfium_c.FPDF_PAGEOBJECT) -> Box | None:
        if not pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom, right, top):
            return None
        xs = (a * left.value + b * bottom.value + c, a * right.value + b * top.value + c)
        ys = (d * left.value + e * bottom.value + f, d * right.value + e * top.value + f)
        return min(xs), min(ys), max(xs), max(ys)

    def visit(obj: pdfium_c.FPDF_PAGEOBJECT, depth: int) -> None:
        nonlocal paths, backdrop
        kind = pdfium_c.FPDFPageObj_GetType(obj)
        if kind == pdfium_c.FPDF_PAGEOBJ_PATH:
            paths += 1
            shape = box(obj)
            if shape and shape[3] - shape[1] <= 1.5 and 2 <= shape[2] - shape[0] <= 300:
                rules.append(shape)
        elif kind in (pdfium_c.FPDF_PAGEOBJ_IMAGE, pdfium_c.FPDF_PAGEOBJ_FORM):
            shape = box(obj) if depth == 0 else None
            if shape:
                x0, y0, x1, y1 = shape
                backdrop = backdrop or kind == pdfium_c.FPDF_PAGEOBJ_IMAGE and (x1 - x0) * (y1 - y0) >= 0.5 * width * height
                if 0 < (x1 - x0) * (y1 - y0) <= 0.5 * width * height and x1 - x0 > 20 and y1 - y0 > 20:
                    pictures.append(shape)
            if kind == pdfium_c.FPDF_PAGEOBJ_FORM and depth == 0:
                for i in range(pdfium_c.FPDFFormObj_CountObjects(obj)):
                    visit(pdfium_c.FPDFFormObj_GetObject(obj, i), depth + 1)

    for i in range(pdfium_c.FPDFPage_CountObjects(page.raw)):
        visit(pdfium_c.FPDFPage_GetObject(page.raw, i), 0)
    return ([] if paths > 5000 else rules), pictures, backdrop


#: Labels just outside a picture (a title above a diagram, an axis name) are its text too.
FIGURE_MARGIN = 12.0
#: More words than this on a line is prose running beside or over a picture.
FIGURE_WORDS = 10


def mark_figure_text(lines: list[Line], regions: list[Box]) -> None:
    """Flag the short lines printed on or right around a picture (a diagram's "MatMul",
    "Scaled Dot-Product Attention" above it): words of a drawing, not sentences, so they
    are no paragraph to quote. Captions ("Figure 2: …") stay text, and so does all text on
    a picture that carries prose (a page set over a background, a text screenshot):
    its short lines are the ends of its paragraphs."""
    if not regions:
        return  # no picture: no line is on one
    body = _middle_size(lines)
    long = [len(ln.text.split()) > FIGURE_WORDS for ln in lines]
    seen: dict[int, _Centres] = {}
    prose = [r for r in regions
             if sum(1 for ln, wordy in zip(lines, long) if wordy and _on(ln, [r], FIGURE_MARGIN, seen)) >= 2]
    pictures = [r for r in regions if r not in prose]
    for line, wordy in zip(lines, long):
        if wordy or _CAPTION_START.match(line.text) \
                or (line.size > 1.15 * body and _NUMBERED.match(line.text)):
            continue  # prose, a caption, or a numbered heading drawn on a picture (a banner)
        if _on(line, pictures, FIGURE_MARGIN, seen) or _titles(line, lines, pictures, seen):
            line.figure = True


def _middle_size(lines: list[Line]) -> float:
    """The size of the page's middle printed character (each line's size once per
    character it prints), 0 on a page without any."""
    counted = sorted(((ln.size, printed_chars(ln.text)) for ln in lines), key=lambda pair: pair[0])
    middle = sum(n for _, n in counted) // 2
    for size, n in counted:
        if middle < n:
            return size
        middle -= n
    return 0.0


#: a line's printed characters' centres and their extent (None when not a number)
_Centres = tuple[list[tuple[float, float]], Box | None]


def _on(line: Line, regions: list[Box], margin: float, seen: dict[int, _Centres] | None = None) -> bool:
    """Most of the line's characters on the pictures or the margin around them: a title
    centred over two diagrams side by side ("Scaled Dot-Product Attention   Multi-Head
    Attention") is wider than either and reaches past their sides."""
    if not regions:
        return False  # no character can be inside
    found = seen.get(id(line)) if seen is not None else None  # the lines outlive ``seen``
    if found is None:
        found = _centres(line)
        if seen is not None:
            seen[id(line)] = found
    centres, extent = found
    if not centres:
        return False
    around = [(rx0 - 2 * margin, ry0 - margin, rx1 + 2 * margin, ry1 + margin) for rx0, ry0, rx1, ry1 in regions]
    if extent is not None:  # only pictures reaching the centres' extent can hold one
        cx0, cy0, cx1, cy1 = extent
        around = [(left, top, right, bottom) for left, top, right, bottom in around
                  if left <= cx1 and cx0 <= right and top <= cy1 and cy0 <= bottom]
        if not around:
            return False
    inside = sum(1 for x, y in centres if any(
        left <= x <= right and top <= y <= bottom for left, top, right, bottom in around))
    return inside >= 0.8 * len(centres)


def _centres(line: Line) -> _Centres:
    centres = [((x0 + x1) / 2, (y0 + y1) / 2) for (x0, y0, x1, y1), ch in zip(line.boxes, line.text)
               if not ch.isspace()]
    if not centres:
        return centres, None
    xs, ys = [x for x, _ in centres], [y for _, y in centres]
    extent = (min(xs), min(ys), max(xs), max(ys))
    # a NaN first would hide the others from min and max: then no pruning
    return centres, extent if all(v == v for v in extent) else None


def _titles(line: Line, lines: list[Line], pictures: list[Box], seen: dict[int, _Centres] | None = None) -> bool:
    """Titles of pictures side by side, set further off than a label ("Scaled Dot-Product
    Attention" and "Multi-Head Attention" over Figure 2's two diagrams): twice the margin,
    but only for a line of separate pieces over two pictures or more that stands apart
    from the text above — a prose line near a picture is one piece over one."""
    if len(line.cells) < 2 or not _on(line, pictures, 2 * FIGURE_MARGIN, seen) or not _apart(line, lines):
        return False
    over = {i for (x0, _, x1, _), ch in zip(line.boxes, line.text) if not ch.isspace()
            for i, (rx0, _, rx1, _) in enumerate(pictures)
            if rx0 - 2 * FIGURE_MARGIN <= (x0 + x1) / 2 <= rx1 + 2 * FIGURE_MARGIN}
    return len(over) >= 2


def _apart(line: Line, lines: list[Line]) -> bool:
    """No text line right above it (within one and a half line heights) that it could end."""
    x0, y0, x1, y1 = line.bbox
    height = y1 - y0
    return not any(other is not line and min(x1, other.bbox[2]) > max(x0, other.bbox[0])
                   and 0 <= y0 - other.bbox[3] < 1.5 * height and not other.figure for other in lines)


def _has_images(page: pdfium.PdfPage) -> bool:
    return any(True for _ in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=2))


def _covering_image(page: pdfium.PdfPage, width: float, height: float) -> bool:
    """An image over half the page or more: a scan, not a figure (a born-digital page's
    picture with its caption and a download stamp keeps its text)."""
    for image in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=1):
        left, bottom, right, top = image.get_bounds()
        if (right - left) * (top - bottom) >= 0.5 * width * height:
            return True
    return False


#: Paths on a page with under 40 characters past which its text is drawn as outlines: a paper
#: whose fonts were turned into curves draws 3,000 to 5,000 a page ("Developing xApps for
#: Rogue Base Station Detection", IEEE), a page's figure of lines and boxes a few hundred
OUTLINED_PATHS = 1000


def _outlined(page: pdfium.PdfPage) -> bool:
    """Text drawn as outlines, not set in characters: next to nothing to extract, so it is
    read by OCR as a scan is (a printer's PDF, a poster or a paper "flattened" for the press)."""
    paths = page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_PATH], max_depth=2)
    return sum(1 for _, _ in zip(range(OUTLINED_PATHS), paths)) >= OUTLINED_PATHS


def _scanned(page: pdfium.PdfPage, result: PageText, ocr: str,
             on_ocr: Callable[[], None] | None = None, drawn: str = "image-only page") -> PageText:
    """A page that is mostly an image, or ``drawn`` some other way than in characters (its
    outlines): read it with OCR, or say how to get OCR. An outlined page whose OCR finds
    nothing keeps the few characters it has."""
    if ocr != "off" and ocr_available():
        if on_ocr is not None:
            on_ocr()
        lines, score = ocr_page(page)
        if lines:
            result.lines, result.source = lines, "ocr"
            result.confidence = round(0.9 * score, 3)
            result.warnings.append("scanned page: text from OCR" if drawn == "image-only page"
                                   else f"{drawn}: text from OCR")
            return result
        result.warnings.append(f"{drawn}: OCR found no text")
        if result.lines and drawn != "image-only page":
            return result  # an outlined page's few real words (a stamp, a label) stay
    else:
        result.warnings.append(drawn)
        result.warnings.append(INSTALL_HINT if ocr != "off" else "scanned page: OCR is off")
    result.lines, result.source, result.confidence = [], "none", 0.0
    return result


def _garbled(page: pdfium.PdfPage, result: PageText, ocr: str, reason: str,
             on_ocr: Callable[[], None] | None = None) -> PageText:
    """A text layer that is noise (a font whose codes map to the wrong letters, or to none):
    read the page with OCR; without OCR, or when OCR reads nothing better, the page is
    listed as unreadable and none of its text is indexed, so no snippet shows the noise."""
    if ocr != "off" and ocr_available():
        if on_ocr is not None:
            on_ocr()
        lines, score = ocr_page(page)
        text = "\n".join(ln.text for ln in lines)
        if lines and not garbled_reason(text):
            result.lines, result.source = lines, "ocr"
            result.confidence = round(0.9 * score, 3)
            result.warnings.append(f"garbled text layer ({reason}): text from OCR")
            return result
        result.warnings.append(f"garbled text layer ({reason}): unreadable, OCR found no readable text either")
    else:
        result.warnings.append(f"garbled text layer ({reason}): unreadable, "
                               + (GARBLED_HINT if ocr != "off" else "OCR is off"))
    result.lines, result.source, result.confidence = [], "none", 0.0
    return result


def _judge_text(result: PageText, printed: int, unmapped: int = 0) -> None:
    if printed == 0:
        result.source, result.confidence = "none", 0.0
        result.warnings.append("empty page: no text")
        return
    if unmapped:
        result.confidence = min(result.confidence, 0.8)
        result.warnings.append(f"{unmapped} symbol{'s' if unmapped > 1 else ''} without a Unicode map left out")
    if printed < LOW_TEXT_CHARS:
        result.confidence = min(result.confidence, 0.6)
        result.warnings.append(f"low text: only {printed} characters on the page")


#: A share of glyphs above this without a character to name: the font has no Unicode map.
UNMAPPED_SHARE = 0.3
#: Below this share of letters in word-shaped runs, the text is a shifted encoding's salad.
WORD_SHARE = 0.45
#: Letters needed before the word shape is judged: a caption or a formula says too little.
WORD_LETTERS = 150
_RUN = re.compile(r"[^\W\d_]+")
#: Letter pairs covering 98.5 % of the pairs in English words (counted on the shared docs
#: corpus, 2.2 M pairs). A text whose letters are shifted ("Uif qspcmfn pg" for "The
#: problem of") keeps word shapes but not the pairs: on papers-we-love readable pages have
#: at most 23 % other pairs (formula-heavy pages), garbled ones 30–70 %; German, French and
#: Spanish prose 1–7 %.
COMMON_PAIRS = frozenset(re.findall("..", (
    "abacadafagaiakalamanaparasatauavaxaybabebibjblbobrbsbubycacc"
    "cechcickclcocrcsctcucydadddedidldodrdsdtdudvdyeaebecedeeefeg"
    "eheielemeneoepeqeresetevewexeyfafefffiflfofrftfufvfygagegggh"
    "giglgngogrgsguhahehihlhohthuiaibicidieifigikiliminioipirisit"
    "ivixizjajejskakekikslaldlelflilllolplsltlulymambmdmemimlmmmo"
    "mpmsmumynancndnenfngninknlnmnnnonpnsntnunvnxnyoaobocodoeofog"
    "oiojokolomonoooporosotouovowpapdpephpiplpoppprpsptpupyqurarc"
    "rdrerfrgrirkrlrmrnrorrrsrtrurvrysascseshsiskslsospsrssstsusw"
    "sytatctethtitltmtotptrtstttutyuaubucudueuguiulumunupurusutva"
    "veviwawewhwiwnwowrwsxaxcxexixpxtydyiylynyoypysytzaze"
)))
RARE_PAIRS = 0.3
PAIRS_NEEDED = 300
_LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
_PAIR = re.compile(r"(?=([a-z]{2}))")


def garbled_reason(text: str, unmapped: int = 0) -> str | None:
    """Why ``text`` looks like a broken text layer, or None when it reads as language.

    Two ways a font's encoding breaks text, both measured on papers-we-love (bench/
    archive.py, docs/pdf.md): glyphs with no character at all (``unmapped``: control
    codes pdfium could not name, replacement and private-use characters), and glyphs
    mapped to the wrong letters ("tab7bHp*]jez¡r*]", "Ã3`1 ̧Ó", "Uif qspcmfn"). Words of
    any language are runs of three or more letters in one case pattern (``word``,
    ``WORD``, ``Word``); in a shifted encoding most letters sit in short runs or mixed
    case, or, where the shapes survive, their letter pairs are ones words do not have.
    Code, formulas and tables keep their identifiers whole, so they pass.
    """
    printed = bad = 0
    for ch, n in Counter(text).items():  # each distinct character once
        if not ch.isspace():
            printed += n
            if ch == "\ufffd" or unicodedata.category(ch) in ("Co", "Cc", "Cn"):
                bad += n
    bad += unmapped
    total = printed + unmapped
    if total >= 20 and bad / total > UNMAPPED_SHARE:
        return f"{bad} of {total} glyphs have no Unicode map"
    runs = _RUN.findall(text)
    letters = sum(map(len, runs))
    if letters >= WORD_LETTERS:
        # word-shaped (the usual case, tested first) or a script without case (Arabic,
        # Korean, Chinese): no shape to judge
        words = sum(len(run) for run in runs
                    if (len(run) >= 3 and (run.islower() or run.isupper() or (run[0].isupper() and run[1:].islower())))
                    or run.lower() == run.upper())
        if words / letters < WORD_SHARE:
            return f"implausible words: {round(100 * words / letters)}% of letters in words"
    latin = _LATIN_WORD.findall(text)
    pairs = sum(map(len, latin)) - len(latin)
    if pairs >= PAIRS_NEEDED:
        # every pair of adjacent letters inside a word, found in C
        found = Counter(_PAIR.findall(" ".join(latin).lower()))
        rare = sum(n for pair, n in found.items() if pair not in COMMON_PAIRS)
        if rare / pairs > RARE_PAIRS:
            return f"letters out of place: {round(100 * rare / pairs)}% of letter pairs rare in any language"
    return None
