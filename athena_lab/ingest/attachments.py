"""Does a library item's attached PDF look like the item? A warning when it does not.

A Zotero item attached to the wrong PDF (a common slip: the PDF dropped on the item above),
or a ``.bib`` entry whose ``file`` field or BibDesk link names another paper's file, gives
that file the item's record: every citation of it carries the wrong title, authors and
year. The user's record still wins — nothing is unlinked — but each such item gets a
warning naming it, the file and what to check.

The test is the one a ``.bib`` entry with no file link is matched by (ingest/bibtitles.py,
``FoldedPage.prints``): the item's title, folded (case, accents, ligatures, punctuation,
spacing and hyphenation set aside), is on the first pages the index holds of the PDF
(``Catalog.first_pages``: pages 1–2 without reference lists, and the title and authors the
parser read there). No PDF is opened. A false alarm on a right attachment is worse than a
missed wrong one, so the check stays quiet where its evidence is thin:

- a title with a subtitle ("Foo: Bar", "Foo? Bar", "Foo — Bar") passes when its main
  part of at least two words is printed;
- a title not printed whole still passes when ``MOST_WORDS`` (two thirds) of its words
  other than "a", "of", "the", "all", "you" … are words of the pages, if it has three such
  words or more: a title typed by hand ("Intro to Tropical Algebra Geometry"), with a
  typo, or one the PDF's text layer mangles ("simpli#ed"). Measured on the papers-we-love
  archive in docs/papers.md ("An attached PDF that is not the item's");
- an item with several PDFs (the paper and its supplement) passes when one of them prints
  the title; the warning, when none does, names them all;
- a PDF whose first pages hold fewer than ``MIN_WORDS`` words (a scan with no text layer,
  a cover image) is not checked, and nothing is said: athena cannot tell, and the parser
  already names a scanned or garbled file;
- titles of one or two words are checked all the same: such a title found by chance on a
  wrong PDF only lets a wrong attachment through, never raises a false alarm;
- records linked by their title (``linked_by == "title"``) were matched on the title
  already, and standalone Zotero attachments have no record to check.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Mapping

from athena_lab.index.catalog import LibraryRow
from athena_lab.ingest.bibtitles import FoldedPage, flat_title, fold

MIN_WORDS = 40  # first pages with fewer words (a scan, a cover page) are not checked
MOST_WORDS = 2 / 3  # a title whose words are this much on the pages passes, printed whole or not
# Words a title's share on the pages leaves out: any page has them.
_COMMON = frozenset(
    "a about all also an and any are as at be been being between but by can do does for from has have how if in "
    "into is it its more new not of on one or our over so than that the their them these this those through to "
    "toward towards two under up using via was we what when where which who why will with within without you "
    "your".split())
_MAX_TITLE = 120  # characters of the title a message quotes
# Where a title's main part ends and its subtitle starts: "Foo: Bar", "Foo? Bar", "Foo — Bar", "Foo. Bar".
_SUBTITLE = re.compile(r"\s*(?:[:?!.]|\s[-\u2013\u2014]{1,2})\s+")


def checked_rows(rows: Iterable[LibraryRow]) -> list[LibraryRow]:
    """The items whose files were linked explicitly (a Zotero attachment, a ``.bib`` file
    field or BibDesk link) and whose record has a title: those the check looks at."""
    out = []
    for row in rows:
        record = row.record
        if not row.bibliographic or not row.files or not record.get("title"):
            continue
        if record.get("source") == "bibtex" and (record.get("bibtex") or {}).get("linked_by") == "title":
            continue
        out.append(row)
    return out


def title_forms(title: str) -> list[str]:
    """The forms of ``title`` (``flat_title``) any of which, on the pages, passes: the whole
    title, and the part before each subtitle mark ("Foo: Bar — Baz": "Foo", "Foo: Bar")
    that has two words or more."""
    title = title.strip()
    forms = [flat_title(title)]
    for mark in _SUBTITLE.finditer(title):
        main = title[:mark.start()]
        if len(main.split()) >= 2:
            forms.append(flat_title(main))
    return [f for f in dict.fromkeys(forms) if f]


def words_on(title: str, page: FoldedPage) -> float:
    """The share of the title's words (folded; "a", "of", "all", "you" … and words of one or
    two letters left out) that are words of the pages; 0.0 for a title with fewer than
    three such words ("Attention Is All You Need" is two): it must be printed whole."""
    words = {w for w in fold(title).split() if w not in _COMMON and len(w) > 2}
    if len(words) < 3:
        return 0.0
    return len(words & page.vocabulary()) / len(words)


def attachment_warnings(rows: Iterable[LibraryRow],
                        first_pages: Callable[[set[str]], Mapping[str, str]]) -> dict[str, list[str]]:
    """PDF path → a message for each item of ``rows`` linked to PDFs none of which prints
    its title on its first pages. ``first_pages(paths)`` gives the index's text of the
    first pages of those of ``paths`` that are indexed PDFs (``Catalog.first_pages``)."""
    rows = checked_rows(rows)
    if not rows:
        return {}
    texts = first_pages({p for row in rows for p in row.files})
    pages: dict[str, FoldedPage | None] = {}
    for path, text in texts.items():
        folded = FoldedPage(text)
        pages[path] = folded if len(folded.words) >= MIN_WORDS else None  # too little text to tell
    out: dict[str, list[str]] = {}
    for row in rows:
        readable = {p: page for p in row.files if (page := pages.get(p)) is not None}
        if not readable:
            continue
        forms = title_forms(row.record["title"])
        if not forms or any(page.prints(f) for page in readable.values() for f in forms):
            continue
        if any(words_on(row.record["title"], page) >= MOST_WORDS for page in readable.values()):
            continue
        paths = list(readable)
        out.setdefault(paths[0], []).append(_message(row.record, paths))
    return out


def _message(record: dict[str, Any], paths: list[str]) -> str:
    title = record["title"]
    quoted = title if len(title) <= _MAX_TITLE else title[:_MAX_TITLE - 1] + "…"
    files = " and ".join(repr(p) for p in paths[:3]) + (" …" if len(paths) > 3 else "")
    one = len(paths) == 1
    zotero = record.get("source") != "bibtex"
    if zotero:
        item = f"Zotero item {(record.get('zotero') or {}).get('key', '?')}"
        lead = "wrong attachment?"  # the first words, all a two-line papers view shows at first
        what, fix = "attached file" if one else "attached files", "check the attachment in Zotero"
    else:
        bib = record.get("bibtex") or {}
        item = f"entry {bib.get('key', '?')!r} of {bib.get('file', 'the .bib file')}"
        lead = "wrong file link?"
        what, fix = "linked file" if one else "linked files", "check the entry's file field (in BibDesk, its linked file)"
    return (f"{lead} the {what} {files} {'does' if one else 'do'} not print the title of {item} (\"{quoted}\") on "
            f"{'its' if one else 'their'} first pages: {fix}; until then "
            f"{'it is' if one else 'they are'} cited with this record")
