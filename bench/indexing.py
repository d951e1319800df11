"""Indexing throughput on a real documentation folder, against the embedder's own speed.

Embedding is the slow part of indexing, so the useful question is how close the whole
pipeline (discover, parse, chunk, Tantivy, SQLite, hnswlib) comes to onnxruntime embedding
the very same chunk texts with nothing else going on. The folder is read in place and the
index goes to a temporary directory, so a read-only corpus is never written to.

    python bench/indexing.py [--root DIR] [--work DIR] [--raw-sample N]
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from _common import CORPORA, context, emit, load_average, peak_rss_mb, work_dir

from athena_lab.index.embeddings import make_embedder
from athena_lab.workspace import Athena


class PhaseClock:
    """A progress callback that remembers when each pipeline phase was first and last seen."""

    def __init__(self) -> None:
        self.first: dict[str, float] = {}
        self.last: dict[str, float] = {}

    def __call__(self, phase: str, done: int, total: int) -> None:
        now = time.perf_counter()
        self.first.setdefault(phase, now)
        self.last[phase] = now

    def seconds(self, phase: str) -> float:
        return round(self.last.get(phase, 0.0) - self.first.get(phase, 0.0), 2)


def embedding_texts(ws: Athena) -> list[str]:
    """The exact strings the pipeline embeds: heading (or file title), blank line, text."""
    catalog = ws.store.catalog
    titles = {p: s.title or "" for p, s in catalog.sources().items()}
    rows = catalog.conn.execute("SELECT text_hash, text, heading, path FROM chunks")
    by_hash: dict[str, str] = {}
    for digest, text, heading, path in rows:
        head = heading or titles.get(path, "")
        by_hash.setdefault(digest, f"{head}\n\n{text}" if head else text)
    return list(by_hash.values())


def raw_rate(ws: Athena, sample: int) -> dict[str, Any]:
    """onnxruntime alone on the same texts (a random sample of them if ``sample``)."""
    texts = embedding_texts(ws)
    if sample and sample < len(texts):
        texts = random.Random(0).sample(texts, sample)
    embedder = make_embedder(ws.config.settings.embedding)
    assert embedder is not None
    before = load_average()
    t0 = time.perf_counter()
    for start in range(0, len(texts), 64):  # the pipeline's batch size, so padding is comparable
        embedder.embed_documents(texts[start:start + 64])
    seconds = time.perf_counter() - t0
    return {"texts": len(texts), "seconds": round(seconds, 1),
            "chunks_per_s": round(len(texts) / seconds, 1),
            "load_average_before": before, "load_average_after": load_average()}


def noop_cli_seconds(root: Path, index_dir: Path) -> float:
    """A no-op re-index as a user runs it: a fresh `athena index` process, start to exit."""
    athena = shutil.which("athena") or str(Path(sys.executable).with_name("athena"))
    t0 = time.perf_counter()
    subprocess.run([athena, "index", str(root), "--index-dir", str(index_dir), "--json"],
                   check=True, capture_output=True)
    return round(time.perf_counter() - t0, 2)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=str(CORPORA / "docs"), help="folder to index (read only)")
    ap.add_argument("--work", help="where the index goes (default: a temp dir; reused by query_latency.py)")
    ap.add_argument("--raw-sample", type=int, default=0,
                    help="embed only N random chunk texts for the raw rate (0: all of them)")
    ap.add_argument("--fresh", action="store_true", help="delete an existing index first")
    ap.add_argument("--out", help="also write the JSON result here")
    args = ap.parse_args()
    root, index_dir = Path(args.root).resolve(), work_dir(args.work, "docs") / "index"
    if args.fresh and index_dir.exists():
        shutil.rmtree(index_dir)
    result: dict[str, Any] = {"benchmark": "indexing", "root": str(root), **context()}
    ws = Athena(root, index_dir)
    clock = PhaseClock()
    t0 = time.perf_counter()
    summary = ws.index(progress=clock)
    wall = time.perf_counter() - t0
    result["index"] = {
        "wall_seconds": round(wall, 1), "files_indexed": summary.new + summary.changed,
        "files_failed": summary.failed, "files_pending": summary.pending, "chunks": summary.chunks,
        "embedded": summary.embedded, "chunks_per_s": round(summary.embedded / wall, 1) if wall else None,
        "phase_seconds": {p: clock.seconds(p) for p in ("scan", "parse", "embed")},
        "peak_rss_mb": round(peak_rss_mb()), "load_average_after": load_average()}
    if summary.embedded:
        embed_s = clock.seconds("embed")
        result["index"]["embed_phase_chunks_per_s"] = round(summary.embedded / embed_s, 1) if embed_s else None
        result["raw_onnxruntime"] = raw_rate(ws, args.raw_sample)
        raw = result["raw_onnxruntime"]["chunks_per_s"]
        result["pipeline_vs_raw"] = round(result["index"]["chunks_per_s"] / raw, 3)
    ws.close()
    t0 = time.perf_counter()
    again = Athena(root, index_dir).index()
    result["noop_reindex"] = {"in_process_seconds": round(time.perf_counter() - t0, 2),
                              "unchanged": again.unchanged, "embedded": again.embedded,
                              "cli_seconds": noop_cli_seconds(root, index_dir),
                              "load_average": load_average()}
    result["peak_rss_mb_total"] = round(peak_rss_mb())
    emit(result, args.out)


if __name__ == "__main__":
    main()
