"""Issue 31, finding 3: half-sent requests locked the owner out of `athena serve`.

A real server under the descriptor limit a service gets by default (1,024, set with
`prlimit`), and 1,100 connections from one address that each send a request line and a
header and then stop — or whole headers promising a body that never comes. Before the fix the server ran out of descriptors: accepting failed on
every turn of its loop, each failure was logged with a traceback, and the owner's request
timed out. Now the oldest connections still waiting for a whole request are closed, the
owner's whole request is answered, and the flood is one log line, not thousands.
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
from pathlib import Path

import httpx
import pytest

from http_servers import AthenaServer, fast_env, index_folder

pytestmark = pytest.mark.integration

HALF_SENT = 1100
TOKEN = "half-sent-token"
SITE = "http://docs.example"
# Public mode: a token-less chat from the site's origin passes the front door on its
# headers, so a body that never comes holds the connection (a refused request is answered
# at its headers and holds nothing).
PUBLIC = (f'[server]\ncors_origins = ["{SITE}"]\n'
          '[dropin]\npublic = true\npublic_paths = ["**"]\npublic_chats_per_minute = 100000\n')


@pytest.fixture
def server(tmp_path: Path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "guide.md").write_text("# Guide\n\nZebra tokens rotate every night.\n", encoding="utf-8")
    index_folder(folder)
    home = tmp_path / "xdg"
    (home / "athena").mkdir(parents=True)
    (home / "athena" / "config.toml").write_text(PUBLIC, encoding="utf-8")
    prlimit = shutil.which("prlimit")
    assert prlimit, "prlimit (util-linux) is needed to give the server a service's descriptor limit"
    athena = AthenaServer(folder, "--token", TOKEN, "--rate-limit", "0", env=fast_env(XDG_CONFIG_HOME=str(home)))
    athena.cmd = [prlimit, "--nofile=1024:1024", *athena.cmd]
    with athena as running:
        lines: list[str] = []
        assert running.proc is not None and running.proc.stderr is not None
        threading.Thread(target=lambda: lines.extend(running.proc.stderr), daemon=True).start()
        running.log = lines  # type: ignore[attr-defined]
        yield running


def _half_sent(port: int, n: int = 0) -> socket.socket:
    """Every other one stops in its headers; the rest send whole headers and promise a body
    that never comes (tornado waits for it before any handler runs)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    if n % 2:
        sock.sendall(b"POST /athena/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Origin: " + SITE.encode() + b"\r\nContent-Length: 100\r\n\r\n{")
    else:
        sock.sendall(b"GET /athena/info HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # no blank line: never finished
    return sock


def test_the_owner_is_answered_with_1100_half_sent_requests_open(server):
    port = int(server.url.split(":")[2].split("/")[0])
    opened: list[socket.socket] = []
    try:
        for n in range(HALF_SENT):
            try:
                opened.append(_half_sent(port, n))
            except OSError:
                pass  # the server closed an old one as this one came: counted below
        started = time.monotonic()
        answer = httpx.get(f"{server.url}/info", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10)
        took = time.monotonic() - started
        assert answer.status_code == 200, answer.text
        assert answer.json()["index"]["files"] == 1
        assert took < 5, f"the owner waited {took:.1f} s"
        # Still answered with the flood going on: another 200 half-sent, then the owner again.
        opened += [_half_sent(port, n) for n in range(200)]
        assert httpx.get(f"{server.url}/info", headers={"Authorization": f"Bearer {TOKEN}"},
                         timeout=10).status_code == 200
    finally:
        for sock in opened:
            sock.close()
    time.sleep(0.5)
    flood = [line for line in server.log if line.startswith("flood:")]
    assert 1 <= len(flood) <= 2, server.log[-20:]
    assert len([line for line in server.log if line[:1] == "4"]) <= 20  # refusals: one by one up to 20
    assert "127.0.0.1" in flood[0]  # what it says is pinned by tests/test_flood_log.py
    assert len(server.log) < 30, f"{len(server.log)} log lines, the last: {server.log[-5:]}"
