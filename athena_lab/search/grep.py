"""Exact matching for what BM25 tokenises away: identifiers, flags, quoted error strings.

Identifiers are matched against an exact-term field in Tantivy (fast at any size);
quoted phrases and error messages are substring scans over the catalog, which is what a
user pasting a traceback line expects.
"""

from __future__ import annotations

import re
from typing import Iterator

from athena_lab.index.catalog import Catalog
from athena_lab.index.lexical import identifiers
from athena_lab.ingest.model import citation_kind

_BACKTICKED = re.compile(r"`([^`\n]{2,80})`")
# Double quotes anywhere; single quotes only as quotes, never the apostrophe of "don't".
_QUOTED = re.compile(r"[\"“”]([^\"“”\n]{4,200})[\"“”]|(?<![\w])'([^'\n]{4,200})'(?![\w])")
_ERROR_LINE = re.compile(r"\b\w*(?:Error|Exception|Warning)\b:\s*[^\n]{0,160}")  # a pasted "KeyError: 'x'" line


_ACRONYM = re.compile(r"\b[A-Z][A-Za-z]{1,3}\b")


def query_identifiers(query: str) -> list[str]:
    """Identifier-like tokens of a query: backticked words plus snake/Camel/--flag shapes.

    Short all-caps words (DNA, HTTP, API) are acronyms, not identifiers: they occur in too
    many chunks for an exact-match list to rank anything, so BM25 handles them.
    """
    acronyms = set()
    for m in _ACRONYM.finditer(query):
        word = m.group(0)
        if sum(ch.isupper() for ch in word) >= 2:  # DNS, URLs, IoT: not MyIdentifierName
            acronyms.update({word.lower(), word[:-1].lower() if word.endswith("s") else word.lower()})
    found = set(identifiers(query)) - acronyms
    for m in _BACKTICKED.finditer(query):
        found.update(identifiers(m.group(1)) or [m.group(1).strip().lower()])
    return sorted(found)


def quoted_phrases(query: str) -> list[str]:
    """Text the user wants matched verbatim: quoted strings and pasted error lines."""
    phrases = [(m.group(1) or m.group(2)).strip() for m in _QUOTED.finditer(query)]
    phrases += [m.group(0).strip() for m in _ERROR_LINE.finditer(query) if len(m.group(0)) > 12]
    return [p for p in dict.fromkeys(phrases) if p]


def grep_phrases(catalog: Catalog, phrases: list[str], limit: int,
                 kinds: list[str] | None = None, prefix: str | None = None) -> list[str]:
    """Chunk ids whose text contains any phrase (case-insensitive), most matches first."""
    counts: dict[str, int] = {}
    for cid in _scan(catalog, phrases, limit * 4, prefix):
        counts[cid] = counts.get(cid, 0) + 1
    ids = sorted(counts, key=counts.get, reverse=True)
    if kinds:
        rows = catalog.chunks_by_id(ids)
        ids = [i for i in ids if i in rows and (rows[i].doc_kind in kinds
                                                 or citation_kind(rows[i].doc_kind) in kinds)]
    return ids[:limit]


def _scan(catalog: Catalog, phrases: list[str], limit: int, prefix: str | None) -> Iterator[str]:
    for phrase in phrases:
        sql = "SELECT chunk_id FROM chunks WHERE instr(lower(text), ?) > 0"
        params: list = [phrase.lower()]
        if prefix:
            sql += " AND substr(path, 1, ?) = ?"
            params += [len(prefix), prefix]
        for (cid,) in catalog.conn.execute(sql + " LIMIT ?", (*params, limit)):
            yield cid


def grep_chunks(catalog: Catalog, pattern: str, *, regex: bool = False, case_sensitive: bool = False,
                limit: int = 20, prefix: str | None = None) -> list[dict]:
    """Line-level matches of a string or regex in indexed text (the grepDocs tool)."""
    flags = 0 if case_sensitive else re.IGNORECASE
    try:
        compiled = re.compile(pattern if regex else re.escape(pattern), flags)
    except re.error as exc:
        raise ValueError(f"invalid regular expression {pattern!r}: {exc}") from None
    out: list[dict] = []
    sql = "SELECT chunk_id, path, text, start_line, cell, doc_kind, page FROM chunks"
    params: list = []
    if prefix:
        sql += " WHERE substr(path, 1, ?) = ?"
        params = [len(prefix), prefix]
    for cid, path, text, start, cell, doc_kind, page in catalog.conn.execute(sql + " ORDER BY path, ordinal", params):
        if not compiled.search(text):
            continue
        for offset, line in enumerate(text.split("\n")):
            if compiled.search(line):
                out.append({"chunk_id": cid, "path": path, "doc_kind": doc_kind,
                            "line": start + offset if doc_kind != "pdf" else None,
                            "cell": cell, "page": page, "text": line.strip()[:300]})
                if len(out) >= limit:
                    return out
    return out
