"""Build or update the multilingual channel (see ``athena_lab.index.channel``).

Runs inside ``athena index`` (``--multilingual``, ``multilingual.build = "always"``, or
``"auto"`` once the channel was built), under its write lock. Vectors are cached in SQLite and
added to the graph batch by batch, so a stop at any point keeps what was done and the
next run embeds only the rest; searches use the part already built meanwhile.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from athena_lab.config import Config
from athena_lab.index import channel
from athena_lab.index.embeddings import EmbedderError
from athena_lab.index.store import IndexStore
from athena_lab.ingest.chunking import embedding_text

BATCH = 32
FLUSH_SECONDS = 10.0  # how often the graph is saved: searches see new vectors this soon
Progress = Callable[[str, int, int], None]


@dataclass
class ChannelSummary:
    embedded: int = 0
    from_cache: int = 0
    removed: int = 0
    total: int = 0
    model: str | None = None
    errors: list[str] = field(default_factory=list)


def update_channel(config: Config, store: IndexStore, report: Progress | None = None,
                   should_stop: Callable[[], bool] | None = None) -> ChannelSummary:
    """Give every chunk a current multilingual vector and drop those of changed or gone
    chunks. The caller holds the index's write lock (``run_index`` does)."""
    summary = ChannelSummary()
    report = report or (lambda *_: None)
    should_stop = should_stop or (lambda: False)
    settings, catalog = config.settings, store.catalog
    if _current(store, config, summary):
        return summary  # nothing to embed or drop: the model is not even loaded
    try:
        embedder = channel.channel_embedder(settings)
    except EmbedderError as exc:
        summary.errors.append(f"multilingual vectors skipped: {exc}")
        return summary
    if embedder is None:
        return summary
    summary.model = embedder.name
    graph = channel.channel_graph(store, embedder.key, embedder.dimensions, settings.search.ef)
    if not graph.exists():  # rows without their graph point nowhere
        with catalog.transaction():
            catalog.channel_clear(embedder.key)
    orphans = catalog.channel_orphans(embedder.key)
    if orphans:
        graph.update({}, set(orphans))
        with catalog.transaction():
            catalog.channel_forget(embedder.key, orphans)
        summary.removed = len(orphans)
    channel.record(store, settings, embedder)
    missing = catalog.channel_missing(embedder.key)
    summary.total = catalog.counts()["chunks"]
    titles = {p: s.title or "" for p, s in catalog.sources().items()}
    label = catalog.channel_next_label(embedder.key)
    pending: list[tuple[int, str, str]] = []
    pending_vectors: dict[int, object] = {}
    last_flush = time.monotonic()

    def flush() -> None:
        # The graph first, then the catalog rows that point into it (the catalog is the commit point).
        if pending:
            graph.update(dict(pending_vectors), set())
            with catalog.transaction():
                catalog.channel_add(embedder.key, list(pending))
            pending.clear()
            pending_vectors.clear()

    report("multilingual", 0, len(missing))
    try:
        for start in range(0, len(missing), BATCH):
            if should_stop():
                break
            batch = missing[start:start + BATCH]
            texts = {}
            for _cid, digest, text, heading, path in batch:
                texts.setdefault(digest, embedding_text(heading, text, titles.get(path)))
            vectors = catalog.cached_vectors(embedder.key, list(texts))
            summary.from_cache += len(vectors)
            todo = [h for h in texts if h not in vectors]
            if todo:
                fresh = embedder.embed_documents([texts[h] for h in todo])
                vectors.update(zip(todo, fresh))
                with catalog.transaction():
                    catalog.cache_vectors(embedder.key, list(zip(todo, fresh)))
                summary.embedded += len(todo)
            for cid, digest, *_rest in batch:
                pending.append((label, cid, digest))
                pending_vectors[label] = vectors[digest]
                label += 1
            if time.monotonic() - last_flush > FLUSH_SECONDS:
                flush()
                last_flush = time.monotonic()
            report("multilingual", min(start + BATCH, len(missing)), len(missing))
    finally:
        flush()  # a stop (Ctrl-C, SIGTERM, a stop request) keeps every vector embedded so far
    return summary


def _current(store: IndexStore, config: Config, summary: ChannelSummary) -> bool:
    """True when the channel built with these settings has a current vector for every
    chunk and none for a gone or changed one (``summary`` then says so)."""
    found = channel.complete(store, config.settings)
    if found is None:
        return False
    catalog = store.catalog
    graph = channel.channel_graph(store, found[0], found[1], config.settings.search.ef)
    if not graph.exists() or catalog.channel_orphans(found[0]):
        return False
    summary.total = catalog.counts()["chunks"]
    summary.model = channel.channel_state(store, config.settings)["model"]
    return True
