"""One index run: discover → skip unchanged → parse → chunk → Tantivy + catalog → vectors.

Order is chosen for crash safety. Lexical postings and the catalog are committed before
any embedding starts, so a Ctrl-C during the slow part leaves a complete lexical index;
vectors are cached in SQLite batch by batch and committed to the graph in checkpoints
(checkpoints.py), so they become searchable while the run goes on and the next run embeds
only what is left. The run keeps a progress row in the catalog (index/progress.py) that
every reader uses to say how far the vectors are.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import shutil
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Protocol

import numpy as np

from athena_lab.config import Config
from athena_lab.settings import embedding_settings_key
from athena_lab.index import channel
from athena_lab.index.catalog import ChunkRow, SourceRow
from athena_lab.index.embedder_base import file_sha256
from athena_lab.errors import EmbedderError, ParseError
from athena_lab.index.embeddings import Embedder, make_embedder
from athena_lab.index.lexical import LEXICAL_VERSION
from athena_lab.index.progress import RunProgress
from athena_lab.index.runtimes import usable_cores
from athena_lab.index.store import IndexStore
from athena_lab.ingest.checkpoints import ChunkLabels, VectorCheckpointer
from athena_lab.ingest.chunking import CHUNKER_VERSION, Chunk, chunk_document, embedding_text, text_hash
from athena_lab.ingest.discover import (DiscoveredFile, Discovery, discover, discover_paths, in_scope,
                                       nothing_to_index)
from athena_lab.ingest.library import check_attachments, known_bibliographies, sync_library
from athena_lab.ingest.vectors import (EMBED_WINDOW, CountsTokens, Embedded, Progress, embed_here, embed_vectors,
                                      plan_batches)
from athena_lab.interrupt import StopRequest
from athena_lab.document import citation_kind, ParsedDocument


_PARSER_MODULES = {
    "markdown": "markdown", "rst": "rst", "asciidoc": "asciidoc", "text": "text",
    "html": "html", "notebook": "notebook", "pdf": "pdf",
}
OCR_EXTRA = "athena-lab[ocr]"  # named in a page's warning when only OCR would read it


class Backend(Protocol):
    """Where parsing and embedding run. The run itself (scan, storing, checkpoints) stays
    in this process, so any backend writes the same index; ingest/distributed.py is Ray's."""

    def parse(self, config: Config, jobs: list[tuple[DiscoveredFile, str]],
              report: Progress) -> list[_Parsed]: ...

    def embed_batches(self, embedder: Embedder, batches: list[list[str]]) -> Iterator[np.ndarray]:
        """One array of vectors per batch, in the order of ``batches``."""
        ...


class LocalBackend:
    """This process: the parsers (PDFs in their own worker pool) and the embedder in turn."""

    def parse(self, config: Config, jobs: list[tuple[DiscoveredFile, str]],
              report: Progress) -> list[_Parsed]:
        return _parse_all(config, jobs, report)

    def embed_batches(self, embedder: Embedder, batches: list[list[str]]) -> Iterator[np.ndarray]:
        return embed_here(embedder, batches)


