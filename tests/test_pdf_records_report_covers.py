"""Report covers, portals' covers and older bylines the dev45 to dev48 rounds misread: a
proceedings cover's "The following paper was originally published in …", a report number
and a grant's line on a scanned report's cover, a genre's label under a title, a portal's
date of its web copy, the IRE's grade after a name, two names run together on one line, a
laboratory's block far under the byline, AAAI's digital-library cover, DEC's spaced logo, an
ITS memo's series line and short date, a journal's "To be published in" over a note of the
first appearance, a subtitle over two lines, and a masthead of three capitals. Each asserts
the right reading, with the lines pdfium gave for the page."""

from __future__ import annotations

import pytest

from athena_lab.pdf.layout import Line
from athena_lab.pdf.meta import cover_sheet, page_year, paper_record
from athena_lab.pdf.pages import PageText

pytestmark = pytest.mark.unit


def line(text: str, x0: float, y0: float, x1: float, y1: float, size: float, bold: bool = False) -> Line:
    return Line(text=text, boxes=[], bbox=(x0, y0, x1, y1), size=size, bold=bold, cells=[text])


def page(*lines: Line, scan: bool = False) -> PageText:
    return PageText(number=1, width=612, height=792, lines=list(lines), scan=scan)


def body(y0: float) -> list[Line]:
    """Twenty lines of an abstract in the body's type, from ``y0`` down."""
    return [line("Prose of the abstract set in the body's type, long enough to be the body of the page.", 72.0,
                 y0 + 12 * i, 540.0, y0 + 10 + 12 * i, 10.0) for i in range(20)]


def test_a_proceedings_covers_note_of_the_following_paper_dates_it() -> None:
    """USENIX's cover over Ganger and Kaashoek's paper: "The following paper was originally
    published in the Proceedings of the USENIX 1997 Annual Technical Conference"."""
    cover = page(line("The following paper was originally published in the", 181.5, 203.6, 430.5, 214.6, 11.0),
                 line("Proceedings of the USENIX 1997 Annual Technical Conference", 150.9, 219.6, 461.1, 230.6, 11.0),
                 line("Anaheim, California, January 6-10, 1997", 207.5, 235.6, 404.5, 246.6, 11.0),
                 line("Embedded Inodes and Explicit Grouping:", 156.0, 327.4, 456.0, 343.9, 16.5),
                 line("Exploiting Disk Bandwidth for Small Files", 151.2, 349.4, 460.8, 365.9, 16.5),
                 line("Gregory R. Ganger and M. Frans Kaashoek", 183.9, 402.2, 428.1, 415.0, 12.8),
                 line("Laboratory for Computer Science", 211.7, 418.2, 400.3, 431.0, 12.8),
                 line("Massachusetts Institute of Technology", 198.1, 434.2, 413.9, 447.0, 12.8),
                 line("For more information about USENIX Association contact:", 165.3, 603.6, 446.6, 614.6, 11.0),
                 line("1. Phone: 510 528-8649", 220.0, 621.6, 371.0, 632.6, 11.0))
    record = paper_record({}, cover, "ganger.pdf")
    assert (record.title, record.authors, record.year) == (
        "Embedded Inodes and Explicit Grouping: Exploiting Disk Bandwidth for Small Files",
        ["Gregory R. Ganger", "M. Frans Kaashoek"], 1997)


def hoare(*extra: Line) -> PageText:
    """Stanford's scanned cover of Hoare's AI memo: the laboratory, the memo's and the
    report's numbers (OCR's marks around them), the title, "BY", the name and the grant, all
    in one type."""
    return page(line("STANFORD ARTIFICIAL INTELLIGENCE LABORATORY", 53.8, 39.4, 388.4, 58.6, 19.2),
                line("‘ MEMO AIM-224", 39.1, 58.1, 165.1, 77.3, 19.2),
                line("‘STAN-CS-73-403 ’ . --", 48.5, 94.1, 429.1, 122.4, 19.2),
                line("‘,- _ .- _ ’ _”", 44.4, 112.4, 104.1, 134.7, 19.2),
                line("HINTS ON PROGRAMMING LANGUAGE DESIGN", 175.0, 150.0, 474.3, 169.2, 19.2),
                line("BY", 317.0, 205.0, 333.9, 224.2, 19.2),
                line("C. A. R. HOARE", 269.0, 260.0, 372.4, 279.2, 19.2),
                line("-=", 180.7, 311.8, 185.1, 331.0, 19.2),
                line("SUPPORTED BY", 270.7, 333.2, 370.9, 352.4, 19.2),
                line("ADVANCED RESEARCH PROJECTS AGENCY", 182.6, 369.6, 457.7, 388.8, 19.2),
                line("PROJECT CODE 3D30", 262.8, 406.8, 394.1, 426.0, 19.2),
                line("DECEMBER 1973 --- __ .-_ .--", 270.7, 443.6, 595.4, 462.8, 19.2),
                line("COMPUTER SCIENCE DEPARTMENT", 175.0, 590.9, 454.8, 610.1, 19.2),
                *extra, scan=True)


