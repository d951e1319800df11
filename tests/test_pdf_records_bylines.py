"""Bylines, typescripts and memoranda the dev34 round misread (a personal library of
security, cryptography and programming-language papers, and a recommender-systems reading
list): an affiliation set small and tight under each name of an ACM grid, a list of names
wrapped inside its block beside another block, a given name opening with a place's word,
a thesis cover's department and university, Springer's proceedings foot, a scan's dagger
after a title, a typescript's title in capitals and its dated byline over it, and a
memorandum's fields. Each asserts the right reading, with the lines (or the characters)
pdfium gave for the page."""

from __future__ import annotations

import pytest

from athena_lab.pdf.extract import Char, Fragment
from athena_lab.pdf.layout import Line, reading_order
from athena_lab.pdf.meta import page_year, paper_record
from athena_lab.pdf.pages import PageText

pytestmark = pytest.mark.unit


def line(text: str, x0: float, y0: float, x1: float, y1: float, size: float,
         cells: list[str] | None = None, bold: bool = False, column: int = 0) -> Line:
    return Line(text=text, boxes=[], bbox=(x0, y0, x1, y1), size=size, bold=bold,
                cells=cells or [text], column=column)


def page(*lines: Line, width: float = 612, height: float = 792, scan: bool = False) -> PageText:
    return PageText(number=1, width=width, height=height, lines=list(lines), scan=scan)


def prose(x0: float, y0: float, n: int, size: float = 10.0, column: int = 0) -> list[Line]:
    return [line("User interfaces are often based on static presentations, a model ill suited", x0,
                 y0 + 1.1 * size * i, x0 + 241, y0 + 1.1 * size * i + size, size, column=column) for i in range(n)]


def cook(foot: str) -> PageText:
    """Cook's "Universality in Elementary Cellular Automata" page, ``foot`` its last line,
    small at the page's very foot."""
    return page(line("Universality in Elementary Cellular Automata", 90, 80, 345, 96, 14.0),
                line("Matthew Cook", 180, 110, 250, 122, 11.7),
                *[line("should change to state 0 just when the cells on both sides are in state",
                       60, 150 + 12 * i, 366, 162 + 12 * i, 11.7) for i in range(30)],
                line(foot, 93, 605, 333, 614, 8.2), width=434, height=648)


def occam(head: str) -> PageText:
    """The occam-pi paper's page, ``head`` its first line, small at the top."""
    return page(line(head, 79, 43, 520, 52, 8.6),
                line("A Foreign Function Interface Generator for occam-pi", 120, 100, 480, 116, 14.0),
                line("Damian J. DIMMICH and Christian L. JACOBSEN", 170, 130, 430, 142, 10.0),
                *prose(79, 170, 30))


def run(text: str, x0: float, y0: float, y1: float, size: float) -> Fragment:
    """A fragment of ``text``, its characters 0.5 em wide from ``x0``."""
    step = size / 2
    return Fragment([Char(ch, x0 + step * i, y0, x0 + step * (i + 1), y1, size, False, size)
                     for i, ch in enumerate(text)])


def test_an_affiliation_set_small_right_under_a_name_is_a_line_of_its_own() -> None:
    """An ACM grid (Sculley et al., KDD 2011): "Google, Inc." in 11.6 pt so close under
    "Matthew Eric Otey" that their boxes touch was folded into the name's line as a
    formula's piece, "MattGoogle,hewErInc.icOtey", and four of six authors were lost."""
    lines = reading_order([run("Matthew Eric Otey", 256, 115, 129, 14.0),
                           run("Google, Inc.", 278, 128, 139, 11.6),
                           run("otey@google.com", 257, 138, 152, 14.0)])
    assert [ln.text for ln in lines] == ["Matthew Eric Otey", "Google, Inc.", "otey@google.com"]


def test_a_short_piece_set_small_under_a_line_is_still_its_script() -> None:
    """The words' rule leaves a formula alone: a subscript "max" under "x" still folds in."""
    lines = reading_order([run("the bound x is tight here", 100, 100, 110, 10.0),
                           run("max", 130, 108, 115, 7.0)])
    assert len(lines) == 1


def two_blocks(right_first: str = "Jaikit Savla, Varun Bhagwan,") -> PageText:
    return page(line("E-commerce in Your Inbox:", 190, 72, 420, 89, 16.8, bold=True, column=-1),
                line("Product Recommendations at Scale", 152, 92, 458, 109, 16.8, bold=True, column=-1),
                line("Mihajlo Grbovic, Vladan Radosavljevic,", 89, 138, 295, 149, 11.1),
                line("Nemanja Djuric, Narayan Bhamidipati", 93, 150, 291, 161, 11.1),
                line("Yahoo Labs", 166, 162, 218, 171, 9.2),
                line("701 First Avenue, Sunnyvale, USA", 116, 172, 268, 182, 9.2),
                line("ABSTRACT", 54, 233, 118, 244, 10.7, bold=True),
                *prose(54, 250, 20, 8.0),
                line(right_first, 341, 138, 495, 149, 11.1, column=1),
                line("Doug Sharp", 386, 150, 450, 162, 11.1, column=1),
                line("Yahoo, Inc.", 394, 162, 442, 172, 9.2, column=1),
                line("701 First Avenue, Sunnyvale, USA", 342, 172, 494, 182, 9.2, column=1),
                line("1. INTRODUCTION", 317, 233, 433, 244, 10.7, bold=True, column=1),
                *prose(326, 248, 20, 8.0, column=1))


def test_a_list_of_names_wrapped_inside_its_block_is_read_before_the_block_beside_it() -> None:
    """Grbovic et al. (KDD 2015): two companies' blocks side by side, each a list of names
    wrapped over two lines; read row by row across the blocks, Savla and Bhagwan came
    between Radosavljevic and Djuric."""
    assert paper_record({}, two_blocks()).authors == [
        "Mihajlo Grbovic", "Vladan Radosavljevic", "Nemanja Djuric", "Narayan Bhamidipati",
        "Jaikit Savla", "Varun Bhagwan", "Doug Sharp"]


def test_a_list_wrapped_across_the_pages_width_keeps_its_rows_order() -> None:
    """Jupiter Rising (SIGCOMM 2015): one list over three lines across the page, its middle
    line cut in two at the gutter: the line under the left piece is the list's next row,
    not the left piece's block."""
    first = page(line("Jupiter Rising: A Decade of Clos Topologies and", 74, 75, 535, 95, 18.7, bold=True, column=-1),
                 line("Centralized Control in Google’s Datacenter Network", 61, 97, 549, 116, 18.7, bold=True, column=-1),
                 line("Arjun Singh, Joon Ong, Amit Agarwal, Glen Anderson,", 77, 154, 533, 165, 11.1, column=-1),
                 line("Seb Boving, Gaurav Desai,", 61, 166, 292, 177, 11.1),
                 line("Paulie Germano, Anand Kanagala,", 296, 166, 549, 177, 11.1, column=1),
                 line("Jason Simmons, Eiichi Tanda, and Amin Vahdat", 64, 178, 546, 190, 11.1, column=-1),
                 line("Google, Inc.", 275, 190, 334, 201, 10.1, column=-1),
                 line("ABSTRACT", 54, 234, 124, 246, 11.6, bold=True),
                 *prose(54, 252, 20, 8.8))
    assert paper_record({}, first).authors == [
        "Arjun Singh", "Joon Ong", "Amit Agarwal", "Glen Anderson", "Seb Boving", "Gaurav Desai",
        "Paulie Germano", "Anand Kanagala", "Jason Simmons", "Eiichi Tanda", "Amin Vahdat"]


