"""Server-sent events: a blocking event generator streamed through tornado.

The agent loop is a plain (blocking) generator: it calls the LLM and the index. It runs
in a worker thread so the IOLoop keeps serving other requests; each event crosses to the
loop through a queue and is flushed immediately, so the client sees every chunk as it is
produced. A client that goes away sets a flag the worker checks between events, so the
generator is closed (its ``finally`` blocks run) instead of talking to nobody.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from concurrent.futures import Executor
from typing import Any, Callable, Iterator

from tornado.iostream import StreamClosedError
from tornado.web import RequestHandler

KEEPALIVE_S = 15.0  # a comment line this often keeps proxies from closing a quiet stream
_END = object()


def start_stream(handler: RequestHandler) -> None:
    handler.set_status(200)
    handler.set_header("Content-Type", "text/event-stream; charset=utf-8")
    handler.set_header("Cache-Control", "no-cache")
    handler.set_header("X-Accel-Buffering", "no")  # nginx: do not buffer the stream


class EventPump:
    """Runs ``make_events()`` in ``executor`` and hands its events to the IOLoop."""

    def __init__(self, make_events: Callable[[], Iterator[Any]], executor: Executor,
                 context: contextvars.Context | None = None) -> None:
        """``context``: the context variables the events are made under (state.FOR_OWNER)."""
        self._make_events = make_events
        self._executor = executor
        self._context = context or contextvars.copy_context()
        self.cancelled = threading.Event()
        self._queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self._loop = asyncio.get_running_loop()

    def cancel(self) -> None:
        """Called when the client disconnects: stop at the next event and wake the reader."""
        self.cancelled.set()
        self._loop.call_soon_threadsafe(self._queue.put_nowait, ("end", _END))

    def _put(self, kind: str, item: Any) -> None:
        try:
            self._loop.call_soon_threadsafe(self._queue.put_nowait, (kind, item))
        except RuntimeError:  # the loop closed (server shutting down): nobody to tell
            self.cancelled.set()

    def _run(self) -> None:
        events = None
        try:
            events = self._make_events()
            for event in events:
                if self.cancelled.is_set():
                    break
                self._put("event", event)
        except Exception as exc:  # reported to the client as an error event
            self._put("raise", exc)
        finally:
            close = getattr(events, "close", None)
            if close is not None:
                close()
            self._put("end", _END)

    def start(self) -> asyncio.Future:
        return self._loop.run_in_executor(self._executor, self._context.run, self._run)

    async def next(self) -> tuple[str, Any]:
        """("event", e) | ("raise", exc) | ("end", None) | ("idle", None) after KEEPALIVE_S."""
        try:
            kind, item = await asyncio.wait_for(self._queue.get(), KEEPALIVE_S)
        except asyncio.TimeoutError:
            return "idle", None
        return kind, (None if item is _END else item)


async def send(handler: RequestHandler, text: str) -> bool:
    """Write and flush one piece of the stream; False when the client has gone."""
    try:
        handler.write(text)
        await handler.flush()
        return True
    except StreamClosedError:
        return False
