"""Answers from the bundled local model beside the extractive ones, in one run (issue 20).

For each set (docs, PDFs) of `bench/data/answer_questions.jsonl` on the chosen split:
`athena eval answers` extractive, then with `--provider local` for each bundled model
asked for (default the 1.5B; `--models` adds the 0.5B); then recall of the retrieval
question sets with and without the model translating questions in other languages.
Indexes are built in `--work` (never in the corpora) unless `--docs-index`/`--pdf-index`
name existing ones. Prints one JSON object: every figure with the load average around it.

    python bench/answers_local.py --split test --docs-index /tmp/ans/doc-index --pdf-index /tmp/ans/pdf-index
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from _common import CORPORA, REPO, context, emit, load_average, work_dir

ANSWERS = REPO / "bench" / "data" / "answer_questions.jsonl"
QUESTIONS = {"docs": REPO / "bench" / "data" / "docs_questions.jsonl",
             "pdfs": REPO / "bench" / "data" / "pdf_questions.jsonl"}
KEEP = ("questions", "fact_in_answer", "fact_in_model_text", "locator_holds_sentence", "wrong_no_evidence",
        "cited_share", "unsupported_per_answer", "answers_with_citation", "seconds_median", "first_chunk_s_median")


def answers(root: Path, index: Path, set_name: str, split: str, model: str | None) -> dict[str, Any]:
    from athena_lab.answer_eval import eval_answers

    extra = {"provider": "local", "model": model} if model else {}
    result = eval_answers(ANSWERS, root=str(root), index_dir=str(index), split=split, set_name=set_name, **extra)
    out: dict[str, Any] = {k: result[k] for k in KEEP}
    out["by"] = {group: {k: row[k] for k in KEEP} for group, row in result["by"].items()}
    return out


def recall(root: Path, index: Path, set_name: str, split: str, model: str | None) -> dict[str, Any]:
    from athena_lab.evaluation import eval_questions

    extra = {"provider": "local", "model": model} if model else {}
    result = eval_questions(QUESTIONS[set_name], root=str(root), index_dir=str(index), split=split, **extra)
    return {group: {"recall@5": row["recall@5"], "questions": row["questions"]}
            for group, row in [("all", result), *result["by"].items()] if group in ("all", "lang:english",
                                                                                  "lang:other-language")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", choices=("dev", "test"), default="dev")
    ap.add_argument("--sets", default="docs,pdfs")
    ap.add_argument("--models", default="qwen2.5-coder-1.5b-instruct",
                    help="comma-separated bundled model names (qwen2.5-coder-0.5b-instruct too)")
    ap.add_argument("--docs-index", type=Path)
    ap.add_argument("--pdf-index", type=Path)
    ap.add_argument("--work")
    ap.add_argument("--out")
    args = ap.parse_args()
    work = work_dir(args.work, "answers-local")
    roots = {"docs": CORPORA / "docs", "pdfs": CORPORA / "pdfs"}
    indexes = {"docs": args.docs_index or work / "docs-index", "pdfs": args.pdf_index or work / "pdf-index"}
    result: dict[str, Any] = {**context(), "split": args.split, "answers": {}, "recall@5": {}}
    models = [m for m in args.models.split(",") if m]
    for set_name in args.sets.split(","):
        root, index = roots[set_name], indexes[set_name]
        for model in [None, *models]:
            label = model or "extractive"
            result["answers"][f"{set_name}/{label}"] = {**answers(root, index, set_name, args.split, model),
                                                        "load_after": load_average()}
        for model in [None, models[0]] if models else [None]:
            label = model or "no translation"
            result["recall@5"][f"{set_name}/{label}"] = recall(root, index, set_name, args.split, model)
    result["load_end"] = load_average()
    emit(result, args.out)


if __name__ == "__main__":
    main()
