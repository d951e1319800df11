"""Reprints and older pages the dev41 and dev42 rounds misread (FreeBSD's conference papers,
Plan 9's and Inferno's papers reprinted in their manuals, MIT AI memos reprinted in HOSC,
classic distributed-systems papers): a reprint's note of where the work first appeared, a
Springer masthead whose dash the text layer lost, a row of footnote marks over the names, a
lone name heading a reprint, and a company's "Limited". Each asserts the right reading, with
the lines pdfium gave for the page."""

from __future__ import annotations

import pytest

from athena_lab.pdf.layout import Line
from athena_lab.pdf.meta import page_year, paper_record
from athena_lab.pdf.pages import PageText

pytestmark = pytest.mark.unit


def line(text: str, x0: float, y0: float, x1: float, y1: float, size: float,
         cells: list[str] | None = None, bold: bool = False) -> Line:
    return Line(text=text, boxes=[], bbox=(x0, y0, x1, y1), size=size, bold=bold, cells=cells or [text])


def page(*lines: Line, width: float = 612, height: float = 792, scan: bool = False) -> PageText:
    return PageText(number=1, width=width, height=height, lines=list(lines), scan=scan)


def prose(x0: float, y0: float, n: int, size: float = 10.0) -> list[Line]:
    return [line("Acme is a new user interface for programmers that combines the roles of editor", x0,
                 y0 + 1.2 * size * i, x0 + 460, y0 + 1.2 * size * i + size, size) for i in range(n)]


def plan9(*foot: Line) -> PageText:
    """A Plan 9 paper as its manual reprints it: title, author, affiliation, abstract, and
    ``foot`` under a rule at the page's foot."""
    return page(line("Acid: A Debugger Built From A Language", 160, 100, 450, 116, 14.0, bold=True),
                line("Phil Winterbottom", 250, 128, 360, 140, 11.0),
                line("philw@plan9.bell-labs.com", 240, 142, 370, 152, 10.0),
                line("ABSTRACT", 280, 170, 330, 180, 10.0),
                *prose(72, 190, 40),
                line("_____________________", 72, 700, 170, 708, 8.6),
                *foot)


def test_a_reprints_note_of_where_it_first_appeared_dates_the_page() -> None:
    """"Originally appeared in Proc. of the Winter 1994 USENIX Conf." is the work's year,
    and the manual that reprinted it later does not outrank it."""
    assert page_year(plan9(line("Originally appeared in Proc. of the Winter 1994 USENIX Conf., pp. 211-222, San "
                                "Francisco, CA; and subsequently in the Plan 9 Programmer’s Manual.", 72, 712, 540, 720, 8.6))) == 1994
    assert page_year(plan9(line("Originally appeared in Proc. of the Winter 1994 USENIX Conf., pp. 223-234, San Francisco, CA",
                                72, 712, 500, 720, 8.5),
                           line("Reprinted in Plan 9 Programmer’s Manual: Volume 2 (Second Edition), AT&T 1995.",
                                72, 722, 480, 730, 8.5))) == 1994


def test_where_the_work_first_appeared_outranks_its_reprints_venue_and_copyright() -> None:
    """Lampson's "Protection": first in Princeton's proceedings of 1971, reprinted in
    Operating Systems Review in 1974; a magazine article "Originally published in …,
    January 1994" under its "Copyright (c) 1993"."""
    assert page_year(plan9(line("1 This paper first appeared in Proc. 5th Princeton Conf. on Information Sciences and Systems, "
                                "Princeton, 1971, p", 72, 712, 540, 720, 8.6),
                           line("437. It was reprinted in ACM Operating Systems Rev. 8, 1 (Jan. 1974), p 18.",
                                72, 722, 480, 730, 8.6))) == 1971
    assert page_year(plan9(line("Copyright (c) 1993 Walter R. Smith. All rights reserved.", 72, 712, 400, 720, 8.6),
                           line("Originally published in PIE Developers magazine, January 1994.", 72, 740, 400, 748, 8.6))) == 1994


