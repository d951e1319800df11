"""A laboratory's offprints and progress reports and a language project's technical documents
the dev53 and dev54 rounds misread: a periodic report dated only by its title, an author's
copy dated by its note of where it appeared, bylines in capitals parted by dashes or by
affiliation numbers, a document's number taken for a name, a date a sentence is about, a
title printed in quotes. Each asserts the right reading from the lines pdfium gave."""

from __future__ import annotations

import pytest

from athena_lab.pdf.layout import Line
from athena_lab.pdf.meta import paper_record
from athena_lab.pdf.pages import PageText

pytestmark = pytest.mark.unit

PROSE = "In all the years of our trying to build tree-ring chronologies for the Eastern Mediterranean, two of our"


def line(text: str, x0: float, y0: float, x1: float, y1: float, size: float, cells: list[str] | None = None) -> Line:
    return Line(text=text, boxes=[], bbox=(x0, y0, x1, y1), size=size, bold=False, cells=cells or [text])


def page(*lines: Line) -> PageText:
    return PageText(number=1, width=612, height=792, lines=list(lines), scan=False)


def body(y0: float, size: float = 12.0, n: int = 20) -> list[Line]:
    return [line(PROSE, 60.0, y0 + size * i, 540.0, y0 + size * (i + 1), size) for i in range(n)]


def test_a_progress_reports_title_dates_it_and_ends_at_report() -> None:
    """"AEGEAN DENDROCHRONOLOGY" / "PROJECT DECEMBER 1993 PROGRESS" / "REPORT": the last line
    was cut as a banner's word, and the year printed only in the title was not taken; the
    section's heading under it is no subtitle."""
    report = page(line("AEGEAN DENDROCHRONOLOGY", 60.0, 60.0, 450.0, 84.0, 24.0),
                  line("PROJECT DECEMBER 1993 PROGRESS", 60.0, 84.0, 505.0, 108.0, 24.0),
                  line("REPORT", 60.0, 108.0, 160.0, 132.0, 24.0),
                  line("CHANGE FROM OUR USUAL FORMAT", 60.0, 148.5, 395.0, 166.5, 18.0), *body(181.0))
    record = paper_record({}, report)
    assert (record.title, record.authors, record.year) == (
        "Aegean Dendrochronology Project December 1993 Progress Report", [], 1993)


def test_a_titles_year_of_its_subject_is_no_date() -> None:
    """Only a periodic report's title dates it: "Dendrochronological Progress as of 1995" is
    what the paper is about, and a page printing no other year has none."""
    paper = page(line("The Prehistoric Aegean: Dendrochronological Progress as of 1995", 58.0, 98.0, 392.0, 110.0, 12.0),
                 line("Peter Ian Kuniholm", 58.0, 121.2, 149.0, 130.2, 9.0), *body(152.0, 8.0))
    assert paper_record({}, paper).year is None


def test_an_authors_copy_is_dated_by_its_note_of_where_it_appeared() -> None:
    """"The full citation of this article is: … Santorini, Greece, 3-9 September 1989. …
    (London: The Thera Foundation 1990) 13-18.": the congress's date was taken; the
    note's last year is its publication's."""
    thera = page(line('The full citation of this article is: "Overview and Assessment of the Evidence for the Date of the',
                      60.0, 60.0, 512.2, 72.0, 12.0),
                 line('Eruption of Thera" in D. A. Hardy and A. C. Renfrew, eds., Thera and the Aegean World III:',
                      60.0, 72.0, 505.0, 84.0, 12.0),
                 line("Proceedings of the Third International Congress, Santorini, Greece, 3-9 September 1989. Vol. III",
                      60.0, 84.0, 526.0, 96.0, 12.0),
                 line('"Chronology" (London: The Thera Foundation 1990) 13-18.', 60.0, 96.0, 347.0, 108.0, 12.0),
                 line("Overview and Assessment of the Evidence for the Date of the", 60.0, 136.5, 532.1, 154.5, 18.0),
                 line("Eruption of Thera", 60.0, 154.5, 202.0, 172.5, 18.0),
                 line("Introduction", 60.0, 195.0, 118.0, 207.0, 12.0), *body(219.0))
    record = paper_record({}, thera)
    assert (record.title, record.year) == ("Overview and Assessment of the Evidence for the Date of the Eruption of Thera", 1990)


