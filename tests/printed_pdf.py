"""A one-page PDF that prints what a test needs on its first page, with its /Info fields.

A PDF's /Title and /Author count only where its first page prints them (athena_lab/pdf/meta.py),
so a hostile title or author reaches a citation by being printed: these PDFs print them,
large for a title, in Helvetica's standard encoding (a real text layer, no OCR)."""

from __future__ import annotations

from typing import Any


def _pdf_string(text: str) -> str:
    return "(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def printed_pdf(lines: list[tuple[str, float]], info: dict[str, str]) -> bytes:
    """The page prints each ``(text, font size)`` on a line of its own, top down; ``info``
    becomes the document's /Info dictionary (``{"Title": …, "Author": …}``)."""
    content, y = "BT\n", 720.0
    for text, size in lines:
        content += f"/F1 {size} Tf 1 0 0 1 72 {y:.1f} Tm {_pdf_string(text)} Tj\n"
        y -= size * 1.6
    content += "ET"
    fields = " ".join(f"/{key} {_pdf_string(value)}" for key, value in info.items())
    objects = ["<< /Type /Catalog /Pages 2 0 R >>",
               "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> "
               "/Contents 5 0 R >>",
               "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
               f"<< /Length {len(content.encode('latin-1'))} >>\nstream\n{content}\nendstream",
               f"<< {fields} >>"]
    return pdf_file(objects, "/Info 6 0 R")


def pdf_file(objects: list[str], trailer: str = "") -> bytes:
    """A PDF of ``objects`` (object 1 first, the catalog) with a correct cross-reference table."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R {trailer}>>\n"
            f"startxref\n{xref}\n%%EOF\n").encode()
    return bytes(out)


def tall_box_pdf(lines: list[tuple[float, list[str]]], ascent: int = 9000) -> bytes:
    """A one-page PDF whose font declares an ascent of ``ascent`` units (its glyphs reach
    600): pdfium's box for each character is then the font's, many times the glyph, as for
    dvips's bitmap Type 3 fonts. Each ``(size, words)`` is a line, each word placed apart."""
    content, y = "BT\n", 720.0
    for size, words in lines:
        x = 72.0
        for word in words:
            content += f"/F1 {size} Tf 1 0 0 1 {x:.2f} {y:.2f} Tm ({word}) Tj\n"
            x += 0.6 * size * len(word) + 0.3 * size  # Courier: 600 units a letter, a word space of 0.3 em
        y -= 1.5 * size
    content += "ET"
    widths = " ".join("600" for _ in range(32, 127))
    objects = ["<< /Type /Catalog /Pages 2 0 R >>",
               "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> "
               "/Contents 5 0 R >>",
               f"<< /Type /Font /Subtype /Type1 /BaseFont /Courier /FirstChar 32 /LastChar 126 /Widths [{widths}] "
               "/FontDescriptor 6 0 R >>",
               f"<< /Length {len(content)} >>\nstream\n{content}\nendstream",
               f"<< /Type /FontDescriptor /FontName /Courier /Flags 32 /FontBBox [0 -200 600 {ascent}] /ItalicAngle 0 "
               f"/Ascent {ascent} /Descent -200 /CapHeight 600 /StemV 80 >>"]
    return pdf_file(objects)


_X_HEIGHT, _DESCENDER = "acemnorsuvwxz", "gjpqy"


