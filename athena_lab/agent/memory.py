"""What a follow-up question sees of the conversation so far.

Earlier questions, a short summary of each answer and the sources it cited — never the
tool traces: they cost the most tokens and a model re-reading them tends to cite them
as proof. Retrieval runs fresh on every turn; a follow-up that leans on the previous
question ("and how do I test it?") borrows its key terms for the search, a question with
its own subject does not (agent/followup.py).
When the prompt nears the context size, older turns are folded into one summary
(asked of the provider), or dropped oldest-first if summarising fails.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from athena_lab.agent.citations import _ALL_STOPWORDS, MARKER, key_terms, split_sentences
from athena_lab.agent.extractive import LEGACY_LABEL
from athena_lab.agent.followup import leans_on_previous
from athena_lab.agent.providers import Message
from athena_lab.citations.labels import citation_location

SUMMARY_SENTENCES = 2
SUMMARY_CHARS = 400
THRESHOLD = 0.75  # share of the context size the prompt may fill before compaction
KEEP_RECENT = 1  # turns kept verbatim when older ones are summarised
CONTEXT_QUERY_WORDS = 24  # words of an attached cell/selection added to the search query


@dataclass
class PastTurn:
    question: str
    summary: str
    sources: list[str] = field(default_factory=list)

    def render(self) -> str:
        return self.summary + (f"\nSources: {'; '.join(self.sources)}" if self.sources else "")


def summarise_answer(answer: str) -> str:
    """The first sentences of an answer, markers and the extractive label removed."""
    text = answer.replace(LEGACY_LABEL, "")
    sentences = split_sentences(text)[:SUMMARY_SENTENCES]
    summary = " ".join(re.sub(r"\s+([.,;:!?])", r"\1", MARKER.sub("", s)).strip() for s in sentences)
    return summary if len(summary) <= SUMMARY_CHARS else summary[:SUMMARY_CHARS].rstrip() + "…"


def past_turns(conversation: dict[str, Any] | None, limit: int) -> list[PastTurn]:
    """Question/answer pairs of a stored conversation, the newest ``limit`` of them.

    A question whose answer never completed (the provider died) is kept with an empty
    summary: the user did ask it.
    """
    turns: list[PastTurn] = []
    for message in (conversation or {}).get("messages", []):
        if message["role"] == "user":
            turns.append(PastTurn(message["content"], ""))
        elif message["role"] == "assistant" and turns and not turns[-1].summary:
            turns[-1].summary = summarise_answer(message["content"])
            turns[-1].sources = [citation_location(c) for c in message.get("citations") or []]
    return turns[-limit:] if limit > 0 else []


def retrieval_query(question: str, turns: list[PastTurn]) -> str:
    """The question, plus the previous question's key words when it leans on it
    (agent/followup.py decides: "and how do I test it?" does, "¿Cómo configuro la clave
    secreta?" does not)."""
    if not turns or not leans_on_previous(question, turns[-1].question):
        return question
    mine = key_terms(question)
    borrowed = [w for w in re.findall(r"\w+", turns[-1].question)
                if key_terms(w) and not key_terms(w) <= mine]
    return question if not borrowed else f"{question} {' '.join(dict.fromkeys(borrowed))}"


def with_context(query: str, context: str | None) -> str:
    """The search query plus the distinctive words of the attached context (a notebook cell,
    an editor selection): identifiers and content words in the order they first appear, so
    "what does this do?" about a cell searches for what the cell uses."""
    if not context or not context.strip():
        return query
    mine = {w.lower() for w in re.findall(r"\w+", query)}
    words: list[str] = []
    for word in re.findall(r"[A-Za-z_][\w.]*\w|[A-Za-z_]\w*", context):
        low = word.lower()
        if len(word) < 3 or low in mine or low in _ALL_STOPWORDS or word in words:
            continue
        words.append(word)
        if len(words) == CONTEXT_QUERY_WORDS:
            break
    return f"{query} {' '.join(words)}" if words else query


def history_messages(turns: list[PastTurn]) -> list[Message]:
    out: list[Message] = []
    for turn in turns:
        out.append(Message("user", turn.question))
        out.append(Message("assistant", turn.render() or "(no answer was completed)"))
    return out


def estimate_tokens(text: str) -> int:
    return len(text) // 4 + 1


@dataclass
class Fitted:
    turns: list[PastTurn]
    notes: list[str]
    compaction: dict[str, Any] | None = None


def fit_history(system: str, question: str, turns: list[PastTurn], context_size: int,
                summarise: Callable[[str], str] | None) -> Fitted:
    """Keep the prompt under THRESHOLD × context_size: summarise older turns, else drop them.

    ``summarise`` turns a transcript into a short summary (a provider call); returning
    an empty string or raising falls back to dropping the oldest turns. The current
    question is always kept.
    """
    budget = int(context_size * THRESHOLD)

    def used(kept: list[PastTurn], notes: list[str]) -> int:
        history = "".join(t.question + t.render() for t in kept)
        return estimate_tokens(system + question + history + "".join(notes))

    before = used(turns, [])
    if before <= budget or not turns:
        return Fitted(turns, [])
    kept, notes, summary, failure = list(turns), [], None, None
    older, recent = turns[:-KEEP_RECENT], turns[-KEEP_RECENT:]
    if older and summarise is not None:
        try:
            summary = summarise(transcript(older)).strip() or None
            failure = None if summary else "the summary came back empty"
        except Exception as exc:  # a flaky summary call must never fail the user's request
            failure = str(exc)
        if summary:
            kept, notes = recent, [f"Earlier conversation summary:\n{summary}"]
    while kept and used(kept, notes) > budget:
        kept = kept[1:]
    if notes and used(kept, notes) > budget:
        notes, summary = [], None
    info = {"summary": summary, "dropped_turns": len(turns) - len(kept), "kept_turns": len(kept),
            "used_tokens": before, "window_tokens": context_size,
            "method": "summary" if summary else "dropped_oldest"}
    if failure:
        info["warning"] = f"summarising older turns failed ({failure}); dropped the oldest instead"
    return Fitted(kept, notes, info)


def transcript(turns: list[PastTurn]) -> str:
    return "\n".join(f"User: {t.question}\nAssistant: {t.render()}" for t in turns)

