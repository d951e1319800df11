"""A Zotero data directory (``zotero.sqlite`` beside ``storage/``), read as Zotero keeps it.

A researcher's papers live in Zotero: the database holds each item's type, creators in
order, date, DOI, venue, URL, tags and collections, and ``storage/<attachment key>/``
holds the files. athena indexes the files like any others (discovery finds them) and
takes each file's bibliographic record from here, where the researcher curated it,
rather than guessing it from the PDF's first page (pdf/meta.py).

Reading never disturbs Zotero. It keeps the database open, and locked, while it runs, so
the file is opened read-only and *immutable* (``?mode=ro&immutable=1``): SQLite then takes
no lock and writes nothing beside it (no journal, no -wal, no -shm). A database with a
non-empty write-ahead log is copied first (the copy is read; the log is applied to it).

Folder contents are untrusted, the database included: an attachment path is resolved and
kept only when it lies inside the folder being indexed (a "linked file" elsewhere on disk
is named in a warning, never read), and every value is handed on as plain text.

Nothing here writes the index: ``ingest/library.py`` stores what this reads.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator
from urllib.parse import quote

DATABASE = "zotero.sqlite"
# Zotero's "userdata" schema versions athena was checked against: 120 and 121 (Zotero 6),
# 123 (Zotero 7). A newer one is read all the same, with a warning; one that no longer
# has the tables and columns read here is reported and its files index as loose files.
TESTED_SCHEMA = 123
KEY = re.compile(r"^[23456789ABCDEFGHIJKLMNPQRSTUVWXYZ]{8}$")  # Zotero's key alphabet
_LINKED_FILE, _LINKED_URL = 2, 3
_SKIPPED_TYPES = ("attachment", "note", "annotation")
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>{}]+)", re.I)
_ARXIV = re.compile(r"(?:arxiv[:.\s/]*(?:abs/)?)(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?", re.I)


class ZoteroError(Exception):
    """The database cannot be read as a Zotero library; the message names it and what to do."""


@dataclass(frozen=True)
class Creator:
    family: str
    given: str = ""
    role: str = "author"
    single: bool = False  # one-field name (an organisation): never split into given and family

    def display(self) -> str:
        return self.family if self.single or not self.given else f"{self.given} {self.family}"


@dataclass
class LibraryItem:
    """One Zotero item with the files athena can index for it.

    ``bibliographic`` is False for a standalone attachment (a PDF dropped into Zotero with
    no parent item): Zotero knows its collections and tags but no record, so the record
    is still the one guessed from the file."""

    key: str
    item_type: str
    library: str  # "library" (the user's own) or "groups/<id>": the middle of its zotero:// URI
    fields: dict[str, str] = field(default_factory=dict)  # base field name → value
    creators: list[Creator] = field(default_factory=list)
    collections: list[str] = field(default_factory=list)  # "Computer Science / Distributed Systems"
    tags: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # root-relative POSIX paths that exist
    warnings: list[str] = field(default_factory=list)
    bibliographic: bool = True

    @property
    def id(self) -> str:
        return f"zotero:{self.key}"

    @property
    def uri(self) -> str:
        """What opens the item in Zotero (its "select" link)."""
        return f"zotero://select/{self.library}/items/{self.key}"


@dataclass
class Library:
    items: list[LibraryItem] = field(default_factory=list)
    warnings: dict[str, list[str]] = field(default_factory=dict)  # path (or zotero.sqlite) → messages
    trashed: set[str] = field(default_factory=set)  # files of items in Zotero's trash: not indexed
    schema: int | None = None

    def warn(self, path: str, message: str) -> None:
        self.warnings.setdefault(path, []).append(message)


def is_library(root: Path) -> bool:
    """``root`` is a Zotero data directory: it holds ``zotero.sqlite``."""
    return (root / DATABASE).is_file()


def stamp(root: Path) -> str:
    """Changes whenever Zotero writes its database (or its journal / log): when to re-read."""
    parts = []
    for suffix in ("", "-wal", "-journal"):
        try:
            st = (root / (DATABASE + suffix)).stat()
        except OSError:
            continue
        parts.append(f"{suffix or 'db'}:{st.st_size}:{st.st_mtime_ns}")
    return " ".join(parts)


def read_library(root: Path) -> Library:
    """Every item of the library under ``root`` with its record, collections, tags and files.

    Raises ZoteroError (naming the file and what to do) when the database cannot be read
    at all: corrupt, not Zotero's, or of a schema whose tables no longer match."""
    root = root.resolve()
    database = root / DATABASE
    library = Library()
    try:
        with _connection(database) as conn:
            library.schema = _schema_version(conn)
            _read(conn, root, library)
    except sqlite3.DatabaseError as exc:
        newer = library.schema is not None and library.schema > TESTED_SCHEMA
        why = (f"its schema (userdata {library.schema}) is newer than athena reads (up to {TESTED_SCHEMA}) "
               "and does not match" if newer else "it is damaged or not a Zotero database")
        raise ZoteroError(f"{DATABASE} could not be read ({exc}): {why}. Its files were indexed as loose "
                          "files, with records guessed from their pages. "
                          + ("Upgrade athena-lab." if newer else
                             "Let Zotero repair it, or restore zotero.sqlite.bak.")) from None
    if library.schema is not None and library.schema > TESTED_SCHEMA:
        library.warn(DATABASE, f"Zotero's schema here (userdata {library.schema}) is newer than athena was "
                               f"tested with (up to {TESTED_SCHEMA}); records were read as far as they match: "
                               "check them in the papers view")
    return library


