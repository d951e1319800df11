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
    """A logo's one word over the byline (its last letter's box full size) stays out."""
    assert paper_record({}, lampson("Protection1", raised=0)).title != "Protection"


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


# --- dev31: pages a papers-we-love chapter's readings and the same library printed -----------

def test_a_repositorys_cover_with_a_suggested_reference_gives_way_to_the_paper() -> None:
    """ResearchSpace@Auckland's sheet ("This is the Accepted Manuscript version …" /
    "Suggested Reference" / the citation / "Copyright"): the paper's own first page after
    it is read, and the year is the citation's (the paper's page prints none)."""
    cover = page(line("Version", 28, 195, 79, 211, 16.5),
                 line("This is the Accepted Manuscript version. This version is defined in the NISO", 28, 209, 485, 226, 16.2),
                 line("recommended practice RP-8-2008 http://www.niso.org/publications/rp/", 28, 224, 463, 240, 16.2),
                 line("Suggested Reference", 28, 268, 171, 284, 16.5),
                 line("Langley, P.,Meadows, B., Gabaldon, A., & Heald, R. (2014). Abductive", 28, 282, 453, 299, 16.2),
                 line("understanding of dialogues about joint activities. Interaction Studies, 15(3), 426-", 28, 297, 522, 313, 16.2),
                 line("454. doi:10.1075/is.15.3.04lan", 28, 312, 218, 328, 16.2),
                 line("Copyright", 28, 355, 94, 372, 16.5),
                 line("Items in ResearchSpace are protected by copyright, with all rights reserved, unless", 28, 370, 533, 386, 16.2),
                 line("http://www.sherpa.ac.uk/romeo/issn/1572-0373/", 28, 472, 331, 488, 16.2))
    paper = page(line("Abductive Understanding of Dialogues", 171, 115, 441, 130, 15.4),
                 line("about Joint Activities", 233, 137, 379, 152, 15.4),
                 line("Pat Langley", 186, 171, 243, 182, 10.7),
                 line("Carnegie Mellon University", 148, 185, 282, 195, 10.7),
                 *prose(260, 20))
    record = paper_record({}, cover, "Abductive.pdf", paper)
    assert record.title == "Abductive Understanding of Dialogues about Joint Activities"
    assert record.authors == ["Pat Langley"]
    assert record.year == 2014


def test_a_title_in_capitals_set_with_wide_word_spaces_is_the_title() -> None:
    """North-Holland's 1987 title in capitals, its word spaces wide enough that the line is
    parted into cells as a table's row is (Laporte, Mercure and Nobert); the byline's names
    in capitals after the given names, an affiliation between the two lines of names."""
    def spaced(text: str, x0: float, y0: float, x1: float, y1: float, size: float, cells: list[str]) -> Line:
        """Its letters 0.6 em wide, its word spaces 1.2 em (as pdfium gave the title's)."""
        boxes: list[Box] = []
        x = x0
        for ch in text:
            width = size * (1.2 if ch == " " else 0.6)
            boxes.append((x, y0, x + width, y1))
            x += width
        return Line(text=text, boxes=boxes, bbox=(x0, y0, x1, y1), size=size, bold=False, cells=cells)
    first = page(spaced("Discrete Applied Mathematics 18 (1987) 185-197 185", 49, 46, 406, 54, 7.8,
                        ["Discrete", "Applied", "Mathematics", "18 (1987) 185-197", "185"]),
                 line("North-Holland", 49, 57, 89, 65, 7.8),
                 spaced("GENERALIZED TRAVELLING SALESMAN PROBLEM", 76, 107, 356, 118, 10.9,
                        ["GENERALIZED", "TRAVELLING", "SALESMAN", "PROBLEM"]),
                 spaced("THROUGH n SETS OF NODES: THE ASYMMETRICAL CASE*", 76, 121, 401, 132, 10.9,
                        ["THROUGH", "n SETS OF NODES: THE ASYMMETRICAL", "CASE*"]),
                 spaced("Gilbert LAPORTE, Helene MERCURE", 76, 148, 241, 159, 9.7, ["Gilbert LAPORTE,", "Helene MERCURE"]),
                 line("Ecole des Hautes Etudes Commerciales de Montreal, 5255 avenue Decelles, Montreal, Quebec",
                      76, 163, 404, 171, 7.8),
                 line("H3T 1V6, Canada", 76, 174, 137, 182, 7.8),
                 line("Yves NOBERT", 76, 194, 135, 204, 9.7),
                 line("Departement des Sciences administratives, Universite du Quebec a Montreal, 1495, rue Saint-",
                      76, 208, 404, 216, 7.8),
                 line("Received 6 March 1987", 76, 240, 157, 247, 7.8),
                 *(line("This paper presents an exact algorithm for a generalized version of the Travelling Salesman",
                        52, 361 + 13 * i, 406, 372 + 13 * i, 9.7) for i in range(20)))
    record = paper_record({}, first)
    assert (record.title or "").lower() == "generalized travelling salesman problem through n sets of nodes: the asymmetrical case"
    assert record.authors == ["Gilbert LAPORTE", "Helene MERCURE", "Yves NOBERT"]
    assert record.year == 1987


