"""JabRef's static groups are collections: ``@Comment{jabref-meta: grouping: …}`` holds the
group tree, each entry's ``groups`` field the groups it is in (JabRef 2's ``groupstree``
listed the keys in the group instead). A file an entry links is in the entry's groups'
collections ("TestOne / TestOneSubOne") — in the papers view and its collection filter, as
a Zotero item's collections are. The fixtures are JabRef's own files
(tests/fixtures/jabref/, where each comes from)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from athena_lab.ingest.bibfile import read_bibliographies
from athena_lab.workspace import Workspace
from corpus_files import CORPORA

FIXTURES = Path(__file__).parent / "fixtures" / "jabref"
BOSTROM = "papers/p11-bostrom.pdf"


def _read(tmp_path: Path, fixture: str, files: list[str]) -> dict[str, list[str]]:
    shutil.copy(FIXTURES / fixture, tmp_path / fixture)
    found = read_bibliographies(tmp_path, [fixture], files)
    return {row.id: row.collections for row in found.rows}


@pytest.mark.unit
def test_an_entrys_static_groups_are_its_collections_with_their_parents(tmp_path: Path) -> None:
    # The keyword group and the automatic group are not collections: their entries are found by
    # the field they name. A subgroup is named by its path, as a Zotero subcollection is.
    assert _read(tmp_path, "complex.bib", [BOSTROM]) == {"bibtex:1137631": [
        "StaticGroup", "TestOne", "TestOne / TestOneSubOne", "TestOne / TestOneSubTwo", "TestTwo"]}


@pytest.mark.unit
def test_jabref_2s_groups_tree_lists_the_keys_of_its_entries(tmp_path: Path) -> None:
    assert _read(tmp_path, "complex-jabref2.bib", [BOSTROM]) == {"bibtex:1137631": ["StaticGroup"]}


@pytest.mark.unit
def test_a_group_the_tree_does_not_name_is_a_collection_of_its_own_and_names_are_unescaped(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(
        "@article{a, title = {A}, file = {x.pdf}, groups = {Orphan, Semi;colon}}\n"
        "@Comment{jabref-meta: grouping:\n0 AllEntriesGroup:;\n1 StaticGroup:Top\\;0\\;1\\;\\;\\;\\;;\n"
        "2 StaticGroup:Semi\\\\\\;colon\\;0\\;1\\;\\;\\;\\;;\n}\n")  # a name with a ';' in it, as JabRef escapes it
    found = read_bibliographies(tmp_path, ["refs.bib"], ["x.pdf"])
    assert found.rows[0].collections == ["Orphan", "Top / Semi;colon"]


@pytest.mark.slow
def test_the_papers_view_shows_and_filters_by_a_jabref_group(tmp_path: Path) -> None:
    root = tmp_path / "library"
    (root / "Used").mkdir(parents=True)
    (root / "DownloadedViaJabRef").mkdir()
    shutil.copy(FIXTURES / "Chocolate.bib", root / "Chocolate.bib")
    # Two of the library's linked files (their names as Chocolate.bib writes them; the PDFs are the corpus's).
    shutil.copy(CORPORA / "pdfs" / "paper_pasa.pdf", root / "Used" / "Scholey & Owen (2013-10) Effects chocolate cognitive.pdf")
    shutil.copy(CORPORA / "pdfs" / "paper_scibert_1903.10676.pdf",
                root / "DownloadedViaJabRef" / "Katz et al. (2011-11) Cocoa Chocolate Human.pdf")
    ws = Workspace(root, tmp_path / "index", overrides={"embedding.provider": "none"})
    try:
        ws.index()
        papers = {p["id"]: p for p in ws.papers()}
        assert papers["bibtex:Scholey_2013"]["collections"] == ["Used"]
        assert papers["bibtex:Katz_2011"]["collections"] == []
        assert [p["id"] for p in ws.papers(collection="Used")] == ["bibtex:Scholey_2013"]
    finally:
        ws.close()
