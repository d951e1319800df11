r"""A BibTeX file beside the papers: its entries are the records of the files they link.

Researchers who keep their library in JabRef, Mendeley, BibDesk or Zotero with Better
BibTeX have a ``.bib`` file whose entries name their PDFs in a ``file`` field. Found in the
indexed folder, each such entry is the record of the files it links — the researcher's own
title, authors, year, venue and cite key beat the guess from a PDF's first page, as a
Zotero item's do (ingest/library.py). Writing an entry for a paper is also how a user fixes
a record the first page was read wrong for. JabRef's static groups become the entry's
collections, as a Zotero item's collections are (``_jabref_groups``).

The ``file`` field comes in the reference managers' own shapes:

- JabRef, Mendeley and Zotero's own export: ``Description:path:Type``, several joined by
  ``;``, with ``\:``, ``\;`` and ``\\`` escaping those characters in a path
  (``:papers/flp.pdf:PDF``, ``Full Text PDF:/home/me/Zotero/storage/AB12CD34/x.pdf:application/pdf``);
- Better BibTeX: the bare path, several joined by ``;``;
- BibDesk: ``Bdsk-File-1``, ``Bdsk-File-2`` … fields, base64 of a binary property list whose
  ``relativePath`` is read (``bibdesk_path``); the macOS alias beside it never is.

A path is taken relative to the ``.bib`` file, then to the folder, and looked up among the
files the index holds — by its text alone, never on disk (the ``.bib`` is a file in the
folder and may name any path, a network share too). One that names none of them (the
library was exported on another machine) is found by its file name when exactly one
indexed file has that name. A path outside the folder is never linked: it gets a warning,
like a Zotero linked file. An entry that links no file in the folder is matched to an
indexed PDF by its title on the PDF's first pages, as the index holds them
(ingest/bibtitles.py); one whose title is on none adds nothing — a thesis's
``references.bib`` lists works that are not here. A Zotero library's items win over an
entry for the same file. Parsing is bibtexparser's (the one BibTeX reader kept up for
Python 3 with a non-raising mode: a broken entry is reported with its line and the rest
reads); LaTeX in titles and names is turned into text by pylatexenc, which bibtexparser
already brings.
"""

from __future__ import annotations

import functools
import hashlib
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from athena_lab.index.catalog import LibraryRow
from athena_lab.ingest.discover import is_hidden

if TYPE_CHECKING:
    from bibtexparser.library import Library
    from bibtexparser.model import Entry
from athena_lab.pdf.meta import citation_label

MAX_BIB_BYTES = 50 * 1024 * 1024  # a library of ~100,000 entries; past that the file is named and skipped
_FILE_FIELDS = ("file", "pdf")
# BibTeX entry type → the library item type bibliography.py exports from (Zotero's names).
_ITEM_TYPES = {
    "article": "journalArticle", "inproceedings": "conferencePaper", "conference": "conferencePaper",
    "book": "book", "incollection": "bookSection", "inbook": "bookSection", "phdthesis": "thesis",
    "mastersthesis": "thesis", "thesis": "thesis", "techreport": "report", "report": "report",
    "unpublished": "manuscript", "online": "webpage", "electronic": "webpage", "misc": "document",
}
_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")
_DOI = re.compile(r"(10\.\d{4,9}/\S+)")
_ARXIV = re.compile(r"^(?:arxiv:)?(\d{4}\.\d{4,5}(?:v\d+)?|[a-z-]+(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?)$", re.I)
_WINDOWS_PATH = re.compile(r"^([A-Za-z]:[\\/]|\\\\|//)")  # C:\x, C:/x, \\server\share, //server/share
_TEX_SPECIAL = re.compile(r"\{\\([_&%#$])\}|\\([_&%#$])")  # {\_} and \_ in a Mendeley path
_FILE_TYPE = re.compile(r"^[A-Za-z]{2,12}(/[A-Za-z0-9.+-]{1,60})?$")  # "PDF", "application/pdf"
_UNESCAPED = {";": re.compile(r"(?<!\\);"), ":": re.compile(r"(?<!\\):")}
_BDSK_FILE = re.compile(r"^bdsk-file-(\d{1,4})$", re.I)  # BibDesk: Bdsk-File-1, Bdsk-File-2 …
_MAX_BDSK_CHARS = 1_000_000  # a link with its alias is ~1–4 KB of base64


