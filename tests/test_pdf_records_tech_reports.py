"""Technical reports of the 1990s the dev49 and dev50 rounds misread: old dvips output whose
bitmap fonts pdfium boxes to each glyph (a title's lower-case letters read smaller than an
address's capitals under it, a symbol font's daggers read as letters of the names), names
set apart with a raised letter each, a star read as "?" or "!" on a name, an Italian
department as an author, a contract report's principal investigator, its issue line in the
page's foot and a journal's "Manuscript received" note. Each asserts the right reading,
with the lines pdfium gave for the page or a PDF built the way the page was."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from athena_lab.pdf.layout import Line
from athena_lab.pdf.meta import paper_record
from athena_lab.pdf.pages import PageText, extract_page
from printed_pdf import glyph_box_pdf, pdf_file

pytestmark = pytest.mark.unit

PROSE = ["We", "use", "median", "polish", "over", "a", "datacube", "so", "as", "to", "mine", "summaries."]


def read(pdf: Path) -> PageText:
    opened = pdfium.PdfDocument(str(pdf))
    try:
        return extract_page(opened, 0, "off")
    finally:
        opened.close()


def times_pdf(content: str) -> bytes:
    """A one-page PDF of ``content`` (a content stream) in Times-Roman as ``/F1``."""
    return pdf_file(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                     "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> "
                     "/Contents 5 0 R >>",
                     "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>",
                     f"<< /Length {len(content)} >>\nstream\n{content}\nendstream"])


def line(text: str, x0: float, y0: float, x1: float, y1: float, size: float, cells: list[str] | None = None) -> Line:
    return Line(text=text, boxes=[], bbox=(x0, y0, x1, y1), size=size, bold=False, cells=cells or [text])


def page(*lines: Line) -> PageText:
    return PageText(number=1, width=612, height=792, lines=list(lines), scan=False)


def body(y0: float, size: float = 10.0) -> list[Line]:
    """Twenty lines of an abstract in the body's type, from ``y0`` down."""
    return [line("Prose of the abstract set in the body's type, long enough to be the body of the page.", 72.0,
                 y0 + 12 * i, 540.0, y0 + 10 + 12 * i, size) for i in range(20)]


def test_a_font_that_boxes_each_letter_to_its_glyph_is_sized_by_its_letters(tmp_path: Path) -> None:
    """GMU's ISE-TR-99-02: each letter's box was its glyph, so the title's lower-case
    letters measured an x-height and "Fairfax, VA 22303", capitals and digits, read as the
    page's largest type: the title was the address and the byline was lost."""
    pdf = tmp_path / "dvips.pdf"
    pdf.write_bytes(glyph_box_pdf([(16, ["Mining", "summaries", "over", "more", "sources"]), (12, ["Daniel", "Barbara"]),
                                   (12, ["Fairfax,", "VA", "22303"]), *[(10, PROSE)] * 6]))
    first = read(pdf)
    title, byline, address, prose = (ln.size for ln in first.lines[:4])
    assert title > 1.2 * address and abs(byline - address) < 0.1 * byline and prose < byline, (title, byline, address, prose)
    record = paper_record({}, first)
    assert (record.title, record.authors) == ("Mining summaries over more sources", ["Daniel Barbara"])


def test_a_symbol_fonts_daggers_raised_after_names_in_such_a_font_are_footnote_marks(tmp_path: Path) -> None:
    """GMU's ISSE-TR-96-10: TeX's symbol font has its dagger and double dagger where ASCII
    has "y" and "z"; sized as an x-height "z", the raised double dagger came out larger than
    the names and was read into them ("Sean Wangz"). Raised over the letter before, a glyph is
    a script in its own size."""
    pdf = tmp_path / "daggers.pdf"
    pdf.write_bytes(glyph_box_pdf([(16, ["Mining", "summaries", "over", "more", "sources"]),
                                   (12, ["Claudio", "Bettini", ("y", 8, 4.5), "Sean", "Wang", ("z", 8, 4.5)]),
                                   (12, ["Fairfax,", "VA", "22303"]), *[(10, PROSE)] * 6], daggers="yz"))
    first = read(pdf)
    assert first.lines[1].text == "Claudio Bettini^y Sean Wang^z"
    assert paper_record({}, first).authors == ["Claudio Bettini", "Sean Wang"]


