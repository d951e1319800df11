"""Embedding runtimes side by side: OpenVINO (bf16, f32) against onnxruntime on the same texts.

The same N chunks of the shared docs corpus (parsed and chunked by the project's own
parsers, embedded as the pipeline embeds them: heading, blank line, text) and the same
short queries go through every runtime setting in one run. Each setting runs in its own
subprocess, so its peak RSS is its own, and settings are interleaved round by round, so a
change of machine load hits them alike. Reported per setting: load time, indexing
throughput (chunks/s on wall and CPU time), short-query latency p50/p95 (warm, and the
first time each query is seen), peak RSS, and
agreement with the first setting (the reference, onnxruntime): min/mean cosine of the
chunk vectors and the query vectors, and how much of each query's dense top 10 over the
N chunks stays the same.

    python bench/embed_runtimes.py [--n 800] [--queries 100] [--rounds 2] [--work DIR]
        [--settings onnxruntime:t2,openvino:f32:t2,openvino:bf16:t2,...] [--out FILE]

A setting is RUNTIME[:PRECISION][:tTHREADS], e.g. ``openvino:bf16:t1``; ``openvino`` alone
is the default (bf16 documents where the CPU has it, f32 queries on one thread).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from _common import CORPORA, context, cpu_seconds, emit, load_average, peak_rss_mb, percentile, work_dir

from athena_lab.settings import IndexSettings
from athena_lab.index.embeddings import minilm_paths, OnnxEmbedder
from athena_lab.ingest.chunking import chunk_document
from athena_lab.ingest.discover import discover
from athena_lab.ingest.pipeline import parser_for, read_text
from athena_lab.ingest.vectors import EMBED_BATCH

DEFAULT_SETTINGS = "onnxruntime:t2,onnxruntime:t1,openvino:t2,openvino:t1,openvino:bf16:t2,openvino:f32:t2"


def docs_texts(root: Path, n: int, queries: int) -> tuple[list[str], list[str]]:
    """N chunk texts from random files of the docs corpus, and short queries (section titles)."""
    files = [f for f in discover(root, IndexSettings()).files if f.doc_kind != "pdf"]
    random.Random(0).shuffle(files)
    texts: list[str] = []
    titles: list[str] = []
    for f in files:
        module = parser_for(f.doc_kind)
        if module is None:
            continue
        text, _ = read_text(f.abs_path)
        doc = module.parse(text, f.path)
        for c in chunk_document(doc):
            texts.append(c.embedding_text(doc.title))
            title = c.heading_path[-1].strip() if c.heading_path else ""
            if 2 <= len(title.split()) <= 8 and title not in titles:
                titles.append(title)
        if len(texts) >= n:
            break
    return texts[:n], titles[:queries]


def parse_setting(spec: str) -> dict[str, Any]:
    parts = spec.split(":")
    out = {"runtime": parts[0], "precision": "auto", "threads": 0}
    for part in parts[1:]:
        if part in ("bf16", "f32", "auto"):
            out["precision"] = part
        elif part[:1] == "t" and part[1:].isdigit():
            out["threads"] = int(part[1:])
        else:
            raise SystemExit(f"--settings {spec!r}: unknown part {part!r}")
    return out


def worker(spec: str, work: Path, tag: str) -> dict[str, Any]:
    """One setting in this (fresh) process: load, embed the chunks, time the queries."""
    data = json.loads((work / "texts.json").read_text(encoding="utf-8"))
    texts, queries = data["texts"], data["queries"]
    model, tokenizer = minilm_paths()
    t0, c0 = time.perf_counter(), cpu_seconds()
    embedder = OnnxEmbedder(model, tokenizer, name="all-MiniLM-L6-v2-int8", dimensions=384,
                            **parse_setting(spec))
    load_s, load_cpu = time.perf_counter() - t0, cpu_seconds() - c0
    rss_loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    embedder.embed_documents(texts[:16])  # first shapes compiled, pools allocated
    # As the pipeline calls it: shortest first, EMBED_BATCH texts per call.
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    docs = np.zeros((len(texts), embedder.dimensions), dtype=np.float32)
    load_before = load_average()
    t0, c0 = time.perf_counter(), cpu_seconds()
    for start in range(0, len(order), EMBED_BATCH):
        part = order[start:start + EMBED_BATCH]
        docs[part] = embedder.embed_documents([texts[i] for i in part])
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    # Pass 1 meets each query (and its token length) for the first time, as a fresh process
    # does; passes 2-3 are warm, as in a long-running server or notebook.
    first, walls, cpus, qvecs = [], [], [], []
    for n_pass in range(3):
        for q in queries:
            t1, c1 = time.perf_counter(), cpu_seconds()
            vector = embedder.embed_query(q)
            ms, cpu_ms = (time.perf_counter() - t1) * 1e3, (cpu_seconds() - c1) * 1e3
            if n_pass == 0:
                first.append(ms)
                qvecs.append(vector)
            else:
                walls.append(ms)
                cpus.append(cpu_ms)
    np.savez(work / f"vectors-{tag}.npz", docs=docs, queries=np.vstack(qvecs))
    return {"setting": spec, "runtime": embedder.runtime.describe(),
            "load_s": round(load_s, 2), "load_cpu_s": round(load_cpu, 2),
            "chunks_per_s": round(len(texts) / wall, 2), "chunks_per_cpu_s": round(len(texts) / cpu, 2),
            "embed_wall_s": round(wall, 1), "embed_cpu_s": round(cpu, 1),
            "query_p50_ms": round(percentile(walls, 50), 2), "query_p95_ms": round(percentile(walls, 95), 2),
            "query_cpu_p50_ms": round(percentile(cpus, 50), 2),
            "query_first_p50_ms": round(percentile(first, 50), 2),
            "rss_after_load_mb": round(rss_loaded), "peak_rss_mb": round(peak_rss_mb()),
            "load_average": f"{load_before} → {load_average()}"}


def agreement(ref: dict[str, np.ndarray], other: dict[str, np.ndarray], k: int = 10) -> dict[str, float]:
    """Cosine of each vector with its reference twin, and dense top-k overlap over the chunks."""
    doc_cos = (ref["docs"] * other["docs"]).sum(axis=1)
    query_cos = (ref["queries"] * other["queries"]).sum(axis=1)

    def top(queries: np.ndarray, docs: np.ndarray) -> np.ndarray:
        return np.argsort(-(queries @ docs.T), axis=1, kind="stable")[:, :k]

    want = top(ref["queries"], ref["docs"])
    same = [top(other["queries"], other["docs"]), top(other["queries"], ref["docs"])]
    overlap = [float(np.mean([len(set(a) & set(b)) / k for a, b in zip(want, got)])) for got in same]
    top1 = float(np.mean(want[:, 0] == same[0][:, 0]))
    return {"doc_min_cosine": round(float(doc_cos.min()), 6), "doc_mean_cosine": round(float(doc_cos.mean()), 6),
            "query_min_cosine": round(float(query_cos.min()), 6),
            f"top{k}_overlap": round(overlap[0], 4), "top1_same": round(top1, 4),
            f"top{k}_overlap_cached_docs": round(overlap[1], 4)}


def padding(texts: list[str]) -> dict[str, float]:
    """Share of real tokens in the padded batches the pipeline and the embedder now form."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(minilm_paths()[1]))
    tokenizer.enable_truncation(max_length=256)
    tokenizer.no_padding()
    lengths = [len(e.ids) for e in tokenizer.encode_batch(texts)]

    def real_share(calls: list[list[int]], by_tokens: bool) -> float:
        real = padded = 0
        for call in calls:
            call = sorted(call, key=lambda i: lengths[i] if by_tokens else len(texts[i]))
            for s in range(0, len(call), 16):
                batch = [lengths[i] for i in call[s:s + 16]]
                real, padded = real + sum(batch), padded + max(batch) * len(batch)
        return round(real / padded, 3)

    in_order = list(range(len(texts)))
    by_chars = sorted(in_order, key=lambda i: len(texts[i]))
    calls = lambda order: [order[s:s + EMBED_BATCH] for s in range(0, len(order), EMBED_BATCH)]  # noqa: E731
    return {"before (calls in index order, sorted by characters)": real_share(calls(in_order), False),
            "now (calls shortest first, sorted by tokens)": real_share(calls(by_chars), True),
            "truncated_at_256_tokens": sum(n >= 256 for n in lengths)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=str(CORPORA / "docs"), help="corpus to take chunks from (read only)")
    ap.add_argument("--n", type=int, default=800, help="chunks to embed")
    ap.add_argument("--queries", type=int, default=100, help="short queries to time")
    ap.add_argument("--rounds", type=int, default=2, help="times each setting runs (interleaved)")
    ap.add_argument("--settings", default=DEFAULT_SETTINGS, help="comma-separated; the first is the reference")
    ap.add_argument("--work", help="where texts and vectors go")
    ap.add_argument("--out", help="also write the JSON result here")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--tag", help=argparse.SUPPRESS)
    args = ap.parse_args()
    work = work_dir(args.work, "embed-runtimes")
    if args.worker:
        print(json.dumps(worker(args.worker, work, args.tag)))
        return
    result: dict[str, Any] = {"benchmark": "embed_runtimes", **context()}
    texts, queries = docs_texts(Path(args.root), args.n, args.queries)
    (work / "texts.json").write_text(json.dumps({"texts": texts, "queries": queries}), encoding="utf-8")
    result.update(chunks=len(texts), mean_chars=round(statistics.mean(map(len, texts))),
                  queries=len(queries), padding=padding(texts))
    specs = [s.strip() for s in args.settings.split(",") if s.strip()]
    runs: dict[str, list[dict[str, Any]]] = {s: [] for s in specs}
    for rnd in range(args.rounds):
        for n, spec in enumerate(specs):
            tag = f"{n}-r{rnd}"
            out = subprocess.run([sys.executable, __file__, "--worker", spec, "--work", str(work), "--tag", tag],
                                 capture_output=True, text=True)
            if out.returncode != 0:
                runs[spec].append({"error": out.stderr.strip().splitlines()[-1:]})
                print(f"{spec}: failed: {out.stderr.strip()[-500:]}", file=sys.stderr)
                continue
            row = json.loads(out.stdout.strip().splitlines()[-1])
            row["tag"] = tag
            runs[spec].append(row)
            print(f"round {rnd} {spec}: {row['chunks_per_s']} chunks/s, {row['chunks_per_cpu_s']}/CPU-s, "
                  f"query p50 {row['query_p50_ms']} ms, peak {row['peak_rss_mb']} MB, load {row['load_average']}",
                  file=sys.stderr, flush=True)
    result["settings"] = summarise(specs, runs, work)
    result["load_average_after"] = load_average()
    emit(result, args.out)


