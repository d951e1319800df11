"""Issue 22: public visitors' chats cannot take the owner's chat workers, nor one address
hold many streams. A real `athena serve` in public mode whose model (a wire-fake OpenAI
server) answers visitors slowly: while two visitor streams run, a third from the same
address is 429 at once, and the owner's question is still answered in seconds.
"""

from __future__ import annotations

import threading
import time

import httpx
import pytest

from http_servers import AthenaServer, chat_body, fast_env, run_cli
from wire_servers import OpenAIWireServer, RecordedRequest, Turn

pytestmark = pytest.mark.integration

DOCS_SITE = "http://docs.example"
VISITOR = {"Origin": DOCS_SITE}
USER_CONFIG = f"""
[server]
cors_origins = ["{DOCS_SITE}"]
[dropin]
public = true
public_paths = ["docs/**"]
"""
SLOW_PIECES, SLOW_DELAY_S = 12, 0.5  # a visitor's answer takes about 6 s


def _reply(request: RecordedRequest) -> Turn:
    asked = " ".join(str(m.get("content")) for m in request.body.get("messages", []) if m.get("role") == "user")
    if "visitor" in asked:
        return Turn(text=["Zebra tokens rotate nightly. "] * SLOW_PIECES, event_delay_s=SLOW_DELAY_S)
    return Turn(text=["Zebra tokens rotate every night."])


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("visitor-share")
    folder = tmp / "project"
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "tokens.md").write_text("# Tokens\n\nZebra tokens are rotated every night by the vault.\n",
                                               encoding="utf-8")
    home = tmp / "xdg"
    (home / "athena").mkdir(parents=True)
    (home / "athena" / "config.toml").write_text(USER_CONFIG, encoding="utf-8")
    model = OpenAIWireServer(_reply)
    with model as url:
        env = fast_env(XDG_CONFIG_HOME=str(home), ATHENA_LLM__PROVIDER="openai", ATHENA_LLM__BASE_URL=url,
                       ATHENA_LLM__MODEL="tiny")
        run_cli("index", str(folder), env=env)
        with AthenaServer(folder, "--rate-limit", "0", env=env) as server:
            yield server


def _visitor_stream(server: AthenaServer, opened: threading.Event, out: dict) -> None:
    body = chat_body("How do visitor zebra tokens rotate?", stream=True)
    with httpx.stream("POST", f"{server.url}/chat", headers=VISITOR, json=body, timeout=60) as r:
        out["status"] = r.status_code
        opened.set()
        out["text"] = "".join(r.iter_text())
        out["ended"] = time.monotonic()


def test_visitors_cannot_hold_the_owners_workers_nor_three_streams_from_one_address(served):
    streams = []
    for _ in range(2):
        opened, out = threading.Event(), {}
        thread = threading.Thread(target=_visitor_stream, args=(served, opened, out), daemon=True)
        thread.start()
        assert opened.wait(30), "a visitor's stream did not start"
        assert out["status"] == 200
        streams.append((thread, out))

    third = httpx.post(f"{served.url}/chat", headers=VISITOR, timeout=30,
                       json=chat_body("How do visitor zebra tokens rotate?", stream=True))
    assert third.status_code == 429, third.text
    assert "at most 2 public chats" in third.text and third.headers["Retry-After"]

    started = time.monotonic()
    owner = served.client.post("/chat", json=chat_body("How do zebra tokens rotate?", stream=False), timeout=30)
    took = time.monotonic() - started
    assert owner.status_code == 200, owner.text
    assert "rotate every night" in owner.json()["answer"]
    assert all("ended" not in out for _, out in streams), "the visitors' streams were already over"
    assert took < SLOW_PIECES * SLOW_DELAY_S / 2, f"the owner waited {took:.1f} s behind the visitors"

    for thread, out in streams:
        thread.join(60)
        assert "Zebra tokens rotate nightly" in out["text"]
    # Their slots are given back when their turns end.
    again = httpx.post(f"{served.url}/chat", headers=VISITOR, timeout=60,
                       json=chat_body("How do visitor zebra tokens rotate?", stream=False))
    assert again.status_code == 200, again.text
