"""The live index follows a Zotero library: when Zotero writes its database (a title fixed,
an item tagged, an item moved to the trash), the records, filters and indexed files follow
within seconds, and nothing is re-parsed for an edit of a record."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from athena_lab.workspace import Workspace
from zotero_library import FEKETA, HASTIE, make_library

pytestmark = pytest.mark.slow

WINDOW_S = 30.0


def wait_for(check: Callable[[], Any], what: str) -> None:
    deadline = time.monotonic() + WINDOW_S
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    pytest.fail(f"{what}: not within {WINDOW_S} s")


def test_the_live_index_follows_edits_tags_and_the_trash_in_zotero(tmp_path: Path) -> None:
    root = make_library(tmp_path / "Zotero")
    ws = Workspace(root, tmp_path / "index", overrides={"embedding.provider": "none"})
    ws.index()
    batches: list[Any] = []
    live = ws.live_index(batches.append)
    try:
        with sqlite3.connect(root / "zotero.sqlite") as conn:  # Zotero saves an edit and a new tag
            conn.execute("UPDATE itemDataValues SET value = 'Almost ISS, as fixed in Zotero' WHERE value = "
                         "'Almost ISS property for feedback connected systems'")
            conn.execute("INSERT INTO tags(name) VALUES ('to read')")
            conn.execute("INSERT INTO itemTags(itemID, tagID, type) SELECT i.itemID, t.tagID, 0 FROM items i, tags t "
                         "WHERE i.key = '9PWIL7JY' AND t.name = 'to read'")

        def fixed() -> bool:
            return next(p for p in ws.papers() if p["id"] == FEKETA)["title"] == "Almost ISS, as fixed in Zotero"

        wait_for(fixed, "the new title")
        assert [p["id"] for p in ws.papers(tag="to read")] == [FEKETA]
        hit = ws.search_citations("multi-head attention", k=1, papers={"tag": "to read"})[0]
        assert hit["record"]["title"] == "Almost ISS, as fixed in Zotero"
        assert all(b.summary is None or b.summary["chunks_written"] == 0 for b in batches)

        with sqlite3.connect(root / "zotero.sqlite") as conn:  # the book goes to Zotero's trash
            conn.execute("INSERT INTO deletedItems(itemID) SELECT itemID FROM items WHERE key = 'A5A8PGIP'")
        # The library's rows and the index's files are written one after the other: wait for both.
        wait_for(lambda: HASTIE not in {p["id"] for p in ws.papers()}
                 and not any("Hastie" in f["path"] for f in ws.status()["files"]), "the trashed book leaving the index")
        assert not ws.search("language model", papers={"tag": "random forest"}).hits

        with sqlite3.connect(root / "zotero.sqlite") as conn:  # and is restored
            conn.execute("DELETE FROM deletedItems")
        wait_for(lambda: HASTIE in {p["id"] for p in ws.papers()}, "the restored book coming back")
    finally:
        live.stop()
        ws.close()
