"""The papers of an archive: a listing a researcher can sort and filter, scopes for a
question, and answers by paper ("Which papers discuss X?").

A paper is a Zotero item with its attachments (PDFs, HTML snapshots), or a PDF outside any
library. Its record is whichever it has: the library's when the item has one (the
researcher's own beats any guess), else the one the PDF parser guessed from its first page
(``Catalog.source_records``). An item whose attachment is missing is listed too, with the
warning, so the researcher sees what did not get indexed.

Every filter — author, year or year range, collection, tag, chosen papers — narrows to a
set of files; search, the chat's tools and the citation export then take that set
(``HybridSearcher.search(paths=…)``), so "limit the next question to these papers" is one
mechanism everywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Literal, Mapping, cast

from athena_lab.errors import AthenaError
from athena_lab.index.catalog import Catalog, SourceRow
from athena_lab.contract import Citation, Paper, PaperHit
from athena_lab.pdf.meta import citation_label
from athena_lab.search.hybrid import Hit, SearchResult, citation

SORTS = ("title", "author", "year", "pages")
Origin = Literal["zotero", "bibtex", "pdf", "none"]  # where a paper's record came from
SCOPE_KEYS = ("collection", "tag", "author", "year", "papers")
_YEARS = re.compile(r"^\s*(\d{4})?\s*(?:(-|–|\.\.)\s*(\d{4})?)?\s*$")
# "Which papers discuss X?" asks for X: the framing words would only add noise to BM25.
_FRAMING = re.compile(r"^\s*(?:which|what)\s+(?:papers?|articles?|works?|sources?)\s+(?:discuss(?:es)?|mentions?|"
                      r"covers?|(?:talks?|are|is|write|writes)\s+about|deals?\s+with|treats?|address(?:es)?|study|"
                      r"studies|use|uses|propose|proposes)\s+", re.I)


class PaperFilterError(AthenaError, ValueError):
    """A papers filter that cannot be applied as given (a year that is not one)."""


@dataclass(frozen=True)
class PaperFilters:
    """What narrows the papers: every given field must match."""

    author: str | None = None  # part of any author's name, any case
    year: tuple[int, int] | None = None  # inclusive range
    collection: str | None = None  # a collection's full name ("Computer Science / AI") or an ancestor's
    tag: str | None = None  # exact, any case
    papers: frozenset[str] | None = None  # paper ids chosen in the papers view

    @classmethod
    def of(cls, filters: Mapping[str, object] | None) -> "PaperFilters":
        f = filters or {}
        chosen = f.get("papers")
        return cls(author=_text(f.get("author")), year=parse_years(f.get("year")),
                   collection=_text(f.get("collection")), tag=_text(f.get("tag")),
                   papers=frozenset(str(p) for p in chosen) if isinstance(chosen, (list, tuple, set, frozenset))
                   else frozenset({chosen}) if isinstance(chosen, str) else None)

    def any(self) -> bool:
        return any(v is not None for v in (self.author, self.year, self.collection, self.tag, self.papers))

    def keep(self, paper: Paper) -> bool:
        if self.papers is not None and paper["id"] not in self.papers:
            return False
        if self.author and not any(self.author.lower() in a.lower() for a in paper["authors"]):
            return False
        year = paper.get("year")
        if self.year and not (year is not None and self.year[0] <= year <= self.year[1]):
            return False
        if self.collection:
            wanted = self.collection.lower()
            if not any(c.lower() == wanted or c.lower().startswith(wanted + " / ") for c in paper["collections"]):
                return False
        return not self.tag or self.tag.lower() in (t.lower() for t in paper["tags"])


def _text(value: Any) -> str | None:
    text = " ".join(str(value).split()) if value is not None else ""
    return text or None


def parse_years(value: Any) -> tuple[int, int] | None:
    """``1985`` → (1985, 1985); ``1980-1990``, ``1980..1990``, ``2000-`` and ``-1999`` → ranges."""
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return (value, value)
    match = _YEARS.match(str(value))
    if not match or not (match.group(1) or match.group(3)):
        raise PaperFilterError(f"year {str(value)[:40]!r}: give a year (1985) or a range (1980-1990, 2000-)")
    low = int(match.group(1)) if match.group(1) else 0
    high = int(match.group(3)) if match.group(3) else (9999 if match.group(2) else low)
    return (min(low, high), max(low, high))


def list_papers(catalog: Catalog) -> list[Paper]:
    """Every paper of the archive, in title order, with the record it has."""
    sources = catalog.sources()
    library = catalog.library()
    in_library = {path for row in library for path in row.files}
    paper_paths = [p for p, s in sources.items() if p in in_library or s.doc_kind == "pdf"]
    records = catalog.source_records(set(paper_paths))
    # The library's warnings about an item's own files (ingest/attachments.py: a PDF that
    # does not print its item's title) are the item's too.
    about_files = catalog.file_warnings()
    papers: list[Paper] = []
    for row in library:
        files = [p for p in row.files if p in sources]
        if not files and not row.warnings:
            continue  # an item with no file at all: nothing to search or to warn about
        record = row.record if row.bibliographic else records.get(files[0], {}) if files else {}
        origin: Origin = ("bibtex" if row.record.get("source") == "bibtex" else "zotero") if row.bibliographic \
            else "pdf" if files and record.get("title") else "none"
        warnings = row.warnings + [w for p in files for w in about_files.get(p, [])]
        papers.append(_paper(row.id, record, files, sources, row.collections, row.tags, warnings, origin))
    for path in sorted(set(paper_paths) - in_library):
        record = records.get(path, {})
        papers.append(_paper(path, record, [path], sources, [], [], [], "pdf" if record.get("title") else "none"))
    return sorted(papers, key=lambda p: ((p.get("title") or p["label"]).lower(), p["id"]))


def _paper(paper_id: str, record: dict[str, Any], files: list[str], sources: dict[str, SourceRow],
           collections: list[str], tags: list[str], warnings: list[str],
           origin: Origin) -> Paper:
    from athena_lab.citations.bibliography import record_of

    clean = record_of(files[0] if files else paper_id, record)
    name = files[0].rsplit("/", 1)[-1] if files else paper_id
    pages = [n for n in (sources[p].pages for p in files if sources[p].doc_kind == "pdf") if n]
    file_warnings = [f"{p.rsplit('/', 1)[-1]}: {w}" for p in files for w in sources[p].warnings]
    paper: Paper = {
        "id": paper_id, "title": clean.get("title"), "authors": clean.get("authors", []),
        "surnames": [n.get("family") or n.get("literal", "") for n in clean["names"]] if clean.get("names")
        else [a.split()[-1] for a in clean.get("authors", []) if a.split()],
        "year": clean.get("year"),
        "label": clean.get("label") or citation_label(clean.get("authors", []), clean.get("year"), clean.get("title"),
                                                      name.rsplit(".", 1)[0]),
        "pages": sum(pages) if pages else None, "paths": files,
        "kinds": sorted({sources[p].doc_kind for p in files}), "collections": collections, "tags": tags,
        "warnings": warnings + file_warnings, "record": origin,
    }
    for key in ("doi", "venue", "type", "zotero", "arxiv"):
        if clean.get(key):
            paper[key] = clean[key]  # type: ignore[literal-required]
    return paper


def select(papers: list[Paper], filters: PaperFilters, sort: str = "title", descending: bool = False) -> list[Paper]:
    """The papers ``filters`` keep, sorted by title, first author's surname, year or pages
    (papers without that field last)."""
    if sort not in SORTS:
        raise PaperFilterError(f"sort {sort!r}: use one of {', '.join(SORTS)}")
    kept = [p for p in papers if filters.keep(p)]
    key: Callable[[Paper], Any] = {
        "title": lambda p: (p.get("title") or p["label"]).lower(),
        "author": lambda p: (p["label"].lower() if p["authors"] else "\uffff"),
        "year": lambda p: p.get("year") or 0,
        "pages": lambda p: p.get("pages") or 0,
    }[sort]
    missing = [p for p in kept if not _has(p, sort)]
    present = sorted((p for p in kept if _has(p, sort)), key=key, reverse=descending)
    return present + missing


def _has(paper: Paper, sort: str) -> bool:
    return bool({"title": paper.get("title"), "author": paper["authors"], "year": paper.get("year"),
                 "pages": paper.get("pages")}[sort])


def scope_paths(papers: list[Paper], filters: PaperFilters) -> frozenset[str] | None:
    """The files of the papers ``filters`` keep; None when no paper filter is set (every file)."""
    if not filters.any():
        return None
    return frozenset(path for p in papers if filters.keep(p) for path in p["paths"])


def facets(papers: list[Paper]) -> dict[str, list[str]]:
    """The collections (with their ancestors) and tags the papers have, for filter menus."""
    collections: set[str] = set()
    for paper in papers:
        for name in paper["collections"]:
            parts = name.split(" / ")
            collections.update(" / ".join(parts[:n]) for n in range(1, len(parts) + 1))
    tags = {t for p in papers for t in p["tags"]}
    return {"collections": sorted(collections, key=str.lower), "tags": sorted(tags, key=str.lower)}


def topic_of(question: str) -> str:
    """"Which papers discuss consensus with faulty processes?" → "consensus with faulty processes"."""
    topic = _FRAMING.sub("", question).strip().rstrip("?").strip()
    return topic or question


def by_paper(result: SearchResult, papers: list[Paper], k: int) -> list[PaperHit]:
    """The top ``k`` papers among a search's hits, each with its best passage (and page).

    A paper scores its best passage's fused score, plus half its second's and a quarter of
    its third's: one strong passage wins, and a paper that keeps coming back beats one
    that matched once by chance."""
    owner = {path: paper for paper in papers for path in paper["paths"]}
    grouped: dict[str, list[Hit]] = {}
    for hit in result.hits:
        paper = owner.get(hit.chunk.path)
        if paper is not None:
            grouped.setdefault(paper["id"], []).append(hit)
    ranked = sorted(grouped.items(), key=lambda kv: -sum(h.score * w for h, w in zip(kv[1], (1.0, 0.5, 0.25))))
    by_id = {p["id"]: p for p in papers}
    out: list[PaperHit] = []
    for paper_id, hits in ranked[:k]:
        score = sum(h.score * w for h, w in zip(hits, (1.0, 0.5, 0.25)))
        out.append({"paper": by_id[paper_id], "score": round(score, 6), "passages": len(hits),
                    "best": cast(Citation, citation(hits[0], result.query))})
    return out


def chosen_paths(papers: Iterable[Paper], ids: Iterable[str]) -> list[str]:
    """The files of the papers named by ``ids``, in the order named; an unknown id raises."""
    by_id = {p["id"]: p for p in papers}
    out: list[str] = []
    for paper_id in ids:
        if paper_id not in by_id:
            raise PaperFilterError(f"{paper_id}: no such paper in this archive (see `athena papers`)")
        out += [p for p in by_id[paper_id]["paths"] if p not in out]
    return out
