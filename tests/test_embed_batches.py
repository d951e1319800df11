"""The vectors phase's embedding calls, with the real MiniLM embedder: texts are sorted and
cut by token count, so a call holds texts of nearly one padded width within the token
budget (on papers-we-love, 93 % of the positions computed are real tokens, against 79 %
when texts were sorted by characters), and a text's vector is the same whichever call it
was embedded in: alone, in a planned call, while parsing or in the vectors phase."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import numpy as np
import pytest

from athena_lab.config import load_config
from athena_lab.index import embeddings
from athena_lab.index.embeddings import make_embedder
from athena_lab.index import runtimes
from athena_lab.index.runtimes import usable_cores
from athena_lab.index.store import IndexStore
from athena_lab.ingest import vectors as vectors_phase
from athena_lab.ingest.chunking import Chunk, embedding_text, text_hash
from athena_lab.ingest.pipeline import EmbedWhileParsing, IndexSummary, run_index
from athena_lab.ingest.vectors import CountsTokens, EMBED_BATCH, EMBED_TOKENS, plan_batches

pytestmark = pytest.mark.unit

PROSE = "archive paper query window memory thread search catalog graph insert".split()
# Digits and symbols: many more tokens a character than prose, so character counts
# misjudge how wide a text is once tokenized.
SYMBOLS = "3.14159 2.71828 x_{ij} 0x7fff 1e-9 (a,b) [k] 42.0 π≈3 ∑_i".split()


def _texts(count: int) -> dict[str, str]:
    rng = random.Random(7)
    out: dict[str, str] = {}
    for i in range(count):
        words = SYMBOLS if i % 2 else PROSE
        text = " ".join(rng.choice(words) for _ in range(rng.randint(4, 160)))
        out[text_hash(text)] = text
    return out


def _fill(calls: list[list[str]], lengths: dict[str, int], pad_to: int) -> float:
    real = sum(lengths[h] for call in calls for h in call)
    padded = sum(len(call) * -(-max(lengths[h] for h in call) // pad_to) * pad_to for call in calls)
    return real / padded


@pytest.fixture(scope="module")
def embedder():
    embedder = make_embedder(load_config(".").settings.embedding)
    assert isinstance(embedder, CountsTokens), "the default embedder counts tokens"
    return embedder


def test_calls_hold_texts_of_one_padded_width_within_the_token_budget(embedder) -> None:
    texts = _texts(400)
    lengths = dict(zip(texts, embedder.token_lengths(list(texts.values()))))
    calls = plan_batches(embedder, list(texts), texts)
    assert sorted(h for call in calls for h in call) == sorted(texts)  # each text once
    for call in calls:
        width = -(-max(lengths[h] for h in call) // embedder.pad_to) * embedder.pad_to
        assert len(call) <= EMBED_BATCH and len(call) * width <= EMBED_TOKENS
    # shortest first, by tokens: no call holds a text shorter than one of the call before
    assert all(max(lengths[h] for h in a) <= min(lengths[h] for h in b) for a, b in zip(calls, calls[1:]))
    by_characters = vectors_phase.embed_groups(sorted(texts, key=lambda h: len(texts[h])), texts)
    # 92 % of the positions computed are real tokens; 67 % when sorted by characters
    assert _fill(calls, lengths, embedder.pad_to) >= 0.9
    assert _fill(calls, lengths, embedder.pad_to) > _fill(by_characters, lengths, embedder.pad_to) + 0.15


def test_a_vector_does_not_depend_on_the_call_it_was_embedded_in(embedder) -> None:
    texts = _texts(24)
    alone = {h: embedder.embed_documents([t])[0] for h, t in texts.items()}
    for call in plan_batches(embedder, list(texts), texts):
        for h, vector in zip(call, embedder.embed_documents([texts[h] for h in call])):
            assert np.array_equal(vector, alone[h])


def test_while_parsing_the_shortest_waiting_texts_by_tokens_are_embedded_first(tmp_path: Path, embedder) -> None:
    config = load_config(tmp_path, index_dir=tmp_path / "index")
    store = IndexStore(config.index_dir)
    try:
        streaming = EmbedWhileParsing(config, store, IndexSummary(), None)
        streaming.embedder = embedder
        texts = _texts(40)
        chunks = [Chunk(chunk_id=f"c{i}", path="a.md", doc_kind="markdown", ordinal=i, heading_path=[], text=t,
                        start_line=i, end_line=i) for i, t in enumerate(texts.values())]
        streaming.add(chunks, None)
        lengths = dict(zip(texts, embedder.token_lengths(list(texts.values()))))
        assert streaming.lengths == {text_hash(c.text): lengths[text_hash(c.text)] for c in chunks}
        assert streaming.step()
        first = [digest for digest, _vector in streaming.ready]
        assert len(first) > 1 and max(lengths[h] for h in first) <= min(lengths[h] for h in streaming.pending)
        while streaming.step():
            pass
        assert not streaming.pending and not streaming.lengths
        for digest, vector in streaming.ready:
            assert np.array_equal(vector, embedder.embed_documents([embedding_text("", texts[digest])])[0])
    finally:
        store.close()


def test_an_index_run_caches_the_vector_each_text_has_alone(tmp_path: Path, embedder) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    texts = list(_texts(30).values())
    for n in range(6):
        sections = "\n\n".join(f"## Part {n}.{i}\n\n{t}" for i, t in enumerate(texts[n * 5:n * 5 + 5]))
        (folder / f"note{n}.md").write_text(f"# Note {n}\n\n{sections}\n", encoding="utf-8")
    config = load_config(folder)
    summary = run_index(config)
    assert summary.embedded == summary.chunks > 20
    store = IndexStore(config.index_dir)
    try:
        titles = store.catalog.titles({f"note{n}.md" for n in range(6)})
        rows = list(store.catalog.iter_chunks())
        wanted = {r.text_hash: embedding_text(r.heading, r.text, titles.get(r.path)) for r in rows}
        cached = store.catalog.cached_vectors(embedder.key, list(wanted))
        assert set(cached) == set(wanted)
        for digest, text in wanted.items():
            assert np.array_equal(cached[digest], embedder.embed_documents([text])[0])
    finally:
        store.close()


def _long_texts(count: int, words: int = 180) -> list[str]:
    rng = random.Random(3)
    return [" ".join(rng.choice(PROSE + SYMBOLS) for _ in range(words)) for _ in range(count)]


def test_document_lanes_follow_the_precision_documents_run_in(embedder) -> None:
    """Two lanes where documents run in bf16 (faster there), one where they run in f32 (a
    second f32 copy of the model cost 230 MB for 1-2 %: index/runtimes.py ``F32_LANES``)."""
    if usable_cores() < 2:
        pytest.skip("one core: OpenVINO runs one lane")
    precision = embedder.runtime.precision
    assert embedder.lanes == (runtimes.LANES if precision == "bf16" else runtimes.F32_LANES) == (
        2 if precision == "bf16" else 1)


@pytest.fixture()
def two_lanes(monkeypatch: pytest.MonkeyPatch):
    """The default embedder with two document lanes on any CPU (bf16 ones have them anyway)."""
    monkeypatch.setattr(runtimes, "F32_LANES", 2)
    monkeypatch.setattr(embeddings, "_CACHE", {})  # a new embedder, not the cached one-lane one
    embedder = make_embedder(load_config(".").settings.embedding)
    yield embedder
    embedder.close()


def test_two_document_lanes_embed_two_batches_at_once_with_the_vectors_of_one_at_a_time(two_lanes) -> None:
    if usable_cores() < 2:
        pytest.skip("one core: OpenVINO runs one lane")
    embedder = two_lanes
    assert embedder.lanes == 2
    free = embedder._runner._documents()  # the lanes: each a compiled model on one thread and its request
    active, most = [0], [0]
    guard = threading.Lock()

    class Counting:  # passes every call to the real request, counting the calls running at once
        def __init__(self, request):
            self.request = request

        def infer(self, feeds):
            with guard:
                active[0] += 1
                most[0] = max(most[0], active[0])
            try:
                return self.request.infer(feeds)
            finally:
                with guard:
                    active[0] -= 1

    lanes = [free.get() for _ in range(2)]
    for compiled, request in lanes:
        free.put((compiled, Counting(request)))
    try:
        calls = [_long_texts(4) for _ in range(4)]  # more calls than lanes, kept few: CI time
        together = list(vectors_phase.embed_here(embedder, calls))
        assert most[0] == 2
        for call, vectors in zip(calls, together):
            assert np.array_equal(vectors, embedder.embed_documents(call))
        # one call of two batches (embedding.batch_size texts each) spreads them too
        most[0] = 0
        texts = _long_texts(2 * embedder.batch_size)
        spread = embedder.embed_documents(texts)
        assert most[0] == 2
        half = embedder.batch_size  # the same two batches, one at a time
        assert np.array_equal(spread, np.vstack([embedder.embed_documents(texts[:half]), embedder.embed_documents(texts[half:])]))
    finally:
        for _ in range(2):
            free.get()
        for lane in lanes:
            free.put(lane)

