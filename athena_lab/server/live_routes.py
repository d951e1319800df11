"""Routes of the live index: ``GET /athena/chunks`` — where cited passages are now — and
``GET /athena/catalog`` — whether a path is an indexed source, and of which kind.

In a module of their own (app.py appends them to handlers.ROUTES) so the live index adds
routes without touching the shared route table.
"""

from __future__ import annotations

import re
from typing import Any

from tornado.web import authenticated

from .errors import api_error
from .handlers import AthenaRoute, require_index

CHUNK_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class ChunksRoute(AthenaRoute):
    """``?ids=a,b,c`` → ``{"chunks": [{"chunk_id", "found", "path", "text_hash", "start_line", …}]}``."""

    @authenticated
    async def get(self) -> None:
        raw = self.str_arg("ids", required=True) or ""
        ids = [part.strip() for part in raw.split(",") if part.strip()]
        bad = next((i for i in ids if not CHUNK_ID.match(i)), None)
        if bad is not None:
            raise api_error(400, f"{bad[:80]!r} is not a chunk id")
        self.send_json({"chunks": await self.blocking(self._states, ids)})

    def _states(self, ids: list[str]) -> list[dict[str, Any]]:
        require_index(self.ws, self.for_owner)
        return self.ws.chunk_states(ids)


class CatalogRoute(AthenaRoute):
    """``?path=P`` → ``{"path", "kind"}`` for an indexed source, else 404. A citation chip opens
    only such a path, as the kind given here: a chip is data, and one saved in someone
    else's notebook may say ``../private.txt`` or call a notebook a PDF (issue 31)."""

    @authenticated
    async def get(self) -> None:
        path = self.str_arg("path", required=True) or ""
        kind = await self.blocking(self._kind, path)
        if kind is None:
            raise api_error(404, f"{path[:200]} is not a source in the index")
        self.send_json({"path": path, "kind": kind})

    def _kind(self, path: str) -> str | None:
        require_index(self.ws, self.for_owner)
        return self.ws.source_kind(path)


LIVE_ROUTES: tuple[tuple[str, type[AthenaRoute]], ...] = (
    ("chunks", ChunksRoute),
    ("catalog", CatalogRoute),
)