def test_a_note_that_the_work_first_appeared_in_another_form_dates_only_a_page_with_no_other_year() -> None:
    """Plan 9's compilers paper "originally appeared, in a different form, in … 1990": that
    year when the page prints none other, under any copyright of its own."""
    different = line("Originally appeared, in a different form, in Proceedings of the Summer 1990 UKUUG Conference, "
                     "pp. 41-51, London, 1990.", 72, 712, 540, 720, 8.6)
    assert page_year(plan9(different)) == 1990
    assert page_year(plan9(different, line("Copyright © 1995 Lucent Technologies Inc.", 72, 740, 300, 748, 8.6))) == 1995


def test_a_journals_date_of_its_web_copy_is_not_where_the_work_first_appeared() -> None:
    """JFP's "First published online 18 March 2008" under its © of the printed issue."""
    assert page_year(plan9(line("© 2009 Cambridge University Press", 72, 712, 300, 720, 8.6),
                           line("doi:10.1017/S0956796808006758 First published online 18 March 2008 Printed in the United Kingdom",
                                72, 740, 540, 748, 8.6))) == 2009


def test_a_springer_masthead_whose_dash_was_lost_dates_the_page() -> None:
    """"Distributed Computing (1986) 1:26 39" at the head, its en dash lost; the page's note
    says the paper appeared at PODC with "© 1985, Association for Computing Machinery"."""
    first = page(line("Distributed Computing (1986) 1:26 39", 60, 40, 260, 50, 10.3),
                 line("Easy impossibility proofs for distributed consensus problems", 60, 80, 400, 96, 16.0),
                 line("Michael J. Fischer, Nancy A. Lynch, and Michael Merritt", 60, 110, 400, 122, 11.0),
                 *prose(60, 150, 30),
                 line("This paper has appeared in the ACM Conference Proceedings", 60, 700, 300, 710, 10.3),
                 line("of PODC 1985. © 1985, Association for Computing Machinery, reprinted by permission",
                      60, 712, 400, 722, 10.3))
    assert page_year(first) == 1986


def test_a_row_of_footnote_marks_over_the_names_does_not_end_the_byline() -> None:
    """LNCS's byline: the affiliations' marks set on a row of their own over the names, the
    list wrapped after its "and" over another mark."""
    first = page(line("Thrifty Generic Broadcast", 211, 115, 400, 128, 12.6),
                 line("1 2", 249, 152, 262, 157, 4.6, cells=["1", "2"]),
                 line("Marcos Kawazoe Aguilera , Carole Delporte-Gallet, Hugues Fauconnier , and", 136, 153, 476, 160, 4.7),
                 line("1", 330, 164, 333, 169, 4.6),
                 line("Sam Toueg", 281, 165, 330, 172, 4.7),
                 line("1 DIX, Ecole Polytechnique, 91128 Palaiseau Cedex, France,", 185, 185, 427, 192, 5.9),
                 line("Abstract . We consider the problem of generic broadcast in asynchronous", 163, 258, 448, 264, 4.2),
                 *prose(135, 280, 30, size=4.7))
    assert paper_record({}, first).authors == ["Marcos Kawazoe Aguilera", "Carole Delporte-Gallet",
                                               "Hugues Fauconnier", "Sam Toueg"]


def floyd(head: str) -> PageText:
    """A reprint's first page: ``head`` alone at the top, the title far under it in
    capitals, the text right under that."""
    return page(line(head, 390, 13, 500, 30, 16.4),
                line("ASSIGNING MEANINGS TO PROGRAMS", 128, 120, 480, 141, 20.7),
                *[line("formal definitions of the meanings of programs in appropriately defined programming", 73,
                       166 + 15.5 * i, 540, 180 + 15.5 * i, 13.6) for i in range(35)], width=612, height=792)


def test_a_lone_name_heading_a_reprint_over_its_title_is_its_author() -> None:
    assert paper_record({}, floyd("Robert W. Floyd")).authors == ["Robert W. Floyd"]
    assert paper_record({}, floyd("React Native")).authors == []  # a book's subject, no name