def test_a_report_number_alone_over_a_title_is_no_line_of_it() -> None:
    """"STAN-CS-73-403" over "HINTS ON PROGRAMMING LANGUAGE DESIGN", in its type, is the
    report's number; the file named for the title finds the title, not the two lines."""
    record = paper_record({}, hoare(), "HINTS ON PROGRAMMING LANGUAGE DESIGN.pdf")
    assert record.title is not None and record.title.lower() == "hints on programming language design"
    assert record.year == 1973


def test_a_grants_supported_by_line_is_no_author() -> None:
    """"SUPPORTED BY" / "ADVANCED RESEARCH PROJECTS AGENCY" under the byline names the grant."""
    assert paper_record({}, hoare(), "HINTS ON PROGRAMMING LANGUAGE DESIGN.pdf").authors == ["C. A. R. Hoare"]


def test_a_genres_label_under_a_title_is_no_author() -> None:
    """Sun's "A Technical White Paper" under the title, over the date."""
    sun = page(line("File System Performance:", 34.0, 241.5, 288.8, 263.1, 21.3),
               line("The Solaris OS, UFS, Linux ext3,", 34.0, 267.8, 360.4, 289.1, 21.3),
               line("and ReiserFS", 34.0, 293.8, 161.1, 315.1, 21.3),
               line("A Technical White Paper", 34.0, 332.8, 171.2, 345.3, 12.4),
               line("August 2004", 34.0, 348.9, 104.1, 361.3, 12.4))
    record = paper_record({}, sun, "fs_performance.pdf")
    assert (record.authors, record.year) == ([], 2004)


def test_a_portals_date_of_its_web_copy_yields_to_the_issue_line() -> None:
    """Cambridge's cover of a 1996 Robotica paper: "Robotica / Volume 14 / Issue 04 / July
    1996" over "Published online: 09 March 2009"; the web copy's date is no year of it."""
    cover = page(line("Robotica", 50.0, 49.6, 109.8, 65.2, 15.6),
                 line("Additional services for Robotica:", 50.0, 92.2, 195.8, 105.6, 10.0),
                 line("Kinematic calibration using the product of exponentials formula", 50.0, 204.6, 475.0, 220.2, 15.6),
                 line("Koichiro Okamura and F.C. Park", 50.0, 241.3, 179.0, 251.3, 10.0),
                 line("Robotica / Volume 14 / Issue 04 / July 1996, pp 415 - 421", 50.0, 264.3, 253.1, 273.2, 8.9),
                 line("DOI: 10.1017/S0263574700019810, Published online: 09 March 2009", 50.0, 273.8, 297.1, 282.7, 8.9),
                 line("Link to this article: http://journals.cambridge.org/abstract_S0263574700019810", 50.0, 292.1, 371.9, 302.2, 10.0))
    assert page_year(cover) == 1996
    # a web copy's date is still the year where the page prints no other
    assert page_year(page(line("Published online: 17 August 2023", 50.0, 273.8, 297.1, 282.7, 8.9))) == 2023


def test_the_ires_grade_after_a_name_is_no_part_of_it() -> None:
    """"DAVID A. HUFFMAN, ASSOCIATE, IRE" under Huffman's title in the Proceedings of the I.R.E."""
    huffman = page(line("1098 PROCEEDINGS OF THE I.R.E. September", 31.4, 21.4, 288.1, 27.5, 5.0),
                   line("A Method for the Construction of", 80.0, 34.0, 241.4, 43.3, 9.3),
                   line("Minimum-Redundancy Codes*", 89.2, 45.9, 231.8, 55.2, 9.3),
                   line("DAVID A. HUFFMAN^+, ASSOCIATE, IRE", 110.2, 59.3, 214.6, 65.5, 5.0))
    assert paper_record({}, huffman, "huffman1952MinimumRedundancyCode.pdf").authors == ["David A. Huffman"]


