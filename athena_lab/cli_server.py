"""``athena serve``: the HTTP API standalone, on 127.0.0.1:4317 unless told otherwise."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any, Callable

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def register(sub: Any, common: argparse.ArgumentParser, command: Callable) -> None:
    p = sub.add_parser("serve", parents=[common],
                       help="serve the HTTP API (/athena/chat, /athena/search, …) without Jupyter")
    p.add_argument("--host", help="address to bind (default 127.0.0.1; anything else needs --token)")
    p.add_argument("--port", type=int, help="port (default 4317; 0 picks a free one)")
    p.add_argument("--token", help="require 'Authorization: Bearer TOKEN' (default: server.token, "
                                   "env ATHENA_SERVER__TOKEN)")
    p.add_argument("--cors-origin", action="append", metavar="ORIGIN",
                   help="allow browser requests from this origin (repeatable)")
    p.add_argument("--rate-limit", type=int, metavar="N",
                   help="requests per minute per client address (default 60; 0 turns it off)")
    p.add_argument("--watch", action="store_true",
                   help="keep the index following edits in the folder (re-indexed within about 2 s)")
    command("serve")(cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    from athena_lab.server.app import guard_from, serve_forever
    from athena_lab.server.state import ServerState
    from athena_lab.workspace import Athena

    overrides = {"server.host": args.host, "server.port": args.port,
                 "server.cors_origins": args.cors_origin, "server.rate_limit_per_minute": args.rate_limit}
    ws = Athena(args.path or ".", args.index_dir, overrides=overrides)
    settings = ws.config.settings.server
    guard = guard_from(settings, args.token, settings.max_body_kb * 1024)
    if settings.host not in LOOPBACK and not guard.token:
        print(f"athena: error: refusing to serve on {settings.host} without a token; pass --token "
              "(or bind 127.0.0.1)", file=sys.stderr)
        return 2
    state = ServerState(lambda: ws)
    if args.watch:
        state.live.start()

    def listening(port: int) -> None:
        host = f"[{settings.host}]" if ":" in settings.host else settings.host
        auth = "token required" if guard.token else "no token"
        index = "" if ws.has_index() else "; no index yet: POST /athena/reindex builds it"
        live = "; following edits" if args.watch else ""
        print(f"athena: serving {ws.root} at http://{host}:{port}/athena/ ({auth}){index}{live}", flush=True)

    try:
        asyncio.run(serve_forever(state, guard, settings.host, settings.port, listening))
    except OSError as exc:
        print(f"athena: error: cannot listen on {settings.host}:{settings.port}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    return 0
