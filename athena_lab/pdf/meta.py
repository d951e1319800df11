"""Title, authors and year for a readable citation label ("Vaswani et al., 2017").

PDF metadata is tried first but is often empty or junk ("Microsoft Word - draft.docx"),
so the first page is the fallback: the title is its largest text near the top, and the
authors are the name-shaped pieces of the lines right under it.
"""

from __future__ import annotations

import re
from collections import Counter

from .layout import Line
from .pages import PageText

_JUNK_TITLE = re.compile(r"^(untitled|microsoft word|document\d*$)|\.(docx?|tex|dvi|pdf|indd)\b|\\", re.I)
_NAME = re.compile(r"^[A-ZÀ-ÖØ-Þ][\w'’.-]*(\s+[A-ZÀ-ÖØ-Þ][\w'’.-]*){1,3}$")
_NOT_NAME = re.compile(r"university|institute|google|research|school|department|lab\b|inc\b|"
                       r"abstract|college|center|centre|@|http", re.I)
_NAME_SPLIT = re.compile(r"[,;∗*†‡§¶♯#\d]+|\band\b|\s{2,}")
_YEAR = re.compile(r"\b(19[5-9]\d|20[0-4]\d)\b")
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>]+)", re.I)
_ARXIV = re.compile(r"arXiv:\s*(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(v\d+)?", re.I)
_ARXIV_NAME = re.compile(r"(?<!\d)(\d{4}\.\d{4,5})(v\d+)?(?!\d)")
_MARKS = re.compile(r"[α-ωΑ-Ω∗*†‡§¶♯#\d]+$")


def document_title(info: dict[str, str], first: PageText | None) -> str | None:
    title = " ".join((info.get("Title") or "").split())
    if len(title) >= 4 and not _JUNK_TITLE.search(title):
        return title
    lines = _title_lines(first)
    return " ".join(ln.text.strip() for ln in lines) if lines else None


def _title_lines(first: PageText | None) -> list[Line]:
    """Consecutive largest-size lines in the top half of the first page."""
    if first is None or not first.lines or first.source != "text":
        return []
    top = [ln for ln in first.lines if ln.bbox[1] < first.height / 2 and len(ln.text.strip()) > 3]
    if not top:
        return []
    biggest = max(ln.size for ln in top)
    body = Counter(round(ln.size) for ln in first.lines).most_common(1)[0][0]
    if biggest < body * 1.15:
        return []
    start = next(i for i, ln in enumerate(first.lines) if ln in top and ln.size >= biggest - 0.5)
    out = [first.lines[start]]
    for line in first.lines[start + 1:start + 4]:
        if line.size < biggest - 0.5:
            break
        out.append(line)
    return out


def document_authors(info: dict[str, str], first: PageText | None) -> list[str]:
    author = (info.get("Author") or "").strip()
    if author and not _JUNK_TITLE.search(author):
        # One line per name: a newline inside /Author would start a new RIS record.
        names = [" ".join(n.split()) for n in re.split(r";|,|\band\b|&", author) if n.strip()]
        if names:
            return names
    title = _title_lines(first)
    if not title or first is None:
        return []
    after = first.lines.index(title[-1]) + 1
    found: list[str] = []
    for line in first.lines[after:after + 6]:
        if line.text.strip().lower().startswith("abstract") or len(line.text) > 120:
            break
        found.extend(_names(line))
    return found[:12]


def _names(line: Line) -> list[str]:
    texts = line.cells if len(line.cells) > 1 else [line.text]
    pieces = [_MARKS.sub("", p.strip()) for text in texts for p in _NAME_SPLIT.split(text)]
    return [p for p in pieces if _NAME.match(p) and not _NOT_NAME.search(p)]


def document_ids(info: dict[str, str], first: PageText | None, file_name: str = "") -> dict[str, str]:
    """The DOI and arXiv identifier printed on the first page or in the metadata, when there
    are any: what a reference manager needs to find the paper. The file name is the last
    resort for arXiv ids (arXiv's own downloads are named ``2206.10883v3.pdf``)."""
    text = " ".join([info.get("Subject") or "", info.get("Keywords") or "", info.get("doi") or "",
                     *(ln.text for ln in (first.lines if first is not None else []))])
    out: dict[str, str] = {}
    doi = _DOI.search(text)
    if doi:
        out["doi"] = doi.group(1).rstrip(".,;)]}")
    arxiv = _ARXIV.search(text) or _ARXIV_NAME.search(file_name)
    if arxiv:
        out["arxiv"] = arxiv.group(1)
    return out


def arxiv_year(arxiv_id: str | None) -> int | None:
    """2206.10883 → 2022: new-style arXiv ids start with the submission's year and month."""
    match = re.match(r"(\d{2})(\d{2})\.", arxiv_id or "")
    return 2000 + int(match.group(1)) if match and 1 <= int(match.group(2)) <= 12 else None


def document_year(info: dict[str, str], first: PageText | None) -> int | None:
    match = re.match(r"D?:?(\d{4})", info.get("CreationDate") or "")
    if match and 1950 <= int(match.group(1)) <= 2049:
        return int(match.group(1))
    if first is None:
        return None
    years = Counter(_YEAR.findall(" ".join(ln.text for ln in first.lines)))
    return int(years.most_common(1)[0][0]) if years else None


def citation_label(authors: list[str], year: int | None, title: str | None, fallback: str,
                   surnames: list[str] | None = None) -> str:
    """"Vaswani et al., 2017"; title or file name when no author is known. ``surnames``:
    the family names when a record knows them (Zotero's "Stein Shiromoto"), else each
    author's last word."""
    surnames = surnames if surnames is not None else [a.split()[-1] for a in authors if a.split()]
    if len(surnames) >= 3:
        who = f"{surnames[0]} et al."
    elif len(surnames) == 2:
        who = f"{surnames[0]} and {surnames[1]}"
    elif surnames:
        who = surnames[0]
    else:
        who = (title or fallback)[:80]
    return f"{who}, {year}" if year else who
