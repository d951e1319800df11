"""Symbol-font glyphs pdfium can only report by their code: map them to what is printed.

TeX's math and text fonts (Computer Modern and its Type 1 clones) put Greek letters and
symbols on the codes 0–31. A PDF that embeds such a font without a /ToUnicode entry for a
glyph leaves pdfium nothing but the code, so the Attention paper's ϵ (CMMI10, code 15)
came out as the control character U+000F: invisible on screen, a broken word for the
lexical index. The tables below are the fonts' published encodings (OML for math
italic, OMS for symbols, OMX for extensions, OT1 for text) for exactly those codes; a
control code in any other font is dropped rather than indexed.
"""

from __future__ import annotations

import ctypes
import re

import pypdfium2.raw as pdfium_c

# code 0..31 → character, per TeX font encoding
_OML = "ΓΔΘΛΞΠΣΥΦΨΩαβγδϵζηθικλμνξπρστυϕχ"
_OMS = "−·×∗÷⋄±∓⊕⊖⊗⊘⊙◯∘•≍≡⊆⊇≤≥⪯⪰∼≈⊂⊃≪≫≺≻"
_OMX = "()[]⌊⌋⌈⌉{}⟨⟩|‖/\\()()[]⌊⌋⌈⌉{}⟨⟩/\\"
_OT1 = ["Γ", "Δ", "Θ", "Λ", "Ξ", "Π", "Σ", "Υ", "Φ", "Ψ", "Ω", "ff", "fi", "fl", "ffi", "ffl",
        "ı", "ȷ", "`", "´", "ˇ", "˘", "¯", "˚", "¸", "ß", "æ", "œ", "ø", "Æ", "Œ", "Ø"]
#: font family (subset prefix and size stripped, upper case) → its table
_TABLES: list[tuple[re.Pattern[str], list[str] | str]] = [
    (re.compile(r"^(CMMI|CMMIB|EUFM|LMMATHITALIC|RMTMI|MTMI)"), _OML),
    (re.compile(r"^(CMSY|CMBSY|LMMATHSYMBOLS|RMTMS|MTSY)"), _OMS),
    (re.compile(r"^(CMEX|LMMATHEXTENSION|MTEX)"), _OMX),
    (re.compile(r"^(CMR|CMBX|CMTI|CMSL|CMSS|CMBXTI|CMCSC|CMDUNH|CMFIB|CMU|SFRM|SFBX|SFTI|LMROMAN|LMSANS)"), _OT1),
]
_SUBSET = re.compile(r"^[A-Z]{6}\+")


def is_control(code: int) -> bool:
    """C0 and C1 control codes (tab, line feed and carriage return included)."""
    return code < 0x20 or 0x7F <= code <= 0x9F


def font_name(textpage: pdfium_c.FPDF_TEXTPAGE, index: int) -> str:
    """The base font name of character ``index``, without the subset tag ("CMMI10")."""
    buffer = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    length = pdfium_c.FPDFText_GetFontInfo(textpage, index, buffer, len(buffer), ctypes.byref(flags))
    if not length:
        return ""
    return _SUBSET.sub("", buffer.value.decode("latin-1", "replace")).upper()


def symbol_glyph(font: str, code: int) -> str | None:
    """What a control ``code`` in ``font`` prints, or None when the font is not one we know."""
    if code >= 0x20:
        return None
    for pattern, table in _TABLES:
        if pattern.match(font):
            return table[code]
    return None


def ligature_glyph(code: int, before: str, after: str) -> str | None:
    """A TeX text font of no name we know (a dvips Type 3 font) sets its ligatures ff, fi,
    ffi and ffl on the codes 11, 12, 14 and 15 (OT1): such a code inside a word, a letter
    before it or two small letters after it, is that ligature ("Uni\\x0ced" is "Unified" in
    Predicate Dispatching's title). Code 13 (OT1's fl) is left out: pdfium reports it as a
    carriage return, and other fonts put other letters there (the FrTime report's "c")."""
    if code in (0x0B, 0x0C, 0x0E, 0x0F) and after[:1].isalpha() and after[:1].islower() and \
            (before.isalpha() or after[1:2].isalpha()):
        return _OT1[code]
    return None
