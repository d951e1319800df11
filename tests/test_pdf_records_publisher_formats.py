"""Publishers' formats on first pages the dev29 rules first misread (a second read of them
found each): a citation of the paper still holding its template's sample year, a hand-typed
PVLDB citation in another order than the byline, a two-letter given name in a citation, a
surname ending in a degree's letters, Maryland's code after a city, a keywords heading in a
CHI sidebar. Each asserts what the rules before dev29 read."""

from __future__ import annotations

import pytest

from athena_lab.pdf.layout import Line
from athena_lab.pdf.meta import paper_record
from athena_lab.pdf.pages import PageText

pytestmark = pytest.mark.unit


def line(text: str, x0: float, y0: float, x1: float, y1: float, size: float,
         cells: list[str] | None = None) -> Line:
    return Line(text=text, boxes=[], bbox=(x0, y0, x1, y1), size=size, bold=False, cells=cells or [text])


def page(*lines: Line, width: float = 612, height: float = 792, margin: str = "") -> PageText:
    return PageText(number=1, width=width, height=height, lines=list(lines), margin=margin)


def prose(x0: float, y0: float, x1: float, size: float, n: int, step: float) -> list[Line]:
    return [line("Some prose of the paper's abstract, set in the body type of the page here.", x0, y0 + step * i,
                 x1, y0 + step * i + size, size) for i in range(n)]


# --- rule 1: the paper's citation of itself -----------------------------------------------

ACMART_PREPRINT = [
    line("Learned Cardinality Estimation for Join Queries", 99, 84, 513, 101, 17.3),
    line("Jane Doe", 130, 115, 178, 127, 12.0),
    line("John Roe", 418, 115, 466, 127, 12.0),
    line("University of Somewhere", 96, 129, 212, 139, 10.0),
    line("Some Institute", 408, 129, 476, 139, 10.0),
    line("jane@somewhere.edu", 107, 141, 201, 151, 10.0),
    line("john@inst.org", 412, 141, 472, 151, 10.0),
    line("ABSTRACT", 54, 170, 113, 181, 10.0),
    *prose(54, 185, 295, 9.0, 12, 11),
    line("CCS CONCEPTS", 54, 330, 125, 341, 10.0),
    line("• Information systems → Query optimization.", 54, 345, 230, 354, 9.0),
    line("KEYWORDS", 54, 362, 105, 373, 10.0),
    line("cardinality estimation, learned models", 54, 377, 220, 386, 9.0),
    line("ACM Reference Format:", 54, 393, 142, 401, 7.7),
    line("Jane Doe and John Roe. 2018. Learned Cardinality Estimation for Join", 54, 403, 295, 411, 7.7),
    line("Queries. In Proceedings of ACM Conference (Conference’17). ACM, New", 54, 412, 295, 420, 7.7),
    line("York, NY, USA, 12 pages. https://doi.org/10.1145/nnnnnnn.nnnnnnn", 54, 421, 270, 429, 7.7),
    line("Permission to make digital or hard copies of all or part of this work for personal or", 54, 640, 295, 647, 6.9),
    line("classroom use is granted without fee provided that copies are not made or distributed", 54, 648, 295, 655, 6.9),
    line("1 INTRODUCTION", 318, 170, 400, 181, 10.0)]


def test_a_template_year_in_the_citation_does_not_outrank_the_arxiv_stamp() -> None:
    """acmart's sample values left in a preprint ("2018", "Conference’17", "Woodstock '18"):
    the arXiv stamp's year was read (2023); the citation's 2018 now outranks it."""
    footer = [line("Conference’17, July 2017, Washington, DC, USA", 54, 690, 190, 697, 6.9),
              line("© 2018 Association for Computing Machinery.", 54, 698, 180, 705, 6.9),
              line("ACM ISBN 978-x-xxxx-xxxx-x/YY/MM...$15.00", 54, 706, 190, 713, 6.9)]
    first = page(*ACMART_PREPRINT, *footer, margin="arXiv:2305.01234v2 [cs.DB] 12 May 2023")
    assert paper_record({}, first).year == 2023