@contextmanager
def _connection(database: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection that takes no lock on Zotero's file and writes nothing beside it."""
    wal = database.with_name(database.name + "-wal")
    copy_dir = None
    try:
        if wal.is_file() and wal.stat().st_size > 0:
            # Immutable reading would skip what the log holds: read a copy with its log applied.
            copy_dir = tempfile.mkdtemp(prefix="athena-zotero-")
            target = Path(copy_dir) / DATABASE
            shutil.copyfile(database, target)
            shutil.copyfile(wal, target.with_name(DATABASE + "-wal"))
            conn = sqlite3.connect(target)
        else:
            conn = sqlite3.connect(f"file:{quote(str(database))}?mode=ro&immutable=1", uri=True)
        try:
            conn.execute("PRAGMA query_only = ON")
            yield conn
        finally:
            conn.close()
    finally:
        if copy_dir is not None:
            shutil.rmtree(copy_dir, ignore_errors=True)


def _schema_version(conn: sqlite3.Connection) -> int | None:
    try:
        row = conn.execute("SELECT version FROM version WHERE schema='userdata'").fetchone()
    except sqlite3.DatabaseError as exc:
        if "no such table" in str(exc):
            raise sqlite3.DatabaseError("no 'version' table: not a Zotero database") from None
        raise
    return int(row[0]) if row and str(row[0]).isdigit() else None


def _read(conn: sqlite3.Connection, root: Path, library: Library) -> None:
    libraries = _library_uris(conn)
    trashed = {r[0] for r in conn.execute("SELECT itemID FROM deletedItems")}
    rows = conn.execute(
        "SELECT i.itemID, i.key, t.typeName, i.libraryID FROM items i JOIN itemTypes t USING (itemTypeID) "
        "ORDER BY i.itemID").fetchall()
    types = {item_id: type_name for item_id, _key, type_name, _lib in rows}
    fields = _fields(conn)
    creators = _creators(conn)
    collections = _collections(conn)
    tags: dict[int, list[str]] = {}
    for item_id, name in conn.execute("SELECT it.itemID, t.name FROM itemTags it JOIN tags t USING (tagID) "
                                      "ORDER BY t.name COLLATE NOCASE"):
        tags.setdefault(item_id, []).append(name)
    items: dict[int, LibraryItem] = {}
    for item_id, key, type_name, library_id in rows:
        if type_name in _SKIPPED_TYPES or library_id not in libraries or item_id in trashed:
            continue
        items[item_id] = LibraryItem(key, type_name, libraries[library_id], fields.get(item_id, {}),
                                     creators.get(item_id, []), collections.get(item_id, []), tags.get(item_id, []))
    attachments = conn.execute("SELECT a.itemID, a.parentItemID, a.linkMode, a.path, i.key, i.libraryID "
                               "FROM itemAttachments a JOIN items i USING (itemID) ORDER BY a.itemID").fetchall()
    for item_id, parent_id, link_mode, stored, key, library_id in attachments:
        if library_id not in libraries or types.get(item_id) != "attachment":
            continue
        path, problem = _attachment_path(root, key, link_mode, stored)
        if item_id in trashed or parent_id in trashed:
            if path:
                library.trashed.add(path)
            continue
        owner = items.get(parent_id) if parent_id is not None else None
        if owner is None and parent_id is None:
            # A standalone attachment: its own collections and tags, its record from its pages.
            owner = LibraryItem(key, "attachment", libraries[library_id], {"title": fields.get(item_id, {}).get("title", "")},
                                [], collections.get(item_id, []), tags.get(item_id, []), bibliographic=False)
            items[item_id] = owner
        if owner is None:
            continue  # the parent is of a kind athena keeps no record of (a note)
        if problem:
            title = owner.fields.get("title") if owner.bibliographic else None
            library.warn(path or f"zotero:{key}", problem + (f' (the attachment of "{title[:120]}")' if title else ""))
            owner.warnings.append(f"{path.rsplit('/', 1)[-1]}: {problem}" if path else problem)
        elif path:
            owner.files.append(path)
    library.items = sorted(items.values(), key=lambda i: (i.library, i.key))


def _library_uris(conn: sqlite3.Connection) -> dict[int, str]:
    """libraryID → the middle of a zotero://select URI; feeds (RSS items) are left out."""
    out: dict[int, str] = {}
    groups = {library_id: group_id for group_id, library_id in conn.execute("SELECT groupID, libraryID FROM groups")}
    for library_id, kind in conn.execute("SELECT libraryID, type FROM libraries"):
        if kind == "user":
            out[library_id] = "library"
        elif kind == "group" and library_id in groups:
            out[library_id] = f"groups/{groups[library_id]}"
    return out


def _fields(conn: sqlite3.Connection) -> dict[int, dict[str, str]]:
    """itemID → {base field name: value}: an item type's own field (``proceedingsTitle``,
    ``websiteTitle``, ``university``) is stored under the base field it maps to
    (``publicationTitle``, ``publisher``), so every type reads the same way."""
    names = dict(conn.execute("SELECT fieldID, fieldName FROM fields"))
    base: dict[tuple[int, int], int] = {}
    try:
        for type_id, base_id, field_id in conn.execute(
                "SELECT itemTypeID, baseFieldID, fieldID FROM baseFieldMappingsCombined"):
            base[(type_id, field_id)] = base_id
    except sqlite3.OperationalError:
        pass  # an old schema without the combined mappings: fields keep their own names
    out: dict[int, dict[str, str]] = {}
    for item_id, type_id, field_id, value in conn.execute(
            "SELECT d.itemID, i.itemTypeID, d.fieldID, v.value FROM itemData d JOIN itemDataValues v USING (valueID) "
            "JOIN items i USING (itemID)"):
        name = names.get(base.get((type_id, field_id), field_id))
        if name and value is not None and str(value).strip():
            out.setdefault(item_id, {})[name] = str(value)
    return out


def _creators(conn: sqlite3.Connection) -> dict[int, list[Creator]]:
    """itemID → creators in Zotero's order, each with its role; the item type's primary
    role (author, programmer, director …) reads as ``author``."""
    primary = {type_id: creator_type for type_id, creator_type in conn.execute(
        "SELECT itemTypeID, creatorTypeID FROM itemTypeCreatorTypes WHERE primaryField = 1")}
    roles = dict(conn.execute("SELECT creatorTypeID, creatorType FROM creatorTypes"))
    out: dict[int, list[Creator]] = {}
    for item_id, type_id, creator_type, first, last, mode in conn.execute(
            "SELECT ic.itemID, i.itemTypeID, ic.creatorTypeID, c.firstName, c.lastName, c.fieldMode "
            "FROM itemCreators ic JOIN creators c USING (creatorID) JOIN items i USING (itemID) "
            "ORDER BY ic.itemID, ic.orderIndex"):
        family, given = (last or "").strip(), (first or "").strip()
        if not family and not given:
            continue
        role = "author" if primary.get(type_id) == creator_type else roles.get(creator_type, "contributor")
        single = mode == 1 or not given
        out.setdefault(item_id, []).append(Creator(family or given, "" if single else given, role, single))
    return out


def _collections(conn: sqlite3.Connection) -> dict[int, list[str]]:
    """itemID → the full names of its collections ("Computer Science / Distributed Systems");
    collections in Zotero's trash are left out."""
    try:
        deleted = {r[0] for r in conn.execute("SELECT collectionID FROM deletedCollections")}
    except sqlite3.OperationalError:
        deleted = set()
    rows = {cid: (name, parent) for cid, name, parent in conn.execute(
        "SELECT collectionID, collectionName, parentCollectionID FROM collections")}

    def full(cid: int) -> str | None:
        names, seen = [], set()
        while cid is not None and cid not in seen:
            if cid in deleted or cid not in rows:
                return None
            seen.add(cid)
            name, parent = rows[cid]
            names.append(" ".join(str(name).split()))
            cid = parent
        return " / ".join(reversed(names))

    out: dict[int, list[str]] = {}
    for cid, item_id in conn.execute("SELECT collectionID, itemID FROM collectionItems ORDER BY orderIndex"):
        name = full(cid)
        if name and name not in out.get(item_id, []):
            out.setdefault(item_id, []).append(name)
    for names in out.values():
        names.sort(key=str.lower)
    return out


def _attachment_path(root: Path, key: str, link_mode: int | None, stored: str | None) -> tuple[str | None, str | None]:
    """(root-relative path, None) for a file athena may index; (path or None, message) for
    one it cannot: missing from storage/, or a linked file outside the folder."""
    if link_mode == _LINKED_URL or not stored:
        return None, None  # a web link, or an attachment without a file
    if link_mode == _LINKED_FILE:
        if stored.startswith("attachments:"):
            return None, (f"linked file {stored[len('attachments:'):]!r} is relative to Zotero's linked "
                          "attachment base directory, which athena does not know: not indexed (let Zotero "
                          "store the file, or index that folder too)")
        target = Path(stored)
        try:
            resolved = target.resolve()
            rel = resolved.relative_to(root).as_posix()
        except (OSError, ValueError):
            return None, (f"linked file {stored} is outside the Zotero folder: not indexed (athena reads only "
                          "inside the folder it indexes; let Zotero store the file, or index that folder too)")
        if not resolved.is_file():
            return rel, "attachment missing: Zotero links to this file, but it is not there (relink it in Zotero)"
        return rel, None
    if not KEY.match(key) or not stored.startswith("storage:"):
        return None, f"attachment {key}: path {stored!r} is not one Zotero stores: not indexed"
    name = stored[len("storage:"):]
    if not name or "/" in name or "\\" in name or name in (".", ".."):
        return None, f"attachment {key}: file name {name!r} is not a plain name under storage/: not indexed"
    rel = f"storage/{key}/{name}"
    full = root / "storage" / key / name
    if full.is_symlink() or not full.is_file():
        return rel, ("attachment missing: Zotero lists this file, but it is not in storage/ (sync the library, "
                     "or attach the file again in Zotero)")
    if os.path.commonpath([str(full.resolve()), str(root)]) != str(root):
        return rel, "this attachment resolves outside the Zotero folder: not indexed"
    return rel, None


def year_of(date: str | None) -> int | None:
    """Zotero stores dates as ``YYYY-MM-DD original`` (``1985-04-00 04/1985``); 0000 is none."""
    match = re.match(r"(\d{4})-", date or "")
    return int(match.group(1)) if match and match.group(1) != "0000" else None


def identifiers(item: LibraryItem) -> dict[str, str]:
    """DOI and arXiv id from the DOI field, or the ``Extra`` field's ``DOI: …`` line, the
    archive id (``arXiv:2206.10883``) or the URL."""
    out: dict[str, str] = {}
    f = item.fields
    doi = _DOI.search(f.get("DOI", "")) or _DOI.search(_extra_line(f.get("extra", ""), "doi"))
    if doi:
        out["doi"] = doi.group(1).rstrip(".,;)]")
    for text in (f.get("archiveID", ""), _extra_line(f.get("extra", ""), "arxiv"), f.get("url", "")):
        arxiv = _ARXIV.search(text)
        if arxiv:
            out["arxiv"] = arxiv.group(1)
            break
    return out


def _extra_line(extra: str, name: str) -> str:
    for line in extra.splitlines():
        head, _, value = line.partition(":")
        if head.strip().lower() == name:
            return f"{name}:{value.strip()}" if name == "arxiv" else value.strip()
    return ""
