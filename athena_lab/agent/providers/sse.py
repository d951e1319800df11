"""Server-sent events, as OpenAI-compatible servers and Anthropic stream them."""

from __future__ import annotations

from typing import Iterator

from athena_lab.errors import ProviderError


def iter_sse(provider: str, lines: Iterator[str]) -> Iterator[tuple[str | None, str]]:
    """Yield (event name, data) per event; a blank line ends an event.

    A line that is plain JSON means the server ignored `stream: true` or a proxy
    answered instead; saying so beats reporting a vague missing terminator.
    """
    event: str | None = None
    data: list[str] = []
    for line in lines:
        if not line:
            if data:
                yield event, "\n".join(data)
            event, data = None, []
        elif line.startswith(":"):
            continue
        elif line.startswith("{") or line.startswith("<"):
            raise ProviderError(
                f"{provider} did not answer with an event stream: {line[:160]!r}", "protocol"
            )
        else:
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "data":
                data.append(value)
            elif name == "event":
                event = value
    if data:
        yield event, "\n".join(data)
