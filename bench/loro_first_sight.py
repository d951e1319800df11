"""The line classifier against the rules as they were when a round was first seen.

``archive_metadata.py --loro`` holds a round out of the classifier's fitting, but the rules
it combines with (and the helpers its features use: the lexicons, the name parsers) have
since been tuned on that round, so beside the rules' first sight it is optimistic. This
runs the same leave-one-round-out read with ``pdf/meta.py`` taken from the commit the
round was first measured on (the rest of the checkout as it is), so the rules, the
classifier's helpers and the combinations all see the round for the first time:

    python bench/loro_first_sight.py --root ARCHIVE --papers DIR --readings DIR [--cache FILE]
        [--round dev7 6f5eda2 --round dev8 bc199c5 ...]

The classifier's readers take the old ``paper_record``'s place of the rules' title lines
and names as they take today's (``line_classifier.reading``: ``_title_lines`` and
``_page_authors`` swapped for the call); the old ``meta.py`` gets, where it lacks them, the
helpers the classifier calls (``_org``, ``_place``, ``_names_beside_affiliations``,
``_in_rows``, ``_line_names``) in their old form: the regular expressions and parsers of the
time, rows by their tops, or nothing found; an old ``paper_record`` with no ``after`` page
takes one and ignores it. Page extraction is today's (the cached pages), so the old rules'
figure here can differ a little from the one recorded on first sight.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from _common import CORPORA, REPO
from archive_metadata import COLLECTIONS, add_collection_options

# Each round's first sight, as docs/pdf.md records it: the commit its rules were at.
ROUNDS = {"dev4": "584d28a", "dev5": "584d28a", "dev6": "6b76c92", "dev7": "6f5eda2", "dev8": "bc199c5"}

SHIMS = {
    "def _org(": "def _org(text: str) -> bool:\n    return bool(_ORG.search(text))\n",
    "def _place(": "def _place(text: str) -> bool:\n    return bool(_PLACE.search(text))\n",
    "def _names_beside_affiliations(": "def _names_beside_affiliations(cells: list[str]) -> list[str] | None:\n"
                                       "    return None\n",
    "def cover_sheet(": "def cover_sheet(page: PageText | None) -> bool:\n    return False\n",
    "def _in_rows(": "def _in_rows(lines: list[Line]) -> list[Line]:\n"
                     "    return sorted(lines, key=lambda ln: (ln.bbox[1], ln.bbox[0]))\n",
    "def _line_names(": "def _line_names(line: Line) -> list[str] | None:\n"
                        "    return (_cell_names(line.cells) if len(line.cells) > 1 else None) or _names(line.text.strip())\n",
}


def old_meta(commit: str) -> str:
    """``pdf/meta.py`` at ``commit`` with today's ``paper_record`` signature (an older one
    takes no ``after`` page and ignores it) and the helpers the classifier calls that it lacks."""
    text = subprocess.run(["git", "show", f"{commit}:athena_lab/pdf/meta.py"], cwd=REPO, check=True,
                          capture_output=True, text=True).stdout
    text = re.sub(r"def paper_record\(.*?\) -> PaperRecord:",
                  'def paper_record(info: dict[str, str], first: PageText | None, file_name: str = "", '
                  "after: PageText | None = None) -> PaperRecord:", text, count=1, flags=re.S)
    for call in ("title_lines = _title_lines(first)", "authors = _page_authors(first, title_lines)"):
        if call not in text:  # line_classifier.reading swaps these two functions: they must be called
            raise SystemExit(f"{commit}: paper_record has no line {call!r}")
    for name, shim in SHIMS.items():
        if name not in text:
            text += "\n\n" + shim
    return text


def held_out_with(commit: str, script: str, root: str, held: str, options: list[str]) -> dict[str, Any]:
    """``bench/SCRIPT --root ROOT --loro --only HELD OPTIONS`` run in a copy of the checkout
    whose ``pdf/meta.py`` is the one of ``commit`` (``old_meta``): its entry for ``held``."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp)
        shutil.copytree(REPO / "athena_lab", copy / "athena_lab",
                        ignore=shutil.ignore_patterns("labextension", "static", "__pycache__"))
        shutil.copytree(REPO / "bench", copy / "bench", ignore=shutil.ignore_patterns("__pycache__"))
        (copy / "athena_lab" / "pdf" / "meta.py").write_text(old_meta(commit), encoding="utf-8")
        command = [sys.executable, str(copy / "bench" / script), "--root", root, "--loro", "--only", held,
                   "--out", str(copy / "out.json"), *options]
        subprocess.run(command, check=True, env={**os.environ, "PYTHONPATH": str(copy)}, stdout=subprocess.DEVNULL)
        entry: dict[str, Any] = json.loads((copy / "out.json").read_text())["loro"][held]
        return entry


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--corpus", default=str(CORPORA / "pdfs"))
    add_collection_options(ap)
    ap.add_argument("--cache")
    ap.add_argument("--round", nargs=2, action="append", metavar=("SET", "COMMIT"),
                    help="a round and the commit its first sight was measured on (default: " +
                    ", ".join(f"{k} {v}" for k, v in ROUNDS.items()) + ")")
    ap.add_argument("--show", action="store_true", help="print every held-out paper a reader gets wrong")
    ap.add_argument("--out")
    args = ap.parse_args()
    out = {}
    for held, commit in args.round or list(ROUNDS.items()):
        options = ["--split", "dev", "--corpus", args.corpus]
        for name in (*COLLECTIONS, "cache"):
            options += [f"--{name}", getattr(args, name)] if getattr(args, name) else []
        options += ["--show"] if args.show else []
        entry = held_out_with(commit, "archive_metadata.py", args.root, held, options)
        entry["rules_then"] = entry.pop("rules_now")  # the rules of ``commit``, not today's
        out[held] = {"rules_at": commit, **entry}
        print(json.dumps({held: out[held]}), file=sys.stderr)
    text = json.dumps(out, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
