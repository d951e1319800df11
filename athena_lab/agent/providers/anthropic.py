"""Anthropic Messages API over SSE.

base_url is the host root (e.g. https://api.anthropic.com, without /v1). Anthropic has
no seed, repeat penalty or per-request context size: those settings are not sent.
max_tokens is mandatory there, so a default is supplied when none is configured.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
    split_system,
)
from athena_lab.errors import ProviderError
from .sse import iter_sse

API_VERSION = "2023-06-01"
DEFAULT_MAX_TOKENS = 1024
_FINISH = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length", "tool_use": "tool_calls"}


class AnthropicProvider(Provider):
    name = "Anthropic"
    chat_path = "/v1/messages"
    models_path = "/v1/models"

    def auth_headers(self, api_key: str | None) -> dict[str, str]:
        headers = {"anthropic-version": API_VERSION}
        if api_key:
            headers["x-api-key"] = api_key
        return headers

    def build_body(self, messages: list[Message], tools: list[ToolSpec], sampling: SamplingParams) -> dict[str, Any]:
        system, rest = split_system(messages)
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": sampling.max_tokens or DEFAULT_MAX_TOKENS,
            "messages": _to_wire(rest),
            "stream": True,
        }
        if system is not None:
            body["system"] = system
        for key in ("temperature", "top_p", "top_k"):
            value = getattr(sampling, key)
            if value is not None:
                body[key] = value
        if tools:
            body["tools"] = [{"name": t.name, "description": t.description, "input_schema": t.parameters} for t in tools]
        return body

    def parse_stream(self, lines: Iterator[str]) -> Iterator[StreamEvent]:
        state = _StreamState()
        for _, data in iter_sse(self.name, lines):
            event = decode_event_json(self.name, data)
            if not isinstance(event, dict):
                raise ProviderError(f"{self.name} stream ended unexpectedly: unexpected event {data[:120]!r}", "protocol")
            if event.get("type") == "message_stop":
                yield StreamEnd(state.finish_reason, state.usage)
                return
            yield from state.feed(self.name, event)
        raise ProviderError(
            f"{self.name} stream ended unexpectedly: the connection closed before message_stop", "protocol"
        )

    def parse_models(self, payload: Any) -> list[str]:
        return [str(entry["id"]) for entry in payload["data"]]


@dataclass
class _ToolBlock:
    id: str
    name: str
    initial_input: dict[str, Any]
    json_parts: list[str] = field(default_factory=list)


@dataclass
class _StreamState:
    tool_blocks: dict[int, _ToolBlock] = field(default_factory=dict)
    finish_reason: str = "stop"
    usage: dict[str, int] = field(default_factory=lambda: {"input_tokens": 0, "output_tokens": 0})

    def feed(self, provider: str, event: dict[str, Any]) -> Iterator[StreamEvent]:
        kind = event.get("type")
        if kind == "error":
            error = event.get("error") or {}
            raise ProviderError(
                f"{provider} reported an error mid-stream: {error.get('type', 'error')}: {error.get('message', '')}",
                "http",
            )
        if kind == "message_start":
            self._add_usage((event.get("message") or {}).get("usage") or {})
        elif kind == "content_block_start":
            block = event.get("content_block") or {}
            if block.get("type") == "tool_use":
                self.tool_blocks[event["index"]] = _ToolBlock(block["id"], block["name"], block.get("input") or {})
        elif kind == "content_block_delta":
            yield from self._delta(event["index"], event.get("delta") or {})
        elif kind == "content_block_stop":
            tool = self.tool_blocks.pop(event["index"], None)
            if tool is not None:
                raw = "".join(tool.json_parts) if tool.json_parts else tool.initial_input
                yield ToolCallEvent(parse_tool_arguments(tool.id, tool.name, raw))
        elif kind == "message_delta":
            reason = (event.get("delta") or {}).get("stop_reason")
            if reason:
                self.finish_reason = _FINISH.get(reason, reason)
            self._add_usage(event.get("usage") or {})

    def _delta(self, index: int, delta: dict[str, Any]) -> Iterator[StreamEvent]:
        if delta.get("type") == "text_delta" and delta.get("text"):
            yield TextDelta(delta["text"])
        elif delta.get("type") == "input_json_delta" and index in self.tool_blocks:
            self.tool_blocks[index].json_parts.append(delta.get("partial_json", ""))

    def _add_usage(self, usage: dict[str, Any]) -> None:
        # message_start carries the input count, message_delta the cumulative output count.
        for key in ("input_tokens", "output_tokens"):
            if usage.get(key) is not None:
                self.usage[key] = int(usage[key])


def _to_wire(messages: list[Message]) -> list[dict[str, Any]]:
    """Anthropic wants user/assistant turns of content blocks; tool results are user turns.

    Consecutive messages that land on the same role are merged into one turn, which
    is how several tool results answering one assistant turn must be sent.
    """
    turns: list[dict[str, Any]] = []
    for message in messages:
        role = "assistant" if message.role == "assistant" else "user"
        blocks = _blocks(message)
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"].extend(blocks)
        else:
            turns.append({"role": role, "content": blocks})
    return turns


def _blocks(message: Message) -> list[dict[str, Any]]:
    if message.role == "tool":
        return [{"type": "tool_result", "tool_use_id": message.tool_call_id, "content": message.content}]
    blocks: list[dict[str, Any]] = [{"type": "text", "text": message.content}] if message.content else []
    for call in message.tool_calls or []:
        blocks.append({"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments})
    return blocks
