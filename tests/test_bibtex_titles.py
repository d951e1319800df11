"""A .bib entry with no file link (Google Scholar's, DBLP's, arXiv's BibTeX, a hand-written
references.bib) is the record of the indexed PDF whose first pages carry its title and an
author's surname — read from the index, never from the PDF again. Only a one-to-one match
links; a file link and a Zotero item win. Real PDFs of the shared corpus, a real index."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from athena_lab.ingest.bibfile import read_bibliographies
from athena_lab.ingest.bibtitles import Wanted, fold, match_titles
from athena_lab.workspace import Workspace
from corpus_files import CORPORA

FAST = {"embedding.provider": "none"}
ATTENTION = "paper_attention_1706.03762.pdf"
TRACEMONKEY = "paper_tracemonkey_pldi09.pdf"
PASA = "paper_pasa.pdf"

# As Google Scholar and DBLP write them: no file field, the title in their own case.
SCHOLAR = r"""@inproceedings{vaswani2017attention,
  title={Attention is all you need},
  author={Vaswani, Ashish and Shazeer, Noam and Parmar, Niki and others},
  booktitle={Advances in neural information processing systems},
  year={2017}
}

@inproceedings{DBLP:conf/pldi/GalESADHHKSZORSR09,
  author    = {Andreas Gal and Brendan Eich and Mike Shaver},
  title     = {Trace-based just-in-time type specialization for dynamic languages},
  booktitle = {{PLDI}},
  year      = {2009},
}

