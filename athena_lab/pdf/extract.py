"""Characters with boxes out of pdfium, grouped into line fragments.

pdfium's own text order and line breaks are a good start but not enough: it merges
table cells and two columns that share a baseline, and its char index does not match
Python string offsets (ligatures, generated spaces). So every character we keep carries
its own box, in page points with the origin at the top-left of the displayed page.
"""

from __future__ import annotations

import ctypes
import math
import struct
import unicodedata
from collections import Counter
from dataclasses import dataclass
from statistics import StatisticsError
from typing import Any, Callable

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from .glyphs import font_name, ligature_glyph, symbol_glyph

_ASCII = [chr(code) for code in range(0x80)]
_RECT = struct.Struct("4f")
#: pdfium reports a hyphen it saw at a line end as U+0002; soft hyphens mean the same.
HYPHEN_MARKS = frozenset({"\x02", "\u00ad"})
_SKIP = frozenset({"\r", "\n", "\ufffe", "\x00"})


@dataclass
class CharStats:
    """What ``page_chars`` left out, for judging the page: glyphs with no character to
    name (a font without a Unicode map) and the rotated margin text (an arXiv stamp, which
    carries the preprint's id and date)."""

    unmapped: int = 0
    margin: list[str] | None = None

    @property
    def margin_text(self) -> str:
        return " ".join("".join(self.margin or []).split())


@dataclass(slots=True)
class Char:
    text: str  # one or more code points after NFKC (a ligature becomes two)
    x0: float
    y0: float
    x1: float
    y1: float
    size: float
    bold: bool
    font: float = 0.0  # nominal font size; 0 when unknown (generated spaces, OCR)
    sized: bool = False  # size made from the glyph, in a font whose boxes are its glyphs' (_font_kind)


class Fragment:
    """A run of characters on one baseline with no wide gap inside it."""

    __slots__ = ("chars", "x0", "y0", "x1", "y1", "core", "printed")

    def __init__(self, chars: list[Char]) -> None:
        self.chars = chars
        printed = [c for c in chars if c.text != " "]
        #: how many of the characters are not spaces
        self.printed = len(printed)
        printed = printed or chars
        if not printed:
            self.x0 = self.y0 = self.x1 = self.y1 = 0.0
            self.core = (0.0, 0.0)
            return
        y0s = [c.y0 for c in printed]
        y1s = [c.y1 for c in printed]
        self.x0 = min([c.x0 for c in printed])
        self.y0 = min(y0s)
        self.x1 = max([c.x1 for c in printed])
        self.y1 = max(y1s)
        #: the band most characters occupy: one tall √ or ∑ must not make the line tall
        self.core = (median(y0s), median(y1s))

    @property
    def text(self) -> str:
        return "".join(c.text for c in self.chars)