def test_a_cacm_column_over_the_title_is_no_part_of_it() -> None:
    """CACM's viewpoint column "Inside Risks" set over "Keys Under Doormats" in its type."""
    first = page(line("DOI:10.1145/2814825", 42, 247, 149, 259, 12.1),
                 line("Inside Risks", 36, 263, 216, 302, 39.0),
                 line("Keys Under Doormats", 36, 296, 358, 335, 39.0),
                 line("Mandating insecurity by requiring government", 36, 333, 258, 347, 13.7),
                 line("access to all data and communications.", 36, 347, 224, 361, 13.7),
                 line("TWENTY YEARS AGO, law enforcement", 34, 361, 197, 453, 8.0),  # its drop capital's box
                 *(line("lobbied to require data and communication services", 36, 385 + 11.5 * i, 197, 396 + 11.5 * i, 10.9)
                   for i in range(25)))
    assert paper_record({}, first).title == "Keys Under Doormats"


def test_a_byline_naming_its_first_author_and_et_al_gives_that_author() -> None:
    """"Peter G. Neumann et al." under a title; a citation's "Smith et al." names no one."""
    def signed(byline: str) -> PageText:
        return page(line("Keys Under Doormats", 100, 100, 450, 122, 22.0),
                    line(byline, 230, 140, 380, 151, 10.6),
                    *(line("Twenty years ago, law enforcement organizations lobbied to require data and", 108,
                           200 + 16 * i, 503, 210 + 16 * i, 9.7) for i in range(20)))
    assert paper_record({}, signed("Peter G. Neumann et al.")).authors == ["Peter G. Neumann"]
    assert paper_record({}, signed("Smith et al.")).authors == []


def test_the_lines_finishing_a_title_that_ends_in_a_colon_are_its_subtitle() -> None:
    """"Keys Under Doormats:" over its subtitle in a type smaller than the body's, on two
    lines, then the byline; a title without the colon keeps a small line under it out."""
    def titled(title: str) -> PageText:
        return page(line(title, 164, 100, 447, 122, 22.0),
                    line("mandating insecurity by requiring government access to all", 80, 138, 532, 148, 7.4),
                    line("data and communications", 214, 155, 398, 163, 7.4),
                    line("Harold Abelson, Ross Anderson, Steven M. Bellovin, Josh Benaloh, Matt Blaze,", 101, 195, 511, 206, 10.6),
                    line("Abstract", 282, 260, 330, 269, 9.7),
                    *(line("Twenty years ago, law enforcement organizations lobbied to require data and", 108,
                           282 + 16.5 * i, 503, 292 + 16.5 * i, 9.7) for i in range(20)))
    record = paper_record({}, titled("Keys Under Doormats:"))
    assert record.title == ("Keys Under Doormats: mandating insecurity by requiring government access to all "
                            "data and communications")
    assert record.authors[:2] == ["Harold Abelson", "Ross Anderson"]
    assert paper_record({}, titled("Keys Under Doormats")).title == "Keys Under Doormats"


# --- a second read of the dev30 rules: pages they must not misread ---------------------------

def test_a_title_that_opens_with_introduction_keeps_it() -> None:
    """"Introduction" / "to the Lambda Calculus" on a cover: one title, the names under it."""
    first = page(line("Introduction", 220, 150, 392, 180, 28.0),
                 line("to the Lambda Calculus", 160, 186, 452, 216, 28.0),
                 line("Henk Barendregt", 250, 260, 362, 274, 14.0),
                 line("Erik Barendsen", 254, 278, 358, 292, 14.0),
                 line("Revised edition", 254, 320, 358, 332, 12.0),
                 line("December 1998, March 2000", 230, 336, 380, 348, 12.0))
    record = paper_record({}, first)
    assert record.title == "Introduction to the Lambda Calculus"
    assert record.authors == ["Henk Barendregt", "Erik Barendsen"]


def test_a_status_tag_in_brackets_under_the_title_stays_out() -> None:
    """"(Preprint)", "(Under Review)", "(Camera Ready)" are a copy's state, not the title's words."""
    for tag in ("(Preprint)", "(Under Review)", "(Camera Ready)", "(Errata)"):
        first = page(line("Gradual Typing for Smalltalk", 180, 90, 432, 108, 17.3),
                     line(tag, 240, 112, 372, 130, 17.3),
                     line("Esteban Allende", 72, 140, 300, 150, 10.0),
                     line("University of Chile", 72, 154, 300, 164, 10.0),
                     *prose(190, 25))
        assert paper_record({}, first).title == "Gradual Typing for Smalltalk", tag


