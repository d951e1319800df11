"""The narrowest locator of a quote inside a cited chunk: lines, cell + lines, or page + regions.

A chunk can be forty lines, four notebook cells or most of a PDF page; a reader sent
there still has to hunt for the sentence. The quote is found again in the source the
chunk came from (the same lines, the same cells, the same pdfium extraction the index
used), comparing letters and digits only, so markup cleaning, hyphenation and line
wrapping do not hide it. A quote that cannot be found gets no narrower locator: the
chunk's own remains, never a guess.
"""

from __future__ import annotations

import functools
import html
import json
import re
from typing import Any, Callable

from athena_lab.agent.corpus import Corpus
from athena_lab.errors import AthenaError

_TAG = re.compile(r"<[^>]*>")
_NOT_LETTERS = re.compile(r"[\W_]+", re.UNICODE)
MIN_QUOTE = 12  # squashed characters: shorter quotes match by chance


@functools.lru_cache(maxsize=8192)
def squash(text: str) -> str:
    """Letters and digits only, lowercased: what two renderings of one sentence share.

    Kept per line: every quote of an answer is looked for in the same chunk lines."""
    from athena_lab.agent.passages import clean_markup

    text = _TAG.sub("", html.unescape(text.replace("\u00ad", "")))  # `&lt;Directory&gt;` and `<Directory>` alike
    return _NOT_LETTERS.sub("", clean_markup(text).lower())


# An API entry is quoted as "NAME: its description" (agent/passages.py), while its source
# may hold option lines between the two (``.. confval:: numfig`` / ``:type: bool`` / …).
ENTRY_QUOTE = re.compile(r"^([\w.:-]+): (.+)$", re.S)
ENTRY_REACH = 12  # lines above the description the entry's name may sit


def find_lines(lines: list[str], quote: str) -> tuple[int, int] | None:
    """0-based first and last index of the lines that hold ``quote``, or None. An entry
    quote (``NAME: description``) whose parts are apart spans the name's line through the
    description."""
    squashed = [squash(line) for line in lines]
    found = _find_squashed(squashed, squash(quote))
    entry = ENTRY_QUOTE.match(quote.strip()) if found is None else None
    if entry is None:
        return found
    rest = _find_squashed(squashed, squash(entry.group(2)))
    name = squash(entry.group(1))
    if rest is None or not name:
        return None
    named = [i for i in range(max(0, rest[0] - ENTRY_REACH), rest[0] + 1) if name in squashed[i]]
    return (named[-1], rest[1]) if named else None


def _find_squashed(squashed: list[str], needle: str) -> tuple[int, int] | None:
    if len(needle) < MIN_QUOTE:
        return None
    starts, joined = [], ""
    for line in squashed:
        starts.append(len(joined))
        joined += line
    at = joined.find(needle)
    if at < 0:
        return None
    first = max(i for i, s in enumerate(starts) if s <= at)
    last = max(i for i, s in enumerate(starts) if s <= at + len(needle) - 1)
    return first, last


def text_evidence(ws: Corpus, cite: dict[str, Any], quote: str) -> dict[str, Any] | None:
    """``{start_line, end_line}`` of the quote within the chunk's lines of a text file.

    A long paragraph is split between two chunks wherever the size limit falls, so a
    chunk's last sentence can stop mid-way ("… as it allows" / "you to change the URL
    later …"). Such a quote's lines run on to where its sentence ends in the file, so the
    mark covers the sentence the reader sees cited, not its first half."""
    start, end = int(cite["start_line"]), int(cite["end_line"])
    lines = _reads(ws).text_lines(cite["path"], start, end)
    found = find_lines(lines, quote)
    if found is None:
        return None
    last = start + found[1]
    if found[1] == len(lines) - 1 and not _ENDS_SENTENCE.search(quote.rstrip()):
        last = _sentence_end(ws, cite["path"], last)
    return {"start_line": start + found[0], "end_line": last}


# A sentence ends at . ! ? (after any closing quote, bracket or markup), then a space or
# the line's end; a blank line ends a paragraph.
_ENDS_SENTENCE = re.compile(r"[.!?][\"'”’)\]`*_]*(?:\s|$)")
SENTENCE_REACH = 8  # lines past a chunk's end that a sentence cut by the chunk may run on


def _sentence_end(ws: Corpus, path: str, line: int) -> int:
    """The line where the sentence running past ``line`` (a chunk's last) ends in the file."""
    try:
        more = _reads(ws).text_lines(path, line + 1, line + SENTENCE_REACH)
    except (AthenaError, OSError, ValueError):
        return line  # the file ends there, or changed: the chunk's end is all we know
    for offset, text in enumerate(more):
        if not text.strip() or text.lstrip().startswith(("```", ".. ", "#")):
            return line + offset  # the paragraph ended on the line before
        if _ENDS_SENTENCE.search(text):
            return line + offset + 1
    return line


def notebook_evidence(ws: Corpus, cite: dict[str, Any], quote: str) -> dict[str, Any] | None:
    """``{cell, start_line, end_line}``: the cell that holds the quote, lines within it (1-based)."""
    cells = _reads(ws).notebook_cells(cite["path"])
    first, last = int(cite["cell"]), int(cite.get("end_cell", cite["cell"]))
    for index in range(first, min(last, len(cells) - 1) + 1):
        source = cells[index].get("source", "")
        lines = ("".join(source) if isinstance(source, list) else source).splitlines()
        found = find_lines(lines, quote)
        if found is not None:
            return {"cell": index, "start_line": found[0] + 1, "end_line": found[1] + 1}
    return None


