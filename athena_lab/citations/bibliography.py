r"""Citations researchers can paste: a source's bibliographic record as BibTeX, RIS or CSL-JSON.

The record is the researcher's own where there is one — a Zotero item (ingest/library.py:
item type, creators in order, date, DOI, venue, URL) — and otherwise what the PDF parser
found (pdf/meta.py: title, authors and year from the metadata or the first page, DOI and
arXiv id from the first page). Nothing is looked up online: a field that was not found is
left out rather than guessed, and the record says where the file is so the user can check it.

Every field is untrusted: a PDF's /Title or /Author is whatever its maker typed, and a
Zotero database is a file in the folder. So each value is made flat (newlines and other
control characters folded to spaces: one RIS line per tag), BibTeX values are escaped for
TeX and checked for balanced braces before ``bibtexparser`` writes the entry (a title
cannot close its entry and open another), the identifiers (DOI, arXiv id, year, URL, the
Zotero link) must have their published shape or are left out, and duplicate cite keys get
a letter (``smith2020``, then ``smith2020b``). docs/security.md, "Citation export";
tests/security/test_citation_export.py.

BibTeX's own scanner (and biber's, pybtex's, bibtexparser 1's) counts every brace, even
one after a backslash: ``\{`` would end the field early. So a brace in the text is
written ``\textbraceleft{}`` / ``\textbraceright{}``, and the only braces in a value are
balanced groups written here; a caret and a tilde are ``\textasciicircum{}`` and
``\textasciitilde{}`` (``\^{}`` is an accent over nothing). tests/test_bibtex_parsers.py
reads every export back with pybtex and bibtexparser 1 and 2.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any, Iterable, Literal, Mapping, Sequence

from athena_lab.contract import BibRecord, PersonName

FORMATS = ("bibtex", "ris", "csl-json")
RECORD_KEYS = ("title", "authors", "year", "doi", "arxiv")
# Text fields a library's record may add (Zotero: ingest/library.py), each kept flat.
TextKey = Literal["venue", "volume", "issue", "pages", "publisher", "label"]
_TEXT_KEYS: tuple[TextKey, ...] = ("venue", "volume", "issue", "pages", "publisher", "label")
# RIS tags of the plain text fields
_RIS_TEXT: tuple[tuple[str, TextKey], ...] = (("VL", "volume"), ("IS", "issue"), ("PB", "publisher"))

# Crossref's pattern for the DOIs it issues (99% of them); one with braces, quotes or
# spaces is not a DOI a reference manager could resolve anyway.
_DOI = re.compile(r"^10\.\d{4,9}/[-._;()/:A-Za-z0-9]+$")
_ARXIV = re.compile(r"^(\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?/\d{7})(v\d+)?$")
_YEAR = re.compile(r"^\d{4}$")
# What a library's record (Zotero) may add must have its shape too: a web URL, the
# zotero://select link (a key of Zotero's alphabet) and an item type that is one word.
_URL = re.compile(r"^https?://[^\s{}\\\"<>]+$")
_ZOTERO_URI = re.compile(r"^zotero://select/(library|groups/\d{1,12})/items/[23456789A-Z]{8}$")
_ITEM_TYPE = re.compile(r"^[a-zA-Z]{2,40}$")
# A cite key BibTeX, biber and the LaTeX \cite command all take as it is (a .bib file's key
# of another shape is replaced by one made from the record).
_CITE_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_:.\-+/]{0,99}$")
# TeX's special characters, each as text that prints it. Braces become \textbraceleft{} and
# \textbraceright{}, so the only braces in a value are the balanced groups written here.
_TEX = {"\\": r"\textbackslash{}", "{": r"\textbraceleft{}", "}": r"\textbraceright{}", "~": r"\textasciitilde{}",
        "^": r"\textasciicircum{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_"}
_TEX_SPECIAL = re.compile("|".join(re.escape(c) for c in _TEX))
# Pairs TeX's fonts join into one glyph (-- is an en dash, '' a closing quote): split with {}.
_LIGATURE = re.compile(r"(?<=-)(?=-)|(?<=')(?=')|(?<=`)(?=`)|(?<=[!?])(?=`)|(?<=<)(?=<)|(?<=>)(?=>)|(?<=,)(?=,)")
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


def record_of(path: str, metadata: Mapping[str, Any]) -> BibRecord:
    """The bibliographic fields of one source (only those found, each flat and, for the
    identifiers, of the right shape), plus its path."""
    record: BibRecord = {"path": flat(path)}
    title = flat(metadata.get("title") or "")
    if title:
        record["title"] = title
    names = _names_of(metadata.get("names"))
    raw_authors = metadata.get("authors") or []
    authors = [flat(a) for a in ([raw_authors] if isinstance(raw_authors, str) else raw_authors)]
    if names:
        record["names"] = names
        record["authors"] = [_display(n) for n in names]
    elif any(authors):
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
    kind = flat(metadata.get("type") or "")
    if _ITEM_TYPE.match(kind):
        record["type"] = kind
    for key in _TEXT_KEYS:
        value = flat(metadata.get(key) or "")
        if value:
            record[key] = value
    editors = _names_of(metadata.get("editors"))
    if editors:
        record["editors"] = editors
    url = flat(metadata.get("url") or "")
    if _URL.match(url):
        record["url"] = url
    zotero = metadata.get("zotero")
    if isinstance(zotero, dict) and _ZOTERO_URI.match(str(zotero.get("uri") or "")):
        record["zotero"] = {"key": str(zotero["uri"]).rsplit("/", 1)[-1], "uri": str(zotero["uri"])}
    if metadata.get("source") in ("zotero", "bibtex"):
        record["source"] = metadata["source"]
    entry = metadata.get("bibtex")
    if isinstance(entry, dict) and _CITE_KEY.match(str(entry.get("key") or "")):
        record["bibtex"] = {"file": flat(entry.get("file") or ""), "key": str(entry["key"])}
        if entry.get("linked_by") in ("file", "title"):
            record["bibtex"]["linked_by"] = entry["linked_by"]
    return record


def _names_of(value: Any) -> list[PersonName]:
    """Structured names (``{"family", "given"}`` or ``{"literal"}``), each part flat; anything
    else is dropped."""
    out: list[PersonName] = []
    for name in value if isinstance(value, list) else []:
        if not isinstance(name, dict):
            continue
        parts = {k: flat(name.get(k) or "") for k in ("family", "given", "literal")}
        if parts["literal"]:
            out.append({"literal": parts["literal"]})
        elif parts["family"]:
            out.append({"family": parts["family"], **({"given": parts["given"]} if parts["given"] else {})})
    return out


def _display(name: PersonName) -> str:
    return name.get("literal") or " ".join(p for p in (name.get("given"), name.get("family")) if p)


def _family(record: Mapping[str, Any]) -> str:
    """The first author's family name (a one-field name whole; else the display name's last word)."""
    if record.get("names"):
        first = record["names"][0]
        return first.get("family") or first.get("literal") or "anon"
    return ((record.get("authors") or ["anon"])[0].split() or ["anon"])[-1]


def cite_key(record: Mapping[str, Any]) -> str:
    """``vaswani2017attention``: first author's surname, year, first word of the title; the
    researcher's own key when the record is an entry of their .bib file."""
    own = (record.get("bibtex") or {}).get("key")
    if own and _CITE_KEY.match(own):
        return str(own)
    surname = _family(record).split()[-1] if _family(record).split() else "anon"
    word = next((w for w in re.findall(r"[A-Za-z]+", record.get("title") or "")
                 if w.lower() not in {"a", "an", "the", "on", "of"}), "")
    return _ascii(f"{surname}{record.get('year') or ''}{word}").lower() or "source"


