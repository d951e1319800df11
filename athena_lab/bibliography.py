"""Citations researchers can paste: a source's bibliographic record as BibTeX, RIS or CSL-JSON.

The record comes from what the PDF parser found (pdf/meta.py: title, authors and year from
the metadata or the first page, DOI and arXiv id from the first page). Nothing is looked
up online: a field that was not found is left out rather than guessed, and the record says
where the file is so the user can check it.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any, Iterable

FORMATS = ("bibtex", "ris", "csl-json")
RECORD_KEYS = ("title", "authors", "year", "doi", "arxiv")


def record_of(path: str, metadata: dict[str, Any]) -> dict[str, Any]:
    """The bibliographic fields of one source (only those found), plus its path."""
    record: dict[str, Any] = {"path": path}
    for key in RECORD_KEYS:
        value = metadata.get(key)
        if value:
            record[key] = value
    return record


def cite_key(record: dict[str, Any]) -> str:
    """``vaswani2017attention``: first author's surname, year, first word of the title."""
    surname = (record.get("authors") or ["anon"])[0].split()[-1]
    word = next((w for w in re.findall(r"[A-Za-z]+", record.get("title") or "")
                 if w.lower() not in {"a", "an", "the", "on", "of"}), "")
    return _ascii(f"{surname}{record.get('year') or ''}{word}").lower() or "source"


def _ascii(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]", "", unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode())


def _bib_value(text: str) -> str:
    """Braces keep capitals (BERT, S2ORC) as printed; TeX's specials are escaped."""
    text = re.sub(r"([&%$#_])", r"\\\1", str(text))
    return "{" + text + "}"


def to_bibtex(records: Iterable[dict[str, Any]]) -> str:
    entries = []
    for record in records:
        fields = []
        if record.get("title"):
            fields.append(("title", _bib_value(record["title"])))
        if record.get("authors"):
            fields.append(("author", _bib_value(" and ".join(record["authors"]))))
        if record.get("year"):
            fields.append(("year", str(record["year"])))
        if record.get("doi"):
            fields.append(("doi", _bib_value(record["doi"])))
        if record.get("arxiv"):
            fields += [("eprint", _bib_value(record["arxiv"])), ("archivePrefix", "{arXiv}")]
        fields.append(("note", _bib_value(f"file: {record['path']}")))
        kind = "article" if record.get("doi") or record.get("arxiv") else "misc"
        body = ",\n".join(f"  {name} = {value}" for name, value in fields)
        entries.append(f"@{kind}{{{cite_key(record)},\n{body}\n}}")
    return "\n\n".join(entries) + "\n"


def to_ris(records: Iterable[dict[str, Any]]) -> str:
    out = []
    for record in records:
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
    items = []
    for record in records:
        item: dict[str, Any] = {"id": cite_key(record),
                                "type": "article" if record.get("doi") or record.get("arxiv") else "document"}
        if record.get("title"):
            item["title"] = record["title"]
        if record.get("authors"):
            item["author"] = [_csl_name(name) for name in record["authors"]]
        if record.get("year"):
            item["issued"] = {"date-parts": [[int(record["year"])]]}
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
