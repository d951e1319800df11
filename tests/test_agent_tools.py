"""The model's tools on a real index: schemas enforced before running, paths confined."""

from __future__ import annotations

import json
import os

import pytest

from agent_corpus import indexed_flask, workspace
from athena_lab.agent.citations import TurnEvidence
from athena_lab.agent.tools import Toolbox

pytestmark = pytest.mark.unit


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    athena = workspace(indexed_flask(tmp_path_factory))
    yield athena
    athena.close()


@pytest.fixture
def tools(ws):
    return Toolbox(ws, TurnEvidence())


def test_every_tool_has_a_json_schema_with_required_fields(tools):
    specs = {s.name: s for s in tools.specs()}
    assert set(specs) == {"searchDocs", "grepDocs", "readSourceRange", "readPdfSource", "listDocs", "relatedChunks"}
    assert specs["readSourceRange"].parameters["required"] == ["path", "startLine"]
    assert all(s.parameters["type"] == "object" for s in specs.values())


@pytest.mark.parametrize("name, args, message", [
    ("searchDocs", {}, "missing the required field(s): query"),
    ("searchDocs", {"query": "x", "limit": 500}, "limit must be at most 20"),
    ("searchDocs", {"query": "   "}, "query must not be empty"),
    ("searchDocs", {"query": "x", "filters": {"kind": "video"}}, "filters.kind must be one of"),
    ("readSourceRange", {"path": "cli.rst", "startLine": "ten"}, "startLine must be an integer"),
    ("readSourceRange", {"path": "cli.rst", "startLine": 0}, "startLine must be at least 1"),
    ("relatedChunks", {"chunkId": "x", "after": True}, "after must be an integer"),
    ("grepDocs", {"pattern": "x", "colour": "red"}, "unknown field(s): colour"),
    ("grepDocs", {"pattern": "(", "regex": True}, "invalid regular expression"),
    ("fetchUrl", {"url": "x"}, "unknown tool 'fetchUrl'"),
])
def test_bad_input_comes_back_to_the_model_as_a_readable_error(tools, name, args, message):
    result = tools.call(name, args)
    assert not result.ok
    assert message in result.content["error"]
    assert json.loads(result.for_model())["error"]


def test_arguments_that_are_not_json_are_reported_not_run(tools):
    result = tools.call("searchDocs", {}, "arguments are not valid JSON (Expecting value): {query")
    assert not result.ok and "not valid JSON" in result.content["error"]


@pytest.mark.parametrize("path, reason", [
    ("../../etc/passwd", "'..' is not allowed"),
    ("/etc/passwd", "absolute paths are not allowed"),
    ("escape.txt", "outside the indexed folder"),
    ("missing.rst", "no such file"),
])
def test_read_tools_refuse_paths_outside_the_indexed_folder(ws, tools, path, reason):
    link = ws.root / "escape.txt"
    if not link.is_symlink():
        os.symlink("/etc/passwd", link)
    for name, args in (("readSourceRange", {"path": path, "startLine": 1}),
                       ("readPdfSource", {"path": path.replace("txt", "pdf").replace("passwd", "x.pdf")
                                          if path != "escape.txt" else path, "page": 1})):
        result = tools.call(name, args)
        assert not result.ok, (name, path)
    assert reason in tools.call("readSourceRange", {"path": path, "startLine": 1}).content["error"]
    assert not tools.call("searchDocs", {"query": "x", "filters": {"pathPrefix": "../.."}}).ok
    assert not tools.call("listDocs", {"pathPrefix": "/etc"}).ok


def test_read_source_range_returns_exact_lines_and_registers_evidence(ws, tools):
    result = tools.call("readSourceRange", {"path": "blueprints.rst", "startLine": 87, "endLine": 90})
    lines = (ws.root / "blueprints.rst").read_text().splitlines()[86:90]
    assert result.ok and result.content["lines"] == lines
    item = tools.evidence.get(result.content["ref"])
    assert (item.citation["path"], item.citation["start_line"], item.citation["end_line"]) == ("blueprints.rst", 87, 90)


def test_search_grep_and_related_share_evidence_numbers(tools):
    found = tools.call("searchDocs", {"query": "register_blueprint", "limit": 3})
    assert found.ok and found.content["results"][0]["ref"] == 1
    first = found.content["results"][0]
    grep = tools.call("grepDocs", {"pattern": "register_blueprint", "limit": 50})
    assert grep.ok and any(m["ref"] == 1 for m in grep.content["matches"] if m["chunkId"] == first["chunkId"])
    related = tools.call("relatedChunks", {"chunkId": first["chunkId"], "before": 1, "after": 1})
    assert related.ok and first["chunkId"] in [c["chunkId"] for c in related.content["chunks"]]
    assert tools.call("relatedChunks", {"chunkId": "0000"}).content["error"].startswith("relatedChunks: unknown chunk id")
    docs = tools.call("listDocs", {"kind": "rst"})
    assert docs.content["total"] == 6


def test_read_pdf_source_refuses_a_text_file(tools):
    result = tools.call("readPdfSource", {"path": "cli.rst", "page": 1})
    assert not result.ok and "not a PDF" in result.content["error"]


def test_read_pdf_source_reads_a_page_and_cites_it_with_its_region(tmp_path):
    from agent_corpus import FLASK_DOCS

    pdf = FLASK_DOCS.parents[2] / "pdfs" / "misc_pypdf_crazyones-pdfa.pdf"
    (tmp_path / "crazy.pdf").write_bytes(pdf.read_bytes())
    pdf_ws = workspace(tmp_path)
    tools = Toolbox(pdf_ws, TurnEvidence())
    region = {"x": 0, "y": 0, "width": 612, "height": 300}
    result = tools.call("readPdfSource", {"path": "crazy.pdf", "page": 1, "region": region})
    assert result.ok, result.content
    assert result.content["page"] == 1 and result.content["text"]
    cite = tools.evidence.get(result.content["ref"]).citation
    assert (cite["kind"], cite["path"], cite["page"], cite["regions"]) == ("pdf", "crazy.pdf", 1, [region])
    assert "has no page 9" in tools.call("readPdfSource", {"path": "crazy.pdf", "page": 9}).content["error"]
