"""BibDesk's links: ``Bdsk-File-1``, ``Bdsk-File-2`` … hold base64 of a binary property list
whose ``relativePath`` (relative to the .bib file) names the file, beside a macOS alias
that is never read. The entries are real: tests/fixtures/bibdesk/library.bib says where
they come from (edsu/inkdroid.org's BibDesk library: NSKeyedArchiver archives of 2017 and
the plain dictionary of 2016). A field that cannot be read is named with its entry's key
and skipped."""

from __future__ import annotations

import base64
import plistlib
import shutil
from pathlib import Path

import pytest

from athena_lab.ingest.bibfile import bibdesk_path, read_bibliographies
from athena_lab.workspace import Workspace
from corpus_files import CORPORA

FIXTURE = Path(__file__).parent / "fixtures" / "bibdesk" / "library.bib"
BROTHMAN = "BibDesk/papers/Brothman/Perfect present, perfect gift finding.pdf"
MEYER = "BibDesk/papers/Meyer/Design for Real Life.pdf"
FROHMANN = "BibDesk/papers/Frohmann/Revisiting \x93what is a document?\x94.pdf"
BENNETT = "BibDesk/Papers/Bennett/Collaboration \\ team science A field guide.pdf"
BERG = "BibDesk/papers/Berg/The multiple bodies of the medical record Toward.pdf"


def _bib(tmp_path: Path, extra: str = "") -> Path:
    (tmp_path / "BibDesk").mkdir(parents=True, exist_ok=True)
    (tmp_path / "BibDesk" / "library.bib").write_text(FIXTURE.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return tmp_path


@pytest.mark.unit
def test_each_bdsk_file_field_links_the_file_its_relative_path_names(tmp_path: Path) -> None:
    found = read_bibliographies(_bib(tmp_path), ["BibDesk/library.bib"],
                                [BROTHMAN, MEYER, FROHMANN, BENNETT, BERG, "BibDesk/papers/other.pdf"])
    assert {row.id: row.files for row in found.rows} == {
        "bibtex:Brothman:2010": [BROTHMAN],  # NSKeyedArchiver (BibDesk 2017)
        "bibtex:Meyer:2016": [MEYER],  # the third of three fields; the .epub and .mobi are not here
        "bibtex:Frohmann:2009": [FROHMANN],  # a UTF-16 path in the archive
        "bibtex:Bennett:2010": [BENNETT],  # a backslash in a BibDesk path is part of the name
        "bibtex:Berg:1997a": [BERG],  # the plain dictionary (BibDesk 2016)
    }
    assert found.rows[0].record["bibtex"] == {"file": "BibDesk/library.bib", "key": "Brothman:2010",
                                              "linked_by": "file"}
    assert found.rows[0].record["title"].startswith("Perfect present, perfect gift")
    messages = found.warnings["BibDesk/library.bib"]
    assert "entry 'Squires:2002': linked file '../../.Trash/Squires-2002-Communication_Theory.pdf' is not among " \
           "the folder's indexed files: not linked (fix the path in the .bib file, or add the file)" in messages
    assert any(m.startswith("entry 'Meyer:2016': linked file 'papers/Meyer/Design for Real Life.epub'")
               for m in messages)


@pytest.mark.unit
def test_a_bdsk_file_field_that_cannot_be_read_is_named_and_skipped(tmp_path: Path) -> None:
    real = FIXTURE.read_text(encoding="utf-8").split("Bdsk-File-1 = {", 1)[1].split("}", 1)[0]
    no_path = base64.b64encode(plistlib.dumps({"aliasData": b"\0\0"}, fmt=plistlib.FMT_BINARY)).decode()
    extra = (f"\n@article{{cut, title = {{Cut short}}, Bdsk-File-1 = {{{real[:120]}}},"
             " file = {:BibDesk/papers/other.pdf:PDF}}\n"
             "@article{text, title = {Not base64}, Bdsk-File-1 = {papers/x.pdf}}\n"
             f"@article{{bare, title = {{No path}}, Bdsk-File-2 = {{{no_path}}}}}\n")
    found = read_bibliographies(_bib(tmp_path, extra), ["BibDesk/library.bib"], [BERG, "BibDesk/papers/other.pdf"])
    messages = found.warnings["BibDesk/library.bib"]
    assert "entry 'cut': its Bdsk-File-1 field could not be read (not a binary property list): skipped" in messages
    assert "entry 'text': its Bdsk-File-1 field could not be read (not base64): skipped" in messages
    assert "entry 'bare': its Bdsk-File-2 field could not be read (it names no relativePath): skipped" in messages
    rows = {row.id: row.files for row in found.rows}
    assert rows["bibtex:cut"] == ["BibDesk/papers/other.pdf"] and rows["bibtex:Berg:1997a"] == [BERG]
    with pytest.raises(ValueError, match="too long"):
        bibdesk_path("A" * 2_000_000)


@pytest.mark.slow
def test_a_pdf_a_bibdesk_entry_links_is_cited_by_the_entry(tmp_path: Path) -> None:
    root = _bib(tmp_path / "library")
    for path in (BERG, BROTHMAN):
        (root / path).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(CORPORA / "pdfs" / "paper_tracemonkey_pldi09.pdf", root / BERG)
    shutil.copy(CORPORA / "pdfs" / "paper_attention_1706.03762.pdf", root / BROTHMAN)
    ws = Workspace(root, tmp_path / "index", overrides={"embedding.provider": "none"})
    try:
        summary = ws.index().as_dict()
        # 6 of the real library's own links, and its 2 entries on the corpus's stand-in PDFs (not their papers)
        assert summary["library"] == {"items": 2, "warnings": 8, "from": ["BibDesk/library.bib"]}, summary["warnings"]
        assert all("does not print the title of entry" in summary["warnings"][p][0] for p in (BERG, BROTHMAN))
        papers = {p["id"]: p for p in ws.papers()}
        berg = papers["bibtex:Berg:1997a"]
        assert berg["paths"] == [BERG] and berg["label"] == "Berg and Bowker, 1997" and berg["record"] == "bibtex"
        assert berg["tags"] == ["Materiality", "Sociology"]
        assert papers["bibtex:Brothman:2010"]["paths"] == [BROTHMAN]
    finally:
        ws.close()