def test_names_set_apart_keep_their_raised_marks_apart_from_the_names(tmp_path: Path) -> None:
    """A byline of names set far apart, each with a raised letter ("Claudio Bettini^y
    X. Sean Wang^z"): the line's cells were its pieces' raw text, the mark run into the
    surname ("Claudio Bettiniy")."""
    content = "BT\n"
    for x, name, mark in ((150, "Claudio Bettini", "y"), (300, "X. Sean Wang", "z"), (440, "Sushil Jajodia", "z")):
        content += f"/F1 12 Tf 1 0 0 1 {x} 650 Tm ({name}) Tj /F1 8 Tf 5 Ts ({mark}) Tj 0 Ts\n"
    content += "/F1 18 Tf 1 0 0 1 110 700 Tm (A General Framework for Time Granularity) Tj\n"
    for k in range(12):
        content += f"/F1 10 Tf 1 0 0 1 72 {600 - 12 * k} Tm (This paper presents a general framework to define time granularity systems.) Tj\n"
    content += "ET"
    pdf = tmp_path / "apart.pdf"
    pdf.write_bytes(times_pdf(content))
    first = read(pdf)
    byline = next(ln for ln in first.lines if "Bettini" in ln.text)
    assert byline.cells == ["Claudio Bettini^y", "X. Sean Wang^z", "Sushil Jajodia^z"]
    assert paper_record({}, first).authors == ["Claudio Bettini", "X. Sean Wang", "Sushil Jajodia"]


def test_a_formulas_script_set_apart_keeps_its_cells_text(tmp_path: Path) -> None:
    """Only a name's trailing mark is taken into a cell from the line's text: a formula's
    piece keeps its own ("S2", not "S^2"), as tables' cells go to CSV."""
    content = "BT\n/F1 12 Tf 1 0 0 1 150 650 Tm (Claudio Bettini) Tj /F1 8 Tf 5 Ts (y) Tj 0 Ts\n"
    content += "/F1 12 Tf 1 0 0 1 330 650 Tm (S) Tj /F1 8 Tf 5 Ts (2) Tj 0 Ts\nET"
    pdf = tmp_path / "cells.pdf"
    pdf.write_bytes(times_pdf(content))
    assert read(pdf).lines[0].cells == ["Claudio Bettini^y", "S2"]


def test_a_star_read_as_a_question_or_exclamation_mark_on_a_name_is_a_footnote_mark() -> None:
    """LNCS's star after a name, in a font that maps it to "?" (GMU's ISE-TR-03-02), and
    "!" and "?" on another's names (ISE-TR-03-10): the byline was refused."""
    zhu = page(line("Adding Reliable and Self-Healing Key Distribution to the Subset Difference", 75.5, 111.6, 535.9, 127.9, 16.3),
               line("Group Rekeying Method for Secure Multicast", 165.7, 130.1, 446.1, 146.4, 16.3),
               line("Sencun Zhu?, Sanjeev Setia, and Sushil Jajodia", 211.7, 169.3, 400.2, 180.5, 11.2),
               line("Center for Secure Information Systems, George Mason University, Fairfax, VA 22030.",
                    150.9, 191.4, 460.7, 201.5, 10.1),
               line("{szhu1,setia,jajodia}@gmu.edu", 228.8, 203.3, 383.2, 212.8, 9.4), *body(245.0))
    assert paper_record({}, zhu).authors == ["Sencun Zhu", "Sanjeev Setia", "Sushil Jajodia"]
    koch = page(line("UML Specification of Access Control Policies and their", 104.5, 122.0, 493.0, 135.0, 14.3),
                line("Formal Verification", 231.5, 140.0, 365.5, 150.0, 14.3),
                line("Manuel Koch! and Francesco Parisi-Presicce?*", 188.5, 176.5, 408.5, 186.0, 10.7),
                line("* Freie Universitat Berlin, Berlin (DE)", 220.5, 199.0, 376.5, 209.0, 8.6),
                line("? Univ. di Roma La Sapienza, Rome (IT)", 214.5, 210.0, 382.5, 220.0, 8.6),
                line("mkoch@inf.fu-berlin.de, fparisi@ise.gmu.edu", 163.0, 233.5, 434.5, 241.5, 8.6), *body(271.0, 8.6))
    assert paper_record({}, koch).authors == ["Manuel Koch", "Francesco Parisi-Presicce"]


