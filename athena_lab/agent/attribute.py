"""Markers a small model leaves out, added as its sentences finish.

Asked for `[n]` markers with a worked example, Qwen2.5-Coder 1.5B still wrote them in
only some answers (2 of 4 by hand), and a sentence without one is "unsupported" however
right it is. So each sentence of a model's answer that makes a claim and carries no
marker is given one as soon as it ends: the passage the model read that holds the
largest share of its key terms and every name it uses — the test the citation check
applies afterwards (agent/support.py), so an added marker is one that check accepts. A
sentence no passage supports gets no marker and stays flagged. Markers go in while the
answer streams: only the whitespace after a possible sentence end is held back until the
next character says whether it ended.

A sentence that uses a name the folder does not hold (``unknown``, agent/names.py) gets no
marker at all, not even one the model wrote itself: from a model's own ``[`` to the end of
its sentence the text is held, and such a sentence's markers are dropped.
"""

from __future__ import annotations

import re

from typing import Callable

from athena_lab.agent.citations import ABBREVIATION, MARKER, is_claim, key_terms
from athena_lab.agent.names import defined_in
from athena_lab.agent.support import Support

_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_INDENTED_CODE = re.compile(r"^(?:    |\t)(?![ \t]*(?:[-*+]|\d+[.)])\s)")  # not a nested list item
_AFTER_STOP = re.compile(r"[.!?]\s*(?:\[\d{1,3}(?:\s*[,;]\s*\d{1,3})*\]\s*)+$")


class Attributor:
    """Sits between a model's text deltas and the marker rewriter; ``added`` counts markers it gave."""

    def __init__(self, passages: dict[int, str] | Support,
                 unknown: Callable[[str, set[str]], list[str]] | None = None) -> None:
        """``unknown``: the names of a sentence the folder does not hold, given the names the
        answer's examples define so far."""
        self.support = passages if isinstance(passages, Support) else Support(passages)
        self.unknown = unknown
        self.added = 0
        self.withheld: list[str] = []  # sentences left without a marker for a name not found
        self._code = ""  # the code block being written, whose names are the example's own
        self._hold = ""  # from a model's own "[" to the end of its sentence
        self._gap = ""  # spaces inside a sentence, which go with a "[" that follows them
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
        self.support.add(passages)

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
                out = self._finish(self._last_line if newline else self._line) + self._punct + self._held
            elif self._hold:  # "example.com" inside a held link: the dot goes on being held
                self._hold += self._punct + self._held
            else:
                out += self._punct + self._held
            self._line += self._held.rsplit("\n", 1)[-1]  # an indent held back is still this line's
            self._punct, self._held, self._ended = "", "", False
        if ch == "\n":
            if not self._hold:
                out, self._gap = out + self._gap, ""
            self._newline()
            if self._fence:  # the line opened a code block: nothing to hold
                return out + ch
            self._ended = bool(self._sentence.strip())
            self._held = "\n"
            return out
        if ch == " " and self.unknown is not None and not self._hold:
            self._gap += ch
            self._sentence += ch
            self._line += ch
            return out
        gap, self._gap = self._gap, ""
        self._sentence += ch
        self._line += ch
        if ch == "`":
            self._ticks += 1
        if ch == "[" and self._ticks % 2 == 0 and self.unknown is not None:
            self._hold += gap + ch  # a marker of the model's own, perhaps: kept until the sentence ends
            return out
        out += gap
        if self._hold:
            self._hold += ch
            if ch in ".!?" and self._ticks % 2 == 0 and not ABBREVIATION.search(self._sentence):
                self._hold = self._hold[:-1]
                self._ended, self._punct = True, ch
            elif ch == "]" and _AFTER_STOP.search(self._sentence):
                self._ended = True
            return out
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
            if not self._fence:  # a block just closed: its names are the example's own from here on
                self.support.defined |= defined_in(f"```\n{self._code}```\n")
            self._code = ""
        elif self._fence:
            self._code += self._line + "\n"
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
        """What was held of the sentence just ended on ``line`` and " [n]" when it needs one
        and a passage supports it; never in a table row or an indented code line, where it
        would break them; no marker at all on a sentence with a name the folder lacks."""
        sentence, self._sentence = self._sentence, ""
        held, self._hold, self._gap = self._hold + self._gap, "", ""
        bare = _BULLET.sub("", sentence).strip()
        if held and self.unknown is not None and self.unknown(MARKER.sub(" ", bare), self.support.defined):
            self.withheld.append(bare)
            return re.sub(r"\s*" + MARKER.pattern, "", held) if MARKER.search(held) else held
        if line.strip().startswith(("```", "~~~", "|")) or _INDENTED_CODE.match(line):
            return held
        if not bare or bare.startswith("#") or MARKER.search(bare):
            return held
        terms = key_terms(bare)
        if not is_claim(bare, terms):
            return held
        if self.unknown is not None and self.unknown(bare, self.support.defined):
            self.withheld.append(bare)
            return held
        number = self.support.best(bare)
        if number is None:
            return held
        self.added += 1
        return f"{held} [{number}]" if held else f" [{number}]"