@book{knuth1984,
  author = {Knuth, Donald E.},
  title  = {The {\TeX}book: a guide to typesetting},
  year   = {1984},
}
"""


def _folder(tmp_path: Path, bib: str, names: tuple[str, ...] = (ATTENTION, TRACEMONKEY, PASA)) -> Path:
    root = tmp_path / "library"
    (root / "papers").mkdir(parents=True)
    for name in names:
        shutil.copy(CORPORA / "pdfs" / name, root / "papers" / name)
    (root / "refs.bib").write_text(bib, encoding="utf-8")
    return root


def _index(root: Path, tmp_path: Path) -> tuple[Workspace, dict]:
    ws = Workspace(root, tmp_path / "index", overrides=FAST)
    return ws, ws.index().as_dict()


@pytest.mark.slow
def test_an_entry_with_no_file_gives_the_pdf_with_its_title_its_record(tmp_path: Path) -> None:
    ws, summary = _index(_folder(tmp_path, SCHOLAR), tmp_path)
    try:
        assert summary["library"] == {"items": 2, "warnings": 0, "from": ["refs.bib"]}, summary
        papers = {p["id"]: p for p in ws.papers()}
        assert papers["bibtex:vaswani2017attention"]["paths"] == [f"papers/{ATTENTION}"]
        tracemonkey = papers["bibtex:DBLP:conf/pldi/GalESADHHKSZORSR09"]
        assert tracemonkey["paths"] == [f"papers/{TRACEMONKEY}"] and tracemonkey["record"] == "bibtex"
        assert tracemonkey["label"] == "Gal et al., 2009"
        assert papers[f"papers/{PASA}"]["record"] == "pdf"  # no entry has its title
        assert "bibtex:knuth1984" not in papers  # a cited book that is not here: nothing, and no message
        hit = ws.search_citations("trace trees type specialization", k=1)[0]
        assert hit["path"] == f"papers/{TRACEMONKEY}"
        assert hit["record"]["bibtex"] == {"file": "refs.bib", "key": "DBLP:conf/pldi/GalESADHHKSZORSR09",
                                           "linked_by": "title"}
    finally:
        ws.close()


@pytest.mark.slow
def test_a_file_link_beats_a_title_and_a_pdf_saved_later_is_matched_on_the_next_run(tmp_path: Path) -> None:
    bib = SCHOLAR + ("@article{gal-linked, author = {Gal, Andreas}, title = {TraceMonkey},"
                     " file = {:papers/paper_tracemonkey_pldi09.pdf:PDF}}\n")
    root = _folder(tmp_path, bib, names=(TRACEMONKEY, PASA))
    ws, summary = _index(root, tmp_path)
    try:
        assert not summary["warnings"].get("refs.bib"), summary["warnings"]
        papers = {p["id"]: p for p in ws.papers()}
        assert papers["bibtex:gal-linked"]["paths"] == [f"papers/{TRACEMONKEY}"]
        assert "bibtex:DBLP:conf/pldi/GalESADHHKSZORSR09" not in papers  # its title's PDF is the link's
        assert "bibtex:vaswani2017attention" not in papers
        shutil.copy(CORPORA / "pdfs" / ATTENTION, root / "papers" / ATTENTION)
        second = ws.index()
        assert second.new == 1 and second.library is not None
        assert {p["id"]: p for p in ws.papers()}["bibtex:vaswani2017attention"]["paths"] == [f"papers/{ATTENTION}"]
        third = ws.index()  # nothing changed: the .bib is not read again
        assert third.library is None
    finally:
        ws.close()


@pytest.mark.slow
def test_a_title_on_two_pdfs_or_two_titles_on_one_pdf_link_nothing_and_are_named(tmp_path: Path) -> None:
    bib = SCHOLAR + (
        "@article{vaswani2017arxiv, author = {Vaswani, Ashish}, title = {Attention Is All You Need},"
        " journal = {arXiv preprint arXiv:1706.03762}, year = 2017}\n")
    root = _folder(tmp_path, bib)
    # The same paper twice, one copy annotated (other bytes: both are indexed).
    (root / "annotated").mkdir()
    (root / "annotated" / "pasa-notes.pdf").write_bytes((CORPORA / "pdfs" / PASA).read_bytes() + b"\n% notes\n")
    bib_pasa = "@article{pasa, author = {He, Yichen}, title = {PaSa: An LLM Agent for Comprehensive Academic Paper Search}}\n"
    (root / "refs.bib").write_text(bib + bib_pasa, encoding="utf-8")
    ws, summary = _index(root, tmp_path)
    try:
        messages = " | ".join(summary["warnings"]["refs.bib"])
        assert ("entry 'vaswani2017attention': its title is on the first pages of 'papers/paper_attention_1706.03762.pdf',"
                " and so is the title of entry 'vaswani2017arxiv'") in messages, messages
        assert "entry 'vaswani2017arxiv': its title is on the first pages of" in messages
        assert "entry 'pasa': its title is on the first pages of 2 files ('annotated/pasa-notes.pdf', " \
               "'papers/paper_pasa.pdf'): linked to none" in messages, messages
        papers = {p["id"] for p in ws.papers()}
        assert not {"bibtex:vaswani2017attention", "bibtex:vaswani2017arxiv", "bibtex:pasa"} & papers
        assert "bibtex:DBLP:conf/pldi/GalESADHHKSZORSR09" in papers  # the unambiguous one still links
    finally:
        ws.close()


@pytest.mark.unit
def test_an_entry_whose_link_names_no_file_here_is_found_by_its_title_and_says_so(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(
        "@inproceedings{gal, author = {Gal, Andreas}, title = {Trace-based Just-in-Time Type Specialization"
        " for Dynamic Languages}, file = {:papers/gone.pdf:PDF}}\n"
        "@book{knuth, author = {Knuth, Donald}, title = {The Art of Computer Programming}, file = {taocp.pdf}}\n")
    pages = {"papers/tm.pdf": "Trace-based Just-in-Time Type Specialization for Dynamic Languages\nAndreas Gal"}
    found = read_bibliographies(tmp_path, ["refs.bib"], ["papers/tm.pdf"], first_pages=lambda: pages)
    assert [(row.id, row.files, row.record["bibtex"]["linked_by"]) for row in found.rows] == \
        [("bibtex:gal", ["papers/tm.pdf"], "title")]
    assert found.warnings["refs.bib"] == [
        "entry 'gal': linked file 'papers/gone.pdf' is not among the folder's indexed files: not linked (fix the "
        "path in the .bib file, or add the file); linked by its title to 'papers/tm.pdf' instead",
        "entry 'knuth': linked file 'taocp.pdf' is not among the folder's indexed files: not linked (fix the path in "
        "the .bib file, or add the file)"]


@pytest.mark.unit
def test_titles_are_compared_without_case_accents_hyphenation_or_spacing() -> None:
    assert fold("Trace-based Just-in-\nTime Type Special-\nization") == "tracebased justintime type specialization"
    assert fold("Łukasz Gödel's ﬁrst") == "lukasz godel s first"
    page = "TRACE-BASED JUST-IN-TIME TYPE\nSPECIAL-\nIZATION FOR DYNAMIC LANGUAGES\nAndreas Gal, Brendan Eich"
    wanted = [Wanted(0, "entry 'a'", "Trace-based just-in-time type specialization for dynamic languages", ("Gal",)),
              Wanted(1, "entry 'b'", "Trace-based just-in-time type specialization", ("Gal",)),  # inside a's
              Wanted(2, "entry 'c'", "Type specialization for dynamic languages", ("Franz",)),  # no author here
              Wanted(3, "entry 'd'", "Dynamic languages", ())]  # too short to say
    found = match_titles(wanted, {"x.pdf": page, "y.pdf": "Nothing of the sort."})
    assert found.found == {0: "x.pdf"} and not found.warnings


@pytest.mark.unit
def test_matching_grows_with_the_text_not_entries_times_pages() -> None:
    import time

    wanted = [Wanted(i, f"entry 'k{i}'", f"A study of topic number {i} in systems", ("Smith",)) for i in range(3000)]
    pages = {f"p{n}.pdf": " ".join(f"a study of topic number {n * 7 + j} in theory Smith" for j in range(300))
             for n in range(50)}
    start = time.perf_counter()
    found = match_titles(wanted, pages)
    assert time.perf_counter() - start < 5 and not found.found