def test_a_given_name_opening_with_a_places_word_is_a_name() -> None:
    """"Bay-Wei Chang" (UIST '93): "Bay" is a place's word ("Bay Area"), and the line was
    read as an address, so only the second author was left."""
    first = page(line("Published in UIST’93: User Interface Software and Technology, Atlanta, GA, November 3-5, 1993. pp. 45-55",
                      92, 27, 522, 36, 9.0, column=-1),
                 line("Animation:", 259, 55, 353, 73, 18.0, bold=True, column=-1),
                 line("From Cartoons to the User Interface", 152, 75, 460, 93, 18.0, bold=True, column=-1),
                 line("Bay-Wei Chang", 137, 127, 212, 139, 12.0),
                 line("Computer Systems Laboratory", 101, 153, 248, 165, 12.0),
                 line("Stanford University", 127, 167, 222, 179, 12.0),
                 line("ABSTRACT", 54, 314, 103, 323, 9.0, bold=True),
                 *prose(54, 331, 20),
                 line("David Ungar", 406, 127, 470, 139, 12.0, column=1),
                 line("Sun Microsystems Laboratories, Inc.", 350, 153, 526, 165, 12.0, column=1),
                 line("Mountain View, CA 94043", 373, 181, 503, 193, 12.0, column=1),
                 *prose(317, 246, 20, column=1))
    record = paper_record({}, first)
    assert record.authors == ["Bay-Wei Chang", "David Ungar"]
    assert record.year == 1993


def test_a_thesis_covers_department_and_university_are_no_authors_and_its_year_under_them_dates_it() -> None:
    """A thesis cover of the University of Iceland: "Tölvunarfræðideild" / "Háskóli
    Íslands" / "2010" at its foot; the two lines were read as a second author (and the
    year was found only through them)."""
    first = page(line("Morpho VM: An Indirect Threaded Stackless", 76, 326, 519, 343, 17.5, bold=True),
                 line("Virtual Machine", 219, 347, 377, 365, 17.5, bold=True),
                 line("Hallgrímur H. Gunnarsson", 206, 572, 389, 586, 13.7),
                 line("Tölvunarfræðideild", 219, 740, 389, 755, 15.5, bold=True),
                 line("Háskóli Íslands", 235, 756, 373, 775, 15.5, bold=True),
                 line("2010", 282, 779, 327, 794, 15.5), width=595, height=842)
    record = paper_record({}, first, "Morpho VM An Indirect Threaded Stackless Virtual Machine.pdf")
    assert record.title == "Morpho VM: An Indirect Threaded Stackless Virtual Machine"
    assert record.authors == ["Hallgrímur H. Gunnarsson"]
    assert record.year == 2010


def chaum(title: str = "Untraceable Electronic Cash t") -> PageText:
    return page(line(title, 135, 47, 280, 61, 11.1),
                line("(Extended Abstract)", 165, 65, 252, 76, 11.1),
                line("David Chaum Amos Fiat * Moni Naor", 111, 89, 304, 107, 11.2,
                     cells=["David Chaum", "Amos Fiat *", "Moni Naor"]),
                line("Center for Mathematics and Computer Science", 111, 125, 310, 136, 11.1),
                line("Tel-Aviv University", 171, 158, 254, 169, 11.1),
                line("Introduction", 35, 245, 96, 256, 11.1),
                *[line("The use of credit cards today is an act of faith on the part of all concerned. Each party",
                       35, 263 + 14 * i, 400, 274 + 14 * i, 11.1) for i in range(20)],
                line("S. Goldwasser (Ed.): Advances in Cryptology - CRYPT0 '88, LNCS 403, pp. 319-327, 1990.",
                     16, 624, 317, 633, 8.9),
                line("0 Springer-Verlag Berlin Heidelberg 1990", 16, 634, 154, 643, 8.9),
                width=431, height=666, scan=True)


def test_springers_proceedings_foot_dates_its_page() -> None:
    """"S. Goldwasser (Ed.): Advances in Cryptology - CRYPTO '88, LNCS 403, pp. 319-327,
    1990.": a venue line by its series, the year the volume printed (the scan garbled the
    © of the line under it into "0")."""
    assert page_year(chaum()) == 1990


def test_a_scans_dagger_read_as_a_t_after_a_title_is_no_part_of_it() -> None:
    assert paper_record({}, chaum(), "untraceable-electronic-cash-1988.pdf").title == "Untraceable Electronic Cash"


def merkle() -> PageText:
    return page(line("Dec. 7, 1975 Ralph C. Merkle", 72, 70, 513, 86, 15.6, cells=["Dec. 7, 1975", "Ralph C. Merkle"]),
                line("SECURE COMMUNICATIONS OVER INSECURE CHANNELS", 173, 106, 491, 122, 15.6),
                line("People have been communicating with each other for many", 121, 130, 513, 146, 15.6),
                *[line("millenia. Often they wish to communicate privately. Since the first use of",
                       85, 154 + 24.4 * i, 549, 170 + 24.4 * i, 15.6) for i in range(20)], scan=True)


def test_a_typescripts_title_in_capitals_ends_where_its_prose_begins() -> None:
    """Merkle's 1975 manuscript, set in one typewriter type: the title in capitals grew into
    the paragraph under it, and a title that long was none."""
    assert paper_record({}, merkle()).title == "Secure Communications Over Insecure Channels"


def test_a_typescripts_byline_over_its_title_is_read_past_its_date() -> None:
    """"Dec. 7, 1975      Ralph C. Merkle" over the title: the date's cell is no name."""
    record = paper_record({}, merkle())
    assert record.authors == ["Ralph C. Merkle"]
    assert record.year == 1975


def test_a_memorandums_subject_is_its_title_and_its_sender_its_author() -> None:
    """Licklider's 1963 memorandum to the "Intergalactic Computer Network": the agency's
    letterhead in capitals was read as the title, and no author was found."""
    first = page(line("ADVANCED RESEARCH PROJECTS AGENCY", 90, 74, 328, 86, 12.0),
                 line("Washington 25, D.C. April 23, 1963", 90, 102, 335, 114, 12.0),
                 line("MEMORANDUM FOR: Members and Affiliates of the Intergalactic", 90, 130, 515, 142, 12.0),
                 line("Computer Network", 90, 144, 205, 156, 12.0),
                 line("FROM: J. C. R. Licklider", 90, 172, 263, 184, 12.0),
                 line("SUBJECT: Topics for Discussion at the Forthcoming", 90, 200, 500, 212, 12.0),
                 line("Meeting", 90, 214, 150, 226, 12.0),
                 *[line("First, I apologize humbly for having to postpone the meeting scheduled for",
                        90, 242 + 14 * i, 508, 254 + 14 * i, 12.0) for i in range(20)])
    record = paper_record({}, first)
    assert record.title == "Topics for Discussion at the Forthcoming Meeting"
    assert record.authors == ["J. C. R. Licklider"]
    assert record.year == 1963


def test_a_title_naming_dotnet_is_no_address() -> None:
    """"FOR SCALABLE AND RELIABLE .NET SERVICES": ".NET" read as a web address's ending
    ended the title at its first line."""
    first = page(line("A FLEXIBLE REPLICATION FRAMEWORK", 140, 94, 469, 112, 17.7, bold=True),
                 line("FOR SCALABLE AND RELIABLE .NET SERVICES", 117, 113, 492, 130, 17.7, bold=True),
                 line("Hans P. Reiser", 272, 155, 337, 167, 12.2),
                 line("Dept. of Distributed Systems, University of Ulm, Germany", 186, 168, 424, 179, 11.3),
                 line("reiser@informatik.uni-ulm.de", 245, 180, 365, 191, 11.3),
                 line("ABSTRACT", 85, 331, 134, 341, 10.0, bold=True),
                 *prose(85, 345, 20))
    record = paper_record({}, first)
    assert record.title is not None and record.title.lower() == \
        "a flexible replication framework for scalable and reliable .net services"
    assert record.authors == ["Hans P. Reiser"]