def test_a_template_year_in_the_citation_does_not_outrank_the_copyright() -> None:
    """\\acmYear left at the sample's 2018 while the venue and © were set (2023)."""
    footer = [line("KDD ’23, August 6–10, 2023, Long Beach, CA, USA", 54, 690, 220, 697, 6.9),
              line("© 2023 Copyright held by the owner/author(s). Publication rights licensed to ACM.", 54, 698, 295, 705, 6.9)]
    assert paper_record({}, page(*ACMART_PREPRINT, *footer)).year == 2023


def test_the_pvldb_templates_year_does_not_outrank_the_arxiv_stamp() -> None:
    """vldb.cls's default \\vldbyear{2020} ("PVLDB, 14(1): XXX-XXX, 2020.") on a 2023 preprint."""
    lines = [line("Learned Cardinality Estimation for Join Queries", 99, 84, 513, 101, 17.3),
             line("Jane Doe", 130, 115, 178, 127, 12.0),
             line("John Roe", 418, 115, 466, 127, 12.0),
             line("University of Somewhere", 96, 129, 212, 139, 10.0),
             line("Some Institute", 408, 129, 476, 139, 10.0),
             line("ABSTRACT", 54, 170, 113, 181, 10.0),
             *prose(54, 185, 295, 9.0, 12, 11),
             line("PVLDB Reference Format:", 54, 330, 150, 338, 7.7),
             line("Jane Doe, John Roe. Learned Cardinality Estimation for Join Queries.", 54, 339, 295, 347, 7.7),
             line("PVLDB, 14(1): XXX-XXX, 2020.", 54, 348, 160, 356, 7.7),
             line("doi:XX.XX/XXX.XX", 54, 357, 120, 365, 7.7),
             line("PVLDB Artifact Availability:", 54, 372, 160, 380, 7.7),
             line("This work is licensed under the Creative Commons BY-NC-ND 4.0 International", 54, 650, 295, 657, 6.9),
             line("Proceedings of the VLDB Endowment, Vol. 14, No. 1 ISSN 2150-8097.", 54, 690, 295, 697, 6.9),
             line("1 INTRODUCTION", 318, 170, 400, 181, 10.0)]
    first = page(*lines, margin="arXiv:2302.04567v1 [cs.DB] 9 Feb 2023")
    assert paper_record({}, first).year == 2023


PROCELLA_HEAD = [
    line("Procella: Unifying serving and analytical data at YouTube", 61, 72, 549, 89, 16.8),
    line("Biswapesh Chattopadhyay", 124, 118, 264, 129, 11.1),
    line("Weiran Liu Ott Tinn", 369, 118, 485, 129, 11.1, ["Weiran Liu", "Ott Tinn"]),
    line("Priyam Dutta", 282, 118, 351, 129, 11.1),
    line("Paul Harvey Hector Gonzalez", 328, 132, 499, 144, 11.1, ["Paul Harvey", "Hector Gonzalez"]),
    line("Aniket Mokashi", 229, 133, 310, 144, 11.3),
    line("Andrew Mccormick", 111, 133, 212, 144, 11.1),
    line("David Lomax Sagar Mittal", 78, 147, 228, 158, 11.1, ["David Lomax", "Sagar Mittal"]),
    line("Roee Ebenstein", 246, 147, 330, 158, 11.1),
    line("Xiaoyan Zhao Tony Xu Luis Perez", 95, 162, 302, 173, 11.1, ["Xiaoyan Zhao", "Tony Xu", "Luis Perez"]),
    line("Neil McKay Selcuk Aya", 149, 176, 286, 187, 11.2, ["Neil McKay", "Selcuk Aya"]),
    line("Nikita Mikhaylin Hung-ching Lee", 348, 147, 532, 158, 11.2, ["Nikita Mikhaylin", "Hung-ching Lee"]),
    line("Farhad Shahmohammadi Tran Bui", 320, 161, 515, 173, 11.1, ["Farhad Shahmohammadi", "Tran Bui"]),
    line("Vera Lychagina Brett Elliott", 304, 176, 461, 187, 11.1, ["Vera Lychagina", "Brett Elliott"]),
    line("Google LLC", 278, 190, 331, 200, 9.4),
    line("procella-paper@google.com", 230, 207, 380, 218, 11.1),
    line("ABSTRACT", 54, 234, 118, 245, 10.7)]
