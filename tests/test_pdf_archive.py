"""What a real paper archive needs from the PDF parser, pinned on real PDFs.

papers-we-love itself is a benchmark (bench/archive.py, bench/archive_metadata.py), never
part of the suite; these tests use the shared PDF corpus and PDFs written here with a
real font and a broken /ToUnicode map — the very fault that garbled eight archive papers.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from athena_lab.config import load_config
from athena_lab.ingest.chunking import chunk_document
from athena_lab.ingest.parsers.pdf import PdfOptions, parse, time_limit
from athena_lab.ingest.pipeline import run_index
from athena_lab.pdf.meta import citation_label, page_year, paper_record
from athena_lab.pdf.ocr import ocr_available
from athena_lab.pdf.extract import Char, fragments
from athena_lab.pdf.pages import extract_page, garbled_reason
from athena_lab.workspace import Workspace

from corpus_files import CORPORA
from printed_pdf import letter_spaced_pdf, outlined_pdf, pdf_file, placed_words_pdf, stamped_scan_pdf, tall_box_pdf

pytestmark = pytest.mark.slow

PDFS = CORPORA / "pdfs"
ATTENTION = PDFS / "paper_attention_1706.03762.pdf"
PROSE = ["The problem of reaching agreement among remote processes is one of the most",
         "fundamental problems in distributed computing and is at the core of many",
         "algorithms for distributed data processing, distributed file management, and",
         "fault-tolerant distributed applications. A well-known form of the problem is"] * 4


def shifted_pdf(lines: list[str] | list[tuple[float, str]], shift: int = 1,
                upright: tuple[float, str] | None = None) -> bytes:
    """A one-page PDF printing ``lines`` in Helvetica (14 pt, or each line's own size), its
    /ToUnicode map shifted by ``shift``: the page shows the words, the text layer says
    "Uif qspcmfn pg …". ``upright``: words in that size set up the left margin, from the
    foot of the page to the first line's height (a report cover's maker's name)."""
    content, y, x = "BT\n", 720.0, 72 if upright is None else 150
    for line in lines:
        size, text = line if isinstance(line, tuple) else (14.0, line)
        text = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        content += f"/F1 {size} Tf 1 0 0 1 {x} {y} Tm ({text}) Tj\n"
        y -= 1.3 * size
    if upright is not None:
        content += f"/F1 {upright[0]} Tf 0 1 -1 0 80 {745 - 0.45 * upright[0] * len(upright[1])} Tm ({upright[1]}) Tj\n"
    content += "ET"
    pairs = "\n".join(f"<{code:02X}> <{code + shift:04X}>" for code in range(32, 127))
    cmap = ("/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Shift def "
            "1 begincodespacerange <00> <FF> endcodespacerange\n"
            f"95 beginbfchar\n{pairs}\nendbfchar endcmap CMapName currentdict /CMap defineresource pop end end")
    objects = ["<< /Type /Catalog /Pages 2 0 R >>",
               "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> "
               "/Contents 5 0 R >>",
               "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode 6 0 R >>",
               f"<< /Length {len(content)} >>\nstream\n{content}\nendstream",
               f"<< /Length {len(cmap)} >>\nstream\n{cmap}\nendstream"]
    return pdf_file(objects)


def _first_page(path: Path):
    doc = pdfium.PdfDocument(str(path))
    info = {k: v for k, v in doc.get_metadata_dict(skip_empty=True).items() if isinstance(v, str)}
    return info, extract_page(doc, 0, "off")


# --- garbled text layers -----------------------------------------------------------------

def test_a_garbled_text_layer_is_listed_unreadable_and_never_indexed(tmp_path: Path) -> None:
    pdf = tmp_path / "shifted.pdf"
    pdf.write_bytes(shifted_pdf(PROSE))
    doc = parse(pdf, "shifted.pdf", PdfOptions(ocr="off"))
    page = doc.metadata["pages"][0]
    assert page["source"] == "none" and page["chars"] == 0
    assert any(w.startswith("garbled text layer") and "unreadable" in w for w in page["warnings"])
    assert any(w.startswith("unreadable: garbled text layer on page 1") for w in doc.warnings)
    assert chunk_document(doc) == []  # no snippet of "Uif qspcmfn pg" can ever be shown


@pytest.mark.skipif(not ocr_available(), reason="OCR extra")
def test_a_garbled_text_layer_is_read_with_ocr_and_keeps_regions(tmp_path: Path) -> None:
    pdf = tmp_path / "shifted.pdf"
    pdf.write_bytes(shifted_pdf(PROSE))
    doc = parse(pdf, "shifted.pdf", PdfOptions(ocr="auto"))
    assert doc.metadata["pages"][0]["source"] == "ocr"
    blocks = [b for s in doc.sections for b in s.blocks]
    text = " ".join(b.text for b in blocks)
    assert "problem of reaching agreement" in text and "qspcmfn" not in text
    assert all(len(b.regions) == len(b.text.split("\n")) and b.page == 1 for b in blocks)


@pytest.mark.skipif(not ocr_available(), reason="OCR extra")
def test_a_paper_whose_text_is_drawn_as_outlines_is_read_with_ocr(tmp_path: Path) -> None:
    """No characters at all, only thousands of filled shapes (fonts turned into curves for
    the press): the page is read as a scan is, and its record comes from what it shows."""
    pdf = tmp_path / "outlined.pdf"
    pdf.write_bytes(outlined_pdf([("Outlined Letters Survive the Press", 44), ("Jane Doe and John Smith", 28),
                                  *[("A paper whose fonts were turned into curves by its printer", 24)] * 3]))
    doc = parse(pdf, "outlined.pdf", PdfOptions(ocr="auto"))
    page = doc.metadata["pages"][0]
    assert page["source"] == "ocr" and "text drawn as outlines: text from OCR" in page["warnings"]
    text = " ".join(b.text for s in doc.sections for b in s.blocks)
    assert "fonts were turned into curves" in text
    opened = pdfium.PdfDocument(pdf)
    try:
        record = paper_record({}, extract_page(opened, 0, "auto"), "outlined.pdf")
    finally:
        opened.close()
    assert (record.title, record.authors) == ("Outlined Letters Survive the Press", ["Jane Doe", "John Smith"])
    opened = pdfium.PdfDocument(pdf)
    try:
        unread = extract_page(opened, 0, "off")
    finally:
        opened.close()
    assert unread.lines == [] and "text drawn as outlines" in unread.warnings


def test_a_figures_page_with_a_few_words_keeps_its_text_layer() -> None:
    """1,500 shapes of a chart and one caption: without OCR the page keeps the words its
    text layer prints, and is not called a page of outlines."""
    dots = "\n".join(f"{72 + (i % 50) * 9} {200 + (i // 50) * 12} 4 4 re f" for i in range(1500))
    content = f"0 g\n{dots}\nBT /F1 12 Tf 72 700 Td (Figure 7: Latency) Tj ET"
    pdf = pdf_file(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> "
                    "/Contents 5 0 R >>",
                    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
                    f"<< /Length {len(content)} >>\nstream\n{content}\nendstream"])
    opened = pdfium.PdfDocument(pdf)
    try:
        page = extract_page(opened, 0, "off")
    finally:
        opened.close()
    assert [ln.text for ln in page.lines] == ["Figure 7: Latency"]
    assert "text drawn as outlines" not in page.warnings


