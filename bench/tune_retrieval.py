"""Tune fusion on the DEV split of the docs and PDF question sets (refuses test).

Each retriever's ranking is computed once per dev question through the product's own
``HybridSearcher.rankings``; fusion (``athena_lab.search.fusion``) is then replayed offline
for every combination in the grid, so hundreds of settings cost seconds. Confirm a winner
with ``bench/retrieval.py --split dev --set search.KEY=VALUE`` before changing a default,
and only then look at test.

    python bench/tune_retrieval.py --work /tmp/b/retrieval --sets docs,pdf
"""

from __future__ import annotations

import argparse
import itertools
from typing import Any

from _common import context, emit, work_dir
from retrieval import SETS, open_index

from athena_lab.evaluation import chunk_span, load_questions, question_score
from athena_lab.search.fusion import fuse, lift_by_file, order
from athena_lab.settings import SearchSettings
from athena_lab.language import content_words, query_language

GRID = {
    "rrf_k": [5, 10, 20, 60],
    "lexical_weight": [0.5, 0.75, 1.0],
    "vector_weight": [1.0, 1.5, 2.0],
    "grep_weight": [0.5, 1.0],
    "agreement": [0.0, 0.15, 0.3],
    "file_lift": [0.0, 0.1, 0.25],
    "foreign_lexical": [0.0, 0.25, 0.5, 1.0],
    "multilingual_weight": [1.0, 2.0, 3.0],
}
# --foreign: only the weights that questions in other languages see, the rest at the defaults.
FOREIGN_GRID = {"rrf_k": [20], "lexical_weight": [0.5], "vector_weight": [1.0], "grep_weight": [1.0],
                "agreement": [0.0], "file_lift": [0.0], "foreign_lexical": [0.0, 0.25, 0.5, 1.0],
                "multilingual_weight": [0.5, 1.0, 1.5, 2.0, 3.0]}
DEPTH = 50


def cached_rankings(set_name: str, work, rows: list[dict[str, Any]]) -> tuple[list[dict], dict]:
    root = SETS[set_name][1]
    ws = open_index(set_name, root, work / set_name / "index", {})
    searcher = ws.searcher()
    lists, spans = [], {}
    for row in rows:
        ranked = searcher.rankings(row["question"], DEPTH)
        lists.append(ranked)
        ids = {cid for ids in ranked.values() for cid in ids}
        for cid, chunk in ws.store.catalog.chunks_by_id(list(ids - spans.keys())).items():
            spans[cid] = chunk_span(chunk)
    ws.close()
    return lists, spans


def replay(rows, lists, spans, p: dict[str, float]) -> dict[str, float]:
    total = {"recall@5": 0.0, "recall@1": 0.0, "mrr@10": 0.0}
    for row, ranked in zip(rows, lists):
        language = query_language(row["question"])
        long = len(content_words(row["question"], language)) > SearchSettings().long_question_words
        # lexical_weight here is the product's long_question_lexical_weight; short questions keep 1.0.
        lw = (p["lexical_weight"] if long else 1.0) * (p["foreign_lexical"] if language != "en" else 1.0)
        weights = {"bm25": lw, "vector": p["vector_weight"], "ident": p["grep_weight"], "grep": p["grep_weight"],
                   "multilingual": p["multilingual_weight"]}
        scores = fuse(ranked, weights, p["rrf_k"], agreement=p["agreement"])
        scores = lift_by_file(scores, lambda c: spans[c].path if c in spans else None, p["file_lift"])
        s = question_score([spans[c] for c in order(scores)[:10] if c in spans], row["gold"])
        for m in total:
            total[m] += s[m]
    return {m: round(v / len(rows), 4) for m, v in total.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--work", default=None)
    ap.add_argument("--sets", default="docs")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--foreign", action="store_true", help="tune only the other-language weights, on those questions")
    args = ap.parse_args()
    work = work_dir(args.work, "retrieval")
    result: dict[str, Any] = context()
    for set_name in args.sets.split(","):
        rows = load_questions(SETS[set_name][0], "dev")
        grid = FOREIGN_GRID if args.foreign else GRID
        if args.foreign:
            rows = [r for r in rows if r.get("lang", "en") != "en"]
        lists, spans = cached_rankings(set_name, work, rows)
        keys = list(grid)
        table = []
        for values in itertools.product(*(grid[k] for k in keys)):
            p = dict(zip(keys, values))
            table.append({**p, **replay(rows, lists, spans, p)})
        table.sort(key=lambda r: (r["recall@5"], r["mrr@10"]), reverse=True)
        result[set_name] = {"questions": len(rows), "best": table[: args.top]}
    emit(result, None)


if __name__ == "__main__":
    main()
