"""Tune search settings on the SciFact TRAIN split (never on test).

The index built by bench/scifact.py is searched once per query for each retriever's raw
ranking (BM25 at each heading boost tried, exact identifiers, vectors); the rankings are
cached, and reciprocal-rank fusion with each candidate weight / rrf_k is replayed offline
with the formula of ``HybridSearcher._fuse``, which makes a grid of hundreds of settings
cost seconds. The winner must then be confirmed with the real search path:
``python bench/scifact.py --split train --set search.KEY=VALUE``.

    python bench/tune_scifact.py [--work DIR]
"""

from __future__ import annotations

import argparse
import itertools
import json
from pathlib import Path
from typing import Any

from _common import CORPORA, context, emit, work_dir
from scifact import load_split

from athena_lab.settings import SearchSettings
from athena_lab.evaluation import beir_scores
from athena_lab.search.fusion import fuse as product_fuse, order
from athena_lab.search.grep import query_identifiers
from athena_lab.workspace import Workspace

DEPTH = 300  # what a k=100 evaluation search asks each retriever for
HEADING_BOOSTS = (0.125, 0.25, 0.5, 1.0, 2.0)
RRF_KS = (10, 20, 30, 60, 100)
VECTOR_WEIGHTS = (0.6, 0.8, 1.0, 1.25, 1.5, 2.0)


def raw_rankings(ws: Workspace, queries: dict[str, str]) -> dict[str, dict[str, list[str]]]:
    """Per query, each retriever's chunk ids in rank order (BM25 once per heading boost)."""
    lex = ws.store.lexical
    out: dict[str, dict[str, list[str]]] = {}
    for qid, text in queries.items():
        lists = {f"bm25@{b}": [h.chunk_id for h in lex.search(text, DEPTH, heading_boost=b,
                                                             path_boost=ws.config.settings.search.path_boost)]
                 for b in HEADING_BOOSTS}
        idents = query_identifiers(text)
        lists["ident"] = [h.chunk_id for h in lex.search_identifiers(idents, DEPTH)] if idents else []
        lists["vector"] = [h.chunk.chunk_id for h in ws.search(text, k=DEPTH, mode="vector").hits]
        out[qid] = lists
    return out


def fuse(lists: dict[str, list[str]], weights: dict[str, float], rrf_k: int) -> list[str]:
    """The product's fusion (athena_lab.search.fusion) over the retrievers named in ``weights``."""
    return order(product_fuse({n: lists.get(n, []) for n in weights}, weights, rrf_k))


def to_docs(chunk_ids: list[str], doc_of: dict[str, str], depth: int = 100) -> list[str]:
    seen: dict[str, None] = {}
    for cid in chunk_ids:
        seen.setdefault(doc_of[cid], None)
        if len(seen) == depth:
            break
    return list(seen)


def grid(raw: dict[str, dict[str, list[str]]], qrels: dict[str, dict[str, int]],
         doc_of: dict[str, str]) -> list[dict[str, Any]]:
    rows = []
    for boost in HEADING_BOOSTS:
        lexical = {q: to_docs(fuse(l, {f"bm25@{boost}": 1.0, "ident": 1.0}, 60), doc_of) for q, l in raw.items()}
        rows.append({"mode": "lexical", "heading_boost": boost, **beir_scores(lexical, qrels)})
    for boost, rrf_k, vw in itertools.product(HEADING_BOOSTS, RRF_KS, VECTOR_WEIGHTS):
        weights = {f"bm25@{boost}": 1.0, "ident": 1.0, "vector": vw}
        fused = {q: to_docs(fuse(l, weights, rrf_k), doc_of) for q, l in raw.items()}
        rows.append({"mode": "hybrid", "heading_boost": boost, "rrf_k": rrf_k,
                     "vector_weight": vw, **beir_scores(fused, qrels)})
    return rows


def depth_check(raw: dict[str, dict[str, list[str]]], qrels: dict[str, dict[str, int]],
                doc_of: dict[str, str], best: dict[str, Any]) -> list[dict[str, Any]]:
    """The best setting with each retriever cut to N candidates (a k=10 search asks for 50)."""
    weights = {f"bm25@{best['heading_boost']}": 1.0, "ident": 1.0, "vector": best["vector_weight"]}
    rows = []
    for depth in (20, 30, 50, 100, 300):
        cut = {q: {name: ids[:depth] for name, ids in lists.items()} for q, lists in raw.items()}
        fused = {q: to_docs(fuse(l, weights, best["rrf_k"]), doc_of) for q, l in cut.items()}
        rows.append({"candidates": depth, **beir_scores(fused, qrels)})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default=str(CORPORA / "scifact"))
    ap.add_argument("--work", help="the --work dir of bench/scifact.py")
    ap.add_argument("--split", default="train")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--out")
    args = ap.parse_args()
    if args.split == "test":
        raise SystemExit("tune on train; test is for reporting only")
    work = work_dir(args.work, "scifact")
    queries, qrels = load_split(Path(args.corpus), args.split)
    ws = Workspace(work / "corpus", work / "index")
    cache = work / f"raw-rankings-{args.split}.json"
    if cache.is_file():
        raw = json.loads(cache.read_text())
    else:
        raw = raw_rankings(ws, queries)
        cache.write_text(json.dumps(raw))
    doc_of = {cid: Path(path).stem for cid, path in ws.store.catalog.conn.execute(
        "SELECT chunk_id, path FROM chunks")}
    rows = grid(raw, qrels, doc_of)
    rows.sort(key=lambda r: r["ndcg@10"], reverse=True)
    current = SearchSettings()
    defaults = [r for r in rows if r["heading_boost"] == current.heading_boost
                and r.get("rrf_k", current.rrf_k) == current.rrf_k
                and r.get("vector_weight", current.vector_weight) == current.vector_weight]
    hybrid = [r for r in rows if r["mode"] == "hybrid"]
    emit({"benchmark": "scifact-tuning", "split": args.split, **context(), "queries": len(queries),
          "current_defaults": defaults,
          "best_lexical": [r for r in rows if r["mode"] == "lexical"][:3],
          "best_hybrid": hybrid[:args.top],
          "candidate_depth_at_best": depth_check(raw, qrels, doc_of, hybrid[0])}, args.out)


if __name__ == "__main__":
    main()
