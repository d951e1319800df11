"""The vectors phase of an index run: cache → embed → cache write → checkpoint, for either vector set.

The main vectors (pipeline.py) and the multilingual channel (multilingual.py) run this
same loop; they differ only in their embedder, their graph and their ``Labels``
(checkpoints.py). Texts already embedded by this embedder come from the SQLite cache and
are committed at once; the rest are embedded shortest first in batches of
``EMBED_BATCH``, each batch cached as soon as it is back, and the checkpointer makes them
searchable every few seconds. A ``StopRequest`` (Ctrl-C, SIGTERM, a server shutting down:
interrupt.py) is honoured between batches, and everything embedded by then is committed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np

from athena_lab.index.catalog import Catalog, TextRow
from athena_lab.index.embeddings import Embedder
from athena_lab.index.progress import RunProgress
from athena_lab.ingest.checkpoints import VectorCheckpointer
from athena_lab.ingest.chunking import embedding_text
from athena_lab.interrupt import StopRequest

EMBED_BATCH = 32  # texts per embedding call: a stop waits for at most one batch
Progress = Callable[[str, int, int], None]  # (phase, done, total)
EmbedBatches = Callable[[Embedder, list[list[str]]], Iterator[np.ndarray]]


def embed_here(embedder: Embedder, batches: list[list[str]]) -> Iterator[np.ndarray]:
    """One array of vectors per batch, embedded in this process, in turn."""
    for texts in batches:
        yield embedder.embed_documents(texts)


@dataclass
class Embedded:
    """What one vectors phase did: texts taken from the cache, texts embedded, and the
    reason it stopped early (a signal's name), if it did."""

    from_cache: int = 0
    embedded: int = 0
    interrupted: str | None = None


def embed_vectors(catalog: Catalog, embedder: Embedder, needing: list[TextRow], titles: dict[str, str],
                  checkpoints: VectorCheckpointer, *, phase: str, report: Progress,
                  stop: StopRequest | None = None, embed_batches: EmbedBatches = embed_here,
                  run: RunProgress | None = None) -> Embedded:
    """Give every chunk of ``needing`` ((chunk_id, text_hash, text, heading, path) rows) its
    vector and hand them to ``checkpoints``; the last checkpoint is committed on the way
    out, also on a stop or an error, so what was embedded stays searchable."""
    done = Embedded()
    if stop is not None:
        stop.deferrable = True  # from here a signal stops the run cleanly between batches
    try:
        _embed(catalog, embedder, needing, titles, checkpoints, phase, report, stop, embed_batches, run, done)
    finally:
        if run is not None:
            run.report("save", checkpoints.committed, len(needing))
        checkpoints.commit()  # also on Ctrl-C: what was embedded stays searchable
        if stop is not None:
            stop.deferrable = False
    return done


def _embed(catalog: Catalog, embedder: Embedder, needing: list[TextRow], titles: dict[str, str],
           checkpoints: VectorCheckpointer, phase: str, report: Progress, stop: StopRequest | None,
           embed_batches: EmbedBatches, run: RunProgress | None, done: Embedded) -> None:
    by_hash: dict[str, str] = {}
    for _cid, digest, text, heading, path in needing:
        by_hash.setdefault(digest, embedding_text(heading, text, titles.get(path)))
    cached = catalog.cached_vectors(embedder.key, list(by_hash))
    done.from_cache += len(cached)
    checkpoints.add(cached.items(), fresh=False)
    checkpoints.commit()  # cached vectors are searchable at once
    # Shortest first: each call then holds texts of similar length, and the embedder pads a
    # batch only to its longest text (12 % fewer token positions on docs chunks).
    missing = sorted((h for h in by_hash if h not in cached), key=lambda h: len(by_hash[h]))
    report(phase, 0, len(missing))
    if run is not None:
        run.start_rate()
    starts = range(0, len(missing), EMBED_BATCH)
    batches = [missing[start:start + EMBED_BATCH] for start in starts]
    results = embed_batches(embedder, [[by_hash[h] for h in b] for b in batches])
    for start, batch in zip(starts, batches):
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
        report(phase, min(start + EMBED_BATCH, len(missing)), len(missing))
        if checkpoints.due():
            checkpoints.commit()