def test_a_companys_limited_and_an_institutes_acronym_are_no_authors() -> None:
    """"John Bates" / "Vita Nuova Limited" / its date; RBFT's grid of names over "Grenoble
    INP" beside the other affiliations."""
    bates = page(line("Reliable Benchmarking with Limbo on Inferno", 159, 123, 450, 138, 14.8, bold=True),
                 line("John Bates", 266, 144, 346, 157, 12.5),
                 line("Vita Nuova Limited", 247, 156, 365, 169, 12.5),
                 line("3rd March 1999", 255, 183, 357, 196, 12.5),
                 line("ABSTRACT", 261, 222, 350, 234, 12.3),
                 *prose(108, 245, 30, size=12.3))
    assert paper_record({}, bates).authors == ["John Bates"]
    grid = page(line("RBFT: Redundant Byzantine Fault Tolerance", 92, 89, 520, 111, 21.4),
                line("Pierre-Louis Aublin   Sonia Ben Mokhtar   Vivien Quéma", 110, 128, 500, 138, 9.8,
                     cells=["Pierre-Louis Aublin", "Sonia Ben Mokhtar", "Vivien Quéma"]),
                line("Grenoble University   CNRS - LIRIS   Grenoble INP", 110, 140, 500, 149, 8.9,
                     cells=["Grenoble University", "CNRS - LIRIS", "Grenoble INP"]),
                line("Abstract—Byzantine Fault Tolerant state machine replication", 58, 190, 300, 199, 8.2, bold=True),
                *prose(58, 210, 40, size=9.0))
    assert paper_record({}, grid).authors == ["Pierre-Louis Aublin", "Sonia Ben Mokhtar", "Vivien Quéma"]


# --- dev43 and dev44 ---------------------------------------------------------------------

def test_names_each_beside_its_own_address_after_a_dash_are_the_names() -> None:
    """"Yulin Yang - yuyang@udel.edu", one a line; the second address mistypes the surname
    but opens with the given name."""
    first = page(line("Null-Space-based Marginalization:", 133, 133, 481, 156, 23.2),
                 line("Analysis and Algorithm", 184, 163, 427, 186, 23.2),
                 line("Yulin Yang - yuyang@udel.edu", 237, 239, 375, 249, 10.2),
                 line("James Maley - james.m.laley2.civ@mail.mil", 209, 252, 402, 263, 10.2),
                 line("Guoquan Huang - ghuang@udel.edu", 224, 266, 388, 276, 10.2),
                 line("Department of Mechanical Engineering", 218, 332, 394, 342, 10.2),
                 *prose(72, 400, 20))
    assert paper_record({}, first).authors == ["Yulin Yang", "James Maley", "Guoquan Huang"]


def test_a_mark_the_font_left_unmapped_after_a_dagger_is_no_part_of_the_name() -> None:
    first = page(line("Evolve or Die: High-Availability Design Principles", 71, 71, 538, 93, 25.0, bold=True),
                 line("Ramesh Govindan†?, Ina Minei†, Mahesh Kallahalla†, Bikash Koley†, Amin Vahdat†",
                      94, 132, 527, 147, 14.8),
                 line("Abstract", 54, 168, 102, 185, 16.8, bold=True),
                 *prose(54, 190, 30, size=12.0))
    assert paper_record({}, first).authors == ["Ramesh Govindan", "Ina Minei", "Mahesh Kallahalla",
                                               "Bikash Koley", "Amin Vahdat"]


def test_a_scans_dagger_read_as_t_after_a_title_in_capitals_is_dropped() -> None:
    first = PageText(number=1, width=612, height=792, scan=True, lines=[
        line("TOWARDS A THEORY OF TYPE STRUCTURE t", 150, 100, 460, 116, 14.0),
        line("John C. Reynolds", 250, 130, 360, 142, 11.0),
        *prose(72, 170, 30)])
    assert paper_record({}, first).title == "TOWARDS A THEORY OF TYPE STRUCTURE"