def median(values: list[float]) -> float:
    """``statistics.median`` of a non-empty list, without its overhead (same result)."""
    data = sorted(values)
    n = len(data)
    if n == 0:
        raise StatisticsError("no median for empty data")
    if n % 2 == 1:
        return data[n // 2]
    return (data[n // 2 - 1] + data[n // 2]) / 2


def _direct(function: Any, *argtypes: Any, restype: Any = None) -> Callable[..., Any]:
    """``function`` of pdfium called with plain addresses: pypdfium2's typed pointer
    arguments cost a conversion on every call, and a page has thousands of characters."""
    address = ctypes.cast(function, ctypes.c_void_p).value
    assert address is not None
    prototype: Callable[..., Any] = ctypes.CFUNCTYPE(restype or function.restype, *argtypes)(address)
    return prototype


_ADDRESS, _INDEX = ctypes.c_void_p, ctypes.c_int
_GET_UNICODE = _direct(pdfium_c.FPDFText_GetUnicode, _ADDRESS, _INDEX)
_GET_BOX = _direct(pdfium_c.FPDFText_GetLooseCharBox, _ADDRESS, _INDEX, _ADDRESS)
_GET_ANGLE = _direct(pdfium_c.FPDFText_GetCharAngle, _ADDRESS, _INDEX)
_GET_WEIGHT = _direct(pdfium_c.FPDFText_GetFontWeight, _ADDRESS, _INDEX)
_GET_FONT_SIZE = _direct(pdfium_c.FPDFText_GetFontSize, _ADDRESS, _INDEX)
_IS_GENERATED = _direct(pdfium_c.FPDFText_IsGenerated, _ADDRESS, _INDEX)
#: the address of the character's text object, None for a character pdfium made up
_GET_TEXT_OBJECT = _direct(pdfium_c.FPDFText_GetTextObject, _ADDRESS, _INDEX, restype=_ADDRESS)
_GET_FONT = _direct(pdfium_c.FPDFTextObj_GetFont, _ADDRESS, restype=_ADDRESS)


def page_transform(page: pdfium.PdfPage) -> tuple[float, float, float, float, float, float]:
    """Affine map page space → displayed top-left space, honouring /Rotate.

    Derived from FPDF_PageToDevice on three points so rotated pages need no case analysis;
    a large device size keeps the integer rounding of that API below 0.01 pt.
    """
    width, height = page.get_size()
    k = 100
    out_x, out_y = ctypes.c_int(), ctypes.c_int()

    def to_device(px: float, py: float) -> tuple[float, float]:
        pdfium_c.FPDF_PageToDevice(page.raw, 0, 0, int(width * k), int(height * k), 0,
                                   px, py, ctypes.byref(out_x), ctypes.byref(out_y))
        return out_x.value / k, out_y.value / k

    ox, oy = to_device(0, 0)
    ax, ay = to_device(100, 0)
    bx, by = to_device(0, 100)
    return ((ax - ox) / 100, (bx - ox) / 100, ox, (ay - oy) / 100, (by - oy) / 100, oy)


def page_chars(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage,
               stats: CharStats | None = None) -> list[Char | None]:
    """Characters in pdfium order; ``None`` marks a break pdfium saw (line end, space).
    ``stats`` (if given) counts what was left out."""
    stats = stats if stats is not None else CharStats()
    stats.margin = stats.margin if stats.margin is not None else []
    margin = stats.margin
    a, b, c, d, e, f = page_transform(page)
    raw = textpage.raw
    tp = ctypes.cast(raw, ctypes.c_void_p).value
    rect = pdfium_c.FS_RECTF()
    rect_at = ctypes.addressof(rect)
    get_unicode, get_box, get_angle = _GET_UNICODE, _GET_BOX, _GET_ANGLE
    is_generated, get_object = _IS_GENERATED, _GET_TEXT_OBJECT
    #: weight and nominal size come from the character's text object: asked once per object
    styles: dict[int, tuple[bool, float]] = {}
    fonts: dict[int, str] = {}
    #: how a font boxes its letters (judged on the first of its text objects holding an
    #: x-height letter and a tall one, _font_kind), and each text object's font
    font_kind: dict[int, str] = {}
    font_of: dict[int, int | None] = {}
    undecided: set[int] = set()
    generated: int | None = None  # index of a space pdfium made up, see _drop_false_space
    own_spaces = made_up = 0  # spaces the file has, and breaks pdfium made up
    inside: list[int] = []  # made-up breaks as close as the letters around them: see _inside_words
    upright = _upright_angle(raw)
    chars: list[Char | None] = []
    count = pdfium_c.FPDFText_CountChars(raw)
    low_half = False
    last = (0.0, 0.0)  # the last character's bottom and top, page units (y up)
    accents = False  # a character compose_accents would put on a letter
    c_fonts: list[set[int]] = []  # the fonts that print a "c" of their own, asked once (_lost_c)
    normalize = unicodedata.normalize
    read_rect = _RECT.unpack_from  # FS_RECTF: left, top, right, bottom as C floats
    for i in range(count):
        if low_half:  # second half of a surrogate pair, already composed into the first
            low_half = False
            continue
        code = get_unicode(tp, i)
        if 0x20 < code < 0x7F:  # printable ASCII, most characters: none of the cases below
            text = ch = _ASCII[code]
            if code == 0x5E or code == 0x60:  # ^ and `, accents of their own (_ACCENTS)
                accents = True
        else:
            if 0xD800 <= code <= 0xDBFF and i + 1 < count and 0xDC00 <= get_unicode(tp, i + 1) <= 0xDFFF:
                # pdfium speaks UTF-16: math letters and emoji arrive as surrogate pairs.
                code = 0x10000 + ((code - 0xD800) << 10) + (get_unicode(tp, i + 1) - 0xDC00)
                low_half = True
            ch = chr(code) if code < 0x110000 and not 0xD800 <= code <= 0xDFFF else "\ufffd"
            if (code < 0x20 or 0x7F <= code <= 0x9F) and code != 0x02 and is_generated(tp, i) != 1:  # is_control
                # a symbol font without a Unicode map: its code, not a control the page prints
                glyph = symbol_glyph(_font_name(tp, raw, i, fonts), code)
                if glyph is None and code == 0x0D and _lost_c(tp, raw, i, count, c_fonts):
                    glyph = "c"
                if glyph is None and i + 1 < count:
                    before = chars[-1].text[-1:] if chars and chars[-1] is not None else ""
                    after = "".join(chr(get_unicode(tp, k)) for k in range(i + 1, min(i + 3, count)))
                    glyph = ligature_glyph(code, before, after)
                if glyph is None and code not in (0x09, 0x0A, 0x0D):
                    stats.unmapped += 1
                    continue  # no character we could name: never index a control
                ch = glyph or ch
            if ch in _SKIP or ch.isspace():
                if is_generated(tp, i) != 1:
                    generated = -1  # a space the file itself has: always a break
                    own_spaces += ch == " "
                elif generated is None:
                    generated = len(chars)  # kept unless the next character touches the last
                    made_up += 1
                chars.append(None)
                if margin and margin[-1] != " ":
                    margin.append(" ")
                continue
            if ch in HYPHEN_MARKS:
                text = "\u00ad" if ch == "\u00ad" else "-"  # soft kept distinct for hyphen repair
            else:
                text = ch if code < 0x80 else normalize("NFKC", ch)
            if text in _ACCENTS:
                accents = True
        if not get_box(tp, i, rect_at):
            continue
        angle = get_angle(tp, i)
        if angle != upright and _turned(angle, upright):
            margin.append(ch)
            continue  # rotated margin text (arXiv stamps, side labels) is not body text
        left, top, right, bottom = read_rect(rect)
        obj = get_object(tp, i)
        style = styles.get(obj)  # never stored under None
        if style is None:
            style = (_GET_WEIGHT(tp, i) >= 600, _GET_FONT_SIZE(tp, i))
            if obj is not None:
                styles[obj] = style
        font = None
        if obj is not None and style[1] < 3.0:
            # (only a font scaled from 1 pt by the text matrix, as dvips sets them, is judged: a
            # font that says its size keeps its boxes, even where pdfium gives it its glyphs',
            # LinLibertine's)
            font = font_of.get(obj, 0)
            if font == 0:
                font = font_of[obj] = _GET_FONT(obj)
        kind = font_kind.get(font) if font is not None else None
        if font is not None and kind is None and obj not in undecided:
            kind = _font_kind(tp, raw, i, obj, count)
            if kind is None:
                undecided.add(obj)  # (no letter to judge it by: judged by a later object)
            else:
                font_kind[font] = kind
        bare = kind == BARE
        upright_char = 0 <= angle < 0.01 or angle > _FULL_TURN - 0.01
        if kind == CAPPED and upright_char:
            band = _capped_band(raw, i, top)
            if band is not None:
                bottom, top = band
        sized = False
        if (bare or top - bottom > 2.5 * (last[1] - last[0])) and upright_char:
            # taller than the character before, or drawn in a font without metrics, in text
            # drawn upright: only then asked
            band = _glyph_band(raw, i, (bottom, top), ch, last, bare)
            if band is not None:  # (None: nothing to judge it by, and no reference for the next)
                bottom, top = last = band
                sized = bare
        else:
            last = (bottom, top)
        x_a, x_b = a * left + b * bottom + c, a * right + b * top + c
        y_a, y_b = d * left + e * bottom + f, d * right + e * top + f
        x0, x1 = (x_a, x_b) if x_a <= x_b else (x_b, x_a)
        y0, y1 = (y_a, y_b) if y_a <= y_b else (y_b, y_a)
        # the loose box height is the size as printed: the nominal size ignores scaling
        char = Char(text, x0, y0, x1, y1, y1 - y0, style[0], style[1], sized)
        if generated is not None and generated >= 0:
            _drop_false_space(chars, generated, char)
            if len(chars) > generated and _as_close_as_its_letters(chars, generated, char):
                inside.append(generated)
        generated = None
        chars.append(char)
    if inside and own_spaces >= 20 and 2 * own_spaces >= made_up:
        _inside_words(chars, inside)
    return compose_accents(chars) if accents else chars


def _as_close_as_its_letters(chars: list[Char | None], at: int, char: Char) -> bool:
    """A break pdfium made up between two letters of one line (or a letter and the stop after
    it), no wider apart than the two letters before it and under a fifth of an em: inside a
    word, if the page writes its own spaces (see ``_inside_words``)."""
    if at < 2 or not all(c is None for c in chars[at:]):
        return False
    prev, before = chars[at - 1], chars[at - 2]
    if prev is None or before is None or not (prev.text.isalpha() and before.text.isalpha()
                                              and (char.text.isalpha() or char.text in ".,;:")):
        return False
    if not (prev.y0 <= (char.y0 + char.y1) / 2 <= prev.y1):
        return False  # a new line
    em = max(prev.size, char.size, 1.0)
    gap, letters = char.x0 - prev.x1, prev.x0 - before.x1
    # (a break narrower than the letters before it is a scan's word space squeezed, "operationsand")
    return -0.05 * em <= gap < 0.2 * em and gap <= max(1.5 * letters, 0.05 * em) and gap >= 0.85 * letters


def _inside_words(chars: list[Char | None], inside: list[int]) -> None:
    """Drop the breaks pdfium made up inside words on a page that writes its own spaces.

    A scanner's OCR layer (IJCAI's proceedings) writes a space between its words, and draws
    a word's last letter apart, where pdfium then makes up a space as close as the letters
    around it: "Car l", "Projec t MAC", "provin g theorems", the title and the byline lost to
    the lexical index and to the record. On a page that writes spaces of its own (20 or more,
    and at least half as many as pdfium makes up), a break pdfium made up between letters as
    far apart as the word's are is no space. (A page with no spaces of its own, as LaTeX
    writes them, is left alone.)"""
    for at in reversed(inside):
        end = at
        while end < len(chars) and chars[end] is None:
            end += 1
        del chars[at:end]


#: A letter's glyph height as a share of the loose box a font with metrics gives it
#: (median over four born-digital PDFs, Computer Modern, Times, Arial): x-height letters,
#: letters with a descender, i and j; capitals, digits, ascenders and the rest 0.72.
#: letters no taller than the x-height, in every font, and letters as tall as a capital
_X_HEIGHT = frozenset("acemnorsuvwxz")
_TALL = frozenset("bdhiklt") | frozenset("ABCDEFGHIKLMNOPRSTUVWXYZ")
_GLYPH_SHARE = {**dict.fromkeys(_X_HEIGHT, 0.49), **dict.fromkeys("gpqy", 0.70), "i": 0.6, "j": 0.83}
_ASCENT = 0.77  # the baseline's height in the loose box, from its bottom: 1 - 0.77
_FULL_TURN = 2 * math.pi


BARE, CAPPED, PLAIN = "bare", "capped", "plain"  # how a font scaled from 1 pt boxes its letters (_font_kind)


def _font_kind(tp: int | None, raw: pdfium_c.FPDF_TEXTPAGE, start: int, obj: int, count: int) -> str | None:
    """How the text object ``obj``'s font boxes its letters, judged before its first letter
    is sized (a title's "Side" in a font judged at its "e"): BARE, CAPPED or PLAIN; None when
    the object has not a letter of each height.

    BARE: each letter boxed to its glyph. Old dvips output's bitmap Type 3 fonts come so
    (pdfium found no ascent over a descent it could use), and their boxes measure each
    letter, not the type, so a title's lower-case letters came out smaller than the capitals
    and digits of an address under it ("Fairfax, VA 22303" read as the page's largest type
    over "Using Approximations to Scale Exploratory Data"). Such a font's loose boxes grow
    with the glyph: a capital's half again an x-height letter's, where a font with metrics,
    even one with no descent or a low ascent, gives every letter one box.

    CAPPED: one box for every letter, but from the baseline to the capitals' top, no descent
    under it and no room over it: other dvips fonts come so, and their type measured a cap
    height, two thirds of its size, so a contract report's 17 pt title read smaller than the
    12 pt "Prepared For:" under it."""
    rect = pdfium_c.FS_RECTF()
    short = tall = 0.0
    capped = False
    for j in range(start, count):
        other = _GET_TEXT_OBJECT(tp, j)
        if other is not None and other != obj:
            break
        letter = chr(_GET_UNICODE(tp, j)) if other is not None else ""
        kind = letter in _X_HEIGHT and not short or letter in _TALL and not tall
        if kind and _GET_BOX(tp, j, ctypes.addressof(rect)):
            left, top, right, bottom = _RECT.unpack_from(rect)
            if letter in _X_HEIGHT:
                short = top - bottom
            else:
                tall = top - bottom
                capped = _from_baseline_to_glyph_top(raw, j, bottom, top)
            if short > 0 and tall > 0:
                return BARE if tall > 1.25 * short else CAPPED if capped and tall < 1.05 * short else PLAIN
    return None


def _lost_c(tp: int | None, raw: pdfium_c.FPDF_TEXTPAGE, index: int, count: int, c_fonts: list[set[int]]) -> bool:
    """Whether an inked carriage return is a "c". Ghostscript's ps2pdf wrote the /ToUnicode of
    dvips' Type 3 fonts with the code of "c" mapped to U+000D, so every "c" of such a font
    came out a line break ("Mer ury", "Fun tional Rea tive Programming"). It is a "c" when
    its font prints no "c" of its own on the page (where it does, code 13 is OT1's "fl", see
    glyphs.ligature_glyph) and its glyph stands as tall as an x-height letter of its word near it, no taller (a
    slide's tab and carriage return between words are no ink: "FreeBSD and GDB").
    ``c_fonts`` holds the page's fonts with a "c", gathered at the first such character."""
    obj = _GET_TEXT_OBJECT(tp, index)
    font = _GET_FONT(obj) if obj is not None else None
    if font is None:
        return False
    if not c_fonts:
        own: set[int] = set()
        for j in range(count):
            if _GET_UNICODE(tp, j) == 0x63:
                other = _GET_TEXT_OBJECT(tp, j)
                if other is not None and (other_font := _GET_FONT(other)) is not None:
                    own.add(other_font)
        c_fonts.append(own)
    if font in c_fonts[0]:
        return False
    top = _glyph_top(raw, index)
    beside = [_glyph_top(raw, j) for j in (index - 3, index - 2, index - 1, index + 1, index + 2, index + 3)
              if 0 <= j < count and chr(_GET_UNICODE(tp, j)) in _X_HEIGHT and _GET_TEXT_OBJECT(tp, j) == obj]
    return top is not None and any(b is not None and b[1] > b[0] and 0.7 * (b[1] - b[0]) <= top[1] - top[0] <= 1.15 * (b[1] - b[0])
                                   for b in beside)


def _glyph_top(raw: pdfium_c.FPDF_TEXTPAGE, index: int) -> tuple[float, float] | None:
    """A character's baseline and its glyph's top (page units), None where pdfium gives neither."""
    baseline = _baseline(raw, index)
    g_left, g_right, g_bottom, g_top = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    if baseline is None or not pdfium_c.FPDFText_GetCharBox(raw, index, g_left, g_right, g_bottom, g_top):
        return None
    return baseline, g_top.value


def _from_baseline_to_glyph_top(raw: pdfium_c.FPDF_TEXTPAGE, index: int, bottom: float, top: float) -> bool:
    """Whether a tall letter's loose box runs from its baseline to its glyph's top (CAPPED)."""
    g_left, g_right, g_bottom, g_top = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    baseline = _baseline(raw, index)
    height = top - bottom
    if baseline is None or height <= 0 or not pdfium_c.FPDFText_GetCharBox(raw, index, g_left, g_right, g_bottom, g_top):
        return False
    return abs(bottom - baseline) <= 0.02 * height and abs(top - g_top.value) <= 0.04 * height


def _capped_band(raw: pdfium_c.FPDF_TEXTPAGE, index: int, top: float) -> tuple[float, float] | None:
    """A CAPPED font's letter boxed as a font with metrics would box it: its loose top is the
    capitals' height over its baseline, 0.72 of the size (_GLYPH_SHARE's tall letters)."""
    baseline = _baseline(raw, index)
    if baseline is None or top <= baseline:
        return None
    size = (top - baseline) / 0.72
    return baseline - (1 - _ASCENT) * size, baseline + _ASCENT * size


def _baseline(raw: pdfium_c.FPDF_TEXTPAGE, index: int) -> float | None:
    x, y = ctypes.c_double(), ctypes.c_double()
    return y.value if pdfium_c.FPDFText_GetCharOrigin(raw, index, x, y) else None


def _glyph_band(raw: pdfium_c.FPDF_TEXTPAGE, index: int, loose: tuple[float, float], ch: str,
                before: tuple[float, float], bare: bool = False) -> tuple[float, float] | None:
    """The bottom and top of a character's box: its loose box's, unless that box is the
    font's and not the glyph's; None when there is nothing to judge that by. A bitmap Type 3
    font from dvips and Ghostscript declares a FontBBox of 1000 of its 0.12 pt pixels, so
    pdfium gives every character of some of its words a 120 pt box beside 9 pt glyphs:
    sized so, a word space is never seen ("ErikMeijer", "associatedwithdatatype") and a
    byline reads as the page's largest type.

    A letter's glyph is at least two fifths of its loose box in every font measured (the
    x-height, 0.47), so a box over five times the glyph is the font's: the letter gets the
    box a font with metrics would give it, from its glyph's height and kind (an x-height
    letter's box is twice its glyph) around its baseline, so the letters of a word share
    one size. A mark's glyph can be a tenth of its box in any font, so a mark is judged
    only when its box is five times the character's ``before`` it too: on that
    character's baseline (a comma after its word) it takes that one's band, else its
    glyph's own (a dash of a large title after a small running head; a quote opening the
    next line).

    ``bare``: the font gives every character its glyph's box (``_font_kind``), so
    every letter is sized from its glyph and every mark judged by its baseline."""
    bottom, top = loose
    height = top - bottom
    letter = ch.isalnum()
    if not letter and before[1] <= before[0]:
        return None
    if not letter and not bare and height <= 5 * (before[1] - before[0]):
        return loose
    g_left, g_right, g_bottom, g_top = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    x, y = ctypes.c_double(), ctypes.c_double()
    if not pdfium_c.FPDFText_GetCharBox(raw, index, g_left, g_right, g_bottom, g_top) \
            or not pdfium_c.FPDFText_GetCharOrigin(raw, index, x, y):
        return None
    glyph = g_top.value - g_bottom.value
    if glyph <= 0:
        return None
    if glyph >= height / 5 and not bare:
        return loose  # a big bracket, a drop capital: the box is the glyph's
    baseline = y.value  # the origin: the baseline, whatever the letter's descender
    span = before[1] - before[0]
    if bare and span > 0 and 0.2 * span < baseline - (before[0] + (1 - _ASCENT) * span) < 0.7 * span:
        # raised over the character before: a script, its size its glyph's (a symbol
        # font's dagger is its "z", and no x-height letter)
        return g_bottom.value, g_top.value
    if letter:
        size = glyph / _GLYPH_SHARE.get(ch, 0.72)
        return baseline - (1 - _ASCENT) * size, baseline + _ASCENT * size
    if abs(baseline - (before[0] + (1 - _ASCENT) * span)) <= 0.25 * span:
        return before
    return g_bottom.value, g_top.value


#: Accents TeX and older PDFs draw as glyphs of their own over a letter (after NFKC:
#: a space and the combining mark, or a modifier letter) → the combining mark.
_ACCENTS = {" \u0301": "\u0301", " \u0300": "\u0300", "`": "\u0300", " \u0303": "\u0303",
            " \u0308": "\u0308", "\u02c6": "\u0302", "^": "\u0302", "\u02c7": "\u030c",
            " \u0327": "\u0327", " \u030a": "\u030a", " \u0304": "\u0304", " \u0306": "\u0306",
            " \u0307": "\u0307", " \u030b": "\u030b"}


def compose_accents(chars: list[Char | None]) -> list[Char | None]:
    """Put a separately drawn accent on the letter under it: "Joao Leit ̃ao" → "João
    Leitão", "Lu ́ıs" → "Luís". The accent is found by position (its centre over a letter
    of the same line nearby), never by order: pdfium reports it before or after the
    letter, sometimes a word away. The break pdfium put where the accent was goes too
    when the letters on both sides of it touch."""
    out = list(chars)
    taken: list[int] = []
    for k, ch in enumerate(out):
        if ch is None or ch.text not in _ACCENTS:
            continue
        centre = (ch.x0 + ch.x1) / 2
        best: tuple[float, int] | None = None
        for j in range(max(0, k - 12), min(len(out), k + 13)):
            letter = out[j]
            if j == k or letter is None or len(letter.text) != 1 or not letter.text.isalpha() \
                    or min(ch.y1, letter.y1) <= max(ch.y0, letter.y0):
                continue
            off = abs((letter.x0 + letter.x1) / 2 - centre)
            if off <= 0.75 * max(letter.x1 - letter.x0, 1.0) and (best is None or off < best[0]):
                best = (off, j)
        if best is not None:
            letter = out[best[1]]
            assert letter is not None
            base = "i" if letter.text == "\u0131" else "j" if letter.text == "\u0237" else letter.text
            letter.text = unicodedata.normalize("NFC", base + _ACCENTS[ch.text])
            out[k] = None
            taken.append(k)
    if not taken:
        return out
    near = {i for k in taken for i in range(k - 2, k + 3)}
    kept: list[Char | None] = []
    for i, ch in enumerate(out):
        if ch is None and i in near and kept and kept[-1] is not None:
            after = next((c for c in out[i + 1:i + 4] if c is not None), None)
            before = kept[-1]
            if after is not None and before.text.isalpha() and after.text[:1].isalpha() \
                    and abs(after.x0 - before.x1) < 0.15 * max(before.size, 1.0):
                continue  # a break inside a word, where the accent was
        kept.append(ch)
    return kept


def _font_name(tp: int | None, raw: pdfium_c.FPDF_TEXTPAGE, index: int, fonts: dict[int, str]) -> str:
    """``font_name`` of character ``index``, asked once per text object (the font is the
    object's)."""
    obj = _GET_TEXT_OBJECT(tp, index)
    if obj is None:
        return font_name(raw, index)
    name = fonts.get(obj)
    if name is None:
        name = fonts[obj] = font_name(raw, index)
    return name


def _drop_false_space(chars: list[Char | None], at: int, char: Char) -> None:
    """pdfium makes up a space or a line break where the size or baseline changes (an
    exponent after its base: d 2 for d², P E for PE) although the glyphs touch.

    Only at a script boundary, or with no gap at all: between words of one size pdfium's
    spaces are real even when the boxes nearly touch (the j of "of judgment" reaches left).
    """
    prev = chars[at - 1] if at > 0 else None
    if prev is None:
        return
    # min(prev.y1, char.y1) <= max(prev.y0, char.y0), spelt out: this runs for every
    # generated space of the page
    low = char.y1 if char.y1 < prev.y1 else prev.y1
    high = char.y0 if char.y0 > prev.y0 else prev.y0
    if low <= high or not all(c is None for c in chars[at:]):
        return
    em = char.size if char.size > prev.size else prev.size
    right, left = char.x0 - prev.x1, prev.x0 - char.x1
    gap = left if left > right else right
    if not gap < 0.1 * em:
        return  # wider than either limit below
    # the nominal size must change too: some fonts give every glyph a box of its own height
    trusted = min(prev.font, char.font) >= 3.0  # a 1 pt font scaled by the text matrix says nothing
    # a script sits off the baseline (the box's bottom less its descender, about a fifth);
    # a large chapter number beside a word shares it and keeps its space
    baselines = abs((prev.y1 - 0.22 * prev.size) - (char.y1 - 0.22 * char.size))
    script = (not trusted or min(prev.font, char.font) < 0.85 * max(prev.font, char.font)) \
        and min(prev.size, char.size) < 0.85 * em and baselines > 0.1 * em
    if gap < (0.1 if script else 0.04) * em:
        del chars[at:]


def _upright_angle(raw: pdfium_c.FPDF_TEXTPAGE) -> float:
    """The angle most characters are drawn at: text at any other angle is marginal."""
    count = pdfium_c.FPDFText_CountChars(raw)
    tp = ctypes.cast(raw, ctypes.c_void_p).value
    angles = [round(_GET_ANGLE(tp, i), 1) for i in range(0, count, 7)]
    angles = [a for a in angles if a >= 0]
    return Counter(angles).most_common(1)[0][0] if angles else 0.0


def _turned(angle: float, upright: float) -> bool:
    if angle < 0:  # pdfium could not tell
        return False
    diff = abs(angle - upright) % (2 * math.pi)
    return min(diff, 2 * math.pi - diff) > 0.1


def fragments(chars: list[Char | None]) -> list[Fragment]:
    """Split pdfium's character stream where the baseline changes or a wide gap opens.

    The gap is measured in either direction: right-to-left scripts come from pdfium in
    logical order, each character left of the one before. Wider than an em is a new
    fragment (column gutter, table cell); a fifth of an em is a word space.
    """
    runs: list[list[Char]] = []
    current: list[Char] = []
    space_pending = False
    for ch in chars:
        if ch is None:
            space_pending = True
            continue
        if current:
            prev = current[-1]
            right, left = ch.x0 - prev.x1, prev.x0 - ch.x1
            gap = left if left > right else right  # max(), spelt out: this runs per character
            em = ch.size if ch.size > 4.0 else 4.0  # size is the loose box height
            if gap > em or not (prev.y0 <= (ch.y0 + ch.y1) / 2 <= prev.y1
                                or ch.y0 <= (prev.y0 + prev.y1) / 2 <= ch.y1):  # _same_line
                runs.append(current)
                current = []
            elif space_pending or gap > 0.2 * em and not _inside_a_word(current, ch, gap):
                end = ch.x0 if ch.x0 > prev.x1 else prev.x1  # max(prev.x1, ch.x0)
                current.append(Char(" ", prev.x1, prev.y0, end, prev.y1, prev.size, prev.bold))
        space_pending = False
        current.append(ch)
    if current:
        runs.append(current)
    return [strip_spaces(run) for run in runs if any(c.text != " " for c in run)]


def _inside_a_word(current: list[Char], ch: Char, gap: float) -> bool:
    """A font with no metrics (a bitmap font of old dvips output, scaled from 1 pt) gives
    each glyph the tight box of its ink: an x-height letter's height is no em, and letters
    stand apart by their side bearings ("Fred D ougli s", "Pro c e s s", "su c cesses h ave
    b een"). Between two such letters, where the heights of the letters just before differ
    so, the tallest is the em and a word space is wider than 0.3 of it (spaces around signs
    and digits, "w, F = f", are judged as before)."""
    prev = current[-1]
    if not (ch.font < 3.0 and prev.font < 3.0 and ch.text.isalpha() and prev.text.isalpha()) or ch.sized or prev.sized:
        return False  # (letters sized from their glyphs have their em: "Kanupriya Tewary")
    sizes = [c.size for c in current[-8:] if c.text.isalpha()] + [ch.size]
    tallest = max(sizes)
    return tallest > 1.3 * min(sizes) and gap <= 0.3 * tallest


def _same_line(prev: Char, ch: Char) -> bool:
    mid = (ch.y0 + ch.y1) / 2
    prev_mid = (prev.y0 + prev.y1) / 2
    return prev.y0 <= mid <= prev.y1 or ch.y0 <= prev_mid <= ch.y1


def strip_spaces(chars: list[Char]) -> Fragment:
    start, stop = 0, len(chars)
    while start < stop and chars[start].text == " ":
        start += 1
    while stop > start and chars[stop - 1].text == " ":
        stop -= 1
    return Fragment(chars[start:stop])