def test_a_standards_or_a_flaws_number_is_no_reports_year() -> None:
    """"IEEE-1800-2017" (the standard's year is its last part) and "CVE-2017-5753" (the
    year the flaw was reported) under a title: the page's own year stands."""
    def numbered(number: str, foot: str) -> PageText:
        return page(line("SystemVerilog: Unified Hardware Design,", 150, 90, 462, 108, 17.0),
                    line("Specification, and Verification Language", 150, 112, 462, 130, 17.0),
                    line(number, 250, 134, 362, 150, 17.0),
                    line("Stuart Sutherland", 250, 170, 362, 181, 11.0),
                    *prose(200, 30),
                    line(foot, 72, 740, 400, 748, 8.0))
    assert page_year(numbered("IEEE-1800-2017", "Printed in the USA")) == 2017
    assert page_year(numbered("CVE-2017-5753", "2019 IEEE Symposium on Security and Privacy")) == 2019


def test_a_head_line_naming_where_a_reprint_first_appeared_dates_the_work_not_the_reprint() -> None:
    """"Originally published in Communications of the ACM, Vol. 11, No. 3, March 1968, …" over
    a reprint whose foot prints © 2002: the work's year, as the blind labels of real reprints
    read it (Lampson's "Protection", 1971 over its 1974 reprint; Plan 9's papers; a magazine's
    "Originally published in …, January 1994" over its © 1993), not the reprint's; an
    erratum's "Erratum to: …, Vol. 5, No. 2, 1995" dates nothing."""
    def headed(head: str, foot: str) -> PageText:
        return page(line(head, 72, 60, 540, 69, 8.0),
                    line("Go To Statement Considered Harmful", 150, 100, 462, 118, 17.0),
                    line("Edsger W. Dijkstra", 250, 130, 362, 141, 11.0),
                    *prose(170, 30),
                    line(foot, 72, 740, 400, 748, 8.0))
    assert page_year(headed("Originally published in Communications of the ACM, Vol. 11, No. 3, March 1968, "
                            "pp. 147-148.", "Copyright © 2002 by the Association for Computing Machinery")) == 1968
    assert page_year(headed("Erratum to: Journal of Functional Programming, Vol. 5, No. 2, 1995, pp. 1-10.",
                            "© 1998 Cambridge University Press")) == 1998


def test_a_date_labelled_as_another_events_does_not_date_the_page() -> None:
    """"(access date: June 11, 2013)" in a footnote; "Received date: …" opening a note."""
    def noted(note: str) -> PageText:
        return page(line("Scalable Consensus for Replicated State Machines", 130, 120, 480, 138, 16.3),
                    line("Alice Smith and Bob Jones", 210, 160, 400, 171, 10.0),
                    *prose(200, 30),
                    line(note, 72, 646, 540, 654, 8.0),
                    line("May 2, 2015", 72, 740, 140, 748, 8.0))
    assert page_year(noted("1 Dataset available at http://example.org/data (access date: June 11, 2013).")) == 2015
    assert page_year(noted("Received date: December 3, 2011; Accepted date: February 11, 2012")) == 2015


def test_a_journals_column_under_the_title_is_no_author() -> None:
    """"Functional Pearl" set under the title: the byline under it is the authors'."""
    first = page(line("Trouble Shared is Trouble Halved", 150, 90, 462, 110, 17.3),
                 line("Functional Pearl", 240, 114, 372, 128, 12.0),
                 line("Richard Bird and Ralf Hinze", 220, 150, 392, 161, 11.0),
                 *prose(200, 30))
    assert paper_record({}, first).authors == ["Richard Bird", "Ralf Hinze"]


# --- dev32: more of the same library, and a second read of the dev31 rules ----------------------

def wide_spaced(text: str, x0: float, y0: float, y1: float, size: float, space: float) -> Line:
    """A line whose letters are 0.6 em wide and whose word spaces are ``space`` ems, parted
    into cells at them (as pdfium parts a scan's text layer)."""
    boxes: list[Box] = []
    x = x0
    for ch in text:
        width = size * (space if ch == " " else 0.6)
        boxes.append((x, y0, x + width, y1))
        x += width
    return Line(text=text, boxes=boxes, bbox=(x0, y0, x, y1), size=size, bold=True, cells=text.split())


