"""Which papers cite X: the default search path over an archive's reference lists.

bench/data/cites_questions.jsonl holds "which papers cite X" questions in the words a
researcher would use ("Which papers cite Paxos?", "who cites the MapReduce paper", "what in my
library cites the Chubby lock service", and a few the question-shape rule may not recognise), each with
its target X, the strings whose presence in a passage means the passage names X
(``names``), and ``citing_papers``: how many papers of the papers-we-love archive name X in
their reference lists (counted with ``--count``, never from a search). Each question goes
to ``Workspace.search(question, k=10)`` as a user's would; reported per question and in
total (and per split):

* **recognised**: the search ran over the papers' reference lists (every hit's citation
  has ``references: true``);
* **named@1**, **named@5**, **named@10**: how many of the first 1 / 5 / 10 hits name X
  (a hit names X when its chunk text holds one of ``names``, case-insensitive, with
  whitespace, ligatures and hyphenation normalised). A passage of the cited paper's own
  text names X too (an unrecognised question tends to find it): **named_references@10**
  counts only the reference-list hits that name X;
* **papers@10**: distinct citing papers among the top 10 — papers with a reference-list
  hit that names X — against ``citing_papers`` (at most k);
* **hits**: hits returned, and the mean search latency (after one untimed warm-up search);
  ``degraded`` repeats the search's own note when the index's vectors are not all built.

``--force-only`` asks ``"Which papers cite " + target + "?"`` instead of the question as
written, so recognising the question and ranking the reference lists can be told apart.
``--count`` searches nothing: it counts, per target, the distinct papers whose
reference-list passages in the index name X, beside the file's ``citing_papers``.

    python bench/cites.py --index-dir DIR --folder ARCHIVE
    python bench/cites.py --index-dir DIR --folder ARCHIVE --force-only --json
    python bench/cites.py --index-dir DIR --folder ARCHIVE --count
    python bench/cites.py --phrasings [--split dev|test]

``--phrasings`` reads no index: it asks ``citing_subject`` (search/cites.py) to read each
line of bench/data/cites_phrasings.jsonl, 140 questions written by two helpers who never saw
the code (dev: 30 who-cites questions and 30 look-alikes that are not; test: 40 and 40,
written afterwards and read once), and counts who-cites questions read, their cited work
read right (ignoring case, punctuation and a trailing "paper"), and look-alikes taken for
who-cites questions.

DIR is an index of the papers-we-love archive (ARCHIVE) built with ``athena index``.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import statistics
import time
import unicodedata
from pathlib import Path
from typing import Any

from _common import REPO, context, emit, load_average

QUESTIONS = REPO / "bench" / "data" / "cites_questions.jsonl"
PHRASINGS = REPO / "bench" / "data" / "cites_phrasings.jsonl"
FIELDS = ("id", "question", "target", "names", "citing_papers", "split")


def load(path: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for row in rows:
        missing = [f for f in FIELDS if f not in row]
        if missing:
            raise SystemExit(f"{path.name}: {row.get('id', row)} lacks {', '.join(missing)}")
    return rows


_HYPHEN_BREAK = re.compile(r"(\w)[-\u00ad\u2010\u2011]\s+(\w)")
_PUNCT = re.compile(r"[^\w]+")


def forms(text: str) -> tuple[str, str]:
    """Two normal forms of ``text`` (lower case, NFKC, one space between words, padded):
    a hyphen at a line break joins its halves in the first ("Big- table" → "bigtable") and
    parts them in the second ("fault- tolerant" → "fault tolerant"); any other hyphen or
    punctuation is a space in both."""
    text = unicodedata.normalize("NFKC", text).lower()
    joined = _HYPHEN_BREAK.sub(r"\1\2", text)
    parted = _HYPHEN_BREAK.sub(r"\1 \2", text)
    return _spaced(joined), _spaced(parted)


def _spaced(text: str) -> str:
    return " " + " ".join(_PUNCT.sub(" ", text).split()) + " "


def names_target(text: str | tuple[str, str], names: list[str]) -> bool:
    """Whether ``text`` (or its ``forms``) holds one of ``names`` as whole words, in either
    normal form."""
    text_forms = forms(text) if isinstance(text, str) else text
    for name in names:
        needle = forms(name)[1]
        if needle.strip() and any(needle in t for t in text_forms):
            return True
    return False


def count_citing(index_dir: Path, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per target, the distinct papers whose reference-list passages name it (no search)."""
    conn = sqlite3.connect(f"file:{index_dir / 'catalog.sqlite'}?mode=ro", uri=True)
    passages = [(path, forms(text)) for path, text, locator in conn.execute("SELECT path, text, locator FROM chunks")
                if json.loads(locator or "{}").get("references")]
    conn.close()
    out = []
    for target in dict.fromkeys(r["target"] for r in rows):
        names = next(r["names"] for r in rows if r["target"] == target)
        papers = sorted({path for path, text in passages if names_target(text, names)})
        recorded = {r["citing_papers"] for r in rows if r["target"] == target}
        out.append({"target": target, "citing_papers": len(papers), "recorded": sorted(recorded),
                    "papers": papers})
    return out