def centred(text: str, y: float, size: float) -> Line:
    width = len(text) * size * 0.5
    return line(text, 306 - width / 2, y, 306 + width / 2, y + size * 1.1, size)


def test_a_question_or_an_exclamation_ending_a_subtitle_or_a_heading_is_no_names_mark() -> None:
    """Taken off at a line's end, the mark made a subtitle a name ("Fearless Concurrency?" an
    author, the title cut before it) and a section's heading too ("2 Enter OCaml!", level
    with the abstract): only a mark before the next name is a footnote's."""
    rust = page(centred("Safe Systems Programming in Rust:", 100, 18), centred("Fearless Concurrency?", 124, 14),
                centred("Ann Lee and Bo Chen", 160, 12), centred("George Mason University, Fairfax, VA 22030", 176, 11),
                *body(220.0))
    record = paper_record({}, rust)
    assert (record.title, record.authors) == ("Safe Systems Programming in Rust: Fearless Concurrency?", ["Ann Lee", "Bo Chen"])
    dolan = page(line("Malfunctional", 204.2, 155.6, 294.8, 171.0, 15.3), line("Stephen", 261.2, 188.1, 300.4, 198.9, 10.6),
                 line("Programming", 299.4, 155.7, 389.7, 171.1, 15.3), line("Dolan", 303.9, 188.2, 333.1, 198.9, 10.6),
                 line("June 10, 2016", 263.5, 211.5, 330.7, 222.2, 10.6),
                 *(line(text, 71.4, 250.0 + 12 * k, 292.3, 259.0 + 12 * k, 8.8) for k, text in enumerate([
                     "Malfunction is an untyped program representation", "intended as a compilation target for functional",
                     "languages, consisting of a thin wrapper around", "OCaml's Lambda intermediate representation.",
                     "Compilers targeting Malfunction convert programs", "to a simple s-expression-based syntax with clear"])),
                 line("2 Enter OCaml!", 302.0, 309.3, 399.2, 320.0, 10.6, ["2", "Enter OCaml!"]),
                 *(line("Why re-use OCaml's back-end specifically, when there", 301.6, 328.2 + 12 * k, 522.1, 337.3 + 12 * k, 8.8)
                   for k in range(10)))
    assert paper_record({}, dolan).authors == ["Stephen Dolan"]


def test_an_italian_department_under_a_name_is_no_author() -> None:
    """ViewFinder's three stacked addresses (GMU's ISSE-TR-95-15): "Dipartimento di
    Ingegneria Elettrica" was read as a second author."""
    viewfinder = page(line("ViewFinder: An Object Browser", 158.6, 83.4, 453.6, 106.6, 19.6),
                      line("Alessandro D'Atri", 249.1, 134.5, 362.9, 150.9, 12.7),
                      line("Dipartimento di Ingegneria Elettrica", 191.3, 152.3, 421.2, 168.7, 12.7),
                      line("Universita degli Studi di L'Aquila", 199.7, 170.3, 412.8, 186.7, 13.7),
                      line("I-67040 L'Aquila, Italy", 234.5, 188.3, 378.0, 204.7, 13.7),
                      line("Amihai Motro", 261.4, 213.2, 350.6, 229.6, 12.7),
                      line("Department of Information and Software Systems Engineering", 110.2, 231.2, 502.1, 247.6, 12.7),
                      line("George Mason University", 226.6, 249.2, 385.7, 265.6, 12.7),
                      line("Fairfax, VA 22030-4444", 232.6, 267.2, 379.7, 283.6, 13.3), *body(320.0))
    assert paper_record({}, viewfinder).authors == ["Alessandro D'Atri", "Amihai Motro"]


