"""`athena serve`'s front door: token, rate limit with Retry-After, body limit, CORS allowlist.

The attacks (foreign Origin, rebinding Host, form bodies, token guessing) are in
tests/security/test_front_door.py."""

from __future__ import annotations

import socket
import subprocess

import httpx
import pytest

from http_servers import AthenaServer, chat_body, fast_env, indexed_corpus, run_cli

pytestmark = pytest.mark.integration

TOKEN = "s3cret-token"
ALLOWED = "http://allowed.example"


@pytest.fixture(scope="module")
def guarded(tmp_path_factory):
    env = fast_env(ATHENA_SERVER__MAX_BODY_KB="8")
    with AthenaServer(indexed_corpus(tmp_path_factory), "--token", TOKEN, "--cors-origin", ALLOWED,
                      "--rate-limit", "0", env=env) as server:
        yield server


def auth(token: str = TOKEN) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


JSON = {"Content-Type": "application/json"}


def test_requests_without_the_token_are_401(guarded):
    for headers in ({}, auth("wrong")):
        r = httpx.get(f"{guarded.url}/health", headers=headers)
        assert r.status_code == 401
        assert r.headers["www-authenticate"].startswith("Bearer")
        assert "token" in r.json()["error"]["message"]
    assert httpx.post(f"{guarded.url}/chat", json=chat_body("x")).status_code == 401
    assert httpx.get(f"{guarded.url}/health", headers=auth()).status_code == 200


def test_a_body_over_the_limit_is_413_before_it_is_read(guarded):
    r = httpx.post(f"{guarded.url}/chat", headers={**auth(), **JSON}, content=b"x" * 64 * 1024)
    assert r.status_code == 413
    assert "limit" in r.json()["error"]["message"]


def test_a_chunked_body_over_the_limit_is_413(guarded):
    def chunks():
        for _ in range(32):
            yield b"y" * 1024
    r = httpx.post(f"{guarded.url}/chat", headers={**auth(), **JSON}, content=chunks())
    assert r.status_code == 413


def test_cors_headers_go_only_to_allowlisted_origins(guarded):
    ok = httpx.get(f"{guarded.url}/info", headers={**auth(), "Origin": ALLOWED})
    assert ok.headers["access-control-allow-origin"] == ALLOWED
    other = httpx.get(f"{guarded.url}/info", headers={**auth(), "Origin": "http://evil.example"})
    assert other.status_code == 403 and "access-control-allow-origin" not in other.headers
    preflight = httpx.options(f"{guarded.url}/chat", headers={
        "Origin": ALLOWED, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type"})
    assert preflight.status_code == 204
    assert "Authorization" in preflight.headers["access-control-allow-headers"]
    denied = httpx.get(f"{guarded.url}/info", headers={"Origin": ALLOWED})
    assert denied.status_code == 401 and denied.headers["access-control-allow-origin"] == ALLOWED


def test_rate_limit_answers_429_with_retry_after(tmp_path_factory):
    with AthenaServer(indexed_corpus(tmp_path_factory), "--rate-limit", "5") as server:
        codes = [server.client.get("/info").status_code for _ in range(5)]
        limited = server.client.get("/info")
    assert codes == [200] * 5
    assert limited.status_code == 429
    assert 1 <= int(limited.headers["retry-after"]) <= 60
    assert "rate limit" in limited.json()["error"]["message"]


def test_serving_beyond_loopback_without_a_token_is_refused(tmp_path_factory):
    with pytest.raises(subprocess.CalledProcessError) as failed:
        run_cli("serve", "--path", str(indexed_corpus(tmp_path_factory)), "--host", "0.0.0.0",
                "--port", "0", "--no-token", env=fast_env())
    assert "--no-token is allowed only on a loopback address" in failed.value.stderr


def test_a_port_in_use_is_a_clear_error(tmp_path_factory):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(subprocess.CalledProcessError) as failed:
            run_cli("serve", "--path", str(indexed_corpus(tmp_path_factory)), "--port", str(port),
                    env=fast_env())
    assert f"cannot listen on 127.0.0.1:{port}" in failed.value.stderr
