"""Issue 22: public visitors' chats cannot take the owner's chat workers, nor one address
hold many streams. A real `athena serve` in public mode whose model (a wire-fake OpenAI
server) answers visitors slowly: while two visitor streams run, a third from the same
address is 429 at once, and the owner's question is still answered in seconds. With the
model turned on for visitors (``[dropin] public_model``), their model calls queue behind the
owner's (agent/model_work.py).
"""

from __future__ import annotations

import threading
import time

import httpx
import pytest

from http_servers import AthenaServer, chat_body, served_with_wire_model
from wire_servers import RecordedRequest, Turn

pytestmark = pytest.mark.integration

DOCS_SITE = "http://docs.example"
VISITOR = {"Origin": DOCS_SITE}
USER_CONFIG = f"""
[server]
cors_origins = ["{DOCS_SITE}"]
[dropin]
public = true
public_paths = ["docs/**"]
public_model = true
public_model_seconds = 120
"""
SLOW_PIECES, SLOW_DELAY_S = 12, 0.5  # a visitor's answer takes about 6 s


VISITOR_CALLS: list[float] = []  # when each visitor's model call reached the model


def _reply(request: RecordedRequest) -> Turn:
    asked = " ".join(str(m.get("content")) for m in request.body.get("messages", []) if m.get("role") == "user")
    if "visitor" in asked:
        VISITOR_CALLS.append(time.monotonic())
        return Turn(text=["Zebra tokens rotate nightly. "] * SLOW_PIECES, event_delay_s=SLOW_DELAY_S)
    # The owner's model call takes a moment too (1.2 s), as a local model's would.
    return Turn(text=["Zebra tokens ", "rotate ", "every ", "night."], event_delay_s=0.3)


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
    for server, _ in served_with_wire_model(folder, home, _reply):
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
    # (one visitor's stream ends early now: its model call gave way to the owner's)
    assert any("ended" not in out for _, out in streams), "the visitors' streams were already over"
    assert took < SLOW_PIECES * SLOW_DELAY_S / 2, f"the owner waited {took:.1f} s behind the visitors"

    for thread, _ in streams:
        thread.join(60)
    # Issue 31: visitors' model calls run one at a time, behind the owner's. The first was
    # running when the owner's call began and stopped there; the second reached the model
    # only after that, and said all of its answer.
    said = sorted(out["text"].count("Zebra tokens rotate nightly") for _, out in streams)
    assert said[0] < SLOW_PIECES and said[1] == SLOW_PIECES, said
    assert len(VISITOR_CALLS) == 2 and VISITOR_CALLS[1] - VISITOR_CALLS[0] > 1.5, VISITOR_CALLS
    assert all('"type": "done"' in out["text"] or "event: done" in out["text"] for _, out in streams)
    # Their slots are given back when their turns end.
    VISITOR_CALLS.clear()
    again = httpx.post(f"{served.url}/chat", headers=VISITOR, timeout=60,
                       json=chat_body("How do visitor zebra tokens rotate?", stream=False))
    assert again.status_code == 200, again.text
