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


def page(*lines: Line, width: float = 612, height: float = 792) -> PageText:
    return PageText(number=1, width=width, height=height, lines=list(lines))


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