@dataclass
class IndexSummary:
    new: int = 0
    changed: int = 0
    unchanged: int = 0
    removed: int = 0
    failed: int = 0
    pending: int = 0
    chunks: int = 0
    chunks_written: int = 0
    embedded: int = 0
    embedded_from_cache: int = 0
    seconds: float = 0.0
    embedder: str | None = None
    multilingual: dict | None = None  # the multilingual channel's run, when it was built
    vectors_done: int = 0  # chunks with a current vector after this run
    vectors_total: int = 0
    interrupted: str | None = None  # the signal (or reason) that stopped embedding early
    resaved: int = 0  # files whose bytes changed but whose indexed content did not (counted unchanged)
    duplicates: int = 0  # files whose bytes another indexed file has: listed with it, indexed once
    # PDFs with pages only OCR can read (scans, garbled text layers) while the ocr extra is
    # missing: path → such pages. `athena index` names the extra and how many papers it fixes.
    needs_ocr: dict[str, int] = field(default_factory=dict)
    warnings: dict[str, list[str]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    # Set when a whole-folder run found no file to index: what it saw instead, and what to
    # check (discover.nothing_to_index). The index is then empty, so say it loudly.
    no_files: str | None = None
    # A Zotero library's database read this run (ingest/library.py): {items, warnings}.
    library: dict | None = None

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class _Parsed:
    file: DiscoveredFile
    sha256: str
    doc: ParsedDocument | None
    error: str | None = None
    pending: str | None = None
    warnings: list[str] = field(default_factory=list)


def parser_for(doc_kind: str):
    """The parser module for a kind, or None if this install has none for it."""
    try:
        return importlib.import_module(f"athena_lab.ingest.parsers.{_PARSER_MODULES[doc_kind]}")
    except ImportError:
        return None


def parser_signature(doc_kind: str) -> tuple[str, str]:
    module = parser_for(doc_kind)
    if module is None:
        return "none", "0"
    return module.NAME, f"{module.VERSION}+chunker{CHUNKER_VERSION}"


def read_text(abs_path: Path) -> tuple[str, list[str]]:
    """Decode a text file; binary data is refused, bad UTF-8 is repaired and reported."""
    try:
        data = abs_path.read_bytes()
    except OSError as exc:
        raise ParseError(f"not readable: {exc.strerror or exc}") from None
    if not data.strip():
        return "", ["empty file: nothing to index"]
    if b"\x00" in data[:8192]:
        raise ParseError("binary data, not text: skipped (check the file's extension)")
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", errors="replace")
        return text, [f"invalid UTF-8 at byte {exc.start}: undecodable bytes were replaced with �"]


def run_index(config: Config, *, progress: Progress | None = None, wait_s: float = 0.0,
              embed: bool = True, store: IndexStore | None = None,
              stop: StopRequest | None = None, paths: list[str] | None = None,
              backend: Backend | None = None) -> IndexSummary:
    """Bring the index of ``config.root`` up to date and say what changed.

    ``stop``: when it is set during embedding, the run commits what it has embedded and
    returns early with ``summary.interrupted`` set (see interrupt.py).
    ``paths``: only look at these root-relative files or folders (existing or not) — what
    the live index passes after a save; the rest of the index is left as it is.
    ``backend``: where parsing and embedding run (default: here); the index is the same.
    """
    started = time.perf_counter()
    own_store = store is None
    store = store or IndexStore(config.index_dir)
    summary = IndexSummary()
    backend = backend or LocalBackend()
    try:
        with store.write_lock(wait_s):
            run = RunProgress(store.catalog)

            def report(phase: str, done: int, total: int) -> None:
                run.report(phase, done, total)
                if progress is not None:
                    progress(phase, done, total)

            try:
                keeps_multilingual = _keeps_multilingual(config, store)  # judged before this run's edits
                streaming = EmbedWhileParsing(config, store, summary, stop) \
                    if embed and (backend is None or isinstance(backend, LocalBackend)) else None
                _update_documents(config, store, summary, report, paths, backend, streaming)
                if embed:
                    _update_vectors(config, store, summary, report, run, stop, backend, streaming)
                    if keeps_multilingual and not summary.interrupted:
                        _update_multilingual(config, store, summary, report, stop)
                    if not summary.interrupted:
                        with store.catalog.transaction():
                            store.catalog.prune_embedding_cache()
                store.catalog.set_manifest("last_indexed", str(time.time()))
                if (summary.new or summary.changed or summary.removed or summary.failed or summary.embedded
                        or summary.library is not None):
                    store.catalog.set_manifest("updated_at", str(time.time()))
                summary.chunks = store.catalog.counts()["chunks"]
                key = store.catalog.get_manifest("embedder_key")
                if key:
                    summary.vectors_done, summary.vectors_total = store.catalog.vector_counts(key)
            finally:
                run.finish()
    finally:
        if own_store:
            store.close()
    summary.seconds = round(time.perf_counter() - started, 3)
    return summary


def _keeps_multilingual(config: Config, store: IndexStore) -> bool:
    """``always``, or ``auto`` once the channel is complete: an edit then costs the changed
    chunks' vectors, where leaving them out would quietly shrink what questions in other
    languages can reach until someone remembers ``--multilingual``. A build that was
    stopped half way is not finished by a save (minutes of embedding under the live
    index's lock); ``--multilingual`` or Lab's background build finishes it."""
    build = config.settings.multilingual.build
    if build != "auto":
        return build == "always"
    return channel.complete(store, config.settings) is not None


def _update_multilingual(config: Config, store: IndexStore, summary: IndexSummary,
                         report: Progress, stop: StopRequest | None = None) -> None:
    from athena_lab.ingest.multilingual import update_channel  # loads no model unless needed

    built = update_channel(config, store, report, stop)
    if stop is not None and stop.is_set():
        summary.interrupted = stop.reason
    summary.multilingual = asdict(built)
    summary.errors.extend(built.errors)


def _rebuild_lexical_if_outdated(store: IndexStore, report: Progress) -> None:
    """A new Tantivy format or analyzer re-indexes the catalog's chunks: no parsing, no embedding."""
    catalog = store.catalog
    if catalog.get_manifest("lexical_version") == LEXICAL_VERSION:
        return
    lexical = store.lexical
    titles = {p: s.title or "" for p, s in catalog.sources().items()}
    total = catalog.counts()["chunks"]
    report("lexical", 0, total)
    try:
        lexical.writer().delete_all_documents()
        for n, c in enumerate(catalog.iter_chunks(), 1):
            lexical.add_chunk(chunk_id=c.chunk_id, path=c.path, doc_kind=c.doc_kind,
                              cite_kind=citation_kind(c.doc_kind), title=titles.get(c.path, ""),
                              heading=c.heading, text=c.text, reference=bool(c.locator.get("references")))
            if n % 500 == 0:
                report("lexical", n, total)
        lexical.commit()
    except BaseException:
        lexical.rollback()
        raise
    for old in store.index_dir.glob("tantivy*"):
        if old != lexical.directory and old.is_dir():
            shutil.rmtree(old, ignore_errors=True)
    catalog.set_manifest("lexical_version", LEXICAL_VERSION)


def _discover(config: Config, catalog, paths: list[str] | None) -> Discovery:
    """The whole folder, or only ``paths``; the discovery warnings kept for ``status``
    are replaced for the part that was looked at."""
    settings = config.settings.index
    if paths is None:
        found = discover(config.root, settings, config.index_dir)
        kept: dict[str, str] = {}
    else:
        found = discover_paths(config.root, settings, config.index_dir, paths)
        old = json.loads(catalog.get_manifest("discovery_warnings") or "{}")
        kept = {p: w for p, w in old.items() if not in_scope(p, paths)}
    catalog.set_manifest("discovery_warnings", json.dumps({**kept, **found.warnings}))
    return found


def _update_documents(config: Config, store: IndexStore, summary: IndexSummary,
                      report: Progress, paths: list[str] | None = None,
                      backend: Backend | None = None, streaming: EmbedWhileParsing | None = None) -> None:
    catalog = store.catalog
    _rebuild_lexical_if_outdated(store, report)
    if paths is None:  # the walk finds the folder's .bib files too
        found = _discover(config, catalog, None)
        bibs, files = found.bibliographies, {f.path for f in found.files}
        library = sync_library(config.root, catalog, bibs, files, defer_bibs=True)
    else:
        found = _discover(config, catalog, paths)
        bibs = known_bibliographies(config.root, catalog, paths)
        # The files a .bib may link: the index's, as this batch leaves them.
        files = {p for p in catalog.sources() if not in_scope(p, paths)} | {f.path for f in found.files} \
            if bibs else set()
        library = sync_library(config.root, catalog, bibs, files, defer_bibs=True)
        if library.moved:
            paths = [*paths, *sorted(library.moved)]  # into or out of Zotero's trash: look at them again
            found = _discover(config, catalog, paths)
    if library.read:
        summary.library = library.summary()
    if library.trashed:
        found.files = [f for f in found.files if f.path not in library.trashed]
    if paths is None and not found.files:
        summary.no_files = nothing_to_index(config.root, config.settings.index, found)
    for path, message in found.warnings.items():
        summary.warnings.setdefault(path, []).append(message)
    known = catalog.sources()
    looked_at = known if paths is None else {p: s for p, s in known.items() if in_scope(p, paths)}
    removed = sorted(set(looked_at) - {f.path for f in found.files})
    for path in removed:
        for twin in catalog.duplicates_of(path):  # the copy left behind is indexed in its place
            known.pop(twin, None)
    to_parse: list[tuple[DiscoveredFile, str]] = []
    report("scan", 0, len(found.files))
    for i, f in enumerate(found.files, 1):
        old = known.get(f.path)
        signature = parser_signature(f.doc_kind)
        same_parser = old is not None and (old.parser, old.parser_version) == signature
        if old and same_parser and old.status != "pending" and (old.size, old.mtime_ns) == (f.size, f.mtime_ns):
            summary.unchanged += 1
            continue
        try:
            digest = file_sha256(f.abs_path)
        except OSError as exc:
            summary.failed += 1
            summary.warnings.setdefault(f.path, []).append(f"not readable: {exc.strerror or exc}")
            continue
        if old and same_parser and old.status != "pending" and old.sha256 == digest:
            catalog.touch_source(f.path, f.size, f.mtime_ns)
            summary.unchanged += 1
            continue
        to_parse.append((f, digest))
        if i % 200 == 0:
            report("scan", i, len(found.files))
    report("scan", len(found.files), len(found.files))

    to_parse, duplicates = _split_duplicates(catalog, to_parse, set(removed))
    lexical = store.lexical
    try:
        with catalog.transaction():
            for path in removed:
                shutil.rmtree(_tables_dir(store, path), ignore_errors=True)
                lexical.delete_path(path)
                catalog.delete_source(path)
                summary.removed += 1
            for f, digest, original in duplicates:
                _store_duplicate(store, f, digest, original, known.get(f.path), summary)
            lexical.commit()
        if streaming is not None:
            parsed: Iterable[_Parsed] = _parse_streaming(config, to_parse, report, streaming.step)
        else:
            parsed = (backend or LocalBackend()).parse(config, to_parse, report)
        for group in _batches(parsed):
            # Committed a group at a time: searchable as they come, and the parsed
            # documents held at once stay few however large the folder is. The catalog
            # and Tantivy commit together, so neither ever records a file the other lacks.
            with catalog.transaction():
                for item in group:
                    _store_item(store, item, known.get(item.file.path), summary, streaming)
                lexical.commit(final=False)
                if streaming is not None:
                    streaming.flush()
        lexical.commit()  # the last merges finished and the writer let go
    except BaseException:
        lexical.rollback()
        raise
    read, warnings = library.read, library.warnings
    if bibs:  # read once the PDFs are stored: an entry with no file link is found by its title on their pages
        after = sync_library(config.root, catalog, bibs, files)
        if after.read:
            summary.library = after.summary()
        read, warnings = read or after.read, after.warnings
    # Once the PDFs are stored: does each linked PDF print its item's title (ingest/attachments.py)?
    checked = check_attachments(catalog)
    if checked is not None:
        warnings = checked.warnings
        read = read or checked.changed
        if summary.library is not None:
            summary.library["warnings"] = sum(len(w) for w in warnings.values())
    if paths is None or read:
        for path, messages in warnings.items():
            summary.warnings.setdefault(path, []).extend(messages)


#: A group of parsed files is stored in one catalog transaction and one Tantivy commit:
#: the files become searchable together, and a crash or Ctrl-C while it is stored loses
#: that group and nothing committed before. A group closes ``_BATCH_S`` seconds after it
#: opened or once it holds ``_BATCH_CHARS`` characters of parsed text (the documents in
#: memory at once), whichever comes first. Until issue 30 it closed at 16 files: a folder
#: of many small Markdown files paid a Tantivy commit every 16 files (22 % of the parse
#: phase of the synthetic 1M-chunk build; docs/benchmarks.md).
_BATCH_S = 2.0
_BATCH_CHARS = 4_000_000


def _text_size(item: _Parsed) -> int:
    doc = item.doc
    return sum(len(b.text) for s in doc.sections for b in s.blocks) if doc is not None else 0


def _batches(items: Iterable[_Parsed], max_s: float | None = None,
             max_chars: int | None = None) -> Iterator[list[_Parsed]]:
    max_s = _BATCH_S if max_s is None else max_s
    max_chars = _BATCH_CHARS if max_chars is None else max_chars
    group: list[_Parsed] = []
    chars, started = 0, time.monotonic()
    for item in items:
        group.append(item)
        chars += _text_size(item)
        if chars >= max_chars or time.monotonic() - started >= max_s:
            yield group
            group, chars, started = [], 0, time.monotonic()
    if group:
        yield group


def _store_item(store: IndexStore, item: _Parsed, old: SourceRow | None, summary: IndexSummary,
                streaming: "EmbedWhileParsing | None") -> None:
    chunks = chunk_document(item.doc) if item.doc is not None and _parsed_ok(item) else []
    if old is not None and _same_content(store.catalog, old, item, chunks):
        # Re-saved with nothing indexed changed (a notebook's execution counts or
        # metadata): only the file's stamp moves; nothing is re-indexed.
        store.catalog.restamp_source(item.file.path, item.file.size, item.file.mtime_ns, item.sha256)
        summary.unchanged += 1
        summary.resaved += 1
        return
    _store_parsed(store, item, chunks, summary)
    if _parsed_ok(item):
        summary.new += old is None
        summary.changed += old is not None
        if streaming is not None:
            streaming.add(chunks, item.doc.title if item.doc else None)


def _split_duplicates(catalog, jobs: list[tuple[DiscoveredFile, str]], removed: set[str]
                      ) -> tuple[list[tuple[DiscoveredFile, str]], list[tuple[DiscoveredFile, str, str]]]:
    """Jobs whose bytes another file has (indexed before, or earlier in this run) are the
    same paper twice: indexed once, under the first path in folder order, and listed with
    it. Returns (jobs to parse, (file, digest, original path) of the duplicates)."""
    indexed = catalog.paths_by_sha256({d for _, d in jobs})
    first: dict[str, str] = {}
    keep: list[tuple[DiscoveredFile, str]] = []
    twins: list[tuple[DiscoveredFile, str, str]] = []
    for f, digest in jobs:
        owners = sorted(p for p in indexed.get(digest, []) if p != f.path and p not in removed)
        original = owners[0] if owners and owners[0] < f.path else first.get(digest)
        if original is None:
            first[digest] = f.path
            keep.append((f, digest))
        else:
            twins.append((f, digest, original))
    return keep, twins


def _store_duplicate(store: IndexStore, f: DiscoveredFile, digest: str, original: str,
                     old: SourceRow | None, summary: IndexSummary) -> None:
    """A row that says which file this one repeats; no chunks, nothing embedded."""
    if old is not None:
        store.lexical.delete_path(f.path)
    store.catalog.delete_source(f.path)
    name, version = parser_signature(f.doc_kind)
    store.catalog.put_source(SourceRow(
        path=f.path, doc_kind=f.doc_kind, size=f.size, mtime_ns=f.mtime_ns, sha256=digest, parser=name,
        parser_version=version, status="duplicate", title=None, metadata={"duplicate_of": original},
        warnings=[f"same file as {original}: indexed once, there"], pages=None, chunks=0,
        indexed_at=time.time()))
    summary.duplicates += 1


class EmbedWhileParsing:
    """Embeds the chunks of files already stored while the PDF workers parse the next ones.

    Parsing runs in worker processes; this process would only wait for them. Each wait
    becomes one embedding batch instead (``step``), so on two cores the PDF work hides
    behind the embedding. Vectors go to the embedding cache with the next commit
    (``flush``); the vectors phase then finds them there and puts them in the graph
    without embedding them again. At most ``MAX_PENDING`` texts wait: the rest is left to
    the vectors phase, so memory stays flat however large the folder is.
    """

    MAX_PENDING = 2048
    WINDOW = 256  # texts sorted by length together: a batch pads to its longest text

    def __init__(self, config: Config, store: IndexStore, summary: IndexSummary,
                 stop: StopRequest | None) -> None:
        self.config, self.store, self.summary, self.stop = config, store, summary, stop
        self.embedder: Embedder | None = None
        self.failed = False
        self.pending: dict[str, str] = {}  # text hash → embedding text, in arrival order
        self.lengths: dict[str, int] = {}  # text hash → tokens, for an embedder that counts them
        self.ready: list[tuple[str, np.ndarray]] = []
        self.embedded: set[str] = set()  # hashes embedded here (fresh, not from an older run)

    def add(self, chunks: list[Chunk], title: str | None) -> None:
        """Queue the texts of a stored file's chunks that no run has embedded yet."""
        if self.failed or len(self.pending) >= self.MAX_PENDING or not chunks:
            return
        embedder = self._embedder()
        if embedder is None:
            return
        texts = {text_hash(c.text): embedding_text(c.heading, c.text, title) for c in chunks}
        cached = self.store.catalog.cached_vectors(embedder.key, list(texts))
        fresh = [h for h in texts if h not in cached and h not in self.embedded and h not in self.pending]
        for digest in fresh:
            self.pending[digest] = texts[digest]
        if fresh and isinstance(embedder, CountsTokens):
            self.lengths.update(zip(fresh, embedder.token_lengths([texts[h] for h in fresh])))

    def step(self) -> bool:
        """Embed one batch of waiting texts; False when there is nothing to do."""
        if not self.pending or self.failed or (self.stop is not None and self.stop.is_set()):
            return False
        embedder = self._embedder()
        if embedder is None:
            return False
        window = list(self.pending)[:self.WINDOW]
        batch = plan_batches(embedder, window, self.pending, self.lengths)[0] if window else []
        if not batch:
            return False
        try:
            vectors = embedder.embed_documents([self.pending[h] for h in batch])
        except EmbedderError:
            self.failed = True  # the vectors phase reports it
            return False
        for digest, vector in zip(batch, vectors):
            del self.pending[digest]
            self.lengths.pop(digest, None)
            self.ready.append((digest, vector))
            self.embedded.add(digest)
        return True

    def flush(self) -> None:
        """Write the vectors embedded since the last commit into the cache (inside the
        caller's transaction)."""
        if self.ready and self.embedder is not None:
            self.store.catalog.cache_vectors(self.embedder.key, self.ready)
            self.ready = []

    def _embedder(self) -> Embedder | None:
        if self.embedder is None and not self.failed:
            try:
                self.embedder = make_embedder(self.config.settings.embedding)
            except EmbedderError:
                self.failed = True  # the vectors phase says why
            if self.embedder is None:
                self.failed = True
        return self.embedder


def _parsed_ok(item: _Parsed) -> bool:
    return item.doc is not None and item.error is None and item.pending is None


def _same_content(catalog, old: SourceRow, item: _Parsed, chunks: list[Chunk]) -> bool:
    """What the index holds for this file is exactly what it would write now: the same
    chunks (ids, text hashes, locators, headings, neighbours), title, metadata and warnings."""
    doc = item.doc
    if doc is None or not _parsed_ok(item) or old.status != "ok":
        return False
    if (old.parser, old.parser_version) != parser_signature(item.file.doc_kind) or old.title != doc.title:
        return False
    meta = {k: v for k, v in old.metadata.items() if k != "tables"}
    if meta != dict(doc.metadata) or old.warnings != _warnings_for(item, chunks):
        return False
    rows = catalog.chunks_for_path(old.path)
    return len(rows) == len(chunks) and all(
        (r.chunk_id, r.ordinal, r.text_hash, r.heading, r.locator, r.prev_id, r.next_id, r.warnings,
         r.confidence) ==
        (c.chunk_id, c.ordinal, text_hash(c.text), c.heading, json.loads(json.dumps(c.locator())),
         c.prev_id, c.next_id, c.warnings, c.confidence)
        for r, c in zip(rows, chunks))


def _warnings_for(item: _Parsed, chunks: list[Chunk]) -> list[str]:
    """The warnings a parsed file is stored with (one place, for storing and comparing).

    A notebook without text is not a problem: Lab makes every new notebook with one empty
    cell, and one that only asks athena holds nothing but athena's own output."""
    warnings = list(item.warnings)
    if item.error is not None:
        warnings.append(item.error)
    elif item.pending is not None:
        warnings.append(item.pending)
    elif not chunks and not warnings and item.file.doc_kind != "notebook":
        warnings.append("no text to index")
    return warnings


def _parse_all(config: Config, jobs: list[tuple[DiscoveredFile, str]],
               report: Progress) -> list[_Parsed]:
    text_jobs = [(f, d) for f, d in jobs if f.doc_kind != "pdf"]
    pdf_jobs = [(f, d) for f, d in jobs if f.doc_kind == "pdf"]
    total, done = len(jobs), 0
    out: list[_Parsed] = []
    report("parse", 0, total)
    for f, digest in text_jobs:
        out.append(_parse_text(f, digest))
        done += 1
        if done % 25 == 0:
            report("parse", done, total)
    for item in _parse_pdfs(config, pdf_jobs):
        out.append(item)
        done += 1
        report("parse", done, total)
    report("parse", total, total)
    return out


def _parse_streaming(config: Config, jobs: list[tuple[DiscoveredFile, str]], report: Progress,
                     idle: Callable[[], bool]) -> Iterator[_Parsed]:
    """Parsed files as they are ready: the text files first, then each PDF as a worker
    finishes it; ``idle`` runs while the workers are busy."""
    text_jobs = [(f, d) for f, d in jobs if f.doc_kind != "pdf"]
    pdf_jobs = [(f, d) for f, d in jobs if f.doc_kind == "pdf"]
    total, done = len(jobs), 0
    report("parse", 0, total)
    for f, digest in text_jobs:
        yield _parse_text(f, digest)
        done += 1
        if done % 25 == 0:
            report("parse", done, total)
    for item in _parse_pdfs(config, pdf_jobs, idle):
        yield item
        done += 1
        report("parse", done, total)
    report("parse", total, total)


def _parse_text(f: DiscoveredFile, digest: str) -> _Parsed:
    module = parser_for(f.doc_kind)
    if module is None:
        return _Parsed(f, digest, None, pending=f"pending: no {f.doc_kind} parser in this install")
    try:
        text, warnings = read_text(f.abs_path)
        doc = module.parse(text, f.path)
    except ParseError as exc:
        return _Parsed(f, digest, None, error=str(exc))
    except Exception as exc:  # a parser bug must not stop the other files
        return _Parsed(f, digest, None, error=f"could not be parsed ({type(exc).__name__}: {exc})")
    return _Parsed(f, digest, doc, warnings=warnings + list(doc.warnings))


def _parse_pdfs(config: Config, jobs: list[tuple[DiscoveredFile, str]],
                idle: Callable[[], bool] | None = None) -> Iterator[_Parsed]:
    """Each PDF's result as its worker finishes it."""
    if not jobs:
        return
    module = parser_for("pdf")
    try:
        pool = importlib.import_module("athena_lab.ingest.pdf_pool")
    except ImportError:
        pool = None
    if module is None or pool is None:
        yield from (_Parsed(f, d, None, pending="pending: pdf") for f, d in jobs)
        return
    settings = config.settings.pdf
    options = module.PdfOptions(passwords=dict(settings.passwords), timeout_s=settings.timeout_s,
                                ocr=settings.ocr)
    by_path = {f.path: (f, d) for f, d in jobs}
    for path, outcome in pool.parse_pdfs([(f.abs_path, f.path) for f, _ in jobs], options,
                                         workers=settings.workers or None, idle=idle):
        f, digest = by_path[path]
        if isinstance(outcome, str):
            yield _Parsed(f, digest, None, error=outcome)
        else:
            yield _Parsed(f, digest, outcome, warnings=list(outcome.warnings))


def _store_parsed(store: IndexStore, item: _Parsed, chunks: list[Chunk], summary: IndexSummary) -> None:
    catalog, lexical = store.catalog, store.lexical
    f = item.file
    name, version = parser_signature(f.doc_kind)
    lexical.delete_path(f.path)
    old_rows = {c.chunk_id: c for c in catalog.chunks_for_path(f.path)}
    catalog.delete_source(f.path)
    warnings = _warnings_for(item, chunks)
    status, doc = "ok", item.doc
    if item.error is not None:
        status = "failed"
        summary.failed += 1
    elif item.pending is not None:
        status = "pending"
        summary.pending += 1
    if warnings:
        summary.warnings.setdefault(f.path, []).extend(warnings)
    pages_for_ocr = sum(1 for page in (doc.metadata.get("pages") or [] if doc else [])
                        if any(OCR_EXTRA in w for w in page.get("warnings", [])))
    if pages_for_ocr:
        summary.needs_ocr[f.path] = pages_for_ocr
    metadata = dict(doc.metadata) if doc else {}
    tables = _write_table_sidecars(store, doc) if doc else []
    if tables:
        metadata["tables"] = tables
    title = (doc.title if doc else None) or ""
    catalog.put_source(SourceRow(
        path=f.path, doc_kind=f.doc_kind, size=f.size, mtime_ns=f.mtime_ns, sha256=item.sha256,
        parser=name, parser_version=version, status=status, title=doc.title if doc else None,
        metadata=metadata, warnings=warnings,
        pages=doc.pages if doc else None, chunks=len(chunks), indexed_at=time.time()))
    catalog.put_chunks(_chunk_row(c, old_rows.get(c.chunk_id)) for c in chunks)
    for c in chunks:
        lexical.add_chunk(chunk_id=c.chunk_id, path=c.path, doc_kind=c.doc_kind, cite_kind=c.kind,
                          title=title, heading=c.heading, text=c.text, reference=c.references)
    summary.chunks_written += len(chunks)


def _tables_dir(store: IndexStore, path: str) -> Path:
    return store.index_dir / "tables" / hashlib.sha1(path.encode()).hexdigest()[:16]


def _write_table_sidecars(store: IndexStore, doc: ParsedDocument) -> list[dict]:
    """Detected tables as CSV files under the index dir, so a citation can offer the data."""
    found = [(b.page, b.extra["csv"]) for s in doc.sections for b in s.blocks
             if b.kind == "table" and b.extra.get("csv")]
    folder = _tables_dir(store, doc.path)
    shutil.rmtree(folder, ignore_errors=True)
    out = []
    for n, (page, csv_text) in enumerate(found, 1):
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"p{page or 0}-table{n}.csv"
        target.write_text(csv_text, encoding="utf-8", errors="replace")
        out.append({"page": page, "csv": str(target.relative_to(store.index_dir))})
    return out


def _chunk_row(c: Chunk, old: ChunkRow | None) -> tuple:
    digest = text_hash(c.text)
    kept = old if old is not None and old.text_hash == digest else None  # its vector still holds
    return (c.chunk_id, c.path, c.ordinal, c.doc_kind, c.heading, c.text, digest,
            c.start_line, c.end_line, c.cell, c.pages[0] if c.pages else None,
            json.dumps(c.locator()), c.confidence, json.dumps(c.warnings), c.prev_id, c.next_id,
            kept.label if kept else None, kept.vec_hash if kept else None,
            kept.vec_embedder if kept else None)


def _update_vectors(config: Config, store: IndexStore, summary: IndexSummary,
                    report: Progress, run: RunProgress | None = None,
                    stop: StopRequest | None = None, backend: Backend | None = None,
                    streaming: EmbedWhileParsing | None = None) -> None:
    catalog = store.catalog
    settings_key = embedding_settings_key(config.settings.embedding)
    if _vectors_current(store, settings_key):
        summary.embedder = catalog.get_manifest("embedder_name")
        return  # nothing to embed: do not pay for loading the model
    try:
        embedder = streaming.embedder if streaming is not None and streaming.embedder is not None \
            else make_embedder(config.settings.embedding)
    except EmbedderError as exc:
        summary.errors.append(f"embeddings skipped: {exc}. Search is lexical-only until this is fixed.")
        return
    if embedder is None:
        return
    summary.embedder = embedder.name
    # Recorded first, so status and search know which vectors this run is writing.
    _record_embedder(catalog, embedder, settings_key)
    if run is not None:
        run.embedder(embedder.key, embedder.name)
    vectors = store.vector_writer(embedder.key, embedder.dimensions, config.settings.search.ef)
    if vectors.graph() is None and vectors.dimension_mismatch is not None:
        vectors.path.unlink(missing_ok=True)
        vectors.meta_path.unlink(missing_ok=True)
    if not vectors.exists():  # a new or rebuilt graph: every chunk needs its vector in it
        catalog.forget_vectors(embedder.key)
    total = catalog.needing_vectors_count(embedder.key)
    live = catalog.live_labels(embedder.key)
    stale = vectors.labels() - live
    del live
    if not total:
        if stale - vectors.deleted_labels():
            vectors.update({}, stale)
        return
    threads = config.settings.index.graph_threads or usable_cores()
    checkpoints = VectorCheckpointer(vectors, ChunkLabels(catalog, embedder.key), stale - vectors.deleted_labels(),
                                     config.settings.index.vector_checkpoint_s, threads=threads)
    del stale
    vectors.release_view()  # the writer loads its own copy next: never two graphs in memory at once
    vectors.reserve(total)  # the graph's memory allocated once, not doubled (and copied) as it grows
    # A window of texts at a time: memory stays flat however many chunks need vectors
    # (all 17,061 texts of papers-we-love at once cost the indexer 190 MB more).
    done = Embedded()
    try:
        embed_vectors(catalog, embedder, catalog.needing_vector_windows(embedder.key, EMBED_WINDOW), total,
                      checkpoints, phase="embed", report=report, stop=stop,
                      embed_batches=(backend or LocalBackend()).embed_batches, run=run,
                      fresh=streaming.embedded if streaming is not None else None, done=done)
    except EmbedderError as exc:
        summary.errors.append(f"embedding failed: {exc}. Search is lexical-only for new text.")
    summary.embedded_from_cache += done.from_cache
    summary.embedded += done.embedded
    summary.interrupted = done.interrupted or summary.interrupted


def _vectors_current(store: IndexStore, settings_key: str) -> bool:
    """Same embedder settings as the last complete run, and every chunk has its vector."""
    catalog = store.catalog
    key = catalog.get_manifest("embedder_key")
    if key is None or catalog.get_manifest("embedder_settings") != settings_key:
        return False
    dims = int(catalog.get_manifest("embedder_dimensions") or 0)
    vectors = store.vectors(key, dims)
    if not vectors.exists() or catalog.has_chunks_needing_vectors(key):
        return False
    return not (vectors.labels() - vectors.deleted_labels() - catalog.live_labels(key))


def _record_embedder(catalog, embedder: Embedder, settings_key: str) -> None:
    catalog.set_manifest("embedder_settings", settings_key)
    catalog.set_manifest("embedder_key", embedder.key)
    catalog.set_manifest("embedder_name", embedder.name)
    catalog.set_manifest("embedder_dimensions", str(embedder.dimensions))
