"""Title, authors and year from a first page: the error classes found on the archive's
dev papers (bench/archive_metadata.py, split dev), each pinned on a page built from the
lines pdfium gave for that paper (positions and sizes as read)."""

from __future__ import annotations

import pytest

from athena_lab.pdf.layout import Line
from athena_lab.pdf.meta import page_year, paper_record
from athena_lab.pdf.pages import PageText

pytestmark = pytest.mark.unit


def line(text: str, x0: float, y0: float, x1: float, y1: float, size: float,
         cells: list[str] | None = None) -> Line:
    return Line(text=text, boxes=[], bbox=(x0, y0, x1, y1), size=size, bold=False, cells=cells or [text])


def page(*lines: Line) -> PageText:
    return PageText(number=1, width=612, height=792, lines=list(lines))


BODY = [line("Abstract", 274, 300, 317, 310, 10.0),
        *(line("Some prose of the paper's abstract, set in the body type of the page.", 72, 320 + 12 * i,
               540, 330 + 12 * i, 10.0) for i in range(20))]


def test_a_name_before_its_affiliation_on_one_line_is_the_author() -> None:
    """Hughes: "John Hughes, Institutionen för Datavetenskap," and the next lines an address
    ("Chalmers Tekniska Högskola," was read as a person)."""
    first = page(line("Why Functional Programming Matters", 171, 164, 440, 180, 16.3),
                 line("John Hughes, Institutionen för Datavetenskap,", 186, 197, 425, 208, 11.4),
                 line("Chalmers Tekniska Högskola,", 231, 210, 380, 222, 11.4),
                 line("41296 Göteborg,", 263, 224, 348, 236, 11.4), *BODY)
    assert paper_record({}, first).authors == ["John Hughes"]


def test_and_glued_to_a_surname_still_parts_two_people() -> None:
    """Damas–Milner: a footnote mark taken out leaves "Luis Damasand Robin Milner"."""
    first = page(line("Principal type-schemes for functional programs", 129, 164, 464, 182, 17.5),
                 line("Luis Damasand Robin Milner", 222, 210, 371, 222, 12.1), *BODY)
    assert paper_record({}, first).authors == ["Luis Damas", "Robin Milner"]


def test_a_name_on_the_next_line_counts_whatever_size_an_old_font_reports() -> None:
    """Okapi at TREC-3: Type 3 fonts of a dvi file: "M Gatford" reads 8.0 under names at 5.3."""
    first = page(line("Okapi at TREC-3", 243, 88, 369, 103, 11.8),
                 line("S E Robertson S Walker S Jones M M Hancock-Beaulieu", 116, 120, 496, 129, 5.3,
                      ["S E Robertson", "S Walker", "S Jones", "M M Hancock-Beaulieu"]),
                 line("M Gatford", 279, 130, 333, 139, 8.0),
                 line("Centre for Interactive Systems Research", 203, 156, 409, 166, 5.3), *BODY)
    assert paper_record({}, first).authors[-1] == "M Gatford"


def test_an_accent_drawn_apart_is_no_author_cell() -> None:
    """Babaoğlu's breve, set apart from the g, made the line of two names unreadable."""
    first = page(line("Consistent Global States of Distributed Systems", 112, 173, 493, 190, 16.8),
                 line("Özalp Babaoglu  ̆ Keith Marzullo", 178, 268, 416, 282, 13.8,
                      ["Özalp Babaoglu", " ̆", "Keith Marzullo"]), *BODY)
    assert paper_record({}, first).authors == ["Özalp Babaoglu", "Keith Marzullo"]


def test_a_title_line_set_apart_is_no_author() -> None:
    """A thesis cover: "FIRST-ORDER LOGIC", the title's last line, is name-shaped."""
    first = page(line("REPRESENTING GAME DIALOGUE AS EXPRESSIONS IN", 131, 135, 499, 148, 12.8),
                 line("FIRST-ORDER LOGIC", 246, 165, 384, 178, 12.8),
                 line("by", 308, 256, 322, 269, 12.9),
                 line("Kaylen Wheeler", 268, 317, 362, 330, 12.8))
    info = {"Title": "Representing Game Dialogue as Expressions in First-Order Logic"}
    record = paper_record(info, first)
    assert record.title == info["Title"] and record.authors == ["Kaylen Wheeler"]