def test_a_scans_title_parted_into_cells_at_its_word_spaces_is_the_title() -> None:
    """Karger et al.'s 1990 IEEE scan: the text layer parts "A VMM Security Kernel for the VAX
    Architecture" into five cells, and the company's name under the byline was read as the
    title; the byline's "Douglas W. Benin" is the text layer's (the page prints "Bonin")."""
    first = page(wide_spaced("A VMM Security Kernel for the VAX Architecture", 107, 111, 123, 11.8, 1.4),
                 line("Paul A. Karger, Mary Ellen Zurko, Douglas W. Benin, Andrew H. Mason, and Clifford E. Kahn*",
                      81, 146, 545, 154, 8.2),
                 line("Digital Equipment Corporation", 238, 173, 381, 181, 8.2),
                 line("Secure Systems Development", 244, 186, 376, 195, 8.2),
                 line("Boxborough, MA 01719-1326", 243, 213, 381, 221, 8.2),
                 *(line("This paper describes the development of a virtual-machine monitor security kernel", 69,
                        272 + 10 * i, 300, 279 + 10 * i, 6.6) for i in range(40)),
                 line("CH2884-5/90/0000/0002$01 .0001990 IEEE", 71, 753, 251, 761, 7.3))
    record = paper_record({}, first)
    assert record.title == "A VMM Security Kernel for the VAX Architecture"
    assert record.authors[0] == "Paul A. Karger" and len(record.authors) == 5
    assert record.year == 1990  # the price code's "/90/", its "©" garbled by the scan


def test_a_grid_or_a_table_row_parted_at_wide_gaps_is_still_no_title() -> None:
    """A row whose gaps are two ems and more (a table's header in large type) stays out, and
    a byline in capitals in the title's type, one name a cell, is no line of the title."""
    table = page(line("Paths, Trees, and Flowers", 200, 100, 410, 114, 14.0),
                 line("Jack Edmonds", 260, 124, 350, 135, 11.0),
                 *prose(160, 10),
                 wide_spaced("INPUT STATE OUTPUT ACTION RESULT", 100, 300, 318, 18.0, 3.0),
                 *prose(330, 15))
    assert paper_record({}, table).title == "Paths, Trees, and Flowers"
    byline = wide_spaced("DENNIS M. RITCHIE KEN THOMPSON BRIAN KERNIGHAN", 110, 120, 134, 14.0, 1.2)
    byline.cells = ["DENNIS M. RITCHIE", "KEN THOMPSON", "BRIAN KERNIGHAN"]
    unix = page(line("THE UNIX TIME-SHARING SYSTEM", 150, 100, 460, 114, 14.0), byline,
                line("Bell Laboratories", 250, 150, 360, 161, 10.0), *prose(200, 30))
    record = paper_record({}, unix)
    assert (record.title or "").lower() == "the unix time-sharing system"
    assert record.authors == ["Dennis M. Ritchie", "Ken Thompson", "Brian Kernighan"]


def test_a_journal_page_opening_with_the_last_articles_references_is_dated_by_its_own_copyright() -> None:
    """CACM 1978: the page opens with the reference list of the article before ("10. Mackworth,
    A.K. … Intell. 8, 1(1977), 99-118."), shaped like a masthead; the paper's "© 1978 ACM"."""
    refs = ["8. Horn, B.K.P. Determining lightness from an image. Comptr.",
            "Graphics and Image Processing 3, 4(Dec. 1974), 277-299.",
            "10. Mackworth, A.K. Consistency in networks of relations. Artif.",
            "Intell. 8, 1(1977), 99-118.",
            "12. Marr, D., and Poggio, T. Cooperative computation of stereo"]
    first = page(*(line(text, 57, 31 + 10 * i, 295, 40 + 10 * i, 9.5) for i, text in enumerate(refs)),
                 line("On-the-Fly Garbage", 315, 90, 500, 115, 24.0),
                 line("Collection: An Exercise in", 315, 118, 540, 143, 24.0),
                 line("Cooperation", 315, 146, 420, 171, 24.0),
                 line("Edsger W. Dijkstra", 315, 190, 420, 201, 10.5),
                 *(line("As an example of cooperation between sequential processes with very little", 315,
                        220 + 12 * i, 556, 230 + 12 * i, 10.5) for i in range(30)),
                 line("© 1978 ACM 0001-0782/78/1100-0966 $00.75", 315, 716, 473, 725, 9.5))
    assert page_year(first) == 1978


def test_more_ways_a_page_prints_its_year() -> None:
    """Elsevier's price code at the foot ("0l67-4048/85/$3.30", its © read as nothing), USENIX's
    foot ("Security ’06: 15th USENIX Security Symposium"), a date with dashes ("06-Dec-2004")
    under the byline, a preprint's "Preprint accepted at ICSE 2014."."""
    def dated(*extra: Line) -> PageText:
        return page(line("A Paper of Some Kind", 160, 120, 450, 138, 16.0),
                    line("Jane Roe", 250, 150, 330, 161, 11.0),
                    *prose(300, 20), *extra)
    assert page_year(dated(line("0l67-4048/85/$3.30 1985, Elsevier Science Publishers B.V. (North-Holland)",
                                58, 732, 309, 741, 9.0))) == 1985
    assert page_year(dated(line("Security ’06: 15th USENIX Security Symposium", 313, 755, 558, 765, 9.0))) == 2006
    assert page_year(dated(line("06-Dec-2004", 280, 178, 332, 189, 11.2))) == 2004
    assert page_year(dated(line("Preprint accepted at ICSE 2014.", 240, 26, 355, 37, 10.6))) == 2014