@dataclass
class _Unlinked:
    """An entry no link of which names a file here: its title may (ingest/bibtitles.py)."""

    bib: str
    entry: "Entry"
    warnings: list[str]  # what its links got: said only when its title links nothing either
    collections: list[str]


@dataclass
class BibLibrary:
    """What the ``.bib`` files of a folder say: one row per entry that links files here."""

    rows: list[LibraryRow] = field(default_factory=list)
    warnings: dict[str, list[str]] = field(default_factory=dict)  # .bib path or linked path → messages
    linked: set[str] = field(default_factory=set)  # files an entry of a .bib holds
    unlinked: list[_Unlinked] = field(default_factory=list)  # entries whose links named no file here

    def warn(self, path: str, message: str) -> None:
        self.warnings.setdefault(path, []).append(message)


def bib_stamp(root: Path, bibs: Iterable[str]) -> str:
    """Changes whenever one of the ``.bib`` files is written, added or removed."""
    parts = []
    for rel in sorted(bibs):
        try:
            st = (root / rel).stat()
        except OSError:
            continue
        parts.append(f"bib:{rel}:{st.st_size}:{st.st_mtime_ns}")
    return " ".join(parts)


def names_digest(paths: Iterable[str]) -> str:
    """A short digest of the folder's indexed files: links are found among them, so the
    library is read again when one is added, moved or removed."""
    digest = hashlib.sha1()
    for name in sorted(set(paths)):
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
    return digest.hexdigest()[:16]


def read_bibliographies(root: Path, bibs: Iterable[str], files: Iterable[str],
                        taken: set[str] | None = None,
                        first_pages: Callable[[], Mapping[str, str]] | None = None) -> BibLibrary:
    """The rows of every entry of the ``bibs`` (root-relative) that links files in ``root``.

    ``files`` are the folder's indexable files (root-relative): the ones a moved library's
    links are looked for by name. ``taken``: files a Zotero item already holds.
    ``first_pages`` gives the text the index holds of each indexed PDF's first pages (path
    → text): an entry that links no file here is matched to one by its title
    (ingest/bibtitles.py), after every link is followed — a link wins."""
    root = root.resolve()
    indexed = set(files)
    taken = taken if taken is not None else set()
    by_name: dict[str, list[str]] = {}
    for path in sorted(indexed):
        by_name.setdefault(path.rsplit("/", 1)[-1], []).append(path)
    out = BibLibrary()
    seen_ids: set[str] = set()
    for rel in sorted(bibs):
        _read_one(root, rel, by_name, indexed, taken, seen_ids, out)
    if out.unlinked and first_pages is not None:
        _match_titles(out, first_pages, indexed, taken, seen_ids)
    for left in out.unlinked:
        for message in left.warnings:
            out.warn(left.bib, f"entry {left.entry.key!r}: {message}")
    out.unlinked = []
    return out


def _match_titles(out: BibLibrary, first_pages: Callable[[], Mapping[str, str]], indexed: set[str],
                  taken: set[str], seen_ids: set[str]) -> None:
    """Link the entries ``out.unlinked`` to the PDFs their titles are on (ingest/bibtitles.py)."""
    from athena_lab.ingest.bibtitles import Wanted, match_titles

    wanted = []
    for ref, left in enumerate(out.unlinked):
        fields = {k.lower(): v.value for k, v in left.entry.fields_dict.items()}
        title = _text(fields.get("title"))
        if not title or f"bibtex:{left.entry.key}" in seen_ids:
            continue
        names = _names(fields.get("author")) or _names(fields.get("editor"))
        wanted.append(Wanted(ref, f"entry {left.entry.key!r}", title,
                             tuple(n.get("family") or n.get("literal", "") for n in names)))
    if not wanted:
        return
    pages = {p: t for p, t in first_pages().items() if p in indexed and p not in taken and not is_hidden(p)}
    matches = match_titles(wanted, pages)
    kept = []
    for ref, left in enumerate(out.unlinked):
        path = matches.found.get(ref)
        if path is None:
            left.warnings += matches.warnings.get(ref, [])
            kept.append(left)
            continue
        row_id = f"bibtex:{left.entry.key}"
        seen_ids.add(row_id)
        taken.add(path)
        out.linked.add(path)
        record = entry_record(left.entry, left.bib)
        record["bibtex"]["linked_by"] = "title"
        out.rows.append(LibraryRow(row_id, record, left.collections, _keywords(left.entry), [], [path], True))
        if left.warnings:  # its link named no file here; its title did
            out.warn(left.bib, f"entry {left.entry.key!r}: {'; '.join(left.warnings)}; linked by its title to "
                               f"{path!r} instead")
    out.unlinked = kept