def test_a_copyrights_holder_under_the_title_is_no_subtitle() -> None:
    """Notes that print "© Miguel Garcia, LAMP," under their title: the line was joined to
    the title as its subtitle."""
    first = page(line("Playground for LINQ Expression Trees", 162, 166, 431, 181, 15.3),
                 line("◯c Miguel Garcia, LAMP,", 230, 198, 363, 209, 10.6),
                 line("Ecole Polytechnique Fédérale de Lausanne (EPFL)", 166, 211, 428, 225, 10.6),
                 line("July 10th, 2010", 258, 251, 335, 263, 10.6),
                 line("Abstract", 276, 290, 317, 298, 8.0),
                 *prose(150, 305, 20, 8.0))
    assert paper_record({}, first).title == "Playground for LINQ Expression Trees"


def test_an_affiliation_after_a_dash_is_no_second_author() -> None:
    """LISA '07: "James Hamilton – Windows Live Services Platform"."""
    first = page(line("On Designing and Deploying Internet-Scale Services", 120, 90, 490, 108, 16.0, bold=True),
                 line("James Hamilton – Windows Live Services Platform", 180, 120, 430, 132, 12.0),
                 line("ABSTRACT", 54, 160, 118, 171, 10.0, bold=True),
                 *prose(54, 175, 20))
    assert paper_record({}, first).authors == ["James Hamilton"]


def test_an_address_over_the_e_mails_opens_no_wrapped_list_of_names() -> None:
    """Purdue's "West Lafayette, IN 47907–1398" over a line of e-mails was read with it as
    a name and its affiliation, and "West Lafayette" became a seventh author."""
    first = page(line("Analysis of a Denial of Service Attack on TCP", 157, 104, 438, 120, 16.4),
                 line("Christoph L. Schuba, Ivan V. Krsul, Markus G. Kuhn,", 169, 144, 426, 158, 13.5),
                 line("Eugene H. Spafford, Aurobindo Sundaram, Diego Zamboni", 155, 158, 440, 172, 13.5),
                 line("COAST Laboratory", 250, 172, 345, 186, 13.5),
                 line("Purdue University", 254, 200, 341, 214, 13.5),
                 line("West Lafayette, IN 47907–1398", 221, 228, 374, 241, 13.5),
                 line("schuba,krsul,kuhn,spaf,sundaram,zamboni @cs.purdue.edu", 157, 242, 444, 255, 13.5),
                 line("Abstract", 146, 284, 190, 297, 13.7),
                 *prose(50, 310, 20, 11.2))
    assert paper_record({}, first).authors == ["Christoph L. Schuba", "Ivan V. Krsul", "Markus G. Kuhn",
                                               "Eugene H. Spafford", "Aurobindo Sundaram", "Diego Zamboni"]


def test_a_journals_line_at_the_pages_foot_dates_it() -> None:
    """Complex Systems' foot, "Complex Systems, 15 (2004) 1–40; © 2004 Complex Systems
    Publications, Inc." (its © read as "+"), dated nothing; a footnote's line does not."""
    assert page_year(cook("Complex Systems, 15 (2004) 1–40; + 2004 Complex Systems Publications, Inc.")) == 2004
    assert page_year(cook("1 See Complex Systems, 15 (2004) 1–40, for the proof.")) is None


def test_a_name_in_capitals_before_its_affiliation_and_country_is_one_author() -> None:
    """ACM's journals: "MALTE LUDEWIG, TU Dortmund, Germany" / "DIETMAR JANNACH, AAU
    Klagenfurt, Austria"; the second line, its university unknown by name, gave no author
    unless read with the first, and then "AAU Klagenfurt" was a third."""
    first = page(line("Evaluation of Session-based Recommendation Algorithms", 46, 85, 424, 98, 6.7, bold=True),
                 line("MALTE LUDEWIG, TU Dortmund, Germany", 46, 116, 226, 126, 8.4),
                 line("DIETMAR JANNACH, AAU Klagenfurt, Austria", 46, 129, 238, 139, 8.4),
                 *[line("Recommender systems help users find relevant items of interest, for example on e-commerce",
                        46, 148 + 11 * i, 440, 156 + 11 * i, 8.4) for i in range(30)], width=486, height=720)
    assert paper_record({}, first).authors == ["Malte Ludewig", "Dietmar Jannach"]
    lab = page(*first.lines[:2], line("SFR MATHSTIC, F-49000 Angers, France", 46, 129, 238, 139, 8.4),
               *first.lines[3:], width=486, height=720)
    assert paper_record({}, lab).authors == ["Malte Ludewig"]  # an address's lab in capitals is no one


def test_a_proceedings_head_naming_its_press_dates_the_page() -> None:
    """"Communicating Process Architectures 2005" / "IOS Press, 2005" over a paper: a
    publisher's line in the page's head, as "North Holland Publishing Company, 1976" is."""
    first = page(line("Communicating Process Architectures 2005 235", 79, 43, 520, 52, 8.6),
                 line("Jan Broenink et al. (Eds.)", 79, 55, 190, 64, 8.6),
                 line("IOS Press, 2005", 79, 67, 144, 76, 8.6),
                 line("A Foreign Function Interface Generator for occam-pi", 120, 100, 480, 116, 14.0),
                 line("Damian J. DIMMICH and Christian L. JACOBSEN", 170, 130, 430, 142, 10.0),
                 *prose(79, 170, 30))
    assert page_year(first) == 2005


def test_a_clocks_stamp_dates_the_page() -> None:
    """SDSI's "Wednesday October 2 8:18 PM EDT 1996", a date with its time between the day
    and the year, dated nothing."""
    first = page(line("SDSI - A Simple Distributed Security Infrastructure", 106, 73, 506, 93, 20.5),
                 line("Ronald L. Rivest", 265, 107, 347, 120, 13.5),
                 line("Butler Lampson", 267, 199, 345, 212, 13.5),
                 line("Wednesday October 2 8:18 PM EDT 1996", 90, 263, 294, 277, 13.5),
                 *prose(90, 300, 30))
    assert page_year(first) == 1996


def test_a_year_in_brackets_before_the_byline_dates_the_page() -> None:
    """Bostrom's "(2012) Nick Bostrom" under the title, as "By Vitalik Buterin (2014).\""""
    first = page(line("THE SUPERINTELLIGENT WILL: MOTIVATION AND", 76, 90, 518, 108, 14.8, bold=True),
                 line("INSTRUMENTAL RATIONALITY IN ADVANCED", 99, 116, 495, 135, 14.8, bold=True),
                 line("ARTIFICIAL AGENTS", 207, 143, 387, 161, 14.8, bold=True),
                 line("(2012) Nick Bostrom", 250, 187, 345, 198, 10.7),
                 line("Future of Humanity Institute", 230, 204, 365, 215, 10.7),
                 *prose(76, 300, 30))
    record = paper_record({}, first)
    assert record.authors == ["Nick Bostrom"]
    assert record.year == 2012


