"""What a first page prints around its title and in its notes that the dev30 rules misread
(a personal library of classic and type-theory papers, and a recommender-systems reading
list): a one-word title with its footnote's number, a journal's column over a title set
letter-spaced, a laboratory's report banner and its number, an aside in brackets, a
journal's issue line and a document's labelled date. Each asserts the right reading, with
the lines pdfium gave for the page."""

from __future__ import annotations

import pytest

from athena_lab.pdf.layout import Box, Line
from athena_lab.pdf.meta import page_year, paper_record
from athena_lab.pdf.pages import PageText

pytestmark = pytest.mark.unit


def line(text: str, x0: float, y0: float, x1: float, y1: float, size: float,
         boxes: list[Box] | None = None) -> Line:
    return Line(text=text, boxes=boxes or [], bbox=(x0, y0, x1, y1), size=size, bold=False, cells=[text])


def page(*lines: Line) -> PageText:
    return PageText(number=1, width=612, height=792, lines=list(lines))


def prose(y0: float, n: int) -> list[Line]:
    return [line("‘Protection’ is a general term for all the mechanisms that control the access of a", 72,
                 y0 + 14 * i, 536, y0 + 14 * i + 13, 13.3) for i in range(n)]


def glyphs(text: str, x0: float, top: float, bottom: float, raised: int = 0) -> list[Box]:
    """Boxes of ``text``'s characters, 8 pt apart; the last ``raised`` set small and high
    (a footnote's number)."""
    boxes: list[Box] = []
    for i, _ in enumerate(text):
        small = i >= len(text) - raised
        boxes.append((x0 + 8 * i, top + 3 if small else top, x0 + 8 * i + (4 if small else 8),
                      top + 12 if small else bottom))
    return boxes


def lampson(title: str, raised: int) -> PageText:
    return page(line(title, 264, 85, 348, 105, 19.9, glyphs(title, 264, 85.2, 105.2, raised)),
                line("Butler W. Lampson", 259, 133, 353, 146, 13.3),
                line("Xerox Corporation", 260, 147, 352, 160, 13.3),
                line("Palo Alto, California", 257, 161, 355, 174, 13.3),
                line("Abstract", 72, 211, 124, 226, 15.4),
                *prose(239, 3),
                line("Introduction", 72, 294, 146, 309, 15.4),
                *prose(322, 12))


def test_a_one_word_title_with_its_footnotes_number_is_the_title() -> None:
    """"Protection¹" (Lampson, 1971), its number set small and raised but read "Protection1":
    a one-word line in large type was taken for a logo, and the section heading
    "Introduction" for the title."""
    record = paper_record({}, lampson("Protection1", raised=1))
    assert record.title == "Protection"
    assert record.authors == ["Butler W. Lampson"]


def test_a_one_word_line_without_a_footnote_is_still_no_title() -> None:
    """A logo's one word over the byline (its last letter's box full size) stays out, and a
    heading "Introduction" alone never reads as a title."""
    assert paper_record({}, lampson("Protection1", raised=0)).title != "Protection"
    assert paper_record({}, lampson("Protection1", raised=0)).title != "Introduction"


def test_a_journal_column_set_letter_spaced_over_the_title_is_no_part_of_it() -> None:
    """JFP's "FUNCTIONAL PEARLS", pdfium's spacing of its small capitals "FUN C T I ONA L P EA R L S"."""
    first = page(line("Under consideration for publication in J. Functional Programming 1", 117, 117, 475, 126, 7.1),
                 line("FUN C T I ONA L P EA R L S", 189, 164, 404, 180, 15.3),
                 line("Monadic Parsing in Haskell", 193, 192, 400, 207, 15.3),
                 line("Graham Hutton", 261, 226, 331, 235, 8.8),
                 line("University of Nottingham", 249, 240, 344, 247, 7.1),
                 line("Erik Meijer", 271, 259, 321, 268, 8.8),
                 line("University of Utrecht", 257, 273, 336, 280, 7.1),
                 line("1 Introduction", 259, 305, 333, 314, 8.8))
    record = paper_record({}, first)
    assert record.title == "Monadic Parsing in Haskell"
    assert record.authors == ["Graham Hutton", "Erik Meijer"]