def _read_one(root: Path, rel: str, by_name: dict[str, list[str]], indexed: set[str], taken: set[str],
              seen_ids: set[str], out: BibLibrary) -> None:
    import bibtexparser
    from bibtexparser import middlewares

    path = root / rel
    try:
        size = path.stat().st_size
        if size > MAX_BIB_BYTES:
            out.warn(rel, f"not read: {size / 1e6:.0f} MB is over the {MAX_BIB_BYTES // 2**20} MB a "
                          "BibTeX library may have here (split it, or export only the papers in this folder)")
            return
        text = path.read_bytes().decode("utf-8", errors="replace")
    except OSError as exc:
        out.warn(rel, f"not readable: {exc.strerror}; its entries give no records")
        return
    library = bibtexparser.parse_string(
        text, append_middleware=[middlewares.NormalizeFieldKeys(),  # BibDesk writes "Author", "Title" …
                                 middlewares.SeparateCoAuthors(), middlewares.SplitNameParts()])
    for block in library.failed_blocks:
        if isinstance(block, bibtexparser.model.DuplicateBlockKeyBlock):
            out.warn(rel, f"line {(block.start_line or 0) + 1}: a second entry with the key {block.key!r} was left "
                          "out (give each entry its own key)")
        else:
            out.warn(rel, f"line {(block.start_line or 0) + 1}: this entry could not be read (a brace or quote is "
                          "not closed?); the entries after it were read")
    groups = _jabref_groups(library)
    for entry in library.entries:
        collections = groups.of(entry)
        links = list(_links(entry))
        found, warnings = _resolve(root, rel, links, by_name, indexed)
        bibdesk, unreadable = _bibdesk_links(entry)
        for message in unreadable:
            out.warn(rel, f"entry {entry.key!r}: {message}")
        if bibdesk:
            more, more_warnings = _resolve(root, rel, bibdesk, by_name, indexed, posix=True)
            found += [p for p in more if p not in found]
            warnings += more_warnings
        if not found:  # perhaps its title is on a PDF here: its links' messages wait for that
            out.unlinked.append(_Unlinked(rel, entry, warnings, collections))
            continue
        for message in warnings:
            out.warn(rel, f"entry {entry.key!r}: {message}")
        if found and all(p in taken for p in found):
            if any(p in out.linked for p in found):  # another entry of a .bib has it (a Zotero item wins quietly)
                out.warn(rel, f"entry {entry.key!r}: {found[0]!r} is linked by an earlier entry too; the first "
                              "was kept")
            continue
        found = [p for p in found if p not in taken]
        if not found:
            continue
        row_id = f"bibtex:{entry.key}"
        if row_id in seen_ids:
            out.warn(rel, f"entry {entry.key!r}: another .bib file has an entry with this key; the first was kept")
            continue
        seen_ids.add(row_id)
        taken.update(found)
        out.linked.update(found)
        record = entry_record(entry, rel)
        record["bibtex"]["linked_by"] = "file"
        out.rows.append(LibraryRow(row_id, record, collections, _keywords(entry), [], found, True))


@dataclass
class _Groups:
    """A JabRef library's static groups, as collections ("Physics / Climate"): by name (an
    entry's ``groups`` field names its groups) and, in JabRef 2's ``groupstree``, by the
    keys each group lists."""

    by_name: dict[str, list[str]] = field(default_factory=dict)
    by_key: dict[str, list[str]] = field(default_factory=dict)

    def of(self, entry: "Entry") -> list[str]:
        value = entry.fields_dict.get("groups")
        names = [n.strip() for n in value.value.split(",")] if value is not None and isinstance(value.value, str) \
            else []
        found = [c for n in names if n for c in self.by_name.get(n, [n])]
        return sorted(set(found + self.by_key.get(entry.key, [])), key=str.lower)


_JABREF_GROUPS = re.compile(r"^\s*jabref-meta:\s*(grouping|groupstree):", re.S)
_JABREF_GROUP = re.compile(r"^\s*(\d+)\s+([A-Za-z]+):(.*)$", re.S)


