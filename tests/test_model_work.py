"""The model work queue (agent/model_work.py, issue 31): the owner's model calls never wait;
a public visitor's wait behind them, one visitor at a time, and are skipped once the turn's
time is up. The whole path through a real `athena serve` is in
tests/security/test_visitor_chat_share.py and test_visitor_model.py."""

from __future__ import annotations

import threading
import time

from athena_lab.agent.model_work import OWNER, ModelGate, ModelQueue
import pytest

pytestmark = pytest.mark.unit


def test_the_owner_never_waits_for_a_visitor():
    queue = ModelQueue()
    with queue.visitor(time.monotonic() + 60) as running:
        assert running
        with queue.owner():  # would block forever if owners queued behind visitors
            assert queue.owner_running()
    assert not queue.owner_running()


def test_a_visitor_waits_while_the_owners_work_runs_and_then_goes():
    queue = ModelQueue()
    started, done = threading.Event(), threading.Event()
    order: list[str] = []

    def visitor() -> None:
        started.set()
        with queue.visitor(time.monotonic() + 60) as running:
            order.append(f"visitor ran: {running}")
        done.set()

    with queue.owner():
        thread = threading.Thread(target=visitor)
        thread.start()
        assert started.wait(10)
        assert not done.wait(0.2)  # still waiting: the owner's call is running
        order.append("owner done")
    thread.join(10)
    assert order == ["owner done", "visitor ran: True"]


def test_visitors_run_one_at_a_time_and_one_past_its_deadline_is_skipped():
    queue = ModelQueue()
    with queue.visitor(time.monotonic() + 60) as first:
        assert first
        with queue.visitor(time.monotonic()) as second:  # no time left while the first runs
            assert second is False
    with queue.visitor(time.monotonic() + 60) as third:
        assert third


def test_a_visitor_gate_caps_length_and_an_owner_gate_caps_nothing():
    visitor = ModelGate.visitor(max_chars=10, max_seconds=5)
    assert visitor.admits("short") and not visitor.admits("x" * 11)
    assert visitor.deadline - time.monotonic() <= 5
    assert OWNER.admits("x" * 100_000) and OWNER.deadline == float("inf")
    assert visitor.wrap(None) is None
