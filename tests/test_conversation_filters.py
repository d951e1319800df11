"""A question's filters and the cell or selection it was asked about are stored with it in
the catalog and read back with the conversation; catalogs from before (schema 2) upgrade in
place with their conversations kept."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from athena_lab.errors import AthenaError
from athena_lab.index.catalog import Catalog, SCHEMA_VERSION
from athena_lab.agent.conversations import ConversationStore
from athena_lab.workspace import Workspace

pytestmark = pytest.mark.unit

# The conversation tables as schema 2 (athena_lab before filters were kept) created them.
SCHEMA_2 = """
CREATE TABLE manifest (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE conversations (
  id TEXT PRIMARY KEY, title TEXT NOT NULL, created_at REAL NOT NULL, updated_at REAL NOT NULL
);
CREATE TABLE messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  role TEXT NOT NULL, content TEXT NOT NULL, citations TEXT, unsupported TEXT, mode TEXT,
  created_at REAL NOT NULL
);
CREATE INDEX messages_by_conversation ON messages(conversation_id, id);
INSERT INTO manifest VALUES ('schema_version', '2');
"""


@pytest.fixture()
def schema_2_catalog(tmp_path: Path) -> Path:
    """A catalog written by the previous athena_lab, holding one conversation of one turn."""
    path = tmp_path / "catalog.sqlite"
    db = sqlite3.connect(path)
    db.executescript(SCHEMA_2)
    now = time.time()
    db.execute("INSERT INTO conversations VALUES ('c1', 'How do I deploy?', ?, ?)", (now, now))
    db.execute("INSERT INTO messages(conversation_id, role, content, created_at) VALUES ('c1', 'user', ?, ?)",
               ("How do I deploy?", now))
    db.execute("INSERT INTO messages(conversation_id, role, content, citations, unsupported, mode, created_at) "
               "VALUES ('c1', 'assistant', 'With gunicorn [1].', '[{\"id\": 1, \"kind\": \"text\", \"path\": "
               "\"notes.md\"}]', '[]', 'extractive', ?)", (now,))
    db.commit()
    db.close()
    return path


def _filters_columns(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return sum(row[1] == "filters" for row in db.execute("PRAGMA table_info(messages)"))
    finally:
        db.close()


def test_a_schema_2_catalog_opens_with_its_conversations_and_their_questions_unfiltered(schema_2_catalog):
    catalog = Catalog(schema_2_catalog)
    assert catalog.get_manifest("schema_version") == SCHEMA_VERSION
    store = ConversationStore(catalog)
    conversation = store.get("c1")
    assert [(m["role"], m["content"]) for m in conversation["messages"]] == [
        ("user", "How do I deploy?"), ("assistant", "With gunicorn [1].")]
    assert conversation["messages"][1]["citations"][0]["path"] == "notes.md"
    assert all("filters" not in m and "context" not in m and "trace" not in m for m in conversation["messages"])
    assert [c["turns"] for c in store.list()] == [1]

    store.add_message("c1", "user", "And behind nginx?", filters={"kind": "markdown", "path_prefix": "ops/"})
    asked = store.get("c1")["messages"][-1]
    assert asked["filters"] == {"kind": "markdown", "path_prefix": "ops/"}


def test_the_filters_step_can_run_again_on_a_catalog_that_has_it(schema_2_catalog):
    store = ConversationStore(Catalog(schema_2_catalog))
    store.add_message("c1", "user", "Which folder?", filters={"path_prefix": "ops/"})
    db = sqlite3.connect(schema_2_catalog)  # as the version-1 upgrade test does: every step again
    db.execute("UPDATE manifest SET value='1' WHERE key='schema_version'")
    db.commit()
    db.close()
    again = ConversationStore(Catalog(schema_2_catalog))
    assert again.catalog.get_manifest("schema_version") == SCHEMA_VERSION and _filters_columns(schema_2_catalog) == 1
    assert [m.get("filters") for m in again.get("c1")["messages"]] == [None, None, {"path_prefix": "ops/"}]


def test_unset_filters_are_not_stored(tmp_path):
    store = ConversationStore(Catalog(tmp_path / "catalog.sqlite"))
    cid = store.create("q")
    store.add_message(cid, "user", "q", filters={"kind": None, "path_prefix": ""})
    store.add_message(cid, "user", "kind only", filters={"kind": "pdf", "path_prefix": None})
    assert [m.get("filters") for m in store.get(cid)["messages"]] == [None, {"kind": "pdf"}]


def test_a_question_asked_with_filters_reads_back_with_them_and_a_follow_up_without(tmp_path):
    (tmp_path / "ops").mkdir()
    (tmp_path / "ops" / "deploy.md").write_text("# Deploying\n\nWe deploy with gunicorn behind nginx.\n")
    (tmp_path / "notes.md").write_text("# Notes\n\nNothing about servers.\n")
    ws = Workspace(tmp_path, tmp_path / ".idx", overrides={"embedding.provider": "none"})
    try:
        ws.index()
        first = ws.ask("How do we deploy?", filters={"kind": "markdown", "path_prefix": "ops"})
        assert first.citations and all(c["path"].startswith("ops/") for c in first.citations)
        ws.ask("And where are the notes?", conversation_id=first.conversation_id)
        messages = ws.conversations.get(first.conversation_id)["messages"]
        assert [(m["role"], m.get("filters")) for m in messages] == [
            ("user", {"kind": "markdown", "path_prefix": "ops"}), ("assistant", None),
            ("user", None), ("assistant", None)]
    finally:
        ws.close()


def test_a_question_asked_about_a_cell_reads_back_with_the_cell_and_what_its_chip_said(tmp_path):
    (tmp_path / "pandas.md").write_text("# Grouping\n\nUse groupby and then agg to summarise each group.\n")
    cell = "df.groupby('city').agg({'sales': 'sum'})"
    ws = Workspace(tmp_path, tmp_path / ".idx", overrides={"embedding.provider": "none"})
    try:
        ws.index()
        first = ws.ask("What does this do?", context=cell, context_label="cell 3 of sales.ipynb")
        ws.ask("And without a label?", conversation_id=first.conversation_id, context=cell)
        ws.ask("A label alone is dropped", conversation_id=first.conversation_id, context_label="cell 4")
        ws.ask("A long notebook name", conversation_id=first.conversation_id, context=cell,
               context_label="cell 1 of " + "x" * 300)  # cut, not refused
        asked = [m.get("context") for m in ws.conversations.get(first.conversation_id)["messages"] if m["role"] == "user"]
        assert asked[:3] == [{"text": cell, "label": "cell 3 of sales.ipynb"}, {"text": cell}, None]
        assert len(asked[3]["label"]) == 200 and asked[3]["label"].startswith("cell 1 of xxx")
        with pytest.raises(AthenaError, match="context_label"):
            ws.ask("Not a name", context=cell, context_label=["cell", 3])
    finally:
        ws.close()
