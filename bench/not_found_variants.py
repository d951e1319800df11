"""Keep, drop or rewrite a sentence whose name the folder lacks: the three, on saved answers.

For every saved turn (bench/answers_raw.py or `athena eval answers --save-answers`) whose
`done.not_found` lists names, the answer three ways:

- **keep**: as it was sent — the sentence unmarked, listed in `not_found` (the product);
- **drop**: without the prose sentences and code lines that hold such a name;
- **rewrite**: each such sentence replaced by the model's rewrite of it from the passages
  the answer cites (one request per sentence, temperature 0; "NONE" drops it).

Graded by the answer eval's own rules: the fact in the answer, names not in the folder,
the answer's length, and for the rewrite the seconds it added. Prints one JSON object.

    python bench/not_found_variants.py --answers free-docs-local.jsonl --path $ATHENA_CORPORA/docs \
        --index-dir /tmp/ans/doc-index
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from _common import REPO, load_average

ANSWERS = REPO / "bench" / "data" / "answer_questions.jsonl"
REWRITE = ("Rewrite the sentence so that it says only what the passages say, with the exact names they use. "
           "If the passages do not support it, reply NONE. Reply with the sentence only.")


def dropped(text: str, lost: list[dict[str, str]]) -> str:
    """The answer without the sentences and code lines that hold a name the folder lacks."""
    import re

    out = text
    for entry in lost:
        where = entry["sentence"]
        pattern = re.escape(where).replace(r"\ ", r"\s*(?:\[\d[\d,;\s]*\]\s*)*")
        out = re.sub(r"[ \t]*" + pattern + r"(?:\s*\[\d[\d,;\s]*\])*[.!?]?", "", out, count=1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--answers", required=True)
    parser.add_argument("--path", required=True)
    parser.add_argument("--index-dir", required=True)
    parser.add_argument("--no-rewrite", action="store_true", help="keep and drop only (no model)")
    args = parser.parse_args()

    from athena_lab.agent.providers import Message, SamplingParams
    from athena_lab.answer_eval import FolderText, contains_fact, load_answer_questions
    from athena_lab.workspace import Workspace

    rows = {r["question"]: r for r in load_answer_questions(ANSWERS)}
    saved = [json.loads(line) for line in Path(args.answers).read_text(encoding="utf-8").splitlines() if line.strip()]
    folder = FolderText(Path(args.path))
    ws = Workspace(args.path, args.index_dir)
    llm = None if args.no_rewrite else ws.translator("local")
    totals: dict[str, dict[str, float]] = {v: {"fact": 0, "names": 0, "chars": 0} for v in ("keep", "drop", "rewrite")}
    answers, sentences, seconds, nones = 0, 0, 0.0, 0
    per: list[dict[str, Any]] = []
    try:
        for turn in saved:
            lost = (turn.get("done") or {}).get("not_found") or []
            row = rows.get(turn["question"])
            if not lost or row is None:
                continue
            answers += 1
            keep = turn["answer"]
            drop = dropped(keep, lost)
            rewrite = keep
            if llm is not None:
                texts = [c for c in (ws.chunk(c.get("chunk_id") or "") for c in turn.get("citations") or []
                                     if c.get("chunk_id")) if c is not None]
                passages = "\n\n".join(f"[{n}] {c.text[:1500]}" for n, c in enumerate(texts[:4], 1))
                for entry in {e["sentence"]: e for e in lost}.values():
                    sentences += 1
                    started = time.perf_counter()
                    reply = llm.complete([Message("system", REWRITE),
                                          Message("user", f"Passages:\n{passages}\n\nSentence: {entry['sentence']}")],
                                         sampling=SamplingParams(temperature=0.0, max_tokens=80)).text.strip()
                    seconds += time.perf_counter() - started
                    if not reply or reply.upper().startswith("NONE"):
                        nones += 1
                        rewrite = dropped(rewrite, [entry])
                    else:
                        rewrite = rewrite.replace(entry["sentence"], " ".join(reply.split()), 1)
            variants = {"keep": keep, "drop": drop, "rewrite": rewrite}
            outcome = {"question": turn["question"][:80], "not_found": [e["name"] for e in lost]}
            for name, text in variants.items():
                quotes = turn.get("sources") or ""
                fact = contains_fact(text + "\n" + quotes, row["facts"])
                names = folder.missing(text, turn["question"])
                totals[name]["fact"] += fact
                totals[name]["names"] += len(names)
                totals[name]["chars"] += len(text)
                outcome[name] = {"fact": fact, "names": names}
            per.append(outcome)
            print(json.dumps(outcome, ensure_ascii=False), file=sys.stderr, flush=True)
    finally:
        ws.close()
    out = {"answers_with_not_found": answers, "load": load_average(),
           "variants": {v: {"fact": int(t["fact"]), "names_not_in_folder": int(t["names"]),
                            "mean_chars": round(t["chars"] / max(1, answers))} for v, t in totals.items()},
           "rewrite": {"sentences": sentences, "none": nones, "seconds_per_sentence": round(seconds / max(1, sentences), 1)},
           "per_answer": per}
    print(json.dumps(out, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