def summarise(specs: list[str], runs: dict[str, list[dict[str, Any]]], work: Path) -> list[dict[str, Any]]:
    """Per setting: medians over rounds, and speed ratios to the reference *within* each round."""
    ref_spec = specs[0]
    ref_by_round = {r["tag"].split("-")[1]: r for r in runs[ref_spec] if "tag" in r}
    ref_vectors = None
    if ref_by_round:
        first = next(iter(ref_by_round.values()))
        ref_vectors = dict(np.load(work / f"vectors-{first['tag']}.npz"))
    out = []
    for spec in specs:
        ok = [r for r in runs[spec] if "tag" in r]
        if not ok:
            out.append({"setting": spec, "error": runs[spec][0].get("error") if runs[spec] else "not run"})
            continue
        med = lambda key: round(statistics.median(r[key] for r in ok), 2)  # noqa: E731
        row: dict[str, Any] = {"setting": spec, "runtime": ok[0]["runtime"], "rounds": len(ok)}
        for key in ("chunks_per_s", "chunks_per_cpu_s", "query_p50_ms", "query_p95_ms", "query_cpu_p50_ms",
                    "query_first_p50_ms", "load_s", "load_cpu_s", "rss_after_load_mb"):
            row[key] = med(key)
        row["peak_rss_mb"] = max(r["peak_rss_mb"] for r in ok)
        ratios: dict[str, list[float]] = {"chunks_per_s": [], "chunks_per_cpu_s": [], "query_p50_ms": [],
                                          "query_cpu_p50_ms": []}
        for r in ok:
            ref = ref_by_round.get(r["tag"].split("-")[1])
            if ref:
                for key in ratios:
                    ratios[key].append(r[key] / ref[key] if ref[key] else float("nan"))
        row["vs_reference_same_round"] = {
            "throughput_wall": round(statistics.median(ratios["chunks_per_s"]), 2),
            "throughput_cpu": round(statistics.median(ratios["chunks_per_cpu_s"]), 2),
            "query_speedup_wall": round(1 / statistics.median(ratios["query_p50_ms"]), 2),
            "query_speedup_cpu": round(1 / statistics.median(ratios["query_cpu_p50_ms"]), 2),
        } if ratios["chunks_per_s"] else None
        if ref_vectors is not None:
            row["agreement"] = agreement(ref_vectors, dict(np.load(work / f"vectors-{ok[0]['tag']}.npz")))
        row["load_averages"] = [r["load_average"] for r in ok]
        out.append(row)
    return out


if __name__ == "__main__":
    main()
