"""Real HTTP servers on 127.0.0.1 that speak the LLM wire protocols, scripted per test.

They stream over chunked HTTP/1.1 like the real servers, so a test exercises the same
bytes, framing and failure modes (socket closed mid-stream, malformed JSON, 401, 404
with a model listing) that a user's provider produces.

    server = OpenAIWireServer([Turn(text=["Hel", "lo"])], models=["tiny"])
    with server as url:                      # url is the provider's base_url
        ...
    server.requests[0].body                  # what the client sent, parsed JSON

A script is a list of Turns (one per chat request, in order) or a callable
`(RecordedRequest) -> Turn` for tests that answer depending on what was asked.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Sequence, Union


@dataclass(frozen=True)
class ScriptedToolCall:
    id: str
    name: str
    arguments: dict[str, Any] | str  # a str is sent verbatim: broken JSON from a weak model


@dataclass(frozen=True)
class Turn:
    """One scripted reply to a chat request."""

    text: Sequence[str] = ()
    tool_calls: Sequence[ScriptedToolCall] = ()
    usage: tuple[int, int] = (11, 7)  # (input tokens, output tokens)
    cut_after: int | None = None  # close the socket after this many stream events
    malformed_after: int | None = None  # send a truncated JSON event after this many
    drop_connection: bool = False  # read the request, close without any response
    status: int = 200
    error: str = ""  # message for a scripted HTTP error (status >= 400)
    event_delay_s: float = 0.0
    # after this many stream events, wait (up to a minute) until `hold` is set: a test does
    # what it must while the answer is surely mid-stream, then lets the rest come
    hold_after: int | None = None
    hold: threading.Event | None = None
    arg_chunk: int = 7  # tool-call argument JSON is streamed in pieces this long
    raw_events: Sequence[bytes] | None = None  # sent verbatim instead of rendering the turn


@dataclass(frozen=True)
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


Script = Union[Sequence[Turn], Callable[[RecordedRequest], Turn]]


class WireServer:
    """Protocol-neutral server; subclasses render turns and errors in one vendor's format."""

    url_suffix = ""
    chat_path = ""
    models_path = ""
    content_type = "text/event-stream"

    def __init__(
        self,
        script: Script = (),
        *,
        models: Sequence[str] | None = None,
        api_key: str | None = None,
        port: int = 0,
    ) -> None:
        self.script = script
        self.models = list(models) if models is not None else None
        self.api_key = api_key
        self.port = port
        self.requests: list[RecordedRequest] = []
        self.connections = 0
        self._turn_index = 0
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self._httpd is not None, "server not started"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}{self.url_suffix}"

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.method == "POST"]

    def __enter__(self) -> str:
        self._httpd = _Server(("127.0.0.1", self.port), _handler_for(self))
        threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
        return self.url

    def __exit__(self, *exc: object) -> None:
        assert self._httpd is not None
        self._httpd.shutdown()
        self._httpd.server_close()

    # -- vendor hooks -------------------------------------------------------
    def render(self, turn: Turn, request: RecordedRequest) -> list[bytes]:
        raise NotImplementedError

    def malformed_event(self) -> bytes:
        raise NotImplementedError

    def error_body(self, status: int, message: str) -> dict[str, Any]:
        raise NotImplementedError

    def models_body(self, models: list[str]) -> dict[str, Any]:
        raise NotImplementedError

    def model_missing_message(self, model: str) -> tuple[int, str]:
        raise NotImplementedError

    def serves(self, model: str) -> bool:
        return model in (self.models or [])

    def presented_key(self, headers: dict[str, str]) -> str | None:
        auth = headers.get("authorization", "")
        return auth[len("Bearer ") :] if auth.startswith("Bearer ") else None

    # -- request handling ---------------------------------------------------
    def next_turn(self, request: RecordedRequest) -> Turn:
        if callable(self.script):
            return self.script(request)
        with self._lock:
            if self._turn_index >= len(self.script):
                return Turn(status=500, error=f"wire server script exhausted after {len(self.script)} turns")
            turn = self.script[self._turn_index]
            self._turn_index += 1
            return turn


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True