def run(ws: Any, rows: list[dict[str, Any]], k: int, force_only: bool) -> list[dict[str, Any]]:
    ws.search("warm-up: which papers cite the warm-up paper?", k=k)  # loads the models; not timed
    out = []
    for row in rows:
        question = f"Which papers cite {row['target']}?" if force_only else row["question"]
        start = time.perf_counter()
        result = ws.search(question, k=k)
        seconds = time.perf_counter() - start
        hits = result.hits[:k]
        refs = [bool(c.get("references")) for c in result.citations()[:k]]
        named = [names_target(h.chunk.text, row["names"]) for h in hits]
        searched_for = next((w.split(": ", 1)[1] for w in result.warnings
                             if w.startswith("searched the papers' reference lists for: ")), None)
        out.append({
            "id": row["id"], "split": row["split"], "question": question, "target": row["target"],
            "recognised": bool(refs) and all(refs), "reference_hits": sum(refs), "searched_for": searched_for,
            "named@1": sum(named[:1]), "named@5": sum(named[:5]), "named@10": sum(named[:10]),
            "named_references@10": sum(n and r for n, r in zip(named, refs)),
            "papers@10": len({h.chunk.path for h, n, r in zip(hits, named, refs) if n and r}),
            "citing_papers": row["citing_papers"], "hits": len(hits), "ms": round(seconds * 1000, 1),
            "degraded": result.degraded,
        })
    return out


def totals(per: list[dict[str, Any]], k: int) -> dict[str, Any]:
    if not per:
        return {"questions": 0}
    return {
        "questions": len(per),
        "recognised": sum(p["recognised"] for p in per),
        "named@1": sum(p["named@1"] for p in per),
        "named@5": sum(p["named@5"] for p in per),
        "named@10": sum(p["named@10"] for p in per),
        "named_references@10": sum(p["named_references@10"] for p in per),
        "questions_with_a_named_hit@10": sum(p["named@10"] > 0 for p in per),
        "papers@10": sum(p["papers@10"] for p in per),
        "papers_possible@10": sum(min(p["citing_papers"], k) for p in per),
        "hits": sum(p["hits"] for p in per),
        "hits_possible": len(per) * k,
        "mean_ms": round(statistics.fmean(p["ms"] for p in per), 1),
    }


def _subject_key(text: str | None) -> str:
    text = re.sub(r"\s+(?:paper|article|work)$", "", (text or "").lower().strip(" ?.!"))
    return re.sub(r"\W+", " ", text).strip()


