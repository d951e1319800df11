"""The multilingual channel: a second vector set that non-English questions are routed to.

The default embedder is English (MiniLM): fast, and good at English paraphrase, but a
Spanish question shares neither words nor much of a vector with an English page. A
multilingual embedder costs several times more per chunk, so it is a second set rather
than the default: built on demand, searched only for questions in other languages, and
fused with the rest. Its graph lives beside the main one (``vectors/<key>.hnsw``); the
catalog maps the graph's labels to chunks and drops a vector whose chunk text changed.
"""

from __future__ import annotations

import dataclasses
import json

from athena_lab.contract import MultilingualStatus
from athena_lab.settings import EMBEDDING_RUN_FIELDS, embedding_settings_key, EmbeddingSettings, Settings
from athena_lab.index.embeddings import Embedder, make_embedder, query_vector
from athena_lab.index.store import IndexStore
from athena_lab.index.vectors import VectorIndex

MANIFEST_KEY = "multilingual_key"


def channel_embedding_settings(settings: Settings) -> EmbeddingSettings:
    """The multilingual model's settings, with the main embedder's thread and batch choices."""
    m, base = settings.multilingual, settings.embedding
    shared = {f.name: getattr(base, f.name) for f in dataclasses.fields(EmbeddingSettings)
              if f.name in ("batch_size", "threads", "runtime", "precision")}
    return EmbeddingSettings(provider=m.provider, model_dir=m.model_dir, query_prefix=m.query_prefix,
                             passage_prefix=m.passage_prefix, pooling=m.pooling,
                             max_tokens=m.max_tokens, **shared)


def channel_embedder(settings: Settings) -> Embedder | None:
    """The multilingual embedder (shared per process); raises EmbedderError if it cannot load."""
    return make_embedder(channel_embedding_settings(settings))


def settings_key(settings: Settings) -> str:
    """The channel's settings that decide its vectors: how many threads embedded them
    (or in what batches, on which runtime) does not make a built channel another one."""
    return embedding_settings_key(channel_embedding_settings(settings))


def recorded(store: IndexStore, settings: Settings) -> tuple[str, int] | None:
    """(embedder key, dimensions) of a channel built with these settings, if any."""
    raw = store.catalog.get_manifest(MANIFEST_KEY)
    if not raw:
        return None
    data = json.loads(raw)
    stored = json.loads(data.get("settings") or "{}")  # indexes before 2026-12 kept the run fields too
    if {k: v for k, v in stored.items() if k not in EMBEDDING_RUN_FIELDS} != json.loads(settings_key(settings)):
        return None
    return data["key"], int(data["dimensions"])


def complete(store: IndexStore, settings: Settings) -> tuple[str, int] | None:
    """``recorded`` when that channel has a current vector for every chunk; None otherwise."""
    found = recorded(store, settings)
    if found is None:
        return None
    done, total = store.catalog.channel_counts(found[0])
    return found if done >= total else None


def record(store: IndexStore, settings: Settings, embedder: Embedder) -> None:
    store.catalog.set_manifest(MANIFEST_KEY, json.dumps(
        {"key": embedder.key, "dimensions": embedder.dimensions, "name": embedder.name,
         "settings": settings_key(settings)}))


def channel_graph(store: IndexStore, key: str, dimensions: int, ef: int) -> VectorIndex:
    return store.vectors(key, dimensions, ef)


def channel_state(store: IndexStore, settings: Settings) -> MultilingualStatus:
    """How far the channel is: vectors done out of all chunks, and which model."""
    found = recorded(store, settings)
    done, total = store.catalog.channel_counts(found[0] if found else "")
    name = json.loads(store.catalog.get_manifest(MANIFEST_KEY) or "{}").get("name") if found else None
    return {"build": settings.multilingual.build, "done": done, "total": total, "model": name}


class MultilingualChannel:
    """Search side of the channel: loads the model only when a question needs it."""

    def __init__(self, store: IndexStore, settings: Settings) -> None:
        self.store, self.settings = store, settings
        self._embedder: Embedder | None = None
        self.error: str | None = None

    def state(self) -> MultilingualStatus:
        return channel_state(self.store, self.settings)

    def embedder(self) -> Embedder | None:
        """The channel's model, loaded on first use, when a channel built with these settings
        exists (the answerer compares a question in another language with English sentences
        by it too); None otherwise."""
        found = recorded(self.store, self.settings)
        if found is None or self.settings.multilingual.build == "off":
            return None
        if self._embedder is None:
            try:
                self._embedder = channel_embedder(self.settings)
            except Exception as exc:  # a missing extra must not fail the search
                self.error = str(exc)
                return None
        return self._embedder if self._embedder is not None and self._embedder.key == found[0] else None

    def ranking(self, query: str, depth: int) -> list[str] | None:
        """Chunk ids nearest the question, or None when there is no channel to search."""
        embedder = self.embedder()
        if embedder is None:
            return None
        graph = channel_graph(self.store, embedder.key, embedder.dimensions, self.settings.search.ef)
        pairs = graph.search(query_vector(embedder, query), depth)
        ids = self.store.catalog.channel_chunk_ids(embedder.key, [label for label, _ in pairs])
        return [ids[label] for label, _ in pairs if label in ids]
