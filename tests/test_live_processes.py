"""The live index as users start it: `athena index --watch` in a terminal, `athena serve
--watch`, and Jupyter's server extension — real processes on a real folder."""

from __future__ import annotations

import queue
import signal
import subprocess
import sys
import threading
import time

import httpx
import pytest

from corpus_files import copy_flask_subset
from http_servers import AthenaServer, JupyterServer, fast_env, run_cli

pytestmark = [pytest.mark.integration, pytest.mark.slow]

WINDOW_S = 4.0  # as in test_live_index.py: "about 2 s", with room for a loaded machine
PAGES = ["quickstart.rst", "blueprints.rst", "testing.rst"]


def poll(check, what: str, deadline_s: float = WINDOW_S):
    start = time.perf_counter()
    while True:
        value = check()
        if value:
            return value
        if time.perf_counter() - start > deadline_s:
            pytest.fail(f"{what}: not within {deadline_s} s")
        time.sleep(0.1)


def lines_of(stream) -> queue.Queue:
    out: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [out.put(line) for line in stream], daemon=True).start()
    return out


def next_line(lines: queue.Queue, timeout: float) -> str:
    try:
        return lines.get(timeout=timeout)
    except queue.Empty:
        pytest.fail(f"no output line within {timeout} s")


def test_athena_index_watch_prints_each_batch_and_exits_cleanly_on_sigint(tmp_path):
    root = copy_flask_subset(tmp_path / "docs", PAGES)
    env = fast_env()
    proc = subprocess.Popen([sys.executable, "-m", "athena_lab.cli", "index", str(root), "--watch"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out = lines_of(proc.stdout)
        while "watching" not in (line := next_line(out, 60)):
            pass
        assert str(root) in line
        page = root / "quickstart.rst"
        page.write_text(page.read_text() + "\n\nThe okapi lantern option.\n")
        (root / "testing.rst").unlink()
        batch = next_line(out, 10)
        assert batch.startswith("updated 2 files (1 changed, 1 deleted) in ") and batch.endswith(" s\n")
        hits = run_cli("search", "okapi lantern", "--path", str(root), "--json", env=env).stdout
        assert "quickstart.rst" in hits
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 0
        err = proc.stderr.read()
        assert "Traceback" not in err and "stopped watching after 1 batch" in err
    finally:
        if proc.poll() is None:
            proc.kill()


def test_athena_serve_watch_follows_edits_and_reports_updated_at(tmp_path):
    root = copy_flask_subset(tmp_path / "docs", PAGES)
    env = fast_env()
    run_cli("index", str(root), env=env)
    with AthenaServer(root, "--watch", "--rate-limit", "0", env=env) as server:
        info = poll(lambda: (i := server.client.get("/info").json())["live"]["watching"] and i,
                    "the watch in place", 20)
        before = info["index"]["updated_at"]
        hit = next(h for h in server.client.get("/search", params={"q": "blueprint resource folder"}).json()["hits"]
                   if h["path"] == "blueprints.rst")
        assert hit["text_hash"]
        page = root / "blueprints.rst"
        lines = page.read_text().splitlines()
        at = lines.index(next(l for l in lines if l.startswith("Flask uses a concept")))
        lines[at:at] = ["Two added lines", "well above the cited passage.", ""]
        page.write_text("\n".join(lines) + "\n")

        def current() -> dict:
            return server.client.get("/chunks", params={"ids": f"{hit['chunk_id']},0000000000000000"}).json()["chunks"]

        now, missing = poll(lambda: (c := current())[0]["start_line"] == hit["start_line"] + 3 and c, "moved lines")
        assert now["text_hash"] == hit["text_hash"] and missing == {"chunk_id": "0000000000000000", "found": False}
        # The chunk's new lines are readable a moment before the batch is reported.
        info = poll(lambda: (i := server.client.get("/info").json())["live"]["batches"] == 1 and i,
                    "the batch reported")
        assert info["index"]["updated_at"] > before
        assert info["live"]["last"]["line"].startswith("updated 1 file (1 changed)")
        assert server.client.get("/status").json()["updated_at"] == info["index"]["updated_at"]
        assert server.client.get("/chunks", params={"ids": "no spaces"}).status_code == 400


def test_a_big_batch_under_a_server_is_indexed_by_a_background_process(tmp_path):
    root = copy_flask_subset(tmp_path / "docs", PAGES)
    env = fast_env()
    run_cli("index", str(root), env=env)
    with AthenaServer(root, "--watch", "--rate-limit", "0", env=env) as server:
        poll(lambda: server.client.get("/info").json()["live"]["watching"], "the watch in place", 20)
        for n in range(60):  # over the in-process limit of 50 paths
            (root / f"note{n}.md").write_text(f"# Note {n}\n\nsaxophone note {n}\n")
        job = poll(lambda: (j := server.client.get("/reindex").json()["job"])["state"] == "done" and j,
                   "the background job", 60)
        assert job["pid"] != server.pid and job["summary"]["new"] == 60
        assert server.client.get("/info").json()["index"]["files"] == len(PAGES) + 60


def test_jupyter_follows_edits_by_default(tmp_path):
    root = copy_flask_subset(tmp_path / "docs", PAGES)
    env = fast_env(ATHENA_WORKSPACE__ROOT=str(root))
    run_cli("index", str(root), env=env)
    token = "live-test-token"
    with JupyterServer(root, token, env) as jupyter:
        api = f"{jupyter.url}/athena"
        headers = {"Authorization": f"token {token}"}
        poll(lambda: httpx.get(f"{api}/info", headers=headers).json()["live"]["watching"], "the watch", 20)
        (root / "new.md").write_text("# New\n\nThe capybara protocol.\n")
        hits = poll(lambda: httpx.get(f"{api}/search", params={"q": "capybara"}, headers=headers).json()["hits"],
                    "the saved file in search")
        assert hits[0]["path"] == "new.md"
