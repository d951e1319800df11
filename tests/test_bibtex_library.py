"""A folder of papers with the researcher's BibTeX file beside them (JabRef, Mendeley,
Zotero's export, Better BibTeX): each entry that links a file is that file's record — in
citations, labels, the papers view and the export, which keeps the researcher's cite key —
and it is how a record the first page was read wrong for gets fixed. Real PDFs of the
shared corpus, a real index; a broken entry, a missing file, a file outside the folder and
two files of one name are each named while the rest reads."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from athena_lab.citations.bibliography import render
from athena_lab.workspace import Workspace
from bibtex_parsers import parse_all, text_of
from corpus_files import CORPORA
from http_servers import fast_env, run_cli
from test_zotero_live import wait_for

pytestmark = pytest.mark.slow

FAST = {"embedding.provider": "none"}
ATTENTION = "paper_attention_1706.03762.pdf"
SCIBERT = "paper_scibert_1903.10676.pdf"
TRACEMONKEY = "paper_tracemonkey_pldi09.pdf"

# As JabRef writes it (Description:path:Type, relative to the .bib), with LaTeX in a name
# and the title, a braced organisation, a string macro, keywords and an arXiv eprint.
JABREF = r"""@String{neurips = {Advances in Neural Information Processing Systems}}

@InProceedings{Vaswani2017,
  author        = {Vaswani, Ashish and Shazeer, Noam and Parmar, Niki and Uszkoreit, Jakob and Jones, Llion and Gomez, Aidan N. and Kaiser, {\L}ukasz and Polosukhin, Illia},
  title         = {Attention is All you {Need}},
  booktitle     = neurips,
  year          = {2017},
  volume        = {30},
  pages         = {5998--6008},
  eprint        = {1706.03762},
  archivePrefix = {arXiv},
  keywords      = {transformers; attention},
  file          = {:papers/paper_attention_1706.03762.pdf:PDF},
}

@Article{beltagy2019,
  author  = {Beltagy, Iz and Lo, Kyle and Cohan, Arman and {Allen Institute for AI}},
  title   = {{SciBERT}: A Pretrained Language Model for Scientific Text},
  journal = {EMNLP-IJCNLP},
  date    = {2019-11},
  doi     = {10.18653/v1/D19-1371},
  file    = {Full Text PDF:/home/someone/Zotero/storage/K3Q8/paper_scibert_1903.10676.pdf:application/pdf},
}

