"""Attacks on `athena serve`'s front door, each sent to a real server process on 127.0.0.1.

A web page in the user's browser can send requests to 127.0.0.1 (forms, text/plain
fetches, DNS rebinding); other local processes can guess tokens or hold connections open.
Each test sends the attack and asserts the refusal — a 4xx JSON error — and that nothing
was written: no conversation, no reindex job.

Most attacks go to a server started with ``--no-token``, the weakest setting a user can
choose, so the Host, Origin and Content-Type checks are shown to hold on their own.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from http_servers import AthenaServer, chat_body, fast_env, indexed_corpus, run_cli

pytestmark = pytest.mark.integration

EVIL = "http://evil.example"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """A private copy of the indexed corpus: a failed defence would write into it."""
    return Path(shutil.copytree(indexed_corpus(tmp_path_factory), tmp_path_factory.mktemp("front-door") / "docs"))


@pytest.fixture(scope="module")
def open_server(corpus):
    with AthenaServer(corpus, "--no-token", "--rate-limit", "0") as server:
        yield server


@pytest.fixture(scope="module")
def guarded(corpus):
    with AthenaServer(corpus, "--rate-limit", "0") as server:
        yield server


def port_of(server: AthenaServer) -> int:
    return int(server.url.rsplit(":", 1)[1].split("/", 1)[0])


def conversation_count(server: AthenaServer) -> int:
    return len(server.client.get("/conversations", params={"limit": 200}).json()["conversations"])


def assert_json_error(r: httpx.Response, status: int, *fragments: str) -> None:
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error["status"] == status
    for fragment in fragments:
        assert fragment in error["message"]


# Cross-site requests ---------------------------------------------------------------

def test_foreign_origin_text_plain_chat_is_403_and_creates_no_conversation(open_server):
    before = conversation_count(open_server)
    r = httpx.post(f"{open_server.url}/chat", content=json.dumps(chat_body("hi", stream=False)),
                   headers={"Content-Type": "text/plain", "Origin": EVIL})
    assert_json_error(r, 403, "Origin", "evil.example", "--cors-origin")
    assert "access-control-allow-origin" not in r.headers
    assert conversation_count(open_server) == before


def test_text_plain_chat_body_is_415_and_creates_no_conversation(open_server):
    before = conversation_count(open_server)
    r = httpx.post(f"{open_server.url}/chat", content=json.dumps(chat_body("hi", stream=False)),
                   headers={"Content-Type": "text/plain;charset=UTF-8"})
    assert_json_error(r, 415, "text/plain", "application/json")
    assert conversation_count(open_server) == before


def test_form_encoded_reindex_is_refused_and_starts_no_job(open_server):
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    assert_json_error(httpx.post(f"{open_server.url}/reindex", content=b"a=1", headers={**form, "Origin": EVIL}), 403)
    assert_json_error(httpx.post(f"{open_server.url}/reindex", content=b"a=1", headers=form), 415)
    assert_json_error(httpx.post(f"{open_server.url}/reindex", content=b"", headers=form), 415)
    assert open_server.client.get("/reindex").json()["job"]["state"] == "idle"


def test_foreign_origin_preflight_is_403(open_server):
    r = httpx.options(f"{open_server.url}/chat", headers={
        "Origin": EVIL, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"})
    assert_json_error(r, 403, "Origin")
    assert "access-control-allow-origin" not in r.headers


def test_foreign_origin_is_403_even_with_the_right_token(guarded):
    r = httpx.get(f"{guarded.url}/source", params={"path": "quickstart.rst"}, headers={**guarded.auth, "Origin": EVIL})
    assert_json_error(r, 403, "Origin")


def test_same_origin_request_is_allowed(open_server):
    own = f"http://127.0.0.1:{port_of(open_server)}"
    r = httpx.post(f"{open_server.url}/chat", json=chat_body("What is a blueprint?", stream=False),
                   headers={"Origin": own}, timeout=60)
    assert r.status_code == 200, r.text


# DNS rebinding ---------------------------------------------------------------------

def test_rebinding_host_cannot_read_a_source(open_server, corpus):
    port = port_of(open_server)
    r = httpx.get(f"{open_server.url}/source", params={"path": "quickstart.rst"},
                  headers={"Host": f"rebind.attacker.example:{port}"})
    assert_json_error(r, 403, "Host", "rebind.attacker.example", "--allow-host")
    first_line = (corpus / "quickstart.rst").read_text(encoding="utf-8").splitlines()[0]
    assert first_line not in r.text


@pytest.mark.parametrize("name", ["127.0.0.1", "localhost", "[::1]"])
def test_loopback_host_names_are_accepted(open_server, name):
    r = httpx.get(f"{open_server.url}/info", headers={"Host": f"{name}:{port_of(open_server)}"})
    assert r.status_code == 200, r.text


def test_allow_host_accepts_a_host_the_user_named(corpus):
    with AthenaServer(corpus, "--no-token", "--allow-host", "docs.internal") as server:
        port = port_of(server)
        named = httpx.get(f"{server.url}/info", headers={"Host": f"docs.internal:{port}"})
        other = httpx.get(f"{server.url}/info", headers={"Host": f"other.internal:{port}"})
    assert named.status_code == 200
    assert_json_error(other, 403, "Host")


# The token -------------------------------------------------------------------------

def test_serve_generates_a_token_and_prints_it_in_the_url(guarded):
    assert "?token=" in guarded.first_line and len(guarded.token) >= 40
    assert_json_error(httpx.get(f"{guarded.url}/info"), 401, "token")
    assert httpx.get(f"{guarded.url}/info", headers=guarded.auth).status_code == 200
    assert httpx.get(f"{guarded.url}/info", params={"token": guarded.token}).status_code == 200


def test_query_token_sets_an_httponly_samesite_strict_cookie_that_keeps_the_page_working(guarded):
    opened = httpx.get(f"{guarded.url}/info", params={"token": guarded.token})
    cookie = opened.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert guarded.token not in cookie  # the cookie holds a value derived from the token
    name, _, value = cookie.split(";", 1)[0].partition("=")
    later = httpx.get(f"{guarded.url}/status", headers={"Cookie": f"{name}={value}"})
    assert later.status_code == 200


def test_a_user_set_token_is_required_and_not_printed(corpus):
    with AthenaServer(corpus, env=fast_env(ATHENA_SERVER__TOKEN="users-own-token")) as server:
        assert "?token=" not in server.first_line and "users-own-token" not in server.first_line
        mine = httpx.get(f"{server.url}/info", headers={"Authorization": "Bearer users-own-token"})
        other = httpx.get(f"{server.url}/info", headers={"Authorization": "Bearer something-else"})
    assert mine.status_code == 200
    assert_json_error(other, 401, "wrong token")


def cookie_of(server: AthenaServer) -> dict[str, str]:
    """The Cookie header the chat page sends, got by opening the printed ``?token=`` URL."""
    opened = httpx.get(f"{server.url}/info", params={"token": server.token})
    return {"Cookie": opened.headers["set-cookie"].split(";", 1)[0]}


# What an <img src="http://127.0.0.1:PORT/athena/info?token=…"> on any web page sends.
IMG_FROM_ANY_PAGE = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"}
# The printed URL opened from a terminal: a navigation the user started.
OPENED_BY_THE_USER = {"Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}


def test_wrong_bearer_tokens_are_429_after_ten_a_minute_even_for_the_right_bearer_token(corpus):
    with AthenaServer(corpus, "--rate-limit", "0") as server:
        page = cookie_of(server)
        wrong = [httpx.get(f"{server.url}/info", headers={"Authorization": f"Bearer guess-{n}"}).status_code
                 for n in range(10)]
        blocked = httpx.get(f"{server.url}/info", headers=server.auth)
        # The guesses were headers: the owner's open chat page (its cookie) is not locked out.
        still_open = httpx.get(f"{server.url}/info", headers=page)
    assert wrong == [401] * 10
    assert_json_error(blocked, 429, "too many wrong tokens", "Authorization header")
    assert 1 <= int(blocked.headers["retry-after"]) <= 60
    assert still_open.status_code == 200


def test_an_img_tag_on_any_page_cannot_lock_the_owner_out(corpus):
    """Issue 22, finding 4: twelve token-less ``?token=wrongN`` loads with no Origin (what an
    <img> sends) made the owner's right Bearer token 429 for a minute."""
    with AthenaServer(corpus, "--rate-limit", "0") as server:
        page = cookie_of(server)
        guesses = [httpx.get(f"{server.url}/info", params={"token": f"wrong{n}"}, headers=IMG_FROM_ANY_PAGE)
                   for n in range(12)]
        right_header = httpx.get(f"{server.url}/info", headers=server.auth)
        right_cookie = httpx.get(f"{server.url}/info", headers=page)
        printed_url = httpx.get(f"{server.url}/info", params={"token": server.token}, headers=OPENED_BY_THE_USER)
        # The <img>'s query token is not read at all: not even the right one logs it in.
        right_from_img = httpx.get(f"{server.url}/info", params={"token": server.token}, headers=IMG_FROM_ANY_PAGE)
    for r in guesses:
        assert_json_error(r, 401, "missing token")
    assert right_header.status_code == 200 and right_cookie.status_code == 200
    assert printed_url.status_code == 200 and "set-cookie" in printed_url.headers
    assert_json_error(right_from_img, 401, "missing token")