def cite_keys(records: Sequence[Mapping[str, Any]]) -> list[str]:
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
    """True when every brace of ``value`` closes one opened before it — counted as BibTeX
    counts them, a backslash before a brace notwithstanding."""
    depth = 0
    for char in value:
        if char in "{}":
            depth += 1 if char == "{" else -1
            if depth < 0:
                return False
    return depth == 0


def _bib_field(name: str, tex: str) -> Any:
    from bibtexparser.model import Field

    if not balanced(tex):  # cannot happen with escaped text; refuse rather than write a broken entry
        raise ValueError(f"BibTeX field {name} has unbalanced braces: {tex!r}")
    return Field(name, "{" + tex + "}")


def _file_field(path: str) -> Any:
    """``file = {papers/x.pdf}``, the field JabRef, Zotero's import and athena's own .bib
    reader (ingest/bibfile.py) take as the entry's file: an exported entry saved in the
    folder links its paper back, so editing it is how a record read wrong is fixed. BibTeX
    styles never print it. ``:`` and ``;`` are escaped as JabRef's list syntax wants; a
    path with a brace or a backslash (which no BibTeX scanner keeps verbatim) is named in a
    ``note`` instead."""
    flat_path = flat(path)
    if re.search(r"[{}\\]", flat_path):
        return _bib_field("note", tex_escape(f"file: {flat_path}"))
    return _bib_field("file", flat_path.replace(":", "\\:").replace(";", "\\;"))


def _bib_name(name: str) -> str:
    tex = tex_escape(name)
    return _group(tex) if _NAME_NEEDS_BRACES.search(flat(name)) else tex