def test_a_font_whose_box_dwarfs_its_glyphs_keeps_its_lines_its_sizes_and_its_word_spaces(tmp_path: Path) -> None:
    """dvips's bitmap Type 3 fonts declare a box of 1000 pixels: pdfium gave their letters
    120 pt boxes beside 9 pt glyphs, so no word space was seen ("ErikMeijer",
    "associatedwithdatatype") and the title, the byline and the body, boxes overlapping,
    were read as one line in 92 pt type. The glyphs' own heights part them again."""
    pdf = tmp_path / "tall.pdf"
    pdf.write_bytes(tall_box_pdf([(20, ["Bananas,", "Lenses", "and", "Envelopes"]), (12, ["Erik", "Meijer"]),
                                  (10, ["We", "develop", "a", "calculus", "for", "lazy", "functional", "programming."])]))
    page = extract_page(pdfium.PdfDocument(str(pdf)), 0, "off")
    assert [ln.text for ln in page.lines] == ["Bananas, Lenses and Envelopes", "Erik Meijer",
                                              "We develop a calculus for lazy functional programming."]
    title, byline, body = (ln.size for ln in page.lines)
    assert title > byline > body and title < 20, (title, byline, body)
    record = paper_record({}, page)
    assert (record.title, record.authors) == ("Bananas, Lenses and Envelopes", ["Erik Meijer"])


