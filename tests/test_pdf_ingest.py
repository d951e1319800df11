"""PDF ingestion on the 47 real PDFs of the shared corpus.

The corpus is copied once per session and parsed once through the worker pool (OCR on
when the extra is installed); every test reads that shared result, which keeps the
whole file within a few minutes on two cores.
"""

from __future__ import annotations

import csv
import difflib
import shutil
import unicodedata
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from athena_lab.document import Block, ParsedDocument
from athena_lab.errors import ParseError
from athena_lab.ingest.parsers.pdf import PdfOptions, parse
from athena_lab.pdf.ocr import INSTALL_HINT, ocr_available
from athena_lab.ingest.pdf_pool import parse_pdfs
from athena_lab.pdf.preview import render_page_preview
from athena_lab.pdf.source import read_pdf_source

from corpus_files import CORPORA  # noqa: E402

pytestmark = pytest.mark.slow

CORPUS = CORPORA / "pdfs"


def _manifest() -> dict[str, dict[str, str]]:
    with (CORPUS / "manifest.csv").open(newline="") as fh:
        return {row["file"]: row for row in csv.DictReader(fh)}


def _passwords(manifest: dict[str, dict[str, str]]) -> dict[str, str]:
    """Manifest passwords look like "1234 (owner: owner)" or "(none needed; ...)"."""
    out = {}
    for name, row in manifest.items():
        password = row["password"].strip()
        if password and not password.startswith("("):
            out[name] = password.split(" ")[0]
    return out


@pytest.fixture(scope="session")
def manifest() -> dict[str, dict[str, str]]:
    return _manifest()


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("pdfs")
    for pdf in CORPUS.glob("*.pdf"):
        shutil.copy2(pdf, target / pdf.name)
    return target


@pytest.fixture(scope="session")
def options(manifest: dict[str, dict[str, str]]) -> PdfOptions:
    return PdfOptions(passwords=_passwords(manifest), timeout_s=240.0)


@pytest.fixture(scope="session")
def parsed(corpus: Path, options: PdfOptions) -> dict[str, ParsedDocument | str]:
    jobs = [(pdf, pdf.name) for pdf in sorted(corpus.glob("*.pdf"))]
    return dict(parse_pdfs(jobs, options))


def _doc(parsed: dict[str, ParsedDocument | str], name: str) -> ParsedDocument:
    doc = parsed[name]
    assert isinstance(doc, ParsedDocument), doc
    return doc


def _blocks(doc: ParsedDocument) -> list[Block]:
    return [b for s in doc.sections for b in s.blocks]


def _squash(text: str) -> str:
    """Text compared across extractions: no whitespace, no hyphens, ligatures expanded, no
    carets (the extractor writes an exponent as ^T where the page prints a raised T)."""
    text = unicodedata.normalize("NFKC", text)
    return "".join(ch for ch in text if not ch.isspace() and ch not in "-\u00ad\x02^_")


def _block_with(doc: ParsedDocument, passage: str) -> Block:
    hits = [b for b in _blocks(doc) if _squash(passage) in _squash(b.text)]
    assert hits, f"{passage!r} not found in {doc.path}"
    return hits[0]


def test_all_corpus_files_parse_without_crash_or_hang(parsed, manifest) -> None:
    assert set(parsed) == set(manifest)
    for name, result in parsed.items():
        if isinstance(result, str):
            assert name in result or result.startswith(("encrypted", "empty", "damaged", "timed out")), result
            assert "Traceback" not in result


def test_every_encrypted_malformed_or_scanned_file_gets_a_warning_or_clear_error(parsed) -> None:
    for name, result in parsed.items():
        if not name.startswith(("encrypted_", "malformed_", "scanned_")):
            continue
        if isinstance(result, str):
            continue  # a ParseError message is the clear error
        page_warnings = [w for page in result.metadata["pages"] for w in page["warnings"]]
        if name.startswith("encrypted_"):
            continue  # opened with its password: nothing is wrong any more
        assert result.warnings or page_warnings, f"{name} parsed silently"


def test_encrypted_files_open_with_their_manifest_password(parsed) -> None:
    for name, result in parsed.items():
        if name.startswith("encrypted_"):
            assert isinstance(result, ParsedDocument), f"{name}: {result}"
            assert sum(len(b.text) for b in _blocks(result)) > 0, name


