"""The flood report of `athena serve` (server/connections.py, issue 31): a flood of closed
connections or refused requests is one log line per interval, not one per connection.
A manual clock and a recorded scheduler stand in for time; the logger is the real one."""

from __future__ import annotations

import logging
from types import SimpleNamespace

from athena_lab.server.connections import FloodLog
import pytest

pytestmark = pytest.mark.unit


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0
        self.scheduled: list[tuple[float, object]] = []

    def __call__(self) -> float:
        return self.now

    def later(self, delay: float, fn) -> None:
        self.scheduled.append((self.now + delay, fn))

    def advance(self, seconds: float) -> None:
        self.now += seconds
        due = [fn for at, fn in self.scheduled if at <= self.now]
        self.scheduled = [(at, fn) for at, fn in self.scheduled if at > self.now]
        for fn in due:
            fn()


def _refusal(status: int, address: str) -> SimpleNamespace:
    request = SimpleNamespace(remote_ip=address, request_time=lambda: 0.001)
    return SimpleNamespace(get_status=lambda: status, _request_summary=lambda: "POST /athena/chat", request=request)


def test_a_flood_of_closed_connections_is_one_line_now_and_one_a_minute(caplog):
    clock = Clock()
    flood = FloodLog(interval_s=60, clock=clock, later=clock.later)
    with caplog.at_level(logging.WARNING, logger="athena_lab.server"):
        for n in range(5000):
            flood.closed("203.0.113.7" if n % 10 else "198.51.100.1")
        assert flood.lines == 1 and "closed 1 connection(s)" in caplog.text  # the first, at once
        clock.advance(61)
    assert flood.lines == 2
    summary = caplog.records[-1].getMessage()
    assert "closed 4,999 connection(s) still waiting for a whole request, from 2 address(es)" in summary
    assert "most from 203.0.113.7: 4,500" in summary
    clock.advance(600)
    assert flood.lines == 2  # nothing new: nothing written


def test_refused_requests_are_logged_one_by_one_up_to_the_burst_then_counted(caplog):
    clock = Clock()
    flood = FloodLog(interval_s=60, clock=clock, later=clock.later, burst=20)
    with caplog.at_level(logging.INFO):
        for _ in range(10_000):
            flood.access(_refusal(401, "203.0.113.7"))
        flood.access(_refusal(200, "203.0.113.7"))
        flood.access(_refusal(500, "203.0.113.7"))
        clock.advance(61)
        flood.access(_refusal(429, "203.0.113.8"))  # a new interval: written one by one again
    access = [r for r in caplog.records if r.name == "tornado.access"]
    assert [r.levelname for r in access].count("WARNING") == 21
    assert [r.levelname for r in access].count("INFO") == 1 and [r.levelname for r in access].count("ERROR") == 1
    reports = [r.getMessage() for r in caplog.records if r.name == "athena_lab.server"]
    assert len(reports) == 2, reports
    assert "refused 1 more request(s) (401: 1)" in reports[0]  # the first past the burst, at once
    assert "refused 9,979 more request(s) (401: 9,979) from 1 address(es)" in reports[1]