def _handler_for(server: WireServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
            pass

        def setup(self) -> None:
            super().setup()
            with server._lock:
                server.connections += 1

        def do_GET(self) -> None:
            request = self._record(None)
            if not self._authorised(request):
                return
            if request.path == server.url_suffix + server.models_path and server.models is not None:
                self._send_json(200, server.models_body(server.models))
            else:
                self._send_json(404, server.error_body(404, f"no route for GET {request.path}"))

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length)
            request = self._record(json.loads(raw) if raw else None)
            if request.path != server.url_suffix + server.chat_path:
                self._send_json(404, server.error_body(404, f"no route for POST {request.path}"))
                return
            if not self._authorised(request):
                return
            model = (request.body or {}).get("model")
            if server.models is not None and not server.serves(str(model)):
                status, message = server.model_missing_message(str(model))
                self._send_json(status, server.error_body(status, message))
                return
            self._reply(server.next_turn(request), request)

        def _record(self, body: Any) -> RecordedRequest:
            request = RecordedRequest(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            with server._lock:
                server.requests.append(request)
            return request

        def _authorised(self, request: RecordedRequest) -> bool:
            if server.api_key is None:
                return True
            presented = server.presented_key(request.headers)
            if presented == server.api_key:
                return True
            # Echo the presented key like some servers do: clients must redact it.
            self._send_json(401, server.error_body(401, f"invalid api key: {presented}"))
            return False

        def _reply(self, turn: Turn, request: RecordedRequest) -> None:
            if turn.drop_connection:
                self._drop()
                return
            if turn.status >= 400:
                self._send_json(turn.status, server.error_body(turn.status, turn.error))
                return
            self.send_response(200)
            self.send_header("Content-Type", server.content_type)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            try:
                events = list(turn.raw_events) if turn.raw_events is not None else server.render(turn, request)
                self._stream(turn, events)
            except OSError:
                pass  # the client gave up (timeout tests): nothing left to tell it

        def _stream(self, turn: Turn, events: list[bytes]) -> None:
            for number, event in enumerate(events):
                if turn.cut_after is not None and number == turn.cut_after:
                    self._drop()
                    return
                if turn.malformed_after is not None and number == turn.malformed_after:
                    self._chunk(server.malformed_event())
                if turn.hold is not None and number == turn.hold_after:
                    turn.hold.wait(timeout=60)
                if turn.event_delay_s:
                    time.sleep(turn.event_delay_s)
                self._chunk(event)
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

        def _chunk(self, data: bytes) -> None:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()

        def _drop(self) -> None:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True

        def _send_json(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


def _pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def _arguments_text(call: ScriptedToolCall) -> str:
    return call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments)


def _sse(payload: Any, event: str | None = None) -> bytes:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(payload)}\n\n".encode()