def test_a_street_named_in_german_is_an_address_not_an_author() -> None:
    """"Riesaer Straße 5" under T-Systems' name was read as a fourth author."""
    first = page(line("Setting Goals and Choosing Metrics for Recommender System Evaluations", 80, 80, 530, 96, 14.0),
                 line("Gunnar Schröder", 120, 120, 200, 132, 11.0),
                 line("T-Systems Multimedia Solutions GmbH", 90, 133, 240, 144, 10.0),
                 line("Riesaer Straße 5", 125, 145, 200, 156, 10.0),
                 line("01129 Dresden, Germany", 110, 157, 215, 168, 10.0),
                 line("ABSTRACT", 54, 200, 118, 211, 10.0, bold=True),
                 *prose(54, 215, 30))
    assert paper_record({}, first).authors == ["Gunnar Schröder"]


def test_a_mark_after_a_names_comma_is_no_part_of_the_next_name() -> None:
    """SPHINCS: "…, Tanja Lange,Ω" / "Ruben Niederhagen, …": the mark glued after the comma
    became "Ω Ruben Niederhagen"."""
    first = page(line("SPHINCS: practical stateless hash-based signatures", 130, 96, 470, 111, 15.2),
                 line("Daniel J. Bernstein, Daira Hopwood, Andreas Hülsing, Tanja Lange,Ω", 106, 162, 500, 173, 10.6),
                 line("Ruben Niederhagen, Louiza Papachristodoulou, Michael Schneider,Ω", 119, 177, 487, 188, 10.6),
                 line("Peter Schwabe, and Zooko Wilcox-O’Hearn", 181, 191, 413, 202, 10.6),
                 line("1 Department of Computer Science, University of Illinois at Chicago,", 132, 215, 468, 227, 9.5),
                 *prose(106, 320, 30))
    assert paper_record({}, first).authors == [
        "Daniel J. Bernstein", "Daira Hopwood", "Andreas Hülsing", "Tanja Lange", "Ruben Niederhagen",
        "Louiza Papachristodoulou", "Michael Schneider", "Peter Schwabe", "Zooko Wilcox-O’Hearn"]


def test_a_name_beside_its_own_address_is_an_author() -> None:
    """"John C. Mitchell jcm@cs.stanford.edu" under two "Name, Stanford University
    address" lines: the third author was lost; an address whose user part is not the name's
    keeps the line out ("Patrick O’Neil UMasslBoston poneil@…", a scan's garbled affiliation)."""
    def captcha(third: str) -> PageText:
        return page(line("Text-based CAPTCHA Strengths and", 72, 240, 444, 269, 29.9),
                    line("Weaknesses", 72, 269, 191, 299, 29.9),
                    line("Elie Bursztein, Stanford University elie@cs.stanford.edu", 244, 320, 540, 335, 14.8),
                    line("Matthieu Martin, Stanford University mamartin@stanford.edu", 218, 334, 540, 349, 14.8),
                    line(third, 340, 349, 540, 364, 14.8),
                    *prose(72, 436, 30, 12.5))
    assert paper_record({}, captcha("John C. Mitchell jcm@cs.stanford.edu")).authors == [
        "Elie Bursztein", "Matthieu Martin", "John C. Mitchell"]
    assert paper_record({}, captcha("Patrick O’Neil UMasslBoston poneil@cs.umb.edu")).authors == [
        "Elie Bursztein", "Matthieu Martin"]


def test_a_product_named_with_dotnet_in_capitals_is_no_address() -> None:
    """"HPC.NET": a domain's ending is written in small letters."""
    first = page(line("Scaling HPC.NET Applications on Clusters", 150, 90, 460, 110, 20.0, bold=True),
                 line("Werner Vogels", 266, 151, 346, 164, 13.4),
                 line("Dept. of Computer Science, Cornell University", 204, 171, 408, 182, 11.2),
                 line("vogels@cs.cornell.edu", 246, 197, 366, 210, 13.4),
                 line("ABSTRACT", 54, 240, 119, 253, 13.3, bold=True),
                 *prose(54, 260, 30))
    assert paper_record({}, first).title == "Scaling HPC.NET Applications on Clusters"


def test_two_one_word_scripts_on_a_line_still_fold_into_it() -> None:
    """"D_train and D_test": the row of scripts at one height holds "train" and "test", two
    words, each a run of its own: they are the line's, not a line of prose."""
    lines = reading_order([run("We split D into D and D for the runs", 100, 100, 110, 10.0),
                           run("train", 185, 108, 115, 7.0), run("test", 225, 108, 115, 7.0)])
    assert len(lines) == 1


def test_two_people_either_side_of_a_spaced_dash_are_both_authors() -> None:
    """INRIA's "Nuno Preguiça — Carlos Baquero Moreno": three words after the dash are a
    name as often as an affiliation; only an affiliation's words make them one."""
    first = page(line("Conflict-free Replicated Data Types", 150, 90, 460, 110, 18.0, bold=True),
                 line("Nuno Preguiça — Carlos Baquero Moreno", 180, 130, 430, 142, 12.0),
                 line("ABSTRACT", 54, 170, 118, 181, 10.0, bold=True),
                 *prose(54, 185, 20))
    assert paper_record({}, first).authors == ["Nuno Preguiça", "Carlos Baquero Moreno"]


def test_a_city_in_capitals_over_its_state_is_no_author_and_names_sharing_an_affiliation_are_all_read() -> None:
    assert paper_record({}, page(line("A Note on Distributed Computing", 150, 90, 460, 110, 18.0, bold=True),
                                 line("Jim Waldo", 270, 130, 340, 142, 12.0),
                                 line("Sun Microsystems Laboratories", 220, 144, 390, 156, 11.0),
                                 line("PALO ALTO, California", 240, 158, 370, 170, 11.0),
                                 line("ABSTRACT", 54, 200, 118, 211, 10.0, bold=True),
                                 *prose(54, 215, 20))).authors == ["Jim Waldo"]
    from athena_lab.pdf.meta import _names
    assert _names("RALF JUNG, ROBBERT KREBBERS, Delft, Netherlands") == ["Ralf Jung", "Robbert Krebbers"]
    assert _names("TECHNICAL REPORT, Berkeley, California") is None


def test_a_title_ending_on_a_variable_t_keeps_it_on_a_text_page() -> None:
    first = page(line("The Distribution of the Queue Length at Time t", 120, 90, 490, 108, 16.0, bold=True),
                 line("Jane Doe", 270, 130, 330, 142, 12.0),
                 line("ABSTRACT", 54, 170, 118, 181, 10.0, bold=True),
                 *prose(54, 185, 20))
    assert paper_record({}, first).title == "The Distribution of the Queue Length at Time t"


def test_an_e_mails_fields_pictured_on_a_papers_page_make_no_memorandum() -> None:
    first = page(line("Spam Filtering with Naive Bayes", 150, 90, 460, 110, 18.0, bold=True),
                 line("Jane Doe", 270, 130, 330, 142, 12.0),
                 line("University of Somewhere", 240, 144, 370, 156, 11.0),
                 line("FROM: Prince Abacha", 100, 200, 250, 210, 9.0),
                 line("SUBJECT: URGENT BUSINESS PROPOSAL", 100, 212, 330, 222, 9.0),
                 line("Figure 1: A typical spam message.", 100, 230, 300, 240, 9.0),
                 *prose(54, 260, 20))
    record = paper_record({}, first)
    assert record.title == "Spam Filtering with Naive Bayes"
    assert record.authors == ["Jane Doe"]


