"""The offline answer: the most relevant sentences of the retrieved evidence, cited.

It is the default so the product answers on a fresh machine with nothing else running.
It never writes a word the documents did not: every sentence is copied (markup cleaned)
from a retrieved chunk and followed by that chunk's marker, so citation validation
holds by construction. With no sentence that shares enough of the question's terms,
it says the index has nothing on this rather than guessing.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from athena_lab.agent.citations import EvidenceItem, key_terms, sentence_split

LABEL = "Extractive answer (no language model configured) — the most relevant passages:"
NO_EVIDENCE = ("The index has no evidence for this question: none of the indexed documents "
               "contains a passage about it, so there is nothing to quote.")
MIN_SENTENCES, MAX_SENTENCES = 2, 5
MIN_COVERAGE = 1 / 3  # share of the question's key terms a sentence must contain

_HEADING_RULE = re.compile(r"^\s*([=\-~^\"'`#*+_])\1{2,}\s*$")
_CODE_START = re.compile(r"^\s*(```|~~~|>>>|\$ |\.\. )")
_INLINE = [
    (re.compile(r":[\w:+-]+:`~?([^`<]*?)(?:\s*<[^>]*>)?`"), r"\1"),  # :role:`text <target>`
    (re.compile(r"`([^`<]+?)\s*<[^>]+>`_{1,2}"), r"\1"),           # `text <url>`_
    (re.compile(r"\[([^\]]+)\]\([^)]*\)"), r"\1"),                 # [text](url)
    (re.compile(r"``([^`]+)``"), r"\1"),
    (re.compile(r"`([^`]+)`_{0,2}"), r"\1"),
    (re.compile(r"(\*\*|__)(.+?)\1"), r"\2"),
    (re.compile(r"\[\d[\d,;\s]*\]"), ""),                          # a document's own [1] refs
]


@dataclass(frozen=True)
class Candidate:
    number: int
    rank: int
    position: int
    text: str
    score: float


def prose_paragraphs(text: str) -> list[str]:
    """Paragraphs of running text: code blocks, directives, tables and headings dropped."""
    out: list[str] = []
    text = re.sub(r"^\s*(```|~~~).*?^\s*\1[^\n]*$", "", text, flags=re.DOTALL | re.MULTILINE)
    for block in re.split(r"\n\s*\n", text):
        lines = block.splitlines()
        if not lines:
            continue
        if all(l.startswith((" ", "\t")) for l in lines if l.strip()):
            continue  # an indented literal block (reST ::) or quoted code
        if any(_CODE_START.match(l) or l.lstrip().startswith(("|", "+-")) for l in lines):
            continue
        for item in _list_items(_without_headings(lines)):
            out.append(clean_markup(" ".join(item)))
    return [p for p in out if p]


def _without_headings(lines: list[str]) -> list[str]:
    """Drop markdown `#` headings and reST titles (a line over or under a rule)."""
    rules = {i for i, l in enumerate(lines) if _HEADING_RULE.match(l)}
    titles = {i - 1 for i in rules} | {i + 1 for i in rules}
    return [l.strip() for i, l in enumerate(lines)
            if i not in rules and i not in titles and not re.match(r"\s*#{1,6}\s", l)]


def _list_items(lines: list[str]) -> list[list[str]]:
    """A paragraph split at bullet lines, so each list item reads as its own sentence(s)."""
    items: list[list[str]] = []
    for line in lines:
        if _BULLET.match(line) or not items:
            items.append([_BULLET.sub("", line)])
        else:
            items[-1].append(line)
    return items


def clean_markup(text: str) -> str:
    for pattern, repl in _INLINE:
        text = pattern.sub(repl, text)
    text = re.sub(r"::$", ":", text.strip())
    return re.sub(r"\s+", " ", text).strip()


_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)]|#\.)\s+")


def candidates(question: str, evidence: list[EvidenceItem]) -> list[Candidate]:
    """Every readable sentence of the evidence that covers enough of the question."""
    wanted = key_terms(question)
    if not wanted:
        return []
    need = max(1, math.ceil(len(wanted) * MIN_COVERAGE))
    found: list[Candidate] = []
    for rank, item in enumerate(evidence):
        position = 0
        for paragraph in prose_paragraphs(item.text):
            for sentence in sentence_split(paragraph):
                position += 1
                if not 25 <= len(sentence) <= 400 or len(sentence.split()) < 4 or sentence.endswith("?"):
                    continue
                overlap = len(wanted & key_terms(sentence))
                if overlap < need:
                    continue
                score = overlap / len(wanted) + 0.5 / (rank + 1) + 0.1 / position
                if sentence.endswith(":"):
                    score *= 0.7  # it introduces an example this answer cannot show
                found.append(Candidate(item.number, rank, position, sentence, score))
    return found


def pick(found: list[Candidate]) -> list[Candidate]:
    """The best 2–5 sentences, no repeats, in evidence order so the answer reads naturally."""
    chosen: list[Candidate] = []
    seen: list[set[str]] = []
    for cand in sorted(found, key=lambda c: c.score, reverse=True):
        terms = key_terms(cand.text)
        if any(len(terms & s) / max(1, len(terms | s)) > 0.8 for s in seen):
            continue
        chosen.append(cand)
        seen.append(terms)
        if len(chosen) >= MAX_SENTENCES:
            break
    best = chosen[0].score if chosen else 0.0
    chosen = [c for i, c in enumerate(chosen) if i < MIN_SENTENCES or c.score >= best * 0.6]
    return sorted(chosen, key=lambda c: (c.rank, c.position))


def extractive_answer(question: str, evidence: list[EvidenceItem]) -> str:
    """The answer text with `[n]` markers that use the evidence numbers."""
    chosen = pick(candidates(question, evidence))
    if not chosen:
        return NO_EVIDENCE
    lines = [LABEL, ""] + [f"- {c.text} [{c.number}]" for c in chosen]
    return "\n".join(lines)


def stream_pieces(text: str) -> list[str]:
    """The answer cut into line-sized pieces, streamed as chunk events like a model's."""
    return [line + "\n" for line in text.split("\n")[:-1]] + [text.split("\n")[-1]]
