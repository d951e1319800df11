"""Finding 7: deleting (or rebuilding) the index folder while ``athena serve`` runs.

Before the fix the server kept reading the deleted catalog through its open connections
(``/status`` described an index that no longer existed, and after a rebuild still showed
the old one), and a thread opening its first connection created an empty file ("no such
table: manifest"). Against a real server process: while the index is gone every route
says so (status: not indexed, search: 409 naming the fix) without recreating files; a
reindex or a terminal ``athena index`` brings the new index in without a restart.
"""

from __future__ import annotations

import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from http_servers import AthenaServer, fast_env, index_folder, run_cli, served

pytestmark = pytest.mark.integration

TOKEN = "index-removed-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "notes"
    root.mkdir()
    (root / "animals.md").write_text("# Animals\n\nThe quokka lives on Rottnest Island.\n", encoding="utf-8")
    (root / "plants.md").write_text("# Plants\n\nThe banksia flowers in winter.\n", encoding="utf-8")
    return index_folder(root)


@pytest.fixture
def server(folder: Path):
    yield from served(folder, TOKEN)


def _get(server: AthenaServer, route: str, **params: object) -> httpx.Response:
    return httpx.get(f"{server.url}/{route}", params=params, headers=AUTH, timeout=60)


def _burst(server: AthenaServer, route: str, n: int = 16, **params: object) -> list[httpx.Response]:
    """``n`` parallel requests: they land on several of the server's worker threads,
    including ones that never opened the catalog before."""
    with ThreadPoolExecutor(max_workers=n) as pool:
        return list(pool.map(lambda _: _get(server, route, **params), range(n)))


def _hit_paths(server: AthenaServer, query: str) -> list[str]:
    r = _get(server, "search", q=query)
    assert r.status_code == 200, r.text
    return [h["path"] for h in r.json()["hits"]]


def _rewrite(folder: Path) -> None:
    shutil.rmtree(folder / ".athena")
    (folder / "animals.md").write_text("# Animals\n\nThe wombat digs burrows.\n", encoding="utf-8")


def _wait_for_job(server: AthenaServer) -> dict:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job = httpx.get(f"{server.url}/reindex", headers=AUTH, timeout=30).json()["job"]
        if job["state"] != "running":
            return job
        time.sleep(0.2)
    raise AssertionError("the reindex job did not finish within 120 s")


def test_after_the_index_folder_is_deleted_every_route_says_not_indexed(folder, server):
    assert _hit_paths(server, "quokka") == ["animals.md"]
    shutil.rmtree(folder / ".athena")
    for status in _burst(server, "status"):
        assert status.status_code == 200
        assert status.json()["files"] == [] and status.json()["last_indexed"] is None, status.text
    for search in _burst(server, "search", q="quokka"):
        assert search.status_code == 409, search.text
        assert "no index" in search.json()["error"]["message"] and "reindex" in search.json()["error"]["message"]
    health = _get(server, "health").json()
    assert health["components"]["index"]["status"] == "missing"
    assert not (folder / ".athena" / "catalog.sqlite").exists(), "a read must not create an empty catalog"


def test_a_reindex_after_deletion_rebuilds_and_is_served_without_restart(folder, server):
    before = _get(server, "status").json()["last_indexed"]
    _rewrite(folder)
    started = httpx.post(f"{server.url}/reindex", json={}, headers=AUTH, timeout=30)
    assert started.status_code == 202, started.text
    during = _burst(server, "status", n=8) + _burst(server, "search", n=8, q="wombat")
    assert all(r.status_code in (200, 409) for r in during), [r.text for r in during if r.status_code >= 500]
    job = _wait_for_job(server)
    assert job["state"] == "done" and job["error"] is None, job
    for status in _burst(server, "status"):
        body = status.json()
        assert body["last_indexed"] > before and {f["path"] for f in body["files"]} == {"animals.md", "plants.md"}
    assert _hit_paths(server, "wombat") == ["animals.md"]
    assert _hit_paths(server, "quokka") == []


def test_an_index_rebuilt_from_a_terminal_replaces_the_one_the_server_holds(folder, server):
    assert _hit_paths(server, "quokka") == ["animals.md"]
    before = _get(server, "status").json()["last_indexed"]
    _rewrite(folder)
    run_cli("index", str(folder), env=fast_env())
    for status in _burst(server, "status"):
        assert status.status_code == 200 and status.json()["last_indexed"] > before, status.text
    assert _hit_paths(server, "wombat") == ["animals.md"]
    assert _hit_paths(server, "quokka") == []
    reindex = httpx.post(f"{server.url}/reindex", json={}, headers=AUTH, timeout=30)
    assert reindex.status_code == 202 and _wait_for_job(server)["state"] == "done"