def test_a_single_spaced_memorandums_body_is_no_part_of_its_subject() -> None:
    first = page(line("MEMORANDUM", 90, 74, 200, 86, 12.0),
                 line("TO: Members of the Group", 90, 88, 300, 100, 12.0),
                 line("FROM: J. C. R. Licklider", 90, 102, 263, 114, 12.0),
                 line("SUBJECT: The Computer as a Communication Device", 90, 116, 440, 128, 12.0),
                 *[line("The purpose of this note is to set down a few thoughts about the", 90, 130 + 14 * i,
                        500, 142 + 14 * i, 12.0) for i in range(20)])
    record = paper_record({}, first)
    assert record.title == "The Computer as a Communication Device"
    assert record.authors == ["J. C. R. Licklider"]


def test_a_note_at_the_foot_citing_a_journal_does_not_date_the_page() -> None:
    first = page(line("Universality in Elementary Cellular Automata", 90, 80, 345, 96, 14.0),
                 line("Matthew Cook", 180, 110, 250, 122, 11.7),
                 *[line("should change to state 0 just when the cells on both sides are in state",
                        60, 150 + 12 * i, 366, 162 + 12 * i, 11.7) for i in range(30)],
                 line("Supported by the Sloan Foundation; see Physica D, 10 (1984) 1-35 for the model.",
                      93, 605, 333, 614, 8.2), width=434, height=648)
    assert page_year(first) is None


def test_a_year_under_an_organisation_in_a_papers_body_does_not_date_it() -> None:
    """A table's "Xerox Corporation" over "1979" in the body; on a cover of a few lines
    (a thesis's) the year under the university dates the page."""
    first = page(line("A History of Personal Workstations", 150, 90, 460, 110, 18.0, bold=True),
                 line("Jane Doe", 270, 130, 330, 142, 12.0),
                 *prose(54, 170, 15),
                 line("Xerox Corporation", 250, 450, 360, 462, 10.0),
                 line("1979", 290, 464, 320, 476, 10.0),
                 *prose(54, 500, 15))
    assert page_year(first) is None


def test_a_cover_title_in_capitals_keeps_its_subtitle_after_the_colon() -> None:
    """"COMMON LISP:" / "A Gentle Introduction" / "to Symbolic Computation", one type, the
    file named for it: the title in capitals ends at the first line that is not, and the rest
    the file's name prints follows (a rule judging lines by their words' first letters kept
    the title at "COMMON LISP: to Symbolic Computation")."""
    first = page(line("COMMON LISP:", 96, 193, 276, 221, 28.5),
                 line("A Gentle Introduction", 96, 217, 341, 245, 28.5),
                 line("to Symbolic Computation", 96, 241, 387, 270, 28.5))
    record = paper_record({}, first, "Common Lisp A Gentle Introduction to Symbolic Computation.pdf")
    assert record.title == "COMMON LISP: A Gentle Introduction to Symbolic Computation"


def test_a_headings_words_in_capitals_before_a_place_are_no_author() -> None:
    from athena_lab.pdf.meta import _names
    assert _names("INVITED TALK, Lisbon, Portugal") is None
    assert _names("COURSE NOTES, Lisbon, Portugal") is None


def test_only_a_press_named_at_a_lines_or_sentences_start_dates_the_head() -> None:
    assert page_year(occam("Jan Broenink et al. (Eds.) IOS Press, 2005")) == 2005
    assert page_year(occam("The press release of 2020 announced it")) is None
    assert page_year(occam("Reprinted from Essays in Honor of X, The MIT Press, 1995")) is None


def test_a_note_citing_a_journal_by_its_opening_words_does_not_date_the_page() -> None:
    assert page_year(cook("Cited in Physica D, 10 (1984) 1-35.")) is None
    assert page_year(cook("See also Physica D, 10 (1984) 1-35.")) is None


def test_an_e_mails_three_fields_under_a_papers_title_make_no_memorandum() -> None:
    first = page(line("Spam Filtering with Naive Bayes", 150, 90, 460, 110, 18.0, bold=True),
                 line("FROM: Prince Abacha", 100, 200, 250, 210, 9.0),
                 line("TO: you", 100, 212, 160, 222, 9.0),
                 line("SUBJECT: URGENT BUSINESS PROPOSAL", 100, 224, 330, 234, 9.0),
                 *prose(54, 260, 20))
    assert paper_record({}, first).title == "Spam Filtering with Naive Bayes"


def boxed(text: str, x0: float, y0: float, y1: float, size: float) -> Line:
    """A line with a box for each character, 0.5 em wide."""
    step = size / 2
    boxes = [(x0 + step * i, y0, x0 + step * (i + 1), y1) for i in range(len(text))]
    return Line(text=text, boxes=boxes, bbox=(x0, y0, x0 + step * len(text), y1), size=size, bold=False, cells=[text])


def test_a_single_spaced_memorandums_subject_goes_on_under_its_text() -> None:
    """"SUBJECT: Topics for Discussion at the Forthcoming" / "Meeting" set under the
    subject's text, single-spaced, then the body at the margin."""
    first = page(boxed("MEMORANDUM", 90, 74, 86, 12.0),
                 boxed("TO: Members of the Group", 90, 88, 100, 12.0),
                 boxed("FROM: J. C. R. Licklider", 90, 102, 114, 12.0),
                 boxed("SUBJECT: Topics for Discussion at the Forthcoming", 90, 116, 128, 12.0),
                 boxed("Meeting", 144, 130, 142, 12.0),
                 *[boxed("First, I apologize humbly for having to postpone the meeting", 90, 144 + 14 * i,
                         156 + 14 * i, 12.0) for i in range(20)])
    assert paper_record({}, first).title == "Topics for Discussion at the Forthcoming Meeting"


def test_a_memorandum_under_a_larger_letterhead_is_still_one() -> None:
    """A letterhead in capitals set larger than the fields ("ADVANCED RESEARCH PROJECTS
    AGENCY" at 16 pt) is a memo's, not a paper's title over a pictured e-mail."""
    first = page(line("ADVANCED RESEARCH PROJECTS AGENCY", 90, 60, 400, 76, 16.0),
                 line("MEMORANDUM FOR: Members and Affiliates of the Intergalactic", 90, 130, 515, 142, 12.0),
                 line("FROM: J. C. R. Licklider", 90, 172, 263, 184, 12.0),
                 line("SUBJECT: Topics for Discussion at the Forthcoming Meeting", 90, 200, 500, 212, 12.0),
                 *[line("First, I apologize humbly for having to postpone the meeting scheduled for",
                        90, 240 + 14 * i, 508, 252 + 14 * i, 12.0) for i in range(20)])
    record = paper_record({}, first)
    assert record.title == "Topics for Discussion at the Forthcoming Meeting"
    assert record.authors == ["J. C. R. Licklider"]


def test_a_title_in_capitals_goes_on_in_a_line_of_mixed_case() -> None:
    """"PROGRAMMING IN" / "Smalltalk-80": a capitals title's line in mixed case is still its
    line (only a sentence's line, most of its words in small letters, ends it)."""
    first = page(line("PROGRAMMING IN", 96, 193, 276, 221, 28.5),
                 line("Smalltalk-80", 96, 217, 341, 245, 28.5),
                 line("John Smith", 150, 300, 250, 315, 14.0))
    assert paper_record({}, first).title == "PROGRAMMING IN Smalltalk-80"


