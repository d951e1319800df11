"""Indexing throughput on a real documentation folder, against the embedder's own speed.

Embedding is the slow part of indexing, so the useful question is how close the whole
pipeline (discover, parse, chunk, Tantivy, SQLite, hnswlib) comes to onnxruntime embedding
the very same chunk texts with nothing else going on. The folder is read in place and the
index goes to a temporary directory, so a read-only corpus is never written to.

    python bench/indexing.py [--root DIR] [--work DIR] [--raw-sample N]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from _common import (CORPORA, context, cpu_seconds, embedding_jobs, emit, load_average, parse_sets,
                     peak_rss_mb, work_dir)

from athena_lab.index.embeddings import make_embedder
from athena_lab.workspace import Workspace


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


def raw_rate(ws: Workspace, sample: int) -> dict[str, Any]:
    """onnxruntime alone on the same texts (a random sample of them if ``sample``)."""
    texts = list(embedding_jobs(ws.store.catalog).values())
    if sample and sample < len(texts):
        texts = random.Random(0).sample(texts, sample)
    embedder = make_embedder(ws.config.settings.embedding)
    assert embedder is not None
    before = load_average()
    t0, c0 = time.perf_counter(), cpu_seconds()
    for start in range(0, len(texts), 64):  # the pipeline's batch size, so padding is comparable
        embedder.embed_documents(texts[start:start + 64])
    seconds, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    return {"texts": len(texts), "seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1),
            "chunks_per_s": round(len(texts) / seconds, 2),
            "chunks_per_cpu_s": round(len(texts) / cpu, 2),
            "load_average_before": before, "load_average_after": load_average()}


def noop_cli_seconds(root: Path, index_dir: Path, overrides: dict[str, str]) -> tuple[float, float]:
    """A no-op re-index as a user runs it: a fresh `athena index` process, start to exit."""
    athena = shutil.which("athena") or str(Path(sys.executable).with_name("athena"))
    env = {**os.environ, **{f"ATHENA_{k.replace('.', '__').upper()}": v for k, v in overrides.items()}}
    t0, c0 = time.perf_counter(), cpu_seconds(children=True)
    subprocess.run([athena, "index", str(root), "--index-dir", str(index_dir), "--json"],
                   check=True, capture_output=True, env=env)
    return round(time.perf_counter() - t0, 2), round(cpu_seconds(children=True) - c0, 2)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=str(CORPORA / "docs"), help="folder to index (read only)")
    ap.add_argument("--work", help="where the index goes (default: a temp dir; reused by query_latency.py)")
    ap.add_argument("--raw-sample", type=int, default=0,
                    help="embed only N random chunk texts for the raw rate (0: all of them)")
    ap.add_argument("--fresh", action="store_true", help="delete an existing index first")
    ap.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE",
                    help="config override, e.g. embedding.provider=none for the lexical half alone")
    ap.add_argument("--out", help="also write the JSON result here")
    args = ap.parse_args()
    overrides = parse_sets(args.set)
    root, index_dir = Path(args.root).resolve(), work_dir(args.work, "docs") / "index"
    if args.fresh and index_dir.exists():
        shutil.rmtree(index_dir)
    result: dict[str, Any] = {"benchmark": "indexing", "root": str(root), **context(),
                              "overrides": overrides}
    ws = Workspace(root, index_dir, overrides=overrides)
    clock = PhaseClock()
    t0, c0 = time.perf_counter(), cpu_seconds()
    summary = ws.index(progress=clock)
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    result["index"] = {
        "wall_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1),
        "files_indexed": summary.new + summary.changed,
        "files_failed": summary.failed, "files_pending": summary.pending, "chunks": summary.chunks,
        "embedded": summary.embedded, "chunks_per_s": round(summary.embedded / wall, 2) if wall else None,
        "chunks_per_cpu_s": round(summary.embedded / cpu, 2) if cpu else None,
        "phase_seconds": {p: clock.seconds(p) for p in ("scan", "parse", "embed")},
        "peak_rss_mb": round(peak_rss_mb()), "load_average_after": load_average()}
    if summary.embedded:
        embed_s = clock.seconds("embed")
        result["index"]["embed_phase_chunks_per_s"] = round(summary.embedded / embed_s, 1) if embed_s else None
        result["raw_onnxruntime"] = raw_rate(ws, args.raw_sample)
        raw = result["raw_onnxruntime"]["chunks_per_s"]
        result["pipeline_vs_raw"] = round(result["index"]["chunks_per_s"] / raw, 3)
        result["pipeline_vs_raw_cpu"] = round(result["index"]["chunks_per_cpu_s"]
                                              / result["raw_onnxruntime"]["chunks_per_cpu_s"], 3)
    ws.close()
    t0, c0 = time.perf_counter(), cpu_seconds()
    again = Workspace(root, index_dir, overrides=overrides).index()
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    cli_wall, cli_cpu = noop_cli_seconds(root, index_dir, overrides)
    result["noop_reindex"] = {"in_process_seconds": round(wall, 2), "in_process_cpu_seconds": round(cpu, 2),
                              "unchanged": again.unchanged, "embedded": again.embedded,
                              "cli_seconds": cli_wall, "cli_cpu_seconds": cli_cpu,
                              "load_average": load_average()}
    result["peak_rss_mb_total"] = round(peak_rss_mb())
    emit(result, args.out)


if __name__ == "__main__":
    main()
