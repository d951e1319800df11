"""The vectors phase of an index run: cache → embed → cache write → checkpoint, for either vector set.

The main vectors (pipeline.py) and the multilingual channel (multilingual.py) run this
same loop; they differ only in their embedder, their graph and their ``Labels``
(checkpoints.py). The chunks needing a vector come a window at a time (``windows``: the
catalog reads ``EMBED_WINDOW`` texts per query), so memory stays flat however many there
are. In each window, texts already embedded by this embedder come from the SQLite cache;
the rest are embedded shortest first in batches of at most ``EMBED_BATCH`` texts (two at
once on OpenVINO's two document lanes: ``embed_here``), each batch cached as soon as it
is back, in order. An embedder that counts tokens (``CountsTokens``: the
ONNX models) has its texts sorted and cut by token count, so a batch holds texts of nearly
one padded width, within ``EMBED_TOKENS`` positions (on papers-we-love 93 % of the
positions computed are real tokens, against 79 % when sorted by characters); any other
embedder's by character count, within ``EMBED_CHARS``. The checkpointer puts
them in the graph in batches and makes them searchable every few seconds (less often as
the graph grows), never once per window. A ``StopRequest`` (Ctrl-C, SIGTERM, a server
shutting down: interrupt.py) is honoured between batches, and everything embedded by then
is committed.
"""

from __future__ import annotations

from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Protocol, runtime_checkable

import numpy as np

from athena_lab.index.catalog import Catalog, TextRow
from athena_lab.index.embeddings import Embedder
from athena_lab.index.progress import RunProgress
from athena_lab.ingest.checkpoints import VectorCheckpointer
from athena_lab.ingest.chunking import embedding_text
from athena_lab.interrupt import StopRequest

EMBED_WINDOW = 4096  # chunk texts read from the catalog at a time
EMBED_BATCH = 32  # texts per embedding call: a stop waits for at most one batch a lane (embed_here)
#: Characters per embedding call (texts × the longest one). onnxruntime keeps the largest
#: buffers it ever needed: 32 texts of 256 tokens took the indexer from 400 MB to 950 MB
#: for the rest of the run. Within this budget a call holds 32 short texts or 8 long ones
#: and stays near 450 MB (docs/indexing.md).
EMBED_CHARS = 8 * 1100
#: Token positions per embedding call (texts × their padded width), for an embedder that
#: counts tokens: the same bound, 8 texts of MiniLM's 256 tokens (or 16 of 128, 32 of 64).
#: Calls of 4,096 or 8,192 positions embedded papers-we-love no faster (per CPU-second) and
#: took 100–250 MB more (docs/benchmarks.md, issue 30).
EMBED_TOKENS = 8 * 256
GROUP_STEP = 8  # texts per call come in multiples of this (embed_groups, token_groups)
Progress = Callable[[str, int, int], None]  # (phase, done, total)
EmbedBatches = Callable[[Embedder, list[list[str]]], Iterator[np.ndarray]]


def embed_groups(hashes: list[str], texts: dict[str, str]) -> list[list[str]]:
    """``hashes`` (sorted by text length) cut into embedding calls within the budgets, of
    at most 32, 16 or 8 texts by their longest, and of a multiple of ``GROUP_STEP`` texts
    but for the last: few distinct batch shapes, as OpenVINO keeps memory for each shape it
    has run (index/runtimes.py ``pad_rows``). A group that reaches its budget keeps a
    multiple of ``GROUP_STEP`` and hands the rest on to the next."""
    groups: list[list[str]] = []
    current: list[str] = []
    for digest in hashes:
        longest = max(len(texts[h]) for h in [*current, digest])
        if current and len(current) + 1 > _group_cap(longest):
            keep = len(current) - len(current) % GROUP_STEP or len(current)
            groups.append(current[:keep])
            current = current[keep:]
        current.append(digest)
    if current:
        groups.append(current)
    return groups


