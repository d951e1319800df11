"""/athena/health states with real components stopped: embedder, LLM, index."""

from __future__ import annotations

import shutil

import pytest

from http_servers import AthenaServer, clean_env, fast_env, free_port, indexed_corpus

pytestmark = pytest.mark.integration


def health(server: AthenaServer) -> tuple[int, dict]:
    r = server.client.get("/health", timeout=30)
    return r.status_code, r.json()


def test_health_is_degraded_when_the_embedder_cannot_load(tmp_path_factory, tmp_path):
    env = clean_env(ATHENA_EMBEDDING__PROVIDER="onnx", ATHENA_EMBEDDING__MODEL_DIR=str(tmp_path / "no-model"))
    with AthenaServer(indexed_corpus(tmp_path_factory), env=env) as server:
        status, body = health(server)
        search = server.client.get("/search", params={"q": "blueprint"})
    assert status == 200 and body["status"] == "degraded"
    embedder = body["components"]["embedder"]
    assert embedder["status"] == "down" and "no-model" in embedder["error"]
    assert body["components"]["index"]["status"] == "up"
    assert search.status_code == 200 and search.json()["hits"]  # search still works, lexically
    assert search.json()["degraded"]


def test_health_is_degraded_when_the_llm_is_down(tmp_path_factory):
    dead = free_port()  # nothing listens there
    env = fast_env(ATHENA_LLM__PROVIDER="openai", ATHENA_LLM__BASE_URL=f"http://127.0.0.1:{dead}/v1",
                   ATHENA_LLM__MODEL="tiny")
    with AthenaServer(indexed_corpus(tmp_path_factory), env=env) as server:
        status, body = health(server)
        info = server.client.get("/info").json()
    assert status == 200 and body["status"] == "degraded"
    llm = body["components"]["llm"]
    assert llm["status"] == "down" and str(dead) in llm["error"] and llm["latency_ms"] < 5000
    assert info["mode"] == "openai:tiny"


def test_health_is_healthy_with_the_real_minilm_embedder(tmp_path_factory):
    with AthenaServer(indexed_corpus(tmp_path_factory), env=clean_env()) as server:
        status, body = health(server)
    assert status == 200 and body["status"] == "healthy"
    embedder = body["components"]["embedder"]
    assert embedder["status"] == "up" and embedder["details"]["provider"] == "minilm"
    assert embedder["latency_ms"] > 0


def test_health_is_unhealthy_503_when_the_index_is_unreadable(tmp_path_factory, tmp_path):
    root = tmp_path / "broken"
    shutil.copytree(indexed_corpus(tmp_path_factory), root)
    (root / ".athena" / "catalog.sqlite").write_bytes(b"this is not a database" * 100)
    with AthenaServer(root) as server:
        status, body = health(server)
    assert status == 503 and body["status"] == "unhealthy"
    assert body["components"]["index"]["status"] == "down"
    assert "cannot open the index" in body["components"]["index"]["error"]