PROCELLA_CITED = [
    line("PVLDB Reference Format:", 54, 417, 170, 424, 7.1),
    line("Biswapesh Chattopadhyay, Priyam Dutta, Weiran Liu, Ott Tinn,", 54, 426, 294, 433, 7.1),
    line("Andrew Mccormick, Aniket Mokashi, Paul Harvey, Hector Gonzalez,", 53, 435, 294, 442, 7.1),
    line("David Lomax, Sagar Mittal, Roee Ebenstein, Hung-ching Lee,", 54, 444, 294, 451, 7.1),
    line("Xiaoyan Zhao, Tony Xu, Luis Perez, Farhad Shahmohammadi,", 53, 453, 294, 460, 7.1),
    line("Tran Bui, Neil McKay, Nikita Mikhaylin, Selcuk Aya, Vera Lychagina,", 53, 462, 294, 469, 7.1),
    line("Brett Elliott. Procella: Unifying serving and analytical", 54, 471, 293, 478, 7.1),
    line("data at YouTube. PVLDB, 12(12): 2022-2034, 2019.", 54, 479, 249, 487, 7.1),
    line("DOI: https://doi.org/10.14778/3352063.3352121", 54, 488, 232, 496, 7.1)]


def test_a_hand_typed_pvldb_citation_does_not_reorder_a_byline_read_right() -> None:
    """Procella (lines as pdfium reads the real page): the byline puts Mikhaylin after
    Ebenstein, as the indexes do (Web of Science); \\vldbauthors, typed by hand, puts him
    after McKay. The same names in another order are no name the byline missed."""
    authors = paper_record({}, page(*PROCELLA_HEAD, *PROCELLA_CITED)).authors
    assert authors[10:13] == ["Roee Ebenstein", "Nikita Mikhaylin", "Hung-ching Lee"]


def test_a_two_letter_initial_does_not_cut_the_pvldb_citation_short() -> None:
    """"Mikhail Yu. Ivanov": the names were taken to end at "Yu." ("…, Mikhail Yu"), and that
    list of two replaced the byline's three."""
    byline = [line("Scalable Join Processing on Modern Hardware", 120, 76, 492, 94, 18.0),
              line("Jane Doe", 82, 124, 130, 136, 12.0), line("Mikhail Yu. Ivanov", 255, 124, 355, 136, 12.0),
              line("Ann Lee", 450, 124, 494, 136, 12.0), line("University of Somewhere", 240, 143, 372, 154, 10.1),
              line("ABSTRACT", 54, 189, 119, 203, 13.3), *prose(54, 205, 294, 8.0, 12, 10)]
    cited = [line("PVLDB Reference Format:", 54, 552, 159, 562, 10.1),
             line("Jane Doe, Mikhail Yu. Ivanov, Ann Lee. Scalable Join Processing on", 54, 563, 294, 572, 10.1),
             line("Modern Hardware. PVLDB, 14(3): 301-313, 2020.", 54, 573, 294, 582, 10.1),
             line("doi:10.14778/3415478.3415546", 54, 583, 230, 592, 10.1)]
    assert paper_record({}, page(*byline, *cited)).authors == ["Jane Doe", "Mikhail Yu. Ivanov", "Ann Lee"]


# --- rule 2: undotted degrees ------------------------------------------------------------

