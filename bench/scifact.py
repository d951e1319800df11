"""SciFact (BEIR) retrieval quality: athena_lab BM25, dense and hybrid next to bm25s.

The corpus is written as one Markdown file per abstract (``# title`` then the text) and
indexed ONCE by the real pipeline; the three modes only change how that index is searched.
bm25s runs in the same process on the same title+text, with its own English stopwords and
the PyStemmer Snowball stemmer when PyStemmer is installed.

    python bench/scifact.py --split test [--work DIR] [--set search.vector_weight=1.2]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any, Callable

from _common import CORPORA, context, emit, parse_sets, peak_rss_mb, work_dir

from athena_lab.evaluation import beir_scores, doc_ranking, open_beir_index, read_jsonl, read_qrels
from athena_lab.workspace import Workspace

MODES = ("lexical", "vector", "hybrid")
DEPTH = 100


def load_split(folder: Path, split: str) -> tuple[dict[str, str], dict[str, dict[str, int]]]:
    qrels = read_qrels(folder / "qrels" / f"{split}.tsv")
    queries = {q["_id"]: q["text"] for q in read_jsonl(folder / "queries.jsonl") if q["_id"] in qrels}
    return queries, qrels


def prepare(folder: Path, work: Path, overrides: dict[str, Any]) -> tuple[Workspace, dict[str, Any]]:
    """Write the corpus (first run only) and bring its index up to date."""
    ws, summary, seconds = open_beir_index(folder, work, overrides)
    info = {"index_seconds": round(seconds, 1), "files": len(list((work / "corpus").iterdir())),
            "chunks": summary.chunks, "embedded_now": summary.embedded,
            "embedder": ws.embedder().name if ws.embedder() else "none"}
    return ws, info


def run_modes(ws: Workspace, queries: dict[str, str], qrels: dict[str, dict[str, int]],
              modes: tuple[str, ...] = MODES) -> dict[str, dict[str, float]]:
    out = {}
    for mode in modes:
        t0 = time.perf_counter()
        rankings = {qid: doc_ranking(ws, text, DEPTH, mode) for qid, text in queries.items()}
        out[mode] = beir_scores(rankings, qrels)
        out[mode]["ms_per_query"] = round((time.perf_counter() - t0) * 1e3 / max(1, len(queries)), 2)
    return out


def bm25s_rankings(folder: Path, queries: dict[str, str]) -> tuple[dict[str, list[str]], str]:
    """bm25s with its defaults (Lucene BM25, k1=1.5, b=0.75), its English stopwords, Snowball."""
    import bm25s

    stemmer: Callable[[list[str]], list[str]] | None
    try:
        import Stemmer

        stemmer, stem_name = Stemmer.Stemmer("english"), "PyStemmer english (Snowball)"
    except ImportError:
        stemmer, stem_name = None, "no stemmer (PyStemmer not installed)"
    corpus = read_jsonl(folder / "corpus.jsonl")
    ids = [d["_id"] for d in corpus]
    texts = [f"{d.get('title') or ''} {d.get('text') or ''}" for d in corpus]
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False),
                    show_progress=False)
    qids = list(queries)
    tokens = bm25s.tokenize([queries[q] for q in qids], stopwords="en", stemmer=stemmer,
                            show_progress=False)
    docs, _scores = retriever.retrieve(tokens, k=DEPTH, show_progress=False, n_threads=1)
    return {q: [ids[i] for i in row] for q, row in zip(qids, docs)}, stem_name


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default=str(CORPORA / "scifact"), help="a BEIR folder")
    ap.add_argument("--split", default="test")
    ap.add_argument("--work", help="where the Markdown corpus and index live (reused when present)")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--no-bm25s", action="store_true")
    ap.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE",
                    help="config override, e.g. search.vector_weight=1.2 (repeatable)")
    ap.add_argument("--out", help="also write the JSON result here")
    args = ap.parse_args()
    folder = Path(args.corpus)
    overrides = parse_sets(args.set)
    result: dict[str, Any] = {"benchmark": "scifact", "split": args.split, **context(),
                              "overrides": overrides}
    queries, qrels = load_split(folder, args.split)
    result["queries"] = len(queries)
    ws, result["index"] = prepare(folder, work_dir(args.work, "scifact"), overrides)
    result["athena"] = run_modes(ws, queries, qrels, tuple(args.modes.split(",")))
    ws.close()
    if not args.no_bm25s:
        t0 = time.perf_counter()
        rankings, stem_name = bm25s_rankings(folder, queries)
        result["bm25s"] = {**beir_scores(rankings, qrels), "stemmer": stem_name,
                           "seconds_index_and_search": round(time.perf_counter() - t0, 1)}
    result["peak_rss_mb"] = round(peak_rss_mb())
    result["load_average_end"] = context()["load_average"]
    emit(result, args.out)


if __name__ == "__main__":
    main()
