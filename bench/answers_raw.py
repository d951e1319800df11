"""Ask the answer questions and keep every turn as it came, to grade now or later.

A local model's run of the answer questions takes most of an hour on two shared cores.
Kept raw (the answer text, its citations, the `done` event, the trace, the timings), the
same answers can be graded again when the grader learns to count something new, and a
"before" run of an older commit can be graded by today's eval beside the "after" one:

    python bench/answers_raw.py --path $ATHENA_CORPORA/docs --index-dir /tmp/ans/doc-index \
        --set docs --split test --provider local --out before-docs-local.jsonl
    athena eval answers bench/data/answer_questions.jsonl --from-answers before-docs-local.jsonl

Run from a checkout of another commit (``python /tmp/old/bench/answers_raw.py``), it asks
with that commit's agent: bench/_common.py puts the checkout first on ``sys.path``. It
uses nothing but ``Workspace.ask_events`` and the eval's ``timed``, which every commit
since the answer eval has. One JSON line per question, written as each one finishes, with
the load average at that moment.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from pathlib import Path

from _common import REPO, cap_threads, load_average

ANSWERS = REPO / "bench" / "data" / "answer_questions.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--path", help="the folder the questions are about")
    parser.add_argument("--index-dir")
    parser.add_argument("--corpus", action="append", default=[], metavar="SET=PATH=INDEX_DIR",
                        help="instead of --path/--index-dir/--set: one question set and its folder and index; "
                             "given more than once, the sets' questions are asked in turn (one of each, and so on), "
                             "so a run cut short has asked about every set alike")
    parser.add_argument("--file", default=str(ANSWERS))
    parser.add_argument("--set", dest="set_name")
    parser.add_argument("--split", default="test")
    parser.add_argument("--provider")
    parser.add_argument("--model")
    parser.add_argument("--out", required=True, help="JSON lines file to append the turns to")
    parser.add_argument("--limit", type=int, default=0, help="ask only the first N questions")
    parser.add_argument("--threads", type=int, default=0, help="CPUs this process uses (default: all)")
    args = parser.parse_args()
    cap_threads(args.threads)

    from athena_lab.answer_eval import load_answer_questions, timed
    from athena_lab.workspace import Workspace

    corpora = [c.split("=", 2) for c in args.corpus] or [[args.set_name, args.path, args.index_dir]]
    if any(len(c) != 3 or not c[1] or not c[2] for c in corpora):
        parser.error("give --path and --index-dir, or --corpus SET=PATH=INDEX_DIR")
    queues = [load_answer_questions(args.file, args.split, name or None) for name, _, _ in corpora]
    rows = [q[n] for n in range(max(map(len, queues))) for q in queues if n < len(q)]
    if args.limit:
        rows = rows[:args.limit]
    done = set()
    out = Path(args.out)
    if out.is_file():  # resume a run cut short
        done = {json.loads(line)["id"] for line in out.read_text(encoding="utf-8").splitlines() if line.strip()}
    spaces = {name: Workspace(path, index) for name, path, index in corpora}
    try:
        for row in rows:
            if row.get("id") in done:
                continue
            ws = spaces[row.get("set")] if len(spaces) > 1 else next(iter(spaces.values()))
            extra = {"provider": args.provider} if args.provider else {}
            if args.model:
                extra["model"] = args.model
            answer = timed(ws.ask_events(row["question"], **extra))
            record = {"id": row.get("id"), "question": row["question"], "set": row.get("set"),
                      "lang": row.get("lang", "en"), **dataclasses.asdict(answer), "load": load_average(),
                      "commit": os.environ.get("ATHENA_COMMIT", "")}
            with out.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(record, ensure_ascii=False) + "\n")
            print(f"{row.get('id')}: {answer.seconds} s, load {record['load']}", file=sys.stderr, flush=True)
    finally:
        for space in spaces.values():
            space.close()


if __name__ == "__main__":
    main()
