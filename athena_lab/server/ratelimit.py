"""A sliding one-minute window of events per key: the standalone server's rate limits.

``athena serve`` limits requests per client address, wrong tokens per address and way
of sending, and public chats per address (middleware.py); each is a ``RateLimiter``.
Its table forgets keys by time and never grows past ``max_keys``, so a flood of new
addresses cannot fill the server's memory.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict, deque

WINDOW_S = 60.0


class RateLimiter:
    """At most ``per_minute`` events per key in any 60 s window; 0 disables it.

    The table forgets by time: keys are kept in order of their last event, so each call
    drops the keys idle for a whole window from the front (amortised O(1), no scan), and
    it never holds more than ``max_keys`` (the least recently active go first). A key is a
    client address (``client_key``: IPv6 by /64), plus, for token failures, how the token came.
    """

    def __init__(self, per_minute: int, max_keys: int = 100_000) -> None:
        self.per_minute = per_minute
        self.max_keys = max_keys
        self._seen: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._seen)

    def retry_after(self, key: str, now: float | None = None) -> int:
        """0 if the request may go ahead (and counts it), else seconds until it may."""
        now = time.monotonic() if now is None else now
        with self._lock:
            wait = self._wait(key, now)
            if not wait:
                self._note(key, now)
            return wait

    def blocked_for(self, key: str, now: float | None = None) -> int:
        """Seconds until ``key`` may try again (0: now), without counting this look."""
        now = time.monotonic() if now is None else now
        with self._lock:
            return self._wait(key, now)

    def note(self, key: str, now: float | None = None) -> None:
        """Count one event (a failed token) against ``key``."""
        now = time.monotonic() if now is None else now
        with self._lock:
            self._note(key, now)

    def _wait(self, key: str, now: float) -> int:
        if self.per_minute <= 0:
            return 0
        self._expire(now)
        stamps = self._seen.get(key)
        if not stamps:
            return 0
        while stamps and stamps[0] <= now - WINDOW_S:
            stamps.popleft()
        if len(stamps) >= self.per_minute:
            return max(1, math.ceil(stamps[0] + WINDOW_S - now))
        return 0

    def _note(self, key: str, now: float) -> None:
        if self.per_minute <= 0:
            return
        stamps = self._seen.get(key)
        if stamps is None:
            stamps = self._seen[key] = deque()
        else:
            self._seen.move_to_end(key)
        stamps.append(now)
        while len(self._seen) > self.max_keys:
            self._seen.popitem(last=False)

    def _expire(self, now: float) -> None:
        """Drop the keys whose last event left the window (they are at the front)."""
        while self._seen:
            stamps = next(iter(self._seen.values()))
            if stamps and stamps[-1] > now - WINDOW_S:
                return
            self._seen.popitem(last=False)
