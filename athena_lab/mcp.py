"""``athena mcp``: the retrieval tools as a Model Context Protocol server over stdio.

External agents (coding assistants, other chat hosts) get searchDocs, grepDocs,
readSourceRange, readPdfSource, listDocs and relatedChunks — the same validated tools the
built-in loop uses, reading through the workspace facade and so under its confinement —
while indexing, ranking and citations stay athena's. Every tool only reads.

The protocol itself (framing, handshake, version negotiation, malformed messages) is the
official MCP Python SDK's, an optional extra (``pip install 'athena-lab[mcp]'``): a
hand-written loop had let one bad message end the server. This module only maps the
toolbox onto the SDK's low-level server.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Callable

from athena_lab import __version__

if TYPE_CHECKING:
    from mcp.server.lowlevel import Server

INSTALL_HINT = "athena mcp needs the MCP SDK: pip install 'athena-lab[mcp]'"
INSTRUCTIONS = ("Search the indexed documents with searchDocs or grepDocs, read exact evidence with "
                "readSourceRange / readPdfSource, and cite path and lines (or PDF page) in answers.")


def sdk_installed() -> bool:
    """Whether the optional MCP SDK can be imported (without importing it)."""
    return importlib.util.find_spec("mcp") is not None


def tool_list(toolbox: Any) -> list[Any]:
    """The toolbox's specs as MCP tools, each marked read-only and closed-world."""
    from mcp import types

    read_only = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                                      open_world_hint=False)
    return [types.Tool(name=spec.name, description=spec.description, input_schema=spec.parameters,
                       annotations=read_only) for spec in toolbox.specs()]


def call_result(result: Any) -> Any:
    """A toolbox ToolResult as an MCP tool result: the text the built-in loop's model reads,
    the full JSON as structured content, and isError when the tool refused or failed."""
    from mcp import types

    structured = json.loads(json.dumps(result.content, ensure_ascii=False, default=str))
    return types.CallToolResult(content=[types.TextContent(type="text", text=result.for_model())],
                                structured_content=structured, is_error=not result.ok)


def build_server(workspace: Any, worker: ThreadPoolExecutor) -> "Server":
    """The SDK server answering tools/list and tools/call from ``workspace``'s toolbox.

    Tool calls block (index reads, PDF text), so they run on ``worker``, one at a time:
    the event loop stays free to answer pings and cancellations meanwhile.
    """
    from mcp.server.lowlevel import Server

    toolbox = workspace.toolbox()

    async def on_list_tools(_ctx: Any, _params: Any) -> Any:
        from mcp import types

        return types.ListToolsResult(tools=tool_list(toolbox))

    async def on_call_tool(_ctx: Any, params: Any) -> Any:
        arguments = params.arguments if isinstance(params.arguments, dict) else {}
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(worker, toolbox.call, params.name, arguments)
        return call_result(result)

    return Server("athena-lab", version=__version__, instructions=INSTRUCTIONS,
                  on_list_tools=on_list_tools, on_call_tool=on_call_tool)


async def serve_stdio(workspace: Any) -> None:
    """Serve until the client closes stdin."""
    from mcp.server.stdio import stdio_server

    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="athena-mcp") as worker:
        server = build_server(workspace, worker)
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())


def register(sub: Any, common: argparse.ArgumentParser, command: Callable) -> None:
    sub.add_parser("mcp", parents=[common],
                   help="serve the read-only retrieval tools over MCP (stdio) for other agents; "
                        "needs pip install 'athena-lab[mcp]'",
                   description="Serve searchDocs, grepDocs, readSourceRange, readPdfSource, listDocs and "
                               "relatedChunks over the Model Context Protocol on stdin/stdout, for agents "
                               "such as coding assistants. Read-only: nothing is indexed or written. "
                               "Needs the MCP SDK: pip install 'athena-lab[mcp]'.")
    command("mcp")(cmd_mcp)


def cmd_mcp(args: argparse.Namespace) -> int:
    if not sdk_installed():
        print(f"athena: error: {INSTALL_HINT}", file=sys.stderr)
        return 2
    from athena_lab.workspace import Workspace

    ws = Workspace(args.path or ".", args.index_dir)
    if not ws.has_index():
        print(f"athena: error: no index at {ws.index_dir}: run `athena index {ws.root}` first", file=sys.stderr)
        return 2
    try:
        asyncio.run(serve_stdio(ws))
    finally:
        ws.close()
    return 0
