"""The chat page `athena serve` answers at ``/`` (docs/chat-page.md), its two assets, and
``GET /athena/cell`` (a notebook citation shown as its cells).

The page is static: ``athena_lab/static/page/index.html`` and ``page.css`` are sources,
``page.js`` is built from ``labextension/src/page/`` by ``npm run build:prod`` (not
committed; the wheel ships it). Everything goes through the same front door as the API
(middleware.StandaloneHandler): opened from the printed ``/?token=…`` URL, the guard sets
its HttpOnly cookie and the page redirects to ``/`` so the token leaves the address bar
and the history; the page's fetches are then same-origin and carry the cookie.

The HTML is sent with a strict Content-Security-Policy: scripts and styles from this
server only (no inline code), images from here or ``blob:``, requests to here only, no
frames. Answer and document text is untrusted; the CSP is the second line behind the
page's own escaping and sanitizer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tornado.web import authenticated

from .errors import api_error
from .handlers import AthenaRoute
from .middleware import StandaloneHandler

PAGE_DIR = Path(__file__).resolve().parents[1] / "static" / "page"
ASSETS = {"page.js": "text/javascript; charset=utf-8", "page.css": "text/css; charset=utf-8"}
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
NOT_BUILT = ("The chat page is not built in this checkout: run `cd labextension && npm ci && "
             "npm run build:prod` (a wheel ships it built).")
MAX_CELLS = 20


class PageHandler(StandaloneHandler):
    """The guard's checks, then a static file; refusals are short text, not JSON.

    Public because the drop-in's script route (dropin.py) builds on it too."""

    def initialize(self, state: Any = None) -> None:  # routes share the API's kwargs
        self.state = state

    def set_default_headers(self) -> None:
        self.set_header("Content-Security-Policy", CSP)
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("X-Frame-Options", "DENY")

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        exc = kwargs.get("exc_info", (None, None, None))[1]
        message = getattr(exc, "log_message", None) or self._reason
        for name, value in getattr(exc, "athena_headers", {}).items():
            self.set_header(name, value)
        if status_code == 401:
            message += ("\n\nOpen the page from the URL athena serve printed when it started "
                        "(it ends in ?token=…).")
        self.finish(f"athena: {message}\n", set_content_type="text/plain; charset=utf-8")

    def send_file(self, name: str, content_type: str) -> None:
        path = PAGE_DIR / name
        if not path.is_file():
            raise api_error(503, NOT_BUILT)
        self.set_header("Cache-Control", "no-cache")
        self.finish(path.read_bytes(), set_content_type=content_type)


class ChatPage(PageHandler):
    def get(self) -> None:
        if self.get_query_argument("token", ""):
            # The guard accepted the token and set its cookie: drop the token from the URL.
            self.redirect(self.request.path)
            return
        if not (PAGE_DIR / "page.js").is_file():
            raise api_error(503, NOT_BUILT)
        self.send_file("index.html", "text/html; charset=utf-8")


class PageAsset(PageHandler):
    def get(self, name: str) -> None:
        self.send_file(name, ASSETS[name])


class CellRoute(AthenaRoute):
    """``?path=nb.ipynb&cell=3&end_cell=4`` (0-based, as citations carry them) →
    ``{"path", "cells": [{"index", "cell_type", "source"}]}``: what a notebook citation cites."""

    public_verbs = frozenset({"GET"})  # read-only: the widget's viewer may show it (middleware.py)

    @authenticated
    async def get(self) -> None:
        path = self.str_arg("path", required=True) or ""
        first = self.int_arg("cell", 0, 0, 100_000) or 0
        last = self.int_arg("end_cell", first, first, first + MAX_CELLS - 1)
        self.send_json(await self.blocking(self._cells, path, first, last))

    def _cells(self, path: str, first: int, last: int) -> dict[str, Any]:
        import nbformat

        full = self.reads.source_path(path)
        if full.suffix.lower() != ".ipynb":
            raise api_error(400, f"{path} is not a notebook")
        notebook = nbformat.read(str(full), as_version=nbformat.NO_CONVERT)
        cells = notebook.get("cells", [])
        if first >= len(cells):
            raise api_error(404, f"{path} has no cell {first + 1} (it has {len(cells)})")
        return {"path": path, "cells": [
            {"index": i, "cell_type": cells[i].get("cell_type", "code"), "source": _text(cells[i].get("source", ""))}
            for i in range(first, min(last, len(cells) - 1) + 1)]}


def _text(source: Any) -> str:
    return "".join(source) if isinstance(source, list) else str(source)


PAGE_ROUTES: tuple[tuple[str, type[AthenaRoute]], ...] = (("cell", CellRoute),)


def page_handlers(state: Any) -> list[tuple[Any, ...]]:
    """The page and its assets, for the standalone app only (Jupyter has Lab)."""
    return [(r"/", ChatPage, {"state": state}),
            (r"/page/(page\.js|page\.css)", PageAsset, {"state": state})]