def test_a_byline_in_capitals_parted_by_dashes_over_the_title() -> None:
    """Dendrochronologia's "M. NEWTON - K. A. WARDLE - P. I. KUNIHOLM" over the title, in a
    scan whose body type is near the title's: the byline was the title, and its names,
    parted by dashes, none; "Synopsis" under the title is a heading, no part of it."""
    lines = [line("M. NEWTON - K. A. WARDLE - P. I. KUNIHOLM", 179.1, 142.2, 387.7, 153.4, 11.2),
             line("DENDROCHRONOLOGY AND RADIOCARBON DETERMINATIONS", 87.1, 168.3, 479.7, 183.0, 14.7),
             line("FROM ASSIROS AND THE BEGINNING OF THE GREEK IRON AGE", 89.0, 184.4, 478.2, 199.1, 14.7),
             line("Synopsis", 79.0, 218.6, 120.7, 232.0, 13.4), *body(242.7, 13.4)]
    record = paper_record({}, PageText(number=1, width=612, height=769, lines=lines, scan=True))
    assert (record.title, record.authors) == (
        "Dendrochronology and Radiocarbon Determinations From Assiros and the Beginning of the Greek Iron Age",
        ["M. Newton", "K. A. Wardle", "P. I. Kuniholm"])


def test_names_parted_only_by_their_affiliation_numbers() -> None:
    """Radiocarbon's "Sturt W Manning1 Mike Barbetti2 Bernd Kromer3 …" over two lines, no
    commas between the names: each number ends a name."""
    lines = [line("RADIOCARBON, Vol 44, Nr 3, 2002, p 739–754 © 2002 by the Arizona Board of Regents", 29.5, 34.9, 425.5, 43.8, 6.9),
             line("NO SYSTEMATIC EARLY BIAS TO MEDITERRANEAN 14C AGES: RADIOCARBON", 28.8, 61.8, 421.2, 73.8, 11.7),
             line("MEASUREMENTS FROM TREE-RING AND AIR SAMPLES PROVIDE TIGHT LIMITS", 28.8, 74.1, 422.5, 85.8, 11.7),
             line("TO AGE OFFSETS", 28.8, 86.1, 118.8, 97.8, 11.7),
             line("Sturt W Manning1 Mike Barbetti2 Bernd Kromer3 Peter Ian Kuniholm4 Ingeborg Levin5", 28.8, 110.5, 413.4, 121.9, 11.1),
             line("Maryanne W Newton6 Paula J Reimer7", 28.8, 122.5, 195.0, 133.9, 11.1), *body(144.8, 8.7)]
    assert paper_record({}, page(*lines)).authors == ["Sturt W Manning", "Mike Barbetti", "Bernd Kromer", "Peter Ian Kuniholm",
                                                      "Ingeborg Levin", "Maryanne W Newton", "Paula J Reimer"]