def test_a_title_set_with_wide_word_spaces_over_its_byline_is_the_title() -> None:
    """A scan's text layer sets the words of Xerox's title two ems apart and more; the
    address under the byline is no title. (Only on a scan, in display type: a born-digital
    page's row of a table or two columns read across at 2-2.25 em is none.)"""
    title = line("Using Threads in Interactive Systems: A Case Study", 127, 47, 480, 61, 13.5,
                 cells=["Using", "Threads", "in Interactive", "Systems:", "A Case Study"])
    # the words' left and right edges: spaces of up to 2.1 em between them
    edges = [(127, 160), (190, 232), (261, 271), (300, 366), (395, 445), (474, 480), (486, 520), (534, 560)]
    text, boxes = title.text, []
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == " "]
    ends = [i for i, ch in enumerate(text) if ch == " "] + [len(text)]
    for k, (a, b) in enumerate(zip(starts, ends)):
        x0, x1 = edges[k]
        step = (x1 - x0) / max(b - a, 1)
        boxes += [(x0 + step * i, 47.0, x0 + step * (i + 1), 61.0) for i in range(b - a)]
        if b < len(text):
            boxes.append((x1, 47.0, edges[k + 1][0], 61.0))  # the space
    title.boxes = boxes
    first = page(title,
                 line("Carl Hauser, Christian Jacobi, Marvin Theimer, Brent Welch and Mark Weiser", 131, 75, 489, 86, 10.1),
                 line("Computer Science Laboratory", 245, 97, 371, 108, 10.1),
                 line("Xerox PARC", 284, 108, 337, 119, 10.1),
                 line("3333 Coyote Hill Road", 262, 119, 361, 130, 10.1),
                 line("Palo Alto, California 94304", 250, 129, 372, 140, 10.1),
                 *prose(60, 164, 40, size=10.1), scan=True)
    assert paper_record({}, first).title == "Using Threads in Interactive Systems: A Case Study"


def memo(head: str, size: float, x0: float, x1: float, scan: bool = True) -> PageText:
    """An AI memo's head: the lab's lines, the memo's number and date, ``head`` over "THE
    ULTIMATE DECLARATIVE", "by" and the author."""
    return page(line("MASSACHUSETTS INSTITUTE OF TECHNOLOGY", 186, 59, 445, 71, 12.1),
                line("ARTIFICIAL INTELLIGENCE LABORATORY", 201, 71, 431, 83, 12.1),
                line("AI Memo 379        November 1976", 90, 105, 542, 116, 10.7, cells=["AI Memo 379", "November 1976"]),
                line(head, x0, 127, x1, 144, size),
                line("THE ULTIMATE DECLARATIVE", 231, 153, 399, 165, 11.4),
                line("by", 310, 177, 321, 184, 7.1),
                line("Guy Lewis Steele Jr. *", 259, 200, 381, 211, 11.1),
                line("Abstract:", 88, 221, 141, 233, 11.4),
                *prose(88, 240, 30, size=10.7), scan=scan)


def test_a_memos_first_word_set_alone_in_larger_capitals_heads_its_title() -> None:
    assert paper_record({}, memo("LAMBDA", 16.4, 287, 345)).title.lower() == "lambda the ultimate declarative"


def test_a_footnotes_revision_date_dates_the_page_over_the_first_versions_date() -> None:
    first = page(line("THE SWIRLDS HASHGRAPH CONSENSUS ALGORITHM:", 140, 100, 470, 116, 14.0),
                 line("LEEMON BAIRD", 260, 130, 350, 142, 11.0),
                 line("MAY 31, 2016", 265, 150, 345, 160, 10.0),
                 line("SWIRLDS TECH REPORT SWIRLDS-TR-2016-01", 200, 165, 410, 175, 10.0),
                 *prose(72, 200, 30),
                 line("1 Revision date: March 18, 2018", 72, 720, 250, 728, 8.0))
    assert page_year(first) == 2018


