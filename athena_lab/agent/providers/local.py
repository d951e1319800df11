"""`--provider local`: any GGUF the user has, served by llama.cpp inside this process.

One command then gives a local model without Ollama or a separate server: `xllamacpp`
(prebuilt llama.cpp wheels, no compiler) starts llama.cpp's own OpenAI-compatible HTTP
server on 127.0.0.1 with a random port and a per-process API key, and the ordinary
OpenAI-compatible adapter talks to it. The server is started once per model file and
context size and kept for the life of the process, because loading a model takes
seconds and a turn closes its provider. A model whose chat template has no tool support
gets the text protocol (`text_tools.py`).
"""

from __future__ import annotations

import os
import secrets
import socket
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterator

import httpx

from .base import Message, ProviderConfig, SamplingParams, StreamEnd, StreamEvent, TextDelta, ToolCallEvent, ToolSpec
from athena_lab.errors import ProviderError
from .openai_compat import OpenAICompatProvider
from .text_tools import TextToolParser, text_messages

TOOL_PROTOCOLS = ("auto", "native", "text")
# llama.cpp reads a prompt in batches and reports its progress once per batch: 128 tokens
# is a report every 4–8 s on two busy cores (its default 2,048 reported a 1,500-token
# prompt once, at the end). Batches of 64 and 512 read a prompt equally fast here
# (0.5B: 19–21 against 15–19 tokens/s at load 12), so the reports cost nothing measurable.
PROGRESS_BATCH = 128


@dataclass
class LocalServer:
    """A running in-process llama.cpp server and what a client needs to reach it."""

    base_url: str
    api_key: str
    native_tools: bool
    handle: Any  # the xllamacpp.Server; dropping the last reference stops it


_SERVERS: dict[tuple[str, int], LocalServer] = {}
_LOCK = threading.Lock()


def local_server(model_path: str | Path, context_size: int, threads: int | None = None) -> LocalServer:
    """The server for this GGUF and context size, started on first use."""
    path = Path(model_path).expanduser()
    if not path.is_file():
        raise ProviderError(f"no model file at {path}: set llm.model_path or pass --model-path FILE.gguf", "config")
    key = (str(path.resolve()), int(context_size))
    with _LOCK:
        if key not in _SERVERS:
            _SERVERS[key] = _start(path, int(context_size), threads)
        return _SERVERS[key]


def is_loaded(model_path: str | Path, context_size: int) -> bool:
    """Whether this GGUF already runs here at this context size (a turn then starts at once)."""
    path = Path(model_path).expanduser()
    with _LOCK:
        return (str(path.resolve()), int(context_size)) in _SERVERS


def _start(path: Path, context_size: int, threads: int | None) -> LocalServer:
    try:
        import xllamacpp as xlc
    except ImportError:
        raise ProviderError("the local provider needs xllamacpp: pip install 'athena-lab[local]'", "config") from None
    params = xlc.CommonParams()
    params.model.path = str(path)
    params.n_ctx = context_size
    params.cpuparams.n_threads = threads or max(1, min(4, os.cpu_count() or 1))
    params.hostnames = ["127.0.0.1"]
    params.verbosity = -1  # llama.cpp logs to stderr, where `athena ask` streams its answer
    params.n_batch = params.n_ubatch = PROGRESS_BATCH
    params.port = _free_port()
    api_key = secrets.token_urlsafe(24)
    params.api_keys = [api_key]
    try:
        handle = xlc.Server(params)
    except Exception as exc:  # llama.cpp reports a bad file as a generic runtime error
        raise ProviderError(f"llama.cpp could not load {path.name}: {str(exc).splitlines()[0][:200]}", "config") from None
    base = str(handle.listening_address).rstrip("/")
    return LocalServer(base + "/v1", api_key, _template_has_tools(base, api_key), handle)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _template_has_tools(base: str, api_key: str) -> bool:
    """Whether the model's chat template renders tools (llama.cpp's /props shows it)."""
    try:
        props = httpx.get(base + "/props", headers={"Authorization": f"Bearer {api_key}"}, timeout=10).json()
    except (httpx.HTTPError, ValueError):
        return False
    return "tool" in str(props.get("chat_template") or "")


