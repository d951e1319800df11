"""Connections that never finish their request cannot lock the owner out (issue 31).

A client that opens a connection, sends a request line and stops costs ``athena serve`` one
file descriptor for as long as the header timeout (``server.idle_timeout_s``, 30 s). 1,100
of them from one address, under the 1,024 descriptors a service gets by default, used
every descriptor: accepting failed with EMFILE on every turn of the event loop, each
failure was logged with its traceback (76,000 lines), and the owner's requests timed out.

``GuardedHTTPServer`` keeps the connections that are *waiting for a whole request* (a new
one, a keep-alive one between requests, or one whose headers came but whose body has not)
in order of age, per client address and in all. A new connection from an address already
holding ``per_address`` waiting ones closes that address's oldest waiting one; past
``total`` waiting ones in all, the oldest anywhere goes. A connection whose request has
arrived is being served and is never closed this way, so an owner who sends a whole
request is answered however many half-sent ones the flood keeps open. If descriptors run out anyway (many addresses), accepting pauses for a
second instead of spinning. A flood is logged once per ``FloodLog.interval_s``: how many
connections were closed or refused, from how many addresses, and the busiest.

Behind a reverse proxy every connection comes from the proxy, which reads a client's
request itself before it passes it on: its requests arrive whole, so the limit does not
bite (docs/deploy.md). Inside Jupyter, Jupyter's own server accepts connections.
"""

from __future__ import annotations

import errno
import logging
import resource
import socket
import threading
import time
from collections import Counter, OrderedDict
from typing import Any, Callable

from tornado import httputil
from tornado.httpserver import HTTPServer
from tornado.ioloop import IOLoop
from tornado.iostream import IOStream
from tornado.log import access_log

from .addresses import client_key

log = logging.getLogger("athena_lab.server")

PER_ADDRESS = 64  # waiting connections one address may hold (a browser opens about 6)
TOTAL = 768  # waiting connections in all: well under the 1,024 descriptors of a default service
ACCEPT_PAUSE_S = 1.0  # after EMFILE/ENFILE: stop accepting this long, then try again
FD_LIMIT = 65536  # the soft descriptor limit `athena serve` raises itself to, when the hard one allows