def test_a_journals_head_with_its_volume_and_pages_before_the_year_dates_the_page() -> None:
    """Academic Press's "JOURNAL OF ALGORITHMS 6, 163-180 (1985)", the © garbled."""
    first = page(line("JOURNALOF ALGORITHMS 6,163-180(1985)", 69, 72, 212, 79, 6.7),
                 line("Dynamic Huffman Coding", 159, 125, 300, 138, 12.6),
                 line("DONALD E. KNUTH*", 188, 146, 266, 155, 8.9),
                 line("Received July 2.1981; revised December 2.1983", 150, 181, 311, 190, 8.9),
                 *prose(88, 220, 30, size=8.9))
    assert page_year(first) == 1985


def test_a_scans_copyright_read_as_a_zero_glued_to_its_year_dates_the_page() -> None:
    """IEEE's foot "0018-9448/84/0300-0306$01.00 ©1984 IEEE" read "… $0 1.00 01984 IEEE", on
    a page that opens with the references of the article before it (its issue line garbled
    past reading)."""
    first = page(line("306 IEEE", 45, 30, 80, 36, 5.7),
                 line("REFERENCES", 415, 54, 464, 61, 7.8),
                 *[line(ref, 313, 74 + 9 * i, 562, 82 + 9 * i, 8.8) for i, ref in enumerate([
                     "[1] P. Elias, “Error-free coding,” IRE Trans. Inform. Theory, vol. PGIT-4, pp. 29-31, Sept. 1954.",
                     "[2] S. Hirasawa, M. Kasahara, Y. Sugiyama, and T. Namekawa, “Certain bounds,” vol. IT-26, 1980.",
                     "[4] G. D. Forney, Jr., Concatenated Codes. Cambridge, MA: M.I.T., 1966.",
                     "[5] IEEE Trans. Inform. Theory, vol. IT-16, pp. 512-513, July 1970."])],
                 line("A Comparison of Enumerative and Adaptive Codes", 127, 279, 480, 300, 24.7),
                 line("JOHN G. CLEARY AND IAN H. WITTEN", 150, 320, 450, 330, 10.0),
                 *prose(49, 400, 25, size=8.8),
                 line("0018-9448/84/0300-0306$0 1.00 01984 IEEE", 205, 731, 401, 741, 10.7))
    assert page_year(first) == 1984


# --- a second read of the reprint rules -------------------------------------------------

def conference(*notes: Line, foot: str = "Copyright 2015 ACM 978-1-4503-3617-8/15/07 ...$15.00.") -> PageText:
    """A conference paper's page: ``notes`` in the body's place after the introduction's
    heading, the venue's © at the foot."""
    return page(line("Paxos Made Moderately Complex", 150, 90, 460, 108, 18.0),
                line("Robbert van Renesse and Deniz Altinbuken", 200, 120, 410, 132, 11.0),
                line("ABSTRACT", 72, 160, 130, 170, 10.0, bold=True),
                *prose(72, 175, 10, size=9.0),
                line("1. INTRODUCTION", 72, 300, 180, 311, 11.0, bold=True),
                *notes, *prose(72, 340, 25, size=9.0),
                line(foot, 72, 740, 400, 748, 7.0))


def test_prose_that_opens_on_a_first_appearance_is_no_reprints_note() -> None:
    """The body's first sentence after a heading, and a figure's footnote, talk of other
    works and events; only a note (set small, or in the head or foot) names where this one
    first appeared."""
    for opening in ("First presented by Lamport in 1989, Paxos is a protocol for state machine replication.",
                    "Originally published in 1998 after a decade of review, the Paxos paper is now read widely."):
        assert page_year(conference(line(opening, 72, 318, 540, 327, 9.0))) == 2015


def test_a_journal_versions_note_of_its_talk_does_not_date_it() -> None:
    """TOCS's "This paper was originally presented at the Ninth ACM Symposium on Operating
    Systems Principles, …, 1983." under "© 1984 ACM": the journal's year (FLP's label is
    its JACM year, not its PODS talk's)."""
    first = page(line("Implementing Remote Procedure Calls", 150, 90, 460, 108, 18.0),
                 line("ANDREW D. BIRRELL and BRUCE JAY NELSON", 180, 120, 430, 132, 11.0),
                 *prose(72, 160, 30),
                 line("This paper was originally presented at the Ninth ACM Symposium on Operating Systems Principles,",
                      72, 700, 540, 708, 8.0),
                 line("Bretton Woods, N.H., October 10-13, 1983.", 72, 709, 260, 717, 8.0),
                 line("© 1984 ACM 0734-2071/84/0200-0039 $00.75", 72, 730, 300, 738, 8.0))
    assert page_year(first) == 1984


