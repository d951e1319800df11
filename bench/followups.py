"""Follow-up questions: does the search borrow the previous question's words only when the
question leans on it, and what does that do to retrieval?

bench/data/followups.jsonl holds pairs (a previous question, then the question asked after
it) in English, Spanish, French and German, each labelled follow-up (it leans on the
previous question: "and how do I test it?") or standalone (it has its own subject: "¿Cómo
configuro la clave secreta?"), with the gold line span of what the second question asks in
the Flask docs. Reported per split:

* the accuracy of the follow-up decision (agent/followup.py, and the rule it replaced:
  fewer than 3 key terms or any word of a fixed pronoun list, which held "la", "le", "es");
* recall@5/@10 of the query the turn searches (memory.retrieval_query): the question as
  asked, as the old rule rewrote it, as the new rule rewrites it, and as a perfect decision
  would (oracle).

    python bench/followups.py --split test --index-dir /tmp/fu/index
    python bench/followups.py --tune            # the dev split only: SUBJECT_WORDS 2..7

The folder is the Flask docs of the shared corpora (88 files), indexed once with
``--multilingual`` (the channel other-language questions are searched through).
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable

from _common import CORPORA, REPO, context, emit, load_average

from athena_lab.agent import followup
from athena_lab.agent.citations import key_terms
from athena_lab.agent.memory import PastTurn, retrieval_query
from athena_lab.evaluation import chunk_span, question_score
from athena_lab.workspace import Workspace

DATA = REPO / "bench" / "data" / "followups.jsonl"
# The rule before issue 31 (memory.py at ef397ff), kept here to measure against.
_OLD_PRONOUNS = frozenset("it its this that these those they them one ones he she "
                          "lo la le eso esto ello ellos ça cela il elle ils elles es das dies sie isso isto ele".split())


def old_leans(question: str, previous: str) -> bool:
    words = re.findall(r"\w+", question.lower())
    return len(key_terms(question)) < 3 or any(w in _OLD_PRONOUNS for w in words)


def borrowed_query(question: str, previous: str) -> str:
    """The rewrite both rules apply once they decide the question leans."""
    mine = key_terms(question)
    borrowed = [w for w in re.findall(r"\w+", previous) if key_terms(w) and not key_terms(w) <= mine]
    return question if not borrowed else f"{question} {' '.join(dict.fromkeys(borrowed))}"


def rows_of(split: str) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [r for r in rows if split == "all" or r["split"] == split]


def accuracy(rows: list[dict[str, Any]], decide: Callable[[str, str], bool]) -> dict[str, Any]:
    by: dict[str, list[bool]] = defaultdict(list)
    wrong = []
    for r in rows:
        right = decide(r["question"], r["previous"]) == r["follow_up"]
        for key in ("all", f"lang:{r['lang']}", "follow-ups" if r["follow_up"] else "standalone"):
            by[key].append(right)
        if not right:
            wrong.append(r["id"])
    out: dict[str, Any] = {k: f"{sum(v)}/{len(v)}" for k, v in sorted(by.items())}
    out["accuracy"] = round(sum(by["all"]) / len(by["all"]), 3)
    out["wrong"] = wrong
    return out


def recall(rows: list[dict[str, Any]], ws: Workspace, query: Callable[[dict[str, Any]], str]) -> dict[str, Any]:
    sums: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        spans = [chunk_span(h.chunk) for h in ws.search(query(r), k=10).hits]
        score = question_score(spans, r["gold"], (5, 10))
        for key in ("all", f"lang:{r['lang']}", "follow-ups" if r["follow_up"] else "standalone"):
            sums[key].append(score["recall@5"])
            sums[key + " @10"].append(score["recall@10"])
    return {k: round(sum(v) / len(v), 3) for k, v in sorted(sums.items())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="test", choices=["dev", "test", "all"])
    ap.add_argument("--tune", action="store_true", help="accuracy per SUBJECT_WORDS on the dev split only")
    ap.add_argument("--root", default=str(CORPORA / "docs" / "flask"))
    ap.add_argument("--index-dir", required=False,
                    help="an index of --root: athena index ROOT --index-dir DIR --multilingual")
    ap.add_argument("--out")
    args = ap.parse_args()
    result: dict[str, Any] = {**context(), "data": str(DATA.relative_to(REPO))}
    if args.tune:
        dev = rows_of("dev")
        result["split"] = "dev"
        result["tuning"] = {k: accuracy(dev, lambda q, p, k=k: followup.read_question(q, p).leans(k))["accuracy"]
                            for k in range(2, 8)}
        result["load_average_after"] = load_average()
        emit(result, args.out)
        return
    rows = rows_of(args.split)
    result.update(split=args.split, pairs=len(rows), follow_ups=sum(r["follow_up"] for r in rows))
    result["decision"] = {"before (ef397ff)": accuracy(rows, old_leans),
                          "after": accuracy(rows, followup.leans_on_previous)}
    if not args.index_dir or not Path(args.index_dir, "catalog.sqlite").exists():
        raise SystemExit(f"build the index first: athena index {args.root} --index-dir DIR --multilingual, "
                         "then pass --index-dir DIR")
    ws = Workspace(args.root, args.index_dir)
    try:
        queries: dict[str, Callable[[dict[str, Any]], str]] = {
            "as asked": lambda r: r["question"],
            "before (ef397ff)": lambda r: (borrowed_query(r["question"], r["previous"])
                                           if old_leans(r["question"], r["previous"]) else r["question"]),
            "after": lambda r: retrieval_query(r["question"], [PastTurn(r["previous"], "")]),
            "oracle": lambda r: borrowed_query(r["question"], r["previous"]) if r["follow_up"] else r["question"],
        }
        result["recall@5"] = {name: recall(rows, ws, q) for name, q in queries.items()}
    finally:
        ws.close()
    result["load_average_after"] = load_average()
    emit(result, args.out)


if __name__ == "__main__":
    main()
