"""Provider-neutral types and the shared streaming/health logic of every LLM adapter.

The agent loop speaks only these types; each adapter translates them to one wire
protocol. Keeping the translation in thin adapters (no vendor SDKs) means one place
to read when a server misbehaves, and one error type the loop has to handle.
"""

from __future__ import annotations

import json
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, fields, replace
from typing import Any, Callable, ClassVar, Iterable, Iterator, Literal, NamedTuple, Union

import httpx

from athena_lab.redact import redact_url

from athena_lab.errors import ProviderError
from .transport import Transport, error_detail

Role = Literal["system", "user", "assistant", "tool"]
ProviderKind = Literal["openai", "anthropic", "ollama"]


@dataclass(frozen=True)
class ToolCall:
    """A tool invocation requested by the model.

    `arguments_error` is set (and `arguments` empty) when the model produced
    arguments that are not a JSON object: that is the model's mistake, which the
    loop can report back to it, not a transport failure worth aborting for.
    """

    id: str
    name: str
    arguments: dict[str, Any]
    arguments_error: str | None = None


@dataclass(frozen=True)
class Message:
    role: Role
    content: str
    tool_calls: list[ToolCall] | None = None
    tool_call_id: str | None = None
    name: str | None = None


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    parameters: dict[str, Any]


@dataclass(frozen=True)
class SamplingParams:
    """Every field is optional: None means "leave it to the server's default"."""

    temperature: float | None = None
    top_p: float | None = None
    top_k: int | None = None
    repeat_penalty: float | None = None
    max_tokens: int | None = None
    context_size: int | None = None
    seed: int | None = None

    def overridden_by(self, other: SamplingParams | None) -> SamplingParams:
        """Per-request values win over configured ones, field by field."""
        if other is None:
            return self
        changes = {f.name: getattr(other, f.name) for f in fields(other) if getattr(other, f.name) is not None}
        return replace(self, **changes)


@dataclass(frozen=True)
class ProviderConfig:
    kind: ProviderKind
    base_url: str
    model: str
    api_key_env: str | None = None
    api_key: str | None = field(default=None, repr=False)
    timeout_s: float = 120.0
    sampling: SamplingParams = field(default_factory=SamplingParams)
    extra_headers: dict[str, str] = field(default_factory=dict, repr=False)
    retry_delay_s: float = 0.5


@dataclass(frozen=True)
class TextDelta:
    text: str


@dataclass(frozen=True)
class ToolCallEvent:
    call: ToolCall


@dataclass(frozen=True)
class StreamEnd:
    """finish_reason is normalised to stop / length / tool_calls (else the server's word).
    usage holds input_tokens and output_tokens when the server reported them."""

    finish_reason: str
    usage: dict[str, int]


@dataclass(frozen=True)
class PromptProgress:
    """How far the server has read the prompt, before the first token: llama.cpp's
    ``prompt_progress`` (``return_progress``), one per batch it reads. ``cached`` tokens
    came from its prompt cache and cost nothing; ``elapsed_ms`` is the reading so far."""

    processed: int
    total: int
    cached: int
    elapsed_ms: float


StreamEvent = Union[TextDelta, ToolCallEvent, StreamEnd, PromptProgress]


class Completion(NamedTuple):
    text: str
    tool_calls: list[ToolCall]
    usage: dict[str, int]


def completion_of(events: Iterable[StreamEvent]) -> Completion:
    """A stream's events gathered into one reply."""
    text: list[str] = []
    calls: list[ToolCall] = []
    usage: dict[str, int] = {}
    for event in events:
        if isinstance(event, TextDelta):
            text.append(event.text)
        elif isinstance(event, ToolCallEvent):
            calls.append(event.call)
        elif isinstance(event, StreamEnd):
            usage = event.usage
    return Completion("".join(text), calls, usage)


def split_system(messages: Iterable[Message]) -> tuple[str | None, list[Message]]:
    """Merge every system message into one: some chat templates reject a second."""
    system_parts: list[str] = []
    rest: list[Message] = []
    for message in messages:
        if message.role == "system":
            if message.content:
                system_parts.append(message.content)
        else:
            rest.append(message)
    return ("\n\n".join(system_parts) if system_parts else None), rest


def system_first(messages: list[Message], to_wire: Callable[[Message], dict[str, Any]]) -> list[dict[str, Any]]:
    """Chat-completions style: the one merged system message leads, the rest in order."""
    system, rest = split_system(messages)
    head = [{"role": "system", "content": system}] if system is not None else []
    return head + [to_wire(m) for m in rest]


