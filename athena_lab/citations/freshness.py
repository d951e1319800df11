"""Where passages cited earlier are now: the same text at new lines, changed text, or gone.

An answer keeps its citations (in a conversation, in a notebook), while the live index
keeps changing under them. A citation carries its ``chunk_id`` and the ``text_hash`` of
the text it quoted; chunk ids hash the file, the heading path and the position under that
heading — not line numbers — so lines added above a passage leave its id alone. Looking
the id up again gives the passage's current lines (open it there), and comparing hashes
says whether its text changed since the answer ("source changed since this answer").
"""

from __future__ import annotations

from typing import Any

from athena_lab.index.catalog import Catalog, ChunkRow
from athena_lab.document import citation_kind
from athena_lab.contract import ChunkState
from athena_lab.errors import RequestError

MAX_IDS = 200  # one request checks at most this many chunks

CURRENT, MOVED, CHANGED, GONE = "current", "moved", "changed", "gone"


def chunk_states(catalog: Catalog, chunk_ids: list[str]) -> list[ChunkState]:
    """Each id's chunk as the index holds it now, in the order asked; ``found: false`` when
    the passage is no longer indexed (deleted, rewritten past recognition, file renamed).

    More than ``MAX_IDS`` ids is the caller's error (HTTP 400), checked here so every
    front end gets the same limit without importing it."""
    if len(chunk_ids) > MAX_IDS:
        raise RequestError(f"ids holds {len(chunk_ids)} chunk ids; the limit is {MAX_IDS}: "
                           "ask for the rest in another request")
    rows = catalog.chunks_by_id(list(dict.fromkeys(chunk_ids)))
    return [_state(cid, rows.get(cid)) for cid in chunk_ids]


def _state(chunk_id: str, row: ChunkRow | None) -> ChunkState:
    if row is None:
        return {"chunk_id": chunk_id, "found": False}
    loc = row.locator
    out: ChunkState = {"chunk_id": chunk_id, "found": True, "path": row.path,
                           "kind": citation_kind(row.doc_kind), "text_hash": row.text_hash,
                           "heading_path": row.heading, "start_line": row.start_line,
                           "end_line": row.end_line}
    if row.cell is not None:
        out["cell"] = loc.get("cell", row.cell)
    if out["kind"] == "pdf":
        out["page"] = loc.get("page", row.page)
        out["regions"] = loc.get("regions", [])
    return out


def where_now(citation: dict[str, Any], current: ChunkState) -> dict[str, Any]:
    """``citation`` updated to where its chunk is now, with ``freshness``: current (same text,
    same place), moved (same text, other lines), changed (its text changed since the answer)
    or gone. A citation without a chunk id or text hash (a raw line range) stays as it is."""
    if not citation.get("chunk_id") or not citation.get("text_hash"):
        return {**citation, "freshness": CURRENT}
    if not current.get("found"):
        return {**citation, "freshness": GONE}
    place: dict[str, object] = {k: current.get(k) for k in ("path", "start_line", "end_line", "cell", "page", "regions")
                                if k in current}
    if current["text_hash"] != citation["text_hash"]:
        state = CHANGED
    elif any(citation.get(k) != v for k, v in place.items() if k != "regions"):
        state = MOVED
    else:
        state = CURRENT
    return {**citation, **place, "freshness": state}