def test_a_documents_number_over_its_date_is_no_name() -> None:
    """An Icon Project Document's "IPD279" over "November 24, 1996" under the byline read as
    an author, "IPD November"."""
    lines = [line("The Icon Program Library; Version 9.3", 44.0, 66.0, 367.9, 86.5, 20.5),
             line("Ralph E. Griswold and Gregg M. Townsend", 44.0, 96.5, 256.9, 110.0, 13.5),
             line("Department of Computer Science", 185.0, 125.5, 341.1, 139.0, 13.5),
             line("The University of Arizona", 185.0, 137.5, 309.1, 151.0, 13.5),
             line("Tucson, Arizona", 185.0, 149.5, 264.1, 163.0, 13.5),
             line("IPD279", 185.0, 173.5, 222.0, 187.0, 13.5),
             line("November 24, 1996", 185.0, 185.5, 281.0, 199.0, 13.5),
             line("http://www.cs.arizona.edu/icon/docs/ipd279.html", 185.0, 197.5, 421.2, 211.0, 13.5),
             line("Note: This is the complete description with a contents listing. An abbreviated version without the contents",
                  44.0, 284.3, 547.6, 298.0, 13.5),
             line("listing is given in IPD282.", 44.0, 296.5, 169.1, 310.0, 13.5),
             line("1. Introduction", 44.0, 345.6, 145.0, 361.5, 15.9), *body(371.5, 13.5)]
    record = paper_record({}, page(*lines))
    assert (record.authors, record.year) == (["Ralph E. Griswold", "Gregg M. Townsend"], 1996)


def test_a_date_a_sentence_is_about_does_not_date_the_page_but_a_drafts_does() -> None:
    """"… the results as of October 1988:" in the body dated a page that prints no year;
    "Draft as of September 4, 2018" under a title is this version's date."""
    results = page(line("A 677 YEAR TREE-RING CHRONOLOGY FOR THE MIDDLE BRONZE AGE", 71.3, 196.4, 526.2, 211.2, 14.7),
                   line("PETER IAN KUNIHOLM - MARYANNE W. NEWTON", 168.2, 217.2, 429.6, 233.2, 12.3),
                   *body(257.5, 12.3, 12),
                   line("wood (actually charcoal). They are listed below with the results as of October 1988:",
                        72.0, 627.1, 432.7, 639.9, 12.3))
    record = paper_record({}, results)
    assert (record.authors, record.year) == (["Peter Ian Kuniholm", "Maryanne W. Newton"], None)
    draft = page(line("xv6: a simple, Unix-like teaching operating system", 150.0, 300.0, 460.0, 320.0, 17.0),
                 line("Russ Cox Frans Kaashoek Robert Morris", 200.0, 340.0, 410.0, 352.0, 12.0,
                      ["Russ Cox", "Frans Kaashoek", "Robert Morris"]),
                 line("Draft as of September 4, 2018", 232.2, 500.2, 379.8, 511.9, 11.6))
    assert paper_record({}, draft).year == 2018


def test_a_title_printed_in_quotes_is_written_without_them() -> None:
    """“A 677 YEAR TREE-RING CHRONOLOGY …”: the quotes kept, the first word read as a small
    word in the middle of a title ("“a 677 Year …")."""
    lines = [line("“A 677 YEAR TREE-RING CHRONOLOGY FOR THE MIDDLE BRONZE AGE”", 71.3, 196.4, 526.2, 211.2, 14.7),
             line("Peter Ian Kuniholm and Maryanne W. Newton", 168.2, 217.2, 429.6, 233.2, 12.3), *body(257.5, 12.3)]
    assert paper_record({}, page(*lines)).title == "A 677 Year Tree-ring Chronology for the Middle Bronze Age"


def titled(title: str, byline: str = "Jane Q. Public", notes: tuple[str, ...] = (), foot: str = "") -> PageText:
    """A paper's first page: ``notes`` set small over the title, its byline, the body, a foot line."""
    lines = [line(text, 60.0, 60.0 + 10 * i, 530.0, 70.0 + 10 * i, 9.0) for i, text in enumerate(notes)]
    top = 90.0 + 10 * len(notes)
    lines += [line(title, 60.0, top, min(540.0, 60.0 + 9 * len(title)), top + 18, 18.0),
              line(byline, 60.0, top + 30, 300.0, top + 42, 12.0), *body(top + 60, 10.0, 20)]
    if foot:
        lines.append(line(foot, 60.0, 740.0, 400.0, 750.0, 8.0))
    return page(*lines)


@pytest.mark.parametrize("title", ["The March 2011 Tohoku Earthquake: A Reconnaissance Report",
                                   "A Critique of the 1983 Final Report of the National Commission",
                                   "Comments on the Progress Report for 1994"])
