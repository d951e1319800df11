"""Stopping an index run without losing its work: Ctrl-C, SIGTERM, or a server shutting down.

While embedding, a stop request is honoured between batches: the batch in flight
finishes, everything embedded so far is committed (graph and catalog), and the run
returns a summary that says it was interrupted. Outside embedding (scanning, parsing,
the lexical commit) a signal interrupts at once: that work is one transaction that
rolls back, so stopping there loses nothing that was ever committed. A second signal
while the first is being honoured interrupts at once too — the way out of a stuck run.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Any, Iterator

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class IndexInterrupted(KeyboardInterrupt):
    """A signal stopped the run where nothing could be saved first (it rolled back)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class StopRequest:
    """A flag the embedding loop checks between batches; set by a signal or another thread."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.reason: str | None = None
        self.deferrable = False  # True while the run can stop cleanly at the next batch

    def request(self, reason: str) -> None:
        self.reason = self.reason or reason
        self._event.set()

    def is_set(self) -> bool:
        return self._event.is_set()


@contextmanager
def graceful_signals(stop: StopRequest) -> Iterator[StopRequest]:
    """SIGINT/SIGTERM become stop requests while ``stop.deferrable``; interrupts otherwise.

    Only the main thread can own signal handlers; elsewhere (a server's worker thread)
    this does nothing and the owner calls ``stop.request`` itself.
    """
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def handle(signum: int, _frame: Any) -> None:
        name = signal.Signals(signum).name
        if stop.deferrable and not stop.is_set():
            stop.request(name)
            return
        raise IndexInterrupted(name)

    previous = {sig: signal.signal(sig, handle) for sig in STOP_SIGNALS}
    try:
        yield stop
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def exit_code(reason: str | None) -> int:
    """The shell's convention for a run ended by a signal: 128 + its number (130, 143)."""
    try:
        return 128 + int(signal.Signals[reason or "SIGINT"])
    except KeyError:
        return 130