def test_two_names_run_together_on_a_line_are_split_by_their_addresses() -> None:
    """"Olivier Danvy Andrzej Filinski" with no gap the text layer kept, over
    "(danvy @cis.ksu.edu) (Andrzej. Filinski@cs.cmu.edu)"; one address under four words
    keeps them one name."""
    def cps(addresses: str) -> PageText:
        return page(line("Representing Control", 210.5, 155.5, 401.0, 174.0, 20.7),
                    line("A Study of the CPS transformation *", 191.5, 179.5, 425.5, 194.5, 15.0),
                    line("Olivier Danvy Andrzej Filinski", 175.5, 213.5, 428.0, 224.5, 12.1),
                    line("Kansas State University * Carnegie Mellon University ?", 147.5, 226.5, 463.0, 239.0, 12.1),
                    line(addresses, 159.5, 239.0, 464.5, 255.0, 12.9),
                    line("February 1991; Revised June 1992", 218.5, 266.0, 392.5, 277.0, 12.1))
    assert paper_record({}, cps("(danvy @cis.ksu.edu) (Andrzej. Filinski@cs.cmu.edu)"), "cps.pdf").authors == \
        ["Olivier Danvy", "Andrzej Filinski"]
    assert paper_record({}, cps("(danvy@cis.ksu.edu)"), "cps.pdf").authors == ["Olivier Danvy Andrzej Filinski"]


def test_a_laboratorys_block_far_under_the_byline_in_another_type_is_no_author() -> None:
    """A MARS Lab report's cover: the byline under the title, then far down the page, in a
    larger type, "Multiple Autonomous" / "Robotic Systems Labroratory" (sic)."""
    mars = page(line("Generalized Analysis and Improvement of the", 72.4, 163.2, 539.7, 183.9, 20.7, bold=True),
                line("Consistency of EKF-based SLAM", 134.8, 188.1, 477.2, 208.8, 20.7, bold=True),
                line("Guoquan P. Huang, Anastasios I. Mourikis and Stergios I. Roumeliotis", 87.1, 257.0, 525.3, 270.2, 13.2),
                line("Multiple Autonomous", 322.6, 517.2, 468.0, 532.9, 15.7),
                line("Robotic Systems Labroratory", 322.6, 533.5, 517.5, 549.3, 15.7),
                line("Technical Report", 322.6, 561.4, 436.6, 577.1, 15.7),
                line("January 2008", 326.5, 594.9, 395.0, 606.8, 12.0))
    assert paper_record({}, mars, "ekf.pdf").authors == ["Guoquan P. Huang", "Anastasios I. Mourikis", "Stergios I. Roumeliotis"]


def test_a_slides_rows_of_names_spaced_wide_in_one_type_are_all_read() -> None:
    """A talk's title slide: three rows of names and addresses, far apart, in one type."""
    slide = PageText(number=1, width=960, height=540, lines=[
        line("THE LINUX SCHEDULER:", 427.9, 10.3, 944.0, 70.6, 60.4),
        line("A DECADE OF WASTED CORES", 297.8, 79.4, 943.8, 139.8, 60.4),
        line("Jean-Pierre Lozi, Baptiste Lepers", 87.7, 196.6, 838.8, 214.4, 17.6),
        line("jplozi@unice.fr baptiste.lepers@epfl.ch", 92.7, 219.9, 865.3, 238.8, 17.6),
        line("Alexandra Fedorova, Vivien Quéma", 195.2, 363.5, 685.5, 387.1, 17.6),
        line("sasha@ece.ubc.ca vivien.quema@imag.fr", 207.7, 386.7, 717.4, 411.5, 17.6)])
    assert paper_record({}, slide, "talk.pdf").authors == \
        ["Jean-Pierre Lozi", "Baptiste Lepers", "Alexandra Fedorova", "Vivien Quéma"]


def test_aaais_digital_library_cover_is_read_past() -> None:
    """"This Is a Publication of" / "The American Association for Artificial Intelligence" /
    "This electronic document has been retrieved from the …": the article is on the next page."""
    aaai = page(line("This Is a Publication of", 202.8, 363.0, 410.0, 380.7, 17.7, bold=True),
                line("The American Association for Artificial Intelligence", 76.3, 387.0, 535.8, 404.7, 17.7, bold=True),
                line("This electronic document has been retrieved from the", 154.6, 477.4, 457.4, 489.2, 11.8),
                line("American Association for Artificial Intelligence", 174.8, 491.4, 437.2, 503.2, 11.8),
                line("445 Burgess Drive", 255.9, 505.4, 356.1, 517.2, 11.8))
    assert cover_sheet(aaai)


