"""Title, authors and year of archive papers against a hand-checked set, by split.

The gold set (bench/data/archive_metadata.jsonl) names papers of papers-we-love by their
path in the archive and what their rendered first page prints (title, authors, year or
null when the page prints none); no PDF is stored here. The archive is fetched apart
(docs/benchmarks.md, "A real paper archive") and read in place.

    python bench/archive_metadata.py --root /work/data/pwl [--split dev|test|all] [--show]

A paper counts as right on a field when: the title matches ignoring case, accents,
punctuation and spacing; the authors are the same people in the same order (surname and
first initial); the year is the same (a missing year is right only when the page prints
none). "all three" is the share right on every field.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import unicodedata
from pathlib import Path
from typing import Any

from _common import REPO, context, emit

from athena_lab.pdf.document import open_pdf
from athena_lab.pdf.meta import PaperRecord, paper_record
from athena_lab.pdf.pages import extract_page

GOLD = REPO / "bench" / "data" / "archive_metadata.jsonl"


def key(text: str | None) -> str:
    folded = unicodedata.normalize("NFKD", text or "")
    return re.sub(r"[\W_]+", "", "".join(c for c in folded if not unicodedata.combining(c))).lower()


def person(name: str) -> tuple[str, str]:
    words = name.replace("(", " ").replace(")", " ").split()
    return (key(words[-1]), key(words[0])[:1]) if words else ("", "")


def score(gold: dict[str, Any], got: PaperRecord) -> dict[str, bool]:
    title = key(gold["title"]) == key(got.title)
    authors = [person(a) for a in gold["authors"]] == [person(a) for a in got.authors]
    year = gold["year"] == got.year
    return {"title": title, "authors": authors, "year": year, "all": title and authors and year}


def first_page_record(pdf: Path, rel: str, ocr: str) -> PaperRecord:
    doc = open_pdf(pdf, rel, None)
    try:
        info = {k: v for k, v in doc.get_metadata_dict(skip_empty=True).items() if isinstance(v, str)}
        first = extract_page(doc, 0, ocr) if len(doc) else None
    finally:
        doc.close()
    return paper_record(info, first, pdf.name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", required=True, help="the papers-we-love checkout (its PDFs)")
    ap.add_argument("--split", default="all", choices=["dev", "test", "test2", "all"])
    ap.add_argument("--ocr", default="auto", choices=["auto", "off"])
    ap.add_argument("--show", action="store_true", help="print every paper's record and verdict")
    ap.add_argument("--out", help="also write the JSON result here")
    args = ap.parse_args()
    gold = [json.loads(line) for line in GOLD.read_text(encoding="utf-8").splitlines() if line.strip()]
    if args.split != "all":
        gold = [g for g in gold if g["split"] == args.split]
    totals = {"title": 0, "authors": 0, "year": 0, "all": 0}
    wrong = []
    started = time.perf_counter()
    for g in gold:
        got = first_page_record(Path(args.root) / g["path"], g["path"], args.ocr)
        verdict = score(g, got)
        for field in totals:
            totals[field] += verdict[field]
        if args.show or not verdict["all"]:
            line = {"path": g["path"], **{k: v for k, v in verdict.items()},
                    "got": {"title": got.title, "authors": got.authors, "year": got.year},
                    "gold": {"title": g["title"], "authors": g["authors"], "year": g["year"]}}
            wrong.append(line)
            print(json.dumps(line, ensure_ascii=False), file=sys.stderr)
    n = len(gold)
    emit({"bench": "archive_metadata", "split": args.split, "papers": n,
          **{f"{k}_right": f"{v}/{n} ({100 * v / n:.0f}%)" for k, v in totals.items()},
          "seconds": round(time.perf_counter() - started, 1), "context": context()}, args.out)


if __name__ == "__main__":
    main()