def test_query_token_guesses_from_a_program_leave_the_header_and_the_cookie_working(corpus):
    with AthenaServer(corpus, "--rate-limit", "0") as server:
        page = cookie_of(server)
        guesses = [httpx.get(f"{server.url}/info", params={"token": f"wrong{n}"}).status_code for n in range(12)]
        right_header = httpx.get(f"{server.url}/info", headers=server.auth)
        right_cookie = httpx.get(f"{server.url}/info", headers=page)
    assert guesses == [401] * 10 + [429] * 2  # guessing by query string is slowed down
    assert right_header.status_code == 200 and right_cookie.status_code == 200


def test_a_stale_cookie_is_401_and_cleared(corpus):
    with AthenaServer(corpus, "--rate-limit", "0") as server:
        name = f"athena-token-{port_of(server)}"
        r = httpx.get(f"{server.url}/info", headers={"Cookie": f"{name}=from-an-earlier-run"})
    assert_json_error(r, 401, "wrong token")
    cleared = r.headers["set-cookie"]
    assert cleared.startswith(f'{name}=""') and "expires=" in cleared.lower()


def test_no_token_is_refused_off_loopback(corpus):
    with pytest.raises(subprocess.CalledProcessError) as failed:
        run_cli("serve", "--path", str(corpus), "--host", "0.0.0.0", "--port", "0", "--no-token", env=fast_env())
    err = failed.value.stderr
    assert failed.value.returncode == 2
    assert "--no-token is allowed only on a loopback address" in err and "Traceback" not in err