def test_a_greek_letter_after_a_surname_is_its_affiliations_mark() -> None:
    """"Janet Siegmund^π, Christian Kästner^ω, …": the cells pdfium gives hold the letters
    without their carets ("Siegmundπ")."""
    byline = line("Janet Siegmund^π, Christian Kästner^ω, Sven Apel^π", 90, 144, 530, 155, 11.1)
    byline.cells = ["Janet Siegmundπ,", "Christian Kästnerω, Sven Apelπ"]
    first = page(line("Understanding Understanding Source Code with", 98, 72, 512, 89, 16.8),
                 line("Functional Magnetic Resonance Imaging", 131, 92, 479, 109, 16.8),
                 byline,
                 line("University of Passau, Germany", 159, 167, 301, 178, 9.2),
                 *prose(230, 25))
    assert paper_record({}, first).authors == ["Janet Siegmund", "Christian Kästner", "Sven Apel"]


def test_a_working_papers_own_page_with_a_suggested_citation_is_no_cover() -> None:
    """A version note and "Suggested Citation" printed on a paper's own first page (SSRN's,
    a working paper's): only a short page of notes with the repository's copyright sentence
    is a cover."""
    first = page(line("Open Access Policies and Their Effects on Research", 120, 90, 490, 108, 16.0),
                 line("Mary Jones", 260, 120, 350, 131, 11.0),
                 line("Working Paper No. 12", 240, 134, 370, 144, 10.0),
                 *prose(170, 30),
                 line("This is the submitted version of a paper under review.", 72, 700, 540, 709, 8.0),
                 line("Suggested Citation", 72, 712, 200, 721, 8.0),
                 line("Jones, M. (2016). Open Access Policies. Working Paper 12.", 72, 724, 540, 733, 8.0))
    record = paper_record({}, first, "x.pdf", page(*prose(60, 50)))
    assert record.title == "Open Access Policies and Their Effects on Research"
    assert record.authors == ["Mary Jones"]


def test_a_title_may_open_with_a_word_that_names_a_column() -> None:
    """"Viewpoints:" / "A Framework for Integrating Multiple Perspectives" (Finkelstein et al.),
    "Global Computing" / "with Mobile Agents and Ambients"."""
    def titled(head: str, rest: str) -> PageText:
        return page(line(head, 220, 100, 390, 120, 20.0),
                    line(rest, 110, 124, 500, 144, 20.0),
                    line("A. Finkelstein, J. Kramer, B. Nuseibeh", 180, 190, 430, 201, 11.0),
                    *prose(240, 30))
    assert paper_record({}, titled("Viewpoints:", "A Framework for Integrating Multiple Perspectives")).title == \
        "Viewpoints: A Framework for Integrating Multiple Perspectives"
    assert paper_record({}, titled("Global Computing", "with Mobile Agents and Ambients")).title == \
        "Global Computing with Mobile Agents and Ambients"


def test_what_follows_a_title_ending_in_a_colon_may_be_no_subtitle() -> None:
    """Under "Dynamo and the Highly Available Store:": a copy's state, a dedication, a lone
    surname, a byline in capitals; a course's code under "Homework 3:"."""
    def under(title: str, text: str, cells: list[str] | None = None) -> str | None:
        following = line(text, 150, 116, 460, 126, 10.0)
        if cells:
            following.cells = cells
        return paper_record({}, page(line(title, 120, 90, 490, 108, 18.0), following,
                                     line("Giuseppe DeCandia", 240, 140, 370, 151, 11.0),
                                     *prose(200, 30))).title
    store = "Dynamo and the Highly Available Store:"
    for text in ("Under review", "In memory of Jim Gray", "Vogels"):
        assert under(store, text) == "Dynamo and the Highly Available Store", text
    assert under(store, "CAITLIN SADOWSKI JEFFREY VAN GOGH", ["CAITLIN SADOWSKI", "JEFFREY VAN GOGH"]) == \
        "Dynamo and the Highly Available Store"
    assert under("Homework 3:", "CS 240 Spring") == "Homework 3"


def test_a_titles_aside_that_merely_holds_a_status_word_stays() -> None:
    """Asides of four words or more that hold a status word ("(Don't Press Your Luck)") are
    the title's; "(Preprint)" alone is a copy's state."""
    def ecma(tag: str) -> str | None:
        return paper_record({}, page(line("Evolutionary Programming and Gradual Typing in ECMAScript 4", 91, 70, 521, 90, 17.7),
                                     line(tag, 200, 91, 412, 109, 17.7),
                                     line("Lars T Hansen, Adobe Systems", 243, 144, 369, 155, 11.1),
                                     line("Introduction", 90, 190, 163, 206, 15.6))).title
    base = "Evolutionary Programming and Gradual Typing in ECMAScript 4"
    assert ecma("(The Final Frontier Revisited Once More)") == f"{base} (The Final Frontier Revisited Once More)"
    assert ecma("(Don't Press Your Luck)") == f"{base} (Don't Press Your Luck)"
    assert ecma("(Preprint)") == base