def test_a_first_appearance_notes_series_number_is_no_year() -> None:
    assert page_year(plan9(line("First published in Lecture Notes in Computer Science 1666, pp. 1-17, "
                                "Springer-Verlag 1999.", 72, 712, 540, 720, 8.6))) == 1999


def test_a_journals_web_date_and_a_books_first_edition_do_not_date_the_page() -> None:
    assert page_year(plan9(line("First published on: 12 December 2009 (iFirst)", 72, 712, 300, 720, 8.6),
                           line("© 2010 Taylor & Francis", 72, 740, 300, 748, 8.6))) == 2010
    assert page_year(plan9(line("First published 2000 by Morgan Kaufmann", 72, 712, 300, 720, 8.6),
                           line("Second edition 2006", 72, 722, 300, 730, 8.6),
                           line("Copyright © 2006 by Elsevier Inc.", 72, 740, 300, 748, 8.6))) == 2006


def test_a_first_appearance_in_another_form_named_anywhere_in_its_note_does_not_outrank_the_copyright() -> None:
    assert page_year(plan9(line("This paper first appeared as an extended abstract in Proc. 22nd ACM STOC, 1990, pp. 1-10.",
                                72, 712, 540, 720, 8.6),
                           line("© 1992 ACM", 72, 740, 300, 748, 8.6))) == 1992


def test_a_heading_a_dedication_or_a_firm_over_a_title_is_no_author() -> None:
    for head in ("Part I. Foundations", "Appendix A. Proofs", "To Edsger W. Dijkstra", "U. S. Navy"):
        assert paper_record({}, floyd(head)).authors == [], head


def test_the_subject_of_a_tribute_over_its_title_is_no_author() -> None:
    first = page(line("Edsger W. Dijkstra", 390, 13, 500, 30, 16.4),
                 line("IN MEMORIAM", 200, 120, 400, 141, 20.7),
                 *[line("formal definitions of the meanings of programs in appropriately defined programming", 73,
                        166 + 15.5 * i, 540, 180 + 15.5 * i, 13.6) for i in range(35)])
    assert paper_record({}, first).authors == []


def test_a_subtitle_of_limited_data_is_kept() -> None:
    """"limited" is a company's only as a capitalised last word of its name ("Vita Nuova
    Limited"), not the adjective of a subtitle."""
    first = page(line("Few-Shot Object Detection:", 180, 90, 430, 108, 18.0),
                 line("Learning with Limited Labeled Data", 160, 110, 450, 128, 18.0),
                 line("Jane Smith and John Doe", 230, 140, 380, 152, 11.0),
                 *prose(72, 180, 30))
    assert paper_record({}, first).title == "Few-Shot Object Detection: Learning with Limited Labeled Data"


# --- a second read of the dev43 and dev44 rules -------------------------------------------

def test_a_kicker_or_a_stamp_over_a_title_in_capitals_is_no_word_of_it() -> None:
    """"DRAFT", "MEMORANDUM", "VIEWPOINT" set alone in larger capitals over a title in
    capitals; and "LAMBDA" itself on a born-digital page (only a scan's memo sets its title so)."""
    for word in ("DRAFT", "MEMORANDUM", "VIEWPOINT"):
        assert paper_record({}, memo(word, 16.4, 260, 370)).title.lower() == "the ultimate declarative", word
    assert paper_record({}, memo("LAMBDA", 16.4, 287, 345, scan=False)).title.lower() == "the ultimate declarative"