def test_a_space_pdfium_makes_up_inside_a_word_of_an_ocr_layer_is_dropped(tmp_path: Path) -> None:
    """IJCAI's scanned proceedings carry an OCR layer that writes its own spaces and draws each
    word letter-spaced but for its last letter: pdfium made up a space there, "Car l",
    "Projec t MAC", "provin g theorems" (the title and byline lost to the record, the words to
    the lexical index). A page whose every space is made up (LaTeX) keeps them, tight as they are."""
    pdf = tmp_path / "ijcai.pdf"
    pdf.write_bytes(letter_spaced_pdf(["PLANNER: A LANGUAGE FOR PROVING THEOREMS IN ROBOTS", "Carl Hewitt",
                                       "Project MAC - Massachusetts Institute of Technology",
                                       *(["PLANNER is a language for proving theorems and manipulating models in a robot."] * 6)]))
    lines = [ln.text for ln in extract_page(pdfium.PdfDocument(str(pdf)), 0, "off").lines]
    assert lines[:3] == ["PLANNER: A LANGUAGE FOR PROVING THEOREMS IN ROBOTS", "Carl Hewitt",
                         "Project MAC - Massachusetts Institute of Technology"]
    assert lines[3] == "PLANNER is a language for proving theorems and manipulating models in a robot."
    latex = tmp_path / "latex.pdf"
    latex.write_bytes(placed_words_pdf([["We", "develop", "a", "calculus", "for", "lazy", "functional", "programs"]] * 12,
                                       space=0.17))
    assert extract_page(pdfium.PdfDocument(str(latex)), 0, "off").lines[0].text == \
        "We develop a calculus for lazy functional programs"


@pytest.mark.skipif(not ocr_available(), reason="OCR extra")
def test_words_set_up_a_scans_margin_are_no_part_of_its_title(tmp_path: Path) -> None:
    """SRI's Technical Note 309: "SRI International" up the cover's margin, read as one
    line as tall as a third of the page, was set on a line of the cover's ("lonall AN
    ABSTRACT PROLOG INSTRUCTION SET", which then took the date line into the title; here
    "SRI International October 1983 By: David H. D. Warren, …")."""
    pdf = tmp_path / "cover.pdf"
    pdf.write_bytes(shifted_pdf([(16, "AN ABSTRACT PROLOG INSTRUCTION SET"), (12, ""), (12, ""), (12, ""),
                                 (12, "Technical Note 309"), (12, ""), (12, "October 1983"), (12, ""), (12, ""),
                                 (12, "By: David H. D. Warren, Computer Scientist"),
                                 (12, "Artificial Intelligence Center"), *((11.0, line) for line in PROSE)],
                                upright=(40, "SRI International")))
    page = extract_page(pdfium.PdfDocument(str(pdf)), 0, "auto")
    assert page.source == "ocr"
    assert "October 1983" in [ln.text for ln in page.lines]  # no line of the cover took the upright words
    record = paper_record({}, page, "cover.pdf")
    assert record.title == "An Abstract Prolog Instruction Set"
    assert record.authors == ["David H. D. Warren"] and record.year == 1983


