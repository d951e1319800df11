"""`athena mcp`: a real subprocess speaking MCP's JSON-RPC over stdio."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from athena_lab.workspace import Athena
from corpus_files import copy_flask_subset

LEXICAL = {"ATHENA_EMBEDDING__PROVIDER": "none"}


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    folder = copy_flask_subset(tmp_path_factory.mktemp("mcp") / "docs", ["blueprints.rst", "config.rst"])
    Athena(folder, overrides={"embedding.provider": "none"}).index()
    return folder


def _session(root: Path, messages: list[dict]) -> list[dict]:
    stdin = "".join(json.dumps(m) + "\n" for m in messages) + "not json\n"
    proc = subprocess.run([sys.executable, "-m", "athena_lab.cli", "mcp", "--path", str(root)], input=stdin,
                          capture_output=True, text=True, timeout=120, env={**os.environ, **LEXICAL})
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_an_agent_can_list_and_call_the_retrieval_tools(root: Path) -> None:
    replies = _session(root, [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
         "params": {"name": "searchDocs", "arguments": {"query": "register_blueprint", "limit": 2}}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call",
         "params": {"name": "readSourceRange", "arguments": {"path": "../../etc/passwd", "startLine": 1}}},
        {"jsonrpc": "2.0", "id": 5, "method": "nope"},
    ])
    by_id = {r.get("id"): r for r in replies}
    assert by_id[1]["result"]["serverInfo"]["name"] == "athena-lab"
    names = {t["name"] for t in by_id[2]["result"]["tools"]}
    assert names == {"searchDocs", "grepDocs", "readSourceRange", "readPdfSource", "listDocs", "relatedChunks"}
    search = by_id[3]["result"]
    assert not search["isError"] and "blueprints.rst" in search["content"][0]["text"]
    refused = by_id[4]["result"]
    assert refused["isError"] and "not allowed" in refused["content"][0]["text"]
    assert by_id[5]["error"]["code"] == -32601
    assert by_id[None]["error"]["code"] == -32700  # the line that was not JSON


def test_mcp_without_an_index_says_what_to_run(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "athena_lab.cli", "mcp", "--path", str(tmp_path)],
                          input="", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "run `athena index" in proc.stderr