MSR_REPORT = [line("Combining Total and Ad Hoc Extensible Pattern", 135, 116, 481, 129, 12.7),
              line("Matching in a Lightweight Language Extension", 141, 134, 475, 147, 12.7),
              line("MSR Technical Report", 226, 152, 389, 164, 12.7),
              line("MSR-TR-2007-33", 246, 170, 370, 182, 12.7),
              line("Don Syme, Gregory Neverov, and James Margetson", 188, 207, 423, 216, 8.8),
              line("1 Microsoft Research,", 264, 227, 352, 237, 8.0),
              line("Cambridge, U.K.", 273, 240, 342, 248, 8.0)]


def test_a_laboratorys_report_banner_and_number_under_the_title_are_no_part_of_it() -> None:
    """"MSR Technical Report" / "MSR-TR-2007-33" in the title's type under it: the title
    ends over them, and the number gives the year (the page prints no other date)."""
    record = paper_record({}, page(*MSR_REPORT))
    assert record.title == "Combining Total and Ad Hoc Extensible Pattern Matching in a Lightweight Language Extension"
    assert record.authors == ["Don Syme", "Gregory Neverov", "James Margetson"]
    assert record.year == 2007


def test_a_report_number_without_a_year_dates_nothing() -> None:
    """"MIT-LCS-TR-194" holds a serial number, no year; nor is a number in the body's prose one."""
    lines = [*MSR_REPORT[:3], line("MIT-LCS-TR-194", 246, 170, 370, 182, 12.7), *MSR_REPORT[4:]]
    assert paper_record({}, page(*lines)).year is None


def test_an_aside_in_brackets_under_the_title_is_the_titles() -> None:
    """"(Tutorial)" on a line of its own in the title's type; "(Extended Abstract)", a
    version's tag, stays out."""
    def ecma(tag: str) -> PageText:
        return page(line("Evolutionary Programming and Gradual Typing in ECMAScript 4^1", 91, 70, 521, 90, 17.7),
                    line(tag, 275, 91, 337, 109, 17.7),
                    line("29 November 2007", 267, 121, 345, 132, 11.1),
                    line("Lars T Hansen, Adobe Systems", 243, 144, 369, 155, 11.1),
                    line("(lhansen@adobe.com)", 261, 155, 351, 166, 11.1),
                    line("Introduction", 90, 190, 163, 206, 15.6))
    tutorial = paper_record({}, ecma("(Tutorial)"))
    assert tutorial.title == "Evolutionary Programming and Gradual Typing in ECMAScript 4 (Tutorial)"
    assert tutorial.year == 2007
    assert paper_record({}, ecma("(Extended Abstract)")).title == \
        "Evolutionary Programming and Gradual Typing in ECMAScript 4"


def test_a_journals_issue_line_over_the_title_gives_the_year() -> None:
    """"Reprints in Theory and Applications of Categories, No. 6, 2004, pp. 1–10." (and the
    journal's own "…, Vol. 1, No. 1, 1995, pp. 1–10.") at the head of the page."""
    def headed(head: str) -> PageText:
        return page(line(head, 72, 79, 400, 89, 9.1),
                    line("HOMOTOPY IS NOT CONCRETE", 186, 113, 420, 126, 13.1),
                    line("PETER FREYD", 255, 143, 356, 154, 10.9),
                    *prose(184, 10))
    assert page_year(headed("Reprints in Theory and Applications of Categories, No. 6, 2004, pp. 1–10.")) == 2004
    assert page_year(headed("Theory and Applications of Categories, Vol. 1, No. 1, 1995, pp. 1–10.")) == 1995
    # a journal's running head without an issue dates nothing by itself
    assert page_year(headed("Theory and Applications of Categories, pp. 1–10.")) is None


def test_a_documents_labelled_date_in_its_note_gives_the_year() -> None:
    """The note under a paper that names its permanent ID: "Date: June 11, 2013" (wrapped
    onto the next line), "Date of this document: 2007.12.25."."""
    def noted(*note: str) -> PageText:
        return page(line("NaCl on 8-bit AVR Microcontrollers", 160, 120, 450, 138, 14.3),
                    line("Michael Hutter and Peter Schwabe", 210, 160, 400, 171, 10.0),
                    *prose(200, 20),
                    *(line(text, 145, 646 + 11 * i, 481, 654 + 11 * i, 8.0) for i, text in enumerate(note)))
    assert page_year(noted("Permanent ID of this document: cd4aad485407c33ece17e509622eb554. Date:",
                           "June 11, 2013")) == 2013
    assert page_year(noted("Permanent ID of this document: 31364286077dcdff8e4509f9ff3139ad. Date of this",
                           "document: 2007.12.25. This work was supported by the National Science Foundation")) == 2007