def test_decs_logo_in_spaced_small_letters_is_no_title() -> None:
    """An SRC report's cover: "d i g i t a l" set large at its foot, over "Systems Research
    Center"; the title is "Network Objects"."""
    src = page(line("February 28, 1994", 90.0, 95.6, 178.1, 109.1, 13.5),
               line("Revised December 4, 1995", 90.0, 107.6, 219.6, 121.1, 13.5),
               line("SRC Report 115", 90.0, 148.9, 240.0, 177.4, 15.8),
               line("Network Objects", 90.0, 302.4, 212.4, 321.8, 19.3),
               line("Andrew Birrell, Greg Nelson, Susan Owicki, and Edward Wobber", 81.1, 416.1, 450.1, 431.9, 15.8),
               line("d i g i t a l", 90.8, 554.5, 179.0, 578.6, 24.1),
               line("Systems Research Center", 90.0, 585.0, 208.1, 597.5, 12.5),
               line("130 Lytton Avenue", 90.0, 597.1, 174.1, 609.5, 12.4))
    record = paper_record({}, src, "src-115.pdf")
    assert (record.title, record.authors, record.year) == (
        "Network Objects", ["Andrew Birrell", "Greg Nelson", "Susan Owicki", "Edward Wobber"], 1995)


def test_an_its_memos_series_line_is_no_title_and_its_short_date_is_its_year() -> None:
    """"Hardware Memo 3" over "PDP-6/10 MAGIC SWITCHES" over "3/3/70", a typescript's."""
    memo = page(line("Hardware Memo 3", 75.0, 259.5, 183.0, 268.5, 10.7),
                line("PDP-6/10 MAGIC SWITCHES", 75.0, 286.0, 240.5, 296.5, 10.0),
                line("3/3/70", 76.0, 313.0, 118.0, 324.0, 12.9), scan=True)
    record = paper_record({}, memo, "ITS_Hardware_Memo_3.pdf")
    assert record.title is not None and record.title.lower() == "pdp-6/10 magic switches"
    assert record.year == 1970


def test_a_journals_to_be_published_in_outranks_a_note_of_the_first_appearance() -> None:
    """LISP and Symbolic Computation's head, "To be published in: … 4, 3, 1991" and "© 1991
    Kluwer", over a footnote "This paper was originally published in OOPSLA ’89 …": the page
    is the journal's version."""
    lasc = page(line("To be published in: LISP AND SYMBOLIC COMPUTATION: An International Journal, 4, 3, 1991",
                     113.8, 143.3, 468.2, 152.3, 9.0),
                line("© 1991 Kluwer Academic Publishers - Manufactured in The Netherlands", 204.6, 152.3, 468.1, 161.3, 9.0),
                line("An Efficient Implementation of SELF,", 108.0, 214.8, 382.8, 232.8, 18.0),
                line("a Dynamically-Typed Object-Oriented Language", 108.0, 234.9, 462.4, 252.9, 18.0),
                line("Based on Prototypes*", 108.0, 255.1, 260.9, 273.1, 18.0),
                line("CRAIG CHAMBERS (craig@self.stanford.edu)", 108.0, 315.8, 468.0, 326.8, 11.0),
                line("Abstract. We have developed and implemented techniques that double the performance of",
                     108.0, 409.9, 468.9, 418.9, 9.0),
                line("This paper was originally published in OOPSLA ’89 Conference Proceedings (SIGPLAN Notices, 25, 10 (1989)",
                     117.0, 685.3, 468.0, 693.3, 8.0),
                line("49-70).", 108.0, 693.3, 131.3, 701.3, 8.0))
    assert page_year(lasc) == 1991