def glyph_box_pdf(lines: list[tuple[float, list[str | tuple[str, float, float]] | str]], daggers: str = "",
                  unicode: dict[str, str] | None = None, blank: str = "") -> bytes:
    """A one-page PDF set as old dvips output sets its bitmap Type 3 fonts: a font matrix
    that turns the glyphs upside down (FontMatrix [1 0 0 -1 0 0]) and a text matrix that
    turns them back, so pdfium boxes each character to its own glyph, not the font's ascent
    to descent: an x-height letter stands lower than a capital of the same type. A
    glyph is a filled box of its letter's height in an em of 50 units (x-height 22, capitals,
    digits and ascenders 34, a descender's 22 down to -10; a letter of ``daggers`` is TeX's
    symbol font's dagger in its place, 34 down to -10), 30 wide; each ``(size, words)`` is a
    line, each word placed apart; a word ``(text, size, rise)`` is set in its own size, raised
    by ``rise`` points, right after the word before (a footnote's mark). A line whose words
    are one string is set in Times-Roman, a font with metrics.

    pdfium boxes such a font's letters either from the baseline to the FontBBox's top or each
    to its glyph, as the letters on the page fall: the tests assert the sizes and records a
    reader gets, not which kind the font was judged. ``unicode`` maps a letter's code to
    another character in the /ToUnicode (ps2pdf's "c" to a carriage return); a letter of
    ``blank`` is drawn as a sliver one unit high, as good as no ink (a slide's tab)."""
    letters = sorted({ch for _, words in lines if not isinstance(words, str)
                      for word in words for ch in (word if isinstance(word, str) else word[0])})
    content, y = "BT\n", 720.0
    for size, words in lines:
        if isinstance(words, str):
            content += f"/F3 {size} Tf 1 0 0 1 72 {y:.2f} Tm {_pdf_string(words)} Tj\n"
            y -= 1.6 * size
            continue
        x = 72.0
        for word in words:
            text, own, rise = (word, size, 0.0) if isinstance(word, str) else word
            x -= 0 if isinstance(word, str) else 0.3 * size  # a mark touches its word
            content += f"/F1 1 Tf {own / 50:.4f} 0 0 {-own / 50:.4f} {x:.2f} {y + rise:.2f} Tm {_pdf_string(text)} Tj\n"
            x += 0.6 * own * len(text) + 0.3 * size
        y -= 1.6 * size
    content += "ET"

    def glyph(ch: str) -> str:
        bottom, top = (-10, 34) if ch in daggers else (-10, 22) if ch in _DESCENDER else (0, 22) if ch in _X_HEIGHT else (0, 34)
        if not ch.isalnum():
            bottom, top = (-6, 4) if ch in ",;" else (0, 4)
        body = "30 0 2 0 28 1 d1 2 0 24 1 re f" if ch in blank else f"30 0 2 {bottom} 28 {top} d1 2 {bottom} 24 {top - bottom} re f"
        return f"<< /Length {len(body)} >>\nstream\n{body}\nendstream"

    names = {ch: f"g{ord(ch)}" for ch in letters}
    first, last = ord(letters[0]), ord(letters[-1])
    procs = " ".join(f"/{names[ch]} {7 + k} 0 R" for k, ch in enumerate(letters))
    differences = " ".join(f"{ord(ch)} /{names[ch]}" for ch in letters)
    cmap = ("/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Glyphs def "
            "1 begincodespacerange <00> <FF> endcodespacerange "
            f"{len(letters)} beginbfchar " + " ".join(f"<{ord(ch):02X}> <{ord((unicode or {}).get(ch, ch)):04X}>"
                                                      for ch in letters) +
            " endbfchar endcmap CMapName currentdict /CMap defineresource pop end end")
    objects = ["<< /Type /Catalog /Pages 2 0 R >>",
               "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R "
               f"/F3 {7 + len(letters)} 0 R >> >> /Contents 5 0 R >>",
               "<< /Type /Font /Subtype /Type3 /FontBBox [2 -10 28 34] /FontMatrix [1 0 0 -1 0 0] "
               f"/CharProcs << {procs} >> /Encoding << /Type /Encoding /Differences [{differences}] >> "
               f"/FirstChar {first} /LastChar {last} /Widths [{' '.join('30' for _ in range(first, last + 1))}] "
               "/ToUnicode 6 0 R >>",
               f"<< /Length {len(content.encode('latin-1'))} >>\nstream\n{content}\nendstream",
               f"<< /Length {len(cmap)} >>\nstream\n{cmap}\nendstream",
               *(glyph(ch) for ch in letters),
               "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>"]
    return pdf_file(objects)


def letter_spaced_pdf(lines: list[str], size: float = 7.0, spacing: float = 1.2) -> bytes:
    """A one-page PDF set as a scanner's OCR layer sets its words (IJCAI's proceedings): the
    file writes its own spaces, and each word of four letters or more is drawn letter-spaced
    (``spacing`` points of character spacing) but for its last letter, drawn apart at no
    spacing. pdfium makes up a space before that letter ("Projec t MAC")."""
    content, y = "", 720.0
    for line in lines:
        content += f"BT 1 0 0 1 72 {y:.2f} Tm /F1 {size} Tf "
        for k, word in enumerate(line.split()):
            lead = " " if k else ""
            if len(word) >= 4:
                content += f"{spacing} Tc {_pdf_string(lead + word[:-1])} Tj 0 Tc {_pdf_string(word[-1])} Tj "
            else:
                content += f"0 Tc {_pdf_string(lead + word)} Tj "
        content += "ET\n"
        y -= 1.5 * size
    objects = ["<< /Type /Catalog /Pages 2 0 R >>",
               "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> "
               "/Contents 5 0 R >>",
               "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>",
               f"<< /Length {len(content.encode('latin-1'))} >>\nstream\n{content}\nendstream"]
    return pdf_file(objects)