@pytest.mark.skipif(not ocr_available(), reason="OCR extra")
def test_ocr_reads_a_titles_lines_in_one_size_whatever_their_letters(tmp_path: Path) -> None:
    """A scan's title lost its first line: "The Nucleus of a" has no descender and
    "Multiprogramming System" three, so their boxes differ by a third in height. The type
    size comes from how far capitals and ascenders rise above the baseline."""
    pdf = tmp_path / "scan.pdf"
    pdf.write_bytes(shifted_pdf([(24, "The Nucleus of a"), (24, "Multiprogramming System"),
                                 (12, "Per Brinch Hansen"), (11, "Regnecentralen, Copenhagen, Denmark"),
                                 *((11.0, line) for line in PROSE)]))
    page = extract_page(pdfium.PdfDocument(str(pdf)), 0, "auto")
    assert page.source == "ocr"
    first, second = page.lines[:2]
    assert abs(first.size - second.size) <= 0.03 * first.size
    assert 20 <= first.size <= 28 and 9 <= page.lines[-1].size <= 13  # near the printed points
    record = paper_record({}, page, "scan.pdf")
    assert record.title == "The Nucleus of a Multiprogramming System"
    assert record.authors == ["Per Brinch Hansen"]


def test_the_detector_tells_shifted_text_from_prose_code_and_formulas() -> None:
    prose = "\n".join(PROSE)
    shifted = "".join(chr(ord(c) + 1) if " " <= c < "~" else c for c in prose)
    salad = "tab7bHp*]jez¡r*]?ì`ec7tv¦]_wbE3~jìbHtvc7tv¦]hli]#b p*^vcfbAtab\\nYj!r z p" * 6
    lisp = "(===> (EXECUTE-EXPRESSION #I(CLASSES-C::mul-expression :LEFT ?left :RIGHT ?right)\n" * 12
    maths = "softmax(QK^T/√dk)V where dk is the dimension, PE(pos,2i) = sin(pos/10000^(2i/dmodel))\n" * 8
    assert garbled_reason(prose) is None
    assert garbled_reason(lisp) is None and garbled_reason(maths) is None
    assert garbled_reason(shifted) is not None
    assert garbled_reason(salad) is not None
    assert garbled_reason("abc def ghi jkl", unmapped=40) is not None  # most glyphs without a character


def test_pages_of_the_shared_corpus_are_not_called_garbled() -> None:
    """Code, formulas, tables, a cover page of short lines: all read as text (no page of
    the shared corpus has a broken text layer)."""
    for name in ("docling_code_and_formula.pdf", "docling_redp5110_sampled.pdf", "paper_attention_1706.03762.pdf",
                 "table_pdfplumber_senate-expenditures.pdf", "misc_pypdf_habibi-arabic.pdf",
                 "docling_right_to_left_01.pdf"):
        doc = pdfium.PdfDocument(str(PDFS / name))
        for index in range(min(len(doc), 6)):
            page = extract_page(doc, index, "off")
            assert not any(w.startswith("garbled") for w in page.warnings), (name, index + 1, page.warnings)


def test_symbol_font_glyphs_read_as_printed() -> None:
    """CMMI10's code 15 is ϵ: it came out as the control character U+000F."""
    doc = pdfium.PdfDocument(str(ATTENTION))
    text = "\n".join(line.text for line in extract_page(doc, 6, "off").lines)
    assert "β2 = 0.98 and ϵ = 10^(−9)" in text
    assert "\x0f" not in text


# --- time limits -------------------------------------------------------------------------

def test_the_time_limit_grows_with_the_page_count() -> None:
    options = PdfOptions(timeout_s=60.0, page_s=2.0)
    assert time_limit(options, 10) == 60.0
    assert time_limit(options, 220) == 60.0 + 2.0 * 200