class OpenAIWireServer(WireServer):
    """OpenAI chat completions SSE, as llama.cpp server, vLLM and Ollama /v1 send it."""

    url_suffix = "/v1"
    chat_path = "/chat/completions"
    models_path = "/models"

    def render(self, turn: Turn, request: RecordedRequest) -> list[bytes]:
        model = request.body.get("model")

        def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
            choice = {"index": 0, "delta": delta, "finish_reason": finish}
            return _sse({"id": "chatcmpl-1", "object": "chat.completion.chunk", "model": model, "choices": [choice]})

        events = [chunk({"role": "assistant", "content": ""})]
        events += [chunk({"content": piece}) for piece in turn.text]
        for index, call in enumerate(turn.tool_calls):
            head = {"index": index, "id": call.id, "type": "function", "function": {"name": call.name, "arguments": ""}}
            events.append(chunk({"tool_calls": [head]}))
            for piece in _pieces(_arguments_text(call), turn.arg_chunk):
                events.append(chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}))
        events.append(chunk({}, "tool_calls" if turn.tool_calls else "stop"))
        if (request.body.get("stream_options") or {}).get("include_usage"):
            prompt, completion = turn.usage
            usage = {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
            events.append(_sse({"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [], "usage": usage}))
        events.append(b"data: [DONE]\n\n")
        return events

    def malformed_event(self) -> bytes:
        return b'data: {"id": "chatcmpl-1", "choices": [{"delta": {"content": "trunc\n\n'

    def error_body(self, status: int, message: str) -> dict[str, Any]:
        kind = {401: "authentication_error"}.get(status, "server_error" if status >= 500 else "invalid_request_error")
        return {"error": {"message": message, "type": kind, "param": None, "code": None}}

    def models_body(self, models: list[str]) -> dict[str, Any]:
        return {"object": "list", "data": [{"id": m, "object": "model", "owned_by": "test"} for m in models]}

    def model_missing_message(self, model: str) -> tuple[int, str]:
        return 404, f"The model `{model}` does not exist or you do not have access to it."


class AnthropicWireServer(WireServer):
    """Anthropic Messages API event stream."""

    chat_path = "/v1/messages"
    models_path = "/v1/models"

    def presented_key(self, headers: dict[str, str]) -> str | None:
        return headers.get("x-api-key")

    def render(self, turn: Turn, request: RecordedRequest) -> list[bytes]:
        prompt, completion = turn.usage
        message = {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "content": [],
            "model": request.body.get("model"),
            "stop_reason": None,
            "usage": {"input_tokens": prompt, "output_tokens": 1},
        }
        events = [_sse({"type": "message_start", "message": message}, "message_start"), _sse({"type": "ping"}, "ping")]
        index = 0
        if turn.text:
            events.append(_block_start(index, {"type": "text", "text": ""}))
            events += [_block_delta(index, {"type": "text_delta", "text": piece}) for piece in turn.text]
            events.append(_sse({"type": "content_block_stop", "index": index}, "content_block_stop"))
            index += 1
        for call in turn.tool_calls:
            events.append(_block_start(index, {"type": "tool_use", "id": call.id, "name": call.name, "input": {}}))
            for piece in _pieces(_arguments_text(call), turn.arg_chunk):
                events.append(_block_delta(index, {"type": "input_json_delta", "partial_json": piece}))
            events.append(_sse({"type": "content_block_stop", "index": index}, "content_block_stop"))
            index += 1
        stop = "tool_use" if turn.tool_calls else "end_turn"
        delta = {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": completion}}
        events.append(_sse(delta, "message_delta"))
        events.append(_sse({"type": "message_stop"}, "message_stop"))
        return events

    def malformed_event(self) -> bytes:
        return b'event: content_block_delta\ndata: {"type": "content_block_delta", "index": 0, "delta": {"type\n\n'

    def error_body(self, status: int, message: str) -> dict[str, Any]:
        kinds = {401: "authentication_error", 404: "not_found_error", 429: "rate_limit_error"}
        return {"type": "error", "error": {"type": kinds.get(status, "api_error"), "message": message}}

    def models_body(self, models: list[str]) -> dict[str, Any]:
        data = [{"type": "model", "id": m, "display_name": m} for m in models]
        return {"data": data, "has_more": False, "first_id": models[0] if models else None, "last_id": None}

    def model_missing_message(self, model: str) -> tuple[int, str]:
        return 404, f"model: {model}"


def _block_start(index: int, block: dict[str, Any]) -> bytes:
    return _sse({"type": "content_block_start", "index": index, "content_block": block}, "content_block_start")


def _block_delta(index: int, delta: dict[str, Any]) -> bytes:
    return _sse({"type": "content_block_delta", "index": index, "delta": delta}, "content_block_delta")


class OllamaWireServer(WireServer):
    """Ollama's native /api/chat: one JSON object per line."""

    chat_path = "/api/chat"
    models_path = "/api/tags"
    content_type = "application/x-ndjson"

    def render(self, turn: Turn, request: RecordedRequest) -> list[bytes]:
        model = request.body.get("model")

        def line(message: dict[str, Any], **extra: Any) -> bytes:
            payload = {"model": model, "created_at": "2025-01-01T00:00:00Z", "message": message, **extra}
            return (json.dumps(payload) + "\n").encode()

        events = [line({"role": "assistant", "content": piece}, done=False) for piece in turn.text]
        if turn.tool_calls:
            calls = [{"function": {"name": c.name, "arguments": c.arguments}} for c in turn.tool_calls]
            events.append(line({"role": "assistant", "content": "", "tool_calls": calls}, done=False))
        prompt, completion = turn.usage
        events.append(
            line(
                {"role": "assistant", "content": ""},
                done=True,
                done_reason="stop",
                prompt_eval_count=prompt,
                eval_count=completion,
                total_duration=1000,
            )
        )
        return events

    def serves(self, model: str) -> bool:
        return model in (self.models or []) or f"{model}:latest" in (self.models or [])

    def malformed_event(self) -> bytes:
        return b'{"model": "m", "message": {"role": "assistant", "content": "trunc\n'

    def error_body(self, status: int, message: str) -> dict[str, Any]:
        return {"error": message}

    def models_body(self, models: list[str]) -> dict[str, Any]:
        return {"models": [{"name": m, "model": m, "size": 1} for m in models]}

    def model_missing_message(self, model: str) -> tuple[int, str]:
        return 404, f'model "{model}" not found, try pulling it first'


def free_port() -> int:
    """A port nothing listens on (yet): connecting to it is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