def _bib_structured(name: PersonName) -> str:
    """``Family, Given`` as BibTeX reads it (a one-field name braced whole, so that neither
    its words nor an "and" in it are taken apart)."""
    if name.get("literal"):
        return _group(tex_escape(name["literal"]))
    family, given = name["family"], name.get("given", "")
    family_tex = _group(tex_escape(family)) if _NAME_NEEDS_BRACES.search(family) else tex_escape(family)
    if not given:
        return family_tex if " " not in family else _group(tex_escape(family))
    given_tex = _group(tex_escape(given)) if _NAME_NEEDS_BRACES.search(given) else tex_escape(given)
    return f"{family_tex}, {given_tex}"


def _bib_people(record: Mapping[str, Any], key: str) -> str:
    if key == "editors":
        return " and ".join(_bib_structured(n) for n in record["editors"])
    if record.get("names"):
        return " and ".join(_bib_structured(n) for n in record["names"])
    return " and ".join(_bib_name(a) for a in record["authors"])


# A library's item type → (BibTeX entry type, the field its venue goes in, its publisher's).
_BIBTEX_TYPES = {
    "journalArticle": ("article", "journal", "publisher"), "magazineArticle": ("article", "journal", "publisher"),
    "newspaperArticle": ("article", "journal", "publisher"),
    "conferencePaper": ("inproceedings", "booktitle", "publisher"),
    "book": ("book", "series", "publisher"), "bookSection": ("incollection", "booktitle", "publisher"),
    "thesis": ("phdthesis", "howpublished", "school"), "report": ("techreport", "series", "institution"),
    "manuscript": ("unpublished", "howpublished", "publisher"),
}


def _bib_kind(record: Mapping[str, Any]) -> tuple[str, str, str]:
    if record.get("type") in _BIBTEX_TYPES:
        return _BIBTEX_TYPES[record["type"]]
    if record.get("type"):  # preprint, webpage, blogPost, document …: misc with what is known
        return "misc", "howpublished", "publisher"
    return ("article" if record.get("doi") or record.get("arxiv") else "misc"), "journal", "publisher"


def _bib_pages(pages: str) -> str:
    """374-382 → 374--382 (BibTeX's page range); pages of any other shape as escaped text."""
    if re.fullmatch(r"[A-Za-z0-9]+(\s*[-\u2013\u2014]+\s*[A-Za-z0-9]+)?(,\s*[A-Za-z0-9]+(\s*[-\u2013\u2014]+\s*[A-Za-z0-9]+)?)*", pages):
        return re.sub(r"\s*[-\u2013\u2014]+\s*", "--", pages)
    return tex_escape(pages)


def to_bibtex(records: Iterable[Mapping[str, Any]]) -> str:
    import bibtexparser
    from bibtexparser.model import Entry
    from bibtexparser.writer import BibtexFormat

    records = [record_of(r["path"], r) for r in records]
    library = bibtexparser.Library()
    for record, key in zip(records, cite_keys(records)):
        kind, venue_field, publisher_field = _bib_kind(record)
        fields = []
        if record.get("title"):  # inner braces keep its capitals (BERT, S2ORC) as printed
            fields.append(_bib_field("title", _group(tex_escape(record["title"]))))
        if record.get("authors"):
            fields.append(_bib_field("author", _bib_people(record, "authors")))
        if record.get("editors"):
            fields.append(_bib_field("editor", _bib_people(record, "editors")))
        if record.get("venue"):
            fields.append(_bib_field(venue_field, tex_escape(record["venue"])))
        for name in ("volume", "issue", "publisher"):
            if record.get(name):
                target = {"issue": "number", "publisher": publisher_field}.get(name, name)
                fields.append(_bib_field(target, tex_escape(record[name])))
        if record.get("pages"):
            fields.append(_bib_field("pages", _bib_pages(record["pages"])))
        if record.get("year"):
            fields.append(_bib_field("year", str(record["year"])))
        # DOI, eprint and URL are verbatim fields (biblatex, \url): their shape was checked instead.
        if record.get("doi"):
            fields.append(_bib_field("doi", record["doi"]))
        if record.get("arxiv"):
            fields += [_bib_field("eprint", record["arxiv"]), _bib_field("archivePrefix", "arXiv")]
        if record.get("url"):
            fields.append(_bib_field("url", record["url"]))
        if record["path"]:  # a Zotero item whose attachment is missing has no file to name
            fields.append(_file_field(record["path"]))
        library.add(Entry(kind, key, fields))
    style = BibtexFormat()
    style.indent, style.block_separator = "  ", "\n"
    return bibtexparser.write_string(library, unparse_stack=[], bibtex_format=style)


