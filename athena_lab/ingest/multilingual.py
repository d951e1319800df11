"""Build or update the multilingual channel (see ``athena_lab.index.channel``).

Runs inside ``athena index`` (``--multilingual``, ``multilingual.build = "always"``, or
``"auto"`` once the channel was built), under its write lock. Its vectors are embedded
by the same loop as the main vectors (vectors.py): cached in SQLite batch by batch and
committed to the graph in checkpoints, so a stop at any point keeps what was done and the
next run embeds only the rest; searches use the part already built meanwhile.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from athena_lab.config import Config
from athena_lab.index import channel
from athena_lab.errors import EmbedderError
from athena_lab.index.runtimes import usable_cores
from athena_lab.index.store import IndexStore
from athena_lab.ingest.checkpoints import ChannelLabels, VectorCheckpointer
from athena_lab.ingest.vectors import EMBED_WINDOW, Progress, embed_here, embed_vectors
from athena_lab.interrupt import StopRequest

FLUSH_SECONDS = 10.0  # how often the graph is saved: searches see new vectors this soon


@dataclass
class ChannelSummary:
    embedded: int = 0
    from_cache: int = 0
    removed: int = 0
    total: int = 0
    model: str | None = None
    errors: list[str] = field(default_factory=list)


def update_channel(config: Config, store: IndexStore, report: Progress | None = None,
                   stop: StopRequest | None = None) -> ChannelSummary:
    """Give every chunk a current multilingual vector and drop those of changed or gone
    chunks. The caller holds the index's write lock (``run_index`` does)."""
    summary = ChannelSummary()
    report = report or (lambda *_: None)
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
    summary.total = catalog.counts()["chunks"]
    checkpoints = VectorCheckpointer(graph, ChannelLabels(catalog, embedder.key), set(), FLUSH_SECONDS,
                                     threads=settings.index.graph_threads or usable_cores())
    # Always here, never on Ray: the cluster's actors hold the main embedder, not this one.
    done = embed_vectors(catalog, embedder, catalog.needing_channel_windows(embedder.key, EMBED_WINDOW),
                         catalog.needing_channel_count(embedder.key), checkpoints, phase="multilingual",
                         report=report, stop=stop, embed_batches=embed_here)
    summary.from_cache, summary.embedded = done.from_cache, done.embedded
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