def test_a_scans_title_agrees_with_the_pdf_title_despite_a_misread_word() -> None:
    """2Q: the scan's text layer reads "X3" for "2Q" and sets the title's words two em apart."""
    first = page(line("X3: A Low Overhead", 94, 48, 258, 67, 19.6),
                 line("High Performance", 283, 48, 413, 67, 19.6),
                 line("Buffer", 446, 48, 485, 67, 19.6),
                 line("Management", 131, 70, 215, 90, 19.6),
                 line("Replacement", 249, 70, 334, 90, 19.6),
                 line("Algorithm", 370, 70, 450, 90, 19.6),
                 line("Theodore Johnson", 136, 121, 227, 135, 13.7),
                 line("Dennis Shasha", 326, 122, 399, 135, 13.7),
                 line("University of Florida", 131, 135, 250, 149, 13.7), *BODY)
    info = {"Title": "2Q: A Low Overhead High Performance Buffer Management  Replacement  Algorithm"}
    record = paper_record(info, first)
    assert record.title == "2Q: A Low Overhead High Performance Buffer Management Replacement Algorithm"
    assert record.authors == ["Theodore Johnson", "Dennis Shasha"]
    # the field alone, with a page title of other words, is not taken
    assert paper_record({"Title": "System Model"}, first).title != "System Model"


def test_a_running_head_set_over_the_title_is_left_out() -> None:
    """Dijkstra 1974: "Operating Systems" in small type over the title's first line."""
    first = page(line("^(Operating)Self-st^(System)abili^szing Systems in", 55, 112, 252, 144, 21.8),
                 line("Spite of Distributed Control", 56, 139, 273, 161, 21.8),
                 line("Edsger W. Dijkstra", 55, 173, 138, 184, 10.8), *BODY)
    assert paper_record({}, first).title == "Self-stabilizing Systems in Spite of Distributed Control"


def test_a_logo_read_by_ocr_is_no_title() -> None:
    """Lynch's report: the MIT LCS logo OCR'd into one 50-letter word above the title."""
    first = page(line("COMPUTERLABORATORSCIENCEYFORaeTECHNOLOGYINSMTUIbor", 122, 56, 552, 110, 26.2),
                 line("A HUNDRED IMPOSSIBILITY", 148, 246, 514, 264, 13.9),
                 line("PROOFS FOR DISTRIBUTED", 156, 269, 506, 288, 14.2),
                 line("COMPUTING", 250, 294, 412, 312, 13.9),
                 line("Nancy Lynch", 277, 459, 374, 476, 12.4),
                 line("August 1989", 280, 639, 372, 656, 12.4))
    record = paper_record({}, first)
    assert record.title == "A Hundred Impossibility Proofs for Distributed Computing"
    assert record.authors == ["Nancy Lynch"] and record.year == 1989


def test_a_copyright_drawn_as_a_circle_and_c_gives_the_year() -> None:
    """Strachey in Higher-Order and Symbolic Computation: LaTeX's © reads "°c 2000"."""
    first = page(line("°c 2000 Kluwer Academic Publishers. Manufactured in The Netherlands.", 240, 131, 476, 140, 9.0),
                 line("Fundamental Concepts in Programming Languages", 118, 186, 470, 204, 18.1),
                 line("CHRISTOPHER STRACHEY", 118, 217, 216, 226, 9.0), *BODY)
    assert page_year(first) == 2000


def test_an_author_printed_over_a_title_in_capitals() -> None:
    """Martin-Löf in the Nordic Journal of Philosophical Logic: name first, then the title,
    all in one size."""
    first = page(line("Per Martin-Löf", 165, 58, 250, 69, 10.5),
                 line("ON THE MEANINGS OF THE LOGICAL", 97, 84, 318, 94, 10.5),
                 line("CONSTANTS AND THE JUSTIFICATIONS", 92, 96, 323, 107, 10.5),
                 line("OF THE LOGICAL LAWS", 138, 109, 277, 119, 10.5), *BODY)
    record = paper_record({}, first)
    assert record.title == "On the Meanings of the Logical Constants and the Justifications of the Logical Laws"
    assert record.authors == ["Per Martin-Löf"]