class FloodLog:
    """Counts what the guard closed or refused and writes at most one line per interval, not
    one per connection (a flood of log lines is a flood of its own): the first event of a
    quiet spell is written at once, what follows in the interval is summed into one line
    written when the interval ends. Refused requests (4xx answers, ``access``) are written
    one by one up to ``burst`` an interval, as tornado's access log would, and counted
    beyond that."""

    def __init__(self, interval_s: float = 60.0, clock: Callable[[], float] = time.monotonic,
                 later: Callable[[float, Callable[[], None]], Any] | None = None, burst: int = 20) -> None:
        self.interval_s, self.burst = interval_s, burst
        self._clock = clock
        self._later = later or (lambda delay, fn: IOLoop.current().call_later(delay, fn))
        self._lock = threading.Lock()
        self._last_line = float("-inf")
        self._pending = False
        self._closed: Counter[str] = Counter()
        self._refused = 0
        self._answered: Counter[int] = Counter()  # refused requests past the burst, by status
        self._answered_from: Counter[str] = Counter()
        self._window = (float("-inf"), 0)  # (when this interval began, requests written one by one in it)
        self.lines = 0  # written so far (tests read it)

    def access(self, handler: Any) -> None:
        """tornado's ``log_function``: a request logged as tornado logs it (info below 400,
        warning for 4xx, error for 5xx), except that 4xx answers past ``burst`` in an interval
        are counted into the flood line (a client sending 10,000 wrong tokens a second
        otherwise writes 10,000 lines)."""
        status = handler.get_status()
        line = "%d %s %.2fms"
        args = (status, handler._request_summary(), 1000.0 * handler.request.request_time())
        if status < 400:
            access_log.info(line, *args)
        elif status >= 500:
            access_log.error(line, *args)
        elif self._one_by_one():
            access_log.warning(line, *args)
        else:
            with self._lock:
                self._answered[status] += 1
                self._answered_from[client_key(handler.request.remote_ip)] += 1
            self._event()

    def _one_by_one(self) -> bool:
        with self._lock:
            began, written = self._window
            now = self._clock()
            if now - began >= self.interval_s:
                began, written = now, 0
            self._window = (began, written + 1)
            return written < self.burst

    def closed(self, address: str) -> None:
        with self._lock:
            self._closed[address] += 1
        self._event()

    def refused(self) -> None:
        with self._lock:
            self._refused += 1
        self._event()

    def _event(self) -> None:
        with self._lock:
            wait = self._last_line + self.interval_s - self._clock()
            if wait > 0:
                if not self._pending:
                    self._pending = True
                    self._later(wait, self.flush)
                return
        self.flush()

    def flush(self) -> None:
        """Write what was counted since the last line, if anything."""
        with self._lock:
            closed, refused, answered, answered_from = self._closed, self._refused, self._answered, self._answered_from
            self._closed, self._refused, self._pending = Counter(), 0, False
            self._answered, self._answered_from = Counter(), Counter()
            if not closed and not refused and not answered:
                return
            self._last_line = self._clock()
        parts = []
        if answered:
            busiest, count = answered_from.most_common(1)[0]
            statuses = ", ".join(f"{status}: {n:,}" for status, n in sorted(answered.items()))
            parts.append(f"refused {sum(answered.values()):,} more request(s) ({statuses}) from "
                         f"{len(answered_from):,} address(es) (most from {busiest}: {count:,})")
        if closed:
            busiest, count = closed.most_common(1)[0]
            parts.append(f"closed {sum(closed.values()):,} connection(s) still waiting for a whole request, "
                         f"from {len(closed):,} address(es) (most from {busiest}: {count:,})")
        if refused:
            parts.append(f"out of file descriptors {refused:,} time(s): paused accepting for {ACCEPT_PAUSE_S:.0f} s")
        log.warning("flood: %s; the next report in %.0f s at the earliest", "; ".join(parts),
                    self.interval_s)
        self.lines += 1


class _Waiting:
    """The connections waiting for a whole request: per address and in all, oldest first."""

    def __init__(self, per_address: int, total: int) -> None:
        self.per_address, self.total = max(1, per_address), max(1, total)
        self.all: OrderedDict[IOStream, str] = OrderedDict()
        self.by_address: dict[str, OrderedDict[IOStream, None]] = {}

    def add(self, stream: IOStream, address: str) -> None:
        self.all[stream] = address
        self.by_address.setdefault(address, OrderedDict())[stream] = None

    def remove(self, stream: IOStream) -> None:
        address = self.all.pop(stream, None)
        if address is None:
            return
        mine = self.by_address.get(address)
        if mine is not None:
            mine.pop(stream, None)
            if not mine:
                del self.by_address[address]

    def to_close(self, address: str) -> list[IOStream]:
        """The waiting connections to close so one more from ``address`` fits both limits."""
        out: list[IOStream] = []
        mine = list(self.by_address.get(address, ()))
        out.extend(mine[:max(0, len(mine) - self.per_address + 1)])
        excess = len(self.all) - len(out) - self.total + 1
        for stream in self.all:
            if excess <= 0:
                break
            if stream not in out:
                out.append(stream)
                excess -= 1
        return out


class _RequestSeen(httputil.HTTPMessageDelegate):
    """The request's own delegate, told first that the whole request (headers and body) arrived."""

    def __init__(self, delegate: httputil.HTTPMessageDelegate, seen: Callable[[], None]) -> None:
        self.delegate, self.seen = delegate, seen

    def headers_received(self, start_line: Any, headers: httputil.HTTPHeaders) -> Any:
        return self.delegate.headers_received(start_line, headers)

    def data_received(self, chunk: bytes) -> Any:
        return self.delegate.data_received(chunk)

    def finish(self) -> None:
        self.seen()
        self.delegate.finish()

    def on_connection_close(self) -> None:
        self.delegate.on_connection_close()


