"""The evidence of one turn (TurnEvidence), `[n]` markers tied to it, and the check that claims are backed.

Every number the model may cite names an item the loop actually retrieved in this turn
(the first search, or a tool result). Markers are renumbered to the final citation list
while the answer streams, so the text a user sees already matches the list; a marker
that points nowhere is dropped. A sentence that claims something without a marker, or
whose cited evidence lacks the sentence's key terms, is reported as unsupported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from athena_lab.language import FUNCTION_WORDS
from athena_lab.citations.labels import citation_location, labelled
from athena_lab.search.hybrid import citation, Hit

SUPPORT_THRESHOLD = 0.4  # share of a claim's key terms its cited evidence must contain
MIN_CLAIM_TERMS = 3

MARKER = re.compile(r"\[(\d{1,3}(?:\s*[,;]\s*\d{1,3})*)\]")
_PARTIAL_MARKER = re.compile(r"\[[\d,;\s]{0,20}$")
_TOKENS = re.compile(r"```|`|\[(\d{1,3}(?:\s*[,;]\s*\d{1,3})*)\]")
_WORDS = re.compile(r"\w+", re.UNICODE)
_ALL_STOPWORDS = frozenset().union(*FUNCTION_WORDS.values()) | frozenset(
    "also use used using can may might must will shall just like such only other more most some any "
    "them they its their theirs his her she him we us our me "
    "each every all both many much very well way ways get gets one two you your yours".split())
_SUFFIXES = ("ational", "ations", "ation", "ings", "ing", "ies", "ied", "es", "ed", "ly", "s", "e")
# (A PDF's text layer can set a footnote mark apart from its word and its full stop:
# "extremely small gradients 4 . To counteract …" is two sentences.)
_BREAK = re.compile(r"(?:(?<=\S[.!?])|(?<=[a-z] \d [.!?]))\s+(?=[^\W\d_a-z]|[\d\[(\"'`*¿¡])")
ABBREVIATION = re.compile(r"\b(?:e\.g|i\.e|etc|vs|cf|approx|incl|fig|figs|eq|eqs|sec|ch|vol|pp|al|resp|no)\.$",
                          re.IGNORECASE)
NOT_A_CLAIM = re.compile(
    r"\b(no evidence|nothing (?:about|on|for)|(?:could|can)(?:not|n't) find|not (?:found|covered|mentioned)"
    r"|does(?: not|n't) (?:say|mention|contain|cover)|step limit)\b", re.IGNORECASE)
# A passage's label as the prompt shows it (``gateway.md:3–16 (Zephyr gateway)``, ``paper.pdf
# p. 3``, ``nb.ipynb cell 4``), which a small model sometimes copies onto a line of its own:
# a pointer to a source, not a claim about anything.
SOURCE_LABEL = re.compile(
    r"^\s*(?:\[\d{1,3}\]\s*)?[\w./ -]+\.\w{1,6}(?::\d+(?:[–-]\d+)?|\s+pp?\.\s*\d+(?:[–-]\d+)?"
    r"|\s+cells?\s+\d+(?:[:–-]\d+)*)\s*(?:\([^()]*\))?\s*$")

# A line of the prompt's own scaffolding (agent/prompts.py, agent/select.py) that a small model
# echoes back: the question it was asked, or a passage's label under "Passages:". The user's
# words or the prompt's, never a claim. ("Reply:" is not among them: what follows it is the
# model's own and is checked.)
PROMPT_ECHO = re.compile(r"^\s*(?:Question|Sentences|Passages)\s*:", re.IGNORECASE)


# -- terms -------------------------------------------------------------------
def stem(word: str) -> str:
    """Crude suffix stripping: enough to match configure/configured/configuration."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)] + ("y" if suffix in ("ies", "ied") else "")
    return word


