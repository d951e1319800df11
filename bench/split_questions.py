"""Merge question files and give each question a fixed dev/test split.

The split is stratified by corpus folder (or PDF), kind and language group, and ordered by
a hash of the question id, so it never depends on which questions a tuner liked: within
each stratum the questions alternate dev, test, dev, … in hash order. Re-running on the
same ids gives the same split.

    python bench/split_questions.py OUT.jsonl IN.jsonl [IN.jsonl ...]
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path


def stratum(row: dict) -> tuple[str, str, str]:
    first = row["gold"][0]["path"].split("/", 1)[0]
    return first, row.get("kind", "concept"), "en" if row.get("lang", "en") == "en" else "other"


def main() -> None:
    out, inputs = Path(sys.argv[1]), [Path(p) for p in sys.argv[2:]]
    rows = [json.loads(line) for p in inputs for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]
    ids = [r["id"] for r in rows]
    if len(ids) != len(set(ids)):
        raise SystemExit("duplicate question ids")
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        groups.setdefault(stratum(row), []).append(row)
    turn = 0
    for key in sorted(groups):
        for row in sorted(groups[key], key=lambda r: hashlib.sha1(r["id"].encode()).hexdigest()):
            row["split"] = "dev" if turn % 2 == 0 else "test"
            turn += 1
    with out.open("w", encoding="utf-8") as fh:
        for row in sorted(rows, key=lambda r: r["id"]):
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    counts = {s: sum(r["split"] == s for r in rows) for s in ("dev", "test")}
    print(f"{out}: {len(rows)} questions, {counts}")


if __name__ == "__main__":
    main()
