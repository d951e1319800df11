"""The rate limiter's table stays small and cheap however many addresses come by
(docs/security.md, "The HTTP server"; issue 22, finding 5).

It used to forget an address only when that address came back, so the table only grew,
and past 10,000 addresses every request scanned all of it under the lock. The tests drive
a ``RateLimiter`` with a simulated clock (a minute of traffic takes no minute), then show a
real `athena serve` behind a proxy counting an IPv6 client by its /64.
"""

from __future__ import annotations

import time


import pytest

from athena_lab.server.addresses import client_key
from athena_lab.server.ratelimit import WINDOW_S, RateLimiter
from http_servers import AthenaServer, fast_env, indexed_corpus

pytestmark = pytest.mark.integration

MANY = 30_000


def _visit(limiter: RateLimiter, count: int, start: float, prefix: str = "10") -> float:
    """``count`` distinct addresses, one request each, a millisecond apart; the clock after."""
    now = start
    for n in range(count):
        limiter.retry_after(f"{prefix}.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}", now=now)
        now += 0.001
    return now


def _per_request_s(limiter: RateLimiter, now: float, requests: int = 2000) -> float:
    started = time.perf_counter()
    for n in range(requests):
        limiter.retry_after(f"192.0.2.{n % 100}", now=now + n * 0.001)
    return (time.perf_counter() - started) / requests


def test_the_rate_table_forgets_addresses_idle_for_a_window():
    limiter = RateLimiter(600)
    now = _visit(limiter, MANY, 0.0)
    assert len(limiter._seen) <= MANY
    limiter.retry_after("192.0.2.1", now=now + WINDOW_S + 1)
    assert len(limiter._seen) == 1, "the addresses idle for a whole window are still kept"


def test_the_rate_table_never_holds_more_than_its_bound():
    limiter = RateLimiter(600, max_keys=1000)
    _visit(limiter, 5000, 0.0)  # all within one window
    assert len(limiter._seen) == 1000


def test_a_request_costs_no_more_after_many_distinct_addresses():
    empty = RateLimiter(600)
    baseline = _per_request_s(empty, 0.0)
    crowded = RateLimiter(600)
    now = _visit(crowded, MANY, 0.0)
    after = _per_request_s(crowded, now)  # the 30,000 are still inside the window
    # Measured on the development machine: under 2 µs either way (it was 520-580 µs a request
    # after 30,000 addresses, and grew with the table). Generous, for a loaded CI machine.
    assert after < max(10 * baseline, 100e-6), (baseline, after)


def test_an_ipv6_client_is_counted_by_its_64():
    assert client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:ffff:ffff:ffff:ffff") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("::ffff:203.0.113.7") == client_key("203.0.113.7") == "203.0.113.7"
    assert client_key(None) == "?"


def test_behind_a_proxy_one_ipv6_64_shares_one_budget(tmp_path_factory):
    env = fast_env(ATHENA_SERVER__BEHIND_PROXY="true")
    with AthenaServer(indexed_corpus(tmp_path_factory), "--rate-limit", "3", env=env) as server:
        def status(client: str) -> int:
            return server.client.get("/info", headers={"X-Forwarded-For": client}).status_code

        rotating = [status(f"2001:db8:5:6::{n:x}") for n in range(1, 5)]
        other = status("2001:db8:5:7::1")
    assert rotating == [200, 200, 200, 429], "a new address in the same /64 must not get a new budget"
    assert other == 200