def test_encrypted_file_without_password_is_a_clear_error(corpus) -> None:
    name = "encrypted_pdfjs_issue6010_1_pwabc.pdf"
    with pytest.raises(ParseError, match=r"encrypted: set a password for .*issue6010.* \[pdf.passwords\]"):
        parse(corpus / name, name, PdfOptions())


def test_empty_and_unrepairable_files_are_errors_naming_the_file(parsed) -> None:
    assert parsed["malformed_pdfplumber_empty.pdf"] == "empty file: malformed_pdfplumber_empty.pdf has 0 bytes"
    damaged = parsed["misc_pypdf_unreadablemetadata.pdf"]
    assert isinstance(damaged, str) and damaged.startswith("damaged beyond repair")
    assert "misc_pypdf_unreadablemetadata.pdf" in damaged


def test_repaired_cross_reference_table_is_reported(parsed) -> None:
    doc = _doc(parsed, "malformed_pdfjs_xref_command_missing.pdf")
    assert any("cross-reference" in w for w in doc.warnings)
    assert "Reduced test-case" in _blocks(doc)[0].text


@pytest.mark.parametrize(("name", "passage", "page"), [
    ("paper_attention_1706.03762.pdf",
     "Most competitive neural sequence transduction models have an encoder-decoder structure", 2),
    ("paper_attention_1706.03762.pdf", "We trained on the standard WMT 2014 English-German dataset", 7),
    ("paper_s2orc_2020.acl-main.447.pdf", "a large corpus of 81.1M English-language academic papers", 1),
    ("paper_tracemonkey_pldi09.pdf", "Every compiled trace contains all the guards (checks) required", 2),
])
def test_known_passages_are_cited_on_their_page(parsed, name, passage, page) -> None:
    block = _block_with(_doc(parsed, name), passage)
    assert block.page == page


def test_three_column_page_reads_column_by_column(parsed) -> None:
    doc = _doc(parsed, "multicol_pdfplumber_federal-register-2020-17221.pdf")
    block = _block_with(doc, "Investigation of the accident has been completed by the Indonesian authorities")
    assert block.page == 2
    assert len({round(r.x) for r in block.regions}) <= 3  # one column: lines start together


def test_two_column_paper_keeps_sentences_within_a_column(parsed) -> None:
    doc = _doc(parsed, "paper_s2orc_2020.acl-main.447.pdf")
    block = _block_with(doc, "Academic papers are an increasingly important textual domain for natural "
                             "language processing (NLP) research")
    assert block.page == 1 and max(r.x + r.width for r in block.regions) < 300


@pytest.mark.parametrize(("name", "passage", "page"), [
    # a two-column body under a figure whose text runs across the gutter
    ("paper_papermage_emnlp2023.pdf",
     "PDF2ImageRasterizer (using pdf2image) to update the first Document with images of pages.", 4),
    # an introduction under an author block whose lines run across the gutter
    ("paper_2302.07302v1.pdf", "Researchers draw from prior work to synthesize existing knowledge, identify "
                               "research opportunities, and find inspirations for future research.", 1),
    # under a full-width table
    ("paper_tracemonkey_pldi09.pdf", "run natively, we break even after running a trace 270 times.", 12),
])
def test_a_block_that_hides_the_gutter_leaves_the_columns_below_it_apart(parsed, name, passage, page) -> None:
    block = _block_with(_doc(parsed, name), passage)
    lefts, rights = {r.x < 300 for r in block.regions}, {r.x + r.width < 310 for r in block.regions}
    assert block.page == page and len(lefts) == 1 and lefts == rights  # all in one column


def test_a_caption_across_both_columns_is_one_block(parsed) -> None:
    block = _block_with(_doc(parsed, "paper_2302.07302v1.pdf"),
                        "unexplored citations are highlighted in different shades of yellow to indicate their "
                        "potential relevance to the user.")
    assert block.page == 2 and len(block.regions) >= 4  # the caption's lines, not one line each


def test_line_end_hyphenation_is_repaired(parsed) -> None:
    doc = _doc(parsed, "paper_s2orc_2020.acl-main.447.pdf")
    block = _block_with(doc, "academic papers exhibit many interesting characteristics")
    assert "many interesting" in block.text and "interest-" not in block.text


