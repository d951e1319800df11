"""Citations researchers can paste: BibTeX, RIS and CSL-JSON for real papers of the shared
corpus, checked against their known titles and years (arXiv preprints by arXiv year)."""

from __future__ import annotations

import json
import shutil

import pytest

from athena_lab.citations.bibliography import render
from athena_lab.workspace import Workspace
from corpus_files import CORPORA

pytestmark = pytest.mark.slow

KNOWN = {  # file → (title, year, arXiv id)
    "paper_attention_1706.03762.pdf": ("Attention Is All You Need", 2017, "1706.03762"),
    "paper_2206.10883v3.pdf": ("Multi-LexSum: Real-World Summaries of Civil Rights Lawsuits at Multiple "
                               "Granularities", 2022, "2206.10883"),
    "paper_s2orc_2020.acl-main.447.pdf": ("S2ORC: The Semantic Scholar Open Research Corpus", 2020, None),
    "paper_tracemonkey_pldi09.pdf": ("Trace-based Just-in-Time Type Specialization for Dynamic Languages",
                                     2009, None),
    "paper_scibert_1903.10676.pdf": (None, 2019, "1903.10676"),
}


@pytest.fixture(scope="module")
def papers(tmp_path_factory) -> Workspace:
    root = tmp_path_factory.mktemp("papers") / "papers"
    root.mkdir()
    for name in KNOWN:
        shutil.copy(CORPORA / "pdfs" / name, root / name)
    ws = Workspace(root, overrides={"embedding.provider": "none"})
    ws.index()
    yield ws
    ws.close()


def test_bibtex_of_the_shared_papers_has_their_known_titles_years_and_arxiv_ids(papers) -> None:
    records = papers.cite(list(KNOWN))
    bibtex = render(records, "bibtex")
    for record, (name, (title, year, arxiv)) in zip(records, KNOWN.items()):
        assert record["path"] == name and record.get("year") == year, record
        if title:
            # The inner braces keep its capitals as printed (tests/security/test_citation_export.py).
            assert record["title"] == title and f"title = {{{{{title}}}}}" in bibtex
        if arxiv:
            assert record["arxiv"] == arxiv and f"eprint = {{{arxiv}}}" in bibtex
    assert "@article{vaswani2017attention," in bibtex
    assert "author = {Ashish Vaswani and Noam Shazeer" in bibtex


def test_a_pdf_hit_carries_its_record_and_ris_and_csl_json_render_it(papers) -> None:
    hit = papers.search_citations("multi-head attention scaled dot-product", k=1)[0]
    assert hit["record"]["title"] == "Attention Is All You Need" and hit["record"]["year"] == 2017
    records = papers.cite([hit["chunk_id"]])
    ris = render(records, "ris")
    assert "TI  - Attention Is All You Need" in ris and "PY  - 2017" in ris and ris.rstrip().endswith("ER  -")
    csl = json.loads(render(records, "csl-json"))
    assert csl[0]["issued"] == {"date-parts": [[2017]]} and csl[0]["author"][0] == {"family": "Vaswani",
                                                                                     "given": "Ashish"}


def test_citing_something_that_is_not_indexed_names_it(papers) -> None:
    from athena_lab.errors import MissingPathError

    with pytest.raises(MissingPathError, match="nope.pdf: neither a chunk id, an indexed file nor a paper"):
        papers.cite(["nope.pdf"])
