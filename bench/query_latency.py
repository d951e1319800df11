"""Warm hybrid query latency through the Python API, on a real index and at 100k chunks.

Real index: the docs index that bench/indexing.py builds; ~100 queries made from its own
section headings (what a user types when they half-remember a page), each searched once
after a warm-up, timing ``Workspace.search`` end to end (query embedding, Tantivy, hnswlib,
fusion, catalog reads).

100k chunks: a folder of synthetic Markdown files whose sections are sentences sampled
from the real corpora, indexed by the real pipeline with ``embedding.provider = none``
(embedding 100k chunks here would take hours) for the lexical half; the vector half is
timed separately on a 100k-vector hnswlib graph built through ``VectorIndex`` from
perturbed copies of the real index's vectors (clustered like real embeddings, unlike
uniform random ones), with the real query embeddings. Hybrid at 100k is reported as the
sum of the measured parts.

    python bench/query_latency.py [--work DIR] [--synthetic-chunks 100000]
"""

from __future__ import annotations

import argparse
import random
import re
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np
from _common import CORPORA, context, emit, load_average, percentile, work_dir

from athena_lab.evaluation import read_jsonl
from athena_lab.index.vectors import VectorIndex
from athena_lab.workspace import Workspace

SECTIONS_PER_FILE = 10
SENTENCES_PER_SECTION = 5


def heading_queries(ws: Workspace, n: int, seed: int = 0) -> list[str]:
    """Distinct last heading components of real chunks, lower-cased like typed queries."""
    rows = ws.store.catalog.conn.execute("SELECT DISTINCT heading FROM chunks WHERE heading != ''")
    leaves = sorted({h.split(" > ")[-1].strip().lower() for (h,) in rows})
    leaves = [h for h in leaves if 2 <= len(h.split()) <= 8]
    return random.Random(seed).sample(leaves, min(n, len(leaves)))


def timed(fn: Callable[[str], Any], queries: list[str], warmup: int = 10) -> list[tuple[float, float]]:
    """(wall ms, CPU ms) per query; CPU time is the figure that survives a busy machine."""
    for q in queries[:warmup]:
        fn(q)
    out = []
    for q in queries:
        t0, c0 = time.perf_counter(), time.process_time()
        fn(q)
        out.append(((time.perf_counter() - t0) * 1e3, (time.process_time() - c0) * 1e3))
    return out


def summarise(samples: list[tuple[float, float]]) -> dict[str, float]:
    wall, cpu = [w for w, _ in samples], [c for _, c in samples]
    return {"queries": len(wall), "p50_ms": round(percentile(wall, 50), 2),
            "p95_ms": round(percentile(wall, 95), 2), "mean_ms": round(sum(wall) / len(wall), 2),
            "cpu_p50_ms": round(percentile(cpu, 50), 2), "cpu_p95_ms": round(percentile(cpu, 95), 2),
            "load_average": load_average()}


def real_index(index_dir: Path, root: Path, n: int) -> tuple[dict[str, Any], Workspace]:
    ws = Workspace(root, index_dir)
    queries = heading_queries(ws, n)
    parts: dict[str, list[float]] = {"lexical": [], "vector": [], "fuse": []}

    def search(q: str) -> None:
        result = ws.search(q)
        for key in parts:
            parts[key].append(result.timings_ms.get(key, 0.0))

    out = {"hybrid": summarise(timed(search, queries)),
           "lexical_only": summarise(timed(lambda q: ws.search(q, mode="lexical"), queries)),
           "chunks": ws.store.catalog.counts()["chunks"], "sample_queries": queries[:5]}
    warm = {k: v[-len(queries):] for k, v in parts.items()}
    out["hybrid_parts_p50_ms"] = {k: round(percentile(v, 50), 2) for k, v in warm.items()}
    out["degraded"] = ws.search(queries[0]).degraded
    return out, ws


def sentences(limit: int = 200_000) -> list[str]:
    """Sentences of the real corpora (SciFact abstracts and the docs' prose)."""
    out = []
    for doc in read_jsonl(CORPORA / "scifact" / "corpus.jsonl"):
        out += [s.strip() for s in re.split(r"(?<=[.!?])\s+", doc.get("text") or "") if len(s) > 40]
    for path in sorted((CORPORA / "docs").rglob("*.md")):
        text = path.read_text(encoding="utf-8", errors="replace")
        out += [s.strip() for s in re.split(r"(?<=[.!?])\s+", re.sub(r"\s+", " ", text))
                if 40 < len(s) < 400 and "`" not in s]
    return out[:limit]


