"""One finished answer, and the fold every Python front end applies to a turn's events.

The CLI, the magic, the widget and the API used to fold the event stream five times over;
``fold`` is the one fold, so a field added to the events (athena_lab/events.py) reaches
them all at once, and ``collect`` runs a whole stream into an ``Answer``.
"""

from __future__ import annotations

import weakref
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Mapping


@dataclass
class Answer:
    """One finished turn, as ``Workspace.ask``, ``athena ask --json`` and the API return it."""

    answer: str = ""
    citations: list[dict[str, Any]] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    mode: str = ""
    # The quotes shown beside a model's answer (the sources event); "" when the answer is
    # the quotes (extractive mode).
    sources: str = ""
    trace: list[dict[str, Any]] = field(default_factory=list)
    conversation_id: str | None = None
    usage: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    degraded: str | None = None  # search ran without (all) vectors, and why — e.g. still embedding
    no_evidence: str | None = None  # "filters" or "index" when search found nothing to cite
    # names a model's answer uses that the folder and the question lack, and where ({name, sentence})
    not_found: list[dict[str, str]] = field(default_factory=list)
    streaming: bool = False
    # What a notebook's display of it needs (``Athena.ask``): the question, and the folder it
    # came from (weakly held: previews read cited lines from it). Not part of its JSON.
    question: str = field(default="", repr=False)
    folder: weakref.ReferenceType[Any] | None = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for local in ("streaming", "question", "folder"):
            data.pop(local)
        return data


def fold(answer: Answer, event: Any) -> Answer:
    """Apply one turn event (an ``Event`` or its ``{"type", "data"}`` dict) to ``answer``.

    Every Python front end folds the stream with this, so a field added to the events
    reaches the CLI, the magic, the widget and the API at once. Returns ``answer``.
    """
    kind = event["type"] if isinstance(event, Mapping) else event.type
    data = (event.get("data") if isinstance(event, Mapping) else event.data) or {}
    if kind == "start":
        answer.streaming = True
        answer.conversation_id = data.get("conversation_id") or answer.conversation_id
    elif kind == "trace":
        answer.trace.append(dict(data))
    elif kind == "sources":
        # The offline answer: beside the model's words when they follow, else the answer.
        if data.get("answer_follows"):
            answer.sources = data.get("answer") or ""
        else:
            answer.answer, answer.sources = data.get("answer") or "", ""
        answer.citations = list(data.get("citations") or [])
    elif kind == "chunk":
        answer.answer += data.get("content", "")
    elif kind == "citations":
        answer.citations = list(data.get("citations") or [])
    elif kind == "done":
        answer.usage = dict(data.get("usage") or {})
        answer.unsupported = list(data.get("unsupported") or [])
        answer.mode = data.get("mode") or answer.mode
        answer.degraded = data.get("degraded")
        answer.no_evidence = data.get("no_evidence")
        answer.not_found = list(data.get("not_found") or [])
        answer.streaming = False
    elif kind == "error":
        answer.error = data.get("message") or "the answer failed"
        answer.streaming = False
    return answer


def collect(stream: Iterable[Any]) -> Answer:
    """Run a turn's events to the end and gather them into one Answer."""
    answer = Answer()
    for event in stream:
        fold(answer, event)
    return answer
