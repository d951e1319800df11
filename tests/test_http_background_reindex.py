"""A reindex runs in the background: POST returns at once, the status endpoints report the
vectors' progress, searches and chats are answered meanwhile, and DELETE stops the run with
what it embedded saved — the next reindex embeds only the rest.

A real `athena serve` over a private copy of the repo's demo/ folder, the real MiniLM
embedder (for the run and for query vectors), vectors committed after every batch.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any, Callable

import httpx

import pytest

from corpus_files import REPO
from http_servers import AthenaServer, chat_body, clean_env

pytestmark = pytest.mark.integration

QUESTION = "How do I declare a path parameter with a type?"


def _poll(client: httpx.Client, path: str, until: Callable[[dict[str, Any]], bool],
          timeout: float = 600) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = client.get(path, timeout=30).json()
        if until(body):
            return body
        time.sleep(0.1)
    raise AssertionError(f"timed out polling {path}: {body}")


def test_background_reindex_reports_progress_answers_meanwhile_and_stops_cleanly(tmp_path: Path) -> None:
    root = Path(shutil.copytree(REPO / "demo", tmp_path / "demo", ignore=shutil.ignore_patterns(".athena")))
    env = clean_env(ATHENA_INDEX__VECTOR_CHECKPOINT_S="0")
    with AthenaServer(root, "--rate-limit", "0", env=env) as server:
        status = server.client.get("/status").json()
        assert status["vectors"] is None and status["run"] is None  # no index yet
        server.client.get("/health", timeout=120)  # loads the query embedder before the race starts

        started_at = time.monotonic()
        started = server.client.post("/reindex", timeout=30)
        assert started.status_code == 202 and time.monotonic() - started_at < 5  # returns at once
        job = started.json()["job"]
        assert job["state"] == "running" and job["pid"] and job["pid"] != server.pid

        # While the run embeds: a search is answered over the vectors committed so far and
        # says so, and /status and /reindex report the vectors' progress.
        status = _poll(server.client, "/status",
                       lambda s: (s["vectors"] or {}).get("state") == "embedding" and s["vectors"]["done"] > 0)
        search = server.client.get("/search", params={"q": QUESTION}, timeout=60)
        progress = server.client.get("/reindex").json()["job"]["progress"]
        # Stop it (DELETE): the run finishes its batch, saves what it embedded and ends "stopped".
        assert server.client.delete("/reindex").status_code == 202
        # The server keeps answering while the run stops: a chat, /info, /health.
        chat = server.client.post("/chat", json=chat_body(QUESTION, stream=False), timeout=120)
        info = server.client.get("/info").json()["index"]
        health = server.client.get("/health", timeout=60)

        vectors, total = status["vectors"], status["vectors"]["total"]
        assert total == 119 and 0 < vectors["done"] < total
        assert vectors["rate"] > 0 and vectors["eta_s"] > 0 and vectors["embedder"]
        assert status["run"]["pid"] == job["pid"] and status["run"]["phase"] in ("embed", "save")
        assert search.status_code == 200 and search.json()["hits"]
        degraded = search.json()["degraded"]
        assert degraded.startswith("hybrid over vectors ") and ", embedding" in degraded, degraded
        assert degraded.endswith("; the rest is lexical only")
        assert progress["phase"] in ("embed", "save") and progress["vectors"]["state"] == "embedding"
        assert progress["vectors"]["total"] == total and progress["message"].startswith("vectors ")
        assert chat.status_code == 200 and chat.json()["citations"]
        assert chat.json()["degraded"].startswith("hybrid over vectors ")
        assert info["vectors"]["total"] == total and info["vectors"]["state"] in ("embedding", "partial")
        assert health.status_code == 200
        assert health.json()["components"]["index"]["details"]["vectors"]["total"] == total

        job = _poll(server.client, "/reindex", lambda b: b["job"]["state"] != "running")["job"]
        status = server.client.get("/status").json()
        done = status["vectors"]["done"]
        if job["state"] == "stopped":
            assert job["summary"]["interrupted"] == "SIGTERM" and job["error"] is None
            assert status["vectors"]["state"] == "partial" and 0 < done < total and status["run"] is None
            assert job["summary"]["vectors_done"] == done
            index = server.client.get("/health", timeout=60).json()["components"]["index"]
            assert index["status"] == "up" and index["details"]["vectors"]["state"] == "partial"
        else:  # the stop landed during the last batch: the run had nothing left to stop
            assert job["state"] == "done" and done == total

        # A second reindex embeds only the rest, then everything is complete and healthy.
        assert server.client.post("/reindex").status_code == 202
        job = _poll(server.client, "/reindex", lambda b: b["job"]["state"] != "running")["job"]
        assert job["state"] == "done", job
        assert job["summary"]["embedded"] == total - done and job["summary"]["embedded_from_cache"] == 0
        assert job["progress"] | {"vectors": None} == {
            "phase": "done", "done": total, "total": total, "vectors": None, "rate": None, "eta_s": None,
            "message": f"vectors {total} / {total}"}
        status = server.client.get("/status").json()
        assert status["vectors"]["state"] == "complete" and status["run"] is None
        assert server.client.get("/search", params={"q": QUESTION}).json()["degraded"] is None
        assert server.client.get("/health", timeout=60).json()["status"] == "healthy"