# Bodies ----------------------------------------------------------------------------

@pytest.mark.parametrize("body", [b"[" * 100_000, json.dumps({"messages": [], "x": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}).encode()],
                         ids=["unparseable-depth", "valid-but-deep"])
def test_deeply_nested_json_is_400_not_500(guarded, body):
    r = guarded.client.post("/chat", content=body, headers={"Content-Type": "application/json"})
    assert_json_error(r, 400, "nests deeper than")


@pytest.mark.parametrize("filters, field", [({"kind": "spreadsheet"}, "filters.kind"),
                                            ({"path_prefix": "../"}, "filters.path_prefix"),
                                            ({"path_prefix": "/etc"}, "filters.path_prefix")])
@pytest.mark.parametrize("stream", [True, False])
def test_bad_chat_filter_is_400_before_a_conversation_exists(guarded, filters, field, stream):
    before = conversation_count(guarded)
    r = guarded.client.post("/chat", json=chat_body("What is a blueprint?", stream=stream, filters=filters))
    assert_json_error(r, 400, field)
    assert conversation_count(guarded) == before


# Connections -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def impatient(corpus):
    env = fast_env(ATHENA_SERVER__IDLE_TIMEOUT_S="1", ATHENA_SERVER__BODY_TIMEOUT_S="1")
    with AthenaServer(corpus, "--no-token", env=env) as server:
        yield server


