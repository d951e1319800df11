"""A text protocol for models without native tool calls.

Small local models often have a chat template with no tool support: sent a tool schema
they ignore it, or the server refuses it. The agent still retrieves before the model
speaks; this protocol lets such a model search again by writing one line,
``SEARCH: <query>``, which becomes a ``searchDocs`` call. Tool calls and results go back
to it as plain assistant and user turns, which every chat template accepts.
"""

from __future__ import annotations

import itertools
from typing import Iterator

from .base import Message, StreamEvent, TextDelta, ToolCall, ToolCallEvent, ToolSpec

PREFIX = "SEARCH:"
SEARCH_TOOL = "searchDocs"
INSTRUCTION = ("\n\nTo search the documents again, reply with exactly one line `SEARCH: <query>` and nothing "
               "else; the results will come back to you. Otherwise answer from the evidence.")
_ids = itertools.count(1)


def text_messages(messages: list[Message], tools: list[ToolSpec]) -> list[Message]:
    """The conversation in plain turns: the instruction on the system message, calls as text."""
    searchable = any(t.name == SEARCH_TOOL for t in tools)
    out: list[Message] = []
    for m in messages:
        if m.role == "system" and searchable:
            out.append(Message("system", m.content + INSTRUCTION))
        elif m.role == "assistant" and m.tool_calls:
            lines = [f"{PREFIX} {c.arguments.get('query', '')}" for c in m.tool_calls]
            out.append(Message("assistant", "\n".join(filter(None, [m.content, *lines]))))
        elif m.role == "tool":
            out.append(Message("user", f"Results of {m.name or 'the search'}:\n{m.content}"))
        else:
            out.append(m)
    return out


class TextToolParser:
    """Turns ``SEARCH: q`` lines of streamed text into tool calls; passes the rest through.

    Text at the start of a line is held back only while it could still become
    ``SEARCH:``, so ordinary answers stream without delay.
    """

    def __init__(self) -> None:
        self._held = ""
        self._searching: list[str] | None = None
        self._line_start = True  # only a line's start may begin ``SEARCH:``

    def feed(self, text: str) -> Iterator[StreamEvent]:
        """The events of ``text``: what passes through as one delta per run, not per character."""
        passed: list[str] = []
        for char in text:
            for event in self._char(char):
                if isinstance(event, TextDelta):
                    passed.append(event.text)
                    continue
                if passed:
                    yield TextDelta("".join(passed))
                    passed = []
                yield event
        if passed:
            yield TextDelta("".join(passed))

    def _char(self, char: str) -> Iterator[StreamEvent]:
        if self._searching is not None:
            if char == "\n":
                yield from self._call()
            else:
                self._searching.append(char)
            return
        if not self._line_start:
            self._line_start = char == "\n"
            yield TextDelta(char)
            return
        self._held += char
        stripped = self._held.lstrip()
        if stripped.upper().startswith(PREFIX):
            self._searching = [stripped[len(PREFIX):]]
            self._held = ""
        elif char == "\n" or not PREFIX.startswith(stripped.upper()[:len(PREFIX)]):
            yield TextDelta(self._held)
            self._held = ""
            self._line_start = char == "\n"

    def _call(self) -> Iterator[StreamEvent]:
        query = "".join(self._searching or []).strip().strip("`").strip()
        self._searching = None
        if query:
            yield ToolCallEvent(ToolCall(f"text_{next(_ids)}", SEARCH_TOOL, {"query": query}))

    def finish(self) -> Iterator[StreamEvent]:
        if self._searching is not None:
            yield from self._call()
        elif self._held:
            yield TextDelta(self._held)
        self._held = ""
