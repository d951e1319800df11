"""OpenAI chat completions over SSE: OpenAI, llama.cpp server, Ollama /v1, vLLM, LM Studio.

base_url is the API root including `/v1` (e.g. http://127.0.0.1:8080/v1).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterator

from .base import (
    Message,
    PromptProgress,
    Provider,
    SamplingParams,
    StreamEnd,
    StreamEvent,
    TextDelta,
    ToolCallEvent,
    ToolSpec,
    decode_event_json,
    parse_tool_arguments,
    function_tools,
    system_first,
)
from athena_lab.errors import ProviderError
from .sse import iter_sse

# Non-OpenAI knobs that llama.cpp server and vLLM read from the body. Sent only when
# set: the OpenAI API itself rejects unknown fields.
_EXTRA_SAMPLING = ("top_k", "repeat_penalty")


class OpenAICompatProvider(Provider):
    name = "OpenAI-compatible server"
    chat_path = "/chat/completions"
    models_path = "/models"

    def auth_headers(self, api_key: str | None) -> dict[str, str]:
        return {"Authorization": f"Bearer {api_key}"} if api_key else {}

    def build_body(self, messages: list[Message], tools: list[ToolSpec], sampling: SamplingParams) -> dict[str, Any]:
        wire = system_first(messages, _to_wire)
        body: dict[str, Any] = {
            "model": self.model,
            "messages": wire,
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        for key in ("temperature", "top_p", "max_tokens", "seed", *_EXTRA_SAMPLING):
            value = getattr(sampling, key)
            if value is not None:
                body[key] = value
        if tools:
            body["tools"] = function_tools(tools)
        return body

    def parse_stream(self, lines: Iterator[str]) -> Iterator[StreamEvent]:
        state = _StreamState()
        for _, data in iter_sse(self.name, lines):
            if data.strip() == "[DONE]":
                yield from state.flush_tool_calls()
                yield StreamEnd(state.finish_reason or "stop", state.usage)
                return
            yield from state.feed(self.name, decode_event_json(self.name, data))
        if state.finish_reason is None:
            raise ProviderError(
                f"{self.name} stream ended unexpectedly: the connection closed before the answer finished",
                "protocol",
            )
        # Some servers omit [DONE] after a finished choice; the answer is complete.
        yield from state.flush_tool_calls()
        yield StreamEnd(state.finish_reason, state.usage)

    def parse_models(self, payload: Any) -> list[str]:
        return [str(entry["id"]) for entry in payload["data"]]


@dataclass
class _PartialCall:
    id: str = ""
    name: str = ""
    arguments: list[str] = field(default_factory=list)


@dataclass
class _StreamState:
    """Tool calls arrive as fragments keyed by index; they are complete only at finish."""

    calls: dict[int, _PartialCall] = field(default_factory=dict)
    finish_reason: str | None = None
    usage: dict[str, int] = field(default_factory=dict)

    def feed(self, provider: str, chunk: Any) -> Iterator[StreamEvent]:
        if not isinstance(chunk, dict):
            raise ProviderError(f"{provider} stream ended unexpectedly: unexpected event {str(chunk)[:120]!r}", "protocol")
        if "error" in chunk:
            error = chunk["error"]
            message = error.get("message", error) if isinstance(error, dict) else error
            raise ProviderError(f"{provider} reported an error mid-stream: {str(message)[:300]}", "http")
        if isinstance(chunk.get("usage"), dict):
            self.usage = _usage(chunk["usage"])
        progress = chunk.get("prompt_progress")  # llama.cpp, asked with return_progress
        if isinstance(progress, dict):
            try:
                yield PromptProgress(int(progress.get("processed") or 0), int(progress.get("total") or 0),
                                     int(progress.get("cache") or 0), float(progress.get("time_ms") or 0))
            except (TypeError, ValueError):
                pass  # a malformed progress report says nothing; the answer goes on
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or {}
            if delta.get("content"):
                yield TextDelta(delta["content"])
            for fragment in delta.get("tool_calls") or []:
                self._merge(fragment)
            if choice.get("finish_reason"):
                self.finish_reason = _FINISH.get(choice["finish_reason"], choice["finish_reason"])

    def _merge(self, fragment: dict[str, Any]) -> None:
        call = self.calls.setdefault(int(fragment.get("index", len(self.calls))), _PartialCall())
        call.id = fragment.get("id") or call.id
        function = fragment.get("function") or {}
        call.name = function.get("name") or call.name
        if function.get("arguments"):
            call.arguments.append(function["arguments"])

    def flush_tool_calls(self) -> Iterator[StreamEvent]:
        for index in sorted(self.calls):
            call = self.calls[index]
            yield ToolCallEvent(parse_tool_arguments(call.id or f"call_{index}", call.name, "".join(call.arguments)))
        if self.calls and self.finish_reason in (None, "stop"):
            self.finish_reason = "tool_calls"
        self.calls = {}


_FINISH = {"function_call": "tool_calls"}


def _usage(raw: dict[str, Any]) -> dict[str, int]:
    return {"input_tokens": int(raw.get("prompt_tokens") or 0), "output_tokens": int(raw.get("completion_tokens") or 0)}


def _to_wire(message: Message) -> dict[str, Any]:
    if message.role == "tool":
        wire: dict[str, Any] = {"role": "tool", "tool_call_id": message.tool_call_id, "content": message.content}
        if message.name:
            wire["name"] = message.name
        return wire
    if message.role == "assistant" and message.tool_calls:
        return {
            "role": "assistant",
            "content": message.content or None,
            "tool_calls": [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": json.dumps(c.arguments)}}
                for c in message.tool_calls
            ],
        }
    return {"role": message.role, "content": message.content}
