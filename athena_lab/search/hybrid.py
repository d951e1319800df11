"""Hybrid retrieval: BM25 ⊕ vectors ⊕ exact identifiers, fused by reciprocal rank.

BM25 and cosine share no scale, so ranks are fused, not scores (``fusion.fuse``). Identifiers
and error strings are where BM25 and grep shine; paraphrase and cross-language questions
are the vectors'. If the embedder is missing or fails, search still answers from the
lexical half and says so in ``degraded``.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any, Collection, Literal

from athena_lab.errors import SearchError
from athena_lab.citations.bibliography import record_of
from athena_lab.contract import Citation
from athena_lab.settings import SearchSettings
from athena_lab.index.catalog import ChunkRow
from athena_lab.index.channel import MultilingualChannel
from athena_lab.index.embeddings import Embedder, query_vector
from athena_lab.index.lexical import LEXICAL_VERSION
from athena_lab.index.progress import COMPLETE, vector_state
from athena_lab.index.store import IndexStore
from athena_lab.document import citation_kind, CITATION_KINDS, DOC_KINDS
from athena_lab.citations.labels import citation_location
from athena_lab.paths import normalize_prefix
from athena_lab.search.cites import REFERENCE_MODES, is_reference
from athena_lab.search.fusion import fuse
from athena_lab.language import LANGUAGE_NAMES, content_words, query_language
from athena_lab.search.grep import grep_phrases, query_identifiers, quoted_phrases

LOW_CONFIDENCE = 0.6
SEARCH_MODES = ("hybrid", "lexical", "vector")


@dataclass
class Hit:
    chunk: ChunkRow
    score: float
    ranks: dict[str, int] = field(default_factory=dict)  # rank in each retriever, 1-based
    title: str | None = None
    neighbours: list[ChunkRow] = field(default_factory=list)
    record: dict[str, Any] | None = None  # a PDF's bibliographic fields (citations/bibliography.py)


@dataclass
class ChannelStatus:
    """What the multilingual vectors did for a question not in English, as data: ``missing``
    (not built: the English model alone matched it), ``partial`` (``done`` of ``total``
    built: the built part was searched) or ``building`` (a background build is under way,
    said by the server that started it). The matching sentence for a person is in
    ``SearchResult.warnings``; code reads this, never the sentence."""

    state: Literal["missing", "partial", "building"]
    done: int = 0
    total: int = 0


@dataclass
class SearchResult:
    query: str
    hits: list[Hit]
    degraded: str | None = None
    warnings: list[str] = field(default_factory=list)
    timings_ms: dict[str, float] = field(default_factory=dict)
    language: str = "en"
    # Why there are no hits, when there are none: "filters" (the kind/path filters leave
    # no indexed chunk at all) or "index" (nothing indexed matches the question).
    no_evidence: str | None = None
    # Set for a question not in English when the multilingual vectors were missing or partial.
    channel: ChannelStatus | None = None

    def citations(self) -> list[Citation]:
        """The hits as citation JSON (docs/contract.md): what every front end shows."""
        return [citation(h, self.query) for h in self.hits]


def check_references(mode: str | None) -> str | None:
    """A reference-list mode (search/cites.py), or a clear error naming the choices."""
    if mode is not None and mode not in REFERENCE_MODES:
        raise SearchError(f"unknown references mode {mode!r}; use one of: {', '.join(REFERENCE_MODES)}")
    return mode


def check_kind(kind: str | None) -> list[str] | None:
    if not kind:
        return None
    if kind not in CITATION_KINDS + DOC_KINDS:
        raise SearchError(f"unknown kind {kind!r}; use one of: {', '.join(DOC_KINDS)} "
                          f"(or a citation kind: {', '.join(CITATION_KINDS)})")
    return [kind]


#: The vector ranking's weight in a who-cites search, as a share of its usual weight. A
#: passage of a reference list holds a dozen entries, so its vector is a blur of them; the
#: words of the one entry that names the cited work are what BM25 sees. Chosen on the dev
#: half of bench/data/cites_questions.jsonl (1.0 / 0.5 / 0.25 / 0.1: citing papers in the
#: top 10, 106 / 113 / 110 / 107 of 137; docs/pdf.md).
CITES_VECTOR_SHARE = 0.5


class HybridSearcher:
    def __init__(self, store: IndexStore, settings: SearchSettings,
                 embedder: Embedder | None, embedder_error: str | None = None,
                 channel: MultilingualChannel | None = None) -> None:
        self.store = store
        self.channel = channel
        self.settings = settings
        self.embedder = embedder
        self.embedder_error = embedder_error

    def search(self, query: str, *, k: int | None = None, kind: str | None = None,
               path_prefix: str | None = None, neighbours: int = 0,
               mode: str = "hybrid", also: list[str] | None = None,
               paths: Collection[str] | None = None, references: str = "exclude") -> SearchResult:
        """``also``: other wordings of the same question (a translation into the corpus's
        language, say), searched alike and fused with it. ``paths``: only these files (a
        Zotero collection or tag, papers chosen in the papers view); None is every file.
        ``references``: passages of papers' reference lists are left out ("exclude": they
        name other work, they are no evidence about it), searched alone ("only": which
        papers cite something), or kept ("include")."""
        check_references(references)
        query = (query or "").strip()
        if not query:
            raise SearchError("the query is empty: say what to look for")
        k = k or self.settings.k
        kinds = check_kind(kind)
        if mode not in SEARCH_MODES:
            raise SearchError(f"unknown search mode {mode!r}; use one of: {', '.join(SEARCH_MODES)}")
        prefix = normalize_prefix(path_prefix)
        depth = max(self.settings.candidates, k * 3)
        result = SearchResult(query, [])
        t0 = time.perf_counter()
        only = frozenset(paths) if paths is not None else None
        ranked = self.rankings(query, depth, kinds=kinds, prefix=prefix, mode=mode, result=result, paths=only,
                               references=references)
        for n, other in enumerate(q for q in (also or []) if q and q.strip() and q.strip() != query):
            extra = self.rankings(other.strip(), depth, kinds=kinds, prefix=prefix, mode=mode,
                                  result=SearchResult(other, []), paths=only, references=references)
            ranked.update({f"{name}@{n + 1}": ids for name, ids in extra.items()})
        t2 = time.perf_counter()
        result.hits = self._fuse(ranked, k, prefix, query, result.language, only, references)
        if not result.hits:
            filtered = bool(kinds or prefix) or only is not None
            result.no_evidence = ("filters" if filtered and not self.store.catalog.has_chunks(
                self._doc_kinds(kinds) or None, prefix, only) else "index")
        if neighbours:
            self._attach_neighbours(result.hits, neighbours)
        t3 = time.perf_counter()
        result.timings_ms = {**result.timings_ms, "fuse": round((t3 - t2) * 1e3, 2),
                             "total": round((t3 - t0) * 1e3, 2)}
        return result

    def rankings(self, query: str, depth: int, *, kinds: list[str] | None = None,
                 prefix: str | None = None, mode: str = "hybrid",
                 result: SearchResult | None = None, paths: frozenset[str] | None = None,
                 references: str = "include") -> dict[str, list[str]]:
        """Each retriever's ranked chunk ids, before fusion (the benchmarks replay fusion on these).

        ``references="only"`` ranks the reference lists among themselves, in BM25's query and
        in the vector graph's filter, where a ranking of the whole archive left the entries
        naming the cited work deep in its list (docs/pdf.md, "Reference lists"). Otherwise
        every chunk is ranked, and ``_fuse`` leaves reference lists out after fusion."""
        result = result if result is not None else SearchResult(query, [])
        dir_prefix = prefix if prefix and prefix.endswith("/") else (
            prefix.rsplit("/", 1)[0] + "/" if prefix and "/" in prefix else None)
        ranked: dict[str, list[str]] = {}
        result.language = query_language(query)
        t0 = time.perf_counter()
        if mode in ("hybrid", "lexical"):
            self._check_lexical_format(result)
            lex = self.store.lexical
            ranked["bm25"] = [h.chunk_id for h in lex.search(
                query, depth, kinds=kinds, dir_prefix=dir_prefix,
                heading_boost=self.settings.heading_boost, path_boost=self.settings.path_boost,
                language=result.language, paths=paths, only_references=references == "only")]
            idents = query_identifiers(query)
            if idents:
                ranked["ident"] = [h.chunk_id for h in lex.search_identifiers(
                    idents, depth, kinds=kinds, dir_prefix=dir_prefix, paths=paths,
                    only_references=references == "only")]
            phrases = quoted_phrases(query)
            if phrases:
                ranked["grep"] = self._only(grep_phrases(self.store.catalog, phrases, depth * (4 if paths else 1),
                                                         kinds, prefix), paths)[:depth]
        t1 = time.perf_counter()
        if mode in ("hybrid", "vector"):
            ranked["vector"] = self._vector_ranking(query, depth, kinds, prefix, result, paths,
                                                    references == "only")
            if result.language != "en":
                found = self._channel_ranking(query, depth, kinds, prefix, result)
                if found is not None:
                    ranked["multilingual"] = self._only(found, paths)
        t2 = time.perf_counter()
        result.timings_ms.update(lexical=round((t1 - t0) * 1e3, 2), vector=round((t2 - t1) * 1e3, 2))
        return ranked

    def _check_lexical_format(self, result: SearchResult) -> None:
        """An index from an older lexical format answers nothing lexical until rebuilt: say so."""
        found = self.store.catalog.get_manifest("lexical_version")
        if found is not None and found != LEXICAL_VERSION:
            result.warnings.append("the keyword index was built by another version of athena_lab; "
                                   "run `athena index` to rebuild it (no re-parsing or re-embedding)")
            result.degraded = result.degraded or "keyword index out of date; results are from vectors only"

    def _only(self, ids: list[str], paths: frozenset[str] | None) -> list[str]:
        """``ids`` whose chunk lies in one of ``paths`` (all of them when ``paths`` is None)."""
        if paths is None:
            return ids
        rows = self.store.catalog.chunks_by_id(ids)
        return [i for i in ids if i in rows and rows[i].path in paths]

    def _vector_ranking(self, query: str, depth: int, kinds: list[str] | None,
                        prefix: str | None, result: SearchResult, paths: frozenset[str] | None = None,
                        references: bool = False) -> list[str]:
        if self.embedder is None:
            result.degraded = (f"embedder unavailable ({self.embedder_error}); results are lexical only"
                               if self.embedder_error else None)
            return []
        vectors = self.store.vectors(self.embedder.key, self.embedder.dimensions, self.settings.ef)
        # How many chunks have a vector, and whether a run is embedding the rest: a search
        # during indexing says so, and uses the vectors committed so far.
        state = vector_state(self.store.catalog, self.embedder.key, self.embedder.name)
        if vectors.graph() is None:
            if vectors.dimension_mismatch is not None:
                result.warnings.append(
                    f"vector index has {vectors.dimension_mismatch} dimensions, the embedder "
                    f"{self.embedder.dimensions}: vectors skipped — run `athena index` to rebuild")
                result.degraded = "vectors skipped (dimension mismatch); results are lexical only"
            elif state.state == COMPLETE and state.total:
                result.degraded = "lexical only: the vector graph is missing; run `athena index` to rebuild it"
            elif state.total or state.running:
                result.degraded = f"lexical only: {state.message}"
            return []
        if state.state != COMPLETE:
            result.degraded = (f"hybrid over {state.counts}{state.activity}; the rest is lexical only"
                               if state.running else
                               f"hybrid over {state.counts}, the rest lexical only{state.activity}")
        try:
            qvec = query_vector(self.embedder, query)
        except Exception as exc:  # the embedder failing must not fail the search
            result.degraded = f"embedder failed ({exc}); results are lexical only"
            return []
        allowed = (self.store.catalog.labels_where(self._doc_kinds(kinds) or None, prefix, paths, references)
                   if (kinds or prefix or paths is not None or references) else None)
        if allowed is not None and not allowed:
            return []
        pairs = vectors.search(qvec, depth, allowed.__contains__ if allowed is not None else None)
        rows = self.store.catalog.chunks_by_label([label for label, _ in pairs])
        ranking, stale = [], 0
        for label, _sim in pairs:
            row = rows.get(label)
            if row is None:
                continue  # a vector the catalog no longer knows (an interrupted run)
            if row.vec_hash != row.text_hash or row.vec_embedder != self.embedder.key:
                stale += 1
                continue
            ranking.append(row.chunk_id)
        if stale:
            result.warnings.append(f"{stale} stale vector(s) skipped (text changed since embedding); "
                                   "run `athena index` to refresh them")
        return ranking

    def _channel_ranking(self, query: str, depth: int, kinds: list[str] | None, prefix: str | None,
                         result: SearchResult) -> list[str] | None:
        """The multilingual channel's ranking for a question not in English, or None if absent."""
        if self.channel is None or self.channel.settings.multilingual.build == "off":
            return None  # switched off on purpose: nothing to say
        language = LANGUAGE_NAMES.get(result.language, result.language)
        ids = self.channel.ranking(query, depth * 2 if kinds or prefix else depth)
        if ids is None:
            result.channel = ChannelStatus("missing")
            result.warnings.append(
                f"this question looks {language}: the multilingual vectors that match it to text in "
                "other languages are not built yet, so results rely on the English model "
                "(run `athena index --multilingual`)")
            return None
        state = self.channel.state()
        if state["done"] < state["total"]:
            result.channel = ChannelStatus("partial", state["done"], state["total"])
            result.warnings.append(f"multilingual vectors {state['done']:,} / {state['total']:,}: "
                                   f"{language} questions search the part built so far")
        if kinds or prefix:
            rows = self.store.catalog.chunks_by_id(ids)
            ids = [i for i in ids if i in rows and _passes(rows[i], kinds, prefix)][:depth]
        return ids

    @staticmethod
    def _doc_kinds(kinds: list[str] | None) -> list[str]:
        """The parser kinds a kind filter (a parser kind or a citation kind) stands for."""
        return sorted({d for d in DOC_KINDS for k in (kinds or []) if k == d or k == citation_kind(d)})

    def weights(self, language: str = "en", query: str = "") -> dict[str, float]:
        long = len(content_words(query, language)) > self.settings.long_question_words
        lexical = (self.settings.long_question_lexical_weight if long else self.settings.lexical_weight) * (
            1.0 if language == "en" else self.settings.foreign_lexical_weight)
        return {"bm25": lexical, "vector": self.settings.vector_weight,
                "ident": self.settings.grep_weight, "grep": self.settings.grep_weight,
                "multilingual": self.settings.multilingual_weight}

    def _fuse(self, ranked: dict[str, list[str]], k: int, prefix: str | None,
              query: str, language: str = "en", paths: frozenset[str] | None = None,
              references: str = "exclude") -> list[Hit]:
        base = self.weights(language, query)
        if references == "only":
            base["vector"] *= CITES_VECTOR_SHARE
        weights = {name: base.get(name.split("@", 1)[0], 1.0) for name in ranked}
        scores = fuse(ranked, weights, self.settings.rrf_k)
        ranks: dict[str, dict[str, int]] = {}
        for name, ids in ranked.items():
            for rank, cid in enumerate(ids, 1):
                ranks.setdefault(cid, {})[name] = rank
        if not scores:
            return []
        order = sorted(scores, key=lambda cid: scores[cid], reverse=True)
        if references == "include":
            order = order[: k * 3]
        rows = self.store.catalog.chunks_by_id(order)
        if references != "include":
            wanted = references == "only"
            order = [cid for cid in order if cid in rows and is_reference(rows[cid].locator) == wanted][: k * 3]
        titles = self._titles({r.path for r in rows.values()})
        records = self.store.catalog.source_records({r.path for r in rows.values()})
        lowered = query.lower()
        hits = []
        for cid in order:
            row = rows.get(cid)
            if row is None or (prefix and not row.path.startswith(prefix)) or (paths is not None and row.path not in paths):
                continue
            score = scores[cid]
            if row.confidence is not None and row.confidence < LOW_CONFIDENCE and not _targets(row.path, lowered):
                score *= 0.5 + row.confidence / 2  # doubtful extraction ranks below good text
            record = records.get(row.path)
            title = (record or {}).get("title") if (record or {}).get("source") in ("zotero", "bibtex") else None
            hits.append(Hit(row, score, ranks[cid], title or titles.get(row.path), record=record))
        hits.sort(key=lambda h: h.score, reverse=True)
        return hits[:k]

    def _titles(self, paths: set[str]) -> dict[str, str | None]:
        return self.store.catalog.titles(paths)

    def _attach_neighbours(self, hits: list[Hit], n: int) -> None:
        catalog = self.store.catalog
        for hit in hits:
            around: list[ChunkRow] = []
            prev_id, next_id = hit.chunk.prev_id, hit.chunk.next_id
            for _ in range(n):
                found = catalog.chunks_by_id([i for i in (prev_id, next_id) if i])
                prev_row, next_row = found.get(prev_id or ""), found.get(next_id or "")
                if prev_row:
                    around.insert(0, prev_row)
                    prev_id = prev_row.prev_id
                if next_row:
                    around.append(next_row)
                    next_id = next_row.next_id
            hit.neighbours = around


