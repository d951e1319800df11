"""Title, authors and year from a first page: the error classes found on the archive's
dev papers (bench/archive_metadata.py, split dev), each pinned on a page built from the
lines pdfium gave for that paper (positions and sizes as read)."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from athena_lab.pdf.glyphs import ligature_glyph
from athena_lab.pdf.layout import Line
from athena_lab.pdf.meta import citation_label, cover_sheet, page_year, paper_record
from athena_lab.pdf.pages import PageText, extract_page
from printed_pdf import printed_pdf

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


# --- issue 30, records for papers the rules had not seen (dev4, dev5 and the shared corpus) ---

def test_a_banner_and_the_lines_that_go_on_with_it_are_no_title() -> None:
    """Thurston: "APPEARED IN BULLETIN OF THE" / "AMERICAN MATHEMATICAL SOCIETY" over the
    title, all in capitals and the title in a smaller type than the body."""
    first = page(line("APPEARED IN BULLETIN OF THE", 127, 86, 249, 92, 6.0),
                 line("AMERICAN MATHEMATICAL SOCIETY", 127, 92, 266, 98, 6.0),
                 line("Volume 30, Number 2, April 1994, Pages 161-177", 127, 99, 284, 105, 6.0),
                 line("ON PROOF AND PROGRESS IN MATHEMATICS", 169, 169, 443, 176, 7.1),
                 line("WILLIAM P. THURSTON", 255, 202, 358, 209, 7.3), *BODY)
    record = paper_record({}, first)
    assert record.title == "On Proof and Progress in Mathematics"
    assert record.authors == ["William P. Thurston"] and record.year == 1994


def test_a_table_of_contents_is_no_title() -> None:
    """Bourgain, Dirksen and Nelson: the title in small bold capitals, the contents under
    the abstract set larger ("6.2. l2,1-constrained case 23", an appendix, was the title)."""
    contents = [line(f"Appendix {chr(65 + n)}. Tools from probability theory {40 + n}", 130, 412 + 12 * n, 477,
                     422 + 12 * n, 10.0) for n in range(1, 4)]
    first = page(line("TOWARD A UNIFIED THEORY OF SPARSE DIMENSIONALITY", 120, 152, 476, 161, 9.0),
                 line("REDUCTION IN EUCLIDEAN SPACE", 194, 166, 401, 175, 9.0),
                 line("JEAN BOURGAIN, SJOERD DIRKSEN, AND JELANI NELSON", 173, 197, 423, 205, 8.0),
                 *(line("Abstract. Some prose of the abstract set in a small type for the page.", 154, 220 + 10 * i,
                        441, 229 + 10 * i, 8.0) for i in range(15)),
                 line("Contents", 273, 394, 322, 403, 9.1),
                 line("6.2. l2,1-constrained case 23", 130, 400, 477, 410, 10.0), *contents)
    record = paper_record({}, first)
    assert record.title == "Toward a Unified Theory of Sparse Dimensionality Reduction in Euclidean Space"
    assert record.authors == ["Jean Bourgain", "Sjoerd Dirksen", "Jelani Nelson"]


def test_a_typescripts_centred_title_ends_at_the_first_name() -> None:
    """Hewitt, Bishop and Steiger (IJCAI): one typewriter size on the whole page, a session
    banner in the corner, the lines set so close they overlap."""
    prose = [line("This paper proposes a modular ACTOR architecture and definitional method for it", 19,
                  102 + 9 * i, 528, 113 + 9 * i, 10.5) for i in range(30)]
    first = page(line("Session 8 Formalisms for", 416, 30, 528, 40, 10.5),
                 line("Artificial Intelligence", 415, 40, 519, 51, 10.5),
                 line("A Universal Modular ACTOR Formalism", 202, 47, 361, 58, 10.5),
                 line("for Artificial Intelligence", 212, 57, 334, 67, 10.5),
                 line("Carl Hewitt", 248, 66, 298, 76, 10.5),
                 line("Peter Bishop __", 244, 75, 311, 85, 10.5),
                 line("Richard Steiger", 239, 84, 307, 94, 10.5),
                 line("Abstract", 252, 93, 290, 104, 10.5), *prose)
    record = paper_record({}, first)
    assert record.title == "A Universal Modular ACTOR Formalism for Artificial Intelligence"
    assert record.authors == ["Carl Hewitt", "Peter Bishop", "Richard Steiger"]


def test_names_wrapped_over_lines_are_read_whole() -> None:
    """Demers et al. (a PARC cover): twelve names over four lines, "Scott" / "Shenker" cut."""
    first = page(line("Epidemic Algorithms for Replicated", 83, 211, 518, 240, 28.4),
                 line("Database Maintenance", 68, 235, 368, 263, 28.4),
                 line("Alan Demers, Mark Gealy, Dan Greene, Carl Hauser,", 82, 296, 514, 317, 20.6),
                 line("Wes Irish, John Larson, Sue Manning, Scott", 82, 316, 446, 337, 20.6),
                 line("Shenker, Howard Sturgis, Dan Swinehart, Doug", 82, 336, 475, 356, 20.6),
                 line("Terry, and Don Woods", 82, 356, 268, 377, 20.6))
    assert paper_record({}, first).authors == [
        "Alan Demers", "Mark Gealy", "Dan Greene", "Carl Hauser", "Wes Irish", "John Larson", "Sue Manning",
        "Scott Shenker", "Howard Sturgis", "Dan Swinehart", "Doug Terry", "Don Woods"]


def test_grades_honorifics_badges_and_cover_labels_are_no_names() -> None:
    """SIFT: "JACK GOLDBERG, SENIOR MEMBER, IEEE,"; the LFU paper's "Prof. Ketan Shah";
    an artifact badge's stray letters beside "John Mellor-Crummey"; a repository cover's
    "CITATIONS  READS" and "SEE PROFILE"."""
    sift = page(line("SIFT: Design and Analysis of a Fault-Tolerant", 60, 90, 560, 110, 20.0),
                line("JOHN H. WENSLEY, LESLIE LAMPORT, JACK GOLDBERG, SENIOR MEMBER, IEEE,", 60, 130, 560, 140, 9.0),
                line("AND CHARLES B. WEINSTOCK", 250, 142, 400, 152, 9.0), *BODY)
    assert paper_record({}, sift).authors == ["John H. Wensley", "Leslie Lamport", "Jack Goldberg",
                                              "Charles B. Weinstock"]
    lfu = page(line("An O(1) algorithm for implementing the LFU", 150, 100, 460, 120, 17.2),
               line("Prof. Ketan Shah Anirban Mitra Dhruv Matani", 150, 140, 460, 152, 12.0,
                    ["Prof. Ketan Shah", "Anirban Mitra", "Dhruv Matani"]), *BODY)
    assert paper_record({}, lfu).authors == ["Ketan Shah", "Anirban Mitra", "Dhruv Matani"]
    queue = page(line("A Wait-free Queue as Fast as Fetch-and-Add", 129, 74, 482, 97, 23.3),
                 line("Chaoran Yang", 214, 117, 277, 130, 13.2),
                 line("John Mellor-Crummey o a", 295, 117, 527, 131, 13.2, ["John Mellor-Crummey", "o", "a"]), *BODY)
    assert paper_record({}, queue).authors == ["Chaoran Yang", "John Mellor-Crummey"]
    cover = page(line("ESSENTIA: an Audio Analysis Library for Music", 60, 138, 523, 162, 23.9),
                 line("Information Retrieval", 60, 166, 277, 190, 23.9),
                 line("CITATIONS READS", 60, 209, 319, 218, 9.0, ["CITATIONS", "READS"]),
                 line("Dmitry Bogdanov Emilia Gómez", 100, 230, 395, 242, 11.2, ["Dmitry Bogdanov", "Emilia Gómez"]),
                 line("SEE PROFILE SEE PROFILE", 111, 270, 392, 279, 9.0, ["SEE PROFILE", "SEE PROFILE"]), *BODY)
    assert paper_record({}, cover).authors == ["Dmitry Bogdanov", "Emilia Gómez"]


def test_superscripts_and_marks_part_names() -> None:
    """PaperMage: "Kyle Lo^(α∗) Zejiang Shen^(α,τ∗)" (the superscript's comma is no
    separator of its own); LongEval: "Kalpesh Krishna♠ ∗ Erin Bransom♢"; PaSa: a cell
    "Yichen He∗1"; OpenReplica: "Emin G" "ün Sirer" touching, the diaeresis drawn apart."""
    first = page(line("PaperMage: A Unified Toolkit for Processing", 101, 71, 495, 84, 12.9),
                 line("Kyle Lo^(α∗) Zejiang Shen^(α,τ∗)", 100, 107, 246, 120, 10.7),
                 line("Kalpesh Krishna♠ ∗ Erin Bransom♢ Bailey Kuehl♢", 90, 122, 499, 134, 10.7),
                 line("Yichen He Guanhua Huang", 133, 137, 293, 148, 10.7, ["Yichen He∗1", "Guanhua Huang∗1"]),
                 *BODY)
    assert paper_record({}, first).authors == ["Kyle Lo", "Zejiang Shen", "Kalpesh Krishna", "Erin Bransom",
                                               "Bailey Kuehl", "Yichen He", "Guanhua Huang"]
    replica = page(line("Commodifying Replicated State Machines with OpenReplica", 120, 70, 490, 88, 17.2),
                   line("Deniz Altınbuken, Emin G", 222, 102.6, 351.27, 116, 13.5),
                   line(" ̈", 285, 102.5, 289, 116, 13.5),
                   line("ün Sirer", 351.27, 102.6, 389, 116, 13.5), *BODY)
    assert paper_record({}, replica).authors == ["Deniz Altınbuken", "Emin Gün Sirer"]


def test_a_name_set_taller_for_its_superscript_is_read_in_its_row() -> None:
    """Karger et al.: "Tom Leighton^1,2" stands taller than the names beside it."""
    first = page(line("Consistent Hashing and Random Trees:", 191, 69, 419, 85, 16.2),
                 line("Tom Leighton -", 261, 112, 328, 131, 12.3),
                 line("David Karger Eric Lehman", 84, 117, 230, 129, 12.3, ["David Karger", "Eric Lehman"]),
                 line("Matthew Levine Daniel Lewin", 360, 117, 521, 129, 12.3, ["Matthew Levine", "Daniel Lewin"]),
                 *BODY)
    assert paper_record({}, first).authors == ["David Karger", "Eric Lehman", "Tom Leighton", "Matthew Levine",
                                               "Daniel Lewin"]


def test_an_authors_line_set_larger_than_the_title_is_no_title() -> None:
    """RADOS: the names in 14 pt Helvetica under a 12.9 pt bold title."""
    first = page(line("RADOS: A Scalable, Reliable Storage Service for Petabyte-scale", 77, 72, 533, 85, 12.9),
                 line("Storage Clusters", 247, 90, 363, 103, 12.9),
                 line("Sage A. Weil Andrew W. Leung Scott A. Brandt Carlos Maltzahn", 124, 132, 486, 146, 14.0,
                      ["Sage A. Weil", "Andrew W. Leung", "Scott A. Brandt", "Carlos Maltzahn"]),
                 line("University of California, Santa Cruz", 212, 144, 398, 158, 14.0),
                 line("ABSTRACT", 54, 206, 118, 219, 13.6),
                 line("Categories and Subject Descriptors", 54, 400, 250, 413, 13.6), *BODY)
    record = paper_record({}, first)
    assert record.title == "RADOS: A Scalable, Reliable Storage Service for Petabyte-scale Storage Clusters"
    assert record.authors == ["Sage A. Weil", "Andrew W. Leung", "Scott A. Brandt", "Carlos Maltzahn"]


def test_a_title_without_its_report_number_and_footnote_numbers() -> None:
    """Edwards' AI memo "Memo 19--LISP II Garbage Collector"; Baker's "Objects1 or," and
    "Same2"; a line wholly in parentheses ends a title, "(Semantic) Web" goes on with it."""
    memo = page(line("Memo 19--LISP II Garbage Collector", 200, 100, 450, 120, 16.0), *BODY)
    assert paper_record({}, memo).title == "LISP II Garbage Collector"
    # the memo's OCR, every line in the typewriter's one size: the project over the number
    typed = [line("Artificial Intelligence Project--RLE and MIT Computation Center", 82, 72, 536, 86, 12.1),
             line("Memo 19--LISP II Garbage Collector", 204, 90, 450, 104, 12.1),
             line("by", 313, 110, 327, 121, 12.1), line("Daniel J. Edwards", 255, 127, 376, 138, 12.1),
             *(line("The present LISP free storage control program, the garbage collector, has a", 80,
                    186 + 18 * i, 560, 202 + 18 * i, 12.1) for i in range(20))]
    assert paper_record({}, page(*typed)).title == "LISP II Garbage Collector"
    # a numbered part that goes on from the line over it is the title's own
    part = page(line("Reproducibility in Machine Learning Research,", 150, 100, 460, 118, 16.0),
                line("Report 2: Code and Data Availability", 180, 120, 430, 138, 16.0), *BODY)
    assert paper_record({}, part).title == "Reproducibility in Machine Learning Research, Report 2: Code and Data Availability"
    baker = page(line("Equal Rights for Functional Objects1 or,", 72, 74, 380, 95, 21.0),
                 line("The More Things Change, The More They Are the Same2", 72, 92, 519, 113, 21.0), *BODY)
    assert paper_record({}, baker).title == \
        "Equal Rights for Functional Objects or, The More Things Change, The More They Are the Same"
    signal = page(line("Signal/Collect: Graph Algorithms for the", 150, 100, 460, 118, 14.3),
                  line("(Semantic) Web", 250, 120, 360, 138, 14.3), *BODY)
    assert paper_record({}, signal).title == "Signal/Collect: Graph Algorithms for the (Semantic) Web"


def test_which_year_a_page_means() -> None:
    """A journal's masthead over its copyright (Bender and Farach-Colton, TCS 321 (2004),
    © 2003); a date alone under the authors over a venue note (Batson and Lamport: "11 Mar
    2003", the symposium held in 2002); an acronym and a year in a small note (Helland,
    "CIDR 2007"); a revision's date over the first copyright; a venue in the body's prose
    is no venue (Gilbert and Lynch: "At PODC 2000, Brewer …"); how to cite the paper,
    printed on it (Lee and Hammer (2011)); an updated version's original venue is not its
    year (Grover, "originally appeared in … STOC 1996")."""
    tcs = page(line("Theoretical Computer Science 321 (2004) 5 – 12", 150, 40, 460, 50, 8.0),
               line("The Level Ancestor Problem simplified", 150, 100, 460, 118, 14.0),
               line("c 2003 Elsevier B.V. All rights reserved.", 72, 700, 300, 708, 7.0), *BODY)
    assert page_year(tcs) == 2004
    batson = page(line("High-Level Specifications: Lessons from", 137, 280, 473, 296, 16.4),
                  line("Brannon Batson Leslie Lamport", 197, 352, 406, 363, 11.4),
                  line("11 Mar 2003", 273, 396, 337, 407, 11.4),
                  line("To appear in the Proceedings of the First International Symposium", 126, 477, 484, 488, 11.4),
                  line("on Formal Methods for Components and Objects, held 5–8 November", 126, 491, 484, 502, 11.4),
                  line("2002 in Leiden, The Netherlands.", 126, 505, 297, 516, 11.4))
    assert paper_record({}, batson).year == 2003
    helland = page(line("Life beyond Distributed Transactions:", 144, 72, 468, 92, 20.1),
                   line("attribute the work to the author and CIDR 2007.", 63, 682, 219, 691, 8.9), *BODY)
    assert page_year(helland) == 2007
    misra = page(line("Theory in Programming Practice", 150, 100, 460, 120, 20.0),
                 line("copyright © 2006 by Jayadev Misra", 200, 300, 400, 312, 12.0),
                 line("Revised December 2012", 220, 320, 380, 332, 12.0))
    assert page_year(misra) == 2012
    brewer = page(line("Brewer's Conjecture and the Feasibility of", 150, 100, 460, 118, 16.0),
                  *BODY, line("At PODC 2000, Brewer, in an invited talk [2], made the following conjecture:",
                              72, 462, 540, 472, 10.0))
    assert page_year(brewer) is None
    cite = page(line("Lee, J. J. & Hammer, J. (2011). Gamification in Education: What, How, Why Bother? "
                     "Academic Exchange Quarterly, 15(2).", 72, 40, 540, 50, 9.0),
                line("Gamification in Education: What, How, Why Bother?", 100, 80, 500, 98, 16.0), *BODY)
    assert paper_record({}, cite).year == 2011
    grover = page(line("A fast quantum mechanical algorithm for database search", 100, 80, 500, 98, 16.0), *BODY,
                  line("This is an updated version of a paper that originally appeared in Proceedings, STOC 1996,",
                       72, 740, 300, 750, 9.0))
    assert page_year(grover) is None


def test_records_of_printed_one_page_pdfs(tmp_path: Path) -> None:
    """The same rules on real PDFs (a Helvetica text layer read by pdfium): a wrapped list
    of names, an IEEE grade, a date under the authors over a venue note."""
    pdf = tmp_path / "sift.pdf"
    pdf.write_bytes(printed_pdf([("SIFT: Design and Analysis of a Fault-Tolerant Computer", 20.0),
                                 ("JOHN H. WENSLEY, LESLIE LAMPORT, JACK GOLDBERG, SENIOR MEMBER, IEEE,", 9.0),
                                 ("MILTON W. GREEN, KARL N. LEVITT, P. M. MELLIAR-SMITH,", 9.0),
                                 ("AND CHARLES B. WEINSTOCK", 9.0),
                                 ("11 Mar 1978", 9.0),
                                 ("Abstract", 9.0),
                                 *[("Some prose of the abstract that runs on over the lines of the page body.", 9.0)] * 12,
                                 ("To appear in the Proceedings of the IEEE, 1979.", 9.0)], {}))
    doc = pdfium.PdfDocument(str(pdf))
    try:
        record = paper_record({}, extract_page(doc, 0, "off"))
    finally:
        doc.close()
    assert record.title == "SIFT: Design and Analysis of a Fault-Tolerant Computer"
    assert record.authors == ["John H. Wensley", "Leslie Lamport", "Jack Goldberg", "Milton W. Green",
                              "Karl N. Levitt", "P. M. Melliar-Smith", "Charles B. Weinstock"]
    assert record.year == 1978


def test_a_tex_ligature_code_in_an_unnamed_font_is_its_ligature() -> None:
    """Predicate Dispatching's title: a dvips Type 3 font reports the fi ligature only by
    its OT1 code 12 ("Uni\\x0ced"); code 13 is left alone (a carriage return to pdfium, a "c"
    in the FrTime report's font); codes outside 11–15 are none."""
    assert ligature_glyph(0x0C, "i", "ed") == "fi"
    assert ligature_glyph(0x0C, " ", "rs") == "fi"  # "first" at a word's start
    assert ligature_glyph(0x0E, "e", "ci") == "ffi"
    assert ligature_glyph(0x0D, "n", "ti") is None  # code 13: a carriage return, the FrTime report's "c"
    assert ligature_glyph(0x0F, "a", "E") is None and ligature_glyph(0x05, "a", "bc") is None


def test_a_middle_dot_parts_names_and_a_received_date_is_no_year() -> None:
    """Springer sets "Name · Name · Name"; a journal's "Received …; accepted …" dates the
    review, not the paper (no year is better than a wrong one)."""
    first = page(line("A Paper Set in a Springer Journal", 100, 80, 500, 98, 16.0),
                 line("Ana Silva · Bo Chen · Carla Diaz", 150, 110, 450, 122, 11.0),
                 line("Received: 3 May 2004 / Accepted: 9 June 2005", 150, 130, 450, 140, 8.0), *BODY)
    record = paper_record({}, first)
    assert record.authors == ["Ana Silva", "Bo Chen", "Carla Diaz"] and record.year is None


# --- general classes found on fresh papers (dev6: the shared corpus's papers, first sight) ---

def _joined(path: Path, *parts: pdfium.PdfDocument) -> Path:
    """One PDF of the parts' pages, in order, joined by pdfium (a cover sheet and its paper)."""
    both = pdfium.PdfDocument.new()
    for part in parts:
        both.import_pages(part)
    both.save(path)
    for doc in (*parts, both):
        doc.close()
    return path


def _record(pdf: Path) -> tuple[str | None, list[str], int | None]:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        info = {k: v for k, v in doc.get_metadata_dict(skip_empty=True).items() if isinstance(v, str)}
        pages = [extract_page(doc, i, "off") for i in range(min(2, len(doc)))]
    finally:
        doc.close()
    record = paper_record(info, pages[0], pdf.name, pages[1] if len(pages) > 1 else None)
    return record.title, record.authors, record.year


def test_real_first_pages_of_other_layouts(corpora: Path) -> None:
    """A title whose last line is spaced wide (two name-shaped words, "Prediction Models",
    with the names under it in a smaller type); a second name in an ACM grid block ("Kyle
    Lo" over "Doug Downey", set in the names' type in the e-mail row) read after the name
    over it; a German date ("31. Dezember 2016") in the page's foot."""
    pdfs = corpora / "pdfs"
    assert _record(pdfs / "paper_paperqa_paper.pdf") == (
        "A Perspective on Explanations of Molecular Prediction Models",
        ["Geemi P. Wellawatte", "Heta A. Gandhi", "Aditi Seshadri", "Andrew D. White"], None)
    _, authors, year = _record(pdfs / "paper_2302.07302v1.pdf")
    assert authors == ["Joseph Chee Chang", "Amy X. Zhang", "Jonathan Bragg", "Andrew Head", "Kyle Lo",
                       "Doug Downey", "Daniel S. Weld"] and year == 2023
    assert _record(pdfs / "long_pypdf_GeoTopo-komprimiert.pdf") == (
        "Einführung in die Geometrie und Topologie", ["Martin Thoma"], 2016)


def test_names_that_look_like_places_suffixes_numbers_and_bracketed_affiliations() -> None:
    """A surname that is a city ("Gerard Roma", Essentia's authors); particles in capitals
    ("DE LA" are no state codes); "Steele, Jr." one person; affiliation numbers glued with
    commas ("Li1,2"); an affiliation in brackets after a name; affiliations known by their
    capitals or a word of their own ("TU Delft", "Meta AI", "Georgia Tech") are no names, nor
    a line with an article for a first name ("The Boeing") or continents."""
    def authors(*names: str) -> list[str]:
        return paper_record({}, page(line("A Title of Some Paper Set Large", 100, 80, 500, 98, 16.0),
                                     *(line(n, 100, 110 + 14 * i, 500, 121 + 14 * i, 11.0) for i, n in enumerate(names)),
                                     *BODY)).authors
    assert authors("Oscar Mayor, Gerard Roma, Justin Salamon and Xavier Serra") == \
        ["Oscar Mayor", "Gerard Roma", "Justin Salamon", "Xavier Serra"]
    assert authors("JUAN DE LA CRUZ AND ANA DIAZ") == ["Juan De La Cruz", "Ana Diaz"]
    assert authors("Gerald Jay Sussman and Guy Lewis Steele, Jr.") == ["Gerald Jay Sussman", "Guy Lewis Steele Jr."]
    assert authors("Ming Li1,2, Wei Zhang2 and Jun Wang1,3") == ["Ming Li", "Wei Zhang", "Jun Wang"]
    assert authors("Ann Lee (Stanford) and Bo Li (MIT)") == ["Ann Lee", "Bo Li"]
    assert authors("Ann Lee", "TU Delft", "Bo Li", "Meta AI", "Cy Wu", "Georgia Tech", "Paris, France") == \
        ["Ann Lee", "Bo Li", "Cy Wu"]
    # words of the shared corpus's non-papers read as names before: an article, continents
    assert authors("Ann Lee", "Airworthiness Directives, The Boeing", "Continent Asia Europe") == ["Ann Lee"]
    assert citation_label(["Guy Lewis Steele Jr."], 1978, None, "x") == "Steele, 1978"


def test_a_repository_cover_sheet_gives_way_to_the_papers_own_first_page(tmp_path: Path) -> None:
    """ResearchGate's sheet names a few of the authors and the upload's date; the record
    is read from the page after it, its year from the sheet's "Conference Paper · November
    2013" when the paper's page prints none (a real two-page PDF, pages joined by pdfium)."""
    cover = pdfium.PdfDocument(printed_pdf([
        ("See discussions, stats, and author profiles for this publication at: "
         "https://www.researchgate.net/publication/256104772", 8.0),
        ("A Library for Music Information Retrieval", 20.0),
        ("Conference Paper · November 2013", 9.0),
        ("CITATIONS READS", 8.0), ("4 authors, including:", 9.0),
        ("Ann Lee", 9.0), ("SEE PROFILE", 8.0),
        ("All content following this page was uploaded by Ann Lee on 04 June 2014.", 8.0)], {}))
    paper = pdfium.PdfDocument(printed_pdf([
        ("A Library for Music Information Retrieval", 16.0),
        ("Ann Lee, Bo Li, Cy Wu and Dan Ho", 11.0),
        ("Abstract", 10.0),
        *[("Some prose of the abstract that runs on over the lines of the page body.", 10.0)] * 12], {}))
    assert _record(_joined(tmp_path / "covered.pdf", cover, paper)) == ("A Library for Music Information Retrieval",
                                                 ["Ann Lee", "Bo Li", "Cy Wu", "Dan Ho"], 2013)


def test_a_season_dates_an_issue_and_a_print_header_or_a_page_range_dates_nothing() -> None:
    """"Spring 2010" on a journal's or a course's page is its date; a browser's print header
    ("LISP History 23/05/2017, 13*00", the day the page was printed) is none: dates in
    figures are left unread, a wrong year being worse than none."""
    journal = page(line("A Title of Some Paper Set Large", 100, 80, 500, 98, 16.0),
                   line("Spring 2010", 260, 110, 340, 121, 11.0), *BODY)
    assert page_year(journal) == 2010
    printed = page(line("LISP History 23/05/2017, 13*00", 18, 17, 577, 25, 8.2),
                   line("Early LISP History (1956-1959)", 100, 80, 500, 98, 16.0), *BODY)
    assert page_year(printed) is None
    # a venue line's page range is no year ("pages 1650–1669", LongEval's footer without its date)
    footer = "Proceedings of the 17th Conference of the Chapter, pages 1650–1669, Dubrovnik"
    assert page_year(page(line("A Title of Some Paper Set Large", 100, 80, 500, 98, 16.0), *BODY,
                          line(footer, 72, 760, 540, 770, 9.0))) is None
    assert page_year(page(line("A Title of Some Paper Set Large", 100, 80, 500, 98, 16.0), *BODY,
                          line(footer + ", May 2-6, 2023", 72, 760, 540, 770, 9.0))) == 2023


# --- round dev7 (39 papers of a second public collection, HappyWalkers/paper): its
# first-sight errors, each a class ---------------------------------------------------------

def test_a_capitalised_particle_ending_a_name_is_its_surname() -> None:
    """"Quoc V. Le", "Tathagata Das", "Nan Du", "Jingfei Du": a particle that ends a name is its
    surname (the line was dropped whole); a lower-case "de las" inside one is no Las Vegas;
    a particle in lower case still ends no name ("…, Diego de" wrapped)."""
    opro = page(line("LARGE LANGUAGE MODELS AS OPTIMIZERS", 116, 88, 497, 104, 14.3),
                line("Chengrun Yang Xuezhi Wang Yifeng Lu Hanxiao Liu", 116, 118, 380, 127, 9.0,
                     ["Chengrun Yang*", "Xuezhi Wang", "Yifeng Lu", "Hanxiao Liu"]),
                line("Quoc V. Le Denny Zhou Xinyun Chen", 116, 129, 310, 138, 9.0,
                     ["Quoc V. Le", "Denny Zhou", "Xinyun Chen*"]), *BODY)
    assert paper_record({}, opro).authors == ["Chengrun Yang", "Xuezhi Wang", "Yifeng Lu", "Hanxiao Liu",
                                              "Quoc V. Le", "Denny Zhou", "Xinyun Chen"]
    rdd = page(line("Resilient Distributed Datasets: A Fault-Tolerant Abstraction for", 110, 92, 502, 106, 14.3),
               line("Matei Zaharia, Mosharaf Chowdhury, Tathagata Das, Ankur Dave, Justin Ma,", 120, 134, 492, 145, 10.7),
               line("Nan Du, Diego de las Casas", 148, 148, 464, 159, 10.7),
               line("University of California, Berkeley", 238, 163, 374, 172, 8.6), *BODY)
    assert paper_record({}, rdd).authors == ["Matei Zaharia", "Mosharaf Chowdhury", "Tathagata Das", "Ankur Dave",
                                             "Justin Ma", "Nan Du", "Diego de las Casas"]
    wrapped = page(line("A Title Set Large Enough for the Page", 110, 92, 502, 106, 14.3),
                   line("Ann Smith, Diego de", 120, 134, 300, 145, 10.7), *BODY)
    assert paper_record({}, wrapped).authors == []


def test_a_row_of_marks_over_the_names_is_no_line_of_names() -> None:
    """Pig Latin: the names' footnote marks (∗, † ‡) sit a row above them, in a smaller type:
    read as a line of no names, the row set the names' type and every name was dropped."""
    first = page(line("Pig Latin: A Not-So-Foreign Language for Data Processing", 60, 85, 552, 103, 17.2),
                 line("∗", 205, 120, 210, 127, 8.5),
                 line("† ‡", 342, 120, 500, 127, 8.6, ["†", "‡"]),
                 line("Christopher Olston", 105, 127, 205, 139, 11.1),
                 line("Benjamin Reed", 260, 127, 340, 139, 11.1),
                 line("Utkarsh Srivastava", 398, 127, 500, 139, 11.1),
                 line("Yahoo! Research", 120, 139, 190, 148, 9.2),
                 line("Yahoo! Research", 267, 139, 337, 148, 9.2),
                 line("Yahoo! Research", 413, 139, 483, 148, 9.2), *BODY)
    assert paper_record({}, first).authors == ["Christopher Olston", "Benjamin Reed", "Utkarsh Srivastava"]


def test_capitals_in_a_row_of_affiliations_are_no_name() -> None:
    """LLM-Planner: a grid whose second row of affiliations starts "DEVCOM ARL" (an army lab,
    name-shaped in capitals) beside "The Ohio State University"."""
    first = page(line("LLM-Planner: Few-Shot Grounded Planning for Embodied Agents", 128, 118, 484, 133, 12.0),
                 line("with Large Language Models", 220, 137, 390, 152, 12.0),
                 line("Chan Hee Song", 107, 165, 190, 176, 10.7),
                 line("Jiaman Wu", 271, 165, 330, 176, 10.7),
                 line("The Ohio State University", 81, 179, 215, 190, 10.7),
                 line("The Ohio State University", 235, 179, 370, 190, 10.7),
                 line("Brian M. Sadler", 106, 212, 190, 223, 10.7),
                 line("Wei-Lun Chao", 262, 212, 338, 223, 10.7),
                 line("DEVCOM ARL", 113, 226, 185, 237, 10.7),
                 line("The Ohio State University", 235, 226, 370, 237, 10.7), *BODY)
    assert paper_record({}, first).authors == ["Chan Hee Song", "Jiaman Wu", "Brian M. Sadler", "Wei-Lun Chao"]


def test_names_beside_their_affiliations_in_two_columns() -> None:
    """BMVC's template: the authors in a column on the left, the affiliation's lines on the
    right of the same rows ("Max Jaderberg   Visual Geometry Group"); an affiliation set wide
    ("Amazon   Web Services") is no name after it, nor a grid's row of affiliations under
    its names (the LCA paper's "SUNY Stony Brook   Rutgers University")."""
    first = page(line("Speeding up Convolutional Neural Networks", 26, 40, 400, 60, 17.0),
                 line("Max Jaderberg Visual Geometry Group", 26, 96, 380, 108, 12.3,
                      ["Max Jaderberg", "Visual Geometry Group"]),
                 line("max@robots.ox.ac.uk Department of Engineering Science", 26, 108, 380, 120, 12.3,
                      ["max@robots.ox.ac.uk", "Department of Engineering Science"]),
                 line("Andrea Vedaldi University of Oxford", 26, 120, 380, 132, 12.3,
                      ["Andrea Vedaldi", "University of Oxford"]),
                 line("vedaldi@robots.ox.ac.uk Oxford, UK", 26, 132, 380, 143, 11.1,
                      ["vedaldi@robots.ox.ac.uk", "Oxford, UK"]),
                 line("Andrew Zisserman", 26, 150, 130, 162, 12.3), *BODY)
    assert paper_record({}, first).authors == ["Max Jaderberg", "Andrea Vedaldi", "Andrew Zisserman"]
    redshift = page(line("Amazon Redshift and the Case for Simpler", 120, 60, 490, 80, 18.0),
                    line("Anurag Gupta, Deepak Agarwal, Derek Tan", 150, 100, 460, 112, 12.0),
                    line("Amazon Web Services", 250, 118, 360, 128, 9.5, ["Amazon", "Web Services"]), *BODY)
    assert paper_record({}, redshift).authors == ["Anurag Gupta", "Deepak Agarwal", "Derek Tan"]
    # a grid's row of affiliations, set smaller under the names, is none ("SUNY Stony Brook")
    lca = page(line("The LCA Problem Revisited", 207, 118, 404, 137, 19.4),
               line("Michael A. Bender Martín Farach-Colton", 187, 157, 425, 171, 13.5,
                    ["Michael A. Bender", "Martín Farach-Colton"]),
               line("SUNY Stony Brook Rutgers University", 192, 177, 411, 188, 11.2,
                    ["SUNY Stony Brook", "Rutgers University"]),
               line("May 16, 2000", 273, 201, 339, 214, 13.5), *BODY)
    assert paper_record({}, lca).authors == ["Michael A. Bender", "Martín Farach-Colton"]


def test_a_list_wrapped_inside_a_name_is_read_again_whole() -> None:
    """The TPU paper: 76 names over twelve lines, one wrapped inside a name ("…, Tara Vazir" /
    "Ghaemmaghami, Rajendra Gottipati, …, Doug" / "Hogberg, …"); the affiliation under
    the last line ("Google, Inc., …") is no part of it; more than 40 names are kept."""
    rows = ["Norman P. Jouppi, Cliff Young, Nishant Patil, David Patterson,",
            "Sarah Bates, Suresh Bhatia, Nan Boden, Al Borchers,",
            "Chris Clark, Jeremy Coriell, Ben Gelb, Tara Vazir",
            "Ghaemmaghami, Rajendra Gottipati, C. Richard Ho, Doug",
            "Hogberg, John Hu, Robert Hundt, Alexander",
            "Kaplan, Harshit Khaitan, Daniel Killebrew,",
            *(", ".join(f"Anna Person{chr(65 + r)}{chr(65 + k)}" for k in range(6)) + "," for r in range(5)),
            "Eric Wilcox, and Doe Hyun Yoon",
            "Google, Inc., Mountain View, CA USA"]
    first = page(line("In-Datacenter Performance Analysis of a Tensor Processing Unit", 60, 80, 552, 98, 16.0),
                 *(line(text, 66, 104 + 14 * i, 540, 116 + 14 * i, 12.0) for i, text in enumerate(rows)),
                 *BODY)
    authors = paper_record({}, first).authors
    assert authors[:18] == ["Norman P. Jouppi", "Cliff Young", "Nishant Patil", "David Patterson", "Sarah Bates",
                            "Suresh Bhatia", "Nan Boden", "Al Borchers", "Chris Clark", "Jeremy Coriell", "Ben Gelb",
                            "Tara Vazir Ghaemmaghami", "Rajendra Gottipati", "C. Richard Ho", "Doug Hogberg",
                            "John Hu", "Robert Hundt", "Alexander Kaplan"]
    assert len(authors) == 52 and authors[-2:] == ["Eric Wilcox", "Doe Hyun Yoon"]


def test_a_copyright_whose_circle_reads_as_a_dash_gives_the_year() -> None:
    """BMVC's footer: "−c 2014. The copyright of this document resides with its authors."
    (the circle of © in the text layer a minus sign)."""
    first = page(line("Speeding up Convolutional Neural Networks", 26, 40, 400, 60, 17.0), *BODY,
                 line("−c 2014. The copyright of this document resides with its authors.", 25, 584, 233, 599, 9.6))
    assert page_year(first) == 2014
    assert page_year(page(line("A Title", 26, 40, 400, 60, 17.0), *BODY,
                          line("c 2014 was a good year for the weather in the valley.", 72, 600, 400, 610, 10.0))) is None


# --- round dev8 (16 papers of a third collection, Ty-Chen/Reading-List), measured on first
# sight with the rules above (10 of 16): its error classes --------------------------------

def test_bylines_in_a_column_beside_the_body() -> None:
    """ACM Queue: the authors in capitals, one a row, in a column left of the first
    paragraph, each sharing its printed row with a line of the body ("BRIAN GRANT,   in
    software containers", set in the body's type); the last "ERIC BREWER, AND" / "JOHN
    WILKES,", then the company."""
    rows = [("BRENDAN BURNS,", "Though widespread interest"), ("BRIAN GRANT,", "in software containers"),
            ("DAVID OPPENHEIMER,", "is a relatively recent"), ("ERIC BREWER, AND", None),
            ("JOHN WILKES,", "more than ten years and built three different container-"),
            ("GOOGLE INC.", "management systems in that time. Each system was heavily")]
    first = page(line("Borg, Omega, and", 92, 37, 330, 77, 40.2), line("Kubernetes", 92, 71, 247, 111, 40.2),
                 line("Lessons", 293, 118, 327, 132, 14.5), line("learned from", 293, 133, 351, 147, 14.5),
                 *(line(f"{name} {body}" if body else name, 40, 145 + 17 * i, 360, 157 + 17 * i, 10.0,
                        [name, body] if body else [name]) for i, (name, body) in enumerate(rows)),
                 *BODY)
    assert paper_record({}, first).authors == ["Brendan Burns", "Brian Grant", "David Oppenheimer", "Eric Brewer",
                                               "John Wilkes"]


def test_a_company_and_its_legal_form_are_no_author() -> None:
    """Drepper: "Red Hat, Inc." under the author's name was read as a second person."""
    first = page(line("What Every Programmer Should Know About Memory", 150, 80, 460, 100, 17.0),
                 line("Ulrich Drepper", 260, 110, 350, 122, 12.0),
                 line("Red Hat, Inc.", 265, 124, 345, 136, 12.0), *BODY)
    assert paper_record({}, first).authors == ["Ulrich Drepper"]


def test_an_elsevier_masthead_box_is_no_title_and_a_month_before_a_comma_dates() -> None:
    """Elsevier's box, the journal's name set as large as the title between "Contents lists
    available at …" and "journal homepage: …", was read as the title; "November, 1988"
    (a comma after the month) dated nothing."""
    first = page(line("Computers and Mathematics with Applications 65 (2013) 1384–1395", 168, 35, 380, 42, 6.5),
                 line("Contents lists available at SciVerse ScienceDirect", 182, 64, 366, 71, 7.3),
                 line("Computers and Mathematics with Applications", 122, 87, 425, 101, 13.7),
                 line("journal homepage: www.elsevier.com/locate/camwa", 175, 119, 373, 126, 7.3),
                 line("Online game bot detection based on party-play log analysis", 41, 167, 421, 181, 13.7),
                 line("Ah Reum Kang, Jiyoung Woo, Juyong Park, Huy Kang Kim", 41, 191, 359, 204, 10.7), *BODY)
    record = paper_record({}, first)
    assert record.title == "Online game bot detection based on party-play log analysis"
    assert record.authors == ["Ah Reum Kang", "Jiyoung Woo", "Juyong Park", "Huy Kang Kim"] and record.year == 2013
    jacobson = page(line("Congestion Avoidance and Control", 258, 210, 600, 230, 17.0),
                    line("Van Jacobson", 380, 262, 470, 274, 12.0),
                    line("November, 1988", 372, 360, 484, 372, 12.0), *BODY)
    assert page_year(jacobson) == 1988


def test_a_file_named_for_its_title_points_at_the_lines_that_print_it() -> None:
    """A journal's name set larger than the paper's own title: the file's name ("the-
    byzantine-generals-problem.pdf") says which lines are the title; the title is the
    page's text, and the names under it are the authors. A file named for nothing
    ("p5506-groen.pdf") changes nothing."""
    first = page(line("SURVEYS OF IMAGINARY MACHINES", 90, 60, 520, 84, 22.0),
                 line("The Byzantine Generals Problem", 180, 110, 430, 126, 14.0),
                 line("Leslie Lamport, Robert Shostak, and Marshall Pease", 160, 140, 450, 152, 11.0), *BODY)
    named = paper_record({}, first, "the-byzantine-generals-problem.pdf")
    assert named.title == "The Byzantine Generals Problem"
    assert named.authors == ["Leslie Lamport", "Robert Shostak", "Marshall Pease"]
    assert paper_record({}, first, "p5506-groen.pdf") == paper_record({}, first)
    assert paper_record({}, first).title != "The Byzantine Generals Problem"


def test_a_long_line_of_names_with_orcid_gaps_is_read_whole() -> None:
    """IEEE Transactions: ORCID icons leave " , " between names, so the line has more than
    fourteen words and was taken for the body."""
    first = page(line("ORAN-B5G: A Next-Generation Open Radio", 82, 61, 520, 83, 21.9),
                 line("Access Network Architecture With Machine", 89, 89, 520, 111, 21.9),
                 line("Abdullah Ayub Khan , Asif Ali Laghari , Abdullah M. Baqasah , Roobaea Alroobaea ,",
                      99, 148, 520, 158, 10.0),
                 line("Thippa Reddy Gadekallu , Senior Member, IEEE, Gabriel Avelino Sampedro , Member, IEEE,",
                      88, 161, 530, 171, 10.0),
                 line("and Yaodong Zhu", 259, 175, 340, 185, 10.0), *BODY)
    assert paper_record({}, first).authors == ["Abdullah Ayub Khan", "Asif Ali Laghari", "Abdullah M. Baqasah",
                                               "Roobaea Alroobaea", "Thippa Reddy Gadekallu",
                                               "Gabriel Avelino Sampedro", "Yaodong Zhu"]


def test_ieee_ordinals_and_a_grade_in_brackets_are_no_part_of_names() -> None:
    """IEEEtran's conference byline "1st Ramin Fuladi" and an OJCOMS "(Senior Member, IEEE)"
    cell; "33rd USENIX Security Symposium" is no person."""
    first = page(line("Robust Intrusion Detection System with Explainable AI", 49, 55, 560, 76, 21.4),
                 line("1st Betül Paltun", 94, 149, 180, 161, 9.8),
                 line("2nd Ramin Fuladi", 262, 149, 340, 161, 9.8),
                 line("3rd Rim El Malki", 420, 149, 500, 161, 9.8),
                 line("Ericsson Research", 108, 164, 190, 173, 8.6), *BODY)
    assert paper_record({}, first).authors == ["Betül Paltun", "Ramin Fuladi", "Rim El Malki"]
    grid = page(line("Deep Learning for Intelligent Network Slicing", 37, 108, 560, 127, 18.4),
                line("SHU-PING YEH 1, SONIA BHATTACHARYA2, RASHIKA SHARMA2,", 130, 158, 480, 167, 9.2,
                     ["SHU-PING YEH", "1, SONIA BHATTACHARYA2, RASHIKA SHARMA2,"]),
                line("AND HASSNAA MOUSTAFA 1 (Senior Member, IEEE)", 161, 170, 450, 181, 9.2,
                     ["AND HASSNAA MOUSTAFA", "1 (Senior Member, IEEE)"]),
                line("1Intel Labs, Intel Corporation, Santa Clara, CA 95054, USA", 196, 189, 420, 197, 6.5), *BODY)
    assert paper_record({}, grid).authors == ["Shu-Ping Yeh", "Sonia Bhattacharya", "Rashika Sharma",
                                              "Hassnaa Moustafa"]


def test_a_list_of_names_wrapped_under_the_title_is_no_subtitle() -> None:
    """ORANSlice: "Hai Cheng†, …, Leonardo" / "Bonati†, …" under the title in a type
    between the title's and the body's was read as the title's subtitle."""
    first = page(line("ORANSlice: An Open-Source 5G Network Slicing Platform for", 65, 84, 545, 100, 16.0),
                 line("O-RAN", 278, 104, 330, 120, 16.0),
                 line("Hai Cheng†, Salvatore D’Oro†, Rajeev Gangula†, Davide Villa†, Leonardo", 76, 129, 536, 140, 11.2),
                 line("Bonati†, Michele Polese†, Tommaso Melodia†", 102, 143, 510, 154, 11.2),
                 line("† Northeastern University, Boston, MA, USA", 125, 155, 480, 166, 9.3), *BODY)
    record = paper_record({}, first)
    assert record.title == "ORANSlice: An Open-Source 5G Network Slicing Platform for O-RAN"
    assert record.authors == ["Hai Cheng", "Salvatore D’Oro", "Rajeev Gangula", "Davide Villa", "Leonardo Bonati",
                              "Michele Polese", "Tommaso Melodia"]


def test_the_rest_of_a_title_the_pdf_names_is_no_author() -> None:
    """A magazine sets "AI-ENABLED" … "NETWORKS" huge and "Challenges, Opportunities," /
    "and Open Issues" under it; the /Title has all of it, so "Open Issues" is no person."""
    first = page(line("AI-ENABLED", 42, 43, 300, 92, 49.4), line("NETWORKS", 42, 82, 300, 131, 49.4),
                 line("Challenges, Opportunities,", 42, 136, 260, 156, 19.5),
                 line("and Open Issues", 42, 154, 200, 174, 19.5),
                 line("Medhat Elsayed and Melike Erol-Kantarci", 42, 197, 300, 209, 12.0), *BODY)
    info = {"Title": "AI-Enabled Networks: Challenges, Opportunities, and Open Issues"}
    assert paper_record(info, first).authors == ["Medhat Elsayed", "Melike Erol-Kantarci"]


def test_a_title_set_as_two_capitalised_pairs_is_still_the_title() -> None:
    """"Securing O-RAN   Open Interfaces" in the largest type reads like two names; no
    other line in large type is a title, so it is the title."""
    first = page(line("Securing O-RAN Open Interfaces", 128, 56, 480, 79, 22.3, ["Securing O-RAN", "Open Interfaces"]),
                 line("Joshua Groen, Salvatore D’Oro, Utku Demir", 122, 95, 480, 105, 10.2), *BODY)
    record = paper_record({}, first)
    assert record.title == "Securing O-RAN Open Interfaces"
    assert record.authors == ["Joshua Groen", "Salvatore D’Oro", "Utku Demir"]


def test_an_issues_year_over_the_date_online_and_its_copyright() -> None:
    """IEEE's "date of current version 4 January 2024" over "Date of publication 14 December
    2023"; Springer's masthead "Annals of Telecommunications (2024) 79:15–33" over "© … 2023";
    IEEE Xplore's /Subject year when the page prints it ("©2024 IEEE" on the January 2025 issue)."""
    ieee = page(line("Received 4 September 2023; accepted 6 December 2023. Date of publication 14 December 2023;",
                     93, 60, 540, 67, 6.5),
                line("date of current version 4 January 2024.", 227, 69, 400, 76, 6.5))
    assert page_year(ieee) == 2024
    springer = page(line("Annals of Telecommunications (2024) 79:15–33", 51, 34, 300, 42, 7.6),
                    line("© Institut Mines-Télécom and Springer Nature Switzerland AG 2023", 51, 181, 400, 189, 7.8))
    assert page_year(springer) == 2024
    magazine = page(line("Implementing Security in Open Networks", 49, 100, 560, 130, 24.0),
                    line("Joshua Groen and Kaushik Chowdhury", 49, 140, 300, 150, 10.0), *BODY,
                    line("IEEE Network • January/February 2025", 300, 756, 560, 764, 7.0),
                    line("0890-8044/24©2024IEEE", 49, 754, 200, 762, 7.0))
    assert paper_record({}, magazine).year == 2024
    assert paper_record({"Subject": "IEEE Network;2025;39;1;10.1109/MNET.2024.3434419"}, magazine).year == 2025
    assert paper_record({"Subject": "IEEE Network;2019;39;1;10.1109/MNET.2019.1"}, magazine).year == 2024


def test_a_hal_sheet_dates_the_paper_by_its_citation_not_its_deposit(tmp_path: Path) -> None:
    """HAL's cover: "To cite this version: … SECON, Sep 2023, Madrid, Spain." gives the year
    when the paper's own page prints none; "Submitted on 11 Jul 2024" is the deposit's."""
    cover = pdfium.PdfDocument(printed_pdf([
        ("Dynamic Placement of Functions in Open Networks", 17.0),
        ("Hiba Hojeij, Mahdi Sharara", 14.0),
        ("To cite this version:", 14.0),
        ("Hiba Hojeij, Mahdi Sharara. Dynamic Placement of Functions in Open Networks. IEEE", 10.0),
        ("Conference on Networking, SECON, Sep 2023, Madrid, Spain. 10.1109/secon58729.2023.10287529.", 10.0),
        ("HAL Id: hal-04117757", 14.0),
        ("https://hal.science/hal-04117757v2", 14.0),
        ("Submitted on 11 Jul 2024", 10.0),
        ("HAL is a multi-disciplinary open access archive for the deposit and dissemination", 10.0)], {}))
    paper = pdfium.PdfDocument(printed_pdf([
        ("Dynamic Placement of Functions in Open Networks", 16.0),
        ("Hiba Hojeij and Mahdi Sharara", 11.0),
        ("Abstract", 10.0),
        *[("Some prose of the abstract that runs on over the lines of the page body.", 10.0)] * 12], {}))
    assert _record(_joined(tmp_path / "hal.pdf", cover, paper)) == ("Dynamic Placement of Functions in Open Networks",
                                             ["Hiba Hojeij", "Mahdi Sharara"], 2023)


def test_a_jstor_cover_gives_its_fields() -> None:
    """JSTOR's cover prints the record as fields; the scan after it would read worse."""
    first = page(line("Computing Machinery and Intelligence", 50, 221, 300, 235, 13.9),
                 line("Author(s): A. M. Turing", 50, 236, 200, 250, 13.9),
                 line("Source: Mind, New Series, Vol. 59, No. 236 (Oct., 1950), pp. 433-460", 50, 251, 500, 265, 13.9,
                      ["Source:", "Mind, New Series, Vol. 59, No. 236 (Oct., 1950), pp. 433-460"]),
                 line("Published by: Oxford University Press on behalf of the Mind Association", 50, 266, 500, 280, 13.9),
                 line("Stable URL: http://www.jstor.org/stable/2251299", 50, 281, 400, 295, 12.4),
                 line("Accessed: 25/08/2008 18:56", 50, 296, 250, 310, 13.9))
    record = paper_record({}, first)
    assert (record.title, record.authors, record.year) == ("Computing Machinery and Intelligence", ["A. M. Turing"], 1950)


def test_a_one_word_title_the_file_names_beside_its_author() -> None:
    """MIT's working paper "CONS" by Tom Knight, filed as "Knight-CONS.pdf": the surname
    in the file's name is the author's, so "CONS" alone is all it says of the title;
    "Working Paper 88" is a banner and "November 1974" in a cell of its own dates it."""
    first = page(line("MASSACHUSETTS INSTITUTE OF TECHNOLOGY", 182, 143, 430, 156, 12.7),
                 line("Working Paper 88 November 1974", 81, 190, 530, 203, 11.6, ["Working Paper 88", "November 1974"]),
                 line("CONS", 268, 297, 300, 310, 12.7),
                 line("Tom Knight", 253, 334, 320, 345, 10.5),
                 *(line("Some prose of the paper, set in the body type of the page, runs on here.", 83, 440 + 12 * i,
                        540, 450 + 12 * i, 12.6) for i in range(20)))
    record = paper_record({}, first, "Knight-CONS.pdf")
    assert (record.title, record.authors, record.year) == ("CONS", ["Tom Knight"], 1974)


def test_a_titles_last_line_the_file_names_is_no_author() -> None:
    """"… the Standpoint of" / "Artificial Intelligence": the last line reads like a name,
    and the file's name has its words; "on Artificial Intelligence" alone is no person."""
    first = page(line("Some Philosophical Problems from the Standpoint of", 100, 100, 520, 118, 16.0),
                 line("Artificial Intelligence", 220, 120, 400, 138, 16.0),
                 line("John McCarthy and Patrick J. Hayes", 200, 160, 420, 172, 11.0), *BODY)
    record = paper_record({}, first, "McCarthy-Some_Philosophical_Problems_from_the_Standpoint_of_Artificial_Intelligence.pdf")
    assert record.title == "Some Philosophical Problems from the Standpoint of Artificial Intelligence"
    assert record.authors == ["John McCarthy", "Patrick J. Hayes"]
    proposal = page(line("A Proposal for the Dartmouth Summer Research Project", 100, 100, 520, 118, 16.0),
                    line("on Artificial Intelligence", 220, 124, 400, 136, 12.0),
                    line("J. McCarthy, M. L. Minsky, N. Rochester", 200, 160, 420, 172, 11.0), *BODY)
    assert paper_record({}, proposal).authors == ["J. McCarthy", "M. L. Minsky", "N. Rochester"]


def test_overprinted_titles_and_run_together_initials() -> None:
    """A title overprinted to look bold is read once; "Charles H.Moore" is "Charles H. Moore"."""
    first = page(line("Rationale for Joy, a functional language Rationale for Joy, a functional language",
                      40, 74, 560, 112, 20.0),
                 line("Charles H.Moore and Geoffrey C. Leach", 200, 130, 400, 142, 11.0), *BODY)
    record = paper_record({}, first)
    assert record.title == "Rationale for Joy, a functional language"
    assert record.authors == ["Charles H. Moore", "Geoffrey C. Leach"]


def test_a_byline_is_read_when_the_title_is_garbled_past_reading() -> None:
    """A scan's title read as "A ~ Ff~ pAR~.TJm.": no title, but the double-spaced line of
    names over the affiliation still gives the authors; a heading is no byline."""
    first = page(line("A ~ Ff~ pAR~.TJm.", 184, 110, 338, 119, 8.7),
                 line("Keith L. Clark & Steve Gregory", 220, 128, 355, 137, 9.2),
                 line("Department of Computing, Imperial College", 193, 146, 378, 155, 9.2),
                 line("London SW7 2BZ, England", 234, 155, 337, 164, 9.2),
                 line("I. INTRODUCTION", 76, 217, 148, 226, 9.2, ["I.", "INTRODUCTION"]),
                 line("Department of Computing, Imperial College", 76, 229, 300, 238, 9.2),
                 *(line("A parallel program often defines a relation, not a function, over its input.", 76,
                        245 + 9 * i, 300, 253 + 9 * i, 9.2) for i in range(40)))
    record = paper_record({}, first)
    assert (record.title, record.authors) == (None, ["Keith L. Clark", "Steve Gregory"])
    assert paper_record({}, page(*first.lines[4:])).authors == []


# --- classes found on dev11's first sight (a sixth collection: database and systems papers) ---

def spaced(words: list[tuple[str, float]], y0: float, size: float) -> Line:
    """A scan's line: each word a cell of its own, starting at its x, with a box per
    character (the spaces between words as the text layer set them)."""
    text, boxes = "", []
    for i, (word, x) in enumerate(words):
        if i:
            text += " "
            boxes.append((boxes[-1][2], y0, x, y0 + size))
        for j, _ in enumerate(word):
            boxes.append((x + 0.5 * size * j, y0, x + 0.5 * size * (j + 1), y0 + size))
        text += word
    return Line(text=text, boxes=boxes, bbox=(words[0][1], y0, boxes[-1][2], y0 + size), size=size, bold=False,
                cells=[w for w, _ in words])


def test_names_set_far_apart_on_a_scans_line_are_several_people() -> None:
    """ACTA and the data-cube paper: a scan's text layer sets each word apart and the names
    farther apart still ("Panos K. Chrysanthis        Krithi Ramamritham"); an l read as a 1
    inside a name ("U1lman"); one person's name with wide word spaces stays one name."""
    acta = page(line("ACTA: The SAGA Continues", 222, 103, 436, 117, 14.0),
                spaced([("Panos", 222), ("K.", 252), ("Chrysanthis", 266), ("Krithi", 400), ("Ramamritham", 434)],
                       144, 10.0),
                line("University of Pittsburgh University of Massachusetts", 219, 170, 520, 179, 10.0,
                     ["University of Pittsburgh", "University of Massachusetts"]), *BODY)
    assert paper_record({}, acta).authors == ["Panos K. Chrysanthis", "Krithi Ramamritham"]
    cubes = page(line("Implementing Data Cubes Efficiently", 140, 93, 435, 108, 15.4,
                      ["Implementing", "Data", "Cubes", "Efficiently"]),
                 spaced([("Venky", 108), ("Harinarayan", 145), ("Anand", 255), ("Rajaraman", 292),
                         ("Jeffrey", 390), ("D.", 437), ("U1lman", 457)], 131, 10.1),
                 line("Stanford University Stanford University Stanford University", 125, 146, 470, 155, 8.1,
                      ["Stanford", "University", "Stanford", "University", "Stanford", "University"]), *BODY)
    assert paper_record({}, cubes).authors == ["Venky Harinarayan", "Anand Rajaraman", "Jeffrey D. Ullman"]
    one = page(line("A Title of Some Paper Set Large", 100, 80, 500, 98, 16.0),
               spaced([("Guy", 200), ("Lewis", 240), ("Steele", 280), ("Jr.", 320)], 110, 11.0), *BODY)
    assert paper_record({}, one).authors == ["Guy Lewis Steele Jr."]


def test_a_title_line_cut_at_a_comma_goes_on_whatever_its_next_word() -> None:
    """SnappyData: "… for Streaming," / "Transactions, and Interactive Analytics" — a line
    opening with "Transactions" is a journal's banner, unless the title's line over it is
    cut in mid-phrase."""
    first = page(line("SnappyData: A Unified Cluster for Streaming,", 111, 72, 498, 89, 16.8),
                 line("Transactions, and Interactive Analytics", 139, 92, 470, 109, 16.8),
                 line("Barzan Mozafari Jags Ramnarayan Sudhir Menon", 159, 136, 438, 148, 11.1,
                      ["Barzan Mozafari", "Jags Ramnarayan", "Sudhir Menon"]), *BODY)
    record = paper_record({}, first)
    assert record.title == "SnappyData: A Unified Cluster for Streaming, Transactions, and Interactive Analytics"
    assert record.authors == ["Barzan Mozafari", "Jags Ramnarayan", "Sudhir Menon"]
    banner = page(line("Transactions on Database Systems", 150, 40, 460, 56, 16.8),
                  line("A Study of Query Plans", 150, 100, 460, 118, 16.8), *BODY)
    assert paper_record({}, banner).title == "A Study of Query Plans"


def test_a_usenix_proceedings_cover_gives_way_to_the_paper_and_its_copyright_year() -> None:
    """ARC: the FAST '03 proceedings' cover bound in front of the paper: the record is the
    paper's page after it, the year the cover's "© 2003 by The USENIX Association"."""
    cover = page(line("USENIX Association", 238, 74, 374, 89, 15.8),
                 line("Proceedings of", 234, 175, 379, 199, 24.0),
                 line("FAST ’03:", 254, 205, 357, 229, 24.0),
                 line("File and Storage Technologies", 160, 265, 452, 289, 24.0),
                 line("© 2003 by The USENIX Association All Rights Reserved For more information about the USENIX "
                      "Association:", 72, 667, 554, 676, 8.9),
                 line("Rights to individual papers remain with the author or the author's employer.",
                      189, 691, 459, 700, 8.9))
    paper = page(line("ARC: A Self-Tuning, Low Overhead Replacement Cache", 120, 90, 490, 106, 14.3),
                 line("Nimrod Megiddo and Dharmendra S. Modha", 200, 130, 420, 142, 11.0), *BODY)
    record = paper_record({}, cover, "Adaptive Replacement Cache.pdf", paper)
    assert (record.title, record.authors, record.year) == (
        "ARC: A Self-Tuning, Low Overhead Replacement Cache", ["Nimrod Megiddo", "Dharmendra S. Modha"], 2003)


def test_a_springer_series_in_the_title_field_and_a_venue_year_after_an_opening_quote() -> None:
    """Springer's /Title "LNCS 7813 - Managing Geo-replicated Data …" names the series
    before the title the page prints; "Proceedings of UIST ‘95" (an opening quote) dates
    the Jupiter paper."""
    first = page(line("Managing Geo-replicated Data in Multi-datacenters", 60, 51, 378, 64, 13.0),
                 line("Divyakant Agrawal, Amr El Abbadi, Hatem A. Mahmoud,", 96, 89, 343, 98, 9.1), *BODY)
    info = {"Title": "LNCS 7813 - Managing Geo-replicated Data in Multi-datacenters"}
    assert paper_record(info, first).title == "Managing Geo-replicated Data in Multi-datacenters"
    jupiter = page(line("High-Latency, Low-Bandwidth Windowing in the Jupiter Collaboration System", 80, 90, 530,
                        106, 14.0), *BODY, line("Proceedings of UIST ‘95 1/10", 54, 736, 558, 746, 10.0))
    assert page_year(jupiter) == 1995


# --- classes found on dev12's first sight (a seventh collection: NLP papers, 2003-2018) ---

def test_press_and_technological_say_what_they_name() -> None:
    """"Ofir Press and Lior Wolf": a surname Press is no publisher ("MIT Press", "Academic
    Press" are); "Nanyang Technological" in the names' type under a grid of names is the
    affiliation's first line, no person."""
    press = page(line("Using the Output Embedding to Improve Language Models", 117, 72, 481, 85, 12.9),
                 line("Ofir Press and Lior Wolf", 235, 117, 366, 127, 10.7),
                 line("School of Computer Science", 232, 131, 369, 141, 10.8), *BODY)
    assert paper_record({}, press).authors == ["Ofir Press", "Lior Wolf"]
    for publisher in ("Academic Press", "CRC Press", "Clarendon Press"):
        assert paper_record({}, page(press.lines[0], line(f"Ofir Press, {publisher}", 235, 117, 366, 127, 10.7),
                                     *BODY)).authors == ["Ofir Press"]
    grid = page(line("A Compare-Propagate Architecture with Alignment Factorization", 97, 72, 501, 85, 12.9),
                line("Yi Tay", 134, 127, 168, 138, 10.7), line("Luu Anh Tuan", 261, 127, 336, 138, 10.7),
                line("Siu Cheung Hui", 407, 127, 489, 138, 10.7),
                line("Nanyang Technological", 94, 141, 208, 152, 10.7), line("Institute for", 271, 141, 327, 152, 10.7),
                line("Nanyang Technological,", 390, 141, 506, 152, 10.7),
                line("University, Singapore", 99, 155, 203, 166, 10.7), *BODY)
    assert paper_record({}, grid).authors == ["Yi Tay", "Luu Anh Tuan", "Siu Cheung Hui"]


def test_two_people_a_footnote_mark_set_apart_are_no_four_word_name() -> None:
    """"Guillaume Lample♠ Miguel Ballesteros♣♠": the marks taken out of the line's text leave
    "Guillaume Lample Miguel Ballesteros", a four-word name but for the wide space where
    the mark was; one person's four-word name set evenly stays one."""
    lample = page(line("Neural Architectures for Named Entity Recognition", 100, 72, 500, 88, 14.0),
                  spaced([("Guillaume", 150), ("Lample", 203), ("Miguel", 250), ("Ballesteros", 288)], 110, 11.0),
                  *BODY)
    assert paper_record({}, lample).authors == ["Guillaume Lample", "Miguel Ballesteros"]
    even = page(lample.lines[0], spaced([("Guy", 200), ("Lewis", 221), ("Steele", 252), ("Jr.", 289)], 110, 11.0),
                *BODY)
    assert paper_record({}, even).authors == ["Guy Lewis Steele Jr."]


# --- classes found on dev13's first sight (an eighth collection: systems papers, 1936-2020) ---

def test_a_usenix_byline_run_on_over_lines_is_read_as_one() -> None:
    """vCorfu (NSDI '17's cover): "Name, Affiliation; …" over six lines, a group cut at a
    line's end ("Udi Wieder and Scott" / "Fritchie, VMware Research Group") and a company's
    one word after names ("Jim Stabile, VMware")."""
    byline = ["Michael Wei, University of California, San Diego, and VMware Research Group; Amy Tai,",
              "Princeton University and VMware Research Group; Christopher J. Rossbach, The University",
              "of Texas at Austin and VMware Research Group; Ittai Abraham, VMware Research Group;",
              "Maithem Munshed, Medhavi Dhawan, and Jim Stabile, VMware; Udi Wieder and Scott",
              "Fritchie, VMware Research Group; Steven Swanson, University of California, San Diego;",
              "Michael J. Freedman, Princeton University; Dahlia Malkhi, VMware Research Group"]
    first = page(line("vCorfu: A Cloud-Scale Object Store on a Shared Log", 58, 40, 554, 67, 27.3),
                 *(line(text, 53, 72 + 18 * i, 560, 89 + 18 * i, 17.1) for i, text in enumerate(byline)),
                 line("https://www.usenix.org/conference/nsdi17/technical-sessions/presentation/wei-michael",
                      90, 186, 522, 200, 14.4), *BODY)
    assert paper_record({}, first).authors == [
        "Michael Wei", "Amy Tai", "Christopher J. Rossbach", "Ittai Abraham", "Maithem Munshed", "Medhavi Dhawan",
        "Jim Stabile", "Udi Wieder", "Scott Fritchie", "Steven Swanson", "Michael J. Freedman", "Dahlia Malkhi"]


def test_where_a_preprint_was_published_dates_it_over_the_authors_copyright() -> None:
    """Axford and Joy: "c Copyright TH Axford & MS Joy 1992" on the preprint, "Published in
    Computer Languages 19(1), 1–12 (1993)" at its foot; "an earlier version was published in"
    names another version and dates nothing. ("Originally published in …" names where the work
    first appeared, and dates it: tests/test_pdf_records_reprints.py.)"""
    first = page(line("List Processing Primitives for Parallel Computation", 120, 100, 490, 116, 14.4),
                 line("Tom Axford and Mike Joy", 240, 140, 380, 152, 12.0),
                 line("c Copyright TH Axford & MS Joy 1992", 231, 275, 407, 286, 11.0), *BODY,
                 line("Published in Computer Languages 19(1), 1–12 (1993)", 111, 662, 350, 673, 10.9))
    assert page_year(first) == 1993
    earlier = page(*first.lines[:-1], line("An earlier version was published in Computer Languages 19(1), 1–12 (1993)",
                                           111, 662, 350, 673, 10.9))
    assert page_year(earlier) == 1992


def test_a_title_over_a_small_word_and_an_aside_in_brackets() -> None:
    """Wuu and Bernstein: "Efficient Solutions" / "to" / "the Replicated Log and Dictionary
    Problems" is one title; "(It's Time for a Complete Rewrite)" under "The End of an
    Architectural Era" is part of it, "(Extended Abstract)" is not."""
    wuu = page(line("Efficient Solutions", 223, 33, 329, 45, 12.0), line("to", 271, 53, 281, 65, 12.0),
               line("the Replicated Log and Dictionary Problems", 141, 72, 411, 84, 12.0),
               line("Gene T. J. Wuu and Arthur J. Bernstein", 185, 113, 367, 122, 8.9), *BODY)
    assert paper_record({}, wuu).title == "Efficient Solutions to the Replicated Log and Dictionary Problems"
    era = page(line("The End of an Architectural Era", 171, 75, 441, 93, 18.0),
               line("(It's Time for a Complete Rewrite)", 162, 100, 450, 118, 18.0), *BODY)
    assert paper_record({}, era).title == "The End of an Architectural Era (It's Time for a Complete Rewrite)"
    tagged = page(era.lines[0], line("(Extended Abstract)", 220, 100, 390, 118, 18.0), *BODY)
    assert paper_record({}, tagged).title == "The End of an Architectural Era"


def test_a_column_of_names_stacked_over_one_affiliation_is_read_before_the_next() -> None:
    """The End of an Architectural Era: four MIT names stacked in the first column over "MIT
    CSAIL", beside Hachem's and Helland's blocks: read column by column. Names side by side
    in rows under the first (a grid of bare names) keep the rows' order."""
    title = line("The End of an Architectural Era", 171, 75, 441, 93, 18.0)
    era = page(title, line("Nabil Hachem", 269, 148, 343, 160, 12.0), line("Michael Stonebraker", 84, 148, 192, 160, 12.0),
               line("Pat Helland", 444, 148, 504, 160, 12.0), line("AvantGarde Consulting, LLC", 244, 163, 368, 172, 9.8),
               line("Samuel Madden", 95, 163, 181, 175, 12.0), line("Microsoft Corporation", 427, 163, 521, 172, 9.8),
               line("Daniel J. Abadi", 98, 177, 178, 189, 12.0), line("Stavros Harizopoulos", 82, 191, 194, 203, 12.0),
               line("MIT CSAIL", 114, 208, 162, 218, 9.8), *BODY)
    assert paper_record({}, era).authors == ["Michael Stonebraker", "Samuel Madden", "Daniel J. Abadi",
                                             "Stavros Harizopoulos", "Nabil Hachem", "Pat Helland"]
    grid = page(title, line("Ann Lee", 100, 148, 180, 160, 12.0), line("Bo Chen", 400, 148, 480, 160, 12.0),
                line("Cy Wu", 100, 163, 180, 175, 12.0), line("Dan Ho", 400, 163, 480, 175, 12.0),
                line("Eve Li", 100, 178, 180, 190, 12.0), *BODY)
    assert paper_record({}, grid).authors == ["Ann Lee", "Bo Chen", "Cy Wu", "Dan Ho", "Eve Li"]
    odd = page(*grid.lines[:4], *BODY)  # Ann and Bo over Cy: no affiliation beside Cy
    assert paper_record({}, odd).authors == ["Ann Lee", "Bo Chen", "Cy Wu"]


# --- classes found on dev14's first sight (the same collection's papers from before 2000) ---

def test_old_bylines_an_initials_comma_a_wrapped_affiliation_and_banners_set_as_names() -> None:
    """Pease, Shostak and Lamport's scan: "R, SHOSTAK" (the initial's dot read as a comma);
    Lauer: "Hugh C. Lauer Xerox" (the affiliation's first word beside the name), but "Paul
    G. Allen School of Computer Science" is an institution; Mach's "A Position Paper" under
    the title is neither a subtitle nor an author; "TURING AWARD LECTURE" over a title is no
    author."""
    def read(*lines: Line) -> tuple[str | None, list[str]]:
        record = paper_record({}, page(line("Reaching Agreement in the Presence of Faults", 47, 42, 307, 56, 13.4),
                                       *lines, *BODY))
        return record.title, record.authors
    assert read(line("M. PEASE, R, SHOSTAK, AND L. LAMPORT", 47, 82, 237, 90, 8.4))[1] == \
        ["M. Pease", "R. Shostak", "L. Lamport"]
    # an initial without its dot that ends a name, and marks of a digit and a letter, stay as they are
    assert read(line("Priya R, Karthik S and Anand M", 47, 82, 237, 90, 8.4))[1] == ["Priya R", "Karthik S", "Anand M"]
    assert read(line("Anna Kim1a, Bo Lee1b", 47, 82, 237, 90, 8.4))[1] == ["Anna Kim", "Bo Lee"]
    assert read(line("Herbert H. Paper and Memo Akten", 47, 82, 237, 90, 8.4))[1] == ["Herbert H. Paper", "Memo Akten"]
    assert read(line("Hugh C. Lauer Xerox", 260, 82, 358, 93, 11.2), line("Corporation Palo Alto,", 256, 94, 362, 105, 11.2),
                line("Roger M. Needham", 259, 126, 353, 137, 11.2),
                line("Cambridge University", 254, 137, 358, 148, 11.2))[1] == ["Hugh C. Lauer", "Roger M. Needham"]
    for institution in ("Paul G. Allen School of Computer Science", "Mary K. Smith Acme Corporation"):
        assert read(line("Su-In Lee", 260, 82, 358, 93, 11.2),
                    line(institution, 200, 94, 420, 105, 11.2))[1] == ["Su-In Lee"]
    assert read(line("A Position Paper", 266, 60, 346, 73, 12.5),
                line("Richard Rashid, Robert Baron", 191, 82, 421, 92, 10.1)) == (
        "Reaching Agreement in the Presence of Faults", ["Richard Rashid", "Robert Baron"])
    thompson = page(line("TURING AWARD LECTURE", 57, 20, 150, 29, 8.9), line("Reflections on Trusting Trust", 147, 38, 515, 66, 27.8),
                    *BODY)
    assert paper_record({}, thompson).authors == []


def test_a_typescripts_chapter_banner_report_number_and_long_title_over_its_byline() -> None:
    """Axford's chapter: "CHAPTER 2" over a title as wide as the text, all in one type, the
    byline under the title; Bartussek and Parnas: "UNC Report No." / "TR 77-012" /
    "December 1977" in a corner over the title in capitals."""
    chapter = page(line("CHAPTER 2", 296, 22, 360, 34, 12.0),
                   line("The Divide-and-Conquer Paradigm as a Basis for Parallel Language Design", 146, 53, 509, 65, 12.0),
                   line("Tom Axford", 298, 83, 357, 95, 12.0),
                   line("University of Birmingham, Birmingham B15 2TT, U.K.", 194, 103, 461, 115, 12.0),
                   *(line("Since the earliest days of computer programming, algorithms have been known", 108,
                          236 + 14 * i, 546, 248 + 14 * i, 12.0) for i in range(30)))
    record = paper_record({}, chapter)
    assert (record.title, record.authors) == (
        "The Divide-and-Conquer Paradigm as a Basis for Parallel Language Design", ["Tom Axford"])
    report = page(line("UNC Report No.", 443, 56, 525, 68, 12.1), line("TR 77-012", 443, 68, 496, 81, 12.1),
                  line("December 1977", 443, 86, 521, 98, 12.1),
                  line("USING TRACES TO WRITE ABSTRACT SPECIFICATIONS", 199, 148, 463, 160, 12.1),
                  line("FOR SOFTWARE MODULES", 275, 167, 393, 179, 12.1),
                  line("Wolfram Bartussek and David L. Parnas", 221, 321, 438, 333, 12.1),
                  *(line("A parallel program often defines a relation, not a function, over its input.", 76,
                         400 + 12 * i, 540, 410 + 12 * i, 12.1) for i in range(20)))
    record = paper_record({}, report)
    assert record.title is not None and record.title.lower() == \
        "using traces to write abstract specifications for software modules"
    assert (record.authors, record.year) == (["Wolfram Bartussek", "David L. Parnas"], 1977)


def test_a_letter_spaced_date_dates_the_page() -> None:
    """Ousterhout's WRL note, read by OCR: "O C T O B E R 1 9 8 9" over the title."""
    first = page(line("O C T O B E R 1 9 8 9", 259, 34, 353, 45, 11.3),
                 line("Why Aren't Operating Systems Getting Faster As Fast As Hardware?", 144, 298, 505, 343, 45.1),
                 line("John Ousterhout", 144, 512, 265, 532, 20.1))
    assert page_year(first) == 1989
    wide = page(line("O C T O B E R   1 9 8 9", 259, 34, 353, 45, 11.3), *first.lines[1:])
    assert page_year(wide) == 1989


def test_a_byline_under_a_magazines_deck_is_read() -> None:
    """Thompson's Turing lecture in CACM: the deck, prose in bold larger than the body, runs
    between the title and "KEN THOMPSON" (the byline search stopped at its first long line).
    A long line in the body's own type still ends the search."""
    def bold(text: str, x0: float, y0: float, x1: float, y1: float, size: float) -> Line:
        return Line(text=text, boxes=[], bbox=(x0, y0, x1, y1), size=size, bold=True, cells=[text])

    body = [line("I thank the ACM for this award. I can't help but feel that I am receiving this honor", 62,
                 378 + 11 * i, 285, 387 + 11 * i, 8.9) for i in range(30)]
    head = [bold("TURING AWARD LECTURE", 57, 47, 150, 56, 8.9),
            bold("Reflections on Trusting Trust", 147, 78, 515, 106, 27.8),
            bold("To what extent should one trust a statement that a program is free of Trojan", 147, 126, 529, 138, 11.8),
            bold("horses? Perhaps it is more important to trust the people who wrote the", 147, 140, 529, 152, 11.8),
            bold("software.", 147, 154, 190, 166, 11.8)]
    record = paper_record({}, page(*head, bold("KEN THOMPSON", 148, 304, 230, 316, 11.8),
                                   line("INTRODUCTION", 62, 367, 132, 376, 8.9), *body))
    assert record.title == "Reflections on Trusting Trust" and record.authors == ["Ken Thompson"]
    plain = [line(ln.text, *ln.bbox, 8.9) if ln.size == 11.8 else ln for ln in head]
    record = paper_record({}, page(*plain, bold("KEN THOMPSON", 148, 304, 230, 316, 11.8), *body))
    assert record.authors == []  # prose in the body's type under the title: no byline after it
    # a deck leads only to a byline set over the body's type, never into the body's headings
    record = paper_record({}, page(*head, bold("STAGE I", 62, 300, 110, 310, 8.9), *body))
    assert record.authors == []
    columns = [line("prose of the paper runs on in its column here and", x0, 200 + 11 * i, x1, 209 + 11 * i, 9.0)
               for i in range(30) for x0, x1 in ((54, 300), (312, 558))]
    columns[10] = line("Related Work", 54, 255, 300, 264, 9.0)
    record = paper_record({}, page(line("Per Martin-Löf", 250, 80, 360, 92, 11.0),
                                   bold("A Made-Up System for Things", 120, 100, 490, 124, 20.0),
                                   bold("We describe a system that does a great many interesting things for its users, and "
                                        "we measure how well it", 54, 150, 558, 162, 11.5), *columns))
    assert record.authors == ["Per Martin-Löf"]  # the name over the title, not "Related Work"


def test_a_dagger_in_texs_symbol_font_and_a_version_tag_under_the_title_are_no_names() -> None:
    """Meijer, Fokkinga and Paterson: TeX's symbol font has its dagger and double dagger
    where ASCII has y and z, so the byline reads "Maarten Fokkinga y" ("y" a particle of
    Spanish names, kept before). Kelsey and Hudak: "(Detailed Summary)" under the title,
    its brackets read as bars, was a name and then part of the title (the glyphs' heights
    make its sizes uneven: the file's name finds the title)."""
    first = page(line("Functional Programming with Bananas, Lenses,", 108, 171, 495, 190, 9.2),
                 line("Envelopes and Barbed Wire", 189, 196, 414, 215, 9.2),
                 line("Erik Meijer Maarten Fokkinga y Ross Paterson z", 133, 246, 475, 261, 6.7,
                      cells=["Erik Meijer", "Maarten Fokkinga y", "Ross Paterson z"]),
                 *(line("We develop a calculus for lazy functional programming based on recursion", 101,
                        347 + 14 * i, 502, 357 + 14 * i, 5.2) for i in range(12)))
    record = paper_record({}, first)
    assert record.title == "Functional Programming with Bananas, Lenses, Envelopes and Barbed Wire"
    assert record.authors == ["Erik Meijer", "Maarten Fokkinga", "Ross Paterson"]
    first = page(line("Realistic Compilation by Program Transformation", 125, 85, 473, 100, 7.4),
                 line("|", 221, 89, 235, 97, 7.4), line("Detailed Summary |", 240, 109, 377, 121, 7.5),
                 line("Richard Kelsey", 260, 139, 337, 150, 7.4), line("Paul Hudak", 268, 153, 329, 162, 8.2),
                 line("Yale University", 260, 182, 338, 192, 6.2),
                 *(line("Using concepts from denotational semantics, we have produced", 47, 265 + 12 * i,
                        288, 274 + 12 * i, 4.3) for i in range(20)))
    record = paper_record({}, first, "1989-01-realistic-compilation-by-program-transformation.pdf")
    assert (record.title, record.authors) == ("Realistic Compilation by Program Transformation",
                                              ["Richard Kelsey", "Paul Hudak"])


def test_an_organisation_named_as_the_bylines_mail_domain_is_no_author() -> None:
    """Bowman's J1: "Willow Garage" stacked under the name as a second name would be, over
    "Menlo Park, CA" and "jamesb@willowgarage.com". A name that only matches the mail's
    user ("James Bowman", "jamesb") stays, and a page whose one name is its domain keeps it."""
    body = [line("This paper describes a 16-bit Forth CPU core, intended for FPGAs and", 63,
                 191 + 11 * i, 300, 200 + 11 * i, 8.1) for i in range(16)]
    first = page(line("J1: a small Forth CPU Core for FPGAs", 165, 78, 430, 92, 14.3),
                 line("James Bowman", 269, 112, 330, 123, 10.4), line("Willow Garage", 270, 126, 330, 136, 10.4),
                 line("Menlo Park, CA", 267, 139, 333, 149, 10.4),
                 line("jamesb@willowgarage.com", 242, 154, 355, 162, 7.7), *body)
    assert paper_record({}, first).authors == ["James Bowman"]
    alone = page(line("J1: a small Forth CPU Core for FPGAs", 165, 78, 430, 92, 14.3),
                 line("James Bowman", 269, 112, 330, 123, 10.4),
                 line("info@jamesbowman.net", 242, 154, 355, 162, 7.7), *body)
    assert paper_record({}, alone).authors == ["James Bowman"]
    two = page(line("J1: a small Forth CPU Core for FPGAs", 165, 78, 430, 92, 14.3),
               line("Alice Smith", 269, 112, 330, 123, 10.4), line("Bob Jones", 270, 126, 330, 136, 10.4),
               line("bob@bobjones.org", 242, 154, 355, 162, 7.7), *body)
    assert paper_record({}, two).authors == ["Alice Smith", "Bob Jones"]  # his own domain


def test_the_committee_and_approvers_on_a_title_page_are_no_authors() -> None:
    """Doorenbos's thesis names its committee under "Thesis Committee:"; Engelbart's SRI
    report prints "By: D. C. Engelbart" and, under "Approved:", the managers who signed it.
    Before, the committee were four more authors and the report's author was its approvers."""
    thesis = page(line("Production Matching for Large Learning Systems", 135, 191, 477, 206, 7.7),
                  line("Robert B. Doorenbos", 239, 232, 373, 245, 12.7),
                  line("January 31, 1995", 252, 253, 360, 266, 12.7),
                  line("CMU-CS-95-113", 259, 272, 354, 281, 8.6),
                  line("Computer Science Department", 227, 364, 385, 375, 5.3),
                  line("Carnegie Mellon University", 236, 379, 376, 390, 5.3),
                  line("Submitted in partial fulfillment of the requirements", 186, 442, 427, 451, 7.4),
                  line("Thesis Committee:", 261, 503, 352, 513, 10.1),
                  line("Jill Fain Lehman, Computer Science Department", 189, 519, 423, 529, 10.1),
                  line("Tom Mitchell, Computer Science Department", 197, 533, 415, 543, 10.1),
                  line("Manuela Veloso, Computer Science Department", 192, 546, 420, 557, 10.1),
                  *(line("This research was sponsored in part by a National Science Foundation Graduate",
                         63, 630 + 12 * i, 549, 639 + 12 * i, 4.3) for i in range(7)))
    # (the file's name, as the collection names it, picks the title set smaller than the name)
    record = paper_record({}, thesis, "Doorenbos-Production_Matching_for_Large_Learning_Systems.pdf")
    assert (record.title, record.authors) == ("Production Matching for Large Learning Systems", ["Robert B. Doorenbos"])
    report = PageText(number=1, width=595, height=842, lines=[
        line("STANFORD RESEARCH INSTITUTE", 217, 185, 495, 204, 19.3),
        line("Menlo Park, California 94025 * USA", 171, 203, 423, 222, 19.3),
        line("October 1962", 467, 233, 524, 246, 12.3), line("AFOSR-3233", 71, 257, 130, 270, 12.4),
        line("Summary Report", 71, 269, 140, 282, 12.3),
        line("AUGMENTING HUMAN INTELLECT: A", 71, 293, 484, 319, 25.9),
        line("Conceptual Framework", 71, 318, 286, 344, 25.9), line("Prepared for:", 71, 368, 124, 381, 12.3),
        line("DIRECTOR OF INFORMATION SCIENCES", 71, 392, 281, 405, 12.4),
        line("AIR FORCE OFFICE OF SCIENTIFIC RESEARCH", 71, 404, 308, 417, 12.4),
        line("WASHINGTON 25, D.C.", 71, 416, 189, 429, 12.4), line("CONTRACT AF49(638)-1024", 71, 440, 209, 453, 12.5),
        line("By: D. C. Engelbart", 71, 465, 182, 480, 15.8), line("SRI Project No. 3578", 71, 492, 160, 505, 12.3),
        line("Approved:", 71, 516, 112, 529, 12.3),
        line("R. C. Amara, Manager System Engineering Department", 71, 540, 310, 553, 12.4),
        line("J. D. Noe, Director Engineering Science Division", 71, 552, 282, 565, 12.4)])
    assert paper_record({}, report).authors == ["D. C. Engelbart"]


def test_marks_and_a_copyright_beside_a_name_or_a_title_are_no_part_of_them() -> None:
    """Lampson and Sproull's title ends in two footnote numbers ("Machine1,2": was "…
    Machine,2"); Hayes's name carries a closing quote where the page prints a mark (the name
    failed, and became the title's end); Hewitt's byline is "Carl Hewitt ©2013"."""
    lampson = page(line("An Open Operating System for a Single-User Machine1,2", 93, 85, 520, 105, 19.9),
                   line("Butler W. Lampson", 259, 133, 353, 146, 13.3),
                   line("Xerox Research Center", 250, 151, 362, 164, 13.3), *BODY)
    assert paper_record({}, lampson).title == "An Open Operating System for a Single-User Machine"
    hayes = page(line("Ephemerons: A New Finalization Mechanism", 148, 26, 464, 46, 19.6),
                 line("Barry Hayes’", 290, 66, 360, 79, 13.3), *BODY)
    record = paper_record({}, hayes)
    assert (record.title, record.authors) == ("Ephemerons: A New Finalization Mechanism", ["Barry Hayes"])
    hewitt = page(line("Middle History of Logic Programming", 190, 75, 420, 88, 12.5),
                  line("Carl Hewitt ©2013", 258, 119, 355, 130, 10.7), *BODY)
    assert paper_record({}, hewitt).authors == ["Carl Hewitt"]


def test_a_title_line_ending_on_with_goes_on_into_the_name_under_it() -> None:
    """An oral history's cover, every line typed double-spaced in one type: "An Interview
    with" / "J. C. R. LICKLIDER" is one title (the name was its author), and the people
    who conducted the interview are the authors."""
    body = [line("Oral history interview with J. C. R. Licklider, conducted at his office.", 72,
                 500 + 12 * i, 540, 510 + 12 * i, 11.3) for i in range(3)]
    first = page(line("An Interview with", 270, 181, 360, 192, 11.3),
                 line("J. C. R. LICKLIDER", 268, 217, 362, 228, 11.3),
                 line("OH 150", 291, 253, 330, 264, 11.3),
                 line("Conducted by William Aspray and Arthur Norberg", 204, 397, 430, 408, 11.3),
                 line("on", 301, 421, 312, 432, 11.3),
                 line("28 October 1988", 274, 445, 360, 456, 11.3), *body)
    record = paper_record({}, first)
    assert (record.title, record.authors) == ("An Interview with J. C. R. LICKLIDER",
                                              ["William Aspray", "Arthur Norberg"])


def test_a_librarys_copyright_warning_sheet_gives_way_to_the_report_after_it() -> None:
    """Carnegie Mellon's scans open on the copyright law's notice and nothing else; the report's
    title page comes next, and its scan reads an initial's O as a zero ("Steven 0. Hobbs")."""
    sheet = page(line("NOTICE WARNING CONCERNING COPYRIGHT RESTRICTIONS:", 185, 471, 520, 484, 12.5),
                 line("The copyright law of the United States (title 17, U.S. Code) governs the making", 185, 484, 560, 496, 12.5),
                 line("of photocopies or other reproductions of copyrighted material. Any copying of this", 185, 496, 560, 509, 12.5),
                 line("document without permission of its author may be prohibited by law.", 185, 509, 520, 521, 12.5))
    report = page(line("THE DESIGN OF AN OPTIMIZING COMPILER", 190, 158, 482, 178, 19.3),
                  line("William A. Wulf", 304, 196, 371, 209, 12.5), line("Richard K. Johnsson", 293, 210, 381, 222, 12.5),
                  line("Charles B. Weinstock", 290, 223, 383, 236, 12.5), line("Steven 0. Hobbs", 300, 236, 374, 249, 12.5),
                  line("Computer Science Department", 270, 263, 404, 275, 12.5),
                  line("Carnegie-Mellon University", 277, 276, 397, 289, 12.5),
                  line("December 1973", 301, 303, 373, 315, 12.5), line("ABSTRACT", 312, 370, 362, 382, 12.5),
                  *(line("There are important classes of programs which must be highly efficient on a particular",
                         124, 396 + 13 * i, 547, 408 + 13 * i, 12.5) for i in range(8)))
    record = paper_record({}, sheet, "1973-12-design-of-an-optimizing-compiler.pdf", report)
    assert (record.title, record.year) == ("The Design of an Optimizing Compiler", 1973)
    assert record.authors == ["William A. Wulf", "Richard K. Johnsson", "Charles B. Weinstock", "Steven O. Hobbs"]
    # the notice printed at the foot of a paper's own first page makes no cover of it
    own = page(line("The Design of an Optimizing Compiler", 190, 158, 482, 178, 19.3),
               line("William A. Wulf", 304, 196, 371, 209, 12.5), *BODY,
               line("NOTICE WARNING CONCERNING COPYRIGHT RESTRICTIONS:", 185, 700, 520, 712, 8.0))
    assert paper_record({}, own, "", report).authors == ["William A. Wulf"]


def test_a_report_series_banner_a_degree_and_a_quoted_titles_mark_are_no_record() -> None:
    """IBM's "IBM Research Report" banner set larger than the title had made the title its
    subtitle and the title's last line an author; a dissertation's "Josef Templ, Dipl._Ing."
    gave an author "Dipl. Ing"; Baker's "… 'Look Ma, No Garbage!'1" kept its footnote's 1."""
    ibm = page(line("RC 22534 (W0207-134) 31 July 2002", 90, 73, 279, 86, 10.8),
               line("Computer Science", 90, 89, 183, 99, 10.8), line("IBM Research Report", 183, 119, 429, 143, 23.5),
               line("Thirty Years Later: Lessons from the", 160, 163, 452, 179, 16.3),
               line("Multics Security Evaluation", 199, 184, 413, 200, 16.3),
               line("Paul A. Karger", 267, 230, 345, 241, 10.8), line("IBM Research Division", 249, 244, 363, 255, 11.0),
               line("Thomas J. Watson Research Center", 221, 257, 391, 268, 11.0),
               line("P. O. Box 704", 272, 270, 340, 281, 11.0), line("Yorktown Heights, NY 10598", 233, 284, 379, 295, 11.0),
               line("Roger R. Schell", 266, 311, 346, 322, 10.8), line("Aesec Corporation", 261, 325, 351, 336, 11.0),
               line("1071 Morse Drive", 262, 338, 350, 349, 11.0), line("Pacific Grove, CA 93950", 245, 352, 367, 363, 11.0),
               *(line("Almost thirty years ago, Schell and I led a security evaluation of Multics for the",
                      72, 420 + 12 * i, 540, 430 + 12 * i, 10.0) for i in range(20)))
    record = paper_record({}, ibm)
    assert (record.title, record.authors) == ("Thirty Years Later: Lessons from the Multics Security Evaluation",
                                              ["Paul A. Karger", "Roger R. Schell"])
    templ = page(line("Diss. ETH No 10655", 253, 61, 342, 71, 10.1), line("Metaprogramming in Oberon", 156, 159, 438, 181, 20.6),
                 line("A dissertation submitted to the", 215, 252, 380, 265, 12.0),
                 line("SWISS FEDERAL INSTITUTE OF TECHNOLOGY ZURICH", 150, 270, 445, 282, 12.0),
                 line("for the degree of", 254, 319, 341, 332, 12.0), line("Doctor of Technical Sciences", 221, 336, 374, 349, 12.0),
                 line("presented by", 264, 403, 331, 416, 12.0), line("Josef Templ, Dipl._Ing.", 239, 420, 356, 433, 12.0),
                 line("Johannes_Kepler_Universität, Linz", 211, 437, 384, 450, 12.0),
                 line("born July 24, 1961", 248, 453, 346, 466, 12.0), line("citizen of Austria", 253, 470, 342, 483, 12.0),
                 line("accepted on the recommendation of", 200, 605, 394, 618, 12.0),
                 line("Prof. Dr. H. Mössenböck, examiner", 205, 621, 390, 634, 12.0), line("1994", 284, 706, 311, 718, 12.0))
    assert paper_record({}, templ).authors == ["Josef Templ"]
    baker = page(line("ACM Sigplan Notices 27,8 (Aug. 1992),89-98.", 72, 40, 304, 52, 12.0),
                 line("Lively Linear Lisp — 'Look Ma, No Garbage!'1", 72, 76, 419, 94, 18.0),
                 line("Henry G. Baker", 72, 103, 149, 115, 12.0), *BODY)
    assert paper_record({}, baker).title == "Lively Linear Lisp — 'Look Ma, No Garbage!'"


def test_the_years_of_entcs_banners_and_of_another_versions_copyright() -> None:
    """ENTCS prints "COCV’03 Preliminary Version" over its pre-proceedings' papers: the venue's
    year (the words were taken for a note on an earlier version). Berdine et al. print the
    workshop version's "(© Copyright 2001 by ACM …)" in a note over the journal's "© 2002
    Kluwer": the note's copyright is that version's."""
    entcs = PageText(number=1, width=595, height=842, lines=[
        line("COCV’03 Preliminary Version", 233, 42, 375, 51, 8.8),
        line("A Functional Perspective on", 187, 102, 421, 120, 18.8),
        line("SSA Optimisation Algorithms", 175, 124, 423, 142, 18.8),
        line("Patryk Zadarnowski", 235, 196, 369, 215, 14.4), *BODY])
    assert page_year(entcs) == 2003
    note = page(line("A preliminary version of this paper appeared at COCV’99.", 72, 700, 400, 708, 8.0))
    assert page_year(note) is None
    kluwer = page(line("Linear Continuation-Passing", 180, 120, 430, 140, 17.0), *BODY,
                  line("∗ This is an extended and revised version of a paper (◯c Copyright 2001 by", 140, 558, 540, 566, 8.0),
                  line("ACM, Inc.) presented at the Third ACM SIGPLAN Workshop on Continuations,", 130, 571, 540, 579, 8.0),
                  line("◯c 2002 Kluwer Academic Publishers. Printed in the Netherlands.", 154, 673, 460, 681, 8.0))
    assert page_year(kluwer) == 2002


def centred(y: float, text: str, size: float) -> Line:
    width = len(text) * size * 0.5
    return line(text, 306 - width / 2, y, 306 + width / 2, y + size, size)


def test_the_role_and_dangling_rules_leave_ordinary_pages_alone() -> None:
    """Made-up pages a second read found the first forms of s17's rules reading worse than
    before: a role word opening an ordinary line ("Accepted at …", "Approved for public
    release") ended the byline; a supervisor printed over the byline emptied it; a line over
    the title ending on "in" was put in front of it; a title ending on "A" took the names under
    it; a publisher's copyright read as a person."""
    accepted = page(centred(80, "Sparse Attention for Long Documents", 17.2),
                    centred(104, "Accepted at the ICML 2021 Workshop on Efficient Learning", 9.0),
                    centred(125, "Jane Doe and John Smith", 11.0), centred(139, "University of Somewhere", 10.0), *BODY)
    assert paper_record({}, accepted).authors == ["Jane Doe", "John Smith"]
    release = page(centred(120, "Sparse Attention for Long Documents", 17.0),
                   centred(150, "Approved for public release; distribution unlimited", 10.0),
                   centred(190, "by", 12.0), centred(205, "Jane Doe", 12.0), centred(230, "Army Research Laboratory", 12.0))
    assert paper_record({}, release).authors == ["Jane Doe"]
    supervised = page(centred(120, "Learning to Rank with Sparse Features", 17.0),
                      centred(170, "A thesis submitted for the degree of Master of Science", 12.0),
                      centred(200, "Supervisor: Prof. John Smith", 12.0), centred(260, "by", 12.0),
                      centred(280, "Jane Doe", 14.0), centred(330, "Department of Computer Science", 12.0),
                      centred(380, "June 2013", 12.0))
    assert paper_record({}, supervised).authors == ["Jane Doe"]
    typed = [line("This paper is typed in the same type as its title, as a typescript is, line after line.",
                  72, 330 + 14 * i, 540, 341 + 14 * i, 11.3) for i in range(15)]
    banner = page(centred(60, "To appear in", 11.3), centred(90, "A Theory of Type Polymorphism", 11.3),
                  centred(126, "Robin Milner", 11.3), *typed)
    assert paper_record({}, banner).title == "A Theory of Type Polymorphism"
    vitamin = page(centred(100, "Dietary Intake of Vitamin A", 12.0), centred(130, "Jane Doe, John Smith", 12.0),
                   centred(144, "University of Somewhere", 10.0), *BODY)
    record = paper_record({}, vitamin)
    assert (record.title, record.authors) == ("Dietary Intake of Vitamin A", ["Jane Doe", "John Smith"])
    publisher = page(centred(80, "Sparse Attention for Long Documents", 17.2),
                     centred(104, "© 2013 Morgan Kaufmann", 10.0), *BODY)
    assert paper_record({}, publisher).authors == []


def test_hyperrefs_keys_in_the_title_field_and_a_job_title_under_a_name() -> None:
    """Pivot Tracing's /Title carries hyperref's next key ("… Systems pdfauthor=Jonathan Mace,
    Ryan Roelke, Rodrigo Fonseca", a comma missed in \\hypersetup) and its byline is glued
    ("JonathanMace Ryan Roelke …"): the title is the part before the key, the authors the key's.
    Kuszmaul's white paper stacks "Chief Architect" under his name, as an affiliation is."""
    info = {"Title": "Pivot Tracing: Dynamic Causal Monitoring for Distributed Systems pdfauthor=Jonathan Mace, "
                     "Ryan Roelke, Rodrigo Fonseca", "Author": ""}
    pivot = page(line("Pivot Tracing: Dynamic Causal", 188, 73, 430, 97, 23.8),
                 line("Monitoring for Distributed Systems", 172, 95, 445, 119, 23.8),
                 line("JonathanMace Ryan Roelke Rodrigo Fonseca", 187, 137, 430, 153, 16.1),
                 line("Brown University", 263, 151, 350, 167, 16.1), *BODY)
    record = paper_record(info, pivot)
    assert (record.title, record.authors) == ("Pivot Tracing: Dynamic Causal Monitoring for Distributed Systems",
                                              ["Jonathan Mace", "Ryan Roelke", "Rodrigo Fonseca"])
    white = page(line("A Comparison of Fractal Trees to", 168, 142, 445, 163, 20.7),
                 line("Log-Structured Merge (LSM) Trees", 158, 166, 455, 186, 20.0),
                 line("Bradley C. Kuszmaul", 245, 207, 368, 221, 14.3), line("Chief Architect", 262, 225, 350, 239, 14.3),
                 line("Tokutek", 283, 243, 330, 257, 14.3), line("bradley@tokutek.com", 237, 262, 375, 275, 12.9),
                 line("April 22, 2014", 264, 289, 350, 303, 14.3), *BODY)
    assert paper_record({}, white).authors == ["Bradley C. Kuszmaul"]


def test_the_second_reads_pages_for_the_dev16_rules() -> None:
    """Made-up pages a second read of the dev16 rules found read worse than before, each
    narrowed: "Preliminary version appeared in …" is a note on another version however it
    opens; a surname "Eng" after an initial is no degree; "Chapter 0." is no initial; a
    note naming a full version does not hide the page's own © in its next sentence; a title
    about a research report is a title (only an acronym's series banner is not)."""
    note = page(centred(80, "On the Complexity of Sorting", 17.2), centred(110, "Jane Doe", 12.0), *BODY,
                line("Preliminary version appeared in Proc. 22nd STOC 1990.", 72, 700, 400, 708, 8.0))
    assert paper_record({}, note).year is None
    eng = page(centred(80, "Sparse Attention for Long Documents", 17.2),
               centred(110, "John Smith, Karen M. Eng", 12.0), *BODY)
    assert paper_record({}, eng).authors == ["John Smith", "Karen M. Eng"]
    chapter = page(centred(80, "Sparse Attention for Long Documents", 17.2),
                   centred(110, "Chapter 0. Preliminaries", 12.0), *BODY)
    assert paper_record({}, chapter).authors == []
    full = page(centred(80, "On the Complexity of Sorting", 17.2), centred(110, "Jane Doe", 12.0), *BODY,
                line("A full version of this paper is available from the authors. Copyright © 1996 by the authors.",
                     72, 700, 540, 708, 8.0))
    assert paper_record({}, full).year == 1996
    report = page(centred(80, "Writing a Research Report", 17.2), centred(110, "Jane Doe", 12.0), *BODY)
    record = paper_record({}, report)
    assert (record.title, record.authors) == ("Writing a Research Report", ["Jane Doe"])


def test_a_surname_that_is_a_job_word_is_still_a_name() -> None:
    """"Director", "Officer" and "Engineer" are surnames too (Stephen W. Director, Micah S.
    Officer, Merwan H. Engineer): a job title only after a rank ("Managing Director")."""
    for byline, names in (("Ronald A. Rohrer, Stephen W. Director", ["Ronald A. Rohrer", "Stephen W. Director"]),
                          ("Micah S. Officer and Jane Doe", ["Micah S. Officer", "Jane Doe"])):
        first = page(centred(80, "Sparse Attention for Long Documents", 17.2), centred(110, byline, 12.0), *BODY)
        assert paper_record({}, first).authors == names
    stacked = page(centred(80, "Sparse Attention for Long Documents", 17.2), centred(110, "Jane Doe", 12.0),
                   centred(125, "Managing Director", 12.0), centred(140, "Acme Corporation", 12.0), *BODY)
    assert paper_record({}, stacked).authors == ["Jane Doe"]


def test_a_misread_title_word_takes_the_spelling_of_the_file_named_for_the_title() -> None:
    """Ingalls's scan reads "The SmaHhllk-76 Programming System"; the file is named
    "Ingalls-The_Smalltalk-76_Programming_System_Design_and_Implementation.pdf"."""
    first = page(line("The SmaHhllk-76 Programming System", 180, 77, 403, 92, 14.9),
                 line("Design and Implementation", 216, 89, 368, 104, 14.9),
                 line("Daniel H. H. Ingalls", 246, 116, 338, 127, 11.1),
                 line("XEROX Palo A to Research Center", 209, 127, 374, 138, 11.1),
                 line("Palo Alto, California", 244, 138, 339, 149, 11.1), *BODY)
    named = "Ingalls-The_Smalltalk-76_Programming_System_Design_and_Implementation.pdf"
    assert paper_record({}, first, named).title == "The Smalltalk-76 Programming System Design and Implementation"
    assert paper_record({}, first, "ingalls78.pdf").title == "The SmaHhllk-76 Programming System Design and Implementation"


def test_a_misread_word_keeps_the_case_the_page_prints_it_in() -> None:
    """Elsevier's "simpli#ed" (an fi ligature lost) and Schorre's capitals "SYNTAX-ORIER'A'~u"."""
    elsevier = page(line("Theoretical Computer Science 321 (2004) 5 – 12", 169, 130, 330, 137, 7.1),
                    line("The Level Ancestor Problem simpli#ed", 122, 186, 405, 202, 15.3),
                    line("Michael A. Bender, Martin Farach-Colton", 145, 211, 379, 226, 10.7), *BODY)
    assert paper_record({}, elsevier, "level-ancestor-simplified.pdf").title == "The Level Ancestor Problem simplified"
    schorre = page(line("META II", 267, 42, 302, 50, 8.3),
                   line("A SYNTAX-ORIER'A'~u COMPILER WRITING LANGUAGE", 188, 56, 387, 64, 8.3),
                   line("D. V. Schorre", 253, 75, 312, 83, 8.3),
                   line("UCLA Computi~ Facility", 230, 84, 336, 92, 8.3), *BODY)
    title = paper_record({}, schorre, "Schorre-META-II_A_Syntax-oriented_Compiler_Writing_Language.pdf").title
    assert title is not None and "SYNTAX-ORIENTED COMPILER" in title


def test_a_title_word_read_cleanly_keeps_its_own_spelling_whatever_the_file_name() -> None:
    """Words a page prints as they are keep their spelling whatever the file's name:
    "OpenRAN" and "HyperCard" (pieces that are words), "PostgreSQL" ("postgres" its prefix), "Network(RNN)" (the bracket a word of its own),
    "McCarthy's" (its "'s" kept)."""
    for printed, named in [("6G-XSec: Explainable Edge Security for Emerging OpenRAN Architectures",
                            "6G-XSec_Edge_Security_ORAN.pdf"),
                           ("The Design of the HyperCard System", "design-hypertext-system.pdf"),
                           ("The Design of PostgreSQL", "the-design-of-postgres.pdf"),
                           ("Text Classification with Recurrent Neural Network(RNN) Models",
                            "text-classification-recurrent-neural-networks.pdf"),
                           ("McCarthy's LISP and the Lambda Calculus", "maccarthy-lisp-lambda-calculus.pdf")]:
        first = page(line(printed, 100, 100, 500, 118, 17.0), line("Ada Lovelace", 250, 130, 350, 142, 11.0), *BODY)
        assert paper_record({}, first, named).title == printed


def test_a_dagger_read_as_a_letter_after_a_surname_in_capitals_is_dropped() -> None:
    """Licklider's "J. C. R. LICKLIDERt": the footnote's dagger read as a "t"."""
    first = page(line("Man-Computer Symbiosis*", 192, 84, 423, 111, 21.3),
                 line("J. C. R. LICKLIDERt", 253, 116, 360, 129, 13.0), *BODY)
    assert paper_record({}, first).authors == ["J. C. R. Licklider"]


TWELVE = [line("Interesting work is being done in programming computers to solve problems which", 111,
               409 + 14 * i, 499, 421 + 14 * i, 12.0) for i in range(20)]


def test_one_authors_name_set_a_little_larger_than_the_title_over_it_is_no_title() -> None:
    """McCarthy's "PROGRAMS WITH COMMON SENSE" at 14.9 pt over "John McCarthy" at 15.5, his
    department under it; and the first section's heading, set larger still, is no title ("1
    INTRODUCTION: THE FRUITFLY ON" of his chess paper)."""
    head = [line("John McCarthy", 238, 210, 372, 225, 15.5),
            line("Computer Science Department", 211, 229, 399, 243, 14.4),
            line("Stanford University", 245, 247, 365, 261, 14.4),
            line("jmc@cs.stanford.edu", 235, 283, 375, 297, 13.2), line("1959", 291, 328, 319, 342, 14.4)]
    common = page(line("PROGRAMS WITH COMMON SENSE", 135, 171, 475, 186, 14.9), *head,
                  line("1 Introduction", 111, 379, 246, 395, 15.5), *TWELVE)
    record = paper_record({}, common)
    assert (record.title, record.authors, record.year) == ("Programs with Common Sense", ["John McCarthy"], 1959)
    chess = page(line("CHESS AS THE DROSOPHILA OF AI", 137, 171, 473, 186, 14.9), *head,
                 line("1 INTRODUCTION: THE FRUITFLY ON", 111, 379, 420, 397, 17.2), *TWELVE)
    assert (paper_record({}, chess).title or "").lower() == "chess as the drosophila of ai"
    # a short title read as a name under a kicker, with its author under it, stays the title;
    # so does a name after "with" (an interview's)
    kicker = page(line("RESEARCH CONTRIBUTIONS", 200, 90, 400, 105, 15.0), line("Virtual Time", 220, 110, 390, 127, 17.0),
                  line("Leslie Lamport", 250, 150, 350, 162, 11.0), *BODY)
    assert paper_record({}, kicker).title == "Virtual Time"
    talk = page(line("A Conversation with", 200, 100, 400, 116, 15.0), line("John Backus", 220, 120, 390, 138, 17.0),
                line("IBM Research", 250, 142, 350, 154, 11.0), *BODY)
    assert paper_record({}, talk).title != "A Conversation with"
    alone = page(line("Alan Turing", 200, 100, 400, 130, 30.0), line("by Andrew Hodges", 250, 140, 350, 152, 11.0), *BODY)
    assert paper_record({}, alone).title == "Alan Turing"


def test_a_year_alone_under_the_authors_address_low_on_a_cover_is_its_date() -> None:
    """Moore's "Forth - The Early Years": "Chuck Moore" / "chipchuck@colorforth.com" / "1991"
    two thirds down the page."""
    first = PageText(number=1, width=420, height=595, lines=[
        line("Forth - The Early Years", 55, 47, 365, 71, 23.3), line("Chuck Moore", 43, 511, 121, 522, 11.7),
        line("chipchuck@colorforth.com", 43, 525, 202, 537, 11.7), line("1991", 43, 540, 73, 551, 11.7)])
    assert paper_record({}, first).year == 1991


def test_the_pdf_title_agrees_only_through_the_words_of_the_pages_title_not_an_affiliations() -> None:
    """The Charles Babbage Institute's /Title "Oral History Interview with Keith Uncapher";
    the page prints "An Interview with" / "KEITH UNCAPHER", and "History" only in "The
    Center for the History of Information Processing"."""
    first = page(line("An Interview with", 270, 175, 342, 186, 11.3), line("KEITH UNCAPHER", 266, 209, 346, 220, 11.3),
                 line("OH 174", 291, 242, 321, 254, 11.3), line("Conducted by Arthur L. Norberg", 240, 377, 370, 389, 11.3),
                 line("on", 301, 400, 311, 411, 11.3), line("10 July 1989", 282, 422, 330, 434, 11.3),
                 line("Los Angeles, CA", 272, 445, 340, 456, 11.3),
                 line("Charles Babbage Institute", 254, 569, 358, 580, 11.3),
                 line("The Center for the History of Information Processing", 200, 580, 411, 591, 11.3),
                 line("University of Minnesota, Minneapolis", 230, 591, 381, 602, 11.3),
                 line("Copyright, Charles Babbage Institute", 232, 614, 380, 625, 11.3))
    record = paper_record({"Title": "Oral History Interview with Keith Uncapher"}, first)
    assert record.title == "An Interview with KEITH UNCAPHER"
    assert record.authors == ["Arthur L. Norberg"] and record.year == 1989
    # a subtitle the field names, printed under the byline's affiliation, still agrees
    subtitled = page(line("Protection of Information", 150, 80, 460, 98, 16.0), line("in Computations", 200, 100, 410, 118, 16.0),
                     line("Ada Lovelace", 250, 140, 350, 152, 12.0), line("University of London", 240, 155, 360, 167, 11.0),
                     line("A Technical Note on Protection", 220, 200, 390, 212, 12.0), *BODY)
    title = "Protection of Information in Computations: A Technical Note on Protection"
    assert paper_record({"Title": title}, subtitled).title == title


def test_a_footnotes_number_read_as_a_word_after_the_title_is_dropped() -> None:
    """LOCUS's "The LOCUS Distributed Operating System I", its footnote "1 This research was
    supported by …" at the foot; "Part I" stays, and so does an "I" with no footnote."""
    note = line("1 This research was supported by the Advanced Research", 41, 466, 274, 477, 10.5)
    locus = page(line("The LOCUS Distributed Operating System I", 137, 73, 444, 88, 14.5),
                 line("Bruce Walker, Gerald Popek, Robert English, Charles Kline and Greg Thiel 2", 88, 108, 494, 122, 14.5),
                 line("University of California at Los Angeles", 188, 132, 392, 146, 14.5), *BODY, note)
    record = paper_record({}, locus)
    assert record.title == "The LOCUS Distributed Operating System"
    assert record.authors == ["Bruce Walker", "Gerald Popek", "Robert English", "Charles Kline", "Greg Thiel"]
    part = page(line("Recursive Functions of Symbolic Expressions, Part I", 100, 73, 500, 88, 14.5),
                line("John McCarthy", 250, 108, 350, 122, 12.0), *BODY, note)
    assert paper_record({}, part).title == "Recursive Functions of Symbolic Expressions, Part I"
    alone = page(line("The LOCUS Distributed Operating System I", 137, 73, 444, 88, 14.5),
                 line("Bruce Walker", 250, 108, 350, 122, 12.0), *BODY)
    assert paper_record({}, alone).title == "The LOCUS Distributed Operating System I"
    heading = line("1 Introduction", 72, 600, 200, 612, 12.0)  # a section's heading is no footnote
    for title in ("The Harvard Mark I", "The ILLIAC I", "Lecture 1", "SemEval Task 1"):
        first = page(line(title, 137, 73, 444, 88, 16.0), line("Ada Lovelace", 250, 108, 350, 122, 12.0), *BODY, heading)
        assert paper_record({}, first).title == title


def test_prose_under_the_byline_ends_it_but_prose_beside_a_sidebar_of_names_does_not() -> None:
    """Weisbecker: the abstract in a narrow column under "J. Weisbecker", then the body's
    run-in heading "SCALE INTEGRATION" (read as a second author). Brainwave's names wrap in
    a column of their own beside the article's first lines: all of them are read."""
    abstract = [line(text, 23, 144 + 11 * i, 355, 152 + 11 * i, 7.9) for i, text in enumerate([
        "In 20 years computer hardware has become increasingly complex, languages more",
        "devious, and operating systems less efficient. Now, microcomputers afford the opportunity",
        "to return to simpler systems. Inexpensive, LSI microcomputers could open up vast new",
        "markets. Unfortunately, development of these markets may be delayed by undue"])]
    weisbecker = page(line("Simplifying microcomputer", 22, 55, 302, 78, 23.4),
                      line("• architecture", 7, 82, 143, 105, 23.4), line("J. Weisbecker", 22, 111, 96, 123, 10.4),
                      *abstract, line("SCALE INTEGRATION", 73, 267, 140, 276, 9.0),
                      line("(LSI) of semiconductor devices has finally", 23, 278, 200, 287, 9.0))
    record = paper_record({}, weisbecker)
    assert record.title == "Simplifying microcomputer architecture"
    assert record.authors == ["J. Weisbecker"]
    names = ["Eric Chung, Jeremy", "Fowers, Kalin Ovtcharov,", "Michael Papamichael,", "Adrian Caulfield, Todd",
             "Massengill, Ming Liu,", "Daniel Lo, Shlomi Alkalay,", "Michael Haselman, Maleen",
             "Abeydeera, Logan Adams,", "Hari Angepat, Christian", "Boehn, Derek Chiou, Oren",
             "Firestein, Alessandro Forin,", "Kang Su Gatlin, Mahdi", "Ghandi, Stephen Heil, Kyle",
             "Holohan, Ahmad El", "Husseini, Tamas Juhasz,", "Kara Kagi, Ratna K.", "Kovvuri, Sitaram Lanka,",
             "Friedel van Megen, Dima", "Mukhortov, Prerak Patel,", "Brandon Perez, Amanda",
             "Grace Rapsang, Steven K.", "Reinhardt, Bita Darvish", "Rouhani, Adam Sapek,"]
    prose = ["To meet the computational demands required of deep", "learning, cloud operators are turning toward",
             "specialized hardware for improved efficiency and", "performance. Project Brainwave, Microsoft's principal",
             "infrastructure for AI serving in real time, accelerates", "deep neural network (DNN) inferencing in major",
             "services such as Bing's intelligent search features", "and Azure. Exploiting distributed model parallelism",
             "and pinning over low-latency hardware microservices,", "Project Brainwave serves state-of-the-art, pre-trained",
             "DNN models with high efficiencies at low batch sizes."]
    sidebar = PageText(number=1, width=567, height=774, lines=[
        line("THEME ARTICLE: Hot Chips", 108, 105, 237, 116, 11.2), line("Serving DNNs in Real", 108, 175, 429, 212, 36.8),
        line("Time at Datacenter Scale", 108, 216, 480, 253, 36.8), line("with Project Brainwave", 108, 257, 442, 294, 36.8),
        *(line(text, 108, 338 + 10.35 * i, 210, 348 + 10.35 * i, 10.0) for i, text in enumerate(names)),
        *(line(text, 244, 339 + 15.5 * i, 456, 349 + 15.5 * i, 10.0) for i, text in enumerate(prose))])
    assert "Bita Darvish" in paper_record({}, sidebar).authors
    rows = page(line("A Study of Coin Tosses", 150, 100, 460, 120, 18.0),
                line("Alice Smith      Bob Jones", 180, 140, 430, 152, 12.0, ["Alice Smith", "Bob Jones"]),
                line("the first two authors are listed in the order of a coin toss", 180, 156, 430, 165, 9.0),
                line("Carol White      Dan Brown", 180, 170, 430, 182, 12.0, ["Carol White", "Dan Brown"]), *BODY)
    assert paper_record({}, rows).authors == ["Alice Smith", "Bob Jones", "Carol White", "Dan Brown"]


def test_years_a_copyright_range_a_volume_line_and_a_journal_note_give() -> None:
    """Apache's "Copyright © 2008-2013" dates this version 2013; Foundations and Trends'
    "Vol. 8, No. 1-2 (2016) 1–130" is the volume's year over the "◯c 2017" under it; "in:
    Philosophy of Science, 10(1943), S. 18–24." under the byline is the venue's year."""
    apache = page(line("ZooKeeper Internals", 90, 129, 322, 158, 28.5), line("by", 90, 222, 102, 234, 11.9), *BODY,
                  line("Copyright © 2008-2013 The Apache Software Foundation. All rights reserved.", 178, 689, 452, 699, 9.4))
    assert paper_record({}, apache).year == 2013
    fnt = page(line("Foundations and Trends^(◯R) in Databases", 144, 171, 292, 180, 7.0),
               line("Vol. 8, No. 1-2 (2016) 1–130", 144, 182, 248, 190, 7.0),
               line("◯c 2017 F. Faerber, A. Kemper, P. Å Larson,", 144, 191, 312, 200, 7.0),
               line("J. Levandoski, T. Neumann, and A. Pavlo", 156, 202, 312, 210, 7.0),
               line("DOI: 10.1561/1900000058", 144, 212, 239, 220, 7.0),
               line("Main Memory Database Systems", 198, 300, 424, 314, 13.3),
               line("Franz Faerber Alfons Kemper", 187, 349, 413, 359, 9.6), *BODY)
    assert paper_record({}, fnt).year == 2016
    wiener = page(line("Behavior, Purpose and Teleology", 170, 97, 442, 114, 16.8),
                  line("Arturo Rosenblueth, Norbert Wiener and Julian Bigelow", 142, 136, 470, 148, 11.7),
                  line("in: Philosophy of Science, 10(1943), S. 18–24.", 174, 160, 439, 171, 11.7), *BODY)
    assert paper_record({}, wiener).year == 1943


def test_a_decade_another_works_volume_and_an_earlier_books_number_are_no_year() -> None:
    """"Network (CODASYL): 1970’s" (Stonebraker and Hellerstein's survey), a footnote citing
    "Monatshefte Math. Phys., 38 (1931), 173-198." (Turing's), "A derivative of Programming
    in Modula-2 (1982)" under the Oberon book's title."""
    decades = page(line("What Goes Around Comes Around", 150, 100, 460, 118, 17.0),
                   line("Michael Stonebraker Joseph M. Hellerstein", 180, 140, 430, 152, 12.0),
                   *(line(text, 90, 200 + 14 * i, 520, 211 + 14 * i, 11.0) for i, text in enumerate([
                       "Unfortunately, the main proposal in the current XML era bears a striking resemblance to",
                       "the CODASYL proposal from the early 1970’s, which failed because of its complexity.",
                       "Hence, the current era is replaying history, and “what goes around comes around”."])), *BODY)
    assert paper_record({}, decades).year is None
    cited = page(line("On Computable Numbers", 150, 100, 460, 118, 17.0), line("A. M. Turing", 250, 140, 350, 152, 12.0),
                 *BODY, line("‡ Gödel, „Über formal unentscheidbare Sätze der Principia Mathematica und", 57, 610, 500, 620, 10.0),
                 line("•verwandter Systeme, I\". Monatshefte Math. Phys., 38 (1931), 173-198.", 57, 622, 500, 632, 10.0))
    assert paper_record({}, cited).year is None
    oberon = page(line("Programming in Oberon", 150, 100, 460, 130, 24.0), line("A derivative of Programming in Modula-2 (1982)", 170, 140, 440, 152, 12.0),
                  line("Niklaus Wirth", 250, 180, 350, 192, 12.0), *BODY)
    assert paper_record({}, oberon).year is None


def test_a_magazines_issue_up_the_pages_side_dates_it_but_a_rotated_caption_does_not() -> None:
    """Tesler's column: "interactions July + August 2012" up the margin; a figure set
    sideways whose caption says "… since June 2005." dates the data, not the paper."""
    lines = [line("A Personal History of Modeless", 107, 184, 500, 213, 31.5),
             line("Text Editing and Cut/Copy-Paste", 107, 214, 500, 243, 31.5),
             line("Larry Tesler", 131, 255, 220, 268, 13.2), *BODY]
    column = PageText(number=1, width=612, height=792, lines=lines, margin="interactions July + August 2012")
    assert paper_record({}, column).year == 2012
    caption = ("Different aspects of Facebook growth: the number of engineers, their activity and the codebase. "
               "The data was extracted from the Web front-end git repository, with 360,000 commits since June 2005.")
    figure = PageText(number=1, width=612, height=792, lines=lines, margin=caption)
    assert paper_record({}, figure).year is None


def test_an_inria_reports_cover_reads_its_title_and_authors() -> None:
    """INRIA's cover: "Rapport de recherche" in large type (its R a picture: "apport" /
    "de recherche"), the authors between spaced dashes, "Let,ia" (ț drawn as a t and a comma),
    "Thème COM" under the number and the date."""
    first = PageText(number=1, width=595, height=842, lines=[
        line("INSTITUT NATIONAL DE RECHERCHE EN INFORMATIQUE ET EN AUTOMATIQUE", 112, 147, 484, 156, 8.9),
        line("CRDTs: Consistency without concurrency control", 85, 209, 511, 227, 18.5),
        line("Mihai Let,ia — Nuno Preguiça — Marc Shapiro", 177, 268, 418, 279, 10.7),
        line("N° 6956", 272, 437, 323, 450, 13.4), line("Juin 2009", 274, 464, 321, 475, 10.7),
        line("Thème COM", 271, 496, 328, 506, 9.4), line("apport", 232, 612, 307, 640, 28.2),
        line("de recherche", 234, 637, 383, 665, 28.2)])
    record = paper_record({}, first)
    assert record.title == "CRDTs: Consistency without concurrency control"
    assert record.authors == ["Mihai Letia", "Nuno Preguiça", "Marc Shapiro"] and record.year == 2009


def test_a_degrees_line_under_a_theses_author_is_no_name() -> None:
    """Shen's thesis: "B.A.Sc., East China University of Science and Technology, 1989" under
    "Wei Shen" (read as an author "B.A. Sc" once its text layer's "Univers,ity" was mended)."""
    first = page(line("BGP ROUTE FLAP DAMPING ALGORITHMS", 167, 131, 450, 150, 18.6),
                 line("Wei Shen", 308, 197, 380, 212, 16.6),
                 line("B.Sc., University of British Columbia, 2002", 213, 213, 480, 228, 16.6),
                 line("B.A.Sc., East China University of Science and Technology, 1989", 153, 229, 520, 244, 16.6),
                 line("THESIS SUBMITTED IN PARTIAL FULFILLMENT OF", 169, 292, 470, 308, 16.6))
    assert paper_record({}, first).authors == ["Wei Shen"]
    # initials that spell a degree are a person's: "B. A. Smith", "M.S. Lee"
    initials = page(line("A Study of Initials", 150, 100, 460, 120, 18.0),
                    line("B. A. Smith, M.S. Lee", 200, 140, 420, 152, 12.0), *BODY)
    assert paper_record({}, initials).authors == ["B. A. Smith", "M.S. Lee"]


def test_an_archives_sheet_before_a_scanned_document_is_a_cover() -> None:
    """Hagley Museum's sheet: "The following “Microprocessor Manual System 00” by Joseph A.
    Weisbecker was provided courtesy of Hagley Museum and Library": the record is read from
    the page after it."""
    sheet = page(line("The following “Microprocessor Manual System 00” by Joseph A. Weisbecker was provided",
                      72, 190, 540, 202, 11.0),
                 line("courtesy of Hagley Museum and Library (http://www.hagley.org).", 72, 203, 400, 215, 11.0),
                 line("Title Microprocessor Manual System 00", 117, 365, 400, 376, 10.0))
    assert cover_sheet(sheet)
    own = page(line("Microprocessor Manual", 150, 100, 460, 130, 24.0), line("System 00", 250, 140, 360, 170, 24.0),
               line("Joseph A. Weisbecker", 240, 200, 380, 212, 12.0), *BODY)
    record = paper_record({}, sheet, "Weisbecker-System-00-Manual.pdf", own)
    assert record.title == "Microprocessor Manual System 00" and record.authors == ["Joseph A. Weisbecker"]


def test_the_second_reads_pages_for_the_dev19_rules() -> None:
    """Pages a reviewer built against this round's rules, each read right."""
    dashed = page(line("Cache Coherence – Directory Protocols", 120, 100, 490, 120, 18.0),
                  line("Rodney Brooks", 250, 140, 350, 152, 12.0), line("MIT AI Lab", 260, 155, 340, 167, 11.0), *BODY)
    record = paper_record({}, dashed)
    assert (record.title, record.authors) == ("Cache Coherence – Directory Protocols", ["Rodney Brooks"])
    algol = page(line("A Compiler for Algol", 150, 100, 460, 120, 18.0), line("Ada Lovelace", 250, 140, 350, 152, 12.0),
                 line("We describe a compiler for Algol 60 (1960) written in itself for a small machine.", 72, 170, 540, 181, 10.0),
                 *BODY)
    assert paper_record({}, algol).year is None
    venue = [line("A Paper on a HAL Stamp", 150, 100, 460, 120, 18.0), line("Ada Lovelace", 250, 140, 350, 152, 12.0),
             line("Proceedings of the Workshop on Stamps, 2005", 150, 160, 460, 171, 10.0), *BODY]
    for margin in ("hal-00396915, version 1 - 19 Jun 2009", "Jan 2015 Jan 2016 Jan 2017 Traffic (Gbps)"):
        stamped = PageText(number=1, width=612, height=792, lines=venue, margin=margin)
        assert paper_record({}, stamped).year == 2005
    prose = page(line("A Paper With Reviewers", 150, 100, 460, 120, 18.0), line("Ada Lovelace", 250, 140, 350, 152, 12.0),
                 line("the following example was provided by one of the reviewers, and we thank them", 72, 170, 540, 181, 10.0),
                 *BODY)
    assert not cover_sheet(prose)
    dated = page(line("PROGRAMS WITH COMMON SENSE", 135, 171, 475, 186, 14.9), line("John McCarthy", 238, 210, 372, 225, 15.5),
                 line("March 1959", 260, 229, 350, 243, 14.4), line("1 Introduction", 111, 379, 246, 395, 15.5), *TWELVE)
    record = paper_record({}, dated)
    assert (record.title, record.authors) == ("Programs with Common Sense", ["John McCarthy"])
    marks = page(line("A Paper With Marks", 150, 100, 460, 120, 18.0),
                 line("John Smitha,b, Mary Jonesa,c", 200, 140, 420, 152, 12.0), *BODY)
    assert not any(name.endswith(("Smithab", "Jonesac")) for name in paper_record({}, marks).authors)


def test_a_projects_name_with_an_at_sign_is_a_title_not_an_address() -> None:
    """"SETI@home" has no host after its "@": the title line is no e-mail line, while the
    address under the names still stays out of the title and the byline."""
    seti = page(line("SETI@home: An Experiment in Public-Resource Computing", 100, 100, 500, 120, 18.0),
                line("David P. Anderson, Jeff Cobb, Eric Korpela", 180, 140, 420, 152, 12.0),
                line("davea@ssl.berkeley.edu", 240, 155, 360, 167, 11.0), *BODY)
    record = paper_record({}, seti)
    assert (record.title, record.authors) == ("SETI@home: An Experiment in Public-Resource Computing",
                                              ["David P. Anderson", "Jeff Cobb", "Eric Korpela"])
    wrapped = page(line("Lessons from Ten Years of", 150, 100, 450, 120, 18.0),
                   line("Folding@home", 230, 124, 370, 144, 18.0),
                   line("Vijay S. Pande", 250, 170, 350, 182, 12.0), *BODY)
    assert paper_record({}, wrapped).title == "Lessons from Ten Years of Folding@home"


#: a page's abstract set in 12 pt, as long as a page's so that the page is no short cover
ABSTRACT_12PT = [line(f"We consider notions of security for hash functions, part {i}, and work out how they relate.",
                      99, 283 + 12 * i, 513, 295 + 12 * i, 12.1) for i in range(12)]


def test_a_one_size_pages_title_is_centred_on_the_page_and_ends_its_own_list() -> None:
    """dev20's Rogaway–Shrimpton page, set in one size: its title is centred on the page while
    a venue's note set from the page's edge widens the text's span, and its last line "and
    Collision Resistance" ends the title's list, no byline."""
    one_size = page(
        line("Appears in Fast Software Encryption(FSE 2004), Lecture Notes in Computer Science, Vol. 3017, Springer-Verlag.", 14, 42, 518, 54, 12.1),
        line("This is the full version.", 14, 54, 115, 66, 12.1),
        line("Cryptographic Hash-Function Basics:", 196, 103, 416, 115, 12.0),
        line("Definitions, Implications, and Separations for", 172, 117, 440, 129, 12.0),
        line("Preimage Resistance, Second-Preimage Resistance,", 156, 131, 456, 143, 12.0),
        line("and Collision Resistance", 234, 145, 378, 157, 12.0),
        line("P. Rogaway ∗ T. Shrimpton †", 204, 174, 412, 188, 12.0),
        line("July 16, 2009", 272, 200, 340, 212, 12.0),
        line("Abstract", 284, 265, 328, 277, 11.9),
        *ABSTRACT_12PT,
        line("∗ Dept. of Computer Science, University of California, Davis, California 95616, USA; and Dept. of Computer", 84, 643, 540, 654, 9.0))
    record = paper_record({}, one_size)
    assert record.title == ("Cryptographic Hash-Function Basics: Definitions, Implications, and Separations for "
                            "Preimage Resistance, Second-Preimage Resistance, and Collision Resistance")
    assert record.authors == ["P. Rogaway", "T. Shrimpton"]
    # a version's note centred over the title is none of it, nor is the venue's note over that
    noted = page(*(line("Preliminary version of the full paper", 206, 70, 406, 82, 12.0) if ln.text.startswith("This is")
                   else ln for ln in one_size.lines))
    record = paper_record({}, noted)
    assert record.title is not None and record.title.startswith("Cryptographic Hash-Function Basics")
    assert (record.authors, record.year) == (["P. Rogaway", "T. Shrimpton"], 2004)



def test_an_arrow_or_a_minus_glued_to_a_name_is_a_footnote_mark() -> None:
    """A font without its own encoding prints "∗" as "⇤" and "†" as "−" (dev20's seL4 page,
    "Distributed Time-aware Provenance"): marks, not letters of the name."""
    sel4 = page(line("seL4: Formal Verification of an OS Kernel", 160, 86, 452, 103, 17.2),
                line("Gerwin Klein, Kevin Elphinstone, Gernot Heiser", 169, 118, 441, 130, 12.0),
                line("June Andronick, David Cock, Philip Derrin⇤, Dhammika Elkaduwe‡, Kai Engelhardt", 78, 134, 538, 147, 12.0),
                line("Rafal Kolanski, Michael Norrish, Thomas Sewell, Harvey Tuch†, Simon Winwood", 81, 150, 536, 164, 12.0),
                line("1 NICTA, UNSW,", 189, 167, 290, 180, 12.0), line("Open Kernel Labs, ANU", 303, 168, 439, 180, 12.0),
                line("ertos@nicta.com.au", 264, 182, 363, 194, 12.0), *BODY)
    assert paper_record({}, sel4).authors == [
        "Gerwin Klein", "Kevin Elphinstone", "Gernot Heiser", "June Andronick", "David Cock", "Philip Derrin",
        "Dhammika Elkaduwe", "Kai Engelhardt", "Rafal Kolanski", "Michael Norrish", "Thomas Sewell", "Harvey Tuch",
        "Simon Winwood"]
    grid = page(line("Distributed Time-aware Provenance", 153, 67, 457, 90, 22.5),
                line("Wenchao Zhou−", 146, 114, 230, 128, 14.8), line("Suyog Mapara⇤", 246, 114, 327, 128, 14.8),
                line("Yiqing Ren⇤ Yang Li⇤", 343, 114, 464, 128, 14.8),
                line("Andreas Haeberlen⇤ Zachary Ives⇤", 114, 126, 309, 141, 14.8),
                line("Boon Thau Loo⇤ Micah Sherr−", 325, 126, 495, 141, 14.8),
                line("⇤University of Pennsylvania, Philadelphia, PA", 109, 144, 307, 156, 12.3),
                line("−Georgetown University, Washington, DC", 319, 144, 501, 156, 12.3), *BODY)
    assert paper_record({}, grid).authors == ["Wenchao Zhou", "Suyog Mapara", "Yiqing Ren", "Yang Li",
                                              "Andreas Haeberlen", "Zachary Ives", "Boon Thau Loo", "Micah Sherr"]


def test_a_mark_between_names_set_wide_apart_parts_three_people() -> None:
    """"Pengfei Liu Xipeng Qiu⇤ Xuanjing Huang": the mark read as a comma leaves "Pengfei Liu
    Xipeng Qiu", a name of four words, but the space between the first two names is wider
    than a word space: three people."""
    starts = [187, 194, 200, 206, 212, 216, 222, 225, 228, 236, 239, 246, 261, 269, 273, 279, 285, 291, 297, 300,
              310, 313, 320, 324, 339, 348, 355, 361, 367, 371, 375, 381, 387, 390, 399, 406, 412, 419]
    three = Line(text="Pengfei Liu Xipeng Qiu⇤ Xuanjing Huang", bbox=(187, 129, 425, 144), size=15.6, bold=False,
                 boxes=[(a, 129, b, 144) for a, b in zip(starts, [*starts[1:], 425])],
                 cells=["Pengfei Liu Xipeng Qiu⇤ Xuanjing Huang"])
    ijcai = page(line("Recurrent Neural Network for Text", 197, 88, 415, 107, 18.7),
                 line("Classification with Multi-Task Learning", 184, 104, 428, 123, 18.7), three,
                 line("School of Computer Science, Fudan University", 193, 157, 419, 171, 14.4), *BODY)
    assert paper_record({}, ijcai).authors == ["Pengfei Liu", "Xipeng Qiu", "Xuanjing Huang"]


def test_a_byline_flush_left_under_a_title_set_in_from_the_margin_is_read() -> None:
    """ACM Queue sets the title in from the margin and the byline flush left under its deck
    (dev20's "Idempotence Is Not a Medical Condition")."""
    queue = page(line("WEB DEVELOPMENT", 481, 14, 576, 30, 15.2),
                 line("Idempotence Is Not a", 230, 86, 384, 110, 23.3),
                 line("Medical Condition", 230, 106, 358, 130, 23.3),
                 line("An essential property for reliable systems", 72, 150, 261, 163, 13.8),
                 line("Pat Helland", 72, 180, 124, 193, 13.8),
                 line("The definition of distributed computing can be confusing. Sometimes, it refers to a tightly coupled", 72, 211, 517, 223, 12.1),
                 line("cluster of computers working together to look like one larger computer. More often, however, it refers", 72, 226, 538, 238, 12.1),
                 line("to a bunch of loosely related applications chattering together without a lot of system-level support.", 72, 241, 528, 253, 12.1))
    assert (paper_record({}, queue).title, paper_record({}, queue).authors) == (
        "Idempotence Is Not a Medical Condition", ["Pat Helland"])


def test_a_pdf_title_written_with_html_entities_is_read_as_text() -> None:
    """ACM's TACO writes /Title with HTML's entities ("Doesn&rsquo;t")."""
    taco = page(line("When Prefetching Works, When It Doesn’t, and Why", 109, 85, 403, 99, 14.2),
                line("JAEKYU LEE, HYESOON KIM, and RICHARD VUDUC,", 109, 111, 356, 123, 11.5),
                line("Georgia Institute of Technology", 109, 124, 225, 133, 9.7), *BODY)
    assert paper_record({"Title": "When Prefetching Works, When It Doesn&rsquo;t, and Why"}, taco).title == \
        "When Prefetching Works, When It Doesn’t, and Why"


def _two_columns(y: float, rows: int = 14) -> list[Line]:
    """Prose in two columns from ``y`` down, 10 pt."""
    return [line(f"the method we describe here is applied to the {i}th case of the problem", x0, y + 12 * i, x0 + 228,
                 y + 12 * i + 10, 10.0) for i in range(rows) for x0 in (72, 312)]


def test_a_wide_read_of_the_byline_comes_after_a_byline_over_the_title_and_the_pdfs_author() -> None:
    """The flush-left read is the last way to a byline: a name over the title, or /Author
    agreeing with the page, comes first, and a heading of the body is never read as a name."""
    over = page(line("Per Martin-Löf", 262, 90, 350, 102, 12.0),
                line("Truth of a Proposition", 236, 112, 376, 128, 16.0),
                line("Historical Background", 72, 160, 170, 171, 11.0), *_two_columns(175))
    assert paper_record({}, over).authors == ["Per Martin-Löf"]
    agreeing = page(line("Cache Misses Considered", 226, 100, 386, 116, 16.0),
                    line("A report by Jane Doe", 256, 122, 356, 132, 10.0),
                    line("Related Work", 72, 140, 140, 151, 11.0), *_two_columns(155))
    assert paper_record({"Author": "Jane Doe"}, agreeing).authors == ["Jane Doe"]
    signed = page(line("On Locks", 140, 100, 232, 116, 16.0), line("by the editors", 150, 120, 222, 130, 10.0),
                  line("Robert Morris", 460, 140, 540, 150, 10.0), *_two_columns(155))
    assert paper_record({}, signed).authors == []


def test_an_arrow_set_apart_in_a_title_is_the_titles() -> None:
    """"Source Code → Natural Language": an arrow between words is text, not a footnote mark
    parting two names."""
    arrow = page(line("Neural Program Translation", 190, 100, 422, 120, 18.0),
                 line("Source Code → Natural Language", 220, 126, 392, 138, 12.0),
                 line("John Smith, Mary Jones", 230, 160, 382, 172, 12.0), *BODY)
    assert paper_record({}, arrow).authors == ["John Smith", "Mary Jones"]


def test_only_whole_html_entities_in_a_pdf_field_are_decoded() -> None:
    """"Open&copyleft" holds no entity (it lacks the ";"): it stays as written."""
    printed = page(line("Privacy&security, Space&time and Open&copyleft Licences", 120, 100, 490, 120, 18.0),
                   line("Rodney Brooks", 250, 140, 350, 152, 12.0), *BODY)
    title = "Privacy&security, Space&time and Open&copyleft Licences"
    assert paper_record({"Title": title}, printed).title == title


def test_names_stacked_one_a_line_over_a_smaller_title_are_the_byline() -> None:
    """A book's cover (dev21's "150 Most Frequently Asked Questions on Quant Interviews"):
    three names stacked in a type larger than the title's are its authors, and "Second
    Edition" under the title is neither title nor name."""
    cover = page(line("150 MOST FREQUENTLY ASKED", 191, 218, 378, 228, 8.5), line("QUESTIONS", 250, 236, 319, 247, 8.8),
                 line("ON QUANT INTERVIEWS", 211, 256, 358, 267, 8.5), line("Second Edition", 246, 274, 323, 282, 8.6),
                 line("DAN STEFANICA", 239, 331, 330, 341, 10.1), line("RADOŠ RADOIČIĆ", 235, 347, 334, 357, 10.1),
                 line("TAI-HO WANG", 245, 363, 323, 373, 10.1), line("Baruch College", 251, 397, 318, 406, 6.3),
                 line("City University of New York", 222, 411, 347, 420, 6.3), line("FE Press", 264, 522, 304, 531, 6.3),
                 line("New York", 263, 541, 306, 549, 6.3))
    record = paper_record({}, cover)
    assert (record.title, record.authors) == ("150 Most Frequently Asked Questions on Quant Interviews",
                                              ["Dan Stefanica", "Radoš Radoičić", "Tai-Ho Wang"])


def test_a_nickname_in_quotes_and_a_row_of_one_affiliation_are_read_right() -> None:
    """"Linxi “Jim” Fan" is one person (dev21's Eureka); "OpenAI OpenAI OpenAI OpenAI", a
    grid's row of affiliations under four names, is nobody (GPT's page); "Tao Tao" is a person."""
    eureka = page(line("EUREKA: HUMAN-LEVEL REWARD DESIGN VIA", 108, 82, 458, 97, 12.3),
                  line("CODING LARGE LANGUAGE MODELS", 108, 102, 383, 117, 12.3),
                  line("Yecheng Jason Ma, William Liang, Guanzhi Wang, De-An Huang, Osbert Bastani,", 114, 137, 508, 146, 9.0),
                  line("Dinesh Jayaraman, Yuke Zhu, Linxi “Jim” Fan, Anima Anandkumar", 114, 150, 442, 159, 9.0),
                  line("1 NVIDIA, UPenn, Caltech, UT Austin; Equal advising", 182, 162, 419, 172, 8.9),
                  line("ABSTRACT", 278, 216, 334, 227, 8.6), *BODY)
    assert paper_record({}, eureka).authors[-3:] == ["Yuke Zhu", "Linxi Fan", "Anima Anandkumar"]
    gpt = page(line("Improving Language Understanding", 171, 101, 441, 117, 15.5),
               line("by Generative Pre-Training", 205, 121, 407, 137, 15.5),
               line("Alec Radford Karthik Narasimhan Tim Salimans Ilya Sutskever", 128, 182, 482, 191, 9.0,
                    cells=["Alec Radford", "Karthik Narasimhan", "Tim Salimans", "Ilya Sutskever"]),
               line("OpenAI OpenAI OpenAI OpenAI", 139, 193, 468, 202, 8.9, cells=["OpenAI", "OpenAI", "OpenAI", "OpenAI"]),
               line("alec@openai.com karthikn@openai.com tim@openai.com ilyasu@openai.com", 116, 204, 496, 213, 8.3),
               line("Abstract", 284, 243, 328, 254, 10.7), *BODY)
    assert paper_record({}, gpt).authors == ["Alec Radford", "Karthik Narasimhan", "Tim Salimans", "Ilya Sutskever"]
    tao = page(line("NetTrails: a Declarative Platform for Provenance", 120, 100, 490, 120, 18.0),
               line("Wenchao Zhou, Qiong Fei, Shengzhi Sun, Tao Tao", 170, 140, 440, 152, 12.0), *BODY)
    assert paper_record({}, tao).authors == ["Wenchao Zhou", "Qiong Fei", "Shengzhi Sun", "Tao Tao"]


def _centred(y: float, text: str, size: float = 11.3) -> Line:
    """A typescript's line centred on the page (5.6 pt a character)."""
    half = 2.8 * len(text)
    return line(text, 306 - half, y, 306 + half, y + 11, size)


TYPED = [line(f"The procedure we describe is applied, case {i}, to the problem and the data it is given.",
              72, 330 + 14 * i, 540, 341 + 14 * i, 11.3) for i in range(15)]


def test_the_second_reads_pages_for_the_dev21_rules() -> None:
    """Pages a reviewer built against dev20's and dev21's rules, each read as before them."""
    def title(*texts: str) -> list[Line]:
        return [line(t, 306 - 4.5 * len(t), 100 + 24 * i, 306 + 4.5 * len(t), 120 + 24 * i, 18.0)
                for i, t in enumerate(texts)]
    # a title whose lines read as names, over its byline: no byline stacked under a title
    stacked = page(*title("Denotational Semantics", "Lambda Calculus", "Category Theory"),
                   line("Jane Doe and John Smith", 230, 190, 382, 202, 12.0), *BODY)
    assert (paper_record({}, stacked).title, paper_record({}, stacked).authors) == (
        "Denotational Semantics Lambda Calculus Category Theory", ["Jane Doe", "John Smith"])
    names = page(line("Concurrent Programming", 216, 100, 396, 114, 14.0), line("Jane Doe", 270, 124, 342, 138, 14.0),
                 line("John Smith", 265, 148, 347, 162, 14.0), line("Stanford University", 250, 180, 362, 192, 11.0), *BODY)
    assert (paper_record({}, names).title, paper_record({}, names).authors) == (
        "Concurrent Programming", ["Jane Doe", "John Smith"])
    # a title opening like a version's note is a title
    for first, second in (("The Extended Version Space Algorithm", "for Learning Disjunctions"),
                          ("A Revised Version of the", "Lambda Calculus of Objects")):
        versioned = page(*title(first, second), line("Jane Doe and John Smith", 230, 160, 382, 172, 12.0), *BODY)
        assert paper_record({}, versioned).title == f"{first} {second}"
    # a typescript's title whose first line opens like a banner keeps it; a venue's note over it does not
    for first, second in (("Version Spaces: A Candidate Elimination", "Approach to Rule Learning"),
                          ("Report on the Algorithmic Language", "ALGOL 60 for Small Computers")):
        typescript = page(_centred(90, first), _centred(110, second), _centred(136, "Jane Doe"),
                          _centred(150, "Stanford University"), *TYPED)
        assert paper_record({}, typescript).title == f"{first} {second}"
    noted = page(_centred(70, "Appears in Fast Software Encryption (FSE 2004)"),
                 _centred(90, "Cryptographic Hash-Function Basics: Definitions"), _centred(110, "for Preimage Resistance"),
                 _centred(136, "P. Rogaway"), *TYPED)
    assert paper_record({}, noted).title == "Cryptographic Hash-Function Basics: Definitions for Preimage Resistance"
    # a quoted word in a subtitle is no nickname
    quoted = page(line("Serverless Computing", 200, 100, 412, 120, 20.0),
                  line("Rethinking “Cloud” Economics", 220, 126, 392, 138, 12.0),
                  line("Jane Doe, John Smith", 240, 150, 372, 162, 12.0), *BODY)
    assert (paper_record({}, quoted).title, paper_record({}, quoted).authors) == (
        "Serverless Computing: Rethinking “Cloud” Economics", ["Jane Doe", "John Smith"])
    # a font's arrow set apart from a name, or a minus before a comma, is still a mark
    for byline in ("Philip Derrin ⇤, Kevin Elphinstone ⇤", "⇤Philip Derrin, ⇤Kevin Elphinstone"):
        marked = page(line("seL4: Formal Verification of an OS Kernel", 150, 100, 462, 120, 20.0),
                      line(byline, 150, 130, 462, 142, 12.0), *BODY)
        assert paper_record({}, marked).authors == ["Philip Derrin", "Kevin Elphinstone"]
    minus = page(line("NetTrails: Provenance in Distributed Systems", 150, 100, 462, 120, 20.0),
                 line("Wenchao Zhou −, Qiong Fei", 200, 130, 412, 142, 12.0), *BODY)
    assert paper_record({}, minus).authors == ["Wenchao Zhou", "Qiong Fei"]


def test_a_flush_left_byline_is_read_whatever_the_footer_sets_further_left() -> None:
    """The margin of a flush-left byline is that of the lines close under the title: a
    running foot set further left ("acmqueue | march 2012 1") does not move it."""
    queue = page(line("Idempotence Is Not a", 230, 86, 384, 110, 23.3), line("Medical Condition", 230, 106, 358, 130, 23.3),
                 line("An essential property for reliable systems", 72, 150, 261, 163, 13.8),
                 line("Pat Helland", 72, 180, 124, 193, 13.8),
                 line("The definition of distributed computing can be confusing. Sometimes, it refers to a tightly coupled", 72, 211, 517, 223, 12.1),
                 line("cluster of computers working together to look like one larger computer. More often, however, it refers", 72, 226, 538, 238, 12.1),
                 line("acmqueue | march 2012  1", 36, 750, 200, 760, 8.0))
    assert paper_record({}, queue).authors == ["Pat Helland"]


def test_dev22s_classes_are_read_right() -> None:
    """dev22: a working group's banner over a specification's title; a subject's words in
    capitals are no names; "(Graduate Student Member, IEEE)" after a name; a word the title
    breaks with a hyphen is one word when the page prints it whole."""
    spec = page(line("O-RAN.WG11.TR.Threat-Modeling.O-R004-v05.00", 229, 83, 547, 96, 13.2),
                line("Technical Report", 487, 110, 564, 119, 9.3),
                line("O-RAN Work Group 11 (Security Work Group)", 172, 356, 541, 373, 16.0),
                line("O-RAN Security Threat Modeling and Risk Assessment", 97, 396, 541, 412, 16.0),
                line("Copyright © 2025 by the O-RAN ALLIANCE e.V.", 41, 694, 227, 702, 8.2))
    record = paper_record({}, spec)
    assert (record.title, record.authors, record.year) == ("O-RAN Security Threat Modeling and Risk Assessment", [], 2025)
    ieee = page(line("Security Threats to xApps Access Control", 89, 108, 487, 127, 18.4),
                line("and E2 Interface in O-RAN", 164, 130, 412, 149, 18.4),
                line("CHENG-FENG HUNG (Graduate Student Member, IEEE), YOU-RUN CHEN,", 111, 158, 465, 167, 9.2),
                line("CHI-HENG TSENG, AND SHIN-MING CHENG (Member, IEEE)", 142, 171, 434, 180, 9.2), *BODY)
    assert paper_record({}, ieee).authors == ["Cheng-Feng Hung", "You-Run Chen", "Chi-Heng Tseng", "Shin-Ming Cheng"]
    iclr = page(line("Published as a conference paper at ICLR 2018", 108, 29, 293, 38, 8.9),
                line("QANET: COMBINING LOCAL CONVOLUTION WITH", 108, 82, 504, 97, 12.3),
                line("GLOBAL SELF-ATTENTION FOR READING COMPRE-", 108, 102, 504, 117, 12.3),
                line("HENSION", 108, 124, 174, 136, 12.3),
                line("Adams Wei Yu, David Dohan, Minh-Thang Luong", 114, 158, 339, 167, 9.0),
                line("{weiyu}@cs.cmu.edu, {ddohan,thangluong}@google.com", 114, 168, 402, 178, 7.7),
                line("1 Carnegie Mellon University, Google Brain", 114, 178, 292, 189, 8.9),
                line("Rui Zhao, Kai Chen, Mohammad Norouzi, Quoc V. Le", 114, 202, 345, 211, 9.0),
                line("Google Brain", 114, 213, 168, 222, 8.9), line("ABSTRACT", 278, 253, 334, 264, 8.6),
                line("A model for machine reading comprehension that is fast and accurate, as we show here.", 144, 276, 468, 285, 8.9),
                *BODY)
    assert paper_record({}, iclr).title == \
        "Qanet: Combining Local Convolution with Global Self-attention for Reading Comprehension"
    # a compound the page never prints whole keeps its hyphen
    compound = page(line("Learning to Rank with Self-", 150, 100, 460, 120, 18.0), line("Supervision", 250, 122, 360, 142, 18.0),
                    line("Jane Doe", 270, 160, 340, 172, 12.0), *BODY)
    assert paper_record({}, compound).title == "Learning to Rank with Self-Supervision"
    white = page(line("A Brief Look at O-RAN Security", 100, 100, 500, 124, 22.0),
                 line("White Paper", 100, 130, 200, 142, 12.0), *BODY)
    assert paper_record({}, white).authors == []
    two = page(line("Improving Language Understanding", 171, 101, 441, 117, 15.5),
               line("Alec Radford   Karthik Narasimhan", 128, 182, 482, 191, 9.0, cells=["Alec Radford", "Karthik Narasimhan"]),
               line("OpenAI   OpenAI", 139, 193, 468, 202, 8.9, cells=["OpenAI", "OpenAI"]), *BODY)
    assert paper_record({}, two).authors == ["Alec Radford", "Karthik Narasimhan"]


def test_the_second_reads_pages_for_the_dev22_rules() -> None:
    """Pages a reviewer built against dev22's rules, each read as before them."""
    # a subject's word in one name of a list does not refuse the byline (Deepesh Data; Mitchell
    # L. Model), while a line of subject words alone is no byline
    data = page(line("Data Encoding for Byzantine-Resilient", 150, 100, 460, 120, 18.0),
                line("Distributed Optimization", 200, 124, 410, 144, 18.0),
                line("Deepesh Data, Linqi Song, and Suhas Diggavi", 190, 170, 420, 182, 12.0), *BODY)
    assert paper_record({}, data).authors == ["Deepesh Data", "Linqi Song", "Suhas Diggavi"]
    model = page(line("Bioinformatics Programming Using Python", 150, 100, 460, 120, 18.0),
                 line("Mitchell L. Model", 250, 140, 360, 152, 12.0), *BODY)
    assert paper_record({}, model).authors == ["Mitchell L. Model"]
    heading = page(line("Cellular Networks Under Attack", 150, 100, 460, 120, 18.0),
                   line("Security Analysis", 250, 126, 360, 138, 12.0),
                   line("Jane Doe and John Smith", 230, 160, 382, 172, 12.0), *BODY)
    assert paper_record({}, heading).authors == ["Jane Doe", "John Smith"]
    # a short banner over a typescript's title is none of it; a title's first line opening
    # "Report 9:" is the title's
    for banner in ("EXTENDED ABSTRACT", "Technical Report"):
        typed = page(_centred(70, banner), _centred(90, "Cryptographic Hash-Function Basics: Definitions"),
                     _centred(110, "for Preimage Resistance"), _centred(136, "P. Rogaway"), *TYPED)
        assert paper_record({}, typed).title == "Cryptographic Hash-Function Basics: Definitions for Preimage Resistance"
    report = page(line("Report 9: Impact of non-pharmaceutical interventions", 100, 100, 510, 118, 18.0),
                  line("(NPIs) to reduce COVID-19 mortality and", 130, 130, 480, 148, 18.0),
                  line("healthcare demand", 230, 160, 380, 178, 18.0),
                  line("Neil M Ferguson, Daniel Laydon, Gemma Nedjati-Gilani", 150, 200, 460, 212, 12.0), *BODY)
    assert paper_record({}, report).title == ("Impact of non-pharmaceutical interventions (NPIs) "  # the report's
                                              "to reduce COVID-19 mortality and healthcare demand")  # number apart
    # a hyphen before a capital is a real one, however the page spells the word elsewhere
    multi = page(line("Multi-Agent Systems Meet Multi-", 150, 100, 460, 120, 18.0),
                 line("Agent Reinforcement Learning", 180, 122, 430, 142, 18.0),
                 line("Jane Doe", 270, 160, 340, 172, 12.0),
                 line("We study multiagent learning and nonblocking queues in this paper at length.", 72, 300, 540, 311, 10.0),
                 *BODY)
    assert paper_record({}, multi).title == "Multi-Agent Systems Meet Multi-Agent Reinforcement Learning"


def test_dev23s_classes_are_read_right() -> None:
    """dev23: a byline "By Vitalik Buterin (2014)." under the title in its type is the byline
    and dates the paper; JMLR's second author, whose e-mail in smaller type sets the line's
    size; a display title in six lines; a year set under a title as large is no title line;
    a university portal's cover sheet (Pure: "Citation for published version")."""
    ethereum = page(line("Ethereum: A Next-Generation Smart Contract and Decentralized Application Platform.", 105, 98, 422, 108, 9.6),
                    line("By Vitalik Buterin (2014).", 105, 109, 198, 118, 9.6),
                    line("When Satoshi Nakamoto first set the Bitcoin blockchain into motion in January 2009, he was", 136, 175, 518, 185, 9.8),
                    line("simultaneously introducing two radical and untested concepts. The first is the bitcoin, a", 105, 195, 516, 204, 9.8),
                    line("peer-to-peer online currency that maintains a value without any backing, intrinsic value or", 105, 214, 514, 224, 9.8),
                    line("far, the bitcoin as a currency unit has taken up the bulk of the public attention, both in", 105, 234, 520, 243, 9.8))
    record = paper_record({}, ethereum)
    assert (record.title, record.authors, record.year) == (
        "Ethereum: A Next-Generation Smart Contract and Decentralized Application Platform", ["Vitalik Buterin"], 2014)
    jmlr = page(line("Journal of Machine Learning Research 9 (2008) 2579-2605 Submitted 5/08; Revised 9/08; Published 11/08", 90, 41, 522, 50, 9.0),
                line("Visualizing Data using t-SNE", 217, 100, 395, 116, 16.3),
                line("Laurens van der Maaten LVDMAATEN@GMAIL.COM", 90, 134, 522, 147, 11.8,
                     cells=["Laurens van der Maaten", "LVDMAATEN@GMAIL.COM"]),
                line("TiCC", 90, 147, 111, 158, 11.1), line("Tilburg University", 90, 159, 163, 170, 11.1),
                line("P.O. Box 90153, 5000 LE Tilburg, The Netherlands", 90, 171, 293, 182, 11.1),
                line("Geoffrey Hinton HINTON@CS.TORONTO.EDU", 90, 189, 522, 202, 9.0,
                     cells=["Geoffrey Hinton", "HINTON@CS.TORONTO.EDU"]),
                line("Department of Computer Science", 90, 204, 223, 215, 11.1),
                line("University of Toronto", 90, 216, 190, 227, 11.1), *BODY)
    assert paper_record({}, jmlr).authors == ["Laurens van der Maaten", "Geoffrey Hinton"]
    display = page(line("practice", 14, 14, 190, 68, 54.1), line("By Pat Helland", 42, 220, 128, 232, 7.2),
                   *[line(t, 39, 238 + 47 * i, 39 + 30 * len(t), 297 + 47 * i, 59.0) for i, t in enumerate(
                       ["If You Have", "Too Much", "Data, then", "‘Good Enough’", "Is Good", "Enough"])], *BODY)
    assert paper_record({}, display).title == "If You Have Too Much Data, then ‘Good Enough’ Is Good Enough"
    manual = page(line("INTEL 80386 PROGRAMMER'S", 158, 190, 475, 208, 18.4),
                  line("REFERENCE MANUAL", 108, 213, 526, 231, 18.4), line("1986", 288, 240, 346, 258, 18.4), *BODY)
    assert paper_record({}, manual).title == "Intel 80386 Programmer's Reference Manual"
    portal = page(line("Edinburgh Research Explorer", 57, 162, 271, 178, 16.4), line("SpotLight", 57, 213, 132, 232, 19.0),
                  line("Citation for published version:", 57, 265, 202, 277, 11.9),
                  line("Link to publication record in Edinburgh Research Explorer", 57, 391, 313, 402, 11.7))
    assert cover_sheet(portal)


def test_the_second_reads_pages_for_the_dev23_rules() -> None:
    """Pages a reviewer built against dev23's rules, each read as before them, and the rules'
    own cases where nothing else would read them right."""
    # a title's first line opening like a banner, short, is the title's; a report's number is not
    for first, second in (("Version Spaces:", "A Candidate Elimination Approach to Rule Learning"),
                          ("Volume Rendering", "of Scientific Data Sets"),
                          ("Draft Genome Sequence", "of the Honey Bee")):
        typed = page(_centred(90, first), _centred(110, second), _centred(136, "Jane Doe"), *TYPED)
        assert paper_record({}, typed).title == f"{first} {second}"
    numbered = page(_centred(70, "Technical Report No. 1234"), _centred(90, "Cryptographic Hash-Function Basics"),
                    _centred(110, "for Preimage Resistance"), _centred(136, "P. Rogaway"), *TYPED)
    assert paper_record({}, numbered).title == "Cryptographic Hash-Function Basics for Preimage Resistance"
    # a title's last line opening "BY" is the title's
    robot = page(line("ROBOT LEARNING", 220, 100, 392, 118, 18.0), line("BY GRADIENT DESCENT", 200, 122, 412, 140, 18.0),
                 line("Jane Doe", 270, 170, 340, 182, 12.0), *BODY)
    assert (paper_record({}, robot).title, paper_record({}, robot).authors) == (
        "Robot Learning by Gradient Descent", ["Jane Doe"])
    # a subject's words in a line of "names" are a subtitle's, whatever the list
    for subtitle in ("Machine Learning and Data Mining", "Big Data"):
        mined = page(line("Frequent Pattern Mining at Scale", 150, 100, 460, 120, 18.0),
                     line(subtitle, 220, 126, 392, 138, 12.0), line("Jane Doe and John Smith", 230, 160, 382, 172, 12.0),
                     *BODY)
        assert paper_record({}, mined).authors == ["Jane Doe", "John Smith"]
    # a name with a year in brackets dates the page only as its byline ("By …")
    review = page(line("Jane Roe (2009)", 250, 80, 360, 92, 12.0),
                  line("The Art of Computer Programming Reviewed", 150, 100, 460, 120, 18.0),
                  line("John Smith", 270, 140, 340, 152, 12.0), *BODY)
    assert paper_record({}, review).year is None
    # a byline set in the title's own type, right under it
    dated = page(line("Ethereum: A Next-Generation Smart Contract Platform", 105, 98, 500, 114, 16.0),
                 line("By Vitalik Buterin (2014).", 105, 115, 300, 131, 16.0), *BODY)
    record = paper_record({}, dated)
    assert (record.title, record.authors, record.year) == (
        "Ethereum: A Next-Generation Smart Contract Platform", ["Vitalik Buterin"], 2014)
    # a line-break hyphen before a capital stays; a word the title holds twice is left alone
    prose = line("We study nonblocking queues and multiagent teams in this paper, at some length.",
                 72, 300, 540, 311, 10.0)
    blocking = page(line("Practical Non-", 200, 100, 412, 120, 18.0), line("Blocking Concurrent Queues", 180, 122, 430, 142, 18.0),
                    line("Jane Doe", 270, 160, 340, 172, 12.0), prose, *BODY)
    assert paper_record({}, blocking).title == "Practical Non-Blocking Concurrent Queues"
    twice = page(line("Multi-agent Planning for Multi-", 150, 100, 460, 120, 18.0), line("agent Teams", 230, 122, 380, 142, 18.0),
                 line("Jane Doe", 270, 160, 340, 172, 12.0), prose, *BODY)
    assert paper_record({}, twice).title == "Multi-agent Planning for Multi-agent Teams"


def test_dev24s_classes_are_read_right() -> None:
    """dev24: an agency in /Author is no author; a medical journal's line "J Am Med Inform
    Assoc 2012;19:116e120" dates the page (its "19:11" no time of day); Springer's envelope
    read as a capital after a surname ("Yiming ZhangB"); a footnote mark read as a dotless i
    after the title."""
    report = page(line("Defending Against", 75, 391, 399, 441, 50.3), line("Software Supply Chain", 75, 436, 470, 486, 50.3),
                  line("Attacks", 75, 480, 210, 531, 50.3), line("Publication: April 2021", 78, 586, 186, 600, 13.8),
                  line("Cybersecurity and Infrastructure Security Agency", 78, 607, 305, 621, 13.8))
    record = paper_record({"Author": "Cybersecurity and Infrastructure Security Agency (CISA)"}, report)
    assert (record.title, record.authors, record.year) == ("Defending Against Software Supply Chain Attacks", [], 2021)
    jamia = page(line("The challenges in making electronic health records accessible to patients", 60, 100, 540, 118, 16.0),
                 line("Leslie Beard, Rebecca Schein, Dante Morra, Kumanan Wilson, Jennifer Keelan", 60, 130, 500, 142, 10.0),
                 *BODY, line("J Am Med Inform Assoc 2012;19:116e120. doi:10.1136/amiajnl-2011-000261", 60, 770, 400, 778, 8.1))
    assert paper_record({}, jamia).year == 2012
    marked = page(line("Uncovering Security Vulnerabilities in Real-world Deployment of 5G Messaging", 60, 100, 540, 118, 16.0),
                  line("Yaru Yang, Yiming ZhangB, Tao Wan, Haixin DuanB", 100, 130, 500, 142, 10.0), *BODY)
    assert paper_record({}, marked).authors == ["Yaru Yang", "Yiming Zhang", "Tao Wan", "Haixin Duan"]
    crdt = page(line("Conflict-free Replicated Data Types ı", 150, 100, 460, 120, 18.0),
                line("Marc Shapiro, Nuno Preguiça, Carlos Baquero, Marek Zawirski", 120, 140, 490, 152, 12.0), *BODY)
    assert paper_record({}, crdt).title == "Conflict-free Replicated Data Types"


def test_the_second_reads_pages_for_the_dev24_rules() -> None:
    """Pages a reviewer built against dev24's rules, each read as before them."""
    for banner in ("Draft v2", "Vol. 12", "Journal Paper"):
        display = page(line(banner, 250, 80, 360, 97, 17.0), line("Recovery Techniques for", 180, 100, 430, 117, 17.0),
                       line("Database Systems", 210, 120, 400, 137, 17.0), line("Jane Doe", 270, 160, 340, 172, 12.0), *BODY)
        assert paper_record({}, display).title == "Recovery Techniques for Database Systems"
    # a reference in a medical journal's style at the foot is another work's year
    cited = page(line("Outcomes of Early Mobilisation After Surgery", 120, 100, 490, 120, 18.0),
                 line("Jane Doe", 270, 140, 340, 152, 12.0), *BODY,
                 line("1. Smith J, Roe R. Prior work. Lancet 2009;373:1693–1733.", 60, 760, 400, 768, 8.0))
    assert paper_record({}, cited).year is None
    # /Author's people whose names hold a word `_org` knows ("asa")
    printed = page(line("Support Vector Machines for Protein Function", 120, 100, 490, 120, 18.0), *BODY,
                   line("The kernels of Ben-Hur and of Noble are compared in what follows, as the data show.",
                        72, 400, 540, 410, 10.0))
    record = paper_record({"Author": "Asa Ben-Hur, William Stafford Noble"}, printed)
    assert record.authors == ["Asa Ben-Hur", "William Stafford Noble"]


def test_a_title_word_misread_takes_the_spelling_the_page_prints_twice_in_its_text() -> None:
    """Zhao et al.'s scan reads "Multidimensional Ageregates" over "aggregates" in the
    abstract; Henderson's text layer "PURELY RTNCTIONAL" over "purely functional"."""
    zhao = page(line("Paper # 100", 484, 24, 554, 33, 10.4),
                line("An Array-Based Algorithm for Simultaneous Multidimensional", 90, 108, 523, 124, 17.1),
                line("Ageregates", 268, 136, 343, 152, 17.1),
                line("Yihong Zhao Prasad M. Deshpande Jeffrey F. Naughton", 112, 174, 500, 186, 11.4),
                line("Computer Sciences Department", 238, 232, 374, 240, 10.0),
                line("Abstract", 284, 276, 327, 283, 9.3),
                line("Computing multiple related group-bys and aggregates is one of the core operations", 96, 298, 530, 308, 10.0),
                line("of OLAP; arrays hold the aggregates of a cube.", 82, 314, 530, 324, 10.0), *BODY)
    zhao.source = "ocr"  # (a scan: the title's word read by OCR)
    assert paper_record({}, zhao).title == "An Array-Based Algorithm for Simultaneous Multidimensional Aggregates"
    henderson = page(line("PURELY RTNCTIONAL OPERATING SYSTEMS", 109, 79, 289, 90, 10.5),
                     line("Peter Henderson", 161, 100, 238, 110, 10.5),
                     line("University of Newcastle upon Tyne", 114, 120, 283, 130, 10.5),
                     line("ABSTRACT", 34, 199, 76, 209, 10.5),
                     line("of each system being written in a purely functional style. These", 35, 228, 366, 238, 10.5),
                     line("reasonable implementation of a purely functional language.", 35, 258, 331, 269, 10.5))
    assert paper_record({}, henderson).title == "Purely Functional Operating Systems"


def test_a_title_word_the_text_prints_near_but_not_alike_keeps_its_spelling() -> None:
    """Seven-letter words one or two letters from another word ("Looking" and "locking"),
    a word's ending ("Analyses" over "analysis"), a word the page prints once: all kept."""
    stonebraker = page(line("OLTP Through the Looking Glass, and What We Found There", 90, 100, 520, 116, 16.0),
                       line("Stavros Harizopoulos Daniel J. Abadi", 150, 140, 460, 152, 11.0),
                       line("Abstract", 284, 276, 327, 283, 9.3),
                       line("We remove locking, latching and logging; locking costs the most.", 82, 298, 530, 308, 10.0),
                       line("Our analysis of costs: analysis by instruction counts; one Analyzes pass.", 82, 314, 530, 324, 10.0),
                       *BODY)
    assert paper_record({}, stonebraker).title == "OLTP Through the Looking Glass, and What We Found There"
    analyses = page(line("Performance Analyses of Concurrent Transactions", 90, 100, 520, 116, 16.0),
                    line("Jane Q. Public", 250, 140, 360, 152, 11.0),
                    line("Our analysis of costs: analysis by instruction counts.", 82, 298, 530, 308, 10.0), *BODY)
    assert paper_record({}, analyses).title == "Performance Analyses of Concurrent Transactions"


def test_an_old_scans_marks_and_places_are_no_part_of_its_record() -> None:
    """The R*-tree's "*" is its name's, its "Rectangles+" a footnote's plus; Chou's "”" a
    mark; "Rehovot. Israel" (a scan's period for a comma) an address, "Israel Koren" a name."""
    rstar = page(line("The R*-tree:", 279, 17, 351, 35, 17.4), line("An Efficient and", 199, 40, 298, 58, 17.4),
                 line("for Points", 240, 63, 298, 80, 17.4), line("Robust Access Method", 301, 40, 435, 58, 17.4),
                 line("and Rectangles+", 301, 63, 402, 80, 17.4),
                 line("Norbert Beckmann, Hans-Peter begel", 226, 100, 406, 116, 15.2),
                 line("Ralf Schneider, Bernhard Seeger", 244, 119, 404, 134, 15.2),
                 line("Praktuche Informatlk, Umversltaet", 129, 137, 298, 152, 15.2),
                 line("Abstract", 154, 207, 186, 219, 11.5),
                 *(line("The R-tree, one of the most popular access methods for rectangles", 54, 219 + 11 * i, 292, 230 + 11 * i,
                        11.5) for i in range(12)),
                 line("+ This work was supported by grant no Kr 670/4-3 from the", 56, 529, 294, 541, 11.5))
    assert paper_record({}, rstar).title == "The R*-tree: An Efficient and Robust Access Method for Points and Rectangles"
    halpern = page(line("Knowledge and Common Knowledge in a", 56, 58, 304, 75, 16.6),
                   line("Distributed Environment", 56, 78, 204, 94, 16.6),
                   line("JOSEPH Y. HALPERN", 56, 122, 144, 131, 8.8),
                   line("IBM Alrnaden Research Center,", 55, 140, 167, 150, 9.9),
                   line("San Jose, California", 55, 150, 124, 160, 9.9), line("AND", 56, 170, 70, 179, 8.8),
                   line("YORAM MOSES", 56, 190, 122, 199, 8.8),
                   line("The Weizmann Institute of Science,", 56, 208, 181, 218, 9.9),
                   line("Rehovot. Israel", 55, 218, 107, 228, 9.9),
                   *(line("Abstract. Reasoning about knowledge seems to play a fundamental role in distributed systems.",
                          55, 246 + 10 * i, 414, 255 + 10 * i, 9.9) for i in range(12)))
    assert [a.lower() for a in paper_record({}, halpern).authors] == ["joseph y. halpern", "yoram moses"]
    koren = page(line("Fault-Tolerant Systems Revisited", 150, 100, 460, 118, 17.0),
                 line("Israel Koren", 260, 140, 350, 152, 11.0), *BODY)
    assert paper_record({}, koren).authors == ["Israel Koren"]
    chou = page(line("An Evaluation of Buffer Management Strategies", 215, 97, 412, 107, 10.4),
                line("for Relational Database Systems", 249, 109, 381, 119, 10.4),
                line("Hong-Tai Chou”", 282, 135, 347, 146, 10.4), line("David J. Dewitt", 283, 147, 343, 158, 10.4),
                line("Computer Sciences Department", 253, 174, 378, 184, 10.4),
                line("University of Wisconsin", 267, 186, 361, 196, 10.4),
                *(line("In this paper we present a new algorithm, DBMIN, for managing the buffer pool", 66, 248 + 12 * i,
                       297, 258 + 12 * i, 10.4) for i in range(30)),
                line("Proceedings of VLDB 85, Stockholm 127", 125, 747, 323, 760, 9.3))
    record = paper_record({}, chou)
    assert (record.authors, record.year) == (["Hong-Tai Chou", "David J. Dewitt"], 1985)


def test_a_journals_running_head_on_its_volumes_line_is_no_title() -> None:
    """The Astronomical Journal of 1986 sets its head, title and byline in one size: the
    journal's name shares the line of "VOLUME 91, NUMBER 2"; the byline's "^(a))" is a
    footnote's letter and its bracket."""
    pierce = page(line("VOLUME 91, NUMBER 2", 264, 52, 341, 61, 9.0), line("THE ASTRONOMICAL JOURNAL", 70, 52, 176, 61, 9.0),
                  line("FEBRUARY 1986", 484, 52, 536, 61, 9.0),
                  line("APPARENT CLOSE ENCOUNTERS OF MINOR PLANETS", 169, 75, 432, 84, 9.0),
                  line("David A. PiERCE^(a))", 261, 93, 338, 104, 9.0),
                  line("El Camino College, Torrance, California 90506", 229, 105, 372, 114, 9.0),
                  line("Arthur L. Whipple", 257, 125, 344, 134, 9.0),
                  line("Department ofAerospace Engineering, The University ofTexas at Austin, Austin, Texas 78712", 112, 136,
                       489, 145, 9.0),
                  line("Received 21 March 1985; revised 3 October 1985", 228, 145, 373, 154, 9.0),
                  line("ABSTRACT", 275, 165, 326, 174, 9.0),
                  *(line("During the period 1985.0-2001.4, the 34 minor planets of the Texas Minor Planet Project", 104,
                         186 + 10 * i, 498, 195 + 10 * i, 9.0) for i in range(20)))
    record = paper_record({}, pierce)
    assert (record.title or "").lower() == "apparent close encounters of minor planets"
    assert [a.lower() for a in record.authors] == ["david a. pierce", "arthur l. whipple"] and record.year == 1986


def test_a_title_that_opens_with_a_banners_word_is_still_a_title() -> None:
    """"Journaling versus Soft Updates: …" opens with "Journal" (a banner's word: "Journal
    of …"), and was passed over for the byline under it."""
    seltzer = page(line("Journaling versus Soft Updates: Asynchronous Meta-data Protection in File", 80, 68, 533, 84, 15.8),
                   line("Systems", 282, 82, 330, 98, 15.8),
                   line("Margo I. Seltzer, Gregory R. Ganger,", 212, 111, 401, 124, 13.5),
                   line("M. Kirk McKusick, Keith A. Smith, Craig A. N. Soules, Christopher A. Stein", 110, 126, 497, 140, 13.5),
                   line("† Harvard University, Carnegie Mellon University, Author and Consultant", 126, 140, 487, 156, 13.4),
                   line("1 Abstract", 72, 176, 135, 190, 13.7), *BODY)
    record = paper_record({}, seltzer)
    assert record.title == "Journaling versus Soft Updates: Asynchronous Meta-data Protection in File Systems"
    assert record.authors[:3] == ["Margo I. Seltzer", "Gregory R. Ganger", "M. Kirk McKusick"]


def test_a_portals_cover_and_a_report_series_give_no_names() -> None:
    """DTU Orbit's cover prints its one author surname first ("Liebe, Carl Christian") and a
    label "Document Version"; a Vienna report's title page "Forschungsberichte" / "Bericht 28";
    a scan reads Mukesh as "IVIukesh"."""
    liebe = page(line("Downloaded from orbit.dtu.dk on: Mar 18, 2016", 57, 2, 224, 12, 9.4),
                 line("Pattern recognition of star constellations for spacecraft applications", 57, 218, 447, 233, 14.3),
                 line("Liebe, Carl Christian", 57, 264, 154, 276, 11.9), line("Published in:", 57, 284, 114, 296, 11.8),
                 line("I E E E Aerospace and Electronic Systems Magazine", 57, 295, 292, 306, 11.7),
                 line("DOI:", 57, 324, 78, 336, 11.8), line("10.1109/62.180383", 57, 335, 143, 346, 11.7),
                 line("Publication date:", 57, 364, 131, 376, 11.8), line("1993", 57, 375, 79, 386, 11.7),
                 line("Document Version", 57, 404, 139, 416, 11.8),
                 line("Publisher's PDF, also known as Version of record", 57, 415, 276, 426, 11.7),
                 line("Link to publication", 57, 445, 137, 456, 11.7))
    assert paper_record({}, liebe).authors == ["Carl Christian Liebe"]
    vienna = page(line("Data Augmentation and Dynamic", 57, 36, 384, 56, 19.6), line("Linear Models", 57, 62, 198, 82, 19.6),
                  line("Sylvia Frühwirth-Schnatter", 57, 111, 209, 123, 11.2),
                  line("Institut fur Statistik", 57, 215, 155, 226, 11.1),
                  line("Wirtschaftsuniversität Wien", 57, 228, 202, 239, 11.1),
                  line("Forschungsberichte", 57, 266, 172, 277, 11.2), line("Bericht 28", 57, 293, 111, 304, 11.1),
                  line("1992", 57, 306, 84, 317, 11.1), line("http://statmath.wu-wien.ac.at/", 57, 357, 213, 368, 11.1))
    assert paper_record({}, vienna).authors == ["Sylvia Frühwirth-Schnatter"]
    raynal = page(line("Logical Time in Distributed Systems", 121, 94, 488, 113, 18.9),
                  line("Michel Raynal", 124, 223, 182, 233, 9.4), line("University of Rennes", 125, 233, 203, 243, 9.7),
                  line("IVIukesh Singhal", 124, 253, 189, 262, 9.4), line("Ohio State University", 124, 263, 207, 273, 9.7),
                  *BODY)
    assert paper_record({}, raynal).authors == ["Michel Raynal", "Mukesh Singhal"]


def test_open_access_and_download_covers_are_covers() -> None:
    """MIT's open-access sheet, ePub(WU)'s and IOP's download cover: the paper is on the next page."""
    mit = page(line("MIT Open Access Articles", 205, 182, 407, 200, 17.9),
               line("Perspectives on the CAP Theorem", 177, 234, 435, 251, 17.8),
               line("Citation: Gilbert, Seth, and Nancy Lynch. Perspectives on the CAP Theorem.", 50, 349, 554, 361, 11.9),
               line("Persistent URL: http://hdl.handle.net/1721.1/79112", 50, 436, 322, 449, 11.9))
    wu = page(line("ePub^(WU) Institutional Repository", 154, 235, 442, 257, 19.1),
              line("Sylvia Frühwirth-Schnatter", 57, 291, 225, 305, 13.3),
              line("Original Citation:", 60, 409, 141, 419, 10.1),
              line("This version is available at: http://epub.wu.ac.at/392/", 60, 469, 335, 479, 10.0))
    iop = page(line("Distributed Systems Engineering", 39, 36, 213, 50, 14.0),
               line("To cite this article: A D Kshemkalyani 1995 2 224", 39, 188, 520, 197, 7.5),
               line("View the article online for updates and enhancements.", 39, 229, 300, 245, 8.2))
    assert cover_sheet(mit) and cover_sheet(wu) and cover_sheet(iop)
    assert not cover_sheet(page(line("Perspectives on the CAP Theorem", 177, 234, 435, 251, 17.8), *BODY))


def test_names_listed_alphabetically_down_two_columns_are_read_down_them() -> None:
    """System R's sixteen authors run alphabetically down two columns (Chamberlin, Astrahan,
    Blasgen … in the left; Price, Putzolu … in the right); a grid whose order runs across its
    rows keeps that order."""
    names = ["Donald D. Chamberlin", "Thomas G. Price", "Morton M. Astrahan", "Franco Putzolu", "Michael W. Blasgen",
             "Patricia Griffiths Selinger", "James N. Gray", "Mario Schkolnick", "W. Frank King", "Donald R. Slutz",
             "Bruce G. Lindsay", "Irving L. Traiger", "Raymond Lorie", "Bradford W. Wade", "James W. Mehl", "Robert A. Yost"]
    def row(left: str, right: str, y: float) -> Line:
        # the right name set from x = 313 whatever the left one's length, as the page sets it
        text = f"{left} {right}"
        boxes = [(168 + 6.0 * k, y, 174 + 6.0 * k, y + 12) for k in range(len(left) + 1)]
        boxes += [(313 + 6.0 * k, y, 319 + 6.0 * k, y + 12) for k in range(len(right))]
        return Line(text, boxes, (168, y, boxes[-1][2], y + 12), 13.5, False, [left, right])

    rows = [row(left, right, 180 + 12 * i) for i, (left, right) in enumerate(zip(names[0::2], names[1::2]))]
    system_r = page(line("A History and Evaluation", 157, 122, 431, 149, 27.4), line("of System R", 227, 145, 364, 173, 27.4),
                    *rows, line("IBM Research Laboratory", 241, 290, 379, 303, 13.5), *BODY)
    assert paper_record({}, system_r).authors == names[0::2] + names[1::2]
    across = ["Ann Zimmer", "Bo Young", "Cy Xu", "Di Wong", "Ed Vance", "Flo Upton"]
    grid = [row(left, right, 180 + 12 * i) for i, (left, right) in enumerate(zip(across[0::2], across[1::2]))]
    assert paper_record({}, page(line("A Study of Grids", 157, 122, 431, 149, 27.4), *grid, *BODY)).authors == across


def test_the_second_reads_pages_for_the_dev25_rules() -> None:
    """A helper's read of dev25's rules: each page read right before them, and after."""
    def titled(title: str, *rest: Line) -> PageText:
        return page(line(title, 90, 100, 520, 118, 18.0), *rest)
    # "Michael I. Jordan": a country after an initial's period is no address
    lda = titled("Latent Dirichlet Allocation", line("David M. Blei, Andrew Y. Ng, Michael I. Jordan", 150, 140, 460, 152, 11.0),
                 *BODY)
    assert paper_record({}, lda).authors == ["David M. Blei", "Andrew Y. Ng", "Michael I. Jordan"]
    # a subtitle naming a country, or a name's shape before a comma, is still a subtitle
    for subtitle in ("Evidence from Kenya and Chile", "The Jordan Curve Theorem in Isabelle", "Cache Coherence, Revisited",
                     "Martin Fowler, Revisited"):
        record = paper_record({}, page(line("Programming Languages", 150, 100, 460, 120, 20.0),
                                       line(subtitle, 150, 124, 460, 138, 14.0),
                                       line("Jane Q. Public", 250, 160, 360, 172, 11.0), *BODY))
        assert record.title == f"Programming Languages: {subtitle}", subtitle
    # a real word of a born-digital title keeps its spelling whatever the page prints near it
    acm = titled("Fair Division among Competing Tenants of a Cluster",
                 line("Jane Q. Public", 250, 140, 360, 152, 11.0),
                 *(line("Computing clusters are shared; computing resources are divided among tenants.", 72, 320 + 12 * i,
                        540, 330 + 12 * i, 10.0) for i in range(20)),
                 line("Association for Computing Machinery. CCS Concepts: Computing methodologies", 72, 700, 540, 708, 7.0))
    assert paper_record({}, acm).title == "Fair Division among Competing Tenants of a Cluster"
    scan = titled("Fair Scheduling of Batch Jobs", line("Jane Q. Public", 250, 140, 360, 152, 11.0),
                  *(line("The scheduIing of batch jobs: scheduIing is fair when each job gets its share.", 72, 320 + 12 * i,
                         540, 330 + 12 * i, 10.0) for i in range(20)))
    assert paper_record({}, scan).title == "Fair Scheduling of Batch Jobs"
    # a product's plus, a bracket that closes the title's own, a journal's page number
    assert paper_record({}, titled("Circles and Communities on Google+", line("Jane Q. Public", 250, 140, 360, 152, 11.0),
                                   *BODY)).title == "Circles and Communities on Google+"
    assert paper_record({}, titled("Self-Stabilization (Extended Abstract^(*))", line("Jane Q. Public", 250, 140, 360, 152, 11.0),
                                   *BODY)).title == "Self-Stabilization (Extended Abstract)"
    foot = titled("Deep Networks at the Edge", line("Jane Q. Public", 250, 140, 360, 152, 11.0), *BODY,
                  line("Vol. 106, No. 1, January 2018 | Proceedings of the IEEE 37", 72, 740, 400, 748, 8.0))
    assert paper_record({}, foot).year == 2018
    # a place under a title is no person written surname first
    durham = titled("On the Design of Reliable Distributed Systems", line("Durham, North Carolina", 240, 140, 380, 152, 11.0),
                    *BODY)
    assert paper_record({}, durham).authors == []


def test_dev26s_reports_book_chapters_and_thesis_covers() -> None:
    """Berkeley's reports open on a page of their copyright and print "Memorandum No." over
    the title page; a thesis cover double-spaces its bold capital title ("… DATABASE" /
    "QUERY OPTIMIZER", no person); a book's chapter dates itself by its publisher's line;
    IBM's report prints "Limited Distribution Notice"."""
    berkeley = page(line("Copyright © 1985, by the author(s).", 212, 281, 400, 297, 16.0),
                    line("All rights reserved.", 256, 297, 356, 313, 16.0),
                    line("Permission to make digital or hard copies of all or part of this work for personal or", 91, 328, 521,
                         344, 16.0))
    assert cover_sheet(berkeley)
    memo = page(line("THE DESIGN OF POSTGRES", 212, 190, 344, 201, 10.3), line("by", 213, 227, 226, 238, 11.1),
                line("Michael Stonebraker and Lawrence A. Rowe", 212, 251, 452, 261, 10.0),
                line("Memorandum No. UCB/ERL M85/95", 212, 454, 386, 466, 11.7),
                line("15 November 1985", 213, 480, 308, 490, 9.8))
    record = paper_record({}, memo)
    assert (record.title, record.authors, record.year) == ("The Design of Postgres", ["Michael Stonebraker", "Lawrence A. Rowe"],
                                                          1985)
    thesis = page(Line("EFFICIENCY IN THE COLUMBIA DATABASE", [], (195, 110, 453, 120), 10.6, True, ["EFFICIENCY IN THE COLUMBIA DATABASE"]),
                  Line("QUERY OPTIMIZER", [], (266, 137, 382, 148), 10.6, True, ["QUERY OPTIMIZER"]),
                  line("By", 317, 238, 331, 249, 10.9), line("YONGWEN XU", 283, 266, 365, 277, 10.9),
                  line("A thesis submitted in partial fulfillment of the", 214, 376, 434, 387, 10.9),
                  line("requirements for the degree of", 251, 404, 397, 415, 10.9),
                  line("MASTER OF SCIENCE", 264, 459, 384, 470, 10.9), line("Portland State University", 263, 579, 385, 589, 10.9),
                  line("1998", 312, 606, 336, 617, 10.9))
    record = paper_record({}, thesis)
    assert record.title is not None and record.title.upper() == "EFFICIENCY IN THE COLUMBIA DATABASE QUERY OPTIMIZER"
    assert [a.lower() for a in record.authors] == ["yongwen xu"]
    chapter = page(line("Modelling in Data Base Management Systems. G.M. Nijssen, (ed.)", 126, 64, 327, 73, 8.8),
                   line("North Holland Publishing Company, 1976", 136, 71, 267, 80, 8.8),
                   line("Granularity of Locks and Degrees of Consistency", 174, 102, 435, 110, 8.8),
                   line("in a Shared Data Base", 247, 111, 363, 120, 8.8),
                   line("J.N. Gray, R.A. Lorie, G.R. Putzolu, I.L. Traiger", 169, 139, 441, 147, 8.8),
                   line("IBM Research Laboratory", 241, 167, 367, 176, 8.8), line("San Jose, California", 253, 176, 362, 185, 8.8),
                   *(line("The problem of choosing the appropriate granularity (size) of lockable objects", 147, 204 + 9 * i,
                          469, 213 + 9 * i, 8.8) for i in range(30)))
    assert paper_record({}, chapter).year == 1976
    ibm = page(line("RJ 10203 (95077) December 6, 2000", 90, 62, 286, 70, 10.0), line("Computer Science", 90, 74, 184, 83, 10.0),
               line("Research Report", 87, 120, 340, 150, 34.6),
               line("USING EELs, A PRACTICAL APPROACH TO OUTERJOIN", 85, 176, 402, 186, 11.4),
               line("AND ANTIJOIN REORDERING", 85, 190, 254, 198, 12.1),
               *(line(name, 85, 230 + 13 * i, 140, 238 + 13 * i, 11.8) for i, name in
                 enumerate(["J. Rao", "B. Lindsay", "G. Lohman", "H. Pirahesh", "D. Simmen"])),
               line("IBM Research Division", 86, 308, 200, 317, 11.4),
               line("LIMITED DISTRIBUTION NOTICE", 86, 600, 260, 610, 11.4),
               line("Limited Distribution Notice", 86, 620, 230, 630, 11.4))
    assert "Limited Distribution Notice" not in paper_record({}, ibm).authors


def test_the_second_reads_pages_for_the_dev26_rules() -> None:
    """A helper's read of dev26's rules: each page read right before them, and after."""
    def evenly(cells: list[str], y: float, size: float, gap: float) -> Line:
        text, boxes, x = " ".join(cells), [], 150.0
        for k, cell in enumerate(cells):
            for _ in cell:
                boxes.append((x, y, x + 0.5 * size, y + size))
                x += 0.5 * size
            if k < len(cells) - 1:
                boxes.append((x, y, x + gap * size, y + size))
                x += gap * size
        return Line(text, boxes, (150, y, x, y + size), size, False, cells)
    # a row of names spaced a little wider than words is a byline, not the title's line
    row = page(line("Adaptive Query Processing in Distributed Stream Systems", 100, 100, 510, 114, 14.0),
               evenly(["Alice Smith", "Robert Jones", "Carol White"], 128, 13.0, 1.3), *BODY)
    record = paper_record({}, row)
    assert (record.title, record.authors) == ("Adaptive Query Processing in Distributed Stream Systems",
                                              ["Alice Smith", "Robert Jones", "Carol White"])
    # a thesis cover's other bold capitals stay off its title
    def bold(text: str, y: float) -> Line:
        return Line(text, [], (150, y, 460, y + 12), 12.0, True, [text])
    for other in ("A DISSERTATION", "MASTER'S THESIS", "DOCTOR OF PHILOSOPHY", "INTRODUCTION"):
        cover = page(bold("THE DESIGN OF A RELATIONAL", 100), bold("DATABASE QUERY OPTIMIZER", 114),
                     bold(other, 147.6), line("Jane Q. Public", 250, 200, 360, 212, 11.0))
        assert paper_record({}, cover).title == "The Design of a Relational Database Query Optimizer", other
    # a footnote citing a book dates nothing; a short year no later than the page's years
    book = page(line("Sorting Networks Revisited", 150, 100, 460, 118, 18.0), line("Jane Q. Public", 250, 140, 360, 152, 11.0),
                line("Department of Computer Science, September 1975", 200, 160, 420, 170, 10.0), *BODY,
                line("1 See D. Knuth, The Art of Computer Programming, Addison-Wesley Publishing Company, 1973.", 72, 700,
                     540, 708, 8.0))
    assert paper_record({}, book).year == 1975
    isca = page(line("Caches for Many Cores", 150, 100, 460, 118, 18.0), line("Jane Q. Public", 250, 140, 360, 152, 11.0), *BODY,
                line("Proceedings of ISCA 42, June 2015", 72, 740, 300, 748, 8.0))
    assert paper_record({}, isca).year == 2015
    # a one-line byline of eight names in the order of their contribution keeps it
    eight = ["Ann Adams", "Bob Young", "Cy Baker", "Di Wong", "Ed Clark", "Flo Vance", "Gus Davis", "Hal Upton"]
    byline = page(line("Large Models Together", 150, 100, 460, 118, 18.0), line(", ".join(eight), 72, 140, 540, 152, 11.0), *BODY)
    assert paper_record({}, byline).authors == eight


def test_the_third_reads_pages_for_the_dev26_fixes() -> None:
    """A third read of the fixes: a short year stands against a cited year in the body; a
    thesis title's second line "DATABASE SYSTEMS" is the title's; names down two columns
    are found in capitals and when two share their first words."""
    vldb = page(line("An Evaluation of Buffer Management Strategies", 215, 97, 412, 107, 12.4),
                line("Hong-Tai Chou", 282, 135, 347, 146, 10.4), line("David J. DeWitt", 283, 147, 343, 158, 10.4),
                *(line("The hot set model (1979) predicts the buffer needs of a query from its plan.", 66, 248 + 12 * i,
                       297, 258 + 12 * i, 10.4) for i in range(30)),
                line("Proceedings of VLDB 85, Stockholm 127", 125, 747, 323, 760, 9.3))
    assert paper_record({}, vldb).year == 1985
    cover = page(Line("THE DESIGN OF DISTRIBUTED", [], (150, 100, 460, 112), 12.0, True, ["THE DESIGN OF DISTRIBUTED"]),
                 Line("DATABASE SYSTEMS", [], (150, 133.6, 460, 145.6), 12.0, True, ["DATABASE SYSTEMS"]),
                 line("Jane Q. Public", 250, 200, 360, 212, 11.0))
    assert paper_record({}, cover).title == "The Design of Distributed Database Systems"

    def row(left: str, right: str, y: float) -> Line:
        boxes = [(168 + 6.0 * k, y, 174 + 6.0 * k, y + 12) for k in range(len(left) + 1)]
        boxes += [(313 + 6.0 * k, y, 319 + 6.0 * k, y + 12) for k in range(len(right))]
        return Line(f"{left} {right}", boxes, (168, y, boxes[-1][2], y + 12), 13.5, False, [left, right])
    down = ["Ann B. Adams", "Cy Baker", "Dee Clark", "Ann B. Davis", "Eve Moss", "Fay Nash"]
    for names in (down, [n.upper() for n in down]):
        rows = [row(left, right, 180 + 12 * i) for i, (left, right) in enumerate(zip(names[:3], names[3:]))]
        record = paper_record({}, page(line("A Study of Grids", 157, 122, 431, 149, 27.4), *rows, *BODY))
        assert [a.lower() for a in record.authors] == [n.lower() for n in down], names


def test_a_mark_a_scans_ocr_read_as_a_letter_leaves_the_surname() -> None:
    """Scans read a dagger or a section sign after a surname as a letter: "Kshemkalyanit,
    Michel Raynalt and Mukesh Singhals" over affiliations led by "t", "$" and "5";
    "Kishinevskyt" beside two names marked "*" over "*The University …; ]'Strategic CAD Labs".
    As many names lose a letter as the marks the byline fails to show; a byline whose marks
    all show keeps its names, and a born-digital page, whose lost marks are dropped, is never
    touched ("Natasha Jaques" over "1 University of Toronto")."""
    survey = [line("An introduction to snapshot algorithms in distributed computing", 43, 34, 496, 118, 29.2),
              line("Ajay D Kshemkalyanit, Michel Raynalt and Mukesh Singhals", 44, 145, 359, 159, 13.6),
              line("t IBM Corporation, PO Box 12195, Research Triangle Park, NC 27709, USA", 44, 163, 351, 179, 11.7),
              line("$ IRISA, campus de Beaulieu, 35042 Rennes-cedex, France", 44, 176, 287, 188, 11.7),
              line("5 Department of Computer and Information Science, The Ohio State University,", 44, 184, 362, 199, 11.7),
              line("Columbus, OH 43210, USA", 51, 196, 162, 208, 11.1), *BODY]
    scan = PageText(number=1, width=595, height=842, lines=survey, scan=True)
    assert paper_record({}, scan).authors == ["Ajay D Kshemkalyani", "Michel Raynal", "Mukesh Singhal"]
    assert paper_record({}, page(*survey)).authors == ["Ajay D Kshemkalyanit", "Michel Raynalt", "Mukesh Singhals"]
    petri = [line("Deadlock Prevention Using Petri Nets and their Unfoldings", 45, 158, 474, 176, 18.3),
             line("A. Taubin*, A. Kondratyev* and M. Kishinevskyt", 44, 188, 290, 202, 13.8),
             line("*The University of Aizu, Aizu-Wakamatsu, Japan; ]'Strategic CAD Labs. Intel Corp. Hillsboro, OR, USA",
                  44, 206, 418, 216, 10.0), *BODY]
    record = paper_record({}, PageText(number=1, width=594, height=785, lines=petri, scan=True))
    assert record.authors == ["A. Taubin", "A. Kondratyev", "M. Kishinevsky"]
    shown = [petri[0], line("A. Taubin*, A. Kondratyev* and M. Hunt*", 44, 188, 290, 202, 13.8),
             line("*The University of Aizu, Aizu-Wakamatsu, Japan", 44, 206, 418, 216, 10.0), *BODY]
    record = paper_record({}, PageText(number=1, width=594, height=785, lines=shown, scan=True))
    assert record.authors == ["A. Taubin", "A. Kondratyev", "M. Hunt"]
    one_mark = [petri[0], line("A. Taubin*, A. Kondratyev and M. Hunt", 44, 188, 290, 202, 13.8),
                line("*The University of Aizu, Aizu-Wakamatsu, Japan", 44, 206, 418, 216, 10.0), *BODY]
    record = paper_record({}, PageText(number=1, width=594, height=785, lines=one_mark, scan=True))
    assert record.authors == ["A. Taubin", "A. Kondratyev", "M. Hunt"]


def test_the_dev27_classes() -> None:
    """dev27's first sight (scientific papers and reports, 1953–2018): a society's paper number
    over the title, a clearinghouse's letters spaced as a stamp, a journal's name set small
    over its year and volume, MDPI's and AIAA's volume lines with an ISSN and a © of another
    year near them, an initial glued to a surname in capitals over the title, and a byline of
    nine names wrapping inside a name."""
    aas = page(line("(Preprint) AAS 10-140", 371, 60, 515, 74, 13.2),
               line("ICESAT ATTITUDE AND POINTING CORRECTION USING", 133, 129, 506, 142, 13.2),
               line("THE LASER REFERENCE SENSOR", 190, 145, 422, 158, 13.2),
               line("Sungkoo Bae, Noah Smith, and Bob Schutz", 176, 178, 431, 190, 11.3), *BODY)
    record = paper_record({}, aas)
    assert record.title and record.title.lower() == "icesat attitude and pointing correction using the laser reference sensor"
    assert record.authors == ["Sungkoo Bae", "Noah Smith", "Bob Schutz"]
    report = page(line("CS46", 72, 29, 108, 45, 15.9),
                  line("TODAY'S COMPUTATIONAL METHODS OF LINEAR ALGEBRA", 172, 186, 592, 202, 15.7),
                  line("GEORGE E. FORSYTHE", 142, 261, 460, 285, 15.7),
                  line("TECHNICAL REPORT NO. CS46", 275, 419, 492, 435, 15.7),
                  line("AUGUST 11, 1966", 329, 447, 452, 463, 15.7), line("D D C", 526, 491, 612, 517, 25.9))
    assert (paper_record({}, report).title or "").upper() == "TODAY'S COMPUTATIONAL METHODS OF LINEAR ALGEBRA"
    def bold(text: str, x0: float, y0: float, x1: float, y1: float, size: float) -> Line:
        return Line(text=text, boxes=[], bbox=(x0, y0, x1, y1), size=size, bold=True, cells=[text])
    # (the whole head of the page is bold, the journal's name too)
    annals = page(bold("The Annals of Applied Statistics", 126, 130, 226, 136, 5.5),
                  bold("2015, Vol. 9, No. 1, 247–274", 126, 137, 215, 143, 6.0),
                  bold("DOI: 10.1214/14-AOAS788", 126, 144, 212, 150, 6.0),
                  bold("◯c Institute of Mathematical Statistics, 2015", 126, 151, 270, 157, 6.0),
                  bold("INFERRING CAUSAL IMPACT USING BAYESIAN STRUCTURAL", 129, 170, 481, 180, 9.8),
                  bold("TIME-SERIES MODELS", 243, 184, 367, 193, 9.8),
                  bold("By Kay H. Brodersen, Fabian Gallusser, Jim Koehler,", 153, 209, 458, 219, 9.9),
                  bold("Nicolas Remy and Steven L. Scott", 205, 222, 401, 232, 9.9),
                  bold("Google, Inc.", 276, 241, 334, 251, 10.0),
                  *(bold("An important problem in econometrics and marketing is to infer the", 168, 261 + 11 * i,
                         443, 270 + 11 * i, 9.0) for i in range(20)),
                  *(line("1. Introduction. This article proposes an approach to inferring the", 126, 502 + 13 * i,
                         485, 513 + 13 * i, 10.9) for i in range(7)))
    record = paper_record({}, annals)
    assert (record.title or "").upper() == "INFERRING CAUSAL IMPACT USING BAYESIAN STRUCTURAL TIME-SERIES MODELS"
    assert record.year == 2015
    sensors = page(line("Sensors 2015, 15, 16412-16429; doi:10.3390/s150716412", 50, 53, 328, 66, 13.3),
                   line("sensors", 448, 80, 546, 115, 35.4), line("ISSN 1999-4893", 464, 115, 546, 129, 13.3),
                   line("An Autonomous Star Identification Algorithm Based on", 50, 172, 480, 192, 19.9),
                   line("One-Dimensional Vector Pattern for Star Sensors", 50, 193, 431, 213, 19.9),
                   line("Liyan Luo, Luping Xu and Hua Zhang", 50, 230, 300, 242, 13.3), *BODY)
    assert paper_record({}, sensors).year == 2015
    issn = page(line("A Survey on Star Identification Algorithms", 50, 172, 480, 192, 19.9),
                line("Benjamin B. Spratling and Daniele Mortari", 50, 230, 300, 242, 13.3), *BODY,
                line("Journal of Algorithms ISSN 1999-4893 pages 93-107", 50, 760, 400, 770, 8.0))
    assert page_year(issn) is None
    jsr = page(line("JOURNAL OF SPACECRAFT AND ROCKETS", 40, 24, 181, 32, 6.2),
               line("Vol. 51, No. 1, January–February 2014", 40, 34, 179, 42, 8.1),
               line("Laser Reference Sensor Alignment Estimation", 117, 65, 468, 82, 15.8),
               line("Noah H. Smith and Sungkoo Bae", 150, 120, 400, 132, 10.0), *BODY,
               line("published online 25 July 2013. Copyright © 2013 by the American Institute of", 50, 650, 300, 660, 7.2))
    assert paper_record({}, jsr).year == 2014
    zib = page(line("Konrad-Zuse-Zentrum D-14195 Berlin-Dahlem Takustraße 7", 57, 125, 556, 143, 7.3),
               line("fur Informationstechnik Berlin  ̈ Germany", 57, 143, 556, 162, 17.8),
               line("R. LUCE, J. DUINTJER TEBBENS, J. LIESEN, R. NABBEN,", 127, 292, 466, 306, 11.7),
               line("M. GRÖTSCHEL , T. KOCH, O.SCHENK", 183, 308, 410, 323, 11.7),
               line("On the factorization of simplex basis", 141, 365, 452, 386, 20.9),
               line("matrices", 260, 389, 333, 410, 20.9), line("ZIB-Report 09-24 (July 2009)", 57, 785, 186, 795, 10.5))
    record = paper_record({}, zib)
    assert record.authors == ["R. Luce", "J. Duintjer Tebbens", "J. Liesen", "R. Nabben", "M. Grötschel", "T. Koch",
                              "O. Schenk"]
    ebex = page(line("STARS: A software application for the EBEX autonomous", 76, 76, 536, 90, 14.2),
                line("daytime star cameras", 222, 95, 390, 109, 14.2),
                line("Daniel Chapman^a, Joy Didier^a, Shaul Hanany^b, Seth Hillbrand^a, Michele Limon^a, Amber",
                     77, 124, 535, 137, 10.6),
                line("Miller^a, Britt Reichborn-Kjennerud^a, Greg Tucker^c, Yury Vinokurov^d", 126, 138, 482, 151, 10.6),
                line("^aColumbia University, New York, NY 10027;", 192, 158, 420, 171, 10.6),
                line("ABSTRACT", 271, 239, 341, 249, 9.7), *BODY[1:])
    assert paper_record({}, ebex).authors == ["Daniel Chapman", "Joy Didier", "Shaul Hanany", "Seth Hillbrand",
                                              "Michele Limon", "Amber Miller", "Britt Reichborn-Kjennerud",
                                              "Greg Tucker", "Yury Vinokurov"]
    clearinghouse = page(line("CLEARINGHOUSE FOR FEDERAL SCIENTIFIC AND TECHNICAL INFORMATION CFSTI", 126, 66, 552, 78, 11.1),
                         line("DOCUMENT MANAGEMENT BRANCH 410.11", 247, 79, 456, 91, 11.1),
                         line("LIMITATIONS IN REPRODUCTION QUALITY", 247, 131, 460, 142, 11.1))
    assert cover_sheet(clearinghouse)


def test_the_second_reads_pages_for_the_dev27_rules() -> None:
    """A second read's pages: marks set after a space, marks in numbers (an address's street
    number, a number the scan dropped), an agency's abbreviations glued to its name and a
    title set letter by letter keep their readings."""
    title = line("Fast Consensus in Partially Synchronous Networks", 100, 120, 510, 138, 17.0)

    def scan(*lines: Line) -> PageText:
        return PageText(number=1, width=612, height=792, lines=[title, *lines, *BODY], scan=True)
    for one, two in (("*", "†"), ("1", "2")):  # marks set after a space, symbols or numbers
        spaced = scan(line(f"Mary Jones {one} and Paul Roberts {two}", 200, 160, 410, 172, 12.0),
                      line(f"{one} Department of Computer Science, Stanford University, Stanford, CA 94305",
                           90, 180, 520, 190, 10.0),
                      line(f"{two} IBM Research, Yorktown Heights, NY 10598", 180, 192, 430, 202, 10.0))
        assert paper_record({}, spaced).authors == ["Mary Jones", "Paul Roberts"], one
    street = scan(line("Robert Wright and Mary Lee", 220, 160, 390, 172, 12.0),
                  line("Lawrence Berkeley Laboratory", 220, 180, 390, 190, 10.0),
                  line("1 Cyclotron Road, Berkeley, CA 94720", 200, 192, 410, 202, 10.0))
    assert paper_record({}, street).authors == ["Robert Wright", "Mary Lee"]
    dropped = scan(line("Ann Roberts1, Paul Evans1,2 and Jim Wright", 200, 160, 410, 172, 12.0),
                   line("1 University of Toronto, Toronto, Canada", 90, 180, 520, 190, 10.0),
                   line("2 Google Brain, Mountain View, CA", 180, 192, 430, 202, 10.0),
                   line("3 Vector Institute, Toronto, Canada", 180, 204, 430, 214, 10.0))
    assert paper_record({}, dropped).authors == ["Ann Roberts", "Paul Evans", "Jim Wright"]
    agency = page(line("NUMERICAL SOLUTION OF STIFF DIFFERENTIAL EQUATIONS", 120, 120, 490, 136, 14.0),
                  line("by", 300, 150, 312, 160, 11.0), line("JOHN H. SMITH", 250, 170, 360, 182, 11.0),
                  line("U.S.AIR FORCE", 255, 186, 355, 198, 11.0),
                  line("WRIGHT-PATTERSON AIR FORCE BASE, OHIO", 190, 200, 420, 212, 11.0), *BODY)
    assert [a.lower() for a in paper_record({}, agency).authors] == ["john h. smith"]
    lisp = page(line("L I S P", 250, 120, 360, 140, 20.0), line("John McCarthy", 250, 170, 360, 182, 11.0), *BODY)
    record = paper_record({}, lisp)
    assert (record.title, record.authors) == ("L I S P", ["John McCarthy"])


def test_a_title_whose_middle_line_is_set_larger_is_read_whole() -> None:
    """"Case Studies in" / "Security and Resource Management" (larger) / "for Mobile Object
    Systems": the sentence runs over both breaks, so the smaller lines are the title's; a
    smaller line under a title that opens a byline ("by …") or a subtitle of its own stays out."""
    head = [line("Case Studies in", 248, 68, 364, 89, 20.5),
            line("Security and Resource Management", 120, 100, 491, 127, 27.3),
            line("for Mobile Object Systems", 203, 144, 408, 165, 20.5),
            line("Dejan Milojicic, Gul Agha, Philippe Bernadat*, Deepika Chauhan**", 107, 201, 504, 216, 15.7),
            line("Shai Guday, Nadeem Jamali, Dan Lambright,and Franco Travostino", 91, 226, 504, 242, 15.7)]
    record = paper_record({}, page(*head, *BODY))
    assert record.title == "Case Studies in Security and Resource Management for Mobile Object Systems"
    assert record.authors[:2] == ["Dejan Milojicic", "Gul Agha"]
    by = page(line("Security and Resource Management", 120, 100, 491, 127, 27.3),
              line("by Dejan Milojicic", 203, 144, 408, 165, 20.5), *BODY)
    assert paper_record({}, by).title == "Security and Resource Management"
    sub = page(line("Security and Resource Management", 120, 100, 491, 127, 27.3),
               line("Lessons From Mobile Object Systems", 160, 144, 450, 165, 20.5),
               line("Dejan Milojicic and Gul Agha", 200, 201, 420, 216, 15.7), *BODY)
    assert (paper_record({}, sub).title or "").startswith("Security and Resource Management")
    assert "Lessons" not in (paper_record({}, sub).title or "").split(":")[0]


def test_the_dev28_classes() -> None:
    """dev28's first sight (the Sprite papers and an OS course's references, 1964-2009): a
    laboratory's report banner with its number over the title, "or," between a title and its
    other title, and the abstract's last line saying where this paper appeared (not an
    earlier version's note, "… a paper that originally" / "appeared in Proceedings, STOC 1996")."""
    wrl = page(line("D E C E M B E R 1 9 9 5", 254, 34, 358, 45, 11.3), line("WRL", 144, 88, 240, 134, 45.5),
               line("Research Report 95/9", 144, 126, 513, 171, 45.5),
               line("Memory Consistency", 144, 298, 487, 343, 45.1), line("Models for", 144, 337, 321, 382, 45.1),
               line("Shared-Memory", 144, 375, 406, 420, 45.1), line("Multiprocessors", 144, 413, 402, 458, 45.1),
               line("Kourosh Gharachorloo", 144, 512, 314, 532, 20.1),
               line("d i g i t a l Western Research Laboratory 250 University Avenue Palo Alto, California 94301 USA",
                    58, 744, 558, 765, 13.5))
    record = paper_record({}, wrl)
    assert (record.title, record.authors) == ("Memory Consistency Models for Shared-Memory Multiprocessors",
                                              ["Kourosh Gharachorloo"])
    tor = page(line("Performance Improvements on Tor", 186, 136, 426, 151, 15.3), line("or,", 297, 158, 315, 173, 15.3),
               line("Why Tor is slow and what we’re going to do about it", 122, 180, 490, 195, 15.3),
               line("Roger Dingledine and Steven J. Murdoch", 192, 212, 420, 223, 10.6),
               line("March 11, 2009", 267, 236, 345, 246, 10.6), *BODY)
    assert paper_record({}, tor).title == "Performance Improvements on Tor or, Why Tor is slow and what we’re going to do about it"
    abstract = [line("Availability in the Sprite Distributed File System", 160, 112, 411, 126, 13.7),
                line("Mary Baker", 261, 138, 310, 149, 11.2), line("John Ousterhout", 252, 150, 319, 161, 11.2),
                line("ABSTRACT", 261, 276, 310, 287, 11.2),
                *(line("In the Sprite environment, tolerating faults means recovering from them quickly and", 105,
                       300 + 12 * i, 465, 311 + 12 * i, 11.3) for i in range(13))]
    note = line("This paper appeared in Operating Systems Review, April 1991.", 158, 456, 412, 467, 11.3)
    body = [line("The degree of fault-tolerance in a system is related to the amount of money and performance",
                 69, 508 + 12 * i, 501, 519 + 12 * i, 11.3) for i in range(15)]
    assert paper_record({}, page(*abstract, note, *body)).year == 1991
    earlier = [line("This is an updated version of a paper that originally", 72, 680, 297, 691, 11.3),
               line("appeared in Proceedings, STOC 1996, Philadelphia PA", 72, 694, 297, 705, 11.3)]
    assert paper_record({}, page(*abstract, *body, *earlier)).year is None


def test_the_second_reads_pages_for_the_dev28_rules() -> None:
    """A second read's pages: a smaller line opening with a preposition joins the title only as
    the next line of its sentence (a speaker's name between, "on behalf of the CDF and D0
    Collaborations", a thesis's "in partial fulfillment …", a course's or a group's line and a
    dedication stay out), and the title ends at the line a change of type brought in; "This
    paper appeared in preliminary form in …" is an earlier version's, and a note under a
    copyright does not outrank it."""
    def centred(text: str, y: float, size: float) -> Line:
        width = len(text) * size / 2
        return line(text, 306 - width / 2, y, 306 + width / 2, y + 1.2 * size, size)
    title = "Top Quark Mass Measurements at the Tevatron"
    record = paper_record({}, page(centred(title, 100, 14), centred("John Smith", 121, 11),
                                   centred("on behalf of the CDF and D0 Collaborations", 134, 10),
                                   centred("Fermi National Accelerator Laboratory, Batavia, IL 60510, USA", 146, 10), *BODY))
    assert (record.title, record.authors) == (title, ["John Smith"])
    thesis = page(centred("Efficient Query Optimization", 100, 17),
                  centred("in partial fulfillment of the requirements", 125, 12),
                  centred("for the degree of Doctor of Philosophy", 140, 12), centred("Stanford University", 155, 12),
                  centred("June 1985", 170, 12), centred("John Smith", 200, 12))
    assert paper_record({}, thesis).title == "Efficient Query Optimization"
    for under in ("for the course CS 244 at Stanford University", "from the Programming Methodology Group"):
        record = paper_record({}, page(centred("Why Functional Programming Matters", 100, 17), centred(under, 125, 12),
                                       centred("John Hughes", 160, 12), *BODY))
        assert record.title == "Why Functional Programming Matters", under
    record = paper_record({}, page(centred("Dedicated to the", 80, 12), centred("Why Functional Programming Matters", 100, 17),
                                   centred("John Hughes", 160, 12), *BODY))
    assert record.title == "Why Functional Programming Matters"
    head = [centred("Fast Probabilistic Algorithms for Hamiltonian Circuits", 100, 17),
            centred("Dana Angluin and Leslie Valiant", 130, 12), *BODY]
    notes = [("This paper appeared in preliminary form in the Proceedings of the 22nd STOC, May 1990.",
              "© 1993 ACM 0004-5411/93/0700-0001 $01.50", 1993),
             ("This paper appeared in part in Proc. 19th ACM STOC, 1987. Supported by NSF grant CCR-8914428.",
              "Copyright 1992 by Academic Press, Inc.", 1992),
             ("This article appeared in the Proceedings of SOSP, October 1985.",
              "© 1996 by ACM, reprinted with permission.", 1996)]
    for note, copyright, year in notes:
        foot = [line(note, 72, 700, 540, 708, 8.0), line("Authors' address: Computer Science Department.", 72, 710, 540, 718, 8.0),
                line(copyright, 72, 720, 540, 728, 8.0)]
        assert paper_record({}, page(*head, *foot)).year == year, note


def test_the_third_reads_pages_for_the_dev28_fixes() -> None:
    """A third read of the fixes: a title's lines of the smaller type go on after the change
    of type ("for Mobile Object" / "Systems and Agents"; "A Comparative Study of the" /
    "Performance of" over the large line); the title's own words are no degree's ("The
    Philosophy of", "Low-Degree", "A Master Theorem"); "Notes" / "from the Systems Lab" is one
    title; two initials glued to a surname are a name ("M.A.SMITH")."""
    def centred(text: str, y: float, size: float) -> Line:
        width = len(text) * size / 2
        return line(text, 306 - width / 2, y, 306 + width / 2, y + 1.2 * size, size)

    def title(*lines: Line) -> str:
        return (paper_record({}, page(*lines, centred("John Smith", 170, 11), *BODY)).title or "").lower()
    assert title(centred("Case Studies in", 80, 12), centred("SECURITY AND RESOURCE MANAGEMENT", 96, 18),
                 centred("for Mobile Object", 120, 12), centred("Systems and Agents", 136, 12)) == \
        "case studies in security and resource management for mobile object systems and agents"
    assert title(centred("A Comparative Study of the", 64, 12), centred("Performance of", 80, 12),
                 centred("LOG-STRUCTURED FILE SYSTEMS", 96, 18)) == \
        "a comparative study of the performance of log-structured file systems"
    assert title(centred("The Philosophy of", 80, 12), centred("OBJECT-ORIENTED PROGRAMMING", 96, 18)) == \
        "the philosophy of object-oriented programming"
    assert title(centred("Testing Low-Degree Polynomials", 96, 18), centred("over Finite Fields", 120, 12)) == \
        "testing low-degree polynomials over finite fields"
    assert title(centred("Notes", 96, 18), centred("from the Systems Lab", 120, 12)) == "notes from the systems lab"
    byline = page(centred("A Study of Initials", 100, 17), centred("M.A.SMITH and O.SCHENK", 130, 12), *BODY)
    assert [a.lower() for a in paper_record({}, byline).authors] == ["m.a. smith", "o. schenk"]


def test_the_papers_citation_of_itself_lists_its_authors_and_gives_its_year() -> None:
    """dev29: ACM's and PVLDB's first pages print the paper's citation under "ACM Reference
    format:" / "PVLDB Reference Format:". TinyLFU's third author, set in a smaller type
    under the two others, was missed (the citation lists all three, each printed in the
    byline too); MyRocks' page prints its year only there, and Procella's foot prints its
    first page number, "2022", that was read as its year (2019)."""
    tinylfu = page(line("TinyLFU: A Highly Efficient Cache Admission Policy", 46, 82, 386, 95, 13.6),
                   line("GIL EINZIGER, Nokia Bell Labs", 46, 114, 174, 124, 8.5),
                   line("ROY FRIEDMAN, Technion", 46, 127, 161, 137, 10.4),
                   line("BEN MANES, Independent", 46, 140, 155, 150, 8.5),
                   line("This article proposes to use a frequency-based cache admission policy in order to boost the "
                        "effectiveness of", 46, 170, 441, 179, 8.5),
                   line("caches subject to skewed access distributions. Given a newly accessed item and an eviction "
                        "candidate from", 46, 181, 440, 190, 8.5),
                   line("ACM Reference format:", 46, 363, 142, 372, 8.4),
                   line("Gil Einziger, Roy Friedman, and Ben Manes. 2017. TinyLFU: A Highly Efficient Cache Admission "
                        "Policy. ACM", 46, 374, 441, 383, 8.5),
                   line("Trans. Storage 13, 4, Article 35 (November 2017), 31 pages.", 46, 385, 257, 394, 8.5),
                   line("https://doi.org/10.1145/3149371", 46, 396, 160, 405, 8.5),
                   line("1 INTRODUCTION", 46, 428, 139, 438, 9.4))
    record = paper_record({}, tinylfu)
    assert (record.authors, record.year) == (["Gil Einziger", "Roy Friedman", "Ben Manes"], 2017)

    head = [line("MyRocks: LSM-Tree Database Storage Engine Serving", 74, 76, 538, 94, 18.0),
            line("Facebook's Social Graph", 199, 97, 413, 115, 18.0),
            line("Siying Dong", 274, 124, 338, 136, 12.0),
            line("Yoshinori Matsunobu", 82, 124, 194, 136, 12.0),
            line("Herman Lee", 441, 124, 507, 136, 12.0),
            line("Facebook", 284, 143, 328, 154, 10.1),
            line("ABSTRACT", 54, 189, 119, 203, 13.3),
            line("Facebook uses MySQL to manage tens of petabytes of data in its", 54, 203, 294, 213, 10.1)]
    cited = [line("PVLDB Reference Format:", 54, 552, 159, 562, 10.1),
             line("Yoshinori Matsunobu, Siying Dong, Herman Lee. MyRocks:", 54, 563, 273, 573, 10.1),
             line("LSM-Tree Database Storage Engine Serving Facebook's Social", 54, 573, 282, 583, 10.1),
             line("Graph. PVLDB, 13(12): 3217 - 3230, 2020.", 54, 583, 211, 593, 10.1),
             line("DOI: https://doi.org/10.14778/3415478.3415546", 54, 594, 230, 604, 10.1)]
    myrocks = paper_record({}, page(*head, *cited))
    assert (myrocks.authors, myrocks.year) == (["Yoshinori Matsunobu", "Siying Dong", "Herman Lee"], 2020)
    # Procella's page: a first page number that reads as a year at the foot ("2022")
    assert paper_record({}, page(*head, *cited, line("2022", 296, 752, 316, 764, 11.7))).year == 2020

    # a citation cut short ("Armbrust et al.") names no one; its year still stands
    short = [cited[0], line("Armbrust et al. MyRocks: LSM-Tree Database Storage Engine Serving", 54, 563, 273, 573, 10.1),
             *cited[2:]]
    assert paper_record({}, page(*head, *short)).year == 2020
    # a name the citation gives that the byline does not print is not taken from it
    other = [cited[0], line("Yoshinori Matsunobu, Siying Dong, Herman Lee, Jane Roe. MyRocks:", 54, 563, 273, 573, 10.1),
             *cited[2:]]
    assert paper_record({}, page(*head, *other)).authors == ["Yoshinori Matsunobu", "Siying Dong", "Herman Lee"]


def test_a_degree_without_its_dots_between_names_is_no_name() -> None:
    """dev29 (HealthWeaver Mobile): "Predrag Klasnja, Andrea Hartzler, PhD, Christopher
    Powell," / "Giovandy Phan, & Wanda Pratt, PhD" lost Powell to the undotted degree."""
    first = page(line("HealthWeaver Mobile: Designing a Mobile Tool for Managing Personal", 105, 92, 507, 106, 14.5),
                 line("Health Information during Cancer Care", 193, 107, 419, 122, 14.5),
                 line("Predrag Klasnja, Andrea Hartzler, PhD, Christopher Powell,", 158, 135, 454, 148, 12.5),
                 line("Giovandy Phan, & Wanda Pratt, PhD", 215, 148, 397, 161, 12.5),
                 line("University of Washington, Seattle, WA", 213, 161, 399, 174, 12.5), *BODY)
    assert paper_record({}, first).authors == ["Predrag Klasnja", "Andrea Hartzler", "Christopher Powell",
                                               "Giovandy Phan", "Wanda Pratt"]
    assert paper_record({}, page(first.lines[0], first.lines[1], line("Jane Roe, MD, MPH and John Doe, DPhil", 158, 135, 454, 148, 12.5),
                                 *BODY)).authors == ["Jane Roe", "John Doe"]


def test_urdu_particles_stay_in_a_surname() -> None:
    """dev29 (Windows Azure Storage): "Mian Fahim ul Haq, Muhammad Ikram ul" / "Haq, Deepali
    Bhardwaj, Sowmya Dayanand," read as no names, four authors lost."""
    first = page(line("Windows Azure Storage: A Highly Available Cloud Storage Service", 60, 57, 552, 74, 16.7),
                 line("Hemal Khatri, Andrew Edwards, Vaman Bedekar, Shane Mainali, Rafay Abbasi, Arpit Agarwal,",
                      76, 135, 536, 146, 10.2),
                 line("Mian Fahim ul Haq, Muhammad Ikram ul Haq, Deepali Bhardwaj, Sowmya Dayanand,", 97, 149, 516, 159, 10.2),
                 line("Anitha Adusumilli, Marvin McNett, Sriram Sankaran, Kavitha Manivannan, Leonidas Rigas",
                      87, 161, 525, 172, 10.2),
                 line("Microsoft", 283, 186, 332, 197, 11.1), *BODY)
    authors = paper_record({}, first).authors
    assert authors[6:10] == ["Mian Fahim ul Haq", "Muhammad Ikram ul Haq", "Deepali Bhardwaj", "Sowmya Dayanand"]
    assert len(authors) == 15


def test_elseviers_low_asterisk_marks_the_corresponding_author() -> None:
    """dev29 (Children and Youth Services Review): Elsevier marks the corresponding author
    with a low asterisk ("⁎", U+204E): "David G. Hendry ^(a,)⁎, Jill Palzkill Woelfer ^a, …"
    read as no line of names, five of six authors lost."""
    first = page(line("How to integrate digital media into a drop-in for homeless young people for", 43, 168, 520, 181, 13.4),
                 line("deepening relationships between youth and adults", 43, 185, 358, 198, 13.4),
                 line("David G. Hendry ^(a,)⁎, Jill Palzkill Woelfer ^a, Rowena Harper ^b, Tyler Bauer ^b, "
                      "Brynn Fitzer ^b, Mike Champagne ^b", 43, 208, 562, 220, 10.6),
                 line("^a Information School, University of Washington, Box 352840, Seattle, WA 98195-2840, "
                      "United States", 43, 227, 404, 234, 6.4), *BODY)
    assert paper_record({}, first).authors == ["David G. Hendry", "Jill Palzkill Woelfer", "Rowena Harper",
                                               "Tyler Bauer", "Brynn Fitzer", "Mike Champagne"]


def test_a_line_opening_with_a_degree_goes_on_with_the_list_over_it() -> None:
    """A list with a credential the parsers do not know ("MSI") is no line of names, and the
    line under it, "PhD, Wanda Pratt, PhD,", is no byline of its own: its one name is not
    the paper's only author."""
    first = page(line("Probing the benefits of real-time tracking during cancer care", 124, 73, 488, 88, 15.4),
                 line("Rupa A. Patel, MSI, Predrag Klasnja, PhD, Andrea Hartzler, PhD, Kenton T. Unruh,", 81, 102, 531, 116, 13.3),
                 line("PhD, Wanda Pratt, PhD,", 238, 116, 370, 130, 13.3),
                 line("1 University of Washington, Seattle, WA, University of Michigan, Ann Arbor, MI", 98, 128, 514, 143, 13.3),
                 *BODY)
    assert paper_record({}, first).authors != ["Wanda Pratt"]
