"""The standalone server's front door: Host, Origin, token, rate limits, body type and size.

Inside Jupyter the server's own login, XSRF and Host/Origin rules do this job; ``athena
serve`` has no Jupyter in front of it, and it runs next to the user's browser, where any
web page can send it requests. So its base handler checks, before any route runs:

- ``Host`` is a loopback name, the bound address, or one the user allowed (403): a page
  that rebinds its own domain to 127.0.0.1 (DNS rebinding) sends its own name here;
- ``Origin``, when a browser sends one, is this server's own or on the allowlist (403):
  a foreign page's request never reaches a route, whatever the method;
- the token (401), unless the user opted out with ``--no-token`` on loopback. It is
  accepted as ``Authorization: Bearer``, ``?token=`` (which also sets an HttpOnly,
  SameSite=Strict cookie so a browser page opened from the printed URL keeps working) or
  that cookie. More than ``TOKEN_FAILURES_PER_MINUTE`` wrong tokens from one address sent
  one way (header, query or cookie) in a minute answer 429 (with Retry-After) without being
  checked, so guessing is slow — and another way still works, so a page that cannot send a
  header or the cookie cannot lock the owner out. A query token on a browser's subresource
  or cross-site request (an ``<img>`` on any page) is not read at all;
- a sliding one-minute window of requests per client address (429 with Retry-After);
- a request body is JSON (415): an HTML form or a ``text/plain`` fetch can send a
  cross-site POST without a CORS preflight, a JSON body cannot;
- the body size (413), decided from the headers so a huge upload is refused before it is read.

CORS headers go only to allowlisted origins.

Public mode (``[dropin] public = true`` in the user's config, off by default) is for a docs
site that embeds the drop-in: its readers hold no token. A request with no token is
then let through only to a verb its route lists in ``public_verbs`` (chat, search, source,
cite, a PDF page, a notebook cell, the drop-in's script — nothing that writes, lists or
deletes), and only with an allowlisted ``Origin`` (the drop-in's script, loaded by a
``<script>`` tag that sends none, is the one exception). Public chats have their own, lower
per-address limit. A wrong token is still a 401: public mode never turns a failed login
into a visitor.

The sliding-window limiter is ratelimit.py; client addresses and Host names are read by
addresses.py.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode

from tornado.web import RequestHandler, stream_request_body

from .addresses import WILDCARD_ADDRESSES, client_from_proxy, client_key, host_name, is_ip_address, is_loopback
from .errors import api_error
from .ratelimit import RateLimiter

TOKEN_FAILURES_PER_MINUTE = 10
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
JSON_MEDIA_TYPE = "application/json"
SOURCE_NAMES = {"header": "an Authorization header", "query": "?token=", "cookie": "the cookie"}


@dataclass
class Guard:
    """What the front door lets in; one per ``athena serve`` process."""

    token: str = ""
    cors_origins: list[str] = field(default_factory=list)
    # Host names accepted besides loopback and the bound address; "*" accepts any.
    allowed_hosts: list[str] = field(default_factory=list)
    bound_host: str = "127.0.0.1"
    limiter: RateLimiter = field(default_factory=lambda: RateLimiter(0))
    failures: RateLimiter = field(default_factory=lambda: RateLimiter(TOKEN_FAILURES_PER_MINUTE))
    max_body_bytes: int = 256 * 1024
    port: int = 0  # set once listening: names the cookie, so two servers keep theirs apart
    # [dropin] public: token-less requests from cors_origins may use the read-only routes.
    public: bool = False
    # Chats per minute per address for those token-less visitors (each may cost an LLM call).
    public_chats: RateLimiter = field(default_factory=lambda: RateLimiter(10))
    # server.behind_proxy: the client is the last X-Forwarded-For hop (client_from_proxy).
    behind_proxy: bool = False

    @property
    def cookie_name(self) -> str:
        return f"athena-token-{self.port}"

    def cookie_value(self) -> str:
        """A value derived from the token, so the cookie never holds the token itself."""
        return hmac.new(self.token.encode(), b"athena-serve-cookie", hashlib.sha256).hexdigest()

    def host_allowed(self, host_header: str) -> bool:
        """Loopback, the bound address, a name the user allowed — or, when bound to every
        address, any IP address: only a DNS name can be rebound, an address cannot."""
        name = host_name(host_header)
        allowed = {host_name(h) for h in self.allowed_hosts}
        if "*" in allowed or name in allowed or is_loopback(name):
            return True
        bound = host_name(self.bound_host)
        if bound in WILDCARD_ADDRESSES:
            return is_ip_address(name)
        return name == bound


@stream_request_body
class StandaloneHandler(RequestHandler):
    """Base of every route under ``athena serve``; reads the body itself to enforce the limit."""

    guard: Guard
    _closing = False
    # Verbs a token-less visitor may use in public mode (routes that only read set this).
    public_verbs: frozenset[str] = frozenset()
    # True for a route a <script> tag loads: browsers send no Origin with it.
    public_without_origin = False
    # True for a route whose answer is the same static code for everyone and holds no secret
    # (the drop-in's widget.js): served without a token, public mode or not, so a site that
    # embeds it sees the button and the widget can say why the API refuses it.
    no_token_needed = False
    # Set by admit(): this request came in without a token, under public mode.
    public_visitor = False

    def prepare(self) -> None:
        try:
            self.admit()
        except Exception:
            # Refused before the body was read: tornado then closes the connection after the
            # answer, so say so, or a keep-alive client sends its next request into a reset.
            self._closing = True
            raise

    def admit(self) -> None:
        """Every check of the front door, in order; raises the refusal."""
        self._mask_query_token()
        self.guard = self.settings["athena_guard"]
        if self.guard.behind_proxy:
            self.request.remote_ip, self.request.protocol = client_from_proxy(
                self.request.headers, self.request.remote_ip or "", self.request.protocol)
        self._check_host()
        self._check_origin()
        self._cors()
        if self.request.method == "OPTIONS":
            return
        self._check_token()
        wait = self.guard.limiter.retry_after(client_key(self.request.remote_ip))
        if wait:
            raise api_error(429, f"rate limit of {self.guard.limiter.per_minute} requests per minute "
                              f"exceeded; retry in {wait} s", {"Retry-After": str(wait)})
        self._check_content_type()
        declared = self.request.headers.get("Content-Length")
        if declared and declared.isdigit() and int(declared) > self.guard.max_body_bytes:
            self._refuse_body(int(declared))

    def _mask_query_token(self) -> None:
        """Tornado's access log writes the request's URI for every 4xx and 5xx answer, and its
        error log the request itself: neither may hold a ``?token=``. The parsed arguments
        (what the guard reads the token from) keep it; the URI and query string lose it."""
        request = self.request
        pairs = parse_qsl(request.query, keep_blank_values=True)
        if not any(name == "token" for name, _ in pairs):
            return
        request.query = urlencode([(name, "redacted" if name == "token" else value) for name, value in pairs])
        request.uri = f"{request.path}?{request.query}"

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
        self._closing = True
        raise api_error(413, f"request body of {size} bytes is over the limit of "
                          f"{self.guard.max_body_bytes} bytes")

    def _check_host(self) -> None:
        host = self.request.host
        if not self.guard.host_allowed(host):
            name = host_name(host)[:100]
            raise api_error(403, f"Host {name!r} is not allowed: athena serve answers loopback names only; "
                                 f"start it with --allow-host {name} if you reach it by that name")

    def _check_origin(self) -> None:
        origin = self.request.headers.get("Origin")
        if origin is None or origin in self.guard.cors_origins:
            return
        if origin == f"{self.request.protocol}://{self.request.host}":
            return  # same origin: a page this server served itself
        shown = origin[:100]
        raise api_error(403, f"Origin {shown!r} is not allowed; start athena serve with "
                             f"--cors-origin {shown} to let pages from it use this server")

    def _check_content_type(self) -> None:
        if self.request.method not in BODY_METHODS:
            return
        headers = self.request.headers
        declared = headers.get("Content-Length", "0")
        has_body = "Transfer-Encoding" in headers or not declared.isdigit() or int(declared) > 0
        content_type = headers.get("Content-Type")
        if content_type is None and not has_body:
            return  # a body-less POST or DELETE (reindex, delete a conversation)
        media = (content_type or "").partition(";")[0].strip().lower()
        if media != JSON_MEDIA_TYPE:
            raise api_error(415, f"Content-Type {media or 'missing'!r} is not accepted: send the body as "
                                 "JSON with 'Content-Type: application/json'")

    def _check_token(self) -> None:
        expected = self.guard.token
        if not expected:
            return
        given, source = self._presented_token()
        if not given and self.no_token_needed and self.request.method in ("GET", "HEAD"):
            return
        if not given and self._public_visit_allowed():
            self.public_visitor = True
            self._limit_public_chat()
            return
        if not given:
            raise api_error(401, "missing token: send 'Authorization: Bearer <token>' (the token is "
                                 "printed by athena serve when it starts)", {"WWW-Authenticate": 'Bearer realm="athena"'})
        address = client_key(self.request.remote_ip)
        # Failures are counted per address *and* per way the token came: someone else's
        # wrong guesses fill only their own kind's budget, so the owner's page (cookie) and
        # programs (header) are not locked out by, say, another local tool's query strings.
        bucket = f"{address} {source}"
        wait = self.guard.failures.blocked_for(bucket)
        if wait:
            raise api_error(429, f"too many wrong tokens from {address} sent as {SOURCE_NAMES[source]}; "
                                 f"retry in {wait} s", {"Retry-After": str(wait)})
        wanted = self.guard.cookie_value() if source == "cookie" else expected
        if not hmac.compare_digest(given.encode(), wanted.encode()):
            self.guard.failures.note(bucket)
            if source == "cookie":  # stale (the server restarted): drop it so it is not sent again
                self.clear_cookie(self.guard.cookie_name, path="/")
            raise api_error(401, "wrong token: send the token athena serve printed when it started, as "
                                 "'Authorization: Bearer <token>'", {"WWW-Authenticate": 'Bearer realm="athena"'})
        if source == "query":
            # Secure when the page came over TLS (behind a proxy: its X-Forwarded-Proto).
            self.set_cookie(self.guard.cookie_name, self.guard.cookie_value(), path="/",
                            httponly=True, samesite="Strict", secure=self.request.protocol == "https")

    def _public_visit_allowed(self) -> bool:
        """Public mode, a read-only verb, and a browser on an allowlisted origin (its Origin
        was checked by _check_origin; here it must also be present, so a page on this
        server's own origin or a script without one does not count as a docs site)."""
        if not self.guard.public or self.request.method not in self.public_verbs:
            return False
        origin = self.request.headers.get("Origin")
        return self.public_without_origin or (origin is not None and origin in self.guard.cors_origins)

    def _limit_public_chat(self) -> None:
        if self.request.method != "POST":
            return
        address = client_key(self.request.remote_ip)
        wait = self.guard.public_chats.retry_after(address)
        if wait:
            raise api_error(429, f"public chat limit of {self.guard.public_chats.per_minute} questions per minute "
                                 f"reached; retry in {wait} s", {"Retry-After": str(wait)})

    def _presented_token(self) -> tuple[str, str]:
        """(token, where it came from): the header, then ``?token=``, then the cookie."""
        scheme, _, value = self.request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() in ("bearer", "token") and value.strip():
            return value.strip(), "header"
        query = self.get_query_argument("token", "")
        if query and self._query_token_readable():
            return query, "query"
        return self.get_cookie(self.guard.cookie_name, "") or "", "cookie"

    def _query_token_readable(self) -> bool:
        """Whether a ``?token=`` counts as a login attempt. Any web page can make the
        browser load ``http://127.0.0.1:PORT/athena/info?token=guess`` with an ``<img>`` (no
        Origin, no preflight, no answer it can read): such a request's query token is not
        read at all, so it neither logs in nor counts as a failure. Read are: a request with
        an Origin (a CORS fetch, whose Origin was checked), a navigation the user started or
        one from this site (``Sec-Fetch-Site`` ``none``/``same-origin``/``same-site``; the
        printed URL opened from a terminal is ``none``), and programs, which send no
        ``Sec-Fetch-*`` headers."""
        headers = self.request.headers
        if "Origin" in headers:
            return True
        site = headers.get("Sec-Fetch-Site")
        if site is None:
            return True
        navigation = headers.get("Sec-Fetch-Mode") == "navigate" and headers.get("Sec-Fetch-Dest") == "document"
        return navigation and site in ("none", "same-origin", "same-site")

    def _cors(self) -> None:
        origin = self.request.headers.get("Origin")
        if origin and origin in self.guard.cors_origins:
            self.set_header("Access-Control-Allow-Origin", origin)
            self.set_header("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
            self.set_header("Access-Control-Allow-Headers", "Content-Type, Authorization")
            self.set_header("Access-Control-Max-Age", "600")
            self.set_header("Access-Control-Expose-Headers", "X-Athena-Scale")
        self.add_header("Vary", "Origin")

    def options(self, *args: Any) -> None:
        self.set_status(204)
        self.finish()

    def clear(self) -> None:
        # Error answers start from cleared headers; a browser still needs CORS on a 429.
        super().clear()
        if hasattr(self, "guard"):
            self._cors()
        if self._closing:
            self.set_header("Connection", "close")

    def finish(self, chunk: Any = None, set_content_type: str = "application/json") -> Any:
        # Same signature as jupyter_server's APIHandler.finish, so routes call it one way.
        self.set_header("Content-Type", set_content_type)
        return super().finish(chunk)