def offutt(*foot: Line) -> PageText:
    """A contract's final report (GMU's ISE-TR-01-03): its sponsor, the contract's monitor
    and the principal investigator, then a draft's date."""
    return page(line("Generating Test Data From Requirements/Specifications:", 107.8, 85.4, 504.7, 104.6, 15.2),
                line("Phase IV Final Report", 227.3, 102.6, 384.7, 121.8, 15.3),
                line("Prepared For: Rockwell Collins, Inc", 72.0, 158.6, 344.6, 175.0, 12.7,
                     ["Prepared For:", "Rockwell Collins, Inc"]),
                line("Contract Monitor: Dave Statezni", 72.0, 176.6, 300.7, 193.0, 12.2, ["Contract Monitor:", "Dave Statezni"]),
                line("Principal Investigator: A. Jefferson Offutt", 72.0, 212.3, 332.4, 228.7, 12.7),
                line("George Mason University", 215.0, 230.3, 371.0, 246.7, 12.7),
                line("November 3, 2000", 215.0, 268.2, 325.0, 282.2, 13.5),
                line("EXECUTIVE SUMMARY", 211.0, 315.2, 401.0, 327.9, 12.7), *body(352.9, 9.8)[:18], *foot)


def test_a_contract_reports_principal_investigator_is_its_author_and_its_issue_line_its_year() -> None:
    """The report's issue line in the page's foot, "Technical Report ISE-TR-01-03, …, July
    2001.", dates it over the draft's date under the byline; the principal investigator is
    the author, the contract's monitor is not."""
    report = offutt(line("Technical Report ISE-TR-01-03, Department of Information and Software Engineering, George",
                         72.0, 673.1, 540.0, 686.7, 9.8),
                    line("Mason University, Fairfax VA, July 2001.", 72.0, 686.7, 272.6, 700.4, 9.9))
    record = paper_record({}, report)
    assert (record.title, record.authors, record.year) == (
        "Generating Test Data From Requirements/Specifications: Phase IV Final Report", ["A. Jefferson Offutt"], 2001)


def test_without_an_issue_line_the_drafts_date_dates_the_report() -> None:
    assert paper_record({}, offutt()).year == 2000


def test_a_journals_review_note_gives_no_year() -> None:
    """IEEE's note at a column's foot, "Manuscript received June, 1992; revised January,
    1993." (GMU's ISSE-TR-93-09), dates the review, not the paper."""
    yoon = page(line("A Framework for Knowledge Discovery", 91.9, 61.2, 500.4, 85.6, 18.6),
                line("and Evolution in Databases", 153.1, 86.2, 439.4, 110.6, 18.6),
                line("Jong P. Yoon Member, IEEE and Larry Kerschberg Member, IEEE", 123.6, 124.8, 469.9, 136.4, 10.8),
                *body(177.7, 7.3),
                line("Manuscript received June, 1992; revised January, 1993.", 45.1, 674.7, 237.4, 683.1, 6.4),
                line("Engineering, George Mason University, Fairfax, VA 22030-4444.", 37.2, 698.7, 259.9, 707.1, 6.4))
    record = paper_record({}, yoon)
    assert (record.authors, record.year) == (["Jong P. Yoon", "Larry Kerschberg"], None)



def ieee(*note: str) -> PageText:
    """A journal's first page with its note at the column's foot, a line each."""
    return page(centred("Learned Index Structures for Column Stores", 80, 20),
                centred("Ann Lee, Member, IEEE, and Bo Chen, Fellow, IEEE", 120, 11), *body(180.0, 10.0)[:30],
                *(line(text, 45, 674 + 9 * k, 290, 682 + 9 * k, 7.5) for k, text in enumerate(note)))


def test_a_journals_review_note_gives_its_publication_date_not_its_reviews() -> None:
    note = ieee("Manuscript received November 2, 2018; revised March 3, 2019; accepted",
                "April 1, 2019. Date of publication April 10, 2020. (Corresponding author:", "Ann Lee.)")
    assert paper_record({}, note).year == 2020


def test_a_principal_investigators_institution_alone_is_no_author_and_a_co_investigator_is() -> None:
    report = offutt()
    report.lines[4] = line("Principal Investigator: George Mason University", 72.0, 212.3, 332.4, 228.7, 12.7)
    assert paper_record({}, report).authors == []
    report.lines[4] = line("Co-Principal Investigator: Paul Ammann", 72.0, 212.3, 332.4, 228.7, 12.7)
    assert paper_record({}, report).authors == ["Paul Ammann"]


