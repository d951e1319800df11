"""/athena/health must not hand out credentials: a base_url with user:pass@ or ?key=, or a
provider/embedding server that echoes the key it was sent, in its error body.

A real `athena serve` talks to a real local server (the "attacker's" host here) that
answers every request with an error repeating the request's headers, Authorization first.
"""

from __future__ import annotations

import pytest

from http_servers import AthenaServer, clean_env, indexed_corpus

from .attacker import RecordingServer

pytestmark = pytest.mark.integration

LLM_KEY = "sk-live-abcdefghijklmnop1234"
EMBEDDING_KEY = "embedding-secret-key-123456"


@pytest.fixture
def echoing():
    with RecordingServer(status=401, echo=True, padding=5000) as server:
        yield server


def test_health_redacts_credentials_in_the_llm_base_url(tmp_path_factory):
    with RecordingServer() as llm_server:  # lists no models, so the probe reports the URL in its error
        host = llm_server.url.removeprefix("http://")
        env = clean_env(ATHENA_EMBEDDING__PROVIDER="none", ATHENA_LLM__PROVIDER="openai", ATHENA_LLM__MODEL="tiny",
                        ATHENA_LLM__BASE_URL=f"http://bob:hunter2-password@{host}/v1?key=query-secret-value",
                        ATHENA_LLM__API_KEY_ENV="MY_LLM_KEY", MY_LLM_KEY=LLM_KEY)
        with AthenaServer(indexed_corpus(tmp_path_factory), env=env) as server:
            r = server.client.get("/health", timeout=30)
    llm = r.json()["components"]["llm"]
    assert llm_server.requests, "the probe reached the configured server"
    assert llm["status"] == "down" and "not found" in llm["error"]
    assert llm["details"]["base_url"].startswith("http://***@127.0.0.1")
    for secret in ("hunter2-password", "query-secret-value", LLM_KEY):
        assert secret not in r.text


def test_health_redacts_and_bounds_an_embedding_server_error_that_echoes_the_key(tmp_path_factory, echoing):
    env = clean_env(ATHENA_EMBEDDING__PROVIDER="openai", ATHENA_EMBEDDING__MODEL="m",
                    ATHENA_EMBEDDING__BASE_URL=f"{echoing.url}/v1", ATHENA_EMBEDDING__API_KEY_ENV="MY_EMBEDDING_KEY",
                    MY_EMBEDDING_KEY=EMBEDDING_KEY)
    with AthenaServer(indexed_corpus(tmp_path_factory), env=env) as server:
        r = server.client.get("/health", timeout=30)
    embedder = r.json()["components"]["embedder"]
    assert echoing.carried(EMBEDDING_KEY), "the user's own embedding server did get the key"
    assert embedder["status"] == "down" and "401" in embedder["error"]
    assert EMBEDDING_KEY not in r.text
    assert len(embedder["error"]) <= 300