def phrasings(path: Path, split: str) -> dict[str, Any]:
    """How ``citing_subject`` reads who-cites questions and their look-alikes."""
    from athena_lab.search.cites import citing_subject

    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = [r for r in rows if split == "all" or r["split"] == split]
    asks = [r for r in rows if r["subject"]]
    others = [r for r in rows if not r["subject"]]
    read = {r["id"]: citing_subject(r["q"]) for r in rows}
    return {"bench": "cites_phrasings", "split": split,
            "who_cites": len(asks), "read": sum(read[r["id"]] is not None for r in asks),
            "subject_right": sum(_subject_key(read[r["id"]]) == _subject_key(r["subject"]) for r in asks),
            "look_alikes": len(others), "false_alarms": sum(read[r["id"]] is not None for r in others),
            "missed": [r["q"] for r in asks if _subject_key(read[r["id"]]) != _subject_key(r["subject"])],
            "false": [r["q"] for r in others if read[r["id"]] is not None]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index-dir")
    parser.add_argument("--folder", help="the indexed archive (ARCHIVE)")
    parser.add_argument("--phrasings", action="store_true",
                        help="read no index: how citing_subject reads bench/data/cites_phrasings.jsonl")
    parser.add_argument("--questions", default=str(QUESTIONS))
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--split", choices=("dev", "test", "all"), default="all")
    parser.add_argument("--force-only", action="store_true",
                        help='ask "Which papers cite TARGET?" instead of the question as written')
    parser.add_argument("--count", action="store_true",
                        help="search nothing: count each target's citing papers in the index's reference lists")
    parser.add_argument("--json", action="store_true", help="print the whole result as JSON")
    parser.add_argument("--out", help="also write the JSON result to this file")
    args = parser.parse_args()
    if args.phrasings:
        emit({**context(), **phrasings(PHRASINGS, args.split)}, args.out)
        return
    if not args.index_dir or not args.folder:
        parser.error("--index-dir and --folder are needed (or --phrasings)")

    rows = [r for r in load(Path(args.questions)) if args.split in ("all", r["split"])]
    result: dict[str, Any] = {**context(), "questions_file": Path(args.questions).name, "split": args.split,
                              "k": args.k, "force_only": args.force_only}
    if args.count:
        counts = count_citing(Path(args.index_dir), rows)
        result["counts"] = counts
        result["differ"] = [c["target"] for c in counts if c["recorded"] != [c["citing_papers"]]]
        result["load_average_after"] = load_average()
        if args.json or args.out:
            emit(result, args.out)
        else:
            for c in counts:
                mark = "" if c["recorded"] == [c["citing_papers"]] else f"  (file says {c['recorded']})"
                print(f"{c['citing_papers']:4d}  {c['target']}{mark}")
        return

    from athena_lab.workspace import Workspace

    ws = Workspace(args.folder, index_dir=args.index_dir)
    try:
        per = run(ws, rows, args.k, args.force_only)
    finally:
        ws.close()
    # An index whose vectors are not all built searches the rest lexically: say so beside the figures.
    result["degraded"] = sorted({p["degraded"] for p in per if p["degraded"]})
    result["totals"] = totals(per, args.k)
    for split in ("dev", "test"):
        if args.split == "all":
            result[f"totals_{split}"] = totals([p for p in per if p["split"] == split], args.k)
    result["per_question"] = per
    result["load_average_after"] = load_average()
    if args.json or args.out:
        emit(result, args.out)
        return
    print(f"{'id':5} {'rec':3} {'@1':>2} {'@5':>2} {'@10':>3} {'ref':>3} {'pap':>3}/{'cit':<3} {'hits':>4} {'ms':>7}  question")
    for p in per:
        print(f"{p['id']:5} {'yes' if p['recognised'] else 'no':3} {p['named@1']:2d} {p['named@5']:2d} "
              f"{p['named@10']:3d} {p['named_references@10']:3d} {p['papers@10']:3d}/{p['citing_papers']:<3d} "
              f"{p['hits']:4d} {p['ms']:7.1f}  {p['question']}")
    for key in ("totals", "totals_dev", "totals_test"):
        if key in result:
            print(f"{key}: {json.dumps(result[key])}")
    for line in result["degraded"]:
        print(f"degraded: {line}")
    print(f"load average {result['load_average']} before, {result['load_average_after']} after")


if __name__ == "__main__":
    main()