# --- title, authors, year ----------------------------------------------------------------

def test_the_record_comes_from_what_the_first_page_prints() -> None:
    info, first = _first_page(ATTENTION)
    record = paper_record(info, first, ATTENTION.name)
    assert record.title == "Attention Is All You Need"
    assert record.authors[:2] == ["Ashish Vaswani", "Noam Shazeer"] and len(record.authors) == 8
    assert not any("Google" in a or "@" in a or "University" in a for a in record.authors)
    assert record.year == 2017 and record.label("x") == "Vaswani et al., 2017"
    s2orc = PDFS / "paper_s2orc_2020.acl-main.447.pdf"
    record = paper_record(*_first_page(s2orc), s2orc.name)
    assert record.title == "S2ORC: The Semantic Scholar Open Research Corpus"
    assert record.authors == ["Kyle Lo", "Lucy Lu Wang", "Mark Neumann", "Rodney Kinney", "Daniel S. Weld"]


def test_the_year_is_never_the_files_creation_date() -> None:
    """Every PDF of the corpus: whatever year the record has, the first page prints it."""
    for pdf in sorted(PDFS.glob("*.pdf")):
        try:
            info, first = _first_page(pdf)
        except pdfium.PdfiumError:
            continue  # encrypted or damaged: test_pdf_ingest covers those
        record = paper_record(info, first, pdf.name)
        if record.year is None:
            continue
        printed = " ".join([first.margin, *(line.text for line in first.lines)])
        assert str(record.year) in printed or record.arxiv, (pdf.name, record.year, info.get("CreationDate"))


def test_no_printed_year_is_said_as_nd() -> None:
    assert citation_label(["Patrick Hunt", "Mahadev Konar", "Flavio P. Junqueira"], None, "ZooKeeper", "x") \
        == "Hunt et al., n.d."
    assert citation_label(["Christine van Vredendaal"], 2016, None, "x") == "van Vredendaal, 2016"
    assert page_year(None) is None


# --- sections ----------------------------------------------------------------------------

def test_section_labels_come_from_the_outline() -> None:
    """issue 31: "5 Training > 6.2 Model Variations", and a 3.3 sentence labelled 3.2.3."""
    doc = parse(ATTENTION, ATTENTION.name, PdfOptions(ocr="off"))
    paths = [" > ".join(s.heading_path) for s in doc.sections]
    assert "6 Results > 6.2 Model Variations" in paths
    assert not any(p.startswith("5 Training > 6") for p in paths)
    chunks = chunk_document(doc)
    ffn = next(c for c in chunks if "In addition to attention sub-layers" in c.text)
    assert "3.2.3" not in ffn.heading and "3.3 Position-wise Feed-Forward Networks".startswith(
        ffn.heading_path[-1]) or ffn.heading == "3 Model Architecture"
    assert next(c for c in chunks if "[1] Jimmy Lei Ba" in c.text).heading == "References"


def test_numbered_headings_nest_by_number_without_an_outline() -> None:
    """Where a PDF has no outline, "6.2" never sits under "5" even when "6 Results" is
    not recognised as a heading."""
    from athena_lab.pdf.structure import hidden_lines, sections

    doc = pdfium.PdfDocument(str(ATTENTION))
    pages = [extract_page(doc, i, "off") for i in range(len(doc))]
    paths = [" > ".join(s.heading_path) for s in sections(pages, hidden_lines(pages), outline=None)]
    assert any(p.endswith("6.2 Model Variations") for p in paths)
    assert not any(p.startswith("5 Training > 6") for p in paths)


# --- reference lists ---------------------------------------------------------------------