def test_a_reports_issue_line_is_read_with_a_number_alone_and_one_comma() -> None:
    report = offutt(line("Technical Report No. 01-03, July 2001.", 72.0, 686.7, 272.6, 700.4, 9.9))
    assert paper_record({}, report).year == 2001


def test_a_cited_report_or_a_series_line_under_a_copyright_does_not_date_the_page() -> None:
    """A footnote's citation of an earlier report ("∗Technical Report CS-TR-3012, …, 1993.")
    dates nothing, and a paper's copyright outranks its report series' line."""
    cited = offutt(line("∗Technical Report CS-TR-3012, University of Maryland, College Park, 1993.", 72.0, 686.7, 400.0, 700.4, 8.0))
    assert paper_record({}, cited).year == 2000
    acm = page(centred("Learned Index Structures for Column Stores", 80, 20), centred("Ann Lee and Bo Chen", 120, 12),
               centred("Microsoft Research, Redmond, WA", 136, 11), *body(180.0, 10.0)[:15],
               line("Copyright 2002 ACM 1-58113-000-0/02/0010 ...$5.00.", 72, 667, 300, 675, 8.0),
               line("Technical Report MSR-TR-2001-114, Microsoft Research, Redmond, December 2001.", 72, 720, 400, 728, 8.0))
    assert paper_record({}, acm).year == 2002


def test_an_italian_departments_banner_over_a_cover_is_no_title() -> None:
    cover = page(centred("Dipartimento di Informatica", 90, 18), centred("Structural Operational Semantics of Mobile Agents", 140, 16),
                 centred("Ann Lee and Bo Chen", 180, 12), *body(240.0))
    assert paper_record({}, cover).title == "Structural Operational Semantics of Mobile Agents"


def test_a_review_notes_copyright_still_dates_the_page() -> None:
    """The review's dates are skipped up to a copyright in the same note, not past it."""
    note = ieee("Manuscript received June 1, 1992; revised January 5, 1993.",
                "The authors are with the Department of CS, Univ. of X.", "0162-8828/93$03.00 © 1993 IEEE")
    assert paper_record({}, note).year == 1993


def test_a_font_boxed_from_its_baseline_to_its_capitals_is_sized_as_its_type(tmp_path: Path) -> None:
    """GMU's ISE-TR-99-01: the title's dvips font boxes every letter from the baseline to the
    capitals' top, two thirds of its size, so its 17 pt read smaller than the 12 pt lines of
    the contract's cover under it, and "Prepared For: Rockwell Collins, Inc," was the title."""
    pdf = tmp_path / "capped.pdf"
    pdf.write_bytes(glyph_box_pdf([(17, ["Generating", "Test", "Data", "From", "Requirements"]),
                                   (12, "Rockwell Collins and Dave Statezni"), (12, "A. Jefferson Offutt"),
                                   *[(10, " ".join(PROSE))] * 8]))
    first = read(pdf)
    title, cover = first.lines[0].size, first.lines[1].size
    assert 15.5 < title < 18.5 and title > 1.1 * cover, (title, cover)
    assert paper_record({}, first).title == "Generating Test Data From Requirements"


def test_a_typescripts_first_line_over_its_byline_is_the_title_not_a_heading_under_the_abstract() -> None:
    """GMU's ISSE-TR-92-01, typed in one type set flush left: the title is the first line with
    the author under it; "ARTIFICIAL REALITIES", the first section's heading under the
    abstract, read as the title and the byline was lost."""
    prose = ["As the power of information technology grows and its cost diminishes, training",
             "is shifting into complex, computer-maintained worlds. The primary reason for",
             "this transition is effectiveness; richly detailed virtual environments leverage",
             "the most important variables for educational success. These types of training"]
    widths = [535.0, 523.3, 540.9, 529.1]  # a typescript's ragged right edge
    lines = [line("Artificial Realities, Virtual Communities, and Knowbots", 77.0, 72.7, 400.0, 84.1, 11.3),
             line("Chris Dede", 77.0, 96.7, 135.9, 108.1, 11.3),
             line("George Mason University", 77.0, 108.7, 212.2, 120.1, 11.3),
             line("ABSTRACT", 77.0, 132.7, 124.1, 144.1, 11.3),
             *[line(text, 77.0, 156.7 + 12 * i, x1, 168.1 + 12 * i, 11.3) for i, (text, x1) in enumerate(zip(prose, widths))],
             line("ARTIFICIAL REALITIES", 77.0, 216.7, 194.6, 228.1, 11.3),
             *[line(text, 77.0, 240.7 + 12 * i, x1, 252.1 + 12 * i, 11.3) for i, (text, x1) in enumerate(zip(prose * 4, widths * 4))]]
    record = paper_record({}, page(*lines))
    assert (record.title, record.authors) == ("Artificial Realities, Virtual Communities, and Knowbots", ["Chris Dede"])


