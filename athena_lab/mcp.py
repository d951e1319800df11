"""``athena mcp``: the retrieval tools as a Model Context Protocol server over stdio.

External agents (coding assistants, other chat hosts) get searchDocs, grepDocs,
readSourceRange, readPdfSource, listDocs and relatedChunks — the same validated,
path-confined tools the built-in loop uses — while indexing, ranking and citations stay
athena's. JSON-RPC 2.0, one message per line, as the MCP stdio transport specifies.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any, Callable

from athena_lab import __version__

PROTOCOL_VERSION = "2025-06-18"
INSTRUCTIONS = ("Search the indexed documents with searchDocs or grepDocs, read exact evidence with "
                "readSourceRange / readPdfSource, and cite path and lines (or PDF page) in answers.")


class McpServer:
    def __init__(self, workspace: Any) -> None:
        self.ws = workspace
        self._toolbox = None

    @property
    def toolbox(self) -> Any:
        if self._toolbox is None:
            self._toolbox = self.ws.toolbox()
        return self._toolbox

    def handle(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """The response to one JSON-RPC message (None for notifications)."""
        method, msg_id = message.get("method"), message.get("id")
        if msg_id is None:
            return None  # notifications (initialized, cancelled) need no answer
        try:
            result = self._dispatch(method, message.get("params") or {})
        except _RpcError as exc:
            return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": exc.code, "message": str(exc)}}
        return {"jsonrpc": "2.0", "id": msg_id, "result": result}

    def _dispatch(self, method: str | None, params: dict[str, Any]) -> dict[str, Any]:
        if method == "initialize":
            return {"protocolVersion": params.get("protocolVersion") or PROTOCOL_VERSION,
                    "capabilities": {"tools": {"listChanged": False}},
                    "serverInfo": {"name": "athena-lab", "version": __version__},
                    "instructions": INSTRUCTIONS}
        if method == "ping":
            return {}
        if method == "tools/list":
            return {"tools": [{"name": s.name, "description": s.description, "inputSchema": s.parameters}
                              for s in self.toolbox.specs()]}
        if method == "tools/call":
            name = params.get("name")
            if not isinstance(name, str):
                raise _RpcError(-32602, "tools/call needs a tool name")
            arguments = params.get("arguments") or {}
            if not isinstance(arguments, dict):
                raise _RpcError(-32602, "tool arguments must be an object")
            result = self.toolbox.call(name, arguments)
            return {"content": [{"type": "text", "text": result.for_model()}],
                    "structuredContent": result.content, "isError": not result.ok}
        raise _RpcError(-32601, f"method not found: {method}")

    def serve(self, reader: IO[str], writer: IO[str]) -> None:
        for line in reader:
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except json.JSONDecodeError as exc:
                response = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": f"parse error: {exc}"}}
            else:
                response = self.handle(message) if isinstance(message, dict) else {
                    "jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "expected a JSON object"}}
            if response is not None:
                writer.write(json.dumps(response, ensure_ascii=False, default=str) + "\n")
                writer.flush()


class _RpcError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


def register(sub: Any, common: argparse.ArgumentParser, command: Callable) -> None:
    sub.add_parser("mcp", parents=[common], help="serve the retrieval tools over MCP (stdio) for other agents")
    command("mcp")(cmd_mcp)


def cmd_mcp(args: argparse.Namespace) -> int:
    from athena_lab.workspace import Athena

    ws = Athena(args.path or ".", args.index_dir)
    if not ws.has_index():
        print(f"athena: error: no index at {ws.index_dir}: run `athena index {ws.root}` first", file=sys.stderr)
        return 2
    McpServer(ws).serve(sys.stdin, sys.stdout)
    return 0