# A library's item type → RIS TY and CSL type.
_RIS_TYPES = {"journalArticle": "JOUR", "magazineArticle": "MGZN", "newspaperArticle": "NEWS",
              "conferencePaper": "CPAPER", "book": "BOOK", "bookSection": "CHAP", "thesis": "THES",
              "report": "RPRT", "webpage": "ELEC", "blogPost": "BLOG", "preprint": "JOUR", "manuscript": "UNPB",
              "computerProgram": "COMP"}
_CSL_TYPES = {"journalArticle": "article-journal", "magazineArticle": "article-magazine",
              "newspaperArticle": "article-newspaper", "conferencePaper": "paper-conference", "book": "book",
              "bookSection": "chapter", "thesis": "thesis", "report": "report", "webpage": "webpage",
              "blogPost": "post-weblog", "preprint": "article", "manuscript": "manuscript",
              "computerProgram": "software", "document": "document"}


def _identified(record: Mapping[str, Any]) -> bool:
    return bool(record.get("doi") or record.get("arxiv"))


def to_ris(records: Iterable[Mapping[str, Any]]) -> str:
    out = []
    for record in (record_of(r["path"], r) for r in records):
        kind = _RIS_TYPES.get(record.get("type", ""), "JOUR" if _identified(record) else "GEN")
        lines = [f"TY  - {kind}"]
        if record.get("title"):
            lines.append(f"TI  - {record['title']}")
        people = [_ris_name(n) for n in record["names"]] if record.get("names") else record.get("authors") or []
        lines += [f"AU  - {name}" for name in people]
        lines += [f"ED  - {_ris_name(n)}" for n in record.get("editors") or []]
        if record.get("venue"):
            lines.append(f"T2  - {record['venue']}")
        for tag, key in _RIS_TEXT:
            if record.get(key):
                lines.append(f"{tag}  - {record[key]}")
        if record.get("pages"):
            first, _, last = re.sub(r"\s*[-\u2013\u2014]+\s*", "-", record["pages"]).partition("-")
            lines.append(f"SP  - {first}")
            if last:
                lines.append(f"EP  - {last}")
        if record.get("year"):
            lines.append(f"PY  - {record['year']}")
        if record.get("doi"):
            lines.append(f"DO  - {record['doi']}")
        if record.get("arxiv"):
            lines.append(f"UR  - https://arxiv.org/abs/{record['arxiv']}")
        if record.get("url"):
            lines.append(f"UR  - {record['url']}")
        lines += [f"N1  - file: {record['path']}"] if record["path"] else []
        lines.append("ER  - ")
        out.append("\n".join(lines))
    return "\n".join(out) + "\n"


def _ris_name(name: PersonName) -> str:
    return name.get("literal") or ", ".join(p for p in (name.get("family"), name.get("given")) if p)


def to_csl_json(records: Iterable[Mapping[str, Any]]) -> str:
    records = [record_of(r["path"], r) for r in records]
    items = []
    for record, key in zip(records, cite_keys(records)):
        kind = _CSL_TYPES.get(record.get("type", ""), "article" if _identified(record) else "document")
        item: dict[str, Any] = {"id": key, "type": kind}
        if record.get("title"):
            item["title"] = record["title"]
        if record.get("names"):
            item["author"] = record["names"]
        elif record.get("authors"):
            item["author"] = [_csl_name(name) for name in record["authors"]]
        if record.get("editors"):
            item["editor"] = record["editors"]
        if record.get("year"):
            item["issued"] = {"date-parts": [[record["year"]]]}
        for name, csl in (("venue", "container-title"), ("volume", "volume"), ("issue", "issue"),
                          ("pages", "page"), ("publisher", "publisher")):
            if record.get(name):
                item[csl] = record[name]
        if record.get("doi"):
            item["DOI"] = record["doi"]
        if record.get("url"):
            item["URL"] = record["url"]
        elif record.get("arxiv"):
            item["URL"] = f"https://arxiv.org/abs/{record['arxiv']}"
        if record["path"]:
            item["note"] = f"file: {record['path']}"
        items.append(item)
    return json.dumps(items, indent=2, ensure_ascii=False) + "\n"


def _csl_name(name: str) -> dict[str, str]:
    parts = name.split()
    return {"family": parts[-1], "given": " ".join(parts[:-1])} if len(parts) > 1 else {"literal": name}


def render(records: Sequence[Mapping[str, Any]], fmt: str) -> str:
    if fmt not in FORMATS:
        from athena_lab.errors import AthenaError

        raise AthenaError(f"unknown citation format {fmt!r}; use one of: {', '.join(FORMATS)}")
    return {"bibtex": to_bibtex, "ris": to_ris, "csl-json": to_csl_json}[fmt](records)