def test_a_report_series_banner_of_department_and_street_is_no_title() -> None:
    """GMU-CS-TR-2005-1: the series' banner sets "Department of Computer Science" in the
    title's type, its street beside it: the banner was the title."""
    lines = [line("PRELIMINARY VERSION SUBMITTED TO IEEE TRANSACTION ON SOFTWARE ENGINEERING 1", 46.8, 21.8, 565.1, 33.8, 12.0,
                  ["PRELIMINARY VERSION SUBMITTED TO IEEE TRANSACTION ON SOFTWARE ENGINEERING", "1"]),
             line("Department of Computer Science 4400 University Drive MS#4A5", 84.2, 66.0, 523.5, 87.7, 21.7,
                  ["Department of Computer Science", "4400 University Drive MS#4A5"]),
             line("George Mason University Fairfax, VA 22030-4444 USA", 84.2, 81.8, 516.4, 102.9, 12.0,
                  ["George Mason University", "Fairfax, VA 22030-4444 USA"]),
             line("Technical Report Series 703-993-1530", 84.2, 102.6, 451.6, 118.2, 15.6, ["Technical Report Series", "703-993-1530"]),
             line("Reachability Testing of Concurrent Programs", 137.6, 141.6, 465.0, 163.3, 21.7),
             line("Jeff Lei Richard Carver", 220.1, 181.0, 412.1, 194.0, 13.0, ["Jeff Lei", "Richard Carver"]),
             line("ylei@cse.uta.edu rcarver@cs.gmu.edu", 202.3, 192.9, 419.3, 204.9, 12.0, ["ylei@cse.uta.edu", "rcarver@cs.gmu.edu"]),
             line("Technical Report GMU-CS-TR-2005-1", 211.1, 218.8, 400.8, 233.3, 14.5), *body(276.0, 11.7)]
    record = paper_record({}, page(*lines))
    assert (record.title, record.authors) == ("Reachability Testing of Concurrent Programs", ["Jeff Lei", "Richard Carver"])


def test_a_scans_marks_read_as_question_marks_end_the_byline_too() -> None:
    """GMU's ISE-TR-05-06, a scan: OCR read the names' raised "1,2" and "2" as "!?" and "?".
    The last name's mark, at the line's end, is a mark when a name before it had one."""
    lines = [line("CoJava: A Unified Language for Simulation and", 139.0, 66.0, 476.5, 79.0, 14.3),
             line("Optimization", 262.0, 83.5, 353.5, 96.5, 15.0),
             line("Alexander Brodsky!? and Hadon Nash?", 220.0, 120.0, 394.5, 130.5, 10.7),
             line("‘ George Mason Unviersity, Virginia, USA, brodsky@gmu. edu", 184.0, 141.5, 431.5, 151.5, 9.3),
             line("2 Adaptive Decisions, Inc., Maryland, USA, hnash@adaptivedecisions.com", 157.5, 152.5, 457.5, 162.5, 9.3),
             *body(190.0, 9.3)]
    assert paper_record({}, page(*lines)).authors == ["Alexander Brodsky", "Hadon Nash"]


def centred_at(text: str, y: float, size: float, per: float) -> Line:
    return line(text, 306 - len(text) * per / 2, y, 306 + len(text) * per / 2, y + size, size)


def authors_under(y: float) -> list[Line]:
    return [centred_at("Jane Q. Public and John R. Doe", y, 12.0, 5.6), centred_at("Stanford University", y + 14, 12.0, 5.6),
            line("Abstract", 72.0, y + 50, 120.0, y + 60, 10.0), *body(y + 64)]


