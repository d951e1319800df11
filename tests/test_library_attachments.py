"""A library item attached to the wrong PDF (a Zotero slip, a .bib file field naming another
paper's file) is named with its file and what to check: the attached PDF's first pages, as
the index holds them, do not print the item's title. The record still wins; right
attachments, subtitles, supplements, scans and title-matched entries say nothing. Real PDFs
of the shared corpus, a real index, the real Zotero library of tests/fixtures."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from athena_lab.index.catalog import LibraryRow
from athena_lab.ingest.attachments import MIN_WORDS, attachment_warnings, title_forms, words_on
from athena_lab.ingest.bibtitles import FoldedPage, flat_title
from athena_lab.workspace import Workspace
from corpus_files import CORPORA
from zotero_library import FEKETA, make_library

FAST = {"embedding.provider": "none"}
ATTENTION = "paper_attention_1706.03762.pdf"
TRACEMONKEY = "paper_tracemonkey_pldi09.pdf"
PASA = "paper_pasa.pdf"
S2ORC = "paper_s2orc_2020.acl-main.447.pdf"
PAPERMAGE = "paper_papermage_emnlp2023.pdf"
SCAN = "scanned_docling_ocr_test.pdf"  # an image of a page, no text layer
FEKETA_PDF = "storage/BHZP9XFD/Feketa et al. - 2017 - Almost ISS property for feedback connected systems.pdf"

REFS = r"""@inproceedings{gal2009, author = {Gal, Andreas and Eich, Brendan}, year = {2009},
  title = {Trace-based just-in-time type specialization for dynamic languages},
  file = {:papers/paper_tracemonkey_pldi09.pdf:PDF}}
@article{he2025pasa, author = {He, Yichen}, year = {2025},
  title = {{PaSa}: An {LLM} Agent for Comprehensive Academic Paper Search --- a Record whose Subtitle No Page Prints},
  file = {papers/paper_pasa.pdf}}
@inproceedings{vaswani2017, author = {Vaswani, Ashish}, year = {2017},
  title = {Attention Is All You Need},
  file = {:papers/paper_s2orc_2020.acl-main.447.pdf:PDF}}
@article{scanned, author = {Lo, Kyle}, title = {S2ORC: The Semantic Scholar Open Research Corpus},
  file = {:papers/scanned_docling_ocr_test.pdf:PDF}}