def pdf_evidence(ws: Corpus, cite: dict[str, Any], quote: str) -> dict[str, Any] | None:
    """``{page, regions}``: the page the quote is printed on and one rectangle per line of it.

    A quote that runs over a page break keeps both pages: each region carries its own page.
    """
    if any(str(w).startswith(("scanned", "image-only")) for w in cite.get("warnings") or []):
        # Its text came from OCR: re-reading the page would run OCR again while the user waits.
        return stored_pdf_evidence(ws, cite, quote)
    pages = [p for p in (cite.get("pages") or [cite.get("page")]) if p is not None]
    lines: list[tuple[int, str, dict[str, float]]] = []
    for page in pages:
        for line in _reads(ws).read_pdf_source(cite["path"], int(page))["lines"]:
            lines.append((int(page), line["text"], line["region"]))
    found = find_lines([text for _, text, _ in lines], quote)
    if found is None:
        return None
    chosen = lines[found[0]:found[1] + 1]
    return {"page": chosen[0][0], "regions": [dict(region, page=page) for page, _, region in chosen]}


def stored_pdf_evidence(ws: Corpus, cite: dict[str, Any], quote: str) -> dict[str, Any] | None:
    """``{page, regions}`` from the chunk as indexed: one region was stored per line of its
    text, so the lines that hold the quote name their regions without reading the page again."""
    row = ws.chunk(cite["chunk_id"]) if cite.get("chunk_id") else None
    if row is None:
        return None
    lines = [line for line in row.text.split("\n") if line.strip()]
    regions = row.locator.get("regions") or []
    if len(lines) != len(regions):
        return None  # the text was not stored line for region: no narrower locator than a guess
    found = find_lines(lines, quote)
    if found is None:
        return None
    chosen = regions[found[0]:found[1] + 1]
    return {"page": chosen[0].get("page", cite.get("page")), "regions": [dict(r) for r in chosen]}


LOCATORS: dict[str, Callable[[Any, dict[str, Any], str], dict[str, Any] | None]] = {
    "pdf": pdf_evidence, "notebook": notebook_evidence}


def narrow(ws: Corpus | SourceReads, cite: dict[str, Any], quote: str) -> dict[str, Any] | None:
    """The evidence entry for ``quote`` in ``cite`` (with the quote), or None when not found."""
    if cite.get("start_line") is None and cite.get("kind") != "pdf":
        return None
    locate = LOCATORS.get(cite.get("kind") or "", text_evidence)
    try:
        where = locate(ws, cite, quote)
    except (AthenaError, OSError, ValueError, KeyError, IndexError):
        return None  # a file changed or vanished since it was indexed: keep the chunk's locator
    return None if where is None else {**where, "quote": quote}


def best_sentence(claim: str, chunk_text: str) -> str | None:
    """The chunk sentence sharing most key terms with a model's claim (at least two)."""
    from athena_lab.agent.citations import key_terms
    from athena_lab.agent.passages import sentences

    terms = key_terms(claim)
    scored = [(len(terms & key_terms(s.text)), s.text) for s in sentences(chunk_text)]
    best = max(scored, default=(0, ""))
    return best[1] if best[0] >= 2 else None


def model_quotes(answer: str, evidence: Any) -> list[tuple[int, str]]:
    """(evidence number, chunk sentence) for each cited claim of a model's answer."""
    from athena_lab.agent.citations import MARKER, marker_numbers, split_sentences

    out: list[tuple[int, str]] = []
    for sentence in split_sentences(answer):
        for n in marker_numbers(sentence):
            item = evidence.get(n)
            match = best_sentence(MARKER.sub(" ", sentence), item.text) if item else None
            if match and (n, match) not in out:
                out.append((n, match))
    return out


def with_evidence(ws: Corpus, citations: list[dict[str, Any]], quotes: list[tuple[int, str]]) -> list[dict[str, Any]]:
    """Citations with ``evidence`` (narrowest locators of what the answer quotes) and the label it gives.

    ``quotes`` are in citation numbers. A citation whose quotes cannot be found keeps
    its chunk locator and no ``evidence`` field.
    """
    from athena_lab.citations.labels import distinct_labels, labelled

    reads = _reads(ws)
    by_number: dict[int, list[dict[str, Any]]] = {}
    for number, quote in quotes:
        cite = next((c for c in citations if c.get("id") == number), None)
        entry = narrow(reads, cite, quote) if cite is not None else None
        if entry is not None and entry not in by_number.setdefault(number, []):
            by_number[number].append(entry)
    for cite in citations:
        cited = cite.get("id")
        if isinstance(cited, int) and by_number.get(cited):
            cite["evidence"] = by_number[cited]
            labelled(cite)
    return distinct_labels(citations)


def _reads(ws: Corpus) -> "SourceReads":
    return ws if isinstance(ws, SourceReads) else SourceReads(ws)


class SourceReads:
    """The workspace with each source read once per answer: its quotes mostly share one
    file, page or notebook, and a notebook is a whole JSON document to parse."""

    def __init__(self, ws: Corpus) -> None:
        self._ws = ws
        self._reads: dict[tuple[Any, ...], Any] = {}

    def _once(self, key: tuple[Any, ...], read: Callable[[], Any]) -> Any:
        if key not in self._reads:
            self._reads[key] = read()
        return self._reads[key]

    def read_pdf_source(self, path: str, page: int) -> dict[str, Any]:
        return self._once(("pdf", path, int(page)), lambda: self._ws.read_pdf_source(path, int(page)))

    def text_lines(self, path: str, start: int, end: int) -> list[str]:
        return self._once(("text", path, start, end),
                          lambda: self._ws.read_source(path, start, end, max_lines=end - start + 1)["lines"])

    def notebook_cells(self, path: str) -> list[dict[str, Any]]:
        return self._once(("notebook", path), lambda: json.loads(
            self._ws.source_path(path).read_text(encoding="utf-8")).get("cells", []))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ws, name)