def test_a_labelled_date_after_a_comma_or_on_the_notes_next_line_still_dates_the_page() -> None:
    """"…eb554, Date: 2016.05.11", and "Date:" opening the note's next line."""
    def noted(*note: str) -> PageText:
        return page(line("NaCl on 8-bit AVR Microcontrollers", 160, 120, 450, 138, 14.3),
                    line("Michael Hutter and Peter Schwabe", 210, 160, 400, 171, 10.0),
                    *prose(200, 20),
                    *(line(text, 145, 646 + 11 * i, 481, 654 + 11 * i, 8.0) for i, text in enumerate(note)))
    assert page_year(noted("Permanent ID of this document: cd4aad485407c33ece17e509622eb554, Date: 2016.05.11")) == 2016
    assert page_year(noted("Permanent ID of this document: cd4aad485407c33ece17e509622eb554",
                           "Date: 2016.05.11")) == 2016


def test_a_head_line_naming_the_papers_own_coming_issue_dates_it() -> None:
    """"To appear in Journal of Functional Programming, Vol. 5, No. 2, 1995." over "© 1994 by
    the authors"; a journal named "Seed Science Research"."""
    def headed(head: str) -> PageText:
        return page(line(head, 72, 60, 540, 69, 8.0),
                    line("Go To Statement Considered Harmful", 150, 100, 462, 118, 17.0),
                    line("Edsger W. Dijkstra", 250, 130, 362, 141, 11.0),
                    *prose(170, 30),
                    line("Copyright © 1994 by the authors", 72, 740, 400, 748, 8.0))
    assert page_year(headed("To appear in Journal of Functional Programming, Vol. 5, No. 2, 1995.")) == 1995
    assert page_year(headed("Seed Science Research, Vol. 5, No. 2, 1995, pp. 1-10.")) == 1995


def test_prose_ending_in_et_al_is_no_byline() -> None:
    """"Following Laporte et al." names no one; "J. Smith et al." names J. Smith."""
    from athena_lab.pdf.meta import _names
    assert _names("Following Laporte et al.") is None
    assert _names("J. Smith et al.") == ["J. Smith"]


# --- dev33: grids of authors ------------------------------------------------------------------

def test_a_grids_row_of_addresses_does_not_end_the_byline() -> None:
    """ICSE 2019's 3 × 3 grid (Amershi et al.): the first row's five addresses, read as one
    line of more than 14 words, were taken for the body's prose, and the second row of names
    was never read."""
    def row(texts: list[str], y: float, size: float) -> list[Line]:
        return [line(t, x, y, x + 180, y + size, size) for t, x in zip(texts, (60, 290, 400))]
    first = page(line("Software Engineering for Machine Learning:", 86, 55, 526, 76, 21.4),
                 line("A Case Study", 238, 83, 374, 104, 21.4),
                 line("Saleema Amershi   Andrew Begel   Christian Bird   Robert DeLine   Harald Gall",
                      66, 123, 546, 133, 9.8),
                 line("Microsoft Research   Microsoft Research   Microsoft Research   University of Zurich",
                      64, 136, 560, 145, 8.6),
                 line("samershi@microsoft.com andrew.begel@microsoft.com cbird@microsoft.com rdeline@microsoft.com "
                      "gall@ifi.uzh.ch", 54, 161, 560, 170, 8.9),
                 line("Ece Kamar   Nachiappan Nagappan   Besmira Nushi   Thomas Zimmermann", 74, 185, 540, 195, 9.8),
                 line("Microsoft Research   Microsoft Research   Microsoft Research", 58, 198, 528, 207, 8.6),
                 *(line("Abstract—Recent advances in machine learning have stimulated widespread interest", 49,
                        268 + 10 * i, 300, 276 + 10 * i, 8.1) for i in range(30)))
    for ln in first.lines[2:7]:
        ln.cells = [c for c in ln.text.split("   ")]
    assert paper_record({}, first).authors == [
        "Saleema Amershi", "Andrew Begel", "Christian Bird", "Robert DeLine", "Harald Gall",
        "Ece Kamar", "Nachiappan Nagappan", "Besmira Nushi", "Thomas Zimmermann"]