def test_a_reprints_note_of_prose_over_a_typescripts_title_in_capitals_leaves_it_the_title() -> None:
    """The first read of f0e6a09: a capitals line under three lines of prose was skipped as a
    section's heading even with no byline above it, so a title under a reprint's note was lost."""
    note = ["This paper appeared in the proceedings of a workshop held in the spring of",
            "the year; it is reprinted here with the kind permission of the editors and",
            "of the publisher, with minor corrections and an updated list of references."]
    lines = [line(text, 77.0, 60.0 + 12 * i, 77.0 + 6 * len(text), 71.4 + 12 * i, 11.3) for i, text in enumerate(note)]
    lines += [line("SECURE COMMUNICATIONS OVER INSECURE CHANNELS", 77.0, 130.0, 323.4, 141.4, 11.3),
              line("Ralph C. Merkle", 77.0, 154.0, 161.0, 165.4, 11.3),
              line("University of California, Berkeley", 77.0, 166.0, 267.4, 177.4, 11.3),
              line("ABSTRACT", 77.0, 200.0, 121.8, 211.4, 11.3),
              *[line(text, 77.0, 224.0 + 12 * i, 535.0, 235.4 + 12 * i, 11.3) for i, text in enumerate(note * 6)]]
    record = paper_record({}, page(*lines))
    assert (record.title, record.authors) == ("Secure Communications Over Insecure Channels", ["Ralph C. Merkle"])


@pytest.mark.parametrize(("title", "cells"), [
    ("Universities and Regional Development in the Knowledge Economy", ["Universities and Regional Development", "in the Knowledge Economy"]),
    ("Faculty Hiring Networks in Computer Science 1", ["Faculty Hiring Networks in Computer Science", "1"])])
def test_a_title_of_two_cells_opening_on_an_institutions_word_stays_the_title(title: str, cells: list[str]) -> None:
    """The banner rule took any two-cell line opening "University…", "Faculty…" for a
    department beside its street: only "Department of …" (or "School of", "Institute of", …)
    beside a cell holding a number is."""
    lines = [line(title, 120.0, 90.0, 490.0, 109.8, 18.0, cells), *authors_under(130.0)]
    record = paper_record({}, PageText(number=1, width=612, height=792, lines=lines, scan=True))
    assert record.title == title and record.authors == ["Jane Q. Public", "John R. Doe"]  # (the page's number kept, as before)


def test_a_titles_question_marks_are_no_names_marks() -> None:
    """A guard: "Big Data? and Big Brother?" is a title; a "?" at a line's end is a mark only
    after two marks before it, or one of two ("Brodsky!? and Hadon Nash?")."""
    record = paper_record({}, page(centred_at("Big Data? and Big Brother?", 90.0, 18.0, 9.0), *authors_under(130.0)))
    assert (record.title, record.authors) == ("Big Data? and Big Brother?", ["Jane Q. Public", "John R. Doe"])


@pytest.mark.parametrize(("over", "name", "title"), [
    ("In honour of Professor", "Robin Milner", "A Calculus of Communicating Systems Revisited"),
    ("Invited Address", "Edsger W. Dijkstra", "The Humble Programmer and the Craft of Computing")])
def test_a_flush_left_line_over_a_name_gives_way_to_a_centred_title(over: str, name: str, title: str) -> None:
    """The flush-left typescript rule only where no narrow line is centred: a dedication's "In
    honour of Professor" / "Robin Milner" over the centred title was read as the title."""
    prose = ["As the power of information technology grows and its cost diminishes, training",
             "is shifting into complex, computer-maintained worlds. The primary reason for"]
    lines = [line(over, 77.0, 60.0, 77.0 + 5.6 * len(over), 71.4, 11.3), line(name, 77.0, 74.0, 77.0 + 5.6 * len(name), 85.4, 11.3),
             line(title, 306 - 2.8 * len(title), 110.0, 306 + 2.8 * len(title), 121.4, 11.3),
             line("Abstract", 77.0, 150.0, 121.8, 161.4, 11.3),
             *[line(text, 77.0, 174.0 + 12 * i, 535.0, 185.4 + 12 * i, 11.3) for i, text in enumerate(prose * 10)]]
    assert paper_record({}, page(*lines)).title == title
