"""Ollama's native /api/chat: newline-delimited JSON, every sampling knob in `options`.

Preferred over Ollama's /v1 endpoint because only the native API honours num_ctx
(the context size) per request. base_url is the host root (http://127.0.0.1:11434).
"""

from __future__ import annotations

from typing import Any, Iterator

from .base import (
    Message,
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

_OPTIONS = {
    "temperature": "temperature",
    "top_p": "top_p",
    "top_k": "top_k",
    "repeat_penalty": "repeat_penalty",
    "context_size": "num_ctx",
    "max_tokens": "num_predict",
    "seed": "seed",
}


class OllamaProvider(Provider):
    name = "Ollama"
    chat_path = "/api/chat"
    models_path = "/api/tags"

    def auth_headers(self, api_key: str | None) -> dict[str, str]:
        # Ollama has no auth of its own; a key matters only behind an authenticating proxy.
        return {"Authorization": f"Bearer {api_key}"} if api_key else {}

    def build_body(self, messages: list[Message], tools: list[ToolSpec], sampling: SamplingParams) -> dict[str, Any]:
        wire = system_first(messages, _to_wire)
        body: dict[str, Any] = {"model": self.model, "messages": wire, "stream": True}
        options = {wire_key: getattr(sampling, key) for key, wire_key in _OPTIONS.items() if getattr(sampling, key) is not None}
        if options:
            body["options"] = options
        if tools:
            body["tools"] = function_tools(tools)
        return body

    def parse_stream(self, lines: Iterator[str]) -> Iterator[StreamEvent]:
        calls_seen = 0
        for line in lines:
            if not line.strip():
                continue
            chunk = decode_event_json(self.name, line)
            if not isinstance(chunk, dict):
                raise ProviderError(f"{self.name} stream ended unexpectedly: unexpected line {line[:120]!r}", "protocol")
            if "error" in chunk:
                raise ProviderError(f"{self.name} reported an error mid-stream: {str(chunk['error'])[:300]}", "http")
            message = chunk.get("message") or {}
            if message.get("content"):
                yield TextDelta(message["content"])
            for call in message.get("tool_calls") or []:
                function = call.get("function") or {}
                call_id = call.get("id") or f"call_{calls_seen}"
                calls_seen += 1
                yield ToolCallEvent(parse_tool_arguments(call_id, function.get("name", ""), function.get("arguments")))
            if chunk.get("done"):
                yield StreamEnd(_finish(chunk, calls_seen), _usage(chunk))
                return
        raise ProviderError(
            f"{self.name} stream ended unexpectedly: the connection closed before the final done message", "protocol"
        )

    def parse_models(self, payload: Any) -> list[str]:
        return [str(entry.get("name") or entry["model"]) for entry in payload["models"]]


def _finish(chunk: dict[str, Any], calls_seen: int) -> str:
    reason = chunk.get("done_reason") or "stop"
    return "tool_calls" if calls_seen and reason == "stop" else reason


def _usage(chunk: dict[str, Any]) -> dict[str, int]:
    return {
        "input_tokens": int(chunk.get("prompt_eval_count") or 0),
        "output_tokens": int(chunk.get("eval_count") or 0),
    }


def _to_wire(message: Message) -> dict[str, Any]:
    wire: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.role == "assistant" and message.tool_calls:
        wire["tool_calls"] = [{"function": {"name": c.name, "arguments": c.arguments}} for c in message.tool_calls]
    if message.role == "tool" and message.name:
        wire["tool_name"] = message.name
    return wire
