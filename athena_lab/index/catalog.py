"""The SQLite catalog: sources, chunks and their locators, the embedding cache, manifest.

SQLite holds everything that must be joined, versioned and kept. It is the commit point
of an index run: Tantivy and the vector graph may briefly hold more than the catalog
knows, never less, and anything the catalog does not know is ignored at search time.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from athena_lab.errors import CatalogError
from athena_lab.contract import IndexCounts

SCHEMA_VERSION = "8"
# The manifest key of the library's warnings per file (Catalog.file_warnings).
_FILE_WARNINGS = "library_warnings"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS manifest (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sources (
  path TEXT PRIMARY KEY, doc_kind TEXT NOT NULL, size INTEGER NOT NULL,
  mtime_ns INTEGER NOT NULL, sha256 TEXT NOT NULL, parser TEXT NOT NULL,
  parser_version TEXT NOT NULL, status TEXT NOT NULL, title TEXT,
  metadata TEXT NOT NULL DEFAULT '{}', warnings TEXT NOT NULL DEFAULT '[]',
  pages INTEGER, chunks INTEGER NOT NULL DEFAULT 0, indexed_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS chunks (
  chunk_id TEXT PRIMARY KEY, path TEXT NOT NULL, ordinal INTEGER NOT NULL,
  doc_kind TEXT NOT NULL, heading TEXT NOT NULL, text TEXT NOT NULL,
  text_hash TEXT NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL,
  cell INTEGER, page INTEGER, locator TEXT NOT NULL, confidence REAL,
  warnings TEXT NOT NULL DEFAULT '[]', prev_id TEXT, next_id TEXT,
  label INTEGER, vec_hash TEXT, vec_embedder TEXT
);
CREATE INDEX IF NOT EXISTS chunks_by_path ON chunks(path, ordinal);
CREATE INDEX IF NOT EXISTS chunks_by_label ON chunks(label);
-- A second vector set (the multilingual channel) maps its own graph labels to chunks.
CREATE TABLE IF NOT EXISTS channel_vectors (
  embedder TEXT NOT NULL, label INTEGER NOT NULL, chunk_id TEXT NOT NULL,
  text_hash TEXT NOT NULL, PRIMARY KEY (embedder, label)
);
CREATE INDEX IF NOT EXISTS channel_by_chunk ON channel_vectors(embedder, chunk_id);
CREATE INDEX IF NOT EXISTS chunks_by_vector ON chunks(vec_embedder, label);
CREATE TABLE IF NOT EXISTS embeddings (
  text_hash TEXT NOT NULL, embedder TEXT NOT NULL, vector BLOB NOT NULL,
  PRIMARY KEY (text_hash, embedder)
);
"""

def _add_message_column(name: str) -> Callable[[sqlite3.Connection], None]:
    """A step adding a JSON column to ``messages`` (NULL for the messages of older versions).
    SQLite has no ADD COLUMN IF NOT EXISTS, so it looks first: a step may run again on a
    catalog that already has the column."""
    def step(conn: sqlite3.Connection) -> None:
        if name not in {row[1] for row in conn.execute("PRAGMA table_info(messages)")}:
            conn.execute(f"ALTER TABLE messages ADD COLUMN {name} TEXT")
    return step


# Each step brings a catalog from the version before it to its own; a catalog written by an
# older athena_lab is upgraded in place on open (its chunks, vectors and conversations kept).
# A step is an SQL script or, when SQL cannot say "only if missing", a function of the
# connection; every step must be safe to run again.
# Version 1 catalogs had the conversation tables created unversioned by the agent, or not at
# all; the IF NOT EXISTS makes step 2 right for both.
MIGRATIONS: dict[int, str | Callable[[sqlite3.Connection], None]] = {
    2: """
CREATE TABLE IF NOT EXISTS conversations (
  id TEXT PRIMARY KEY, title TEXT NOT NULL, created_at REAL NOT NULL, updated_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
  role TEXT NOT NULL, content TEXT NOT NULL, citations TEXT, unsupported TEXT, mode TEXT,
  created_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_by_conversation ON messages(conversation_id, id);
""",
    3: _add_message_column("filters"),  # the filters a question was asked with
    4: _add_message_column("context"),  # the cell or selection it was asked about, and its label
    5: _add_message_column("trace"),  # an answer's steps (tools, inputs, hits), shown again after a reload
    # A reference manager's records (a Zotero library, ingest/library.py): one row per item
    # with its record, collections and tags, and which indexed files are its attachments.
    6: """
CREATE TABLE IF NOT EXISTS library_items (
  id TEXT PRIMARY KEY, record TEXT NOT NULL, collections TEXT NOT NULL, tags TEXT NOT NULL,
  warnings TEXT NOT NULL, files TEXT NOT NULL, bibliographic INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS library_files (path TEXT PRIMARY KEY, item_id TEXT NOT NULL);
""",
    7: _add_message_column("sources"),  # the quotes shown beside a model's answer (the sources event)
    8: _add_message_column("not_found"),  # names a model's answer used that the folder lacks (done.not_found)
}