def test_a_role_or_a_company_beside_an_address_is_no_author() -> None:
    def under(byline: str) -> PageText:
        return page(line("Null-Space-based Marginalization: Analysis and Algorithm", 100, 133, 510, 156, 23.2),
                    line(byline, 200, 239, 420, 249, 10.2), *prose(72, 300, 30))
    for byline in ("Help Desk - help@example.org", "Carlos Guestrin - Apple - carlos@apple.com",
                   "Patrick O’Neil UMassBoston patrick@cs.umb.edu"):
        assert paper_record({}, under(byline)).authors == [], byline


def test_a_row_of_three_footnote_marks_over_the_names_does_not_end_the_byline() -> None:
    first = page(line("Thrifty Generic Broadcast", 211, 115, 400, 128, 12.6),
                 line("1 2 3", 249, 152, 275, 157, 4.6, cells=["1", "2", "3"]),
                 line("Marcos Kawazoe Aguilera , Carole Delporte-Gallet, Hugues Fauconnier , and", 136, 153, 476, 160, 4.7),
                 line("1", 330, 164, 333, 169, 4.6),
                 line("Sam Toueg", 281, 165, 330, 172, 4.7),
                 line("1 DIX, Ecole Polytechnique, 91128 Palaiseau Cedex, France,", 185, 185, 427, 192, 5.9),
                 *prose(135, 280, 30, size=4.7))
    assert paper_record({}, first).authors[-1] == "Sam Toueg"


def test_names_of_every_shape_heading_a_reprint_are_its_author() -> None:
    for head in ("John W. McCarthy", "David J. DeWitt", "Kurt F. Gödel", "Guy L. Steele Jr.", "Jean-Pierre A. Jouannaud"):
        assert paper_record({}, floyd(head)).authors == [head], head


def test_a_first_appearance_with_its_year_before_the_venue_dates_the_page() -> None:
    """"Originally published 1931 in …", "Originally published: Communications of the ACM
    …, 1978"; and "… Foundations of Computer Science 1989" keeps its year."""
    for note, year in (("Originally published 1931 in Monatshefte für Mathematik und Physik 38, pp. 173-198.", 1931),
                       ("Originally published: Communications of the ACM 21(7), 1978.", 1978),
                       ("This paper first appeared in Proc. 30th Annual Symposium on Foundations of Computer "
                        "Science 1989, pp. 1-10.", 1989)):
        assert page_year(plan9(line(note, 72, 712, 540, 720, 8.6),
                               line("Copyright © 1995 Lucent Technologies Inc.", 72, 740, 300, 748, 8.6))) == year, note


def knuth(head: list[Line], body: list[Line], year: int) -> PageText:
    """Knuth's page as a journal prints it: ``head`` over the title, ``body`` in the text,
    the publisher's © of ``year`` at the foot."""
    return page(*head, line("Dynamic Huffman Coding", 159, 125, 400, 138, 16.0),
                line("Donald E. Knuth", 200, 146, 300, 155, 11.0),
                *prose(72, 200, 20), *body, *prose(72, 470, 10),
                line(f"Copyright © {year} Academic Press", 72, 740, 300, 748, 8.0))


def test_a_revision_date_in_the_bodys_prose_does_not_date_the_page() -> None:
    """"(version date: 2012)" of a tool the text cites, in the body's type."""
    cited = line("We used the tool of [3] (version date: 2012) on every input of the benchmark in turn.",
                 72, 450, 540, 460, 10.0)
    assert page_year(knuth([], [cited], 1985)) == 1985


def test_a_citation_of_a_journal_at_the_head_does_not_date_the_page() -> None:
    erratum = line("Erratum: Journal of Algorithms 6, 163-180 (1985)", 72, 60, 400, 68, 8.0)
    assert page_year(knuth([erratum], [], 1987)) == 1987


def test_a_variable_t_ending_a_scans_title_is_kept() -> None:
    first = PageText(number=1, width=612, height=792, scan=True, lines=[
        line("TABLES OF THE NONCENTRAL t", 150, 100, 460, 116, 14.0),
        line("John C. Reynolds", 250, 130, 360, 142, 11.0),
        *prose(72, 170, 30)])
    assert paper_record({}, first).title.endswith(" t")
