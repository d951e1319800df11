"""BibTeX entries with no file link found among the indexed PDFs by their titles.

Many ``.bib`` files name no file at all: Google Scholar's, DBLP's and arXiv's BibTeX, a
hand-written ``references.bib``. Such an entry (or one whose links name no indexed file)
is the record of the indexed PDF whose first pages carry its title — and, when the entry
names authors, one of their surnames. The pages are read as the index already holds them
(the passages of pages 1–2 and the record the parser read from the first page,
``Catalog.first_pages``): no PDF is opened or parsed again for this.

Titles are compared as text folded the same way on both sides: case, accents, ligatures
and punctuation gone, a hyphen (a line's hyphenation ``Special-\\nization`` or the word's
own ``Trace-based``) joining its words, and spaces ignored, so a title broken over three
lines, or one a PDF's text runs together, still matches. A title of fewer than three
words is not matched (too many pages say "Deep learning"). Only a one-to-one match
counts: an entry whose title is on two PDFs' pages, or a PDF carrying two entries'
titles, links nothing and each entry gets a message; a title found inside a longer one
found on the same page ("Learning to rank" in "Learning to rank for information
retrieval") is the longer one's and is set aside quietly. Files a Zotero item or an
entry's file link already holds are not looked at: those win.

The search is one pass over each PDF's words: each word start is looked up among the
titles' first ``_KEY`` letters, then among those titles by length, so its cost grows with
the pages' text plus the entries, not their product (2,392 entries against 42 PDFs: docs/papers.md).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Iterator, Mapping, Sequence

_KEY = 12  # letters of a title's start looked up at each word of a page
_MIN_WORDS = 3
_HYPHEN = re.compile(r"\s*[-\u00ad\u2010\u2011]\s*")  # "Trace-based", "Special-\nization", soft hyphens
_NON_WORD = re.compile(r"[\W_]+")
# Letters NFKD does not take apart (no combining mark in them).
_LETTERS = {"ł": "l", "Ł": "l", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d", "ı": "i", "ß": "ss",
            "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "þ": "th", "Þ": "th"}
_LETTER = re.compile(f"[{''.join(_LETTERS)}]")  # not str.translate: 0.01 s a megabyte of pages, not 0.2 s


@dataclass(frozen=True)
class Wanted:
    """An entry to find a PDF for: ``ref`` is the caller's handle for it, ``name`` how a
    message names it ("entry 'Vaswani2017'")."""

    ref: int
    name: str
    title: str
    surnames: tuple[str, ...] = ()


@dataclass
class TitleMatches:
    found: dict[int, str] = field(default_factory=dict)  # ref → the one PDF its title is on
    warnings: dict[int, list[str]] = field(default_factory=dict)  # ref → why it linked nothing

    def warn(self, ref: int, message: str) -> None:
        self.warnings.setdefault(ref, []).append(message)


def fold(text: str) -> str:
    """Words as compared here: lower case, accents and punctuation gone, hyphenated words
    joined, one space between words."""
    text = unicodedata.normalize("NFKD", _LETTER.sub(lambda m: _LETTERS[m.group()], text))
    # The accents NFKD took apart go: each distinct character looked up once, not each
    # character (the first pages of 137 PDFs, a megabyte, fold in about 0.2 s, not 0.5 s).
    marks = "".join(ch for ch in set(text) if unicodedata.combining(ch))
    if marks:
        text = re.sub(f"[{re.escape(marks)}]", "", text)
    text = text.lower()
    return " ".join(w for w in _NON_WORD.split(_HYPHEN.sub("", text)) if w)


def flat_title(title: str) -> str:
    """A title as it is looked for on pages: folded, its spaces gone (a PDF's text may
    break it anywhere, or run its words together)."""
    return fold(title).replace(" ", "")


class FoldedPage:
    """A PDF's first pages as titles are looked for on them — here and by the attachment
    check (ingest/attachments.py), one test for both: a title is on the pages when its
    ``flat_title`` starts where a word of the folded pages starts, spaces ignored."""

    def __init__(self, text: str) -> None:
        self.spaced = fold(text)
        self.flat = self.spaced.replace(" ", "")
        self.words = self.spaced.split(" ") if self.spaced else []
        self._starts: set[int] | None = None
        self._vocabulary: set[str] | None = None

    def starts(self) -> Iterator[int]:
        """Where each word starts in ``flat``."""
        at = 0
        for word in self.words:
            yield at
            at += len(word)

    def prints(self, title: str) -> bool:
        """``title`` (a ``flat_title``) is on the pages."""
        if not title:
            return False
        if self._starts is None:
            self._starts = set(self.starts())
        at = self.flat.find(title)
        while at >= 0:
            if at in self._starts:
                return True
            at = self.flat.find(title, at + 1)
        return False

    def vocabulary(self) -> set[str]:
        """The pages' words, once."""
        if self._vocabulary is None:
            self._vocabulary = set(self.words)
        return self._vocabulary

    def names_one_of(self, surnames: Sequence[str]) -> bool:
        """One of the folded ``surnames`` is a word (or words) of the pages."""
        padded = f" {self.spaced} "
        return any(f" {s} " in padded for s in surnames)