class LocalProvider(OpenAICompatProvider):
    """The OpenAI-compatible adapter on the in-process server, with the text tool protocol
    when the model has no native tool calls."""

    name = "local llama.cpp server"

    def __init__(self, config: ProviderConfig, server: LocalServer, text_tools: bool) -> None:
        super().__init__(replace(config, base_url=server.base_url), server.api_key)
        self.server = server
        self.text_tools = text_tools

    def build_body(self, messages: list[Message], tools: list[ToolSpec], sampling: SamplingParams) -> dict[str, Any]:
        """The OpenAI body plus llama.cpp's ``return_progress``: the prompt's reading is
        reported while it lasts (``PromptProgress``), the wait a turn shows as a bar."""
        return {**super().build_body(messages, tools, sampling), "return_progress": True}

    def stream(self, messages: list[Message], tools: list[ToolSpec] | None = None,
               sampling: SamplingParams | None = None) -> Iterator[StreamEvent]:
        if not (self.text_tools and tools):
            yield from super().stream(messages, tools, sampling)
            return
        parser = TextToolParser()
        calls = 0
        for event in super().stream(text_messages(messages, tools), None, sampling):
            if isinstance(event, TextDelta):
                for out in parser.feed(event.text):
                    calls += isinstance(out, ToolCallEvent)
                    yield out
            elif isinstance(event, StreamEnd):
                for out in parser.finish():
                    calls += isinstance(out, ToolCallEvent)
                    yield out
                yield StreamEnd("tool_calls" if calls else event.finish_reason, event.usage)
            else:
                yield event

    def health(self) -> dict[str, Any]:
        """Reachable is enough: the server runs the one file it was started with, under
        whatever name llama.cpp lists it."""
        result = super().health()
        if result["reachable"]:
            result.update(model_present=True, error=None)
        return result

    def close(self) -> None:
        super().close()  # the server stays up for the next turn; it stops with the process


def make_local_provider(model_path: str | Path, context_size: int, sampling: SamplingParams,
                        timeout_s: float = 120.0, tool_protocol: str = "auto",
                        threads: int | None = None) -> LocalProvider:
    """A provider on the in-process server for ``model_path`` (started if needed)."""
    if tool_protocol not in TOOL_PROTOCOLS:
        raise ProviderError(f"llm.tool_protocol must be one of {', '.join(TOOL_PROTOCOLS)}, not {tool_protocol!r}", "config")
    server = local_server(model_path, context_size, threads)
    text = tool_protocol == "text" or (tool_protocol == "auto" and not server.native_tools)
    config = ProviderConfig(kind="local", base_url=server.base_url, model=Path(model_path).name,  # type: ignore[arg-type]
                            timeout_s=timeout_s, sampling=sampling)
    return LocalProvider(config, server, text)


SPEED_PROMPT = " ".join(["The index keeps every document's chunks, their locators and their vectors on disk."] * 20)


def measure_speed(model_path: str | Path, context_size: int = 4096) -> dict[str, float]:
    """Load time (0 when already loaded), prompt and generation tokens/s, from llama.cpp's
    own timings of one short request: what `athena doctor` reports."""
    import time

    started = time.perf_counter()
    server = local_server(model_path, context_size)
    load_s = time.perf_counter() - started
    body = {"messages": [{"role": "user", "content": SPEED_PROMPT + f" ({secrets.token_hex(4)})"}],
            "max_tokens": 16, "temperature": 0.0, "cache_prompt": False}
    reply = httpx.post(server.base_url + "/chat/completions", json=body, timeout=300,
                       headers={"Authorization": f"Bearer {server.api_key}"}).json()
    timings = reply.get("timings") or {}
    return {"load_s": round(load_s, 2), "prompt_tokens_per_s": round(float(timings.get("prompt_per_second", 0)), 1),
            "generation_tokens_per_s": round(float(timings.get("predicted_per_second", 0)), 1)}