def test_a_titles_report_of_another_date_does_not_date_the_paper(title: str) -> None:
    """The second read of e794a61: a date anywhere before "report" dated the paper by its
    subject; only a date next to it, not "the 1983 Final Report", dates a report's own title."""
    assert paper_record({}, titled(title)).year is None


@pytest.mark.parametrize(("note", "year"), [
    (("Please cite this article as: Public, J. Q., & Roe, J. (2013). Hydrogen storage in metal hydrides for",
      "vehicles. Applied Energy, 112, 1801-1812."), 2013),
    (("Please cite this article as: Public JQ, Roe J. Hydrogen storage in metal hydrides for vehicles. Nat",
      "Commun. 2016;7:1988."), 2016)])
def test_a_citation_notes_pages_and_article_numbers_are_no_years(note: tuple[str, ...], year: int) -> None:
    """"… Applied Energy, 112, 1801-1812." gave 1812 and "2016;7:1988" 1988: the last year of
    the note was a page or an article number."""
    assert paper_record({}, titled("Hydrogen Storage in Metal Hydrides for Vehicles", "Jane Q. Public and John Roe",
                                   notes=note)).year == year


def test_a_typescripts_title_naming_two_people_stays_the_title() -> None:
    """A typescript's "A. M. TURING AND J. VON NEUMANN" over its author, all in one type: the
    rule that skips a byline in capitals over a title took it for one (only names parted by
    dashes are)."""
    lines = [line(text, 306 - 3 * len(text), y, 306 + 3 * len(text), y + 12, 12.0)
             for text, y in (("A. M. TURING AND J. VON NEUMANN", 100.0), ("Jane Q. Public", 138.0))]
    lines += [line(PROSE, 72.0, 190.0 + 14 * i, 540.0, 202.0 + 14 * i, 12.0) for i in range(25)]
    record = paper_record({}, PageText(number=1, width=612, height=792, lines=lines, scan=True))
    assert (record.title, record.authors) == ("A. M. Turing and J. Von Neumann", ["Jane Q. Public"])


def test_summary_ending_a_titles_last_line_is_the_titles() -> None:
    """"… Deployment: An Executive" / "Summary": "Summary" alone is a heading, but not after
    "An Executive"."""
    lines = [line("Institutional Repositories in Practice: An Executive", 60.0, 80.0, 520.0, 98.0, 18.0),
             line("Summary", 60.0, 98.0, 140.0, 116.0, 18.0),
             line("Jane Q. Public", 60.0, 130.0, 200.0, 142.0, 12.0), *body(170.0, 10.0)]
    record = paper_record({}, page(*lines))
    assert (record.title, record.authors) == ("Institutional Repositories in Practice: An Executive Summary", ["Jane Q. Public"])


@pytest.mark.parametrize(("foot", "year"), [("Period covered: January through December 1996", 1996),
                                            ("Progress report for the period July 1995 through June 1996", 1996),
                                            ("This draft as of September 4, 2018", 2018)])
def test_a_periods_end_and_a_drafts_date_still_date_the_page(foot: str, year: int) -> None:
    """The skip of dates a sentence is about took the end of a period ("… through December
    1996") and a draft's date after a word ("This draft as of …")."""
    assert paper_record({}, titled("Tree-Ring Dating of the Gordion Citadel Mound", "Peter Ian Kuniholm", foot=foot)).year == year


def test_a_laboratorys_code_in_brackets_leaves_the_byline() -> None:
    """"Jean Dupont (IRIT UMR5505) and Marie Curie (LIP6 UMR7606)": a document's number rule
    took the laboratories' codes for one and refused the byline."""
    record = paper_record({}, titled("Formal Verification of Distributed Protocols",
                                     "Jean Dupont (IRIT UMR5505) and Marie Curie (LIP6 UMR7606)"))
    assert record.authors == ["Jean Dupont", "Marie Curie"]