class GuardedHTTPServer(HTTPServer):
    """Tornado's HTTP server with the limits of the module docstring."""

    def initialize(self, *args: Any, per_address: int = PER_ADDRESS, total: int = TOTAL,  # type: ignore[override]
                   flood_log: FloodLog | None = None, **kwargs: Any) -> None:
        super().initialize(*args, **kwargs)
        self._waiting = _Waiting(per_address, total)
        self._address_of: dict[IOStream, str] = {}
        self.flood_log = flood_log or FloodLog()

    def handle_stream(self, stream: IOStream, address: Any) -> None:
        key = client_key(address[0]) if isinstance(address, tuple) and address else "local"
        for old in self._waiting.to_close(key):
            self.flood_log.closed(self._waiting.all.get(old, key))
            self._waiting.remove(old)
            old.close()
        self._address_of[stream] = key
        super().handle_stream(stream, address)

    def start_request(self, server_conn: Any, request_conn: httputil.HTTPConnection) -> httputil.HTTPMessageDelegate:
        """Called as a connection starts waiting for a request (its first, or the next on a
        keep-alive connection): it is waiting until that request has arrived whole."""
        stream: IOStream = server_conn.stream
        key = self._address_of.get(stream, "local")
        self._waiting.add(stream, key)
        return _RequestSeen(super().start_request(server_conn, request_conn), lambda: self._waiting.remove(stream))

    def on_close(self, server_conn: Any) -> None:
        stream: IOStream = server_conn.stream
        self._waiting.remove(stream)
        self._address_of.pop(stream, None)
        super().on_close(server_conn)

    def add_sockets(self, sockets: Any) -> None:
        """Listen as tornado does, but with an accept loop that pauses on EMFILE (below)."""
        for sock in sockets:
            self._sockets[sock.fileno()] = sock
            self._handlers[sock.fileno()] = _accept_handler(sock, self._handle_connection, self.flood_log)


def _accept_handler(sock: socket.socket, callback: Callable[[socket.socket, Any], None],
                    flood_log: FloodLog) -> Callable[[], None]:
    """``tornado.netutil.add_accept_handler`` with one change: when the process is out of
    file descriptors, accepting pauses for ``ACCEPT_PAUSE_S`` (counted in the flood log)
    instead of raising on every turn of the loop, which spun the CPU and wrote a traceback
    each time. Returns the function that stops accepting."""
    loop = IOLoop.current()
    state = {"removed": False, "paused": False}

    def resume() -> None:
        if not state["removed"]:
            state["paused"] = False
            loop.add_handler(sock, accept, IOLoop.READ)

    def accept(fd: Any, events: int) -> None:
        for _ in range(128):
            if state["removed"] or state["paused"]:
                return
            try:
                connection, address = sock.accept()
            except BlockingIOError:
                return
            except ConnectionAbortedError:
                continue
            except OSError as exc:
                if exc.errno not in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    raise
                flood_log.refused()
                state["paused"] = True
                loop.remove_handler(sock)
                loop.call_later(ACCEPT_PAUSE_S, resume)
                return
            callback(connection, address)

    def remove() -> None:
        if not state["paused"]:
            loop.remove_handler(sock)
        state["removed"] = True

    loop.add_handler(sock, accept, IOLoop.READ)
    return remove


def raise_descriptor_limit(wanted: int = FD_LIMIT) -> int:
    """Raise this process's soft limit on open files towards ``wanted`` (as far as the hard
    limit allows; a service's default soft limit is 1,024); the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            return target
        except (ValueError, OSError):
            pass
    return soft
