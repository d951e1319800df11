"""The papers of a Zotero library through `athena papers` and a real `athena serve`:
``GET /athena/papers`` (list, filters, "which papers discuss X?"), search and chat limited
to a collection, a tag or chosen papers, and BibTeX for the chosen papers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bibtex_parsers import parse_all
from http_servers import AthenaServer, chat_body, fast_env, run_cli
from zotero_library import FEKETA, HASTIE, JAMES, MISSING, WITH_MISSING_PDF, make_library

pytestmark = pytest.mark.integration

ATTENTION_PDF = "storage/BHZP9XFD/Feketa et al. - 2017 - Almost ISS property for feedback connected systems.pdf"


@pytest.fixture(scope="module")
def library_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_library(tmp_path_factory.mktemp("zotero") / "Zotero")
    done = run_cli("index", str(root), env=fast_env())
    assert "attachment missing" in done.stdout and MISSING in done.stdout, done.stdout
    return root


@pytest.fixture(scope="module")
def server(library_root: Path):
    with AthenaServer(library_root, "--rate-limit", "0", env=fast_env()) as running:
        yield running


def test_athena_papers_lists_filters_answers_by_paper_and_exports_bibtex(library_root: Path) -> None:
    listed = run_cli("papers", "--path", str(library_root), "--sort", "year", env=fast_env()).stdout
    # the missing attachment, and the five items on other papers' pages (tests/zotero_library.py)
    assert listed.startswith("8 paper(s), 6 with warnings")
    assert "Feketa et al., 2017  (15 pp.; record: Zotero)  [zotero:9PWIL7JY]" in listed
    assert "warning: Shiromoto et al. - 2016 - Example Demonstrating" in listed
    tagged = json.loads(run_cli("papers", "--path", str(library_root), "--tag", "R", "--json", env=fast_env()).stdout)
    assert [p["id"] for p in tagged["papers"]] == [JAMES] and tagged["collections"] == ["MachineLearning"]
    about = run_cli("papers", "--path", str(library_root), "--about", "Which papers discuss multi-head attention?",
                    "-k", "2", env=fast_env()).stdout
    assert about.startswith(" 1. Feketa et al., 2017: Almost ISS property for feedback connected systems\n")
    assert "best, p. " in about.splitlines()[1]
    bibtex = run_cli("papers", "--path", str(library_root), "--collection", "MachineLearning", "--cite", "bibtex",
                     env=fast_env()).stdout
    assert [e["ID"] for e in parse_all(bibtex)["pybtex"]] == ["james2021introduction", "hastie2009elements"]
    searched = json.loads(run_cli("search", "multi-head attention", "--path", str(library_root), "--tag", "R",
                                  "--json", env=fast_env()).stdout)
    assert searched and {c["record"]["zotero"]["key"] for c in searched} == {"NZHRXDXN"}


def test_get_papers_lists_with_facets_filters_and_sorts(server: AthenaServer) -> None:
    r = server.client.get("/papers", params={"sort": "year", "order": "desc"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["collections"] == ["MachineLearning"] and "random forest" in body["tags"]
    years = [p["year"] for p in body["papers"] if p["year"]]
    assert years == sorted(years, reverse=True) and len(body["papers"]) == 8
    missing = next(p for p in body["papers"] if p["id"] == WITH_MISSING_PDF)
    assert "attachment missing" in missing["warnings"][0]
    only = server.client.get("/papers", params={"collection": "MachineLearning", "year": "2015-"}).json()["papers"]
    assert [p["id"] for p in only] == [JAMES]
    bad = server.client.get("/papers", params={"year": "last year"})
    assert bad.status_code == 400 and "give a year (1985) or a range" in bad.json()["error"]["message"]


def test_get_papers_about_answers_by_paper(server: AthenaServer) -> None:
    r = server.client.get("/papers", params={"about": "Which papers discuss multi-head attention?", "k": 3})
    assert r.status_code == 200, r.text
    found = r.json()["papers"]
    assert found[0]["paper"]["id"] == FEKETA and found[0]["best"]["path"] == ATTENTION_PDF
    assert found[0]["best"]["label"].startswith("Feketa et al., 2017, p. ")
    assert found[0]["paper"]["zotero"]["uri"] == "zotero://select/library/items/9PWIL7JY"


def test_search_chat_and_cite_take_the_paper_filters(server: AthenaServer) -> None:
    hits = server.client.get("/search", params={"q": "multi-head attention", "collection": "MachineLearning"}).json()
    assert hits["hits"] and {h["record"]["zotero"]["key"] for h in hits["hits"]} <= {"A5A8PGIP", "NZHRXDXN"}
    r = server.client.post("/chat", json=chat_body("What is multi-head attention?", stream=False,
                                                   filters={"papers": [FEKETA]}))
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["citations"] and {c["path"] for c in answer["citations"]} == {ATTENTION_PDF}
    stored = server.client.get(f"/conversations/{answer['conversation_id']}").json()
    assert stored["messages"][0]["filters"] == {"papers": [FEKETA]}
    bad = server.client.post("/chat", json=chat_body("x", stream=False, filters={"papers": "not a list"}))
    assert bad.status_code == 400
    cite = server.client.get("/cite", params=[("target", FEKETA), ("target", HASTIE), ("target", WITH_MISSING_PDF)])
    assert cite.status_code == 200, cite.text
    parsed = parse_all(cite.text)
    assert [e["ID"] for e in parsed["bibtexparser1"]] == ["feketa2017almost", "hastie2009elements",
                                                          "shiromoto2016example"]
