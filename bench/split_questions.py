"""Merge question files and give each question a fixed dev/test split.

The split is stratified by corpus folder (or PDF), kind and language group, and ordered by
a hash of the question id, so it never depends on which questions a tuner liked: within
each stratum the questions alternate dev, test, dev, … in hash order. Re-running on the
same ids gives the same split.

    python bench/split_questions.py OUT.jsonl IN.jsonl [IN.jsonl ...]
    python bench/split_questions.py --add FILE.jsonl    # give the rows of FILE that have no
                                                        # split one, in place, order kept

A row without an ``id`` is known by its question; one without ``gold`` (a language-detection
set) is stratified by its language alone.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path


def stratum(row: dict) -> tuple[str, str, str]:
    first = row["gold"][0]["path"].split("/", 1)[0] if row.get("gold") else ""
    language = row.get("lang", "en") if not row.get("gold") else ("en" if row.get("lang", "en") == "en" else "other")
    return first, row.get("kind", "concept"), language


def assign(rows: list[dict]) -> None:
    """Alternate dev, test, dev, … within each stratum, in the hash order of the question's id."""
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        groups.setdefault(stratum(row), []).append(row)
    turn = 0
    for key in sorted(groups):
        for row in sorted(groups[key], key=lambda r: hashlib.sha1(r.get("id", r["question"]).encode()).hexdigest()):
            row["split"] = "dev" if turn % 2 == 0 else "test"
            turn += 1


def add_in_place(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    assign([r for r in rows if "split" not in r])
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    counts = {s: sum(r["split"] == s for r in rows) for s in ("dev", "test")}
    print(f"{path}: {len(rows)} questions, {counts}")


def main() -> None:
    if sys.argv[1] == "--add":
        for name in sys.argv[2:]:
            add_in_place(Path(name))
        return
    out, inputs = Path(sys.argv[1]), [Path(p) for p in sys.argv[2:]]
    rows = [json.loads(line) for p in inputs for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]
    ids = [r["id"] for r in rows]
    if len(ids) != len(set(ids)):
        raise SystemExit("duplicate question ids")
    assign(rows)
    with out.open("w", encoding="utf-8") as fh:
        for row in sorted(rows, key=lambda r: r["id"]):
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    counts = {s: sum(r["split"] == s for r in rows) for s in ("dev", "test")}
    print(f"{out}: {len(rows)} questions, {counts}")


if __name__ == "__main__":
    main()
