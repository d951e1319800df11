"""The standalone server's front door: token, CORS allowlist, per-IP rate limit, body limit.

Inside Jupyter the server's own login and XSRF rules do this job; ``athena serve`` has
no Jupyter in front of it, so its base handler checks, before any route runs:
an optional bearer token (401), the request body size (413, decided from the headers so
a huge upload is refused before it is read), and a sliding one-minute window of requests
per client address (429 with Retry-After). CORS headers go only to allowlisted origins.
"""

from __future__ import annotations

import hmac
import math
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from tornado.web import RequestHandler, stream_request_body

from .errors import api_error

WINDOW_S = 60.0


class RateLimiter:
    """At most ``per_minute`` requests per address in any 60 s window; 0 disables it."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._seen: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def retry_after(self, address: str, now: float | None = None) -> int:
        """0 if the request may go ahead (and counts it), else seconds until it may."""
        if self.per_minute <= 0:
            return 0
        now = time.monotonic() if now is None else now
        with self._lock:
            stamps = self._seen.setdefault(address, deque())
            while stamps and stamps[0] <= now - WINDOW_S:
                stamps.popleft()
            if len(stamps) >= self.per_minute:
                return max(1, math.ceil(stamps[0] + WINDOW_S - now))
            stamps.append(now)
            if len(self._seen) > 10_000:  # forget idle addresses so the table stays small
                for key in [k for k, v in self._seen.items() if not v]:
                    del self._seen[key]
            return 0


@dataclass
class Guard:
    token: str = ""
    cors_origins: list[str] = field(default_factory=list)
    limiter: RateLimiter = field(default_factory=lambda: RateLimiter(0))
    max_body_bytes: int = 256 * 1024


@stream_request_body
class StandaloneHandler(RequestHandler):
    """Base of every route under ``athena serve``; reads the body itself to enforce the limit."""

    guard: Guard

    def prepare(self) -> None:
        self.guard = self.settings["athena_guard"]
        self._cors()
        if self.request.method == "OPTIONS":
            return
        self._check_token()
        wait = self.guard.limiter.retry_after(self.request.remote_ip or "?")
        if wait:
            raise api_error(429, f"rate limit of {self.guard.limiter.per_minute} requests per minute "
                              f"exceeded; retry in {wait} s", {"Retry-After": str(wait)})
        declared = self.request.headers.get("Content-Length")
        if declared and declared.isdigit() and int(declared) > self.guard.max_body_bytes:
            self._refuse_body(int(declared))

    def get_current_user(self) -> str:
        # Reached only after prepare() accepted the token (or none is required).
        return "local"

    def data_received(self, chunk: bytes) -> None:
        if self._finished:  # already refused: drop the rest
            return
        # Bodies are small (the limit is KBs), so plain concatenation is fine.
        self.request.body = self.request.body + chunk
        if len(self.request.body) > self.guard.max_body_bytes:
            try:
                self._refuse_body(len(self.request.body))
            except Exception as refused:  # answer now; tornado closes the connection after it
                self.send_error(413, exc_info=(type(refused), refused, None))

    def _refuse_body(self, size: int) -> None:
        # The rest of the upload is not read: close after answering.
        self.set_header("Connection", "close")
        raise api_error(413, f"request body of {size} bytes is over the limit of "
                          f"{self.guard.max_body_bytes} bytes")

    def _check_token(self) -> None:
        expected = self.guard.token
        if not expected:
            return
        header = self.request.headers.get("Authorization", "")
        scheme, _, given = header.partition(" ")
        if scheme.lower() not in ("bearer", "token"):
            given = self.get_query_argument("token", "")
        if not hmac.compare_digest(given.strip().encode(), expected.encode()):
            raise api_error(401, "missing or wrong token: send 'Authorization: Bearer <token>'",
                         {"WWW-Authenticate": 'Bearer realm="athena"'})

    def _cors(self) -> None:
        origin = self.request.headers.get("Origin")
        if origin and origin in self.guard.cors_origins:
            self.set_header("Access-Control-Allow-Origin", origin)
            self.set_header("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
            self.set_header("Access-Control-Allow-Headers", "Content-Type, Authorization")
            self.set_header("Access-Control-Max-Age", "600")
        self.add_header("Vary", "Origin")

    def options(self, *args: Any) -> None:
        self.set_status(204)
        self.finish()

    def clear(self) -> None:
        # Error answers start from cleared headers; a browser still needs CORS on a 429.
        super().clear()
        if hasattr(self, "guard"):
            self._cors()

    def finish(self, chunk: Any = None, set_content_type: str = "application/json") -> Any:
        # Same signature as jupyter_server's APIHandler.finish, so routes call it one way.
        self.set_header("Content-Type", set_content_type)
        return super().finish(chunk)
