"""Whose model work runs first: the owner's, always; a public visitor's only when the
owner turned it on, within caps, and behind the owner's (issue 31).

A token-less visitor of a public ``athena serve`` used to get whatever model the owner had:
a question in Spanish loaded the bundled 1.1 GB model to translate it, 7,900 characters of it
cost 217 s of CPU and 2 GB of memory, and the owner's own question waited a minute behind it.

Now each turn carries a ``ModelGate`` (``agent.loop.run_turn``'s ``gate``). The owner's is
``OWNER``; a visitor's turn (``server/public.py`` asks ``Workspace.ask_events`` with
``for_visitor``) gets ``ModelGate.visitor(...)`` with the ``[dropin]`` caps, and the view of
the configuration it reads has no model at all unless the owner set ``[dropin] public_model``. Where it did, every model call of a
visitor's turn goes through ``ModelQueue``:

- the owner's calls never wait; they only say they are running;
- a visitor's call waits while any owner call runs, and runs one visitor at a time;
- a visitor's call stops as soon as an owner's starts (the stream is closed, which makes
  llama.cpp drop the request), and when the turn's ``max_seconds`` are spent. It ends as a
  model that stopped early does: the answer keeps what was said, the sources stand.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generator, Iterator, cast

from athena_lab.agent.providers import (
    Message,
    Provider,
    ProviderError,
    SamplingParams,
    StreamEnd,
)
from athena_lab.agent.providers.base import Completion, StreamEvent, ToolSpec, completion_of

STOPPED = "stopped"  # a StreamEnd's finish_reason when the gate ended a visitor's call


class ModelQueue:
    """The process's model work, owner first (module docstring)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._owners = 0  # owner calls running now
        self._visitor = False  # a visitor's call is running

    @contextmanager
    def owner(self) -> Iterator[None]:
        with self._cond:
            self._owners += 1
        try:
            yield
        finally:
            with self._cond:
                self._owners -= 1
                self._cond.notify_all()

    @contextmanager
    def visitor(self, deadline: float) -> Iterator[bool]:
        """Yields True once no owner call runs and no other visitor's does; False when that
        did not happen before ``deadline`` (``time.monotonic``): the call is then skipped."""
        with self._cond:
            got = self._cond.wait_for(lambda: self._owners == 0 and not self._visitor,
                                      timeout=max(0.0, deadline - time.monotonic()))
            if got:
                self._visitor = True
        try:
            yield bool(got)
        finally:
            if got:
                with self._cond:
                    self._visitor = False
                    self._cond.notify_all()

    def owner_running(self) -> bool:
        with self._cond:
            return self._owners > 0


QUEUE = ModelQueue()


@dataclass
class ModelGate:
    """Who a turn is for and what model work it may cause. ``max_chars``: a question longer
    than this gets no model work (0: no cap); ``max_seconds``: the turn's model calls stop
    this long after the first began (0: no cap)."""

    owner: bool = True
    max_chars: int = 0
    max_seconds: float = 0.0
    queue: ModelQueue = field(default_factory=lambda: QUEUE)
    _started: float | None = None

    @classmethod
    def visitor(cls, max_chars: int, max_seconds: float, queue: ModelQueue | None = None) -> ModelGate:
        return cls(owner=False, max_chars=max_chars, max_seconds=max_seconds, queue=queue or QUEUE)

    def admits(self, text: str) -> bool:
        """Whether ``text`` is short enough for this turn's model."""
        return self.owner or not self.max_chars or len(text) <= self.max_chars

    @property
    def deadline(self) -> float:
        """When this turn's model work must be over (``time.monotonic``); infinite for the owner."""
        if self.owner or not self.max_seconds:
            return float("inf")
        if self._started is None:
            self._started = time.monotonic()
        return self._started + self.max_seconds

    def wrap(self, llm: Provider | None) -> Provider | None:
        """``llm`` with its calls queued and capped by this gate (None stays None)."""
        return None if llm is None else cast(Provider, GatedProvider(llm, self))


class GatedProvider:
    """A provider whose calls go through its gate's queue; everything else is the provider's."""

    def __init__(self, inner: Provider, gate: ModelGate) -> None:
        self.inner, self.gate = inner, gate
        self.config, self.model = inner.config, inner.model

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def stream(self, messages: list[Message], tools: list[ToolSpec] | None = None,
               sampling: SamplingParams | None = None) -> Iterator[StreamEvent]:
        if self.gate.owner:
            with self.gate.queue.owner():
                yield from self.inner.stream(messages, tools, sampling)
            return
        deadline = self.gate.deadline
        with self.gate.queue.visitor(deadline) as running:
            if not running:
                yield StreamEnd(STOPPED, {})
                return
            events = cast(Generator[StreamEvent, None, None], self.inner.stream(messages, tools, sampling))
            try:
                for event in events:
                    if isinstance(event, StreamEnd):
                        yield event
                        return
                    if time.monotonic() > deadline or self.gate.queue.owner_running():
                        break
                    yield event
            finally:
                events.close()  # closes the HTTP stream: the model server drops the request
        yield StreamEnd(STOPPED, {})

    def complete(self, messages: list[Message], tools: list[ToolSpec] | None = None,
                 sampling: SamplingParams | None = None) -> Completion:
        """The whole reply; a call the gate stopped is an error, not a reply cut short (a
        half translation must not be kept as the translation)."""
        return completion_of(self._unless_stopped(self.stream(messages, tools, sampling)))

    @staticmethod
    def _unless_stopped(events: Iterator[StreamEvent]) -> Iterator[StreamEvent]:
        for event in events:
            if isinstance(event, StreamEnd) and event.finish_reason == STOPPED:
                raise ProviderError("the model is busy with the site owner's work, or this visitor's "
                                    "time with it is up", "timeout")
            yield event

    def close(self) -> None:
        self.inner.close()


OWNER = ModelGate()