def test_longer_press_names_date_the_head_and_citing_notes_in_small_letters_do_not() -> None:
    from athena_lab.pdf.meta import _names
    assert page_year(occam("The University of Chicago Press, 1962")) == 1962
    assert page_year(occam("The Press release of 2020 announced it")) is None

    assert page_year(cook("cf. Physica D, 10 (1984) 1-35.")) is None
    assert page_year(cook("Information Processing Letters, 12 (1981) 1-5")) == 1981
    assert _names("Bjarne Stroustrup bs@research.att.com") == ["Bjarne Stroustrup"]


# dev37 and dev38: a personal library's notes, magazine pages and application notes


def test_a_journals_issue_line_dates_its_paper_over_the_copyright() -> None:
    """ACM Computing Surveys' foot, "ACM Computing Surveys, Vol. 18, No. 4, December 1986",
    under "© 1987 ACM 0360-0300/86/1200-0365": the issue's year, as a masthead's is."""
    first = page(line("Dataflow Machine Architecture", 36, 80, 300, 98, 16.0),
                 line("ARTHUR H. VEEN", 36, 110, 150, 121, 9.5),
                 *prose(36, 140, 40, size=9.5),
                 line("0 1987 ACM 0360-0300/86/1200-0365 $1.50", 35, 632, 191, 641, 8.7,
                      cells=["0 1987 ACM 0360-0300/86/1200-0365", "$1.50"]),
                 line("ACM Computing Surveys, Vol. 18, No. 4, December 1986", 253, 663, 428, 672, 8.7),
                 width=486, height=720)
    assert page_year(first) == 1986


def test_another_versions_journal_line_at_the_foot_does_not_date_the_page() -> None:
    """A second read's cases: "An earlier version appeared in SIAM Journal on Computing, Vol.
    5, No. 2, June 1976." under a © 1992, and "Reprinted from …, March 1968" over a © 2002."""
    def dijkstra(head: str, foot: str) -> PageText:
        return page(line(head, 60, 60, 500, 68, 8.0),
                    line("Go To Statement Considered Harmful", 120, 100, 480, 117, 17.0),
                    line("Edsger W. Dijkstra", 240, 130, 360, 142, 12.0),
                    *prose(60, 170, 30),
                    line(foot, 60, 740, 500, 748, 8.0))
    assert page_year(dijkstra("Copyright © 1992 by SIAM",
                              "An earlier version appeared in SIAM Journal on Computing, Vol. 5, No. 2, June 1976.")) == 1992
    assert page_year(dijkstra("Reprinted from Communications of the ACM, Vol. 11, No. 3, March 1968",
                              "Copyright © 2002 by the ACM")) == 2002
    assert page_year(dijkstra("Copyright © 1992 by SIAM", "Cited in SIAM Journal on Computing, Vol. 5, No. 2, June 1976.")) == 1992


def test_a_job_title_after_a_name_is_no_author() -> None:
    first = page(line("ANTI-UNPACKER TRICKS", 157, 56, 456, 78, 21.5, bold=True, column=-1),
                 line("Peter Ferrie, Senior Anti-Virus Researcher, Microsoft Corporation", 151, 96, 460, 106, 10.2, column=-1),
                 *prose(47, 136, 40, size=8.9))
    assert paper_record({}, first).authors == ["Peter Ferrie"]


def test_a_given_name_a_mail_host_holds_is_still_a_name() -> None:
    """A second read's cases: "Andrew" of CMU's "andrew.cmu.edu" and "Jessica Lee" of her own
    "jessica-lee.com" are people."""
    def grid(left: str, right: str, left_mail: str, right_mail: str) -> PageText:
        return page(line("Learning to Rank Query Plans with Deep Networks", 80, 84, 532, 101, 17.3, column=-1),
                    line(left, 120, 115, 210, 127, 12.0, column=-1), line(right, 380, 115, 470, 127, 12.0, column=-1),
                    line("Carnegie Mellon University", 100, 130, 240, 140, 10.0, column=-1),
                    line("Carnegie Mellon University", 360, 130, 500, 140, 10.0, column=-1),
                    line(left_mail, 110, 142, 230, 152, 10.0, column=-1), line(right_mail, 370, 142, 490, 152, 10.0, column=-1),
                    line("ABSTRACT", 54, 170, 113, 181, 10.0, bold=True), *prose(54, 185, 30, size=9.0))
    assert paper_record({}, grid("Andrew Pavlo", "Lin Ma", "pavlo@cs.cmu.edu", "lin.ma@andrew.cmu.edu")).authors \
        == ["Andrew Pavlo", "Lin Ma"]
    assert paper_record({}, grid("Jessica Lee", "Tom Brown", "hello@jessica-lee.com", "tbrown@cs.cmu.edu")).authors \
        == ["Jessica Lee", "Tom Brown"]


def test_a_company_named_by_its_mail_domains_first_word_is_no_author() -> None:
    """"Yandex Market" under "Ilya Trofimov", over "trofim@yandex-team.ru"."""
    first = page(line("Inferring Complementary Products from Baskets and Browsing", 58, 84, 554, 100, 16.0, bold=True, column=-1),
                 line("Sessions", 273, 104, 339, 120, 16.0, bold=True, column=-1),
                 line("Ilya Trofimov", 273, 130, 340, 141, 11.2, column=-1),
                 line("Yandex Market", 276, 143, 337, 152, 9.3, column=-1),
                 line("Moscow, Russia", 274, 155, 339, 164, 9.3, column=-1),
                 line("trofim@yandex-team.ru", 257, 167, 356, 176, 9.3, column=-1),
                 line("ABSTRACT", 54, 186, 112, 196, 10.3, bold=True),
                 *prose(54, 201, 40, size=8.4))
    assert paper_record({}, first).authors == ["Ilya Trofimov"]


def edds(byline: str) -> PageText:
    return page(line("Diseases in Code", 72, 107, 260, 133, 25.9),
                line(byline, 463, 155, 540, 166, 11.0),
                line("An Explanation of Code Diseases, their Prevention, and their Costs by a Self-Described Code Pathologist",
                     75, 410, 537, 421, 11.0))


def test_a_name_dated_after_a_comma_is_the_byline_and_the_year() -> None:
    """"Bryan Edds, 2014" under the title; a term's, a publisher's or a heading's date is no
    byline ("Spring Semester, 2011", "Addison Wesley, 1995", "Course Notes, 2014")."""
    record = paper_record({}, edds("Bryan Edds, 2014"))
    assert (record.authors, record.year) == (["Bryan Edds"], 2014)
    for other in ("Spring Semester, 2011", "Addison Wesley, 1995", "Course Notes, 2014"):
        assert paper_record({}, edds(other)).authors == []


def test_a_place_or_an_epigraph_dated_after_a_comma_is_no_author_and_no_venues_rival() -> None:
    """A second read's cases: "Porto Alegre, 2014" under a thesis's byline and affiliation,
    and a dated epigraph under the byline ("Edsger W. Dijkstra, 1975") over the venue's foot."""
    thesis = page(line("Notes on the Design of Reliable Storage Systems", 100, 80, 500, 97, 17.0),
                  line("Maria Silva", 250, 110, 350, 122, 12.0),
                  line("Universidade Federal do Rio Grande do Sul", 200, 126, 400, 136, 10.0),
                  line("Porto Alegre, 2014", 260, 140, 340, 150, 10.0),
                  *prose(60, 180, 40))
    assert paper_record({}, thesis).authors == ["Maria Silva"]
    essay = page(line("Notes on the Design of Reliable Storage Systems", 100, 80, 500, 97, 17.0),
                 line("Jane Doe", 270, 110, 330, 122, 12.0),
                 line("Stanford University", 250, 126, 350, 136, 10.0),
                 line("Simplicity is prerequisite for reliability.", 200, 150, 400, 160, 10.0),
                 line("Edsger W. Dijkstra, 1975", 300, 162, 400, 172, 10.0),
                 *prose(60, 190, 40),
                 line("HotOS XV, Kartause Ittingen, Switzerland, May 18-20, 2015", 60, 740, 300, 748, 8.0))
    record = paper_record({}, essay)
    assert (record.authors, record.year) == (["Jane Doe"], 2015)