"""

WRONG = ("wrong file link? the linked file 'papers/paper_s2orc_2020.acl-main.447.pdf' does not print the title of entry 'vaswani2017' "
         "of refs.bib (\"Attention Is All You Need\") on its first pages: check the entry's file field (in BibDesk, "
         "its linked file); until then it is cited with this record")


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Workspace, dict]:
    root = tmp_path_factory.mktemp("attachments") / "library"
    (root / "papers").mkdir(parents=True)
    for name in (ATTENTION, TRACEMONKEY, PASA, S2ORC, SCAN):
        shutil.copy(CORPORA / "pdfs" / name, root / "papers" / name)
    (root / "refs.bib").write_text(REFS, encoding="utf-8")
    ws = Workspace(root, tmp_path_factory.mktemp("index"), overrides=FAST)
    yield ws, ws.index().as_dict()
    ws.close()


@pytest.mark.slow
def test_an_item_attached_to_the_wrong_pdf_is_named_in_the_summary(indexed: tuple[Workspace, dict]) -> None:
    ws, summary = indexed
    assert summary["warnings"]["papers/paper_s2orc_2020.acl-main.447.pdf"] == [WRONG], summary["warnings"]
    assert summary["library"] == {"items": 4, "warnings": 1, "from": ["refs.bib"]}, summary
    # in `athena status` (and the sidebar's warnings), and on the paper in the papers view
    skipped = {s["path"]: s["warnings"] for s in ws.status()["skipped"]}
    assert skipped["papers/paper_s2orc_2020.acl-main.447.pdf"] == [WRONG]
    papers = {p["id"]: p for p in ws.papers()}
    vaswani = papers["bibtex:vaswani2017"]
    assert vaswani["warnings"] == [WRONG]
    # a warning only: the user's record still wins for the file
    assert vaswani["paths"] == [f"papers/{S2ORC}"] and vaswani["label"] == "Vaswani, 2017"


@pytest.mark.slow
def test_a_right_attachment_gives_no_warning(indexed: tuple[Workspace, dict]) -> None:
    ws, summary = indexed
    # TraceMonkey prints its title broken over lines and hyphenated; PaSa's entry has a subtitle of its own
    papers = {p["id"]: p for p in ws.papers()}
    assert papers["bibtex:gal2009"]["warnings"] == [] and papers["bibtex:he2025pasa"]["warnings"] == []
    assert set(summary["warnings"]) <= {"papers/paper_s2orc_2020.acl-main.447.pdf", f"papers/{SCAN}"}, summary


@pytest.mark.slow
def test_a_scan_with_no_text_gives_no_false_alarm(indexed: tuple[Workspace, dict]) -> None:
    ws, summary = indexed
    said = [w for w in summary["warnings"].get(f"papers/{SCAN}", [])]
    assert not [w for w in said if "does not print the title" in w], said  # the parser's own note may be there
    assert not [w for w in ws.status()["skipped"] if w["path"] == f"papers/{SCAN}"]


@pytest.mark.slow
def test_a_changed_pdf_under_an_unchanged_library_is_checked_again(tmp_path: Path) -> None:
    root = make_library(tmp_path / "Zotero")
    # Feketa's item is attached to Attention's pages: give the item that paper's title, so it is right.
    with sqlite3.connect(root / "zotero.sqlite") as conn:
        conn.execute("UPDATE itemDataValues SET value = 'Attention Is All You Need' WHERE value = "
                     "'Almost ISS property for feedback connected systems'")
    ws = Workspace(root, tmp_path / "index", overrides=FAST)
    try:
        first = ws.index()
        assert first.library is not None and FEKETA_PDF not in first.warnings
        assert first.library["warnings"] == 5  # the missing PDF, and four items on other papers' pages (fixture)
        # Zotero's database does not change; the attached file does (another paper saved over it).
        shutil.copyfile(CORPORA / "pdfs" / PAPERMAGE, root / FEKETA_PDF)
        second = ws.index()
        assert second.changed == 1 and second.library is None  # the library was not read again
        assert second.warnings[FEKETA_PDF] == [
            f"wrong attachment? the attached file '{FEKETA_PDF}' does not print the title of Zotero item 9PWIL7JY (\"Attention Is All "
            "You Need\") on its first pages: check the attachment in Zotero; until then it is cited with this record"]
        assert any("does not print the title" in w for w in {p["id"]: p for p in ws.papers()}[FEKETA]["warnings"])
        third = ws.index()  # nothing changed: not checked again, and the warning stays
        assert third.library is None and third.warnings[FEKETA_PDF] == second.warnings[FEKETA_PDF]
        # The same bytes as another attachment (TraceMonkey's, indexed once, under that path) are checked too.
        shutil.copyfile(CORPORA / "pdfs" / TRACEMONKEY, root / FEKETA_PDF)
        assert ws.index().duplicates == 1
        skipped = {s["path"]: s["warnings"] for s in ws.status()["skipped"]}
        assert "does not print the title of Zotero item 9PWIL7JY" in skipped[FEKETA_PDF][0], skipped
        shutil.copyfile(CORPORA / "pdfs" / ATTENTION, root / FEKETA_PDF)  # the right file back
        fourth = ws.index()
        assert FEKETA_PDF not in fourth.warnings
        assert not [s for s in ws.status()["skipped"] if s["path"] == FEKETA_PDF]
        assert {p["id"]: p for p in ws.papers()}[FEKETA]["warnings"] == []
    finally:
        ws.close()


def _row(key: str, title: str, files: list[str], **bibtex: str) -> LibraryRow:
    record = ({"source": "bibtex", "title": title, "bibtex": {"file": "refs.bib", "key": key, **bibtex}} if bibtex
              else {"source": "zotero", "title": title, "zotero": {"key": key}})
    return LibraryRow(f"x:{key}", record, [], [], [], files, True)


FILLER = " ".join(f"word{i}" for i in range(MIN_WORDS))  # the rest of a page's text


@pytest.mark.unit
def test_a_subtitle_a_supplement_a_title_match_and_a_textless_page_raise_no_alarm() -> None:
    pages = {
        "bert.pdf": f"BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding {FILLER}",
        "supplement.pdf": f"Supplementary material {FILLER}",
        "paper.pdf": f"Deep Residual Learning for Image Recognition {FILLER}",
        "scan.pdf": "3 0 obj",
        "other.pdf": f"Something else entirely {FILLER}",
    }
    rows = [
        # the PDF prints the main title, the record a longer subtitle
        _row("bert", "BERT pre-training of deep bidirectional transformers: a record whose longer subtitle nobody "
             "printed anywhere", ["bert.pdf"], linked_by="file"),
        _row("HE", "Deep residual learning for image recognition", ["supplement.pdf", "paper.pdf"]),  # a supplement
        _row("byTitle", "Nothing on that page", ["other.pdf"], linked_by="title"),  # matched on its title already
        _row("SCAN", "A scanned paper", ["scan.pdf"]),  # no text to tell by
        _row("WRONG", "Mastering the game of Go", ["other.pdf"]),
        _row("TWO", "Mastering chess and shogi", ["other.pdf", "supplement.pdf"]),
    ]
    found = attachment_warnings(rows, lambda paths: {p: t for p, t in pages.items() if p in paths})
    assert list(found) == ["other.pdf"] and len(found["other.pdf"]) == 2, found
    assert found["other.pdf"][0].startswith("wrong attachment? the attached file 'other.pdf' does not print the title of Zotero item "
                                            "WRONG (\"Mastering the game of Go\")")
    assert found["other.pdf"][1].startswith("wrong attachment? the attached files 'other.pdf' and 'supplement.pdf' do not print")


@pytest.mark.unit
def test_a_title_passes_printed_whole_before_a_subtitle_or_by_most_of_its_words() -> None:
    assert title_forms("PaSa: An LLM Agent for Academic Paper Search — Extended") == [
        "pasaanllmagentforacademicpapersearchextended", "pasaanllmagentforacademicpapersearch"]  # "PaSa" alone: no
    page = FoldedPage(f"The Level Ancestor Problem simpli#ed. Michael A. Bender {FILLER}")
    assert not page.prints(flat_title("The Level Ancestor Problem simplified"))
    assert words_on("The Level Ancestor Problem simplified", page) == 0.75  # level, ancestor, problem: it passes
    assert words_on("Attention Is All You Need", FoldedPage("attention is what we need")) == 0.0  # two words: printed


@pytest.mark.unit
def test_no_library_and_no_linked_pdf_read_nothing() -> None:
    def first_pages(paths: set[str]) -> dict[str, str]:
        raise AssertionError("no page is read")

    assert attachment_warnings([], first_pages) == {}
    assert attachment_warnings([_row("T", "By title", ["x.pdf"], linked_by="title")], first_pages) == {}
