"""The typed events of one chat turn: the single stream every front end consumes.

The loop yields these; HTTP serialises them as SSE, the widget and magic read them
directly, the CLI prints them. Order within a turn: start, trace, sources, trace…,
sources?, compaction?, trace…, progress…, chunk…, citations, done — or error, which ends
the stream.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

EVENT_TYPES = ("start", "trace", "sources", "progress", "chunk", "citations", "compaction", "done", "error")


@dataclass(frozen=True)
class Event:
    type: str
    data: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.type not in EVENT_TYPES:
            raise ValueError(f"unknown event type {self.type!r}; use one of: {', '.join(EVENT_TYPES)}")

    def to_sse(self) -> str:
        """`event: <type>\\ndata: <json>\\n\\n` — one JSON line, so no data field needs splitting."""
        return f"event: {self.type}\ndata: {json.dumps(self.data, ensure_ascii=False, default=str)}\n\n"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "data": self.data}


def start(conversation_id: str) -> Event:
    return Event("start", {"conversation_id": conversation_id})


def trace(tool: str, tool_input: dict[str, Any], summary: str, **extra: Any) -> Event:
    return Event("trace", {"tool": tool, "input": tool_input, "summary": summary, **extra})


def chunk(content: str) -> Event:
    return Event("chunk", {"content": content})


def error(message: str) -> Event:
    return Event("error", {"message": message})
