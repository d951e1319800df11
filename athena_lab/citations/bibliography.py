"""Citations researchers can paste: a source's bibliographic record as BibTeX, RIS or CSL-JSON.

The record comes from what the PDF parser found (pdf/meta.py: title, authors and year from
the metadata or the first page, DOI and arXiv id from the first page). Nothing is looked
up online: a field that was not found is left out rather than guessed, and the record says
where the file is so the user can check it.

Every field is untrusted: a PDF's /Title or /Author is whatever its maker typed. So each
value is made flat (newlines and other control characters folded to spaces: one RIS line
per tag), BibTeX values are escaped for TeX and checked for balanced braces before
``bibtexparser`` writes the entry (a title cannot close its entry and open another), the
identifiers (DOI, arXiv id, year) must have their published shape or are left out, and
duplicate cite keys get a letter (``smith2020``, then ``smith2020b``). docs/security.md,
"Citation export"; tests/security/test_citation_export.py.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any, Iterable

FORMATS = ("bibtex", "ris", "csl-json")
RECORD_KEYS = ("title", "authors", "year", "doi", "arxiv")

# Crossref's pattern for the DOIs it issues (99% of them); one with braces, quotes or
# spaces is not a DOI a reference manager could resolve anyway.
_DOI = re.compile(r"^10\.\d{4,9}/[-._;()/:A-Za-z0-9]+$")
_ARXIV = re.compile(r"^(\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?/\d{7})(v\d+)?$")
_YEAR = re.compile(r"^\d{4}$")
# TeX's special characters, each as text that prints it. Braces are escaped too, so the
# only unescaped braces in a value are the ones written here.
_TEX = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
        "^": r"\textasciicircum{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_"}
_TEX_SPECIAL = re.compile("|".join(re.escape(c) for c in _TEX))
# Pairs TeX's fonts join into one glyph (-- is an en dash, '' a closing quote): split with {}.
_LIGATURE = re.compile(r"(?<=-)(?=-)|(?<=')(?=')|(?<=`)(?=`)|(?<=[!?])(?=`)|(?<=<)(?=<)|(?<=>)(?=>)|(?<=,)(?=,)")
_UNESCAPED_BRACE = re.compile(r"(?<!\\)[{}]")
# BibTeX splits an author list on a bare "and"; a name holding one (or a comma, which
# reorders the name's parts) is kept whole in braces.
_NAME_NEEDS_BRACES = re.compile(r",|(^|\s)and(\s|$)|^others$", re.I)


def flat(value: Any) -> str:
    """``value`` as one line: newlines, tabs and other control characters become single spaces."""
    text = "".join(" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c for c in str(value))
    return " ".join(text.split())


def _year(value: Any) -> int | None:
    """A four-digit year, or None: a year that is not one is left out, never an error."""
    if isinstance(value, bool):
        return None
    text = flat(value) if value is not None else ""
    return int(text) if _YEAR.match(text) else None


def record_of(path: str, metadata: dict[str, Any]) -> dict[str, Any]:
    """The bibliographic fields of one source (only those found, each flat and, for the
    identifiers, of the right shape), plus its path."""
    record: dict[str, Any] = {"path": flat(path)}
    title = flat(metadata.get("title") or "")
    if title:
        record["title"] = title
    raw_authors = metadata.get("authors") or []
    authors = [flat(a) for a in ([raw_authors] if isinstance(raw_authors, str) else raw_authors)]
    if any(authors):
        record["authors"] = [a for a in authors if a]
    year = _year(metadata.get("year"))
    if year is not None:
        record["year"] = year
    doi = flat(metadata.get("doi") or "")
    if _DOI.match(doi):
        record["doi"] = doi
    arxiv = flat(metadata.get("arxiv") or "")
    if _ARXIV.match(arxiv):
        record["arxiv"] = arxiv
    return record


def cite_key(record: dict[str, Any]) -> str:
    """``vaswani2017attention``: first author's surname, year, first word of the title."""
    surname = ((record.get("authors") or ["anon"])[0].split() or ["anon"])[-1]
    word = next((w for w in re.findall(r"[A-Za-z]+", record.get("title") or "")
                 if w.lower() not in {"a", "an", "the", "on", "of"}), "")
    return _ascii(f"{surname}{record.get('year') or ''}{word}").lower() or "source"


def cite_keys(records: list[dict[str, Any]]) -> list[str]:
    """One key per record, told apart when two sources would share one: the first keeps
    ``key``, the next get ``keyb``, ``keyc`` … (``key-27`` past z)."""
    used: set[str] = set()
    keys = []
    for record in records:
        base = key = cite_key(record)
        n = 1
        while key in used:
            n += 1
            key = base + (chr(ord("a") + n - 1) if n <= 26 else f"-{n}")
        used.add(key)
        keys.append(key)
    return keys


def _ascii(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]", "", unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode())


