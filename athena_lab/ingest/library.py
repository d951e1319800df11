"""A reference manager's library in the index: Zotero's items and the entries of BibTeX
files, stored beside the sources.

An index run (ingest/pipeline.py) calls ``sync_library`` before it indexes. When the
folder is a Zotero data directory, or holds ``.bib`` files whose entries link its files,
and one of them changed since the last run (or the last live update), the library is read
again (ingest/zotero.py, ingest/bibfile.py) and its items replace the catalog's
``library_items`` / ``library_files``. Records are joined to the indexed files at query
time (``Catalog.source_records``), so an edit in Zotero — a title fixed, a tag added, an
item moved to another collection — re-parses and re-embeds nothing. Only the trash
changes what is indexed: the files of trashed items leave the index, and come back when
the item is restored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from athena_lab.index.catalog import Catalog, LibraryRow
from athena_lab.ingest.bibfile import bib_stamp, names_digest, read_bibliographies
from athena_lab.ingest.discover import BIBTEX, is_hidden
from athena_lab.ingest.zotero import (DATABASE, Creator, Library, LibraryItem, ZoteroError, identifiers,
                                      is_library, read_library, stamp, year_of)
from athena_lab.pdf.meta import citation_label

_STAMP, _TRASHED = "library_stamp", "library_trashed"
_BIBS = "library_bibs"  # the BibTeX files the last run read (a live batch sees only its own paths)
_NAMES = " names:"  # in the stamp beside .bib files: a digest of the folder's file names then
_PDFS = " pdfs:"  # and of its indexed PDFs (the pages an entry's title is looked for on)
# The last attachment check (ingest/attachments.py): {"on": the library stamp and PDFs digest
# it ran on, "warnings": what it added to Catalog.file_warnings (taken out again on the next check)}.
_CHECKED = "library_checked"


@dataclass
class LibrarySync:
    """What one index run learnt of the library."""

    read: bool = False  # the database was (re)read this run
    items: int = 0
    sources: list[str] = field(default_factory=list)  # zotero.sqlite and the .bib files read
    trashed: set[str] = field(default_factory=set)  # files not to index (their item is in the trash)
    moved: set[str] = field(default_factory=set)  # files that went into or out of the trash this run
    warnings: dict[str, list[str]] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        return {"items": self.items, "warnings": sum(len(w) for w in self.warnings.values()), "from": self.sources}


def names_of(creators: list[Creator]) -> list[dict[str, str]]:
    """CSL-style names: ``{"family", "given"}``, or ``{"literal"}`` for a one-field name."""
    return [{"literal": c.family} if c.single else {"family": c.family, "given": c.given} for c in creators]


def item_record(item: LibraryItem) -> dict[str, Any]:
    """The bibliographic record of a Zotero item, in bibliography.py's shape: title,
    authors (display names) and ``names`` (family and given, as Zotero split them), year,
    DOI, arXiv id, the item ``type``, venue, volume, issue, pages, publisher, URL, the
    ``label`` ("Fischer et al., 1985") and the ``zotero`` link that selects it in Zotero."""
    f = item.fields
    authors = [c for c in item.creators if c.role == "author"] or item.creators
    year = year_of(f.get("date"))
    record: dict[str, Any] = {
        "source": "zotero", "type": item.item_type, "title": f.get("title") or None,
        "authors": [c.display() for c in authors], "names": names_of(authors), "year": year,
        **identifiers(item),
        "zotero": {"key": item.key, "uri": item.uri},
        "label": citation_label([c.display() for c in authors], year, f.get("title"), item.key,
                                surnames=[c.family for c in authors]),
    }
    editors = [c for c in item.creators if c.role == "editor"]
    if editors and authors is not item.creators:
        record["editors"] = names_of(editors)
    for name, key in (("venue", "publicationTitle"), ("volume", "volume"), ("issue", "issue"), ("pages", "pages"),
                      ("publisher", "publisher"), ("url", "url")):
        if f.get(key):
            record[name] = f[key]
    return {k: v for k, v in record.items() if v not in (None, "", [])}


def library_rows(library: Library) -> list[LibraryRow]:
    rows = []
    for item in library.items:
        record = item_record(item) if item.bibliographic else {"zotero": {"key": item.key, "uri": item.uri}}
        rows.append(LibraryRow(item.id, record, item.collections, item.tags, item.warnings, item.files,
                               item.bibliographic))
    return rows


def sync_library(root: Path, catalog: Catalog, bibs: Iterable[str] = (), files: Iterable[str] = (),
                 *, defer_bibs: bool = False) -> LibrarySync:
    """Bring the catalog's copy of the library under ``root`` up to date (inside the run's
    write lock): Zotero's database when the folder is a Zotero data directory, and the
    entries of its BibTeX files ``bibs`` (root-relative) that link ``files`` of the folder
    or whose titles are on the first pages of its indexed PDFs (ingest/bibfile.py).
    Re-reads them only when one changed, or the indexed PDFs did.

    ``defer_bibs``: the run is about to index; a folder that is not a Zotero library (whose
    trash says what not to index) is read after, once, with the pages just indexed."""
    old_trashed = set(json.loads(catalog.get_manifest(_TRASHED) or "[]"))
    zotero = is_library(root)
    bibs = sorted({b for b in bibs if (root / b).is_file()})
    if not zotero and not bibs:
        if catalog.get_manifest(_STAMP) is not None:  # the folder is no longer a library
            with catalog.transaction():
                catalog.replace_library([])
                catalog.forget_file_warnings()
                for key in (_STAMP, _TRASHED, _BIBS, _CHECKED):
                    catalog.conn.execute("DELETE FROM manifest WHERE key=?", (key,))
            return LibrarySync(read=True, moved=old_trashed)
        return LibrarySync()
    files = list(files)
    now = " ".join(filter(None, [stamp(root) if zotero else "", bib_stamp(root, bibs)]))
    last = catalog.get_manifest(_STAMP)
    if bibs:  # a link is found among the folder's files, a title on its PDFs' pages: either may change it
        now += _NAMES + names_digest(files) + _PDFS + catalog.pdfs_digest()
    if last == now or (defer_bibs and not zotero):
        return LibrarySync(items=len(catalog.library()), trashed=old_trashed,
                           warnings=catalog.file_warnings())
    library = Library()
    if zotero:
        try:
            library = read_library(root)
        except ZoteroError as exc:
            library = Library(warnings={DATABASE: [str(exc)]})
    rows = library_rows(library)
    found = read_bibliographies(root, bibs, files, {p for row in rows for p in row.files}, catalog.first_pages)
    rows += found.rows
    warnings = dict(library.warnings)
    for path, messages in found.warnings.items():
        warnings.setdefault(path, []).extend(messages)
    with catalog.transaction():
        catalog.replace_library(rows)
        catalog.set_manifest(_STAMP, now)
        catalog.set_file_warnings(warnings)
        catalog.set_manifest(_TRASHED, json.dumps(sorted(library.trashed), ensure_ascii=False))
        catalog.set_manifest(_BIBS, json.dumps(bibs, ensure_ascii=False))
    return LibrarySync(read=True, items=len(rows), trashed=library.trashed, moved=old_trashed ^ library.trashed,
                       warnings=warnings, sources=[DATABASE] * zotero + bibs)


@dataclass
class AttachmentCheck:
    """What one attachment check did: the library's warnings after it, and whether its own
    messages differ from the last check's."""

    warnings: dict[str, list[str]]
    changed: bool