def test_repeated_headers_and_page_numbers_are_stripped(parsed) -> None:
    doc = _doc(parsed, "multicol_pdfplumber_federal-register-2020-17221.pdf")
    assert not any("Federal Register / Vol. 85" in b.text for b in _blocks(doc))
    attention = _doc(parsed, "paper_attention_1706.03762.pdf")
    footers = [b for b in _blocks(attention) for line, region in zip(b.text.split("\n"), b.regions)
               if line.strip() == str(b.page) and region.y > 700]
    assert footers == []


def test_numbered_headings_give_a_heading_path(parsed) -> None:
    doc = _doc(parsed, "paper_attention_1706.03762.pdf")
    paths = [" > ".join(s.heading_path) for s in doc.sections]
    assert "3 Model Architecture > 3.2 Attention > 3.2.1 Scaled Dot-Product Attention" in paths
    block = _block_with(doc, "We trained on the standard WMT 2014 English-German dataset")
    section = next(s for s in doc.sections if block in s.blocks)
    assert section.heading_path[-1] == "5.1 Training Data and Batching"


def test_no_chunk_of_the_corpus_holds_a_control_character(parsed) -> None:
    """Every chunk of every PDF, its heading and the record: no C0 or C1 control (a
    symbol font's glyph reported by its code, like the Attention paper's ϵ as U+000F)."""
    from athena_lab.ingest.chunking import chunk_document

    def controls(text: str) -> list[str]:
        return [hex(ord(c)) for c in text if (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F]

    for name, result in parsed.items():
        if isinstance(result, str):
            continue
        chunks = chunk_document(result)
        for chunk in chunks:
            assert not controls(chunk.text + chunk.heading), (name, chunk.heading, controls(chunk.text))
        record = " ".join([result.metadata.get("title") or "", *result.metadata.get("authors", [])])
        assert not controls(record), (name, record)


def test_citation_label_comes_from_first_page_authors_and_year(parsed) -> None:
    assert _doc(parsed, "paper_attention_1706.03762.pdf").metadata["label"] == "Vaswani et al., 2017"
    s2orc = _doc(parsed, "paper_s2orc_2020.acl-main.447.pdf")
    assert s2orc.metadata["label"] == "Lo et al., 2020"
    assert s2orc.title == "S2ORC: The Semantic Scholar Open Research Corpus"


def test_tables_are_one_block_with_rows_on_lines_and_csv(parsed) -> None:
    doc = _doc(parsed, "paper_attention_1706.03762.pdf")
    table = _block_with(doc, "Table 3: Variations on the Transformer architecture")
    assert table.kind == "table"
    assert table.end_line - table.start_line + 1 == len(table.text.split("\n")) == len(table.regions)
    assert table.extra["csv"].count("\n") >= 10


def test_blocks_stay_on_one_page_with_one_region_per_line(parsed) -> None:
    for result in parsed.values():
        if isinstance(result, str):
            continue
        assert result.pages == len(result.metadata["pages"])
        for block in _blocks(result):
            assert all(r.page == block.page for r in block.regions)
            assert len(block.regions) == len(block.text.split("\n")) == block.end_line - block.start_line + 1
            assert 0.0 <= block.confidence <= 1.0


def _text_in(textpage: pdfium.PdfTextPage, height: float, region) -> str:
    return textpage.get_text_bounded(left=region.x - 0.5, bottom=height - region.y - region.height - 0.5,
                                     right=region.x + region.width + 0.5, top=height - region.y + 0.5)


@pytest.mark.parametrize("name", ["paper_attention_1706.03762.pdf", "paper_s2orc_2020.acl-main.447.pdf",
                                  "multicol_pdfplumber_federal-register-2020-17221.pdf",
                                  "docling_right_to_left_01.pdf"])
def test_regions_contain_the_cited_text(parsed, corpus, name) -> None:
    doc = _doc(parsed, name)
    pdf = pdfium.PdfDocument(str(corpus / name))
    checked = 0
    for block in _blocks(doc)[:60]:
        page = pdf[block.page - 1]
        textpage = page.get_textpage()
        printed = [_squash(_text_in(textpage, page.get_height(), r)) for r in block.regions] + [""]
        for i, line in enumerate(block.text.split("\n")):
            # a word split by a line-end hyphen is joined onto the upper line, so its
            # second half is printed in the next line's rectangle
            inside = printed[i] + printed[i + 1]
            wanted = _squash(line)
            matched = sum(m.size for m in difflib.SequenceMatcher(None, wanted, inside,
                                                                  autojunk=False).get_matching_blocks())
            assert matched >= 0.85 * len(wanted), (block.page, line, inside)
            checked += 1
    assert checked > 10


def test_read_pdf_source_lines_agree_with_parsed_blocks(parsed, corpus) -> None:
    name = "paper_attention_1706.03762.pdf"
    block = _block_with(_doc(parsed, name), "Most competitive neural sequence transduction models")
    source = read_pdf_source(corpus / name, block.page)
    assert source["pages"] == 15 and source["page"] == block.page
    lines = [ln["text"] for ln in source["lines"][block.start_line - 1:block.end_line]]
    assert "\n".join(lines) == block.text
    only = read_pdf_source(corpus / name, block.page, region=block.regions[0].as_dict())
    assert [ln["line"] for ln in only["lines"]] == [block.start_line]


def test_page_preview_highlights_regions_and_is_cached(parsed, corpus, tmp_path) -> None:
    name = "paper_attention_1706.03762.pdf"
    block = _block_with(_doc(parsed, name), "Most competitive neural sequence transduction models")
    regions = [r.as_dict() for r in block.regions]
    png = render_page_preview(corpus / name, block.page, regions, tmp_path / "previews")
    plain = render_page_preview(corpus / name, block.page, [], tmp_path / "previews")
    assert png.exists() and plain.exists() and png != plain
    assert png.read_bytes() != plain.read_bytes()
    assert render_page_preview(corpus / name, block.page, regions, tmp_path / "previews") == png


def test_arabic_and_korean_read_as_text(parsed) -> None:
    arabic = "\n".join(b.text for b in _blocks(_doc(parsed, "docling_right_to_left_01.pdf")))
    assert "تحسين" in arabic and "البرمجة" in arabic
    korean = "\n".join(b.text for b in _blocks(_doc(parsed, "docling_normal_4pages.pdf")))
    assert sum("\uac00" <= ch <= "\ud7a3" for ch in korean) > 200


def test_scanned_page_is_read_by_ocr_or_says_how_to_get_it(parsed) -> None:
    doc = _doc(parsed, "scanned_docling_ocr_test.pdf")
    page = doc.metadata["pages"][0]
    if ocr_available():
        text = " ".join(b.text for b in _blocks(doc))
        assert "Docling bundles PDF document conversion" in text
        assert all(b.regions and b.confidence > 0.5 for b in _blocks(doc))
    else:
        assert INSTALL_HINT in page["warnings"]


def test_a_long_file_gets_time_for_its_pages(corpus) -> None:
    """The limit grows with the page count the worker reports, and counts from when the
    worker starts the file (not while it was importing): a 117-page book that takes longer
    than the base 2 s parses, with 2 s per page beyond the first 20."""
    name = "long_pypdf_GeoTopo-komprimiert.pdf"
    results = dict(parse_pdfs([(corpus / name, name)], PdfOptions(timeout_s=2.0, page_s=2.0, ocr="off"),
                              workers=1))
    assert isinstance(results[name], ParsedDocument) and results[name].pages == 117


def test_pool_stops_a_parse_that_runs_past_the_time_limit(corpus) -> None:
    name = "long_pypdf_GeoTopo-komprimiert.pdf"
    results = dict(parse_pdfs([(corpus / name, name)], PdfOptions(timeout_s=0.5, page_s=0.0, ocr="off"),
                              workers=1))
    assert results == {name: "timed out after 0.5 s"}


def test_a_worker_that_dies_with_a_file_sent_ahead_costs_no_file(corpus) -> None:
    """Each worker is sent its next file while it parses one (``AHEAD``); when it dies, which
    of its files killed it is unknown, so each is parsed again alone, and a file that did
    not kill it comes back parsed."""
    import psutil

    names = sorted(p.name for p in corpus.glob("*.pdf") if not p.name.startswith(("long_", "encrypted")))[:4]
    killed: list[int] = []

    def kill_the_first_worker() -> bool:
        if not killed:
            workers = [p for p in psutil.Process().children() if "spawn_main" in " ".join(p.cmdline())]
            first = min(workers, key=lambda p: p.create_time())
            killed.append(first.pid)
            first.kill()
        return False

    results = dict(parse_pdfs([(corpus / n, n) for n in names], PdfOptions(ocr="off"), workers=2,
                              idle=kill_the_first_worker))
    assert killed and sorted(results) == names
    assert all(isinstance(doc, ParsedDocument) for doc in results.values()), results
