"""The live index on a real folder with a real index: saves become searchable within the
window, bursts are one batch, citations follow their passage, re-saves cost nothing."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from corpus_files import copy_flask_subset
from athena_lab.index.store import IndexStore
from athena_lab.live_batch import Batch
from athena_lab.citations.freshness import where_now
from athena_lab.search.hybrid import citation
from athena_lab.workspace import Workspace

pytestmark = pytest.mark.slow

# Saves are promised searchable in about 2 s (300 ms quiet step, then a ~0.1-0.5 s run;
# 0.4 s median measured). The tests allow 4 s: on a 2-core machine shared with other
# jobs, one full run once missed a 3 s window (cause not caught; a failure now lists
# the batches the live index ran and what was pending).
WINDOW_S = 4.0
PAGES = ["quickstart.rst", "blueprints.rst", "testing.rst"]


LIVE: list[Any] = []  # the live index of the running test, for failure messages


def wait_for(check: Callable[[], Any], what: str, deadline_s: float = WINDOW_S) -> float:
    """Poll ``check`` until it is truthy; the seconds it took, or fail naming ``what`` (and
    what the live index did meanwhile)."""
    start = time.perf_counter()
    while not check():
        if time.perf_counter() - start > deadline_s:
            done = [(b.line(), b.paths[:5]) for b in LIVE[-1].batches] if LIVE else []
            pytest.fail(f"{what}: not within {deadline_s} s; batches {done}, "
                        f"pending {LIVE[-1].live.pending() if LIVE else []}")
        time.sleep(0.05)
    return time.perf_counter() - start


class Following:
    """A folder, its index, and the live index following it; batches are recorded."""

    def __init__(self, root: Path, **overrides: Any) -> None:
        self.root = root
        self.ws = Workspace(root, overrides={"embedding.provider": "none", **overrides})
        self.first = self.ws.index()
        self.batches: list[Batch] = []
        self.live = self.ws.live_index(self.batches.append)
        LIVE.append(self)

    def reported(self) -> list[Batch]:
        """The batches once the one being applied is done: a search can see a batch's
        files a moment before the batch itself is reported."""
        wait_for(lambda: not self.live.busy, "the running batch to be reported")
        return self.batches

    def paths_for(self, query: str) -> set[str]:
        return {h.chunk.path for h in self.ws.search(query).hits}

    def close(self) -> None:
        LIVE.remove(self)
        self.live.stop()
        self.ws.close()


@pytest.fixture
def following(tmp_path):
    live = Following(copy_flask_subset(tmp_path / "docs", PAGES))
    yield live
    live.close()


def test_an_edited_file_is_searchable_within_the_window(following):
    page = following.root / "quickstart.rst"
    assert not following.paths_for("zanzibarquokka")
    page.write_text(page.read_text() + "\n\nThe zanzibarquokka setting.\n")
    took = wait_for(lambda: following.paths_for("zanzibarquokka") == {"quickstart.rst"}, "edit")
    assert following.reported()[-1].summary["changed"] == 1, took


def test_an_added_file_is_searchable_within_the_window(following):
    (following.root / "guide").mkdir()
    (following.root / "guide" / "new.md").write_text("# New guide\n\nAll about marmalade turbines.\n")
    wait_for(lambda: following.paths_for("marmalade turbines") == {"guide/new.md"}, "added file")
    assert following.reported()[-1].summary["new"] == 1


def test_a_deleted_file_leaves_the_results_within_the_window(following):
    assert "blueprints.rst" in following.paths_for("blueprint")
    (following.root / "blueprints.rst").unlink()
    wait_for(lambda: "blueprints.rst" not in following.paths_for("blueprint"), "deleted file")
    assert following.reported()[-1].summary["removed"] == 1


def test_a_deleted_folder_leaves_the_results_within_the_window(following):
    folder = following.root / "more"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\npelican umbrellas\n")
    wait_for(lambda: following.paths_for("pelican umbrellas") == {"more/a.md"}, "added folder")
    shutil.rmtree(folder)
    wait_for(lambda: not following.paths_for("pelican umbrellas"), "deleted folder")


def test_a_renamed_file_is_found_under_its_new_name_within_the_window(following):
    (following.root / "testing.rst").rename(following.root / "testing-guide.rst")
    wait_for(lambda: "testing-guide.rst" in following.paths_for("test client"), "renamed file")
    assert "testing.rst" not in following.paths_for("test client")
    assert following.ws.status()["counts"]["files"] == len(PAGES)


def test_a_burst_of_500_file_writes_is_applied_as_one_batch(following):
    (following.root / "checkout").mkdir()
    for n in range(500):  # half in a folder created during the burst, as a checkout does
        folder = following.root / ("checkout" if n % 2 else "")
        (folder / f"page{n}.md").write_text(f"# Page {n}\n\nBurst page number {n} about quasars.\n")
    total = len(PAGES) + 500
    wait_for(lambda: following.ws.status()["counts"]["files"] == total, "500 files", deadline_s=15)
    # Not a fixed sleep: the watcher says when every event of the burst was seen and applied,
    # so a straggler batch, however late, is counted below.
    assert following.live.wait_settled(timeout=15), f"still busy: pending {following.live.pending()[:5]}"
    assert following.live.batches == 1, [b.line() for b in following.batches]
    assert following.batches[0].summary["new"] == 500


def test_the_watcher_ignores_what_discovery_ignores(following):
    root = following.root
    (root / ".gitignore").write_text("drafts/\n")
    wait_for(lambda: following.live.batches >= 1, ".gitignore batch")
    seen = len(following.reported())
    (root / "drafts").mkdir()
    (root / "drafts" / "secret.md").write_text("# Draft\n\nignoredwombat words\n")
    (root / "node_modules" / "pkg").mkdir(parents=True)
    (root / "node_modules" / "pkg" / "README.md").write_text("# Pkg\n\nignoredwombat words\n")
    (root / ".hidden.md").write_text("# Hidden\n\nignoredwombat words\n")
    (root / "image.png").write_bytes(b"\x89PNG")
    (root / ".athena" / "scratch.md").write_text("inside the index folder")
    (root / "kept.md").write_text("# Kept\n\nkept words\n")
    wait_for(lambda: following.paths_for("kept words") == {"kept.md"}, "the included file")
    assert [b.paths for b in following.reported()[seen:]] == [["kept.md"]]
    assert not following.paths_for("ignoredwombat")


def test_a_gitignore_edit_drops_the_files_it_now_ignores(following):
    assert "testing.rst" in following.paths_for("test client")
    (following.root / ".gitignore").write_text("testing.rst\n")
    wait_for(lambda: "testing.rst" not in following.paths_for("test client"), ".gitignore edit")


def test_a_batch_waits_for_another_writer_and_coalesces_the_saves_meanwhile(following):
    other = IndexStore(following.ws.index_dir)  # e.g. a manual reindex holding the lock
    with other.write_lock():
        for name, word in (("a.md", "kumquat"), ("b.md", "loquat")):
            (following.root / name).write_text(f"# {name}\n\n{word} words\n")
        # The watcher reports that it tried and found the index locked, with both saves in hand.
        wait_for(lambda: following.live.lock_waits >= 1 and {"a.md", "b.md"} <= set(following.live.pending()),
                 "a batch waiting for the lock with both saves")
        assert not following.paths_for("kumquat") and following.live.batches == 0
    other.close()
    wait_for(lambda: following.paths_for("loquat") == {"b.md"}, "saves after the lock")
    assert [b.summary["new"] for b in following.reported()] == [2]


def test_a_citation_to_a_moved_passage_opens_at_its_new_lines(following):
    page = following.root / "blueprints.rst"
    hit = next(h for h in following.ws.search("blueprint resource folder").hits if h.chunk.path == "blueprints.rst")
    cited = citation(hit, "blueprint resource folder")
    quoted = following.ws.read_source(cited["path"], cited["start_line"], cited["end_line"])["lines"]
    lines = page.read_text().splitlines()
    intro = lines.index(next(l for l in lines if l.startswith("Flask uses a concept")))
    lines[intro:intro] = ["An added paragraph near the top,", "four lines long,", "well before",
                          "the cited passage.", ""]
    page.write_text("\n".join(lines) + "\n")

    def moved() -> dict:
        return where_now(cited, following.ws.chunk_states([cited["chunk_id"]])[0])

    wait_for(lambda: moved()["freshness"] == "moved", "the chunk's new lines")
    now = moved()
    assert now["start_line"] == cited["start_line"] + 5 and now["end_line"] == cited["end_line"] + 5
    assert following.ws.read_source(now["path"], now["start_line"], now["end_line"])["lines"] == quoted


def test_a_citation_whose_passage_changed_or_vanished_says_so(following):
    page = following.root / "blueprints.rst"
    hit = next(h for h in following.ws.search("blueprint resource folder").hits if h.chunk.path == "blueprints.rst")
    cited = citation(hit, "blueprint resource folder")
    text = page.read_text()
    first_cited_line = text.splitlines()[cited["start_line"] - 1]
    page.write_text(text.replace(first_cited_line, first_cited_line + " Rewritten since.", 1))
    state = lambda: where_now(cited, following.ws.chunk_states([cited["chunk_id"]])[0])["freshness"]  # noqa: E731
    wait_for(lambda: state() == "changed", "changed passage")
    page.unlink()
    wait_for(lambda: state() == "gone", "deleted passage")


def test_the_notebook_athena_follows_edits_too(tmp_path):
    from athena_lab import Athena as NotebookAthena

    root = copy_flask_subset(tmp_path / "docs", PAGES[:1])
    athena = NotebookAthena(root, overrides={"embedding.provider": "none"})
    live = athena.live_index()
    try:
        (root / "notes.md").write_text("# Notes\n\nThe tapir schedule.\n")
        wait_for(lambda: [h.chunk.path for h in athena.search("tapir").hits] == ["notes.md"], "notebook follow")
    finally:
        live.stop()
        athena.close()


def test_run_index_with_paths_leaves_the_rest_of_the_index_alone(tmp_path):
    root = copy_flask_subset(tmp_path / "docs", PAGES)
    ws = Workspace(root, overrides={"embedding.provider": "none"})
    ws.index()
    (root / "testing.rst").unlink()
    (root / "quickstart.rst").write_text("# Quickstart\n\nrewritten\n")
    summary = ws.index(paths=["quickstart.rst"])
    assert (summary.changed, summary.removed) == (1, 0)
    assert "testing.rst" in {f["path"] for f in ws.status()["files"]}
    ws.close()


def _notebook(root: Path) -> None:
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# Analysis\n\nWe measure the walrus index."),
                nbformat.v4.new_code_cell("print('walrus')", execution_count=1,
                                          outputs=[nbformat.v4.new_output("stream", text="walrus\n")])]
    nbformat.write(nb, root / "analysis.ipynb")


def test_an_unchanged_notebook_resaved_by_jupyter_reindexes_nothing(tmp_path):
    from jupyter_server.services.contents.filemanager import FileContentsManager

    root = tmp_path / "nb"
    root.mkdir()
    _notebook(root)
    following = Following(root)
    try:
        contents = FileContentsManager(root_dir=str(root))  # how Lab's save reaches the disk
        model = contents.get("analysis.ipynb")
        model["content"]["cells"][1]["execution_count"] = 7  # what an autosave changes
        model["content"]["metadata"]["widgets"] = {"state": {}}
        updated_at = following.ws.status()["updated_at"]
        contents.save(model, "analysis.ipynb")
        wait_for(lambda: following.live.batches == 1, "the re-save's batch")
        summary = following.batches[0].summary
        assert (summary["changed"], summary["chunks_written"], summary["resaved"]) == (0, 0, 1)
        assert following.ws.status()["updated_at"] == updated_at

        model["content"]["cells"][0]["source"] = "# Analysis\n\nWe measure the narwhal index."
        contents.save(model, "analysis.ipynb")
        wait_for(lambda: following.live.batches == 2, "the edit's batch")
        assert following.batches[1].summary["changed"] == 1
        assert following.paths_for("narwhal") == {"analysis.ipynb"}
    finally:
        following.close()


def test_an_edit_re_embeds_only_the_chunks_whose_text_changed(tmp_path):
    root = copy_flask_subset(tmp_path / "docs", ["blueprints.rst"])
    following = Following(root, **{"embedding.provider": "minilm"})
    try:
        assert following.first.embedded > 5
        page = root / "blueprints.rst"
        text = page.read_text()
        page.write_text(text.replace("A blueprint in Flask is not a", "A blueprint in Flask is never a", 1))
        wait_for(lambda: following.live.batches == 1, "the edit's batch", deadline_s=10)
        summary = following.batches[0].summary
        assert (summary["changed"], summary["embedded"]) == (1, 1)
        assert following.ws.vector_state().state == "complete"
    finally:
        following.close()


def test_the_jupyter_setting_turns_the_live_index_on_by_default(monkeypatch):
    from traitlets.config import Config

    from athena_lab.server.extension import AthenaLab

    monkeypatch.delenv("ATHENA_WATCH", raising=False)
    monkeypatch.delenv("ATHENA_LIVE", raising=False)
    assert AthenaLab().live_index_on() is True
    assert AthenaLab(config=Config({"AthenaLab": {"live": False}})).live_index_on() is False
    monkeypatch.setenv("ATHENA_LIVE", "0")
    assert AthenaLab().live_index_on() is False
    # the old names are still read, with a warning
    monkeypatch.delenv("ATHENA_LIVE")
    with pytest.warns(DeprecationWarning, match="c.AthenaLab.watch is now c.AthenaLab.live"):
        assert AthenaLab(config=Config({"AthenaLab": {"watch": False}})).live_index_on() is False
    monkeypatch.setenv("ATHENA_WATCH", "0")
    with pytest.warns(DeprecationWarning, match="ATHENA_WATCH is now ATHENA_LIVE"):
        assert AthenaLab().live_index_on() is False


@pytest.fixture(autouse=True)
def _no_polling_env(monkeypatch):
    monkeypatch.delenv("WATCHFILES_FORCE_POLLING", raising=False)
    os.environ.pop("ATHENA_WATCH", None)


def test_a_folder_that_cannot_be_watched_is_one_clear_error(tmp_path):
    from athena_lab.settings import IndexSettings
    from athena_lab.ingest.discover import Rules
    from athena_lab.errors import WatchError
    from athena_lab.ingest.live import LiveIndex

    live = LiveIndex(Rules(tmp_path / "gone", IndexSettings()), lambda paths, stop: {})
    with pytest.raises(WatchError, match=r"^cannot watch .*gone: ") as caught:
        live.start()
    assert "\n" not in str(caught.value)


def test_a_reindex_asked_for_during_a_live_batch_queues_behind_its_lock():
    from athena_lab.errors import JobRunning
    from athena_lab.server.jobs import OWN_RUN_WAIT_S, ReindexJobs

    class Handle:  # stands in for the background process
        pid = 4242

        def wait(self):
            from athena_lab.ingest.background import Outcome
            return Outcome("done", {"new": 0}, None, 0)

    started: list[dict] = []
    run = {"pid": os.getpid(), "phase": "parse", "done": 0, "total": 1}  # this process: a live batch
    jobs = ReindexJobs(lambda **o: started.append(o) or Handle(), lambda: {"run": run, "vectors": None})
    assert jobs.start()["state"] in ("running", "done")
    assert started == [{"wait_s": OWN_RUN_WAIT_S}]
    run["pid"] = 1  # another process's run is still refused
    with pytest.raises(JobRunning):
        ReindexJobs(lambda **o: Handle(), lambda: {"run": run, "vectors": None}).start()


def test_asking_for_more_chunk_ids_than_the_limit_names_the_limit(tmp_path: Path) -> None:
    """The limit is the core's (citations/freshness.py): the HTTP route and any other front end
    answer the same 400 without importing it."""
    from athena_lab.index.catalog import Catalog
    from athena_lab.errors import RequestError
    from athena_lab.citations.freshness import chunk_states, MAX_IDS

    catalog = Catalog(tmp_path / "catalog.sqlite", create=True)
    try:
        assert chunk_states(catalog, ["a"] * MAX_IDS)[0]["found"] is False
        with pytest.raises(RequestError, match=f"ids holds {MAX_IDS + 1} chunk ids; the limit is {MAX_IDS}") as raised:
            chunk_states(catalog, ["a"] * (MAX_IDS + 1))
        assert raised.value.status == 400
    finally:
        catalog.close()