def check_attachments(catalog: Catalog) -> AttachmentCheck | None:
    """Warn about each item whose explicitly linked PDFs do not print its title on their
    first pages (ingest/attachments.py), into ``Catalog.file_warnings``. Call it once the run has
    stored its PDFs. It runs when the library was read since the last check, or the indexed
    PDFs changed (a linked PDF replaced under an unchanged library), and reads only the
    catalog; None when it did not run (no library, or nothing changed)."""
    from athena_lab.ingest.attachments import attachment_warnings

    library_stamp = catalog.get_manifest(_STAMP)
    if library_stamp is None:
        return None
    on = f"{library_stamp}{_PDFS}{catalog.pdfs_digest()}"
    last = json.loads(catalog.get_manifest(_CHECKED) or "{}")
    if last.get("on") == on:
        return None
    found = attachment_warnings(catalog.library(), lambda paths: catalog.first_pages(paths=paths))
    old: dict[str, list[str]] = last.get("warnings", {})
    warnings = catalog.file_warnings()
    for path, messages in old.items():  # the last check's messages go (a read since has dropped them already)
        kept = [m for m in warnings.get(path, []) if m not in messages]
        if kept:
            warnings[path] = kept
        else:
            warnings.pop(path, None)
    for path, messages in found.items():
        warnings.setdefault(path, []).extend(messages)
    with catalog.transaction():
        catalog.set_file_warnings(warnings)
        catalog.set_manifest(_CHECKED, json.dumps({"on": on, "warnings": found}, ensure_ascii=False))
    return AttachmentCheck(warnings, changed=found != old)


def known_bibliographies(root: Path, catalog: Catalog, changed: Iterable[str]) -> list[str]:
    """The folder's BibTeX files for a run over some paths only (a live batch): those the
    last run read, with any of ``changed`` that is one now (a .bib saved or added)."""
    known = set(json.loads(catalog.get_manifest(_BIBS) or "[]"))
    # A symlinked .bib is discovery's to admit (index.follow_symlinks, targets in the folder).
    known.update(p for p in changed if p.lower().endswith(BIBTEX) and not is_hidden(p)
                 and not (root / p).is_symlink())
    return sorted(p for p in known if (root / p).is_file())