def match_titles(wanted: Sequence[Wanted], pages: Mapping[str, str]) -> TitleMatches:
    """The PDF (a key of ``pages``: path → its first pages' text) each entry of ``wanted``
    is, where exactly one PDF carries its title and no other entry's."""
    out = TitleMatches()
    titles: dict[int, str] = {}  # ref → folded title without spaces
    # first letters → title length → title → refs: a word start costs one look-up per length
    # of the titles that start there, however many entries share a start ("A survey of …").
    by_start: dict[str, dict[int, dict[str, list[int]]]] = {}
    for w in wanted:
        words = fold(w.title).split()
        flat = "".join(words)
        if len(words) < _MIN_WORDS or len(flat) < _KEY:
            continue
        titles[w.ref] = flat
        by_start.setdefault(flat[:_KEY], {}).setdefault(len(flat), {}).setdefault(flat, []).append(w.ref)
    if not titles:
        return out
    surnames = {w.ref: [n for n in (fold(s) for s in w.surnames) if n] for w in wanted}
    on_pdf: dict[str, set[int]] = {}
    for path, text in pages.items():
        page = FoldedPage(text)
        flat = page.flat
        here: set[int] = set()
        for at in page.starts():  # a title starts where a word does (FoldedPage.prints, by look-up)
            for length, same in by_start.get(flat[at:at + _KEY], {}).items():
                here.update(same.get(flat[at:at + length], ()))
        here = {ref for ref in here if not surnames[ref] or page.names_one_of(surnames[ref])}
        # A title inside a longer one found here is the longer one's ("Learning to rank").
        here = {ref for ref in here if not any(other != ref and titles[ref] != titles[other]
                                               and titles[ref] in titles[other] for other in here)}
        if here:
            on_pdf[path] = here
    on_which: dict[int, list[str]] = {}
    for path, refs in sorted(on_pdf.items()):
        for ref in refs:
            on_which.setdefault(ref, []).append(path)
    names = {w.ref: w.name for w in wanted}
    for ref, paths in on_which.items():
        if len(paths) > 1:
            shown = ", ".join(repr(p) for p in paths[:3]) + (", …" if len(paths) > 3 else "")
            out.warn(ref, f"its title is on the first pages of {len(paths)} files ({shown}): linked to none "
                          "(give it a file field)")
            continue
        others = sorted(names[o] for o in on_pdf[paths[0]] if o != ref)
        if others:
            out.warn(ref, f"its title is on the first pages of {paths[0]!r}, and so is the title of "
                          f"{', '.join(others[:3])}{', …' if len(others) > 3 else ''}: not linked by title "
                          "(give the right entry a file field)")
            continue
        out.found[ref] = paths[0]
    return out