def closed_within(sock: socket.socket, seconds: float) -> tuple[bool, bytes]:
    """(whether the server closed the connection within ``seconds``, what it sent first)."""
    sock.settimeout(seconds)
    got = b""
    started = time.monotonic()
    try:
        while time.monotonic() - started < seconds:
            chunk = sock.recv(65536)
            if not chunk:
                return True, got
            got += chunk
    except (socket.timeout, TimeoutError):
        return False, got
    except ConnectionResetError:
        return True, got
    return False, got


def test_headers_that_never_finish_are_dropped_after_the_idle_timeout(impatient):
    with socket.create_connection(("127.0.0.1", port_of(impatient))) as sock:
        sock.sendall(b"GET /athena/info HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # no blank line: never ends
        closed, answer = closed_within(sock, 10)
    assert closed and answer == b""


def test_a_body_that_never_arrives_is_dropped_after_the_body_timeout(impatient):
    with socket.create_connection(("127.0.0.1", port_of(impatient))) as sock:
        sock.sendall(b"POST /athena/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1000\r\n\r\n{\"messages\": ")
        closed, answer = closed_within(sock, 10)
    assert closed and b"200 OK" not in answer


def test_oversized_headers_close_the_connection_without_an_answer(impatient):
    with socket.create_connection(("127.0.0.1", port_of(impatient))) as sock:
        sock.sendall(b"GET /athena/info HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 40_000 + b"\r\n\r\n")
        closed, answer = closed_within(sock, 10)
    assert closed and b"200 OK" not in answer


def test_a_refused_request_closes_its_connection_cleanly_for_keep_alive_clients(guarded):
    """A refusal comes before the body is read, so the server drops the connection: it must
    say ``Connection: close``, or the client's next request on it meets a reset."""
    with httpx.Client(base_url=guarded.url) as client:
        for _ in range(5):
            refused = client.get("/info", headers={"Host": "rebind.attacker.example"})
            assert refused.status_code == 403 and refused.headers["connection"] == "close"
            assert client.get("/info", headers=guarded.auth).status_code == 200


# What the server writes down -------------------------------------------------------------

def test_the_token_never_reaches_the_log(corpus):
    """Issue 22, finding 7: tornado's access log wrote ``?token=<the real token>`` for every
    4xx and 5xx answer."""
    with AthenaServer(corpus, "--rate-limit", "0") as server:
        right = server.token
        assert httpx.get(f"{server.url}/no-such-route", params={"token": right}).status_code == 404
        assert httpx.get(f"{server.url}/info", params={"token": "wrong-guess-5150"}).status_code == 401
        assert httpx.get(f"{server.url}/source", params={"token": right, "path": "../x"}).status_code == 400
        proc = server.proc
    log = proc.stderr.read()
    assert "token=redacted" in log, log  # the answers were logged …
    assert right not in log and "wrong-guess-5150" not in log  # … without the token


def test_the_cookie_is_secure_when_the_page_came_over_tls(corpus):
    env = fast_env(ATHENA_SERVER__BEHIND_PROXY="true")
    with AthenaServer(corpus, "--rate-limit", "0", env=env) as server:
        over_tls = httpx.get(f"{server.url}/info", params={"token": server.token},
                             headers={"X-Forwarded-For": "203.0.113.5", "X-Forwarded-Proto": "https"})
        plain = httpx.get(f"{server.url}/info", params={"token": server.token})
    assert "secure" in over_tls.headers["set-cookie"].lower()
    assert "secure" not in plain.headers["set-cookie"].lower()  # http on loopback: a Secure cookie would not stick
