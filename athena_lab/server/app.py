"""Build the /athena/* handler list for a base URL, and the standalone tornado app.

``handlers(base_url, state, base_class)`` is what both hosts call: Jupyter passes its
APIHandler, its base_url and ``resource="athena"``; ``athena serve`` passes
``StandaloneHandler`` and "/". Each route mixin is combined with the host's base class here,
once. Inside Jupyter every verb also goes through jupyter_server's ``@authorized`` on that
resource (GET: read, POST/DELETE: write), so a server whose authorizer makes a user
read-only keeps that user from reindexing or chatting, not only from logging in.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import Any, Callable

import tornado.web
from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets
from tornado.web import RequestHandler, authenticated

from .connections import FloodLog, GuardedHTTPServer, raise_descriptor_limit
from .dropin import dropin_handlers
from .handlers import ROUTES, AthenaRoute
from .live_routes import LIVE_ROUTES
from .middleware import Guard, StandaloneHandler
from .ratelimit import RateLimiter
from .page import PAGE_ROUTES, page_handlers
from .state import ServerState

log = logging.getLogger("athena_lab.server")
PREFIX = "athena"


HTTP_VERBS = ("get", "post", "put", "patch", "delete")
# Tornado's idle timeout is also how long a client may take to send its request headers
# (a slow-headers client holds a connection open otherwise); 32 KiB of headers leaves room
# for the cookies other local apps set on the same host.
MAX_HEADER_BYTES = 32 * 1024


def handlers(base_url: str, state: ServerState, base_class: type[RequestHandler],
             resource: str | None = None) -> list[tuple[Any, ...]]:
    """The routes under ``base_url``; with ``resource``, each verb asks the host's
    authorizer for read (GET) or write (POST, DELETE) permission on it."""
    out = []
    for path, route in ROUTES + LIVE_ROUTES + PAGE_ROUTES:
        methods = _authorized_verbs(route, resource) if resource else {}
        cls = type(route.__name__, (route, base_class), methods)
        out.append((f"{base_url.rstrip('/')}/{PREFIX}/{path}/?", cls, {"state": state}))
    return out


def _authorized_verbs(route: type[AthenaRoute], resource: str) -> dict[str, Any]:
    """The route's own verbs, each wrapped in jupyter_server's ``@authorized(resource=…)``,
    itself inside ``@authenticated`` so login is checked first, as Jupyter's own handlers do."""
    from jupyter_server.auth.decorator import authorized

    return {verb: authenticated(authorized(resource=resource)(getattr(route, verb)))
            for verb in HTTP_VERBS if verb in vars(route)}


class _NotFound(AthenaRoute, StandaloneHandler):
    """Unknown paths answer the same JSON error shape as the routes."""

    def admit(self) -> None:
        super().admit()
        from .errors import api_error

        raise api_error(404, f"no route {self.request.path}; the API lives under /{PREFIX}/")


def make_app(state: ServerState, guard: Guard) -> tornado.web.Application:
    """The standalone app; its ``athena_flood_log`` (connections.py) writes the access log and
    the flood reports of the HTTP server ``http_server`` makes for it."""
    flood = FloodLog()
    return tornado.web.Application(
        page_handlers(state) + dropin_handlers(state) + handlers("/", state, StandaloneHandler),
        default_handler_class=_NotFound, default_handler_args={"state": state},
        athena_guard=guard, athena_flood_log=flood, log_function=flood.access,
    )


def guard_from(settings: Any, token: str, dropin: Any = None) -> Guard:
    """settings: ServerSettings (user config / env / flags); ``token`` is the one in force
    ("" when the user opted out with --no-token); ``dropin``: DropinSettings (public mode)."""
    return Guard(token=token, cors_origins=list(settings.cors_origins),
                 allowed_hosts=list(settings.allowed_hosts), bound_host=settings.host,
                 limiter=RateLimiter(settings.rate_limit_per_minute),
                 max_body_bytes=settings.max_body_kb * 1024,
                 public=bool(getattr(dropin, "public", False)),
                 public_chats=RateLimiter(getattr(dropin, "public_chats_per_minute", 10)),
                 behind_proxy=bool(getattr(settings, "behind_proxy", False)))


def http_server(app: tornado.web.Application, guard: Guard, settings: Any) -> HTTPServer:
    """The HTTP server with timeouts, so idle or slow clients cannot hold connections forever.
    No ``xheaders``: tornado's would believe a client's own X-Real-Ip; behind a proxy the
    guard reads the address itself (addresses.client_from_proxy)."""
    # Tornado's own body cap sits well above ours so our 413 (with a message) answers first.
    # Its idle timeout is also the deadline for a request's headers; connections still
    # waiting for them are capped per address and in all (connections.py, issue 31).
    return GuardedHTTPServer(app, max_body_size=max(guard.max_body_bytes * 4, 1 << 20),
                             idle_connection_timeout=settings.idle_timeout_s, body_timeout=settings.body_timeout_s,
                             max_header_size=MAX_HEADER_BYTES, flood_log=app.settings.get("athena_flood_log"))


async def serve_forever(state: ServerState, guard: Guard, settings: Any,
                        on_listening: Callable[[int], None]) -> None:
    """Listen on settings.host:settings.port (port 0: any free port, reported to
    ``on_listening``) until SIGINT/SIGTERM; then stop accepting, close the workspace and return."""
    raise_descriptor_limit()
    server = http_server(make_app(state, guard), guard, settings)
    sockets = bind_sockets(settings.port, address=settings.host)
    server.add_sockets(sockets)
    guard.port = sockets[0].getsockname()[1]
    on_listening(guard.port)
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
