"""A real HTTP server on 127.0.0.1 that plays the attacker's host: it records every request
(so a test can prove nothing — no bearer token, no document — was sent to it) and answers
with a scripted status and body (so a test can make it echo what it was sent, as some
provider and embedding servers do in their error messages).

    with RecordingServer(status=401, echo=True) as attacker:
        ... point something at attacker.url ...
    assert attacker.requests == []
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from wire_servers import RecordedRequest as Seen  # body: the raw bytes here


class RecordingServer:
    def __init__(self, status: int = 200, echo: bool = False, padding: int = 0) -> None:
        """``echo``: the answer's body repeats the request's headers (credentials included),
        followed by ``padding`` filler characters."""
        self.status, self.echo, self.padding = status, echo, padding
        self.requests: list[Seen] = []
        self._httpd: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self._httpd is not None, "not started"
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def __enter__(self) -> RecordingServer:
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._httpd.daemon_threads = True
        threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def __exit__(self, *exc: Any) -> None:
        assert self._httpd is not None
        self._httpd.shutdown()
        self._httpd.server_close()

    def answer(self, seen: Seen) -> bytes:
        if not self.echo:
            return json.dumps({"data": [], "object": "list"}).encode()
        # The Authorization header first: a client that keeps only the start of an error
        # body must still not repeat it.
        headers = sorted(seen.headers.items(), key=lambda kv: kv[0] != "authorization")
        echoed = " ".join(f"{k}: {v}" for k, v in headers)
        return json.dumps({"error": {"message": f"rejected request with {echoed} {'x' * self.padding}"}}).encode()

    def carried(self, secret: str) -> bool:
        """True if any recorded request held ``secret`` in a header or its body."""
        return any(secret in " ".join(r.headers.values()) or secret.encode() in r.body for r in self.requests)


def _handler(server: RecordingServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _serve(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            seen = Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()},
                        self.rfile.read(length) if length else b"")
            server.requests.append(seen)
            body = server.answer(seen)
            self.send_response(server.status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _serve

    return Handler