def _group_cap(longest: int) -> int:
    """Texts per embedding call when its longest text has ``longest`` characters."""
    return next((n for n in (EMBED_BATCH, EMBED_BATCH // 2, EMBED_BATCH // 4) if n * longest <= EMBED_CHARS),
                max(1, EMBED_BATCH // 4))


@runtime_checkable
class CountsTokens(Protocol):
    """An embedder that says how many tokens it feeds the model for each document text, and
    the multiple a batch's width is padded up to (``OnnxEmbedder``)."""

    pad_to: int

    def token_lengths(self, texts: list[str]) -> list[int]: ...


def token_groups(hashes: list[str], lengths: dict[str, int], pad_to: int) -> list[list[str]]:
    """``hashes`` (sorted by token count) cut into embedding calls of 32, 16 or 8 texts
    (``EMBED_BATCH`` and its halves: multiples of ``GROUP_STEP``, but for the last call),
    as many as fit ``EMBED_TOKENS`` positions once padded to the longest text's width:
    texts next to each other in token order share a width."""
    sizes = [n for n in (EMBED_BATCH, EMBED_BATCH // 2, EMBED_BATCH // 4) if n > 0] or [1]
    groups: list[list[str]] = []
    start = 0
    while start < len(hashes):
        for n in sizes:
            part = hashes[start:start + n]
            width = -(-max(lengths[h] for h in part) // pad_to) * pad_to
            if n * width <= EMBED_TOKENS:
                break
        groups.append(part)
        start += len(part)
    return groups


def plan_batches(embedder: Embedder, hashes: Iterable[str], texts: dict[str, str],
                 lengths: dict[str, int] | None = None) -> list[list[str]]:
    """The embedding calls for ``hashes`` (keys of ``texts``), shortest first: by token
    count when the embedder counts tokens (``lengths``: counts known already), else by
    characters. Which texts share a call changes their padding, never their vectors
    (padding is masked: test_batching_and_ordering_do_not_change_vectors)."""
    order = list(hashes)
    if isinstance(embedder, CountsTokens):
        known = lengths if lengths is not None else {}
        unknown = [h for h in order if h not in known]
        if unknown:
            known = {**known, **dict(zip(unknown, embedder.token_lengths([texts[h] for h in unknown])))}
        order.sort(key=lambda h: known[h])
        return token_groups(order, known, embedder.pad_to)
    order.sort(key=lambda h: len(texts[h]))
    return embed_groups(order, texts)


def embed_here(embedder: Embedder, batches: list[list[str]]) -> Iterator[np.ndarray]:
    """One array of vectors per batch, in order, embedded in this process: in turn, or
    ``lanes`` batches at once when the embedder has several (OpenVINO's document lanes, one
    thread each: index/runtimes.py). Batches run at most ``lanes`` ahead of the one handed
    out, so a stop waits for those few; closing the iterator early waits for them too."""
    lanes = int(getattr(embedder, "lanes", 1))
    if lanes <= 1 or len(batches) < 2:
        for texts in batches:
            yield embedder.embed_documents(texts)
        return
    running: deque[Future[np.ndarray]] = deque()
    with ThreadPoolExecutor(lanes, thread_name_prefix="embed") as pool:
        try:
            for texts in batches:
                running.append(pool.submit(embedder.embed_documents, texts))
                if len(running) >= lanes:
                    yield running.popleft().result()
            while running:
                yield running.popleft().result()
        finally:
            for future in running:
                future.cancel()


@dataclass
class Embedded:
    """What one vectors phase did: texts taken from the cache, texts embedded, and the
    reason it stopped early (a signal's name), if it did."""

    from_cache: int = 0
    embedded: int = 0
    interrupted: str | None = None


def embed_vectors(catalog: Catalog, embedder: Embedder, windows: Iterable[list[TextRow]], total: int,
                  checkpoints: VectorCheckpointer, *, phase: str, report: Progress,
                  stop: StopRequest | None = None, embed_batches: EmbedBatches = embed_here,
                  run: RunProgress | None = None, fresh: set[str] | None = None,
                  done: Embedded | None = None) -> Embedded:
    """Give every chunk of ``windows`` (lists of (chunk_id, text_hash, text, heading, path)
    rows, ``total`` of them in all) its vector and hand them to ``checkpoints``; the last
    checkpoint is committed on the way out, also on a stop or an error, so what was
    embedded stays searchable. ``fresh``: hashes this run embedded while parsing
    (pipeline.EmbedWhileParsing): found in the cache, but counted as embedded now.
    ``done``: counts to add to (kept by the caller when an embedder error escapes)."""
    done = done if done is not None else Embedded()
    if stop is not None:
        stop.deferrable = True  # from here a signal stops the run cleanly between batches
    try:
        report(phase, 0, total)
        if run is not None:
            run.start_rate(checkpoints.fresh_chunks)
        finished = 0
        for rows in windows:
            if stop is not None and stop.is_set():  # also between windows all from the cache
                done.interrupted = stop.reason
                break
            checkpoints.expect(rows)
            _embed(catalog, embedder, rows, checkpoints, phase, report, stop, embed_batches, run, done,
                   fresh or set(), finished, total)
            finished += len(rows)
            if done.interrupted:
                break
    finally:
        if run is not None:
            run.report("save", checkpoints.committed, total)
        checkpoints.commit()  # also on Ctrl-C: what was embedded stays searchable
        if stop is not None:
            stop.deferrable = False
    return done


def _embed(catalog: Catalog, embedder: Embedder, needing: list[TextRow], checkpoints: VectorCheckpointer,
           phase: str, report: Progress, stop: StopRequest | None, embed_batches: EmbedBatches,
           run: RunProgress | None, done: Embedded, fresh: set[str], finished: int, total: int) -> None:
    """One window: its cached vectors, then its missing texts embedded batch by batch."""
    titles = catalog.titles({path for *_rest, path in needing})
    by_hash: dict[str, str] = {}
    for _cid, digest, text, heading, path in needing:
        by_hash.setdefault(digest, embedding_text(heading, text, titles.get(path)))
    cached = catalog.cached_vectors(embedder.key, list(by_hash))
    now = {h: v for h, v in cached.items() if h in fresh}
    done.embedded += len(now)
    done.from_cache += len(cached) - len(now)
    checkpoints.add(now.items())
    checkpoints.add(((h, v) for h, v in cached.items() if h not in now), fresh=False)
    # Shortest first: each call then holds texts of similar length, and the embedder pads a
    # batch only to its longest text.
    missing = [h for h in by_hash if h not in cached]
    batches = plan_batches(embedder, missing, by_hash)
    results = embed_batches(embedder, [[by_hash[h] for h in b] for b in batches])
    count = len(needing) - len(missing)  # rows of this window done: the cached ones at once
    report(phase, min(finished + count, total), total)
    for batch in batches:
        if stop is not None and stop.is_set():
            done.interrupted = stop.reason
            return
        items = list(zip(batch, next(results)))
        with catalog.transaction():
            catalog.cache_vectors(embedder.key, items)
        checkpoints.add(items)
        done.embedded += len(batch)
        if run is not None:
            run.embedded(checkpoints.fresh_chunks)
        count += len(batch)
        report(phase, min(finished + count, total), total)
        if checkpoints.due():
            checkpoints.commit()
    if checkpoints.due():
        checkpoints.commit()  # a window all from the cache is searchable within the interval too
