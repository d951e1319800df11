"""Recall with and without a hypothetical passage (HyDE) from the bundled model, same run.

For each question of a retrieval question set (bench/data/docs_questions.jsonl or
pdf_questions.jsonl) on a split: the search the model path runs today (the question, plus
its English translation when it is in another language), then the same search with the
model's hypothetical passage beside them (agent/hyde.py, written from the English wording).
Prints one JSON object: recall@1/5/10, MRR and file@5 for both, overall and by language,
the seconds the passage took (median), and the load average.

    python bench/hyde.py --path $ATHENA_CORPORA/docs --index-dir /tmp/ans/doc-index \
        --questions bench/data/docs_questions.jsonl --split dev
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from _common import cap_threads, load_average


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--path", required=True)
    parser.add_argument("--index-dir", required=True)
    parser.add_argument("--questions", required=True)
    parser.add_argument("--split", default="dev")
    parser.add_argument("--model", default=None, help="a bundled model (default: the default one)")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--out", help="also write each question's ranks and passage here (JSON)")
    parser.add_argument("--threads", type=int, default=0, help="CPUs this process uses (default: all)")
    args = parser.parse_args()
    cap_threads(args.threads)

    from athena_lab.agent.hyde import hypothetical
    from athena_lab.evaluation import chunk_span, load_questions, score_questions
    from athena_lab.workspace import Workspace

    rows = load_questions(args.questions, args.split)
    if args.limit:
        rows = rows[:args.limit]
    ws = Workspace(args.path, args.index_dir)
    llm = ws.translator("local", args.model)
    passages: dict[str, str | None] = {}
    seconds: list[float] = []
    loads = [load_average()]

    def english(question: str) -> str | None:
        return ws.english(question, llm)

    def base(question: str) -> list[Any]:
        wording = english(question)
        return [chunk_span(h.chunk) for h in ws.search(question, k=10, also=[wording] if wording else None).hits]

    def with_hyde(question: str) -> list[Any]:
        wording = english(question)
        started = time.perf_counter()
        passage = passages[question] = hypothetical(llm, wording or question)
        seconds.append(time.perf_counter() - started)
        print(f"{len(seconds)}/{len(rows)} {seconds[-1]:.1f}s", file=sys.stderr, flush=True)
        also = [t for t in (wording, passage) if t]
        return [chunk_span(h.chunk) for h in ws.search(question, k=10, also=also or None).hits]

    try:
        before = score_questions(rows, base)
        after = score_questions(rows, with_hyde)
    finally:
        loads.append(load_average())
        ws.close()
    keep = ("recall@1", "recall@5", "recall@10", "mrr@10", "file@5", "questions")
    out = {"split": args.split, "questions": args.questions, "load": loads,
           "hyde_seconds_median": round(statistics.median(seconds), 2) if seconds else None,
           "without": {k: before[k] for k in keep if k in before} | {"questions": len(rows)},
           "with": {k: after[k] for k in keep if k in after} | {"questions": len(rows)},
           "by": {group: {"without": before["by"][group].get("recall@5"), "with": after["by"][group].get("recall@5"),
                          "questions": before["by"][group]["questions"]} for group in before["by"]}}
    if args.out:
        details = [{"question": d["question"], "lang": d["lang"], "without": d["first_ranks"],
                    "with": a["first_ranks"], "passage": passages.get(d["question"])}
                   for d, a in zip(before["details"], after["details"])]
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(details, fh, indent=1, ensure_ascii=False)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
