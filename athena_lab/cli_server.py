"""``athena serve``: the HTTP API standalone, on 127.0.0.1:4317 unless told otherwise.

It needs a token by default, as Jupyter does: a random one unless the user set their own
(--token, ``server.token`` in their config, ATHENA_SERVER__TOKEN). It is printed in the URL
on the first line, so opening that URL in a browser works (the server sets a cookie from it).
``--no-token`` turns it off, and only on loopback: any page in the user's browser can send
requests to 127.0.0.1, and the Host/Origin checks (middleware.py) are then all that stand
between those pages and the API.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
from typing import Any, Callable

from athena_lab.errors import ConfigError

TOKEN_BYTES = 32


def register(sub: Any, common: argparse.ArgumentParser, command: Callable) -> None:
    p = sub.add_parser("serve", parents=[common],
                       help="serve the HTTP API (/athena/chat, /athena/search, …) without Jupyter")
    p.add_argument("--host", help="address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, help="port (default 4317; 0 picks a free one)")
    p.add_argument("--token", help="the token clients must send as 'Authorization: Bearer TOKEN' (default: "
                                   "server.token from your config or ATHENA_SERVER__TOKEN, else a random "
                                   "one, printed in the URL at start)")
    p.add_argument("--no-token", action="store_true",
                   help="serve without a token, on a loopback address only: every program on this "
                        "machine can then use the API")
    p.add_argument("--cors-origin", action="append", metavar="ORIGIN",
                   help="allow browser requests from this origin (repeatable)")
    p.add_argument("--allow-host", action="append", metavar="HOST",
                   help="also answer requests whose Host header names HOST (repeatable; default: "
                        "loopback names and the bound address only; '*' for any)")
    p.add_argument("--rate-limit", type=int, metavar="N",
                   help="requests per minute per client address (default 600; 0 turns it off)")
    p.add_argument("--live", "--watch", dest="live", action="store_true",
                   help="run the live index: edits in the folder are re-indexed within about 2 s "
                        "(--watch is its old name)")
    command("serve")(cmd_serve)


def choose_token(flag: str | None, no_token: bool, configured: str, host: str) -> str:
    """The token in force: --token, else the user's configured one, else a fresh random
    one; "" with --no-token, which only a loopback address may use."""
    from athena_lab.server.addresses import is_loopback

    if no_token:
        if flag:
            raise ConfigError("--token and --no-token contradict each other; pass one of them")
        if not is_loopback(host.strip("[]")):
            raise ConfigError(f"--no-token is allowed only on a loopback address, and {host} is reachable "
                              "from other machines; drop --no-token (a token is generated) or bind 127.0.0.1")
        return ""
    return flag or configured or secrets.token_urlsafe(TOKEN_BYTES)


def cmd_serve(args: argparse.Namespace) -> int:
    from athena_lab.server.app import guard_from, serve_forever
    from athena_lab.server.state import ServerState
    from athena_lab.workspace import Workspace

    overrides = {"server.host": args.host, "server.port": args.port,
                 "server.cors_origins": args.cors_origin, "server.allowed_hosts": args.allow_host,
                 "server.rate_limit_per_minute": args.rate_limit}
    ws = Workspace(args.path or ".", args.index_dir, overrides=overrides)
    settings = ws.config.settings.server
    token = choose_token(args.token, args.no_token, settings.token, settings.host)
    generated = bool(token) and token not in (args.token, settings.token)
    dropin = ws.config.settings.dropin
    guard = guard_from(settings, token, dropin)
    state = ServerState(lambda: ws)
    if args.live:
        state.live.start()

    def listening(port: int) -> None:
        live = "; live index on" if args.live else ""
        public = _public_note(dropin.public, settings.cors_origins,
                              bool(dropin.public_paths or dropin.site_url_map)) if token else ""
        print(f"athena: serving {ws.root} at {_url(settings.host, port, token if generated else '')} "
              f"({_auth_note(token, generated)}){_index_note(ws)}{live}{public}", flush=True)

    try:
        asyncio.run(serve_forever(state, guard, settings, listening))
    except OSError as exc:
        print(f"athena: error: cannot listen on {settings.host}:{settings.port}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    return 0


def _url(host: str, port: int, token: str) -> str:
    """The URL to open: the chat page at /, with the token when the user has not seen it
    elsewhere (opening it sets the cookie the page's requests then carry)."""
    from athena_lab.server.addresses import WILDCARD_ADDRESSES

    host = "127.0.0.1" if host in WILDCARD_ADDRESSES else host
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


def _public_note(public: bool, origins: list[str], publishes: bool = True) -> str:
    """Said at start, so nobody runs a public server without knowing it."""
    if not public:
        return ""
    if not origins:
        return "; [dropin] public is on but server.cors_origins is empty, so no site can use it"
    if not publishes:
        return ("; [dropin] public is on but neither [dropin] public_paths nor site_url_map names a "
                "published path, so visitors find nothing")
    return f"; public read-only routes for pages on {', '.join(origins)} (docs/security.md)"


def _auth_note(token: str, generated: bool) -> str:
    if not token:
        return "no token: every program on this machine can use it"
    if generated:
        return "token required: open this URL, or send 'Authorization: Bearer <the token in it>'"
    return "token required: your configured token"


def _index_note(ws: Any) -> str:
    return "" if ws.has_index() else "; no index yet: POST /athena/reindex builds it"