CHUNK_COLUMNS = ("chunk_id", "path", "ordinal", "doc_kind", "heading", "text", "text_hash",
                 "start_line", "end_line", "cell", "page", "locator", "confidence", "warnings",
                 "prev_id", "next_id", "label", "vec_hash", "vec_embedder")


# (chunk_id, text_hash, text, heading, path): a chunk whose text is to be embedded.
TextRow = tuple[str, str, str, str, str]


@dataclass
class SourceRow:
    path: str
    doc_kind: str
    size: int
    mtime_ns: int
    sha256: str
    parser: str
    parser_version: str
    status: str  # ok | failed | pending | duplicate (metadata["duplicate_of"] is the indexed copy)
    title: str | None
    metadata: dict[str, Any]
    warnings: list[str]
    pages: int | None
    chunks: int
    indexed_at: float


@dataclass
class ChunkRow:
    chunk_id: str
    path: str
    ordinal: int
    doc_kind: str
    heading: str
    text: str
    text_hash: str
    start_line: int
    end_line: int
    cell: int | None
    page: int | None
    locator: dict[str, Any]
    confidence: float | None
    warnings: list[str]
    prev_id: str | None
    next_id: str | None
    label: int | None
    vec_hash: str | None
    vec_embedder: str | None


@dataclass
class LibraryRow:
    """One item of a reference manager's library (ingest/library.py)."""

    id: str  # "zotero:KEY"
    record: dict[str, Any]  # bibliography.record_of's fields, plus type, names, venue, zotero …
    collections: list[str]
    tags: list[str]
    warnings: list[str]
    files: list[str]  # root-relative paths of its attachments that exist
    bibliographic: bool  # False: a standalone attachment, whose record is guessed from its pages


def _library_row(row: sqlite3.Row) -> LibraryRow:
    d = dict(row)
    for key in ("record", "collections", "tags", "warnings", "files"):
        d[key] = json.loads(d[key])
    d["bibliographic"] = bool(d["bibliographic"])
    return LibraryRow(**d)


def _source(row: sqlite3.Row) -> SourceRow:
    d = dict(row)
    d["metadata"] = json.loads(d["metadata"])
    d["warnings"] = json.loads(d["warnings"])
    return SourceRow(**d)


def _chunk(row: sqlite3.Row) -> ChunkRow:
    d = dict(row)
    d["locator"] = json.loads(d["locator"])
    d["warnings"] = json.loads(d["warnings"])
    return ChunkRow(**d)


