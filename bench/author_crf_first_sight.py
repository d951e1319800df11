"""The author-block CRF against the rules as they were when a round was first seen.

``author_crf.py --loro`` holds a round out of the CRF's fitting, but the rules it is compared
and combined with (and the helpers its features use: the lexicons, the name parsers, the
title's lines) have since been tuned on that round. As ``loro_first_sight.py`` does for the
line classifier, this runs the same leave-one-round-out read with ``pdf/meta.py`` taken from
the commit each round's first sight was measured on (the rest of the checkout as it is, the
old ``meta.py`` given the helpers it lacks: ``loro_first_sight.held_out_with``), so the rules, the
CRF's features and the arbitration all meet the round for the first time:

    python bench/author_crf_first_sight.py --root ARCHIVE --papers DIR --readings DIR
        --collection DIR --collection2 DIR [--cache FILE] [--round dev9 2fce0aa ...] [--show]

For each round the CRF is fitted on every other dev round (their pages read by the old
rules too) and reads the round; the rules then read it beside it. Page extraction is
today's (the cached pages), so the old rules' figure can differ a little from the one
recorded on first sight.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from _common import CORPORA
from archive_metadata import COLLECTIONS, add_collection_options
from loro_first_sight import held_out_with

# Each round's first sight, as docs/pdf.md records it: the commit its rules were at.
ROUNDS = {"dev4": "584d28a", "dev5": "584d28a", "dev6": "6b76c92", "dev7": "6f5eda2", "dev8": "bc199c5",
          "dev9": "2fce0aa", "dev10": "ac1b20d"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--corpus", default=str(CORPORA / "pdfs"))
    add_collection_options(ap)
    ap.add_argument("--cache")
    ap.add_argument("--round", nargs=2, action="append", metavar=("SET", "COMMIT"),
                    help="a round and the commit its first sight was measured on (default: " +
                    ", ".join(f"{k} {v}" for k, v in ROUNDS.items()) + ")")
    ap.add_argument("--show", action="store_true", help="print every held-out paper whose authors a reader gets wrong")
    ap.add_argument("--out")
    args = ap.parse_args()
    out = {}
    for held, commit in args.round or list(ROUNDS.items()):
        options = ["--corpus", args.corpus]
        for name in (*COLLECTIONS, "cache"):
            options += [f"--{name}", getattr(args, name)] if getattr(args, name) else []
        options += ["--show"] if args.show else []
        entry = held_out_with(commit, "author_crf.py", args.root, held, options)
        entry["rules_then"] = entry.pop("rules")  # the rules of ``commit``, not today's
        out[held] = {"rules_at": commit, **entry}
        print(json.dumps({held: out[held]}), file=sys.stderr)
    fields = ("title", "authors", "year", "all")
    readers = ("rules_then", "crf", "arbitrate", "fallback")
    out["first sight, all rounds"] = {
        "papers": sum(e["papers"] for e in out.values()),
        **{r: {f: sum(e[r][f] for e in list(out.values())) for f in fields} for r in readers}}
    text = json.dumps(out, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