def _jabref_groups(library: "Library") -> _Groups:
    """The groups of JabRef's ``@Comment{jabref-meta: grouping: …}`` (JabRef 3 on:
    ``1 StaticGroup:Name\\;0\\;1\\;…;``, one a line, the level first) or ``groupstree``
    (JabRef 2: ``ExplicitGroup:Name\\;0\\;key1\\;key2\\;;``). A group's collection is its
    path from the top ("Chocolate / Used"); keyword and search groups are not collections
    (their entries are found by the fields they name) but name their subgroups' paths."""
    import bibtexparser

    out = _Groups()
    for block in library.blocks:
        if not isinstance(block, bibtexparser.model.ExplicitComment):
            continue
        head = _JABREF_GROUPS.match(block.comment or "")
        if head is None:
            continue
        path: list[str] = []
        for item in _split_escaped(block.comment[head.end():]):
            parsed = _JABREF_GROUP.match(item)
            if parsed is None:
                continue
            level, kind, rest = int(parsed.group(1)), parsed.group(2), parsed.group(3)
            fields = _split_escaped(rest)
            if level == 0 or not fields[0].strip():  # AllEntriesGroup, the root
                continue
            path = path[:level - 1] + [fields[0].strip()]
            if len(path) < level:  # a level skipped: a damaged tree
                continue
            name = " / ".join(path)
            if kind in ("StaticGroup", "ExplicitGroup"):
                out.by_name.setdefault(path[-1], []).append(name)
            if kind == "ExplicitGroup":  # JabRef 2: the group lists its entries' keys
                for key in fields[2:]:
                    if key.strip():
                        out.by_key.setdefault(key.strip(), []).append(name)
    return out


def _split_escaped(text: str) -> list[str]:
    """``text`` split at its unescaped ``;``, each ``\\x`` read as ``x`` (JabRef's metadata
    escaping, applied once for the list of groups and once more within a group)."""
    parts: list[str] = []
    current: list[str] = []
    chars = iter(text)
    for ch in chars:
        if ch == "\\":
            current.append(next(chars, ""))
        elif ch == ";":
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return parts


def _links(entry: "Entry") -> Iterable[str]:
    """The paths an entry's ``file`` (or ``pdf``) field names, unescaped."""
    for name in _FILE_FIELDS:
        value = entry.fields_dict.get(name)
        if value is None or not isinstance(value.value, str):
            continue
        for part in _UNESCAPED[";"].split(value.value):
            part = part.strip()
            pieces = _UNESCAPED[":"].split(part)
            if len(pieces) >= 3 and _FILE_TYPE.match(pieces[-1]):  # Description:path:Type
                part = ":".join(pieces[1:-1])
            elif len(pieces) == 2 and _FILE_TYPE.match(pieces[1]):  # path:Type (older JabRef)
                part = pieces[0]
            part = part.replace("\\:", ":").replace("\\;", ";").replace("\\\\", "\\").strip()
            if part:
                yield _untex_path(part)


def _untex_path(link: str) -> str:
    """Mendeley writes a path's special characters in TeX: ``$\\backslash$``, ``{\\_}``,
    ``Na{\\"{i}}ve.pdf``."""
    link = link.replace("$\\backslash$", "\\")
    link = _TEX_SPECIAL.sub(lambda m: m.group(1) or m.group(2), link)
    if "{\\" in link:
        link = _latex().latex_to_text(link)
    return link.replace("{", "").replace("}", "")


def _bibdesk_links(entry: "Entry") -> tuple[list[str], list[str]]:
    """The paths an entry's BibDesk ``Bdsk-File-N`` fields hold, in their order, and a
    message for each field that could not be read (it is skipped)."""
    fields = sorted(((int(m.group(1)), name, f.value) for name, f in entry.fields_dict.items()
                     if (m := _BDSK_FILE.match(name))), key=lambda t: t[0])
    paths: list[str] = []
    warnings: list[str] = []
    for _, name, value in fields:
        try:
            paths.append(bibdesk_path(value))
        except ValueError as exc:
            warnings.append(f"its {name.title()} field could not be read ({exc}): skipped")
    return paths, warnings


