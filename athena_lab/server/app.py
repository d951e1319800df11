"""Build the /athena/* handler list for a base URL, and the standalone tornado app.

``handlers(base_url, state, base_class)`` is what both hosts call: Jupyter passes its
APIHandler and its base_url; ``athena serve`` passes ``StandaloneHandler`` and "/".
Each route mixin is combined with the host's base class here, once.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import Any, Callable

import tornado.web
from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets
from tornado.web import RequestHandler

from .handlers import ROUTES, AthenaRoute
from .live_routes import LIVE_ROUTES
from .middleware import Guard, RateLimiter, StandaloneHandler
from .state import ServerState

log = logging.getLogger("athena_lab.server")
PREFIX = "athena"


def handlers(base_url: str, state: ServerState, base_class: type[RequestHandler]) -> list[tuple[Any, ...]]:
    out = []
    for path, route in ROUTES + LIVE_ROUTES:
        cls = type(route.__name__, (route, base_class), {})
        out.append((f"{base_url.rstrip('/')}/{PREFIX}/{path}/?", cls, {"state": state}))
    return out


class _NotFound(AthenaRoute, StandaloneHandler):
    """Unknown paths answer the same JSON error shape as the routes."""

    def prepare(self) -> None:
        super().prepare()
        from .errors import api_error

        raise api_error(404, f"no route {self.request.path}; the API lives under /{PREFIX}/")


def make_app(state: ServerState, guard: Guard) -> tornado.web.Application:
    return tornado.web.Application(
        handlers("/", state, StandaloneHandler),
        default_handler_class=_NotFound, default_handler_args={"state": state},
        athena_guard=guard,
    )


def guard_from(settings: Any, token: str | None, max_body_bytes: int) -> Guard:
    """settings: ServerSettings (config file / env); a --token flag wins over it."""
    return Guard(token=token if token is not None else settings.token,
                 cors_origins=list(settings.cors_origins),
                 limiter=RateLimiter(settings.rate_limit_per_minute),
                 max_body_bytes=max_body_bytes)


async def serve_forever(state: ServerState, guard: Guard, host: str, port: int,
                        on_listening: Callable[[int], None]) -> None:
    """Listen (port 0: any free port, reported to ``on_listening``) until SIGINT/SIGTERM;
    then stop accepting, close the workspace and return."""
    app = make_app(state, guard)
    # Tornado's own cap sits well above ours so our 413 (with a message) answers first.
    server = HTTPServer(app, max_body_size=max(guard.max_body_bytes * 4, 1 << 20))
    sockets = bind_sockets(port, address=host)
    server.add_sockets(sockets)
    on_listening(sockets[0].getsockname()[1])
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # not on this platform / not main thread
            pass
    try:
        await stop.wait()
    finally:
        server.stop()
        state.close()