def placed_words_pdf(lines: list[list[str]], size: float = 10.0, space: float = 0.25) -> bytes:
    """A one-page PDF whose words are each placed on their own, no space character in the
    file (as LaTeX writes a page), ``space`` em apart: every word space is one pdfium makes up."""
    content, y = "BT\n", 720.0
    for words in lines:
        x = 72.0
        for word in words:
            content += f"/F1 {size} Tf 1 0 0 1 {x:.2f} {y:.2f} Tm {_pdf_string(word)} Tj\n"
            x += 0.6 * size * len(word) + space * size  # Courier: 600 units a letter
        y -= 1.5 * size
    content += "ET"
    objects = ["<< /Type /Catalog /Pages 2 0 R >>",
               "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> "
               "/Contents 5 0 R >>",
               "<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>",
               f"<< /Length {len(content.encode('latin-1'))} >>\nstream\n{content}\nendstream"]
    return pdf_file(objects)


def outlined_pdf(lines: list[tuple[str, int]]) -> bytes:
    """A one-page PDF whose text is drawn as outlines, no characters: each ``(text, pixel
    size)`` is drawn by Pillow's own font, then every run of dark pixels of a row becomes a
    filled rectangle of its own — thousands of paths, as a paper whose fonts were turned
    into curves has, and no text layer at all."""
    scale = 2  # pixels a point
    image = _drawn_page(lines, scale)
    pixels = image.load()
    rects = []
    for row in range(image.height):
        col = 0
        while col < image.width:
            if pixels[col, row] < 128:
                start = col
                while col < image.width and pixels[col, row] < 128:
                    col += 1
                rects.append(f"{start / scale:.1f} {792 - (row + 1) / scale:.1f} {(col - start) / scale:.1f} "
                              f"{1 / scale:.1f} re f")
            col += 1
    content = "0 g\n" + "\n".join(rects)
    objects = ["<< /Type /Catalog /Pages 2 0 R >>",
               "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
               f"<< /Length {len(content)} >>\nstream\n{content}\nendstream"]
    return pdf_file(objects)


def stamped_scan_pdf(lines: list[tuple[str, int]], stamp: str, box: tuple[int, int, int, int] = (0, 0, 612, 792),
                     caption: str = "") -> bytes:
    """A one-page scan: each ``(text, pixel size)`` drawn by Pillow's own font into one
    grey image over the whole page, and ``stamp`` the only characters of its text layer, a
    publisher's download line at the foot (IEEE Xplore stamps the old scans it serves so).
    ``box`` (x, y, width, height) sets the image smaller, a figure, and ``caption`` prints a
    line of text under it: a born-digital page with a picture."""
    import zlib

    image = _drawn_page(lines, 2)
    pixels = zlib.compress(image.tobytes())
    x, y, w, h = box
    content = f"q {w} 0 0 {h} {x} {y} cm /Im1 Do Q\nBT /F1 7 Tf 1 0 0 1 60 20 Tm {_pdf_string(stamp)} Tj ET"
    if caption:
        content += f"\nBT /F1 9 Tf 1 0 0 1 72 {y - 14} Tm {_pdf_string(caption)} Tj ET"
    objects = ["<< /Type /Catalog /Pages 2 0 R >>",
               "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
               "/Resources << /Font << /F1 4 0 R >> /XObject << /Im1 5 0 R >> >> /Contents 6 0 R >>",
               "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
               f"<< /Type /XObject /Subtype /Image /Width {image.width} /Height {image.height} /ColorSpace /DeviceGray "
               f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(pixels)} >>\nstream\n"
               f"{pixels.decode('latin-1')}\nendstream",  # (latin-1 carries the bytes through as they are)
               f"<< /Length {len(content)} >>\nstream\n{content}\nendstream"]
    return pdf_file(objects)


def _drawn_page(lines: list[tuple[str, int]], scale: int) -> Any:
    """A white Letter page ``scale`` pixels a point, each ``(text, pixel size)`` drawn on
    it in black by Pillow's own font, top down."""
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("L", (612 * scale, 792 * scale), 255)
    draw = ImageDraw.Draw(image)
    y = 120
    for text, size in lines:
        draw.text((144, y), text, fill=0, font=ImageFont.load_default(size=size))
        y += int(size * 1.8)
    return image