def write_synthetic(folder: Path, chunks: int, pool: list[str], seed: int = 0) -> list[str]:
    """Files of ``SECTIONS_PER_FILE`` sections, each one chunk; returns some section headings."""
    rng = random.Random(seed)
    headings = []
    folder.mkdir(parents=True, exist_ok=True)
    for f in range(chunks // SECTIONS_PER_FILE):
        parts = [f"# Synthetic page {f}\n"]
        for _ in range(SECTIONS_PER_FILE):
            heading = " ".join(rng.choice(pool).split()[:rng.randint(2, 6)]).strip(".,;:")
            headings.append(heading)
            body = " ".join(rng.choice(pool) for _ in range(SENTENCES_PER_SECTION))
            parts.append(f"## {heading}\n\n{body}\n")
        (folder / f"page{f:06d}.md").write_text("\n".join(parts), encoding="utf-8")
    return headings


def synthetic_lexical(work: Path, chunks: int) -> tuple[dict[str, Any], list[str]]:
    folder = work / f"synthetic-{chunks}"
    index_dir = work / f"synthetic-{chunks}-index"
    rng = random.Random(1)
    if not folder.is_dir():
        headings = write_synthetic(folder, chunks, sentences())
    else:
        headings = [line[3:].strip() for p in sorted(folder.glob("page0000*.md"))
                    for line in p.read_text().splitlines() if line.startswith("## ")]
    ws = Workspace(folder, index_dir, overrides={"embedding.provider": "none"})
    t0 = time.perf_counter()
    summary = ws.index()
    queries = [h.lower() for h in rng.sample(headings, min(100, len(headings)))]
    out = {"chunks": ws.store.catalog.counts()["chunks"], "files": summary.new + summary.unchanged,
           "index_seconds": round(time.perf_counter() - t0, 1),
           "lexical_search": summarise(timed(lambda q: ws.search(q, mode="lexical"), queries))}
    ws.close()
    return out, queries


def synthetic_vectors(work: Path, base: Workspace, count: int, queries: list[str]) -> dict[str, Any]:
    """A ``count``-vector graph of noisy copies of real vectors, searched with real query vectors."""
    embedder = base.embedder()
    if embedder is None:
        return {"skipped": f"no embedder ({base.embedder_error})"}
    real = VectorIndex(base.index_dir / "vectors", embedder.key, embedder.dimensions)
    graph = real.graph()
    if graph is None or graph.element_count == 0:
        return {"skipped": "the docs index has no vectors"}
    seeds = graph.get_items(graph.get_ids_list()[:5000], return_type="numpy")
    rng = np.random.default_rng(0)
    directory = work / f"synthetic-vectors-{count}"
    index = VectorIndex(directory, "synthetic", embedder.dimensions, ef=100)
    t0 = time.perf_counter()
    if index.live_count() < count:
        for start in range(index.live_count(), count, 10_000):
            n = min(10_000, count - start)
            data = seeds[rng.integers(0, len(seeds), n)] + rng.normal(0, 0.03, (n, embedder.dimensions))
            data /= np.linalg.norm(data, axis=1, keepdims=True)
            index.update({start + i: v.astype(np.float32) for i, v in enumerate(data)}, set())
    build = time.perf_counter() - t0
    qvecs = {q: embedder.embed_query(q) for q in queries}
    knn = timed(lambda q: index.search(qvecs[q], 50), queries)
    embed = timed(embedder.embed_query, queries)
    return {"vectors": index.live_count(), "build_seconds": round(build, 1),
            "knn_50": summarise(knn), "query_embedding": summarise(embed)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=str(CORPORA / "docs"))
    ap.add_argument("--work", help="the work dir of bench/indexing.py (its index is reused)")
    ap.add_argument("--index-dir", help="time this index instead (e.g. the SciFact one; --root is its folder)")
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--synthetic-chunks", type=int, default=100_000, help="0 to skip")
    ap.add_argument("--out", help="also write the JSON result here")
    args = ap.parse_args()
    work = work_dir(args.work, "docs")
    result: dict[str, Any] = {"benchmark": "query_latency", **context()}
    index_dir = Path(args.index_dir) if args.index_dir else work / "index"
    result["index_dir"] = str(index_dir)
    result["real_index"], ws = real_index(index_dir, Path(args.root), args.queries)
    if args.synthetic_chunks:
        lexical, queries = synthetic_lexical(work, args.synthetic_chunks)
        vectors = synthetic_vectors(work, ws, args.synthetic_chunks, queries)
        parts = [lexical["lexical_search"]["p50_ms"], vectors.get("knn_50", {}).get("p50_ms", 0.0),
                 vectors.get("query_embedding", {}).get("p50_ms", 0.0)]
        result["synthetic"] = {**lexical, "vector": vectors,
                               "hybrid_estimate_p50_ms": round(sum(parts), 2)}
    ws.close()
    result["load_average_end"] = load_average()
    emit(result, args.out)


if __name__ == "__main__":
    main()