def function_tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    """Tool specs in the `{"type": "function"}` shape OpenAI and Ollama share."""
    return [
        {"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}
        for t in tools
    ]


def parse_tool_arguments(call_id: str, name: str, raw: str | dict[str, Any] | None) -> ToolCall:
    """Turn streamed argument text into a ToolCall, keeping bad JSON as a model error."""
    if isinstance(raw, dict):
        return ToolCall(call_id, name, raw)
    if raw is None or not raw.strip():
        return ToolCall(call_id, name, {})
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        return ToolCall(call_id, name, {}, f"arguments are not valid JSON ({exc.msg}): {raw[:200]}")
    if not isinstance(value, dict):
        return ToolCall(call_id, name, {}, f"arguments must be a JSON object, got: {raw[:200]}")
    return ToolCall(call_id, name, value)


def decode_event_json(provider: str, payload: str) -> Any:
    try:
        return json.loads(payload)
    except json.JSONDecodeError as exc:
        raise ProviderError(
            f"{provider} stream ended unexpectedly: malformed JSON in a stream event "
            f"({exc.msg}): {payload[:120]!r}",
            "protocol",
        ) from None


def model_listed(model: str, available: list[str]) -> bool:
    """Ollama lists `name:tag`; asking for `name` means `name:latest`."""
    return model in available or (":" not in model and f"{model}:latest" in available)


class Provider(ABC):
    """Shared behaviour; an adapter supplies the wire format through the abstract hooks."""

    name: ClassVar[str]  # user-facing, used in every error message
    chat_path: ClassVar[str]
    models_path: ClassVar[str]

    def __init__(self, config: ProviderConfig, api_key: str | None = None) -> None:
        self.config = config
        self.model = config.model
        # Messages name the server; credentials in its URL must not reach them.
        self.base_url = redact_url(config.base_url.rstrip("/"))
        self._api_key = api_key
        self._transport = Transport(
            self.name,
            config.base_url.rstrip("/"),
            timeout_s=config.timeout_s,
            retry_delay_s=config.retry_delay_s,
            headers={**self.auth_headers(api_key), **config.extra_headers},
            secret=api_key,
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.model!r}, base_url={self.base_url!r})"

    # -- hooks for adapters -------------------------------------------------
    @abstractmethod
    def auth_headers(self, api_key: str | None) -> dict[str, str]:
        """Headers every request carries (the key's header, protocol version)."""

    @abstractmethod
    def build_body(self, messages: list[Message], tools: list[ToolSpec], sampling: SamplingParams) -> dict[str, Any]:
        """The JSON request body, with exactly one system message and only the set sampling fields."""

    @abstractmethod
    def parse_stream(self, lines: Iterator[str]) -> Iterator[StreamEvent]:
        """Events from response lines; ends with one StreamEnd or raises ProviderError."""

    @abstractmethod
    def parse_models(self, payload: Any) -> list[str]:
        """Model names from the server's listing body."""

    # -- public API ---------------------------------------------------------
    def stream(
        self,
        messages: list[Message],
        tools: list[ToolSpec] | None = None,
        sampling: SamplingParams | None = None,
    ) -> Iterator[StreamEvent]:
        """Yield TextDelta / ToolCallEvent (and a local server's PromptProgress) as they
        arrive, then exactly one StreamEnd."""
        body = self.build_body(messages, tools or [], self.config.sampling.overridden_by(sampling))
        with self._transport.open("POST", self.chat_path, body) as response:
            if response.status_code >= 400:
                raise self._http_error(response)
            yield from self.parse_stream(self._transport.lines(response))

    def complete(
        self,
        messages: list[Message],
        tools: list[ToolSpec] | None = None,
        sampling: SamplingParams | None = None,
    ) -> Completion:
        return completion_of(self.stream(messages, tools, sampling))

    def list_models(self) -> list[str] | None:
        """Models the server offers, or None when it has no listing endpoint."""
        status, payload = self._transport.get_json(self.models_path)
        if status >= 400 or payload is None:
            return None
        try:
            return self.parse_models(payload)
        except (KeyError, TypeError, AttributeError):
            return None

    def health(self) -> dict[str, Any]:
        """Cheap probe (a model listing, no generation) for the health endpoint."""
        started = time.perf_counter()
        try:
            models = self.list_models()
        except ProviderError as exc:
            return {"reachable": False, "model_present": False, "latency_ms": _ms(started), "error": exc.message}
        present = None if models is None else model_listed(self.model, models)
        error = None if present is not False else f"model '{self.model}' not found at {self.base_url}"
        return {"reachable": True, "model_present": present, "latency_ms": _ms(started), "error": error}

    def close(self) -> None:
        self._transport.close()

    # -- error mapping ------------------------------------------------------
    def _http_error(self, response: httpx.Response) -> ProviderError:
        status = response.status_code
        detail = self._transport.redact(error_detail(response))
        if status in (401, 403):
            return ProviderError(self._auth_message(status), "auth")
        if status in (400, 404) and _mentions_missing_model(detail):
            return ProviderError(self._model_missing_message(), "model_not_found")
        if status == 404:
            models = self._safe_list_models()
            if models is not None and not model_listed(self.model, models):
                return ProviderError(self._model_missing_message(models), "model_not_found")
            return ProviderError(
                f"{self.name} at {self.base_url} has no {self.chat_path} endpoint (HTTP 404: {detail}); "
                "check base_url",
                "http",
            )
        if status == 429:
            retry = response.headers.get("retry-after")
            hint = f"; retry after {retry} s" if retry else ""
            return ProviderError(f"{self.name} at {self.base_url} is rate limiting requests (HTTP 429: {detail}){hint}")
        return ProviderError(f"{self.name} at {self.base_url} failed: HTTP {status}: {detail}")

    def _auth_message(self, status: int) -> str:
        where = f"set {self.config.api_key_env}" if self.config.api_key_env else "set api_key_env (or api_key) in the provider config"
        if self._api_key:
            return f"API key rejected by {self.name} at {self.base_url} (HTTP {status}); {where}"
        return f"{self.name} at {self.base_url} requires an API key (HTTP {status}); {where}"

    def _model_missing_message(self, models: list[str] | None = None) -> str:
        if models is None:
            models = self._safe_list_models()
        message = f"model '{self.model}' not found at {self.base_url}"
        if models:
            shown = ", ".join(models[:20]) + (", …" if len(models) > 20 else "")
            message += f"; available: {shown}"
        return message

    def _safe_list_models(self) -> list[str] | None:
        try:
            return self.list_models()
        except ProviderError:
            return None


def _mentions_missing_model(detail: str) -> bool:
    text = detail.lower()
    return "model" in text and any(p in text for p in ("not found", "not_found", "does not exist", "not exist", "unknown model", "no such"))


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)