class Catalog:
    """One connection per thread; WAL so readers never block the indexer."""

    def __init__(self, path: Path, *, create: bool = True) -> None:
        if not create and not path.is_file():
            raise CatalogError(f"no index at {path.parent}: run `athena index` first")
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._local = threading.local()
        self._identity: int | None = None  # an fd on the file we opened: its inode cannot be reused
        conn = self.conn
        self._identity = os.open(path, os.O_RDONLY)
        self._uri = path.resolve().as_uri() + "?mode=rw"  # later connections never create the file
        self._release = weakref.finalize(self, os.close, self._identity)
        try:
            conn.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise CatalogError(f"{path} is not a usable catalog ({exc}); delete the index folder "
                               "and run `athena index` again") from exc
        self._migrate(path)

    def _migrate(self, path: Path) -> None:
        """Bring the schema up to ``SCHEMA_VERSION``; refuse a catalog from a newer athena_lab."""
        found = self.get_manifest("schema_version")
        version = 1 if found is None or not found.isdigit() else int(found)
        if found is not None and version > int(SCHEMA_VERSION):
            raise CatalogError(f"{path} has schema {found}, newer than this athena_lab's {SCHEMA_VERSION}: "
                               "upgrade athena-lab, or delete the index folder and run `athena index` again")
        for step in range(version + 1, int(SCHEMA_VERSION) + 1):
            with self.transaction():
                migration = MIGRATIONS[step]
                if callable(migration):
                    migration(self.conn)
                else:
                    self._run_script(migration)
                self.set_manifest("schema_version", str(step))

    def _run_script(self, script: str) -> None:
        for statement in (s.strip() for s in script.split(";")):
            if statement:
                self.conn.execute(statement)

    def is_current(self) -> bool:
        """False once the file was deleted or replaced (the index folder removed while a
        server holds it open): connections would read a ghost, so the owner reopens."""
        if self._identity is None:
            return True
        if not self._release.alive:
            return False
        try:
            opened, now = os.fstat(self._identity), os.stat(self.path)
        except OSError:
            return False
        return opened.st_nlink > 0 and (opened.st_dev, opened.st_ino) == (now.st_dev, now.st_ino)

    @property
    def conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            if self._identity is None:  # opening: the file may be created
                conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            elif not self.is_current():  # a new thread must not create an empty file or join a new one
                raise CatalogError(f"the index at {self.path.parent} was removed or replaced while open; "
                                   "retry (it is reopened) or run `athena index`")
            else:
                conn = sqlite3.connect(self._uri, uri=True, timeout=30,
                                       isolation_level=None, check_same_thread=False)
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.conn = conn
        return conn

    def transaction(self) -> "_Transaction":
        return _Transaction(self.conn)

    # manifest ---------------------------------------------------------------
    def get_manifest(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM manifest WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def set_manifest(self, key: str, value: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO manifest(key, value) VALUES (?, ?)", (key, value))

    def manifest(self) -> dict[str, str]:
        return {r[0]: r[1] for r in self.conn.execute("SELECT key, value FROM manifest")}

    def next_labels(self, count: int) -> range:
        """Reserve ``count`` fresh vector labels; labels are never reused."""
        start = int(self.get_manifest("next_label") or 0)
        self.set_manifest("next_label", str(start + count))
        return range(start, start + count)

    # sources ----------------------------------------------------------------
    def sources(self) -> dict[str, SourceRow]:
        return {r["path"]: _source(r) for r in self.conn.execute("SELECT * FROM sources")}

    def source(self, path: str) -> SourceRow | None:
        row = self.conn.execute("SELECT * FROM sources WHERE path=?", (path,)).fetchone()
        return _source(row) if row else None

    def put_source(self, s: SourceRow) -> None:
        self.conn.execute(
            "INSERT OR REPLACE INTO sources VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (s.path, s.doc_kind, s.size, s.mtime_ns, s.sha256, s.parser, s.parser_version,
             s.status, s.title, json.dumps(s.metadata), json.dumps(s.warnings), s.pages,
             s.chunks, s.indexed_at))

    def touch_source(self, path: str, size: int, mtime_ns: int) -> None:
        self.conn.execute("UPDATE sources SET size=?, mtime_ns=? WHERE path=?", (size, mtime_ns, path))

    def restamp_source(self, path: str, size: int, mtime_ns: int, sha256: str) -> None:
        """New bytes, same indexed content: record the file's new stamp and nothing else."""
        self.conn.execute("UPDATE sources SET size=?, mtime_ns=?, sha256=? WHERE path=?",
                          (size, mtime_ns, sha256, path))

    def paths_by_sha256(self, digests: set[str]) -> dict[str, list[str]]:
        """Indexed files (not themselves duplicates) with these contents: digest → paths."""
        out: dict[str, list[str]] = {}
        wanted = list(digests)
        for start in range(0, len(wanted), 500):
            part = wanted[start:start + 500]
            marks = ",".join("?" * len(part))
            for digest, path in self.conn.execute(
                    f"SELECT sha256, path FROM sources WHERE status != 'duplicate' AND sha256 IN ({marks})", part):
                out.setdefault(digest, []).append(path)
        return out

    def duplicates_of(self, path: str) -> list[str]:
        """Files recorded as the same bytes as ``path`` (indexed once, under ``path``)."""
        return [r[0] for r in self.conn.execute("SELECT path, metadata FROM sources WHERE status='duplicate'")
                if json.loads(r[1] or "{}").get("duplicate_of") == path]

    def delete_source(self, path: str) -> None:
        self.conn.execute("DELETE FROM chunks WHERE path=?", (path,))
        self.conn.execute("DELETE FROM sources WHERE path=?", (path,))

    # chunks -----------------------------------------------------------------
    def put_chunks(self, rows: Iterable[tuple]) -> None:
        marks = ",".join("?" * len(CHUNK_COLUMNS))
        self.conn.executemany(f"INSERT OR REPLACE INTO chunks VALUES ({marks})", rows)

    def chunks_for_path(self, path: str) -> list[ChunkRow]:
        return [_chunk(r) for r in self.conn.execute(
            "SELECT * FROM chunks WHERE path=? ORDER BY ordinal", (path,))]

    def chunks_by_id(self, ids: list[str]) -> dict[str, ChunkRow]:
        return self._chunks_where_in("chunk_id", ids)

    def chunks_by_label(self, labels: list[int]) -> dict[int, ChunkRow]:
        return self._chunks_where_in("label", labels)

    def _chunks_where_in(self, column: str, values: list) -> dict:
        out: dict = {}
        for start in range(0, len(values), 500):  # SQLite caps bound parameters
            part = values[start:start + 500]
            marks = ",".join("?" * len(part))
            for r in self.conn.execute(f"SELECT * FROM chunks WHERE {column} IN ({marks})", part):
                out[r[column]] = _chunk(r)
        return out

    def chunk_ids_containing(self, needle: str, prefix: str | None, limit: int) -> Iterator[str]:
        """Ids of chunks whose lower-cased text contains ``needle`` (already lower-case)."""
        sql = "SELECT chunk_id FROM chunks WHERE instr(lower(text), ?) > 0"
        params: list[str | int] = [needle]
        if prefix:
            sql += " AND substr(path, 1, ?) = ?"
            params += [len(prefix), prefix]
        for (cid,) in self.conn.execute(sql + " LIMIT ?", (*params, limit)):
            yield cid

    def chunk_texts(self, prefix: str | None = None) -> Iterator[tuple]:
        """(chunk_id, path, text, start_line, cell, doc_kind, page) in reading order."""
        sql, params = "SELECT chunk_id, path, text, start_line, cell, doc_kind, page FROM chunks", []
        if prefix:
            sql += " WHERE substr(path, 1, ?) = ?"
            params = [len(prefix), prefix]
        yield from self.conn.execute(sql + " ORDER BY path, ordinal", params)

    @staticmethod
    def _filtered(first: str, doc_kinds: list[str] | None, prefix: str | None,
                  paths: Iterable[str] | None = None) -> tuple[str, list[Any]]:
        """The WHERE clause (after ``first``) and parameters for chunks of these kinds under
        ``prefix`` and, when ``paths`` is given, in one of those files."""
        where, params = [first], list[Any]()
        if doc_kinds:
            where.append(f"doc_kind IN ({','.join('?' * len(doc_kinds))})")
            params += doc_kinds
        if prefix:
            where.append("substr(path, 1, ?) = ?")
            params += [len(prefix), prefix]
        if paths is not None:
            chosen = sorted(set(paths))
            where.append(f"path IN ({','.join('?' * len(chosen))})" if chosen else "0")
            params += chosen
        return " AND ".join(where), params

    def labels_where(self, doc_kinds: list[str] | None, prefix: str | None,
                     paths: Iterable[str] | None = None, references: bool = False) -> set[int]:
        """Vector labels of the chunks of these parser kinds under ``prefix`` (filters for the
        graph); ``references``: only passages of papers' reference lists."""
        if references:
            # every who-cites search asks this: read once a commit (140 ms on 17k chunks)
            cited = self._until_commit(("reference_labels",), lambda conn: frozenset(r[0] for r in conn.execute(
                "SELECT label FROM chunks WHERE label IS NOT NULL AND json_extract(locator, '$.references') IS 1")))
            if not (doc_kinds or prefix or paths is not None):
                return set(cited)
        where, params = self._filtered("label IS NOT NULL", doc_kinds, prefix, paths)
        found = {r[0] for r in self.conn.execute(f"SELECT label FROM chunks WHERE {where}", params)}
        return found & cited if references else found

    def sources_stamp(self) -> tuple[int, float, int]:
        """Changes whenever a source is written or removed (an index run, the live index): what a
        cache of something read from the chunks can be keyed on."""
        count, latest, chunks = self.conn.execute(
            "SELECT COUNT(*), COALESCE(MAX(indexed_at), 0), COALESCE(SUM(chunks), 0) FROM sources").fetchone()
        return int(count), float(latest), int(chunks)

    def has_chunks(self, doc_kinds: list[str] | None, prefix: str | None,
                   paths: Iterable[str] | None = None) -> bool:
        """Whether any chunk is of these parser kinds under ``prefix`` (do the filters leave anything?)."""
        where, params = self._filtered("1", doc_kinds, prefix, paths)
        return self.conn.execute(f"SELECT 1 FROM chunks WHERE {where} LIMIT 1", params).fetchone() is not None

    def headings(self, limit: int = 400) -> list[tuple[str, str]]:
        """(path, heading) of distinct non-empty headings, files with the most chunks first."""
        return [(path, heading) for path, heading, _ in self.sections(limit)]

    def sections(self, limit: int = 400) -> list[tuple[str, str, str]]:
        """(path, heading, text of its first chunk) of distinct non-empty headings, files
        with the most chunks first."""
        return [(r[0], r[1], r[2]) for r in self.conn.execute(
            "SELECT c.path, c.heading, (SELECT f.text FROM chunks f WHERE f.path = c.path AND f.heading = c.heading "
            "ORDER BY f.ordinal LIMIT 1) FROM chunks c JOIN sources s ON s.path = c.path "
            "WHERE c.heading != '' GROUP BY c.path, c.heading ORDER BY s.chunks DESC, c.path, MIN(c.ordinal) "
            "LIMIT ?", (limit,))]

    def titles(self, paths: set[str]) -> dict[str, str | None]:
        if not paths:
            return {}
        marks = ",".join("?" * len(paths))
        return dict(self.conn.execute(f"SELECT path, title FROM sources WHERE path IN ({marks})", list(paths)))

    def source_records(self, paths: set[str], guessed_kinds: tuple[str, ...] = ("pdf",)) -> dict[str, dict[str, Any]]:
        """The bibliographic record of each source: its library's (a Zotero item's) where
        it has one — the researcher's own record beats any guess — else the fields the
        parser guessed (title, authors, year, DOI, arXiv id) for the ``guessed_kinds``,
        read out of the metadata JSON without loading its per-page details. A standalone
        Zotero attachment keeps the guess and gains its ``zotero`` link."""
        if not paths:
            return {}
        marks = ",".join("?" * len(paths))
        fields = ", ".join(f"json_extract(s.metadata, '$.{k}')" for k in ("title", "authors", "year", "doi", "arxiv"))
        out: dict[str, dict[str, Any]] = {}
        for path, kind, title, authors, year, doi, arxiv, record, bibliographic in self.conn.execute(
                f"SELECT s.path, s.doc_kind, {fields}, i.record, i.bibliographic FROM sources s "
                "LEFT JOIN library_files f ON f.path = s.path LEFT JOIN library_items i ON i.id = f.item_id "
                f"WHERE s.path IN ({marks})", list(paths)):
            library = json.loads(record) if record else None
            if library is not None and bibliographic:
                out[path] = library
                continue
            if kind in guessed_kinds:
                out[path] = {"title": title, "authors": json.loads(authors) if authors else [], "year": year,
                             "doi": doi, "arxiv": arxiv}
            if library is not None and library.get("zotero"):
                out.setdefault(path, {})["zotero"] = library["zotero"]
        return out

    def first_pages(self, last_page: int = 2, paths: Iterable[str] | None = None) -> dict[str, str]:
        """The text the index holds of each indexed PDF's first pages (of those of ``paths``
        only, when given): the title and authors the parser read there, then the headings
        and passages of pages 1 to ``last_page`` in reading order, reference lists left out
        (a .bib entry's title is looked for in it, ingest/bibtitles.py, and an attachment's
        item's, ingest/attachments.py). Read from the catalog: no PDF is opened."""
        out: dict[str, str] = {}
        wanted = None if paths is None else set(paths)
        # A file of the same bytes as an indexed one, asked for by its path, has that one's pages.
        copies: dict[str, list[str]] = {}
        if wanted is not None:
            for path, original in self.conn.execute(
                    "SELECT path, json_extract(metadata, '$.duplicate_of') FROM sources "
                    "WHERE doc_kind = 'pdf' AND status = 'duplicate'"):
                if path in wanted and original:
                    copies.setdefault(original, []).append(path)
        rows = self.conn.execute(
            "SELECT path, json_extract(metadata, '$.title'), json_extract(metadata, '$.authors') FROM sources "
            "WHERE doc_kind = 'pdf' AND status = 'ok' ORDER BY path").fetchall()
        for path, title, authors in rows:
            if wanted is not None and path not in wanted and path not in copies:
                continue
            parts = [title or "", " ".join(json.loads(authors)) if authors else ""]
            heading = None
            for head, text in self.conn.execute(
                    "SELECT heading, text FROM chunks WHERE path = ? AND page <= ? "
                    "AND json_extract(locator, '$.references') IS NOT 1 ORDER BY ordinal", (path, last_page)):
                if head != heading:
                    parts.append(head)
                    heading = head
                parts.append(text)
            text = "\n".join(p for p in parts if p)
            if wanted is None or path in wanted:
                out[path] = text
            for copy in copies.get(path, []):
                out[copy] = text
        return out

    def pdfs_digest(self) -> str:
        """Changes whenever an indexed PDF (or a copy of one) is added, changed or removed
        (what ``first_pages`` reads changes with it)."""
        digest = hashlib.sha1()
        for path, sha in self.conn.execute(
                "SELECT path, sha256 FROM sources WHERE doc_kind = 'pdf' AND status = 'ok' ORDER BY path"):
            digest.update(f"{path}\0{sha}\0".encode("utf-8", "surrogateescape"))
        # Files of the same bytes as an indexed one: each has that one's pages (first_pages).
        for path, sha in self.conn.execute(
                "SELECT path, sha256 FROM sources WHERE doc_kind = 'pdf' AND status = 'duplicate' ORDER BY path"):
            digest.update(f"copy\0{path}\0{sha}\0".encode("utf-8", "surrogateescape"))
        return digest.hexdigest()[:16]

    # a reference manager's library ------------------------------------------
    # The library's warnings about the folder's files (an attachment missing, a linked file
    # that is not the item's, the database itself), path -> messages. ingest/library.py writes
    # them; the papers view (search/papers.py) and the index status (workspace.py) read them.
    # The catalog owns the manifest key and its JSON format, so that neither reader needs
    # ingest (search may not import it) nor knows how the warnings are stored.
    def file_warnings(self) -> dict[str, list[str]]:
        """The library's warnings per file (path -> messages); {} when there is no library."""
        return json.loads(self.get_manifest(_FILE_WARNINGS) or "{}")

    def set_file_warnings(self, warnings: dict[str, list[str]]) -> None:
        """Replace the library's warnings per file (see ``file_warnings``)."""
        self.set_manifest(_FILE_WARNINGS, json.dumps(warnings, ensure_ascii=False))

    def forget_file_warnings(self) -> None:
        """Drop the library's warnings per file (the folder is no longer a library)."""
        self.conn.execute("DELETE FROM manifest WHERE key=?", (_FILE_WARNINGS,))

    def library(self) -> list[LibraryRow]:
        return [_library_row(r) for r in self.conn.execute("SELECT * FROM library_items ORDER BY id")]

    def library_files(self) -> dict[str, str]:
        """path → library item id, for every indexed-or-not attachment file."""
        return dict(self.conn.execute("SELECT path, item_id FROM library_files"))

    def replace_library(self, rows: list[LibraryRow]) -> None:
        """The library's items and their files, all at once (call inside a transaction)."""
        self.conn.execute("DELETE FROM library_items")
        self.conn.execute("DELETE FROM library_files")
        self.conn.executemany(
            "INSERT INTO library_items VALUES (?,?,?,?,?,?,?)",
            [(r.id, json.dumps(r.record, ensure_ascii=False), json.dumps(r.collections, ensure_ascii=False),
              json.dumps(r.tags, ensure_ascii=False), json.dumps(r.warnings, ensure_ascii=False),
              json.dumps(r.files, ensure_ascii=False), int(r.bibliographic)) for r in rows])
        self.conn.executemany("INSERT OR REPLACE INTO library_files VALUES (?, ?)",
                              [(path, r.id) for r in rows for path in r.files])

    def forget_vectors(self, embedder_key: str) -> None:
        """Mark every chunk as needing a vector of ``embedder_key`` (its graph was rebuilt)."""
        self.conn.execute("UPDATE chunks SET vec_embedder=NULL WHERE vec_embedder=?", (embedder_key,))

    def iter_chunks(self, where: str = "", params: tuple = ()) -> Iterator[ChunkRow]:
        for r in self.conn.execute(f"SELECT * FROM chunks {where} ORDER BY path, ordinal", params):
            yield _chunk(r)

    _NEEDS_VECTOR = "(vec_embedder IS NOT ? OR vec_hash IS NOT text_hash)"

    def needing_vectors_count(self, embedder_key: str) -> int:
        """How many chunks have no current vector of ``embedder_key``."""
        return int(self.conn.execute(f"SELECT COUNT(*) FROM chunks WHERE {self._NEEDS_VECTOR}",
                                     (embedder_key,)).fetchone()[0])

    def has_chunks_needing_vectors(self, embedder_key: str) -> bool:
        return self.conn.execute(
            f"SELECT 1 FROM chunks WHERE {self._NEEDS_VECTOR} LIMIT 1", (embedder_key,)).fetchone() is not None

    def needing_vector_windows(self, embedder_key: str, size: int) -> Iterator[list[TextRow]]:
        """(chunk_id, text_hash, text, heading, path) of chunks whose vector is missing or
        stale, ``size`` at a time in (path, ordinal) order: one query per window, resumed
        after the last row it gave (a keyset, so rows given a vector meanwhile shift
        nothing), so a run over a large folder never holds more than one window of texts."""
        return self._windows(
            "SELECT chunk_id, text_hash, text, heading, path, ordinal FROM chunks "
            f"WHERE {self._NEEDS_VECTOR} {{after}} ORDER BY path, ordinal LIMIT ?",
            "AND (path, ordinal) > (?, ?)", (embedder_key,), size)

    def _windows(self, sql: str, after: str, params: tuple, size: int) -> Iterator[list[TextRow]]:
        """Rows of ``sql`` (its last column the ordinal, after the path) ``size`` at a time;
        ``after`` is the keyset condition put in its ``{after}`` slot from the second window."""
        cursor: tuple[str, int] | None = None
        while True:
            query, args = (sql.format(after=""), (*params, size)) if cursor is None else \
                (sql.format(after=after), (*params, *cursor, size))
            rows = self.conn.execute(query, args).fetchall()
            if not rows:
                return
            cursor = (rows[-1][4], rows[-1][5])
            yield [(r[0], r[1], r[2], r[3], r[4]) for r in rows]
            if len(rows) < size:
                return

    def chunks_needing_vectors(self, embedder_key: str) -> list[TextRow]:
        """(chunk_id, text_hash, text, heading, path) of chunks whose vector is missing or stale
        (all at once: for tests and small folders; a run reads ``needing_vector_windows``)."""
        return [row for window in self.needing_vector_windows(embedder_key, 4096) for row in window]

    def live_labels(self, embedder_key: str) -> set[int]:
        rows = self.conn.execute(
            "SELECT label FROM chunks WHERE vec_embedder=? AND vec_hash=text_hash AND label IS NOT NULL",
            (embedder_key,))
        return {r[0] for r in rows}

    def set_vectors(self, updates: list[tuple[int, str, str, str]]) -> None:
        """(label, vec_hash, embedder_key, chunk_id) per chunk now present in the graph."""
        self.conn.executemany(
            "UPDATE chunks SET label=?, vec_hash=?, vec_embedder=? WHERE chunk_id=?", updates)

    def vector_counts(self, embedder_key: str) -> tuple[int, int]:
        """(chunks with a current vector of this embedder, all chunks).

        Asked on every search to say how complete the vectors are, so it is cached until
        this connection or another one commits (``data_version`` / ``total_changes``).
        A vector is current when its label is set for this embedder: a chunk whose text
        changes is written with no label, so the label alone decides.
        """
        return self._until_commit(("vectors", embedder_key), lambda conn: (
            conn.execute("SELECT COUNT(*) FROM chunks WHERE vec_embedder=? AND label IS NOT NULL",
                         (embedder_key,)).fetchone()[0],
            conn.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]))

    def _until_commit(self, key: tuple[str, ...], compute: Callable[[sqlite3.Connection], Any]) -> Any:
        """``compute(conn)``, cached until this connection or another one commits
        (``data_version`` / ``total_changes``): counts asked on every search stay cheap."""
        conn = self.conn
        stamp = (conn.execute("PRAGMA data_version").fetchone()[0], conn.total_changes)
        cache: tuple[tuple[int, int], dict[tuple[str, ...], Any]] | None = getattr(self._local, "until_commit", None)
        if cache is None or cache[0] != stamp:
            cache = self._local.until_commit = (stamp, {})
        if key not in cache[1]:
            cache[1][key] = compute(conn)
        return cache[1][key]

    def counts(self) -> IndexCounts:
        c = self.conn
        return {
            "files": c.execute("SELECT COUNT(*) FROM sources WHERE status='ok'").fetchone()[0],
            "failed": c.execute("SELECT COUNT(*) FROM sources WHERE status='failed'").fetchone()[0],
            "pending": c.execute("SELECT COUNT(*) FROM sources WHERE status='pending'").fetchone()[0],
            "chunks": c.execute("SELECT COUNT(*) FROM chunks").fetchone()[0],
        }

    # embedding cache --------------------------------------------------------
    def cached_vectors(self, embedder_key: str, hashes: list[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        for start in range(0, len(hashes), 500):
            part = hashes[start:start + 500]
            marks = ",".join("?" * len(part))
            for h, blob in self.conn.execute(
                    f"SELECT text_hash, vector FROM embeddings WHERE embedder=? AND text_hash IN ({marks})",
                    (embedder_key, *part)):
                out[h] = np.frombuffer(blob, dtype=np.float32)
        return out

    def cache_vectors(self, embedder_key: str, items: list[tuple[str, np.ndarray]]) -> None:
        self.conn.executemany(
            "INSERT OR REPLACE INTO embeddings(text_hash, embedder, vector) VALUES (?,?,?)",
            [(h, embedder_key, np.asarray(v, dtype=np.float32).tobytes()) for h, v in items])

    def prune_embedding_cache(self) -> int:
        """Drop cached vectors of text no chunk holds any more, for every embedder.

        The cache exists so unchanged text is never embedded twice (a file moved, a model
        switched back); text that left the folder only grows the catalog. Vectors of the
        current text under other embedders are kept.
        """
        cur = self.conn.execute(
            "DELETE FROM embeddings WHERE text_hash NOT IN (SELECT text_hash FROM chunks)")
        return cur.rowcount

    # the multilingual channel ------------------------------------------------
    def needing_channel_windows(self, embedder_key: str, size: int) -> Iterator[list[TextRow]]:
        """(chunk_id, text_hash, text, heading, path) of chunks with no current channel
        vector, ``size`` at a time in (path, ordinal) order (as ``needing_vector_windows``)."""
        return self._windows(
            "SELECT c.chunk_id, c.text_hash, c.text, c.heading, c.path, c.ordinal FROM chunks c "
            "LEFT JOIN channel_vectors v ON v.embedder=? AND v.chunk_id=c.chunk_id "
            "AND v.text_hash=c.text_hash WHERE v.label IS NULL {after} ORDER BY c.path, c.ordinal LIMIT ?",
            "AND (c.path, c.ordinal) > (?, ?)", (embedder_key,), size)

    def needing_channel_count(self, embedder_key: str) -> int:
        """How many chunks have no current vector in the channel of ``embedder_key``."""
        return int(self.conn.execute(
            "SELECT COUNT(*) FROM chunks c LEFT JOIN channel_vectors v ON v.embedder=? "
            "AND v.chunk_id=c.chunk_id AND v.text_hash=c.text_hash WHERE v.label IS NULL",
            (embedder_key,)).fetchone()[0])

    def channel_orphans(self, embedder_key: str) -> list[int]:
        """Labels whose chunk is gone or whose text changed since it was embedded."""
        rows = self.conn.execute(
            "SELECT v.label FROM channel_vectors v LEFT JOIN chunks c ON c.chunk_id=v.chunk_id "
            "AND c.text_hash=v.text_hash WHERE v.embedder=? AND c.chunk_id IS NULL", (embedder_key,))
        return [r[0] for r in rows]

    def channel_next_label(self, embedder_key: str) -> int:
        row = self.conn.execute("SELECT MAX(label) FROM channel_vectors WHERE embedder=?",
                                (embedder_key,)).fetchone()
        return 0 if row[0] is None else int(row[0]) + 1

    def channel_add(self, embedder_key: str, rows: list[tuple[int, str, str]]) -> None:
        """Record (label, chunk_id, text_hash) rows whose vectors are in the channel graph."""
        self.conn.executemany("INSERT OR REPLACE INTO channel_vectors VALUES (?, ?, ?, ?)",
                              [(embedder_key, *r) for r in rows])

    def channel_forget(self, embedder_key: str, labels: list[int]) -> None:
        self.conn.executemany("DELETE FROM channel_vectors WHERE embedder=? AND label=?",
                              [(embedder_key, label) for label in labels])

    def channel_clear(self, embedder_key: str) -> None:
        self.conn.execute("DELETE FROM channel_vectors WHERE embedder=?", (embedder_key,))

    def channel_chunk_ids(self, embedder_key: str, labels: list[int]) -> dict[int, str]:
        """label → chunk id, for labels whose chunk still has the embedded text."""
        out: dict[int, str] = {}
        for start in range(0, len(labels), 500):
            part = labels[start:start + 500]
            marks = ",".join("?" * len(part))
            for label, cid in self.conn.execute(
                    f"SELECT v.label, v.chunk_id FROM channel_vectors v JOIN chunks c "
                    f"ON c.chunk_id=v.chunk_id AND c.text_hash=v.text_hash "
                    f"WHERE v.embedder=? AND v.label IN ({marks})", (embedder_key, *part)):
                out[label] = cid
        return out

    def channel_counts(self, embedder_key: str) -> tuple[int, int]:
        """(chunks with a current vector in the channel, all chunks), cached until a commit."""
        return self._until_commit(("channel", embedder_key), lambda conn: (
            conn.execute("SELECT COUNT(*) FROM channel_vectors v JOIN chunks c ON c.chunk_id=v.chunk_id "
                         "AND c.text_hash=v.text_hash WHERE v.embedder=?", (embedder_key,)).fetchone()[0],
            conn.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]))

    def close(self) -> None:
        """Close this thread's connection and the identity fd (other threads' connections
        close when the catalog is garbage collected)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None
        if self._identity is not None and self._release.alive:
            self._release()  # closes the fd; is_current() is False from now on


class _Transaction:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type: object, *_: object) -> None:
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")


def now() -> float:
    return time.time()