def test_a_running_head_numbering_its_page_is_no_byline() -> None:
    """"Sampling Theory      Page 1" over the title was read as its author "Sampling Theory
    Page"; the byline under the title, "By Dan Lavry, Lavry Engineering, Inc.", is."""
    first = page(line("Sampling Theory Page 1", 56, 0, 528, 13, 13.3, cells=["Sampling Theory", "Page 1"]),
                 line("Sampling Theory For Digital Audio", 191, 14, 421, 30, 15.6, bold=True),
                 line("By Dan Lavry, Lavry Engineering, Inc.", 198, 32, 414, 45, 13.4, bold=True),
                 *prose(54, 99, 40, size=13.4))
    assert paper_record({}, first).authors == ["Dan Lavry"]


def henney(standfirst_size: float, last: str = "Kevlin Henney appeals for a reform of the C++ education system") -> PageText:
    return page(line("EFFECTIVE C++", 69, 46, 181, 62, 15.6, bold=True),
                line("Modern C++ is a more expressive, simpler language than C, and a language in", 55, 93, 533, 108, standfirst_size, column=-1),
                line("its own right, so why do so many people insist on teaching it historically?", 55, 109, 505, 124, standfirst_size, column=-1),
                line(last, 55, 125, 457, 140, standfirst_size, column=-1),
                line("The miseducation of C++", 55, 148, 495, 188, 39.7, bold=True, column=-1),
                *prose(153, 219, 50, size=9.7), width=595, height=842)


def test_a_magazines_standfirst_names_its_writer_when_no_byline_does() -> None:
    """Overload's deck over the title, in its large type: "Kevlin Henney appeals for a reform
    of the C++ education system". A sentence in the body's type names no writer."""
    assert paper_record({}, henney(15.5)).authors == ["Kevlin Henney"]
    assert paper_record({}, henney(9.7)).authors == []


def test_a_topic_opening_a_standfirst_or_a_name_in_an_abstract_is_no_writer() -> None:
    """A second read's cases: "Deep Learning shows …" is the deck's subject, not its writer,
    and a topic's words recur on the page; a sentence of an abstract set larger than the body,
    under its heading, names no writer; nor does a product taking a view."""
    for deck in ("Deep Learning shows how far a simple idea can go", "Apache Kafka takes a log-first view"):
        first = henney(15.5, deck)
        first.lines.append(line("Deep Learning and Apache Kafka are named in the body too, once more", 153, 700, 301, 710, 9.7))
        assert paper_record({}, first).authors == []
    abstract = page(line("Consensus in the Small", 100, 80, 500, 100, 20.0),
                    line("Abstract", 100, 120, 160, 132, 12.0, bold=True),
                    line("Leslie Lamport explains that Paxos is the answer to this problem", 100, 134, 500, 146, 12.0),
                    *prose(100, 160, 40, size=10.0))
    assert paper_record({}, abstract).authors == []


def test_a_copys_state_over_the_projects_site_is_no_subtitle() -> None:
    """A second read's case: "Working Draft" between a title and its site's address."""
    first = page(line("Open Libernet", 134, 79, 478, 115, 36.0, bold=True),
                 line("Working Draft", 231, 126, 381, 142, 16.0, bold=True),
                 line("www.openlibernet.org", 258, 147, 354, 157, 10.0, bold=True),
                 *prose(72, 222, 40, size=11.0))
    assert paper_record({}, first).title == "Open Libernet"


def test_a_date_in_numbers_away_from_the_title_is_no_date() -> None:
    """A second read's case: a figure's note "3/11/2011" in the page's head dates nothing; the
    venue's year does."""
    first = page(line("Consensus in the Small", 100, 80, 500, 100, 20.0),
                 line("Jane Doe", 270, 110, 330, 122, 12.0),
                 *prose(60, 150, 8),
                 line("3/11/2011", 300, 260, 340, 270, 9.0),
                 *prose(60, 280, 30),
                 line("HotOS XV, Kartause Ittingen, Switzerland, May 18-20, 2015", 60, 740, 300, 748, 8.0))
    assert page_year(first, [first.lines[0]]) == 2015


def hp_note(foot: str) -> PageText:
    return page(line("Application Note: Value Sums", 72, 71, 305, 90, 19.1),
                line("6/22/2001", 72, 91, 121, 104, 13.5),
                *prose(108, 162, 30, size=13.5),
                line(foot, 72, 743, 540, 756, 13.5, cells=foot.split("   ")))


def test_a_running_foots_copyright_gives_way_to_the_date_under_the_title() -> None:
    """HP's application note is dated "6/22/2001" under its title; "Copyright 2002" is in the
    template's foot beside "Page 1 of 4". A browser's print stamp with its time,
    "23/05/2017, 13:00", dates nothing."""
    assert paper_record({}, hp_note("http://www.hp.com/go/judy/   Copyright 2002 Hewlett-Packard Co   Page 1 of 4")).year == 2001
    assert paper_record({}, hp_note("http://www.hp.com/go/judy/   Copyright 2002 Hewlett-Packard Co")).year == 2002
    stamp = page(line("LISP History   23/05/2017, 13:00", 18, 17, 577, 25, 8.2, cells=["LISP History", "23/05/2017, 13:00"]),
                 line("Early LISP History (1956-1959)", 100, 80, 400, 98, 16.0),
                 line("Herbert Stoyan", 200, 110, 280, 121, 11.0),
                 *prose(60, 150, 40))
    assert page_year(stamp) is None


def test_a_seminars_teachers_under_its_line_are_no_authors() -> None:
    """A student's seminar paper: "Prof. H. Gall, Prof. M. Glinz, Ch. Seybold, M. Pinzger"
    under the seminar and the institute, in their type, smaller than the writer's name."""
    first = page(line("Concurrency Patterns", 230, 116, 386, 129, 12.7),
                 line("David Kocher", 278, 154, 338, 163, 8.8),
                 line("00-806-968", 284, 165, 331, 174, 8.8),
                 line("dk@sudo.ch", 282, 178, 334, 186, 8.3),
                 line("Seminar Software Architekturen", 244, 199, 371, 207, 8.0),
                 line("Institut für Informatik der Universität Zürich", 216, 210, 400, 218, 8.0),
                 line("Prof. H. Gall, Prof. M. Glinz, Ch. Seybold, M. Pinzger", 197, 221, 418, 229, 8.0),
                 line("Abstract. Developing muli-threaded applications is harder than developing", 163, 262, 452, 270, 8.0),
                 *prose(163, 280, 40, size=8.0))
    assert paper_record({}, first).authors == ["David Kocher"]


# dev39