def test_reference_lists_are_marked() -> None:
    doc = parse(ATTENTION, ATTENTION.name, PdfOptions(ocr="off"))
    chunks = chunk_document(doc)
    cited = [c for c in chunks if c.references]
    assert cited and all(c.heading == "References" for c in cited)
    assert all(c.locator().get("references") is True for c in cited)
    assert not any(c.references for c in chunks if c.heading.startswith(("3 ", "5 ", "6 ")))


def test_reference_lists_are_no_evidence_but_answer_who_cites(tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    shutil.copy(ATTENTION, folder / ATTENTION.name)
    run_index(load_config(folder, index_dir=tmp_path / "index", overrides={"pdf.ocr": "off"}))
    ws = Workspace(folder, index_dir=tmp_path / "index")
    body = ws.search("layer normalization", k=8).citations()
    assert body and not any(c.get("references") for c in body)
    cites = ws.search("Which papers cite Layer normalization?", k=5)
    assert cites.hits and all(c.get("references") for c in cites.citations())
    assert "Layer normalization" in cites.hits[0].chunk.text  # "[1] Jimmy Lei Ba, … Layer normalization"
    assert cites.citations()[0]["label"].endswith(", reference list")


# --- the same paper twice ----------------------------------------------------------------

def test_the_same_paper_twice_is_indexed_once_and_listed_once(tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    (folder / "b").mkdir(parents=True)
    shutil.copy(ATTENTION, folder / "attention.pdf")
    shutil.copy(ATTENTION, folder / "b" / "attention-copy.pdf")
    summary = run_index(load_config(folder, index_dir=tmp_path / "index", overrides={"pdf.ocr": "off"}))
    assert summary.duplicates == 1 and summary.new == 1
    ws = Workspace(folder, index_dir=tmp_path / "index")
    listed = ws.list_docs()
    assert [d["path"] for d in listed] == ["attention.pdf"]
    assert listed[0]["copies"] == ["b/attention-copy.pdf"]
    hits = ws.search("scaled dot-product attention", k=10).citations()
    assert {c["path"] for c in hits} == {"attention.pdf"}
    # the indexed copy goes: the other is indexed in its place on the next run
    (folder / "attention.pdf").unlink()
    summary = run_index(load_config(folder, index_dir=tmp_path / "index", overrides={"pdf.ocr": "off"}))
    assert summary.new == 1 and summary.removed == 1
    hits = ws.search("scaled dot-product attention", k=10).citations()
    assert {c["path"] for c in hits} == {"b/attention-copy.pdf"}


def test_a_scan_whose_only_text_is_a_download_stamp_is_read_by_ocr(tmp_path: Path) -> None:
    """IEEE Xplore serves old scans with one line of text over the image ("Authorized
    licensed use limited to: … Downloaded on … from IEEE Xplore"): the page was taken as
    text, and the paper had no title, authors or searchable words at all."""
    pdf = tmp_path / "stamped.pdf"
    pdf.write_bytes(stamped_scan_pdf([("Implementing Causal Shared Memory", 44), ("Jane Doe and John Smith", 28),
                                      *[("A paper scanned from the proceedings of a conference", 24)] * 3],
                                     "Authorized licensed use limited to: Univ of Somewhere. Downloaded on September 23,2024 "
                                     "at 02:49:26 UTC from IEEE Xplore. Restrictions apply."))
    doc = parse(pdf, "stamped.pdf", PdfOptions(ocr="auto"))
    page = doc.metadata["pages"][0]
    assert page["source"] == "ocr" and "scanned page: text from OCR" in page["warnings"]
    assert "scanned from the proceedings" in " ".join(b.text for s in doc.sections for b in s.blocks)
    opened = pdfium.PdfDocument(pdf)
    try:
        record = paper_record({}, extract_page(opened, 0, "auto"), "stamped.pdf")
    finally:
        opened.close()
    assert (record.title, record.authors) == ("Implementing Causal Shared Memory", ["Jane Doe", "John Smith"])


def test_a_born_digital_figure_page_with_a_download_stamp_keeps_its_caption(tmp_path: Path) -> None:
    """Only a scan (an image over most of the page) goes to OCR past its stamp: a figure with
    its caption keeps its text layer, with or without OCR."""
    pdf = tmp_path / "figure.pdf"
    pdf.write_bytes(stamped_scan_pdf([("a plot", 30)], "Authorized licensed use limited to: Univ of Somewhere. "
                                     "Downloaded on September 23,2024 from IEEE Xplore. Restrictions apply.",
                                     box=(100, 400, 400, 300), caption="Fig. 12. Screenshots of the tool."))
    opened = pdfium.PdfDocument(pdf)
    try:
        for ocr in ("off", "auto"):
            page = extract_page(opened, 0, ocr)
            assert page.source == "text" and any("Screenshots of the tool" in ln.text for ln in page.lines), ocr
    finally:
        opened.close()


def test_a_text_layer_over_an_image_of_the_whole_page_is_known_as_a_scan(tmp_path: Path) -> None:
    """A scan carrying its own OCR's text layer reads as text, and the page says it lies over
    an image of the page (the record's rules read its marks as a scan's); a figure's image
    with a caption does not."""
    layer = "A. Taubin*, A. Kondratyev* and M. Kishinevskyt, The University of Aizu, Japan"
    pdf = tmp_path / "scan.pdf"
    pdf.write_bytes(stamped_scan_pdf([("Deadlock Prevention Using Petri Nets", 40)], layer))
    figure = tmp_path / "figure.pdf"
    figure.write_bytes(stamped_scan_pdf([("a plot", 30)], layer, box=(100, 400, 400, 300), caption="Fig. 1. A plot."))
    for path, scan in ((pdf, True), (figure, False)):
        opened = pdfium.PdfDocument(path)
        try:
            page = extract_page(opened, 0, "off")
        finally:
            opened.close()
        assert page.source == "text" and page.scan is scan and any("Kondratyev" in ln.text for ln in page.lines), path


def test_letters_of_a_font_with_no_metrics_stay_one_word() -> None:
    """Old dvips output sets its text in bitmap fonts scaled from 1 pt, whose glyphs pdfium
    boxes tight to their ink: an x-height letter's box is no em, and letters stand apart by
    their side bearings, so a gap of a fifth of that height made up spaces inside words
    ("Fred D ougli s", "Pro c e s s", the Sprite papers' bylines and titles). Between such
    letters the tallest of the letters before is the em (a word space is wider than 0.3 of
    it); a font that says its size keeps a fifth of an em, and signs keep their spaces."""
    def char(text: str, x0: float, x1: float, height: float, font: float = 0.24) -> Char:
        return Char(text, x0, 160 - height, x1, 160, height, False, font)
    fred = [char("F", 273.8, 280.3, 8.2), char("r", 280.3, 284.2, 5.0), char("e", 284.9, 289.4, 5.0),
            char("d", 290.4, 295.9, 8.4), None, char("D", 300.7, 308.2, 8.2), char("o", 309.4, 314.4, 5.0),
            char("u", 315.1, 320.9, 5.0), char("g", 321.6, 326.6, 7.9), char("l", 327.4, 330.0, 8.4),
            char("i", 330.7, 333.1, 8.2), char("s", 334.3, 337.7, 5.0)]
    assert [f.text for f in fragments(fred)] == ["Fred Douglis"]
    sized = [None if c is None else Char(c.text, c.x0, c.y0, c.x1, c.y1, c.size, False, 10.0) for c in fred]
    assert [f.text for f in fragments(sized)] == ["Fred D ougli s"]  # a font with metrics: its boxes are no ink
    signs = [char("w", 100.0, 105.0, 5.0), char(",", 105.5, 107.0, 2.0), char("F", 109.0, 114.4, 8.2),
             char("=", 116.0, 121.4, 3.0), char("f", 123.4, 126.8, 8.2)]
    assert [f.text for f in fragments(signs)] == ["w, F = f"]
