"""`athena mcp`: a real subprocess on a real indexed folder, driven by the MCP Python SDK's
own client over stdio (the way an agent host connects)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client, types
from mcp.shared.message import SessionMessage

from athena_lab.workspace import Workspace
from corpus_files import copy_flask_subset

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[1]
LEXICAL = {"ATHENA_EMBEDDING__PROVIDER": "none"}
SECRET = "mcp-must-not-read-this-secret"
TOOLS = {"searchDocs", "grepDocs", "readSourceRange", "readPdfSource", "listDocs", "relatedChunks"}


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    folder = copy_flask_subset(tmp_path_factory.mktemp("mcp") / "docs", ["blueprints.rst", "config.rst"])
    (folder / ".env").write_text(f"AWS_SECRET_ACCESS_KEY={SECRET}\n")
    Workspace(folder, overrides={"embedding.provider": "none"}).index()
    return folder


def _server(root: Path) -> StdioServerParameters:
    # The SDK passes only a safe subset of the environment on: name what the server needs.
    return StdioServerParameters(command=sys.executable, args=["-m", "athena_lab.cli", "mcp", "--path", str(root)],
                                 env={**LEXICAL, "PYTHONPATH": str(REPO)}, cwd=str(REPO))


async def _tee(source: Any, sink: Any, seen: list[Any]) -> None:
    """Forward the server's messages to the session, keeping a copy of each."""
    async with sink:
        async for item in source:
            seen.append(item.message if isinstance(item, SessionMessage) else item)
            await sink.send(item)


def _client_session(root: Path, body: Any) -> Any:
    """Run ``body(session, write, seen)`` against a fresh `athena mcp` process. On its own
    thread: a session-wide Playwright (browser tests) keeps an event loop running on this one."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, _drive(root, body)).result()


async def _drive(root: Path, body: Any) -> Any:
    async with stdio_client(_server(root)) as (read, write):
        forward, session_read = anyio.create_memory_object_stream[Any](16)
        seen: list[Any] = []
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(_tee, read, forward, seen)
            async with ClientSession(session_read, write) as session:
                await session.initialize()
                result = await body(session, write, seen)
            tasks.cancel_scope.cancel()
        return result


def _text(result: types.CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, types.TextContent))


def test_an_agent_lists_searches_and_reads_with_the_sdk_client(root: Path) -> None:
    async def body(session: ClientSession, _write: Any, _seen: list[Any]) -> dict[str, Any]:
        listed = await session.list_tools()
        search = await session.call_tool("searchDocs", {"query": "register_blueprint", "limit": 2})
        hit = search.structured_content["results"][0]
        read = await session.call_tool("readSourceRange", {"path": hit["path"], "startLine": 1, "endLine": 5})
        outside = await session.call_tool("readSourceRange", {"path": "../../etc/passwd", "startLine": 1})
        unknown = await session.call_tool("writeFile", {"path": "x"})
        return {"tools": listed.tools, "search": search, "hit": hit, "read": read, "outside": outside,
                "unknown": unknown}

    out = _client_session(root, body)
    assert {tool.name for tool in out["tools"]} == TOOLS
    assert all(tool.annotations.read_only_hint and not tool.annotations.destructive_hint for tool in out["tools"])
    assert all(tool.input_schema["type"] == "object" for tool in out["tools"])
    assert not out["search"].is_error and "blueprints.rst" in _text(out["search"])
    assert out["hit"]["path"].endswith(".rst")
    read = out["read"]
    assert not read.is_error
    source = (root / out["hit"]["path"]).read_text(encoding="utf-8").splitlines()
    assert read.structured_content["lines"] == source[:5]
    assert out["outside"].is_error and "not allowed" in _text(out["outside"])
    assert out["unknown"].is_error and "unknown tool" in _text(out["unknown"])


@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings")  # the bad messages, on purpose
def test_a_malformed_message_does_not_end_the_server(root: Path) -> None:
    """Issue 10, finding 10: one `"params": [1]` used to kill `athena mcp`."""

    async def body(session: ClientSession, write: Any, seen: list[Any]) -> dict[str, Any]:
        # Sent raw through the SDK's own transport: the models would refuse to build these.
        for bad_id, params in (("bad-list", [1]), ("bad-args", {"name": "searchDocs", "arguments": [1]}),
                               ("bad-name", {"name": 5})):
            bad = types.JSONRPCRequest.model_construct(jsonrpc="2.0", id=bad_id, method="tools/call", params=params)
            await write.send(SessionMessage(bad))
        after = await session.call_tool("grepDocs", {"pattern": "register_blueprint", "limit": 1})
        await session.send_ping()
        errors = {m.id: m.error.code for m in seen if isinstance(m, types.JSONRPCError)}
        return {"after": after, "errors": errors}

    out = _client_session(root, body)
    assert not out["after"].is_error and "register_blueprint" in _text(out["after"])
    # The SDK answers what it can attribute to a request with "invalid params" and drops
    # what is not a JSON-RPC request at all; either way the next request is served.
    assert out["errors"].get("bad-args") == -32602 and out["errors"].get("bad-name") == -32602


def test_mcp_without_an_index_says_what_to_run(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "athena_lab.cli", "mcp", "--path", str(tmp_path)],
                          input="", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "run `athena index" in proc.stderr


def test_mcp_without_the_sdk_says_which_extra_to_install(root: Path) -> None:
    hide_sdk = ("import sys; sys.modules['mcp'] = None; from athena_lab.cli import main; "
                f"sys.exit(main(['mcp', '--path', {json.dumps(str(root))}]))")
    proc = subprocess.run([sys.executable, "-c", hide_sdk], input="", capture_output=True, text=True,
                          timeout=60, env={**os.environ, **LEXICAL})
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().splitlines() == ["athena: error: athena mcp needs the MCP SDK: "
                                                "pip install 'athena-lab[mcp]'"]


def test_an_agent_cannot_read_hidden_files_through_mcp(root: Path) -> None:
    async def body(session: ClientSession, _write: Any, seen: list[Any]) -> tuple[types.CallToolResult, str]:
        result = await session.call_tool("readSourceRange", {"path": ".env", "startLine": 1})
        return result, json.dumps([m.model_dump(mode="json") if hasattr(m, "model_dump") else str(m) for m in seen])

    result, wire = _client_session(root, body)
    assert result.is_error and ".env" in _text(result) and "hidden" in _text(result)
    assert SECRET not in wire, "the secret never crosses the wire"