def key_terms(text: str) -> set[str]:
    """Stemmed content words; identifiers also count by their parts (register_blueprint)."""
    out: set[str] = set()
    for raw in _WORDS.findall(text.lower()):
        for word in {raw, *raw.split("_")}:
            if word and (word.isdigit() or (len(word) >= 3 and word not in _ALL_STOPWORDS)):
                out.add(stem(word))
    return out


def split_sentences(text: str) -> list[str]:
    """Prose sentences of an answer: code fences and headings skipped, bullets unwrapped,
    and a marker that trails a sentence's full stop kept with that sentence."""
    prose = re.sub(r"```.*?(```|$)", "\n", text, flags=re.DOTALL)
    sentences: list[str] = []
    for line in prose.splitlines():
        line = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", line).strip()
        if not line or line.startswith("#"):
            continue
        for piece in sentence_split(line):
            lead = re.match(r"^((?:\[\d[\d,;\s]*\]\s*)+)(.*)$", piece)
            if lead and sentences:
                sentences[-1] += " " + lead.group(1).strip()
                piece = lead.group(2)
            if piece.strip():
                sentences.append(piece.strip())
    return sentences


def sentence_split(text: str) -> list[str]:
    """Break at . ! ? before a capital, digit, bracket or quote — not after e.g., i.e., etc."""
    pieces: list[str] = []
    for piece in _BREAK.split(text):
        if pieces and ABBREVIATION.search(pieces[-1]):
            pieces[-1] += " " + piece
        else:
            pieces.append(piece)
    return [p.strip() for p in pieces if p.strip()]


def marker_numbers(text: str) -> list[int]:
    return [int(n) for m in MARKER.finditer(text) for n in re.split(r"\s*[,;]\s*", m.group(1))]


# -- evidence -----------------------------------------------------------------
@dataclass
class EvidenceItem:
    number: int
    citation: dict[str, Any]
    text: str

    @property
    def where(self) -> str:
        return citation_location(self.citation)


@dataclass
class TurnEvidence:
    """Everything retrieved in one turn, numbered in retrieval order; repeats keep their number.
    (The JSON of one evidence entry of a citation is ``contract.Evidence``.)"""

    items: list[EvidenceItem] = field(default_factory=list)
    _keys: dict[str, int] = field(default_factory=dict)

    def get(self, number: int) -> EvidenceItem | None:
        return self.items[number - 1] if 1 <= number <= len(self.items) else None

    def item(self, number: int) -> EvidenceItem:
        """The item ``number`` of this turn, which must exist (a number ``add_*`` returned)."""
        found = self.get(number)
        if found is None:
            raise LookupError(f"no evidence item {number} in this turn (there are {len(self.items)})")
        return found

    def _add(self, key: str, cite: dict[str, Any], text: str) -> int:
        if key in self._keys:
            return self._keys[key]
        cite.pop("id", None)
        item = EvidenceItem(len(self.items) + 1, cite, text)
        self.items.append(item)
        self._keys[key] = item.number
        return item.number

    def add_hit(self, hit: Hit, query: str) -> int:
        return self._add(hit.chunk.chunk_id, dict(citation(hit, query)), hit.chunk.text)

    def add_range(self, path: str, start: int, end: int, lines: list[str], kind: str = "text") -> int:
        text = "\n".join(lines)
        cite = labelled({"kind": kind, "path": path, "start_line": start, "end_line": end,
                         "heading_path": None, "chunk_id": None, "snippet": _flat(text)})
        return self._add(f"{path}:{start}-{end}", cite, text)

    def add_pdf_page(self, path: str, page: int, text: str, regions: list[dict[str, Any]],
                     confidence: float | None, warnings: list[str]) -> int:
        cite = {"kind": "pdf", "path": path, "page": page, "regions": regions,
                "confidence": confidence, "warnings": warnings, "chunk_id": None, "snippet": _flat(text)}
        key = f"{path}#p{page}:" + ",".join(f"{r['x']},{r['y']}" for r in regions[:1])
        return self._add(key, cite, text)