def tex_escape(text: str) -> str:
    """Plain text as TeX that prints it: specials escaped, ligature pairs split."""
    return _LIGATURE.sub("{}", _TEX_SPECIAL.sub(lambda m: _TEX[m.group()], flat(text)))


def _group(tex: str) -> str:
    """``{tex}``, never a BibTeX "special character" (a group opening with a backslash,
    whose letters styles still change the case of)."""
    return "{" + ("{}" if tex.startswith("\\") else "") + tex + "}"


def balanced(value: str) -> bool:
    """True when every unescaped brace of ``value`` closes one opened before it."""
    depth = 0
    for brace in _UNESCAPED_BRACE.findall(value):
        depth += 1 if brace == "{" else -1
        if depth < 0:
            return False
    return depth == 0


def _bib_field(name: str, tex: str) -> Any:
    from bibtexparser.model import Field

    if not balanced(tex):  # cannot happen with escaped text; refuse rather than write a broken entry
        raise ValueError(f"BibTeX field {name} has unbalanced braces: {tex!r}")
    return Field(name, "{" + tex + "}")


def _bib_name(name: str) -> str:
    tex = tex_escape(name)
    return _group(tex) if _NAME_NEEDS_BRACES.search(flat(name)) else tex


def to_bibtex(records: Iterable[dict[str, Any]]) -> str:
    import bibtexparser
    from bibtexparser.model import Entry
    from bibtexparser.writer import BibtexFormat

    records = [record_of(r["path"], r) for r in records]
    library = bibtexparser.Library()
    for record, key in zip(records, cite_keys(records)):
        fields = []
        if record.get("title"):  # inner braces keep its capitals (BERT, S2ORC) as printed
            fields.append(_bib_field("title", _group(tex_escape(record["title"]))))
        if record.get("authors"):
            fields.append(_bib_field("author", " and ".join(_bib_name(a) for a in record["authors"])))
        if record.get("year"):
            fields.append(_bib_field("year", str(record["year"])))
        # DOI and eprint are verbatim fields (biblatex, \url): their shape was checked instead.
        if record.get("doi"):
            fields.append(_bib_field("doi", record["doi"]))
        if record.get("arxiv"):
            fields += [_bib_field("eprint", record["arxiv"]), _bib_field("archivePrefix", "arXiv")]
        fields.append(_bib_field("note", tex_escape(f"file: {record['path']}")))
        kind = "article" if record.get("doi") or record.get("arxiv") else "misc"
        library.add(Entry(kind, key, fields))
    style = BibtexFormat()
    style.indent, style.block_separator = "  ", "\n"
    return bibtexparser.write_string(library, unparse_stack=[], bibtex_format=style)


def to_ris(records: Iterable[dict[str, Any]]) -> str:
    out = []
    for record in (record_of(r["path"], r) for r in records):
        lines = ["TY  - JOUR" if record.get("doi") or record.get("arxiv") else "TY  - GEN"]
        if record.get("title"):
            lines.append(f"TI  - {record['title']}")
        lines += [f"AU  - {name}" for name in record.get("authors") or []]
        if record.get("year"):
            lines.append(f"PY  - {record['year']}")
        if record.get("doi"):
            lines.append(f"DO  - {record['doi']}")
        if record.get("arxiv"):
            lines.append(f"UR  - https://arxiv.org/abs/{record['arxiv']}")
        lines += [f"N1  - file: {record['path']}", "ER  - "]
        out.append("\n".join(lines))
    return "\n".join(out) + "\n"


def to_csl_json(records: Iterable[dict[str, Any]]) -> str:
    records = [record_of(r["path"], r) for r in records]
    items = []
    for record, key in zip(records, cite_keys(records)):
        item: dict[str, Any] = {"id": key,
                                "type": "article" if record.get("doi") or record.get("arxiv") else "document"}
        if record.get("title"):
            item["title"] = record["title"]
        if record.get("authors"):
            item["author"] = [_csl_name(name) for name in record["authors"]]
        if record.get("year"):
            item["issued"] = {"date-parts": [[record["year"]]]}
        if record.get("doi"):
            item["DOI"] = record["doi"]
        if record.get("arxiv"):
            item["URL"] = f"https://arxiv.org/abs/{record['arxiv']}"
        item["note"] = f"file: {record['path']}"
        items.append(item)
    return json.dumps(items, indent=2, ensure_ascii=False) + "\n"


def _csl_name(name: str) -> dict[str, str]:
    parts = name.split()
    return {"family": parts[-1], "given": " ".join(parts[:-1])} if len(parts) > 1 else {"literal": name}


def render(records: list[dict[str, Any]], fmt: str) -> str:
    if fmt not in FORMATS:
        from athena_lab.errors import AthenaError

        raise AthenaError(f"unknown citation format {fmt!r}; use one of: {', '.join(FORMATS)}")
    return {"bibtex": to_bibtex, "ris": to_ris, "csl-json": to_csl_json}[fmt](records)
