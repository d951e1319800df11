"""Conversations kept in the index's SQLite catalog, beside the chunks they cite.

The tables are part of the catalog's versioned schema (``catalog.MIGRATIONS``), so an
index from an older athena_lab is upgraded in place with its history kept.

The user's message is written before the model runs and the answer after it completes,
so a crash or a dead provider mid-answer never loses what the user asked.
"""

from __future__ import annotations

import json
import time
import uuid
from datetime import datetime, timezone
from typing import Any

TITLE_CHARS = 80


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class ConversationStore:
    """create / add_message / list / get / rewind / delete, shaped as docs/http-api.md shows them."""

    def __init__(self, catalog: Any) -> None:
        self.catalog = catalog

    @property
    def _conn(self) -> Any:
        return self.catalog.conn

    def create(self, title: str) -> str:
        cid = uuid.uuid4().hex
        now = time.time()
        self._conn.execute("INSERT INTO conversations(id, title, created_at, updated_at) VALUES (?,?,?,?)",
                           (cid, self._unique_title(title), now, now))
        return cid

    def _unique_title(self, question: str) -> str:
        """The first question on one line, cut to TITLE_CHARS; "… (2)", "… (3)" when another
        conversation already has that title, so the history tells them apart."""
        title = " ".join(question.split()) or "untitled"
        if len(title) > TITLE_CHARS:
            title = title[: TITLE_CHARS - 1].rstrip() + "…"
        taken = {r["title"] for r in self._conn.execute(
            "SELECT title FROM conversations WHERE title=? OR title LIKE ? ESCAPE '\\'",
            (title, title.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + " (%)"))}
        n = 1
        unique = title
        while unique in taken:
            n += 1
            unique = f"{title} ({n})"
        return unique

    def exists(self, cid: str) -> bool:
        return self._conn.execute("SELECT 1 FROM conversations WHERE id=?", (cid,)).fetchone() is not None

    def add_message(self, cid: str, role: str, content: str, citations: list[dict[str, Any]] | None = None,
                    unsupported: list[str] | None = None, mode: str | None = None,
                    filters: dict[str, Any] | None = None, context: str | None = None,
                    context_label: str | None = None, trace: list[dict[str, Any]] | None = None,
                    sources: str | None = None, not_found: list[dict[str, str]] | None = None) -> None:
        """``filters``: what a question was asked with ({kind, path_prefix}); the set ones are
        kept, none is NULL, so the question reads back with them and can be asked again so.
        ``context``: the cell or selection it was asked about, kept with its label alike.
        ``trace``: an answer's trace events, so the chat shows its steps again after a reload.
        ``sources``: the quotes shown beside a model's answer (the ``sources`` event's text),
        so a reload shows them again; None for an extractive answer, which is its quotes.
        ``not_found``: the names a model's answer used that the folder lacks, and where
        (``done.not_found``), so a reloaded answer marks them again."""
        if not self.exists(cid):
            raise KeyError(f"unknown conversation {cid!r}")
        kept = {key: value for key, value in (filters or {}).items() if value}
        about = {"text": context, **({"label": context_label} if context_label else {})} if context else None
        now = time.time()
        with self.catalog.transaction():
            self._conn.execute(
                "INSERT INTO messages(conversation_id, role, content, citations, unsupported, mode, filters, "
                "context, trace, sources, not_found, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (cid, role, content, json.dumps(citations) if citations is not None else None,
                 json.dumps(unsupported) if unsupported is not None else None, mode,
                 json.dumps(kept, sort_keys=True) if kept else None,
                 json.dumps(about, sort_keys=True) if about else None,
                 json.dumps(trace) if trace else None, sources or None,
                 json.dumps(not_found) if not_found else None, now))
            self._conn.execute("UPDATE conversations SET updated_at=? WHERE id=?", (now, cid))
            if role == "user" and self._conn.execute("SELECT title FROM conversations WHERE id=?",
                                                     (cid,)).fetchone()["title"] == "":
                # The first question was rewound: the one asked in its place names it.
                self._conn.execute("UPDATE conversations SET title=? WHERE id=?", (self._unique_title(content), cid))

    def list(self, limit: int = 20) -> list[dict[str, Any]]:
        rows = self._conn.execute(
            "SELECT c.id, c.title, c.created_at, c.updated_at, "
            "(SELECT COUNT(*) FROM messages m WHERE m.conversation_id=c.id AND m.role='user') AS turns "
            "FROM conversations c ORDER BY c.updated_at DESC, c.rowid DESC LIMIT ?", (max(0, int(limit)),))
        return [{"id": r["id"], "title": r["title"], "created_at": _iso(r["created_at"]),
                 "updated_at": _iso(r["updated_at"]), "turns": r["turns"]} for r in rows]

    def get(self, cid: str) -> dict[str, Any] | None:
        head = self._conn.execute("SELECT id, title, created_at, updated_at FROM conversations WHERE id=?",
                                  (cid,)).fetchone()
        if head is None:
            return None
        messages = []
        for r in self._conn.execute("SELECT role, content, citations, unsupported, mode, filters, context, trace, sources, not_found, "
                                    "created_at "
                                    "FROM messages WHERE conversation_id=? ORDER BY id", (cid,)):
            message: dict[str, Any] = {"role": r["role"], "content": r["content"],
                                       "created_at": _iso(r["created_at"])}
            if r["citations"] is not None:
                message["citations"] = json.loads(r["citations"])
            if r["unsupported"] is not None:
                message["unsupported"] = json.loads(r["unsupported"])
            if r["mode"] is not None:
                message["mode"] = r["mode"]
            if r["filters"] is not None:
                message["filters"] = json.loads(r["filters"])
            if r["context"] is not None:
                message["context"] = json.loads(r["context"])
            if r["trace"] is not None:
                message["trace"] = json.loads(r["trace"])
            if r["sources"] is not None:
                message["sources"] = r["sources"]
            if r["not_found"] is not None:
                message["not_found"] = json.loads(r["not_found"])
            messages.append(message)
        return {"id": head["id"], "title": head["title"], "created_at": _iso(head["created_at"]),
                "updated_at": _iso(head["updated_at"]), "messages": messages}

    def rewind(self, cid: str, turn: int) -> int | None:
        """Drop question ``turn`` (0-based) and every message after it, so the question can be
        asked again — edited, or as it was to regenerate its answer. Rewinding the first
        question clears the title: the question asked next names the conversation. Returns
        how many messages were dropped, or None when there is no such conversation or turn."""
        rows = self._conn.execute("SELECT id FROM messages WHERE conversation_id=? AND role='user' ORDER BY id",
                                  (cid,)).fetchall()
        if turn < 0 or turn >= len(rows):
            return None
        with self.catalog.transaction():
            dropped = self._conn.execute("DELETE FROM messages WHERE conversation_id=? AND id>=?",
                                         (cid, rows[turn]["id"])).rowcount
            self._conn.execute("UPDATE conversations SET updated_at=?, title=CASE WHEN ? THEN '' ELSE title END "
                               "WHERE id=?", (time.time(), turn == 0, cid))
        return dropped

    def delete(self, cid: str) -> bool:
        with self.catalog.transaction():
            self._conn.execute("DELETE FROM messages WHERE conversation_id=?", (cid,))
            gone = self._conn.execute("DELETE FROM conversations WHERE id=?", (cid,)).rowcount
        return gone > 0