def _flat(text: str, width: int = 280) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[:width].rstrip() + "…"


# -- streaming renumbering ------------------------------------------------------
class MarkerRewriter:
    """Renumbers `[n]` markers to 1..N in order of first use while text streams through.

    Text that might be the start of a marker (`[1`, `[2, `) or of a code fence is held
    back until the next piece decides it, so no chunk ever shows a stale number.
    Markers inside code are left alone.
    """

    def __init__(self, evidence: TurnEvidence) -> None:
        self.evidence = evidence
        self.mapping: dict[int, int] = {}  # evidence number → citation number
        self.dropped: list[int] = []
        self._pending = ""
        self._space = ""  # trailing whitespace not yet emitted: a dropped marker swallows it
        self._fence = False
        self._inline = False

    def feed(self, text: str) -> str:
        self._pending += text
        cut = len(self._pending)
        partial = _PARTIAL_MARKER.search(self._pending)
        if partial:
            cut = partial.start()
        while cut > 0 and self._pending[cut - 1] == "`":
            cut -= 1
        ready, self._pending = self._pending[:cut], self._pending[cut:]
        return self._rewrite(ready)

    def flush(self) -> str:
        ready, self._pending = self._pending, ""
        out = self._rewrite(ready) + self._space
        self._space = ""
        return out

    def citations(self) -> list[dict[str, Any]]:
        order = sorted(self.mapping.items(), key=lambda kv: kv[1])
        return [{"id": new, **self.evidence.items[old - 1].citation} for old, new in order]

    def _rewrite(self, text: str) -> str:
        out: list[str] = []
        last = 0
        for m in _TOKENS.finditer(text):
            between = text[last:m.start()]
            if "\n" in between and not self._fence:
                self._inline = False  # inline code ends with its line: a stray backtick must not hide the rest
            out.append(between)
            token = m.group(0)
            if token == "```":
                self._fence = not self._fence
                out.append(token)
            elif token == "`":
                self._inline = not self._inline if not self._fence else self._inline
                out.append(token)
            elif self._fence or self._inline:
                out.append(token)
            else:
                out.append(self._renumber(m.group(1), out))
            last = m.end()
        if "\n" in text[last:] and not self._fence:
            self._inline = False
        out.append(text[last:])
        return self._emit("".join(out))

    def _renumber(self, numbers: str, out: list[str]) -> str:
        kept = []
        for raw in re.split(r"\s*[,;]\s*", numbers):
            n = int(raw)
            if self.evidence.get(n) is None:
                self.dropped.append(n)
                continue
            if n not in self.mapping:
                self.mapping[n] = len(self.mapping) + 1
            kept.append(f"[{self.mapping[n]}]")
        if not kept:  # the marker pointed nowhere: drop it with the space before it
            if out:
                out[-1] = out[-1].rstrip(" ")
            if not "".join(out):
                self._space = ""
        return "".join(kept)

    def _emit(self, text: str) -> str:
        if not text:
            return ""
        text = self._space + text
        body = text.rstrip(" ")
        self._space = text[len(body):]
        return body


# -- support check ---------------------------------------------------------------
def is_claim(bare: str, terms: set[str]) -> bool:
    text = bare.strip()
    return (len(terms) >= MIN_CLAIM_TERMS and not text.endswith(("?", ":"))
            and not NOT_A_CLAIM.search(text) and not SOURCE_LABEL.match(text)
            and not PROMPT_ECHO.match(text))


def cited_texts(rewriter: MarkerRewriter) -> dict[int, str]:
    return {new: rewriter.evidence.items[old - 1].text for old, new in rewriter.mapping.items()}


def numbered(items: Iterable[EvidenceItem]) -> list[tuple[int, str, str]]:
    """(number, location + heading, text) triples for the prompt's evidence block."""
    out = []
    for item in items:
        heading = item.citation.get("heading_path")
        out.append((item.number, item.where + (f" ({heading})" if heading else ""), item.text))
    return out
