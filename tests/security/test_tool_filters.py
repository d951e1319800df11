"""Issue 22: the chat's path and kind filters bound every tool, not only the first search.

``readSourceRange``, ``readPdfSource``, ``listDocs`` and ``relatedChunks`` used to ignore
them (and ``searchDocs``/``grepDocs`` let the model's own ``pathPrefix`` replace them), so a
model — or a document's prompt injection — could read any indexable file in the folder and
send it to its provider. The real Toolbox on a small real index, with the chat's filters.
"""

from __future__ import annotations

import os

import pytest

from agent_corpus import workspace
from athena_lab.agent.citations import TurnEvidence
from athena_lab.agent.tools import Toolbox
from corpus_files import FLASK_DOCS

pytestmark = pytest.mark.integration

SECRET = "the vault code is 4417-ORCHID"
OUTSIDE = "outside this chat's filters"


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("filters") / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "private").mkdir()
    (root / "docs" / "guide.md").write_text("# Guide\n\nZebra tokens rotate every night.\n\nThey are kept in the vault.\n")
    (root / "docs" / "notes.txt").write_text("Zebra tokens: plain text notes about the vault.\n")
    (root / "private" / "secret.md").write_text(f"# Secret\n\nZebra tokens: {SECRET}.\n\nMore about the vault.\n")
    athena = workspace(root)
    athena.index()
    # Readable by the read rules (indexable) though added after indexing.
    pdf = FLASK_DOCS.parents[2] / "pdfs" / "misc_pypdf_crazyones-pdfa.pdf"
    (root / "private" / "paper.pdf").write_bytes(pdf.read_bytes())
    os.symlink("../private/secret.md", root / "docs" / "link.md")
    yield athena
    athena.close()


def _refused(result) -> str:
    assert not result.ok, result.content
    assert SECRET not in result.for_model()
    return result.content["error"]


def _secret_chunk(ws) -> str:
    hits = Toolbox(ws, TurnEvidence()).call("grepDocs", {"pattern": "4417-ORCHID"}).content["matches"]
    assert [m["path"] for m in hits] == ["private/secret.md"]
    return hits[0]["chunkId"]


def test_a_chat_under_docs_reads_nothing_outside_docs(ws):
    tools = Toolbox(ws, TurnEvidence(), {"path_prefix": "docs/"})
    assert OUTSIDE in _refused(tools.call("readSourceRange", {"path": "private/secret.md", "startLine": 1}))
    assert OUTSIDE in _refused(tools.call("readSourceRange", {"path": "./private//secret.md", "startLine": 1}))
    # A symlink inside docs/ is judged by the file it leads to.
    assert OUTSIDE in _refused(tools.call("readSourceRange", {"path": "docs/link.md", "startLine": 1}))
    assert OUTSIDE in _refused(tools.call("readPdfSource", {"path": "private/paper.pdf", "page": 1}))
    assert OUTSIDE in _refused(tools.call("relatedChunks", {"chunkId": _secret_chunk(ws)}))
    # What the filters allow still works.
    assert tools.call("readSourceRange", {"path": "docs/guide.md", "startLine": 1}).ok


def test_a_chat_under_docs_lists_searches_and_greps_only_docs(ws):
    tools = Toolbox(ws, TurnEvidence(), {"path_prefix": "docs/"})
    listed = tools.call("listDocs", {})
    assert listed.ok and {d["path"] for d in listed.content["docs"]} == {"docs/guide.md", "docs/notes.txt"}
    assert listed.content["total"] == 2
    assert OUTSIDE in _refused(tools.call("listDocs", {"pathPrefix": "private/"}))
    assert OUTSIDE in _refused(tools.call("searchDocs", {"query": "zebra vault", "filters": {"pathPrefix": "private/"}}))
    assert OUTSIDE in _refused(tools.call("grepDocs", {"pattern": "ORCHID", "pathPrefix": "private/"}))
    # A wider filter, or none, is the chat's own.
    for args in ({"query": "zebra tokens vault"}, {"query": "zebra tokens vault", "filters": {"pathPrefix": "./"}}):
        found = tools.call("searchDocs", args)
        assert found.ok and found.content["results"], found.content
        assert all(r["path"].startswith("docs/") for r in found.content["results"])
    grep = tools.call("grepDocs", {"pattern": "Zebra"})
    assert grep.ok and {m["path"] for m in grep.content["matches"]} == {"docs/guide.md", "docs/notes.txt"}
    # A narrower one is the model's to choose.
    assert tools.call("listDocs", {"pathPrefix": "docs/guide"}).content["total"] == 1


def test_a_markdown_chat_reads_and_lists_only_markdown(ws):
    tools = Toolbox(ws, TurnEvidence(), {"kind": "markdown", "path_prefix": "docs/"})
    assert OUTSIDE in _refused(tools.call("readSourceRange", {"path": "docs/notes.txt", "startLine": 1}))
    assert OUTSIDE in _refused(tools.call("listDocs", {"kind": "pdf"}))
    assert [d["path"] for d in tools.call("listDocs", {}).content["docs"]] == ["docs/guide.md"]
    assert [d["path"] for d in tools.call("listDocs", {"kind": "text"}).content["docs"]] == ["docs/guide.md"]
    assert {m["path"] for m in tools.call("grepDocs", {"pattern": "Zebra"}).content["matches"]} == {"docs/guide.md"}
    assert tools.call("readSourceRange", {"path": "docs/guide.md", "startLine": 1}).ok


def test_without_filters_the_tools_read_the_whole_folder(ws):
    tools = Toolbox(ws, TurnEvidence())
    assert SECRET in tools.call("readSourceRange", {"path": "private/secret.md", "startLine": 1}).for_model()
    assert tools.call("listDocs", {}).content["total"] == 3
    assert tools.call("relatedChunks", {"chunkId": _secret_chunk(ws)}).ok