def test_a_surname_wrapped_onto_a_line_of_its_own_in_a_grids_block_is_the_names() -> None:
    """"Gabriel de Souza Pereira" / "Moreira" / "gmoreira@nvidia.com" / "NVIDIA": the address
    holds the word; a word under a name that no address holds ("Research") stays out."""
    def block(word: str, mail: str) -> PageText:
        return page(line("Using Deep Learning to Win the Booking.com WSDM", 95, 84, 517, 100, 16.0),
                    line("WebTour21 Challenge on Sequential Recommendations", 88, 104, 523, 120, 16.0),
                    line("Benedikt Schifferer", 94, 134, 187, 145, 11.2),
                    line("bschifferer@nvidia.com", 94, 147, 191, 156, 9.3),
                    line("NVIDIA", 126, 159, 159, 168, 9.3),
                    line("Gabriel de Souza Pereira", 82, 202, 202, 213, 11.2),
                    line(word, 121, 216, 160, 227, 11.2),
                    line(mail, 97, 229, 187, 238, 9.3),
                    line("NVIDIA", 125, 241, 159, 250, 9.3),
                    *(line("We present our solution to the WSDM WebTour 2021 challenge on sequential", 60,
                           300 + 11 * i, 550, 309 + 11 * i, 9.0) for i in range(30)))
    assert paper_record({}, block("Moreira", "gmoreira@nvidia.com")).authors[-1] == "Gabriel de Souza Pereira Moreira"
    assert "Gabriel de Souza Pereira Research" not in paper_record({}, block("Research", "gmoreira@nvidia.com")).authors


# --- a third read: the dev32 rules' edges --------------------------------------------------------

def test_a_print_or_download_stamps_date_does_not_date_the_page() -> None:
    """"Print date: March 3, 2021" beside a venue line of 1995; a bare "Date:" still counts."""
    def stamped(note: str) -> PageText:
        return page(line("Proceedings of the 1995 ACM Symposium on Principles of Programming Languages",
                         72, 40, 540, 49, 8.0),
                    line("A Paper of Some Kind", 160, 120, 450, 138, 16.0),
                    line("Jane Roe", 250, 150, 330, 161, 11.0),
                    *prose(200, 30),
                    line(note, 72, 740, 400, 748, 8.0))
    assert page_year(stamped("Print date: March 3, 2021")) == 1995
    assert page_year(stamped("Download date: March 3, 2021")) == 1995


def test_a_byline_of_initials_and_et_al_names_its_first_author() -> None:
    """"M.A. Smith et al.", "J.-P. Jouannaud et al.", "Jeffrey Dean et al." under a title."""
    for byline, name in (("M.A. Smith et al.", "M.A. Smith"), ("J.-P. Jouannaud et al.", "J.-P. Jouannaud"),
                         ("Jeffrey Dean et al.", "Jeffrey Dean")):
        first = page(line("MapReduce: Simplified Data Processing on Large Clusters", 100, 100, 510, 122, 20.0),
                     line(byline, 230, 140, 380, 151, 10.6),
                     *prose(200, 30))
        record = paper_record({}, first)
        assert record.authors == [name], byline
        assert record.title == "MapReduce: Simplified Data Processing on Large Clusters", byline


def test_a_byline_in_the_titles_type_beside_an_institution_is_no_title_line() -> None:
    """"Alice Smith   Bob Jones   Carol White   MIT" in the title's type, parted into cells
    under two ems apart (a typescript's), is its byline, not the title's last line."""
    byline = wide_spaced("Alice Smith Bob Jones Carol White MIT", 150, 126, 140, 14.0, 1.5)
    byline.cells = ["Alice Smith", "Bob Jones", "Carol White", "MIT"]
    byline.bold = False
    first = page(line("Efficient Algorithms for Sorting Large Files", 150, 100, 460, 114, 14.0), byline,
                 *prose(200, 30))
    record = paper_record({}, first)
    assert record.title == "Efficient Algorithms for Sorting Large Files"
    assert record.authors[:3] == ["Alice Smith", "Bob Jones", "Carol White"]


def test_a_repository_cover_naming_itself_in_several_words_is_a_cover() -> None:
    """"Items in ResearchSpace@Auckland are protected by copyright …"."""
    cover = page(line("This is the Accepted Manuscript version. This version is defined in the NISO", 28, 209, 485, 226, 16.2),
                 line("Suggested Reference", 28, 268, 171, 284, 16.5),
                 line("Langley, P., & Heald, R. (2014). Abductive understanding. Interaction Studies, 15(3).",
                      28, 282, 522, 299, 16.2),
                 line("Copyright", 28, 355, 94, 372, 16.5),
                 line("Items in ResearchSpace@Auckland are protected by copyright, with all rights reserved",
                      28, 370, 533, 386, 16.2))
    paper = page(line("Abductive Understanding of Dialogues", 171, 115, 441, 130, 15.4),
                 line("Pat Langley", 186, 171, 243, 182, 10.7),
                 *prose(260, 20))
    assert paper_record({}, cover, "x.pdf", paper).title == "Abductive Understanding of Dialogues"


