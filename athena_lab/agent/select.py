"""Select, then write: the model picks the evidence sentences that answer, then leads into them.

Writing freely, a small model paraphrases its passages, and every paraphrase is a chance to
invent a name. Choosing is a smaller task: the sentences of the passages that match the
question best (found as the offline answer finds them, agent/extractive.py) are numbered
for the model, which replies with the numbers of those that answer — a few tokens — and
then one or two sentences of its own that answer directly. The answer is that lead, then
the chosen sentences quoted as written (and the code a sentence introduces), each with its
passage's marker, so what the reader is asked to trust is the documents' own words.

``llm.answer_style = "select"`` turns it on; "free" (the model writes from the passages)
is the other; "auto", the default, is select for a bundled local model (``chosen_style``).
Why: docs/answers.md and docs/benchmarks.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from typing import Callable

from athena_lab.agent.citations import sentence_split
from athena_lab.agent.extractive import Candidate, Reply, render
from athena_lab.agent.prompts import language_directive
from athena_lab.agent.providers import Message

CANDIDATES = 10  # numbered sentences the model chooses from
MOST = 4  # sentences it may choose
LEAD_TOKENS = 160  # what the numbers and a two-sentence lead need
RULES = ("You are Athena, a research assistant. Below are numbered sentences from the user's documents. "
         "On the first line, write the numbers of the sentences that answer the question (at most {most}). "
         "On the next line, write one or two short sentences that answer the question directly, using only "
         "what those sentences say, with the exact names they use. If none answers, write 0 on the first "
         "line and say that the documents do not answer it.\n\n"
         "Example:\nSentences:\n1. The debugger shows tracebacks in the browser.\n"
         "2. To turn on debug mode, run `flask run --debug`.\n3. Blueprints group views.\n"
         "Question: How do I enable debug mode?\nReply:\n2, 1\n"
         "Run `flask run --debug`; the debugger then shows tracebacks in the browser.")


def chosen_style(style: str, provider_kind: str) -> str:
    """``llm.answer_style`` for a provider of ``provider_kind``: "auto" is "select" for the
    bundled local models — on the test split, free writing put 12 names the folder lacks into
    33 docs answers and selecting none, for 0.06 less of the facts — and "free" for the
    others, whose writing was not measured here."""
    if style == "auto":
        return "select" if provider_kind == "local" else "free"
    return style


def choices(found: list[Candidate], most: int = CANDIDATES) -> list[Candidate]:
    """The best-scoring quotable sentences, no two alike, in score order."""
    out: list[Candidate] = []
    seen: set[str] = set()
    for cand in sorted(found, key=lambda c: c.score, reverse=True):
        if not cand.whole or cand.text in seen:
            continue
        seen.add(cand.text)
        out.append(cand)
        if len(out) >= most:
            break
    return out


def messages(options: list[Candidate], question: str) -> list[Message]:
    listed = "\n".join(f"{n}. {c.text}" for n, c in enumerate(options, 1))
    return [Message("system", RULES.format(most=MOST)),
            Message("user", f"Sentences:\n{listed}\nQuestion: {question}\n{language_directive(question)}\nReply:")]


_NUMBERS = re.compile(r"^\s*(?:numbers?\s*:?\s*)?((?:\d{1,2}\s*(?:,|and|\s)\s*)*\d{1,2})\s*[.:]?\s*(?:\n|$)", re.I)


@dataclass
class Selection:
    """The model's reply as it streams: the numbers on its first line, held back, then the lead."""

    options: list[Candidate]
    chosen: list[Candidate] = field(default_factory=list)
    _head: str = ""
    _decided: bool = False

    def feed(self, text: str) -> str:
        """The lead's text so far (nothing until the first line is complete)."""
        if self._decided:
            return text
        self._head += text
        if "\n" not in self._head and len(self._head) < 40:
            return ""
        return self._decide()

    def flush(self) -> str:
        return "" if self._decided else self._decide()

    def _decide(self) -> str:
        self._decided = True
        head, self._head = self._head, ""
        match = _NUMBERS.match(head)
        if not match:
            return head.lstrip()
        numbers = [int(n) for n in re.findall(r"\d{1,2}", match.group(1))]
        self.chosen = [self.options[n - 1] for n in dict.fromkeys(numbers) if 1 <= n <= len(self.options)][:MOST]
        return head[match.end():].lstrip()

    def quotes(self) -> Reply:
        """The chosen sentences as the offline answer renders them (bullets, markers, blocks),
        in the order of their passages; the best-scoring option when the model chose none."""
        chosen = self.chosen or self.options[:1]
        ordered = sorted(chosen, key=lambda c: (c.rank, c.sentence.position))
        return render(ordered)


def checked_lead(lead: str, unknown: Callable[[str, set[str]], list[str]]) -> tuple[str, list[str]]:
    """The lead without its sentences that name what the folder does not hold, and those names.

    The lead is the model's only free writing here, and the quotes under it carry the
    answer: a lead sentence with a made-up name (one seeded test run restated the question
    and invented a payload's four field names) is left out rather than shown marked, which
    loses none of the documents' words. Held until the model is done, it is never on screen
    first."""
    kept: list[str] = []
    lost: list[str] = []
    for line in lead.splitlines():
        pieces = []
        for sentence in sentence_split(line):
            names = unknown(sentence, set())
            if names:
                lost += [n for n in names if n not in lost]
            else:
                pieces.append(sentence)
        if pieces or not line.strip():
            kept.append(" ".join(pieces))
    return "\n".join(kept).strip(), lost
