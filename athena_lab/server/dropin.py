"""``GET /athena/widget.js``: the drop-in, the chat button a docs site embeds with one
``<script>`` tag (docs/chat-page.md, "Drop-in"; the URL keeps its old name for existing tags).

The script is built from ``labextension/src/dropin/`` into ``athena_lab/static/dropin/``
by ``npm run build:prod`` (not committed; the wheel ships it). It is the same file for
every visitor and holds no secret, so it is cacheable; other sites load it, so its
Cross-Origin-Resource-Policy is ``cross-origin``. It is served without a token, public
mode or not — a ``<script>`` tag sends neither a token nor an Origin, and a 401 left the
button silently missing; the API it calls stays behind the token unless public mode lets
the site's origin in, and the widget says so when it is refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import api_error
from .page import PageHandler

DROPIN_JS = Path(__file__).resolve().parents[1] / "static" / "dropin" / "widget.js"
NOT_BUILT = ("The drop-in is not built in this checkout: run `cd labextension && npm ci && "
             "npm run build:prod` (a wheel ships it built).")
# An hour: a new release reaches readers soon; one visitor does not refetch it per page.
CACHE = "public, max-age=3600"


class WidgetScript(PageHandler):
    public_verbs = frozenset({"GET"})
    public_without_origin = True
    # Static code, no secret: a site trying the widget without public mode gets the script,
    # whose requests the API then refuses (CORS, 401) and whose panel says how to allow them.
    no_token_needed = True

    def get(self) -> None:
        if not DROPIN_JS.is_file():
            raise api_error(503, NOT_BUILT)
        self.set_header("Cache-Control", CACHE)
        self.set_header("Cross-Origin-Resource-Policy", "cross-origin")
        self.finish(DROPIN_JS.read_bytes(), set_content_type="text/javascript; charset=utf-8")


def dropin_handlers(state: Any) -> list[tuple[Any, ...]]:
    """The drop-in's script route, for the standalone app only (beside page.page_handlers)."""
    return [(r"/athena/widget\.js", WidgetScript, {"state": state})]
