"""A server over a folder with no index: it answers, and POST /athena/reindex builds the index."""

from __future__ import annotations

import time

import pytest

from http_servers import AthenaServer, make_corpus

pytestmark = pytest.mark.integration


def test_reindex_job_builds_the_index_one_job_at_a_time(tmp_path):
    root = make_corpus(tmp_path / "fresh")
    with AthenaServer(root) as server:
        health = server.client.get("/health").json()
        assert health["status"] == "degraded" and health["components"]["index"]["status"] == "missing"
        assert server.client.get("/info").json()["index"]["files"] == 0
        assert server.client.get("/search", params={"q": "blueprint"}).status_code == 409
        assert server.client.get("/reindex").json()["job"]["state"] == "idle"

        started = server.client.post("/reindex")
        again = server.client.post("/reindex")
        assert started.status_code == 202 and started.json()["job"]["state"] == "running"
        assert again.status_code == 409
        assert again.json()["job"]["id"] == started.json()["job"]["id"]

        deadline = time.monotonic() + 120
        job = started.json()["job"]
        while job["state"] == "running" and time.monotonic() < deadline:
            time.sleep(0.2)
            job = server.client.get("/reindex").json()["job"]
        assert job["state"] == "done", job
        assert job["summary"]["new"] == 11 and job["progress"]["phase"] == "done"
        # The sidebar's "done" line: counts from the summary, time from the job.
        assert 0 < job["elapsed_s"] == round(job["finished_at"] - job["started_at"], 1)

        assert server.client.get("/info").json()["index"]["files"] == 11
        hits = server.client.get("/search", params={"q": "blueprint"}).json()["hits"]
        assert hits and hits[0]["path"]
        assert server.client.get("/health").json()["status"] == "healthy"
        assert server.client.post("/reindex").status_code == 202  # the slot is free again


def test_reindex_progress_measures_files_per_second_and_time_left_per_phase():
    from athena_lab.server.jobs import _Job, ReindexJobs

    job = _Job(id="j")
    first = {"phase": "parse", "done": 10, "total": 110}
    ReindexJobs._pace(job, first, now=100.0)
    assert "rate" not in first  # nothing measured yet
    later = {"phase": "parse", "done": 30, "total": 110}
    ReindexJobs._pace(job, later, now=102.0)
    assert later["rate"] == 10.0 and later["eta_s"] == 8.0 and later["unit"] == "files"
    lexical = {"phase": "lexical", "done": 0, "total": 500}
    ReindexJobs._pace(job, lexical, now=103.0)
    assert "rate" not in lexical  # a new phase starts its own measure
    embedding = {"phase": "embed", "done": 5, "total": 9, "rate": 31.0, "eta_s": 2.0}
    ReindexJobs._pace(job, embedding, now=104.0)
    assert embedding["rate"] == 31.0 and embedding["unit"] == "chunks"  # the run's own measure
