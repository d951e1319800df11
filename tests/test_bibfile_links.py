"""How a .bib entry's ``file`` field is read in each reference manager's shape, and how its
names, TeX and key become a record (ingest/bibfile.py), without an index."""

from __future__ import annotations

from pathlib import Path

import bibtexparser
import pytest
from bibtexparser import middlewares

from athena_lab.citations.bibliography import cite_key, record_of
from athena_lab.ingest.bibfile import _links, entry_record, read_bibliographies

pytestmark = pytest.mark.unit


def _entry(source: str) -> object:
    library = bibtexparser.parse_string(
        source, append_middleware=[middlewares.SeparateCoAuthors(), middlewares.SplitNameParts()])
    assert not library.failed_blocks
    return library.entries[0]


@pytest.mark.parametrize(("field", "paths"), [
    (r"{:papers/flp.pdf:PDF}", ["papers/flp.pdf"]),  # JabRef, Mendeley
    (r"{ostgaard2002.pdf:ostgaard2002.pdf:PDF}", ["ostgaard2002.pdf"]),  # JabRef, the description a file name
    (r"{Full Text PDF:/home/me/Zotero/storage/AB12CD34/x.pdf:application/pdf;"
     r"Snapshot:/home/me/Zotero/storage/EF56GH78/x.html:text/html}",
     ["/home/me/Zotero/storage/AB12CD34/x.pdf", "/home/me/Zotero/storage/EF56GH78/x.html"]),  # Zotero's export
    (r"{C\:\\Users\\me\\papers\\x.pdf:PDF}", [r"C:\Users\me\papers\x.pdf"]),  # older JabRef on Windows
    (r"{:C\:\\Users\\me\\papers\\x.pdf:PDF}", [r"C:\Users\me\papers\x.pdf"]),  # JabRef on Windows
    (r"{C:\Users\me\papers\x.pdf}", [r"C:\Users\me\papers\x.pdf"]),  # Better BibTeX on Windows
    (r"{/home/me/papers/a b.pdf;/home/me/papers/c.pdf}", ["/home/me/papers/a b.pdf", "/home/me/papers/c.pdf"]),  # BBT
])
def test_the_file_field_is_read_in_each_reference_managers_shape(field: str, paths: list[str]) -> None:
    assert list(_links(_entry(f"@article{{k, title = {{T}}, file = {field}}}"))) == paths


def test_mendeleys_tex_in_a_path_is_read_as_the_name_it_writes() -> None:
    field = r"{:home/me/Mendeley/Na{\"{i}}ve{\_}Bayes 2017.pdf:pdf}"
    assert list(_links(_entry(f"@article{{k, title = {{T}}, file = {field}}}"))) == \
        ["home/me/Mendeley/Naïve_Bayes 2017.pdf"]


@pytest.mark.parametrize("link", [r"C\:\\Users\\me\\x.pdf:PDF", "//fileserver/share/papers/x.pdf",
                                  r"\\fileserver\share\x.pdf", "/mnt/elsewhere/x.pdf"])
def test_a_path_from_another_machine_is_found_by_its_file_name_and_never_touched(tmp_path: Path, link: str) -> None:
    (tmp_path / "refs.bib").write_text(f"@article{{k, title = {{T}}, file = {{{link}}}}}")
    # Nothing on disk: the indexed files alone say where a link goes.
    found = read_bibliographies(tmp_path, ["refs.bib"], ["papers/x.pdf", "papers/y.pdf"])
    assert [row.files for row in found.rows] == [["papers/x.pdf"]] and not found.warnings


def test_a_relative_link_is_read_from_the_bib_files_folder_then_the_root(tmp_path: Path) -> None:
    (tmp_path / "refs").mkdir()
    (tmp_path / "refs" / "refs.bib").write_text("@article{a, title = {A}, file = {../papers/a.pdf}}\n"
                                                "@article{b, title = {B}, file = {papers/b.pdf}}\n"
                                                "@article{c, title = {C}, file = {../../../etc/passwd}}\n")
    found = read_bibliographies(tmp_path, ["refs/refs.bib"], ["papers/a.pdf", "papers/b.pdf", "notes/passwd.md"])
    assert {row.id: row.files for row in found.rows} == {"bibtex:a": ["papers/a.pdf"], "bibtex:b": ["papers/b.pdf"]}
    assert "not among the folder's indexed files" in found.warnings["refs/refs.bib"][0]


def test_a_url_and_a_doi_keep_their_tilde_and_percent() -> None:
    record = entry_record(_entry(r"@misc{k, title = {T}, url = {http://x.edu/{~}u/a\%20b.pdf},"
                                 r" doi = {10.1000/a%2Fb}}"), "refs.bib")
    assert record["url"] == "http://x.edu/~u/a%20b.pdf" and record["doi"] == "10.1000/a%2Fb"


def test_names_tex_and_dates_become_the_records_fields() -> None:
    record = entry_record(_entry(
        r"@incollection{Steele1990, author = {Steele, Jr., Guy L. and van der Berg, Jan and {Bell Laboratories}},"
        r" editor = {Knuth, Donald E.}, title = {On G{\"o}del's {Theorem} --- an {\'E}tude},"
        r" booktitle = {Essays}, date = {1990-05-01}, pages = {1--20}, doi = {https://doi.org/10.1000/xyz123},"
        r" keywords = {a; b}}"), "refs.bib")
    assert record["names"] == [{"family": "Steele Jr.", "given": "Guy L."}, {"family": "van der Berg", "given": "Jan"},
                               {"literal": "Bell Laboratories"}]
    assert record["authors"] == ["Guy L. Steele Jr.", "Jan van der Berg", "Bell Laboratories"]
    assert record["editors"] == [{"family": "Knuth", "given": "Donald E."}]
    assert record["title"] == "On Gödel's Theorem \u2014 an Étude" and record["year"] == 1990
    assert record["type"] == "bookSection" and record["pages"] == "1\u201320" and record["doi"] == "10.1000/xyz123"
    assert record["label"] == "Steele Jr. et al., 1990"


def test_the_researchers_cite_key_is_kept_only_when_bibtex_can_take_it() -> None:
    kept = record_of("x.pdf", {"title": "Trace", "authors": ["Andreas Gal"], "year": 2009, "source": "bibtex",
                               "bibtex": {"file": "refs.bib", "key": "Gal:2009:TJT"}})
    assert kept["source"] == "bibtex" and cite_key(kept) == "Gal:2009:TJT"
    for bad in ("two words", "k,@misc{x", "über2009", ""):
        record = record_of("x.pdf", {"title": "Trace", "authors": ["Andreas Gal"], "year": 2009,
                                     "bibtex": {"file": "refs.bib", "key": bad}})
        assert "bibtex" not in record and cite_key(record) == "gal2009trace"
