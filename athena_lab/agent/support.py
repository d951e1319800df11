"""Whether a passage supports a sentence: the one rule attribution and the citation check share.

A marker reads as "the source says this", so the marker attribution adds (agent/attribute.py)
and the check that flags a claim afterwards (``unsupported_sentences``) must agree: both ask
this object. A passage supports a sentence when

- it holds every name the sentence uses (agent/names.py: calls, settings, options, file
  names), bar those the question itself names — a sentence about ``undo_setattr`` is not
  backed by a passage about ``setattr``, however many other words they share; and
- it holds 40 % of the sentence's key terms (agent/citations.py), or, for an answer in
  another language, its nearest sentence means the same by the multilingual channel's
  model (multilingual-e5-small): key terms of a German sentence do not match an English
  passage however faithfully it renders it.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Callable

from athena_lab.agent.citations import (
    MARKER,
    SUPPORT_THRESHOLD,
    is_claim,
    key_terms,
    marker_numbers,
    sentence_split,
    split_sentences,
)
from athena_lab.agent.names import defined_in, sentence_names

Similarity = Callable[[str, list[str]], list[float]]

# multilingual-e5-small, "query: " sentence against "passage: " sentences of the cited passage.
# Measured on Spanish, French and German renderings of English doc sentences (tests/
# test_answer_trust.py and docs/answers.md): faithful ones scored 0.87-0.94 against the
# sentence they render; a wrong claim about the same subject 0.80-0.82, an unrelated one
# 0.78-0.80. A loose rendering ("du bord" for "from the edge") can fall under it (0.84).
ACROSS_THRESHOLD = 0.85


class Support:
    """The passages of one answer (by evidence number) and the rule above."""

    def __init__(self, passages: dict[int, str], question: str = "", across: Similarity | None = None,
                 defined: set[str] | None = None) -> None:
        self.question = question.lower()
        self.across = across
        self.defined: set[str] = set() if defined is None else defined  # the answer's own example names
        self._text: dict[int, str] = {}
        self._terms: dict[int, set[str]] = {}
        self._sentences: dict[int, list[str]] = {}
        self.add(passages)

    def add(self, passages: dict[int, str]) -> None:
        for number, text in passages.items():
            if number not in self._text:
                self._text[number] = unicodedata.normalize("NFKC", text).lower()
                self._terms[number] = key_terms(text)
                self._sentences[number] = [s for paragraph in re.split(r"\n\s*\n", text)
                                           for s in sentence_split(" ".join(paragraph.split())) if len(s) >= 20]

    @property
    def numbers(self) -> list[int]:
        return sorted(self._text)

    def names(self, sentence: str) -> set[str]:
        """The parts of the sentence's names a supporting passage must hold."""
        return {p for name in sentence_names(sentence, self.defined) for p in name.parts if p not in self.question}

    def holds(self, sentence: str, numbers: list[int]) -> bool:
        """Whether the passages ``numbers`` together support the sentence (markers removed)."""
        numbers = [n for n in numbers if n in self._text]
        if not numbers:
            return False
        text = "\n".join(self._text[n] for n in numbers)
        if any(part not in text for part in self.names(sentence)):
            return False
        terms = key_terms(sentence)
        if terms and len(terms & set().union(*(self._terms[n] for n in numbers))) / len(terms) >= SUPPORT_THRESHOLD:
            return True
        return self._meaning(sentence, numbers) >= ACROSS_THRESHOLD

    def best(self, sentence: str) -> int | None:
        """The passage that supports the sentence best: the largest share of its key terms,
        else (another language) the nearest in meaning; None when none supports it."""
        parts = self.names(sentence)
        able = [n for n in self.numbers if all(p in self._text[n] for p in parts)]
        terms = key_terms(sentence)
        best, share = None, SUPPORT_THRESHOLD
        for number in able:
            got = len(terms & self._terms[number]) / len(terms) if terms else 0.0
            if got >= share and (best is None or got > share):
                best, share = number, got
        if best is not None or self.across is None:
            return best
        scored = [(self._meaning(sentence, [n]), n) for n in able]
        top = max(scored, default=(0.0, None))
        return top[1] if top[0] >= ACROSS_THRESHOLD else None

    def _meaning(self, sentence: str, numbers: list[int]) -> float:
        if self.across is None:
            return 0.0
        pool = [s for n in numbers for s in self._sentences.get(n, [])]
        if not pool:
            return 0.0
        try:
            return max(self.across(sentence, pool))
        except Exception:  # a check that only accepts more must never fail the turn
            return 0.0


def unsupported_sentences(answer: str, cited_text: dict[int, str], question: str = "",
                          across: Any = None) -> list[str]:
    """Claims with no marker, or whose cited evidence does not support them (``Support``:
    every name the sentence uses, and 40 % of its key terms or, with ``across``, its meaning).

    ``cited_text`` maps final citation numbers to the evidence text they stand for.
    Each sentence is reported as its longest marker-free stretch, verbatim, so a front
    end can find and highlight it in the rendered answer.
    """
    support = Support(cited_text, question, across, defined_in(answer))
    flagged: list[str] = []
    for sentence in split_sentences(answer):
        bare = MARKER.sub(" ", sentence)
        terms = key_terms(bare)
        if not is_claim(bare, terms):
            continue
        numbers = [n for n in marker_numbers(sentence) if n in cited_text]
        if numbers and support.holds(bare, numbers):
            continue
        flagged.append(_quotable(sentence))
    return flagged


def _quotable(sentence: str) -> str:
    pieces = [p.strip() for p in MARKER.split(sentence)[::2]]
    return max(pieces, key=len)
