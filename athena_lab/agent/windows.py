"""What a model reads: each retrieved passage cut to the lines around the sentences that match.

A small model on a CPU reads a prompt at 16–33 tokens/s (1.5B, 2 threads), so eight
whole chunks (3,700 tokens) cost minutes before the first word. A passage that fits its
share of the budget goes in whole; a longer one keeps the lines around its best-matching
sentences (found the way the extractive answer finds them) and the code block such a
sentence introduces, joined by "…". Passages keep their retrieval order and numbers.
They go in the user's turn, after the fixed rules and tool schemas that llama.cpp keeps
cached from one request to the next (agent/prompts.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from athena_lab.agent.citations import EvidenceItem
from athena_lab.agent.extractive import Similarity, candidates
from athena_lab.agent.locate import find_lines

BEFORE, AFTER = 2, 3  # lines of context kept around a matching sentence
SENTENCES_PER_PASSAGE = 2
CHARS_PER_TOKEN = 3.6  # measured on the Qwen2.5 tokenizer over docs and PDF chunks


@dataclass(frozen=True)
class Window:
    number: int
    where: str
    text: str


def tokens(text: str) -> int:
    """A token estimate without loading a tokenizer (within ~10 % on our corpora)."""
    return int(len(text) / CHARS_PER_TOKEN) + 1


def windows(question: str, items: list[EvidenceItem], budget_chars: int, max_passages: int,
            similarity: Similarity | None = None) -> list[Window]:
    """The first ``max_passages`` items, each within ``budget_chars / n`` characters."""
    chosen = items[:max_passages]
    if not chosen:
        return []
    share = max(300, budget_chars // len(chosen))
    found = candidates(question, chosen, similarity, top=len(chosen)) if any(len(i.text) > share for i in chosen) else []
    out = []
    for item in chosen:
        text = item.text if len(item.text) <= share else _cut(item, found, share)
        heading = item.citation.get("heading_path")
        out.append(Window(item.number, item.where + (f" ({heading})" if heading else ""), text))
    return out


def _cut(item: EvidenceItem, found: list, share: int) -> str:  # type: ignore[type-arg]
    lines = item.text.split("\n")
    best = sorted((c for c in found if c.number == item.number), key=lambda c: c.score, reverse=True)
    spans: list[tuple[int, int]] = []
    for cand in best[:SENTENCES_PER_PASSAGE]:
        at = find_lines(lines, cand.sentence.text)
        if at is None:
            continue
        last = at[1] + AFTER
        block = cand.sentence.shows
        if block is not None and block.lines:
            shown = find_lines(lines, "\n".join(block.lines))
            if shown is not None:
                last = max(last, shown[1])
        spans.append((max(0, at[0] - BEFORE), min(len(lines) - 1, last)))
    if not spans:
        return _clip(item.text, share)
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    parts = ["\n".join(lines[s:e + 1]).strip("\n") for s, e in merged]
    text = "\n…\n".join(parts)
    if merged[0][0] > 0:
        text = "…\n" + text
    return _clip(text, share)


def _clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit]
    at = max(cut.rfind("\n"), cut.rfind(". "))
    return (cut[:at + 1] if at > limit // 2 else cut).rstrip() + " …"


def block(found: list[Window]) -> str:
    """The numbered passages as the prompt shows them."""
    if not found:
        return "Passages: none were found for this question."
    return "Passages:\n\n" + "\n\n".join(f"[{w.number}] {w.where}\n{w.text}" for w in found)