def test_a_name_wrapped_in_a_grid_is_one_person_where_the_papers_citation_lists_it_whole() -> None:
    """KDD '20: "Deepak Mukunthu" / "Iyappan Babu" wrapped in one cell of the grid; the ACM
    Reference Format lists "Deepak Mukunthu Iyappan Babu"."""
    first = page(line("Building Continuous Integration Services for Machine Learning", 80, 84, 532, 101, 17.3, column=-1),
                 line("Bojan Karlaš", 90, 115, 160, 127, 12.0, column=-1),
                 line("Deepak Mukunthu", 260, 115, 350, 127, 12.0, column=-1),
                 line("Iyappan Babu", 268, 128, 342, 140, 12.0, column=-1),
                 line("ETH Zurich", 100, 142, 150, 152, 10.0, column=-1),
                 line("Microsoft", 280, 142, 330, 152, 10.0, column=-1),
                 line("ABSTRACT", 54, 170, 113, 181, 10.0),
                 *prose(54, 185, 12, size=9.0),
                 line("ACM Reference Format:", 54, 393, 142, 401, 7.7),
                 line("Bojan Karlaš and Deepak Mukunthu Iyappan Babu. 2020. Building Continuous", 54, 403, 295, 411, 7.7),
                 line("Integration Services for Machine Learning. In Proceedings of KDD ’20. ACM,", 54, 412, 295, 420, 7.7),
                 line("New York, NY, USA, 9 pages. https://doi.org/10.1145/3394486.3403290", 54, 421, 270, 429, 7.7))
    assert paper_record({}, first).authors == ["Bojan Karlaš", "Deepak Mukunthu Iyappan Babu"]


def test_a_scans_price_code_with_a_space_in_its_issn_dates_the_page() -> None:
    """JACM 1992 scanned: "@ 1992 ACM 0004-541 1/92/1000-0859 $01.50" run on from the notice
    over it, over a journal line the OCR garbled past reading ("JmmMl of the Assomitmn …,
    Octohcr 1992")."""
    first = page(line("Algebraic Methods for Interactive Proof Systems", 126, 80, 481, 96, 14.0),
                 line("CARSTEN LUND AND LANCE FORTNOW", 126, 110, 400, 121, 9.0),
                 *prose(126, 140, 30, size=8.1),
                 line("Permission to copy without fee all or part of this material is granted provided that the copies are",
                      126, 580, 483, 588, 8.1),
                 line("not made or distributed for direct commercial advantage, the ACM copyright notice and the tide",
                      126, 590, 481, 598, 8.1),
                 line("of the publication and its date appear, and notice is given that copying is by permission of the",
                      126, 600, 483, 608, 8.1),
                 line("Association for Computing Machinery. To copy othervvise. or to republish, requires a fee and/or",
                      126, 609, 477, 617, 8.1),
                 line("specific permission.", 126, 619, 191, 627, 8.1),
                 line("@ 1992 ACM 0004-541 1/92/1000-0859 $01.50", 126, 629, 299, 637, 8.1,
                      cells=["@ 1992 ACM", "0004-541 1/92/1000-0859", "$01.50"]))
    assert page_year(first) == 1992


def test_a_drafts_tag_leaves_the_title_and_its_subtitle_over_the_projects_site_is_kept() -> None:
    """"Open Libernet [DRAFT]" in 36 pt, "Take back the Internet" in 16 pt under it, and
    "www.openlibernet.org" under that."""
    first = page(line("Open Libernet [DRAFT]", 134, 79, 478, 115, 36.0, bold=True),
                 line("Take back the Internet", 231, 126, 381, 142, 16.0, bold=True),
                 line("www.openlibernet.org", 258, 147, 354, 157, 10.0, bold=True),
                 line("Abstract", 72, 197, 111, 208, 11.0, bold=True),
                 *prose(72, 222, 40, size=11.0))
    assert paper_record({}, first).title == "Open Libernet: Take back the Internet"


def test_a_note_naming_a_journals_issue_at_the_foot_does_not_date_the_page() -> None:
    """A third read's cases: a note citing authors and their journal, and a note's line running
    on into a journal's issue, under a © 1975."""
    def noted(*foot: Line) -> PageText:
        return page(line("Copyright © 1975 by The MITRE Corporation", 60, 60, 500, 68, 8.0),
                    line("Secure Computer Systems: Unified Exposition", 120, 100, 480, 117, 17.0),
                    line("Jane Doe", 270, 130, 330, 142, 12.0),
                    *prose(60, 170, 30), *foot)
    assert page_year(noted(line("This work extends D. E. Bell and L. J. LaPadula, J. ACM, Vol. 21, No. 4, March 1974.",
                                60, 740, 500, 748, 8.0))) == 1975
    assert page_year(noted(line("A preliminary version of this paper was presented at the conference and", 60, 730, 500, 738, 8.0),
                           line("Communications of the ACM, Vol. 11, No. 3, March 1968.", 60, 740, 300, 748, 8.0))) == 1975


def test_a_dated_line_over_the_byline_is_no_author_and_dates_nothing() -> None:
    """A third read's cases: "Porto Alegre, 2014" over "Maria Silva", and an epigraph over
    "Jane Doe" on a page that prints no other year; "Rob Pike and Dennis M. Ritchie, 1999"
    alone under a title is two people."""
    def under(*lines: Line) -> PageText:
        return page(line("Notes on the Design of Reliable Storage Systems", 100, 80, 500, 97, 17.0), *lines,
                    *prose(60, 190, 40))
    assert paper_record({}, under(line("Porto Alegre, 2014", 260, 110, 340, 120, 10.0),
                                  line("Maria Silva", 250, 126, 350, 138, 12.0))).authors == ["Maria Silva"]
    epigraph = paper_record({}, under(line("Edsger W. Dijkstra, 1975", 300, 110, 400, 120, 10.0),
                                      line("Jane Doe", 270, 130, 330, 142, 12.0)))
    assert (epigraph.authors, epigraph.year) == (["Jane Doe"], None)
    both = paper_record({}, under(line("Rob Pike and Dennis M. Ritchie, 1999", 195, 110, 500, 122, 12.0)))
    assert (both.authors, both.year) == (["Rob Pike", "Dennis M. Ritchie"], 1999)


def test_a_job_title_under_a_title_is_no_subtitle() -> None:
    """A third read's case: "Independent Researcher" over an e-mail, under a title."""
    first = page(line("On the Shape of Things", 134, 79, 478, 115, 36.0, bold=True),
                 line("Independent Researcher", 231, 126, 381, 142, 16.0),
                 line("jane@example.org", 258, 147, 354, 157, 10.0),
                 *prose(72, 222, 40, size=11.0))
    assert paper_record({}, first).title == "On the Shape of Things"


def test_a_subtitle_naming_a_job_is_still_a_subtitle() -> None:
    """A fourth read's case: only a line that is a job's title and nothing else is refused."""
    for subtitle in ("Notes from a Chief Architect", "Chief Programmer Teams Revisited", "What Every Manager Should Know"):
        first = page(line("Software Architecture in Practice", 134, 79, 478, 115, 36.0, bold=True),
                     line(subtitle, 150, 126, 460, 142, 16.0),
                     *prose(72, 222, 40, size=11.0))
        assert paper_record({}, first).title == f"Software Architecture in Practice: {subtitle}"


def test_a_journals_foot_line_under_its_price_code_dates_the_page() -> None:
    """A fourth read's case: CACM's price code, with no full stop, right over the journal's
    issue line is no note running into it."""
    first = page(line("Copyright © 1975 by the author", 60, 60, 500, 68, 8.0),
                 line("Time, Clocks, and the Ordering of Events in a Distributed System", 80, 100, 520, 117, 17.0),
                 line("Leslie Lamport", 260, 130, 340, 142, 12.0),
                 *prose(60, 170, 30),
                 line("0001-0782/78/0700-0558 $00.75", 60, 730, 200, 738, 8.0),
                 line("Communications of the ACM, Vol. 21, No. 7, July 1978", 60, 740, 300, 748, 8.0))
    assert page_year(first) == 1978