def _passes(row: ChunkRow, kinds: list[str] | None, prefix: str | None) -> bool:
    if prefix and not row.path.startswith(prefix):
        return False
    return not kinds or row.doc_kind in kinds or citation_kind(row.doc_kind) in kinds


def _targets(path: str, lowered_query: str) -> bool:
    stem = re.sub(r"\.[^.]+$", "", path.rsplit("/", 1)[-1]).lower()
    return bool(stem) and stem in lowered_query


_WORD = re.compile(r"\w+")


# A reST role (":func:`~flask.url_for`", ":ref:`Routing <routing>`") as Sphinx shows it.
_ROLE = re.compile(r":(?:[\w-]+:)*[\w+-]+:`(~?)([^`<\n]*?)(?:\s*<[^>\n]*>)?`")


def _role_text(match: re.Match[str]) -> str:
    return match.group(2).rsplit(".", 1)[-1] if match.group(1) else match.group(2)


def snippet(text: str, query: str, width: int = 280) -> str:
    """A window of the chunk around the first query word it contains, its lines kept.

    Code keeps its lines and indentation (flattened, a block of code read as one line);
    blank lines and trailing spaces go, and reST roles read as Sphinx shows them."""
    lines = [_ROLE.sub(_role_text, line.rstrip()) for line in text.replace("\t", "    ").splitlines()]
    kept = "\n".join(line for line in lines if line.strip())
    if len(kept) <= width:
        return kept
    lowered = kept.lower()
    positions = [lowered.find(w) for w in (m.group(0).lower() for m in _WORD.finditer(query))
                 if len(w) > 2]
    positions = [p for p in positions if p >= 0]
    start = max(0, min(positions) - width // 4) if positions else 0
    end = min(len(kept), start + width)
    start = max(0, end - width)
    line_start = kept.rfind("\n", 0, start) + 1  # start at a line's start when one is near
    at_line = bool(start) and start - line_start <= width // 8
    if at_line:
        start, end = line_start, min(len(kept), line_start + width)
    window = kept[start:end].strip("\n")
    return ("…\n" if at_line else "…" if start else "") + window + ("…" if end < len(kept) else "")


def citation(hit: Hit, query: str = "", number: int | None = None) -> Citation:
    """The citation JSON of docs/contract.md (with ``score``, ``title`` and the one ``label``)."""
    row = hit.chunk
    kind = citation_kind(row.doc_kind)
    out: Citation = ({"id": number, "kind": kind, "path": row.path, "doc_kind": row.doc_kind} if number is not None
                     else {"kind": kind, "path": row.path, "doc_kind": row.doc_kind})
    loc = row.locator
    if kind == "pdf":
        out["page"] = loc.get("page", row.page)
        out["pages"] = loc.get("pages", [])
        out["regions"] = loc.get("regions", [])
        out["confidence"] = row.confidence
        out["warnings"] = row.warnings
        if is_reference(loc):
            out["references"] = True  # a passage of the paper's reference list
    if hit.record:  # a PDF's (guessed or the library's), or a Zotero attachment's of any kind
        out["record"] = record_of(row.path, hit.record)
    if kind == "notebook":
        out["cell"] = loc.get("cell", row.cell)
        if "end_cell" in loc:
            out["end_cell"] = loc["end_cell"]
    if kind != "pdf":
        out["start_line"], out["end_line"] = row.start_line, row.end_line
    out["heading_path"], out["title"], out["chunk_id"] = row.heading, hit.title, row.chunk_id
    out["text_hash"], out["snippet"], out["score"] = row.text_hash, snippet(row.text, query), round(hit.score, 6)
    out["label"] = citation_location(out)  # the one label every front end shows
    return out