def test_a_head_line_pointing_at_another_issue_does_not_date_the_page() -> None:
    """"See also Theory and Applications of Categories, Vol. 1, No. 1, 1995." over a © 1998."""
    first = page(line("See also Theory and Applications of Categories, Vol. 1, No. 1, 1995.", 72, 60, 540, 69, 8.0),
                 line("Go To Statement Considered Harmful", 150, 100, 462, 118, 17.0),
                 line("Edsger W. Dijkstra", 250, 130, 362, 141, 11.0),
                 *prose(170, 30),
                 line("© 1998 Cambridge University Press", 72, 740, 400, 748, 8.0))
    assert page_year(first) == 1998


# --- a fourth read: the day's rules together ---------------------------------------------------

def test_a_word_under_a_name_that_only_an_addresss_domain_holds_is_no_surname() -> None:
    """"Jane Smith" / "Cornell" / "jsmith@cs.cornell.edu": the university, not her surname; and
    in blocks side by side a wrapped surname stays with the name it is under."""
    def grid(word: str, mail: str) -> PageText:
        return page(line("A Paper of Some Kind", 160, 100, 450, 118, 16.0),
                    line("Gabriel de Souza Pereira", 82, 202, 202, 213, 11.2),
                    line("Chris Deotte", 300, 202, 380, 213, 11.2),
                    line(word, 121, 216, 160, 227, 11.2),
                    line("cdeotte@nvidia.com", 300, 216, 390, 225, 9.3),
                    line(mail, 97, 229, 187, 238, 9.3),
                    line("NVIDIA", 320, 228, 359, 237, 9.3),
                    *prose(300, 30))
    assert "Chris Deotte Moreira" not in paper_record({}, grid("Moreira", "gmoreira@nvidia.com")).authors
    assert not any(a.endswith("Cornell") for a in paper_record({}, grid("Cornell", "gpereira@cs.cornell.edu")).authors)


def test_a_one_word_copy_state_in_brackets_is_no_aside() -> None:
    """"(Manuscript)", "(Revision)", "(Translation)" under a title; "(Survey)" and "(SQL)" stay."""
    def tagged(tag: str) -> str | None:
        return paper_record({}, page(line("A Guide to the Theory of NP-Completeness", 120, 90, 490, 108, 17.3),
                                     line(tag, 250, 112, 360, 130, 17.3),
                                     line("Michael R. Garey", 240, 140, 370, 151, 11.0),
                                     *prose(200, 30))).title
    for tag in ("(Manuscript)", "(Revision)", "(Translation)"):
        assert tagged(tag) == "A Guide to the Theory of NP-Completeness", tag
    assert tagged("(Survey)") == "A Guide to the Theory of NP-Completeness (Survey)"


def test_a_documents_own_labelled_dates_count_after_an_id_ending_in_a_letter() -> None:
    """"…eb55a" / "Date: 2016.05.11", and "Issue date: June 1987" / "Version date: …"."""
    def noted(*note: str) -> PageText:
        return page(line("Proceedings of the 1985 ACM Symposium on Operating Systems Principles", 72, 40, 540, 49, 8.0),
                    line("NaCl on 8-bit AVR Microcontrollers", 160, 120, 450, 138, 14.3),
                    line("Michael Hutter and Peter Schwabe", 210, 160, 400, 171, 10.0),
                    *prose(200, 20),
                    *(line(text, 145, 646 + 11 * i, 481, 654 + 11 * i, 8.0) for i, text in enumerate(note)))
    assert page_year(noted("Permanent ID of this document: cd4aad485407c33ece17e509622eb55a", "Date: 2016.05.11")) == 2016
    assert page_year(noted("Issue date: June 1987")) == 1987


def test_a_head_line_naming_an_earlier_version_does_not_date_the_page() -> None:
    """"A preliminary version appeared in …, Vol. 1, No. 1, 1995." over "© 1998"."""
    first = page(line("A preliminary version appeared in Theory and Applications of Categories, Vol. 1, No. 1, 1995.",
                      72, 60, 540, 69, 8.0),
                 line("Go To Statement Considered Harmful", 150, 100, 462, 118, 17.0),
                 line("Edsger W. Dijkstra", 250, 130, 362, 141, 11.0),
                 *prose(170, 30),
                 line("Copyright © 1998 by the authors", 72, 740, 400, 748, 8.0))
    assert page_year(first) == 1998


def test_a_journals_banner_spaced_into_cells_is_no_title() -> None:
    """"IEEE   TRANSACTIONS   ON   COMPUTERS" set larger than the title over it."""
    first = page(wide_spaced("IEEE TRANSACTIONS ON COMPUTERS", 100, 40, 60, 20.0, 1.5),
                 line("A Paper of Some Kind", 160, 100, 450, 116, 16.0),
                 line("Jane Roe", 250, 130, 330, 141, 11.0),
                 *prose(200, 30))
    assert paper_record({}, first).title == "A Paper of Some Kind"