def test_a_surname_ending_in_mba_keeps_its_letters() -> None:
    """An ACM journal's byline in capitals ("FABIO PALOMBA, University of Salerno"): the
    undotted "MBA" has no word boundary before it and cut "PALOMBA" to "Palo"."""
    first = page(line("On the Diffuseness and the Impact on Maintainability of Code Smells", 46, 82, 420, 95, 13.6),
                 line("FABIO PALOMBA, University of Salerno", 46, 114, 200, 124, 8.5),
                 line("GABRIELE BAVOTA, Università della Svizzera italiana", 46, 127, 260, 137, 8.5),
                 line("MASSIMILIANO DI PENTA, University of Sannio", 46, 140, 240, 150, 8.5),
                 line("This article proposes to study the diffuseness of code smells in a large set of projects and their",
                      46, 170, 441, 179, 8.5),
                 line("impact on the change- and fault-proneness of the classes affected by them, over their histories",
                      46, 181, 440, 190, 8.5))
    assert paper_record({}, first).authors == ["Fabio Palomba", "Gabriele Bavota", "Massimiliano Di Penta"]


def test_maryland_after_a_city_is_no_degree() -> None:
    """"Silver Spring, MD" (FDA, NOAA), "Fort Meade, MD" (NSA), "Patuxent River, MD": the
    state's code read as the degree MD leaves a two-word city that reads as a person."""
    title = line("Detecting Adverse Drug Events in Clinical Notes", 150, 90, 462, 106, 16.0)
    shared = page(title, line("Jane Roe and John Doe", 250, 130, 362, 142, 12.0),
                  line("Center for Devices and Radiological Health, FDA", 183, 144, 429, 156, 10.0),
                  line("Silver Spring, MD", 265, 157, 347, 168, 10.0), *prose(72, 320, 540, 10.0, 20, 12))
    assert paper_record({}, shared).authors == ["Jane Roe", "John Doe"]
    columns = page(title,
                   line("Jane Roe", 140, 130, 190, 142, 11.0), line("John Doe", 420, 130, 470, 142, 11.0),
                   line("Applied Physics Laboratory", 95, 144, 235, 155, 10.0),
                   line("National Security Agency", 380, 144, 510, 155, 10.0),
                   line("Laurel, MD", 138, 157, 192, 168, 10.0), line("Fort Meade, MD", 405, 157, 485, 168, 10.0),
                   line("jane.roe@jhuapl.edu", 115, 170, 215, 181, 10.0), line("jdoe@nsa.gov", 415, 170, 475, 181, 10.0),
                   *prose(72, 320, 540, 10.0, 20, 12))
    assert paper_record({}, columns).authors == ["Jane Roe", "John Doe"]


# --- rule 4: author blocks stacked down a sidebar ----------------------------------------

def test_a_keywords_heading_in_the_sidebar_is_no_author_whatever_its_keywords() -> None:
    """The commit's own guard ("Author Keywords" over "Sustainability; rebound effects"),
    with keywords that name a field in _ORG's words ("social computing", "design
    research"): the block counts as affiliated and "Author Keywords" is read as an author."""
    sidebar = [line("Samuel J. Kaufman", 180, 186, 266, 194, 7.7),
               line("Dept. of Computer Science & Engineering", 180, 198, 348, 206, 7.7),
               line("University of Washington", 180, 210, 280, 218, 7.7),
               line("Seattle, WA 98195 USA", 180, 222, 275, 230, 7.7),
               line("kaufmans@cs.washington.edu", 180, 234, 302, 242, 7.7),
               line("Author Keywords", 180, 258, 255, 266, 7.7),
               line("Sustainability; social computing; rebound effects", 180, 270, 318, 278, 7.7)]
    rest = [line("Copyright is held by the author/owner(s).", 180, 502, 347, 510, 7.7),
            line("CHI 2011, May 7–12, 2011, Vancouver, BC, Canada.", 180, 514, 390, 522, 7.7),
            line("Abstract", 459, 184, 510, 195, 10.5),
            line("Much sustainable HCI design research hopes to achieve net", 459, 199, 702, 207, 7.7),
            line("reductions in greenhouse gas emissions via persuasive or", 459, 211, 702, 219, 7.7)]
    first = page(line("Rebound Effects in Sustainable HCI", 276, 123, 666, 146, 22.6), *sidebar, *rest,
                 width=792, height=612)
    assert paper_record({}, first).authors == ["Samuel J. Kaufman"]
