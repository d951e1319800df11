"""Markers a small model leaves out, added as its sentences finish.

Asked for `[n]` markers with a worked example, Qwen2.5-Coder 1.5B still wrote them in
only some answers (2 of 4 by hand), and a sentence without one is "unsupported" however
right it is. So each sentence of a model's answer that makes a claim and carries no
marker is given one as soon as it ends: the passage the model read that holds the
largest share of its key terms — the test the citation check applies afterwards, so an
added marker is one that check accepts. A sentence no passage supports gets no marker
and stays flagged. Markers go in while the answer streams: only the whitespace after a
possible sentence end is held back until the next character says whether it ended.
"""

from __future__ import annotations

import re

from athena_lab.agent.citations import ABBREVIATION, MARKER, SUPPORT_THRESHOLD, is_claim, key_terms

_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_INDENTED_CODE = re.compile(r"^(?:    |\t)(?![ \t]*(?:[-*+]|\d+[.)])\s)")  # not a nested list item
_AFTER_STOP = re.compile(r"[.!?]\s*(?:\[\d{1,3}(?:\s*[,;]\s*\d{1,3})*\]\s*)+$")


class Attributor:
    """Sits between a model's text deltas and the marker rewriter; ``added`` counts markers it gave."""

    def __init__(self, passages: dict[int, str]) -> None:
        self.terms = {n: key_terms(text) for n, text in passages.items()}
        self.added = 0
        self._sentence = ""  # since the last sentence end
        self._line = ""  # since the last newline, to see code fences
        self._last_line = ""  # the line before it, where a sentence ended by a newline was
        self._punct = ""  # the full stop of a possible sentence end, held with what follows
        self._held = ""  # whitespace after a possible sentence end
        self._ended = False
        self._fence = False
        self._ticks = 0  # backticks on this line outside fences: odd means inside inline code

    def add(self, passages: dict[int, str]) -> None:
        """Passages a tool call brought in, which later sentences may rest on."""
        for number, text in passages.items():
            if number not in self.terms:
                self.terms[number] = key_terms(text)

    def feed(self, text: str) -> str:
        return "".join(self._char(ch) for ch in text)

    def flush(self) -> str:
        out = self._finish(self._line or self._last_line) + self._punct + self._held
        self._punct, self._held, self._ended = "", "", False
        return out

    def _char(self, ch: str) -> str:
        if self._fence:
            return self._in_fence(ch)
        if self._ended and ch.isspace():
            self._held += ch
            if ch == "\n":
                self._newline()
            return ""
        out = ""
        if self._ended and self._punct and not self._held and ch in ".!?":
            self._punct += ch  # "..." or "?!": the run is held whole
            return ""
        if self._ended:
            # "2.0" and "app.run" have no space after the dot; a marker after the full stop
            # still belongs to that sentence; a lower-case word goes on after "e.g." or "etc.".
            newline = "\n" in self._held
            if newline or (self._held and ch != "[" and not (ch.islower() or ch in ",;:)")):
                out = self._finish(self._last_line if newline else self._line)
            out += self._punct + self._held
            self._line += self._held.rsplit("\n", 1)[-1]  # an indent held back is still this line's
            self._punct, self._held, self._ended = "", "", False
        if ch == "\n":
            self._newline()
            if self._fence:  # the line opened a code block: nothing to hold
                return out + ch
            self._ended = bool(self._sentence.strip())
            self._held = "\n"
            return out
        self._sentence += ch
        self._line += ch
        if ch == "`":
            self._ticks += 1
        if ch in ".!?" and self._ticks % 2 == 0 and not ABBREVIATION.search(self._sentence):
            self._ended, self._punct = True, ch  # held: a marker goes before the full stop
            return out
        if ch == "]" and _AFTER_STOP.search(self._sentence):
            self._ended = True
        return out + ch

    def _newline(self) -> None:
        if self._line.strip().startswith(("```", "~~~")):
            self._fence = not self._fence
            self._sentence = ""
        if self._line.strip():  # a blank line does not hide the line a sentence ended on
            self._last_line = self._line
        self._line, self._ticks = "", 0

    def _in_fence(self, ch: str) -> str:
        if ch == "\n":
            self._newline()
        else:
            self._line += ch
        return ch

    def _finish(self, line: str) -> str:
        """" [n]" for the sentence just ended on ``line``, when it needs one and a passage
        supports it; never in a table row or an indented code line, where it would break them."""
        sentence, self._sentence = self._sentence, ""
        if line.strip().startswith(("```", "~~~", "|")) or _INDENTED_CODE.match(line):
            return ""
        bare = _BULLET.sub("", sentence).strip()
        if not bare or bare.startswith("#") or MARKER.search(bare):
            return ""
        terms = key_terms(bare)
        if not is_claim(bare, terms):
            return ""
        number = _best(terms, self.terms)
        if number is None:
            return ""
        self.added += 1
        return f" [{number}]"


def _best(terms: set[str], passages: dict[int, set[str]]) -> int | None:
    best, share = None, SUPPORT_THRESHOLD
    for number in sorted(passages):
        got = len(terms & passages[number]) / len(terms)
        if got >= share and (best is None or got > share):
            best, share = number, got
    return best