def bibdesk_path(value: object) -> str:
    """The ``relativePath`` (relative to the .bib file) a BibDesk ``Bdsk-File-N`` field
    holds: base64 of a binary property list — an NSKeyedArchiver archive of a dictionary
    (BibDesk until about 2018) or the dictionary itself — beside an alias or bookmark of
    the file, which is never read (resolving it would touch the disk). ValueError says why
    a value is not one."""
    import base64
    import binascii
    import plistlib

    if not isinstance(value, str) or len(value) > _MAX_BDSK_CHARS:
        raise ValueError("not a BibDesk file link: too long" if isinstance(value, str) else "not text")
    try:
        data = base64.b64decode("".join(value.split()), validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("not base64") from None
    try:
        plist = plistlib.loads(data, fmt=plistlib.FMT_BINARY)
    except Exception:  # plistlib raises several kinds on damaged data (InvalidFileException, ValueError …)
        raise ValueError("not a binary property list") from None
    try:
        path = _archived_path(plist)
    except (KeyError, IndexError, TypeError, AttributeError):
        path = None
    if not isinstance(path, str) or not path.strip():
        raise ValueError("it names no relativePath")
    return path


def _archived_path(plist: Any) -> Any:
    """``relativePath`` of the dictionary, or of the NSKeyedArchiver archive of one."""
    import plistlib

    if not isinstance(plist, dict):
        return None
    if "$objects" not in plist:
        return plist.get("relativePath")
    objects = plist["$objects"]

    def deref(value: Any) -> Any:
        return objects[value.data] if isinstance(value, plistlib.UID) else value

    root = deref(plist["$top"]["root"])
    keys = [deref(k) for k in root["NS.keys"]]
    path = deref(dict(zip(keys, root["NS.objects"])).get("relativePath"))
    return deref(path.get("NS.string")) if isinstance(path, dict) else path  # an archived NSMutableString


def _resolve(root: Path, bib_rel: str, links: list[str], by_name: dict[str, list[str]],
             indexed: set[str], posix: bool = False) -> tuple[list[str], list[str]]:
    """The indexed files (root-relative) the links name, and a message for each link that
    names none. Read from the paths' text alone: nothing on disk is touched for a link (a
    hostile .bib could name a network share). ``posix``: the links are POSIX paths (a
    BibDesk link, whose ``\\`` is part of a file name), never Windows ones."""
    found: list[str] = []
    warnings: list[str] = []
    base = posixpath.dirname(bib_rel)
    root_text = root.as_posix().rstrip("/") + "/"
    for link in links:
        windows = not posix and (bool(_WINDOWS_PATH.match(link)) or "\\" in link)
        pure = PureWindowsPath(link) if windows else PurePosixPath(link)
        text = pure.as_posix() if windows else link
        absolute = pure.is_absolute() or windows or text.startswith("/")
        if absolute:
            inside = posixpath.normpath(text)
            tries = [inside[len(root_text):]] if inside.startswith(root_text) else []
        else:
            tries = [posixpath.normpath(posixpath.join(base, text)), posixpath.normpath(text)]
        hit = next((t for t in tries if t in indexed), None)
        if hit is None:
            same_name = by_name.get(pure.name, [])
            if len(same_name) == 1:
                hit = same_name[0]
            elif len(same_name) > 1:
                warnings.append(f"linked file {link!r} is not here, and {len(same_name)} files in the folder "
                                "have its name: not linked (fix the path in the .bib file)")
                continue
        if hit is None:
            warnings.append(f"linked file {link!r} " + (
                "is outside the indexed folder and no file here has its name: not read (athena reads only "
                "inside the folder it indexes; copy the file into it, or fix the path)" if absolute and not tries else
                "is not among the folder's indexed files: not linked (fix the path in the .bib file, or add "
                "the file)"))
            continue
        if not is_hidden(hit) and hit not in found:
            found.append(hit)
    return found, warnings


def entry_record(entry: "Entry", bib_rel: str) -> dict[str, Any]:
    """The record of one BibTeX entry, in bibliography.py's shape (as ``item_record`` gives a
    Zotero item's): title, authors and ``names`` as the entry splits them, year, DOI, arXiv
    id, type, venue, volume, issue, pages, publisher, URL, the ``label`` and ``bibtex``:
    which file and key it came from (the export keeps the key)."""
    fields = {k.lower(): v.value for k, v in entry.fields_dict.items()}
    people = "author" if _names(fields.get("author")) else "editor"
    names = _names(fields.get(people))
    authors = [n.get("literal") or f"{n.get('given', '')} {n['family']}".strip() for n in names]
    year = _year(fields)
    title = _text(fields.get("title"))
    record: dict[str, Any] = {
        "source": "bibtex", "type": _ITEM_TYPES.get(entry.entry_type.lower(), "document"), "title": title or None,
        "authors": authors, "names": names, "year": year,
        "bibtex": {"file": bib_rel, "key": entry.key},
        "label": citation_label(authors, year, title, entry.key, surnames=_label_surnames(names, fields.get(people))),
    }
    if fields.get("author") and fields.get("editor"):
        record["editors"] = _names(fields["editor"])
    doi = _DOI.search(_raw(fields.get("doi")) or "")
    if doi:
        record["doi"] = doi.group(1).rstrip(".,;)]")
    eprint = _raw(fields.get("eprint")) or ""
    arxiv = _ARXIV.match(eprint)
    if arxiv and (_text(fields.get("archiveprefix") or fields.get("eprinttype")) or "arxiv").lower() == "arxiv":
        record["arxiv"] = arxiv.group(1)
    for name, keys in (("venue", ("journal", "journaltitle", "booktitle")), ("volume", ("volume",)),
                       ("issue", ("number", "issue")), ("pages", ("pages",)),
                       ("publisher", ("publisher", "institution", "school", "organization")), ("url", ("url",))):
        read = _raw if name == "url" else _text
        value = next((read(fields.get(k)) for k in keys if read(fields.get(k))), None)
        if value:
            record[name] = value.replace("--", "\u2013") if name == "pages" else value
    return {k: v for k, v in record.items() if v not in (None, "", [])}


def _names(value: Any) -> list[dict[str, str]]:
    """CSL-style names from bibtexparser's parts: ``{"family", "given"}``, or ``{"literal"}``
    for a braced one-field name (``{Bell Laboratories}``) and for ``others``."""
    out: list[dict[str, str]] = []
    for parts in value if isinstance(value, list) else []:
        if not hasattr(parts, "last"):
            continue
        last = [p for p in parts.last if p]
        if len(last) == 1 and not parts.first and not parts.von and last[0].startswith("{") and last[0].endswith("}"):
            out.append({"literal": _text(last[0]) or ""})
            continue
        family = _text(" ".join([*parts.von, *last, *parts.jr])) or ""  # "Steele Jr.", as labels read it
        if not family or family.lower() == "others":
            continue
        given = _text(" ".join(parts.first))
        out.append({"family": family, **({"given": given} if given else {})})
    return [n for n in out if n.get("family") or n.get("literal")]


def _label_surnames(names: list[dict[str, str]], value: Any) -> list[str]:
    """The surnames the label is made of; ``… and others`` (more authors than the entry
    names) makes "Gal et al." of "Gal and Eich and others"."""
    surnames = [n.get("family") or n.get("literal", "") for n in names]
    others = isinstance(value, list) and any(
        hasattr(p, "last") and not p.first and [w.lower() for w in p.last] == ["others"] for p in value)
    return surnames + ["others", "others"] if surnames and others else surnames


def _raw(value: Any) -> str | None:
    """A URL, DOI or eprint as written, TeX's escapes undone (``\\_``, ``\\%``, ``{~}``): read
    as TeX, ``~`` would be a space and ``%`` start a comment."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = re.sub(r"\\([_%&#~$])", r"\1", value).replace("{", "").replace("}", "")
    return "".join(text.split()) or None


def _year(fields: dict[str, Any]) -> int | None:
    for key in ("year", "date"):
        match = _YEAR.search(_text(fields.get(key)) or "")
        if match:
            return int(match.group(1))
    return None


def _keywords(entry: "Entry") -> list[str]:
    """The entry's keywords, as tags (the papers view filters by them)."""
    value = entry.fields_dict.get("keywords")
    text = _text(value.value) if value is not None and isinstance(value.value, str) else None
    if not text:
        return []
    return sorted({k.strip() for k in re.split(r"[;,]", text) if k.strip()}, key=str.lower)


def _text(value: Any) -> str | None:
    """LaTeX made text (``G{\\"o}del`` → Gödel, braces gone), on one line."""
    if not isinstance(value, str) or not value.strip():
        return None
    if _TEX_COMMAND.search(value):  # pylatexenc (~1 ms a field) only where TeX says more than braces
        try:
            text = _latex().latex_to_text(value)
        except Exception:  # pylatexenc gives up on some malformed TeX: keep the raw text
            text = value.replace("{", "").replace("}", "")
    else:  # "{{Open data challenges at Facebook}}", "374--382": as pylatexenc would read them
        text = value.replace("{", "").replace("}", "").replace("---", "\u2014").replace("--", "\u2013")
    return " ".join(text.split()) or None


_TEX_COMMAND = re.compile(r"[\\$~%]")


@functools.lru_cache(maxsize=1)
def _latex() -> Any:
    """One converter for the process: making one costs ~20 ms (2,392 entries took 51 s)."""
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text(math_mode="verbatim")