def test_a_subtitle_over_two_lines_is_the_titles_and_no_author() -> None:
    """"Sifting Out the Gold" / "Delivering Compact Applications" / "from an Exploratory
    Object-Oriented Programming Environment": the subtitle's first line alone reads as a name."""
    gold = page(line("Published in OOPSLA’94 Conference Proceedings, Portland, OR, October 1994.", 143.0, 40.5, 469.1, 50.5, 10.0),
                line("Sifting Out the Gold", 228.0, 102.5, 384.5, 120.5, 18.0, bold=True),
                line("Delivering Compact Applications", 206.0, 129.5, 405.1, 143.5, 14.0, bold=True),
                line("from an Exploratory Object-Oriented Programming Environment", 107.0, 144.5, 504.0, 158.5, 14.0, bold=True),
                line("Ole Agesen", 144.0, 179.8, 196.9, 190.8, 11.0, bold=True),
                line("Computer Science Department", 103.0, 192.7, 238.7, 203.7, 11.0),
                line("Stanford University", 127.0, 205.7, 214.1, 216.7, 11.0),
                *body(300.0))
    record = paper_record({}, gold, "gold.pdf")
    assert record.title == ("Sifting Out the Gold: Delivering Compact Applications from an Exploratory "
                            "Object-Oriented Programming Environment")
    assert record.authors == ["Ole Agesen"]


def test_a_masthead_of_three_capitals_dates_the_page() -> None:
    """BIT's "BIT 6 (1966), 58-65" over Weizenbaum's "ON-LINE USER LANGUAGES"."""
    bit = page(line("BIT 6 (1966), 58-65", 75.8, 70.4, 140.8, 79.6, 9.2),
               line("ON-LINE USER LANGUAGES*", 154.7, 146.2, 327.0, 157.3, 11.1),
               line("JOSEPH WEIZENBAUM", 187.8, 168.0, 296.1, 179.1, 11.1))
    assert page_year(bit) == 1966


def _smalltalk(under: str, more: str) -> PageText:
    """A title at 18 pt, two lines at 14 pt under it, an affiliation and the body."""
    return page(line("Sifting Out the Gold", 228.0, 102.5, 384.5, 120.5, 18.0, bold=True),
                line(under, 206.0, 129.5, 405.1, 143.5, 14.0, bold=True),
                line(more, 150.0, 144.5, 460.0, 158.5, 14.0, bold=True),
                line("Computer Science Department", 103.0, 192.7, 238.7, 203.7, 11.0),
                *body(300.0))


def test_a_byline_or_a_note_going_on_with_a_small_word_is_no_subtitle() -> None:
    """"Dan Ingalls" / "with Ted Kaehler" is a byline, and "… / in memory of Jim Gray" a
    dedication: neither joins the title as a two-line subtitle does."""
    record = paper_record({}, _smalltalk("Dan Ingalls", "with Ted Kaehler"), "x.pdf")
    assert record.title == "Sifting Out the Gold" and "Dan Ingalls" in record.authors
    record = paper_record({}, _smalltalk("A Practical Smalltalk Written in Itself", "in memory of Jim Gray"), "x.pdf")
    assert record.title == "Sifting Out the Gold: A Practical Smalltalk Written in Itself"


def _titled(*title: Line) -> PageText:
    return page(*title, line("John Smith", 250.0, 200.0, 330.0, 212.0, 12.0),
                *body(300.0))


def test_a_title_naming_a_memo_or_a_standard_stays_a_title() -> None:
    """"The Memo 2 Protocol for Group Messaging" and "MIL-STD-1553" / "A Survey of the
    Standard" are titles: only a series' memo line alone and a report's number are refused."""
    assert paper_record({}, _titled(line("The Memo 2 Protocol for Group Messaging", 100.0, 100.0, 500.0, 124.0, 24.0)),
                        "x.pdf").title == "The Memo 2 Protocol for Group Messaging"
    assert paper_record({}, _titled(line("MIL-STD-1553", 200.0, 100.0, 400.0, 124.0, 24.0),
                                    line("A Survey of the Standard", 150.0, 128.0, 450.0, 152.0, 24.0)),
                        "x.pdf").title == "MIL-STD-1553 A Survey of the Standard"


def test_a_typescripts_short_date_of_the_forties_is_of_the_nineteen_forties() -> None:
    memo = page(line("Hardware Memo 3", 75.0, 259.5, 183.0, 268.5, 10.7),
                line("PDP-6/10 MAGIC SWITCHES", 75.0, 286.0, 240.5, 296.5, 10.0),
                line("3/3/47", 76.0, 313.0, 118.0, 324.0, 12.9), scan=True)
    assert paper_record({}, memo, "memo.pdf").year == 1947