@Book{knuth1984,
  author = {Knuth, Donald E.},
  title  = {The {\TeX}book},
  year   = {1984},
}
"""


def _folder(tmp_path: Path, bib: str = JABREF) -> Path:
    root = tmp_path / "library"
    (root / "papers").mkdir(parents=True)
    for name in (ATTENTION, SCIBERT, TRACEMONKEY):
        shutil.copy(CORPORA / "pdfs" / name, root / "papers" / name)
    (root / "library.bib").write_text(bib, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    tmp = tmp_path_factory.mktemp("bibtex")
    ws = Workspace(_folder(tmp), tmp / "index", overrides=FAST)
    summary = ws.index()
    # The corpus's SciBERT file is a page from inside the paper (a results table): the attachment
    # check says it does not print the entry's title.
    assert summary.failed == 0 and summary.library == {"items": 2, "warnings": 1, "from": ["library.bib"]}, summary
    assert "does not print the title of entry 'beltagy2019'" in summary.warnings[f"papers/{SCIBERT}"][0]
    yield ws
    ws.close()


def test_a_pdf_linked_from_a_bib_entry_is_cited_by_the_entry(library: Workspace) -> None:
    hit = library.search_citations("multi-head attention scaled dot-product", k=1)[0]
    assert hit["path"] == f"papers/{ATTENTION}"
    record = hit["record"]
    assert record["source"] == "bibtex"
    assert record["bibtex"] == {"file": "library.bib", "key": "Vaswani2017", "linked_by": "file"}
    assert record["title"] == "Attention is All you Need" and record["year"] == 2017
    assert record["authors"][6] == "Łukasz Kaiser" and record["names"][5] == {"family": "Gomez", "given": "Aidan N."}
    assert record["venue"] == "Advances in Neural Information Processing Systems" and record["arxiv"] == "1706.03762"
    assert record["type"] == "conferencePaper" and record["pages"] == "5998\u20136008"
    assert hit["label"].startswith("Vaswani et al., 2017, p")


def test_the_papers_view_lists_bib_records_with_keywords_as_tags_and_the_rest_as_guessed(library: Workspace) -> None:
    papers = {p["id"]: p for p in library.papers()}
    assert set(papers) == {"bibtex:Vaswani2017", "bibtex:beltagy2019", f"papers/{TRACEMONKEY}"}
    vaswani = papers["bibtex:Vaswani2017"]
    assert vaswani["record"] == "bibtex" and vaswani["paths"] == [f"papers/{ATTENTION}"]
    assert vaswani["tags"] == ["attention", "transformers"] and vaswani["pages"] == 15
    # Found by its file name: the library was exported on another machine.
    beltagy = papers["bibtex:beltagy2019"]
    assert beltagy["paths"] == [f"papers/{SCIBERT}"] and beltagy["year"] == 2019
    assert beltagy["authors"][-1] == "Allen Institute for AI" and beltagy["label"] == "Beltagy et al., 2019"
    assert beltagy["doi"] == "10.18653/v1/D19-1371"
    assert papers[f"papers/{TRACEMONKEY}"]["record"] == "pdf"
    assert [p["id"] for p in library.papers(tag="transformers")] == ["bibtex:Vaswani2017"]


@pytest.mark.integration  # bibtexparser 1.x runs in a child process
def test_the_export_keeps_the_researchers_cite_keys_and_bibtex_reads_it(library: Workspace) -> None:
    records = library.cite([p["id"] for p in library.papers()])
    parsed = parse_all(render(records, "bibtex"))
    for parser, entries in parsed.items():
        assert len(entries) == 3, parser
    by_key = {e["ID"]: e for e in parsed["pybtex"]}
    assert {"Vaswani2017", "beltagy2019"} <= set(by_key)
    vaswani = by_key["Vaswani2017"]
    assert vaswani["ENTRYTYPE"] == "inproceedings" and text_of(vaswani["pages"]) == "5998–6008"
    assert text_of(vaswani["authors"][6]) == "Łukasz Kaiser"


@pytest.mark.integration  # the CLI, as a user runs it
def test_the_cli_says_where_the_records_came_from(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    indexed = run_cli("index", str(root), env=fast_env()).stdout
    assert "library: 2 items read from library.bib" in indexed, indexed
    listed = run_cli("papers", "--path", str(root), env=fast_env()).stdout
    assert "Vaswani et al., 2017  (15 pp.; record: BibTeX file)  [bibtex:Vaswani2017]" in listed, listed


def test_an_entry_fixes_a_record_and_an_edit_of_the_bib_reparses_nothing(tmp_path: Path) -> None:
    root = _folder(tmp_path, bib="")
    ws = Workspace(root, tmp_path / "index", overrides=FAST)
    ws.index()
    guessed = {p["id"]: p for p in ws.papers()}[f"papers/{TRACEMONKEY}"]
    assert guessed["record"] == "pdf"
    (root / "library.bib").write_text(
        "@inproceedings{gal2009trace, author = {Gal, Andreas and Eich, Brendan and others},\n"
        " title = {Trace-based Just-in-time Type Specialization for Dynamic Languages}, year = 2009,\n"
        " booktitle = {PLDI}, file = {papers/paper_tracemonkey_pldi09.pdf}}\n", encoding="utf-8")
    summary = ws.index()
    assert summary.new == summary.changed == 0 and summary.chunks_written == 0
    fixed = {p["id"]: p for p in ws.papers()}["bibtex:gal2009trace"]
    assert fixed["record"] == "bibtex" and fixed["label"] == "Gal et al., 2009"  # "and others"
    assert fixed["title"] == "Trace-based Just-in-time Type Specialization for Dynamic Languages"
    (root / "library.bib").unlink()  # the entry gone, the guess is back
    ws.index()
    assert {p["id"]: p for p in ws.papers()}[f"papers/{TRACEMONKEY}"]["record"] == "pdf"
    ws.close()


@pytest.mark.integration  # the CLI, as a user runs it
def test_an_exported_entry_saved_in_the_folder_and_edited_fixes_the_record(tmp_path: Path) -> None:
    """The fix-a-record round trip: `athena papers --cite bibtex` writes the entry with its
    `file`, the user saves it in the folder and corrects a field, the next index takes it."""
    root = _folder(tmp_path, bib="")
    (root / "library.bib").unlink()
    index = str(tmp_path / "index")
    run_cli("index", str(root), "--index-dir", index, env=fast_env())
    exported = run_cli("papers", "--path", str(root), "--index-dir", index, "--paper", f"papers/{TRACEMONKEY}",
                       "--cite", "bibtex", env=fast_env()).stdout
    assert f"file = {{papers/{TRACEMONKEY}}}" in exported, exported
    key = exported.split("{", 1)[1].split(",", 1)[0]
    year = re.compile(r"^\s*year = \{\d{4}\},?\n", re.M)
    edited = year.sub("", exported).replace(f"file = {{papers/{TRACEMONKEY}}}",
                                             f"year = {{1999}},\n  file = {{papers/{TRACEMONKEY}}}")
    (root / "fixes.bib").write_text(edited, encoding="utf-8")
    indexed = run_cli("index", str(root), "--index-dir", index, env=fast_env()).stdout
    assert "library: 1 item read from fixes.bib" in indexed, indexed
    listed = json.loads(run_cli("papers", "--path", str(root), "--index-dir", index, "--json",
                                env=fast_env()).stdout)
    fixed = {p["id"]: p for p in listed["papers"]}[f"bibtex:{key}"]
    assert fixed["record"] == "bibtex" and fixed["year"] == 1999 and fixed["paths"] == [f"papers/{TRACEMONKEY}"]


def test_broken_entries_missing_and_outside_files_are_named_and_the_rest_reads(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    shutil.copy(CORPORA / "pdfs" / "paper_pasa.pdf", tmp_path / "elsewhere" / "pasa.pdf")
    bib = JABREF + (
        "@article{broken, title = {No closing brace,\n"
        "@article{gone, title = {Gone}, file = {:papers/deleted.pdf:PDF}}\n"
        f"@article{{away, title = {{Away}}, file = {{{tmp_path / 'elsewhere' / 'pasa.pdf'}}}}}\n"
        "@article{Vaswani2017, title = {Second of the key}}\n"
        "@article{copy, title = {A copy}, file = {papers/paper_attention_1706.03762.pdf}}\n")
    root = _folder(tmp_path, bib)
    ws = Workspace(root, tmp_path / "index", overrides=FAST)
    summary = ws.index().as_dict()
    messages = " | ".join(m for m in summary["warnings"].get("library.bib", []))
    broken_line = JABREF.count("\n") + 1
    assert f"line {broken_line}: this entry could not be read" in messages, messages
    assert "entry 'gone': linked file 'papers/deleted.pdf' is not among the folder's indexed files" in messages
    assert "entry 'away'" in messages and "is outside the indexed folder" in messages
    assert "a second entry with the key 'Vaswani2017' was left out" in messages
    assert "entry 'copy': 'papers/paper_attention_1706.03762.pdf' is linked by an earlier entry too" in messages
    papers = {p["id"] for p in ws.papers()}
    assert {"bibtex:Vaswani2017", "bibtex:beltagy2019"} <= papers and "bibtex:away" not in papers
    ws.close()


def test_a_link_two_files_could_be_is_not_guessed(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    (root / "copy").mkdir()
    shutil.copy(CORPORA / "pdfs" / SCIBERT, root / "copy" / SCIBERT)
    ws = Workspace(root, tmp_path / "index", overrides=FAST)
    summary = ws.index().as_dict()
    assert any("2 files in the folder have its name" in m for m in summary["warnings"]["library.bib"])
    assert "bibtex:beltagy2019" not in {p["id"] for p in ws.papers()}
    ws.close()


def test_the_live_index_follows_a_saved_bib_file_and_a_pdf_saved_after_its_entry(tmp_path: Path) -> None:
    root = _folder(tmp_path)
    (root / "papers" / TRACEMONKEY).unlink()  # its entry comes first, the PDF after
    ws = Workspace(root, tmp_path / "index", overrides=FAST)
    ws.index()
    live = ws.live_index()
    try:
        (root / "library.bib").write_text(JABREF.replace("Attention is All you {Need}", "Attention, as fixed") +
                                          "@inproceedings{gal2009, author = {Gal, Andreas}, title = {Tracing},"
                                          " year = 2009, file = {:papers/paper_tracemonkey_pldi09.pdf:PDF}}\n",
                                          encoding="utf-8")
        wait_for(lambda: {p["id"]: p for p in ws.papers()}["bibtex:Vaswani2017"]["title"] == "Attention, as fixed",
                 "the fixed title")
        assert "bibtex:gal2009" not in {p["id"] for p in ws.papers()}
        shutil.copy(CORPORA / "pdfs" / TRACEMONKEY, root / "papers" / TRACEMONKEY)
        wait_for(lambda: "bibtex:gal2009" in {p["id"] for p in ws.papers()}, "the PDF linked to its entry")
    finally:
        live.stop()
        ws.close()