def test_a_second_row_of_names_a_little_larger_and_apart_is_still_the_byline() -> None:
    """Two rows of names 75 pt apart, the second set 12.5 % larger (a scan's sizes vary)."""
    rows = page(line("A Study of Things", 150.0, 100.0, 450.0, 124.0, 24.0),
                line("Jane Doe, John Roe", 200.0, 160.0, 400.0, 172.0, 12.0),
                line("Ann Poe, Bob Loe", 200.0, 260.0, 400.0, 273.5, 13.5),
                *body(320.0))
    assert paper_record({}, rows, "x.pdf").authors == ["Jane Doe", "John Roe", "Ann Poe", "Bob Loe"]


def test_one_four_word_name_over_two_addresses_holding_its_words_inside_others_stays_one() -> None:
    """"Juan Carlos Perez Lopez" over "jcarlos@fi.upm.es perezlopez@gmail.com": the
    addresses' user parts hold the words only inside longer ones."""
    page_ = page(line("A Study of Things", 150.0, 100.0, 450.0, 124.0, 24.0),
                 line("Juan Carlos Perez Lopez", 200.0, 160.0, 400.0, 172.0, 12.0),
                 line("jcarlos@fi.upm.es perezlopez@gmail.com", 180.0, 174.0, 420.0, 186.0, 11.0))
    assert paper_record({}, page_, "x.pdf").authors == ["Juan Carlos Perez Lopez"]


def test_a_labs_technical_note_banner_over_a_title_is_no_title() -> None:
    """An SRC technical note's cover: "SRC Technical Note" set larger than the title under it."""
    note = page(line("SRC Technical Note", 90.0, 150.0, 300.0, 178.0, 24.0),
                line("1997 - 009", 90.0, 182.0, 160.0, 196.0, 13.0),
                line("June 30, 1997", 90.0, 200.0, 180.0, 213.0, 13.0),
                line("Juno-2 Language Definition", 90.0, 302.4, 300.0, 321.8, 19.3),
                line("Greg Nelson and Allan Heydon", 90.0, 416.1, 330.0, 431.9, 15.8),
                line("d i g i t a l", 90.8, 554.5, 179.0, 578.6, 24.1),
                line("Systems Research Center", 90.0, 585.0, 208.1, 597.5, 12.5))
    assert paper_record({}, note, "juno-langdef.pdf").title == "Juno-2 Language Definition"


def test_a_one_name_byline_going_on_with_a_credit_is_no_subtitle() -> None:
    """"Dan Ingalls" / "in collaboration with Ted Kaehler", and a subtitle over "in honor of
    Jim Gray": a byline and a dedication, not the title's words."""
    record = paper_record({}, _smalltalk("Dan Ingalls", "in collaboration with Ted Kaehler"), "x.pdf")
    assert record.title == "Sifting Out the Gold" and "Dan Ingalls" in record.authors
    record = paper_record({}, _smalltalk("A Practical Smalltalk Written in Itself", "in honor of Jim Gray"), "x.pdf")
    assert record.title == "Sifting Out the Gold: A Practical Smalltalk Written in Itself"


def test_a_references_tail_at_a_pages_top_is_no_masthead() -> None:
    """"ACM 27, 12 (Dec. 1984), 1190-1195." wrapped to the top of a 1986 paper's page."""
    top = page(line("ACM 27, 12 (Dec. 1984), 1190-1195.", 72.0, 40.0, 300.0, 50.0, 9.0),
               line("A Study of Things", 150.0, 100.0, 450.0, 124.0, 24.0),
               line("John Smith", 250.0, 140.0, 330.0, 152.0, 12.0),
               *body(200.0),
               line("Copyright 1986 by the Association for Computing Machinery", 72.0, 700.0, 400.0, 709.0, 8.0))
    assert page_year(top) == 1986


def test_to_be_published_ins_year_is_its_own_not_a_copyright_run_on_into_it() -> None:
    """"To be published in: Journal of Things 3(2), 1995." with "Copyright 1994 by the
    authors." set close under it, read as one paragraph."""
    foot = page(line("A Study of Things", 150.0, 100.0, 450.0, 124.0, 24.0),
                line("John Smith", 250.0, 140.0, 330.0, 152.0, 12.0),
                *body(200.0),
                line("To be published in: Journal of Things 3(2), 1995.", 72.0, 700.0, 400.0, 708.0, 8.0),
                line("Copyright 1994 by the authors.", 72.0, 708.0, 250.0, 716.0, 8.0))
    assert page_year(foot) == 1995
