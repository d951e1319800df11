"""Do the archive's own reference lists correct the records read from first pages?

Tried, measured, not adopted (docs/pdf.md, "The archive's citations as a vote"). A paper in
an archive is often cited by others in it: the Dynamo paper by 7 of papers-we-love's
papers, consistent hashing by 5. Their reference entries name its authors and year
independently of its own first page's layout, the thing the record rules fail on. This
reads each hand-checked archive paper's record with the rules, finds the reference entries
of the *other* papers that carry its title, and lets them vote:

- **drop** a rule author no citing entry names, when some rule author is named (so the
  entries are about this paper): affiliations read as names ("FAST Search");
- **add** a surname every citing entry names (none saying "et al.") that the first page
  prints as a name and the record lacks: a lost co-author;
- **year**: the citing entries' majority year, when the first page prints it and the rules
  gave another year or none.

    python bench/citing_vote.py --root ARCHIVE --index-dir INDEX --sets dev,test-seen,dev2,dev3,dev4,dev5
        [--rules COMMIT] [--show]

INDEX is an index of the archive (``bench/archive.py index --copies 1``), read only for its
reference-list passages. ``--rules COMMIT`` reads the records with ``pdf/meta.py`` as it was
at COMMIT (``bench/loro_first_sight.py``'s loader): the rules as they were when a round was
first seen, so the vote meets errors no rule was fixed for. Only archive rows are read,
dev rows only with ``--show``; test rows give totals alone.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import re
import sqlite3
import sys
import tempfile
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from _common import context, emit
from archive_metadata import GOLD, first_page, score
from loro_first_sight import old_meta

from athena_lab.pdf import meta as today
from athena_lab.pdf.meta import PaperRecord
from athena_lab.pdf.pages import PageText

# Where one reference entry starts: "[12]", "[Bak93]", or "12. " before a capital.
ENTRY = re.compile(r"\[[^\]]{1,12}\]|(?:(?<=\s)|^)\d{1,3}\.\s(?=[A-Z])")
YEAR = re.compile(r"\b(1[89]\d\d|20[0-3]\d)\b")
NOT_NAMES = {"and", "in", "et", "al", "the", "of", "proceedings", "editor", "editors", "eds", "ed",
             "van", "von", "de", "der"}


def fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", fold(text).lower()).strip()


def surname(name: str) -> str:
    words = fold(name).replace("(", " ").replace(")", " ").split()
    if len(words) > 2 and re.fullmatch(r"Jr\.?|Sr\.?|II|III|IV", words[-1]):
        words = words[:-1]
    return norm(words[-1]) if words else ""


def reference_entries(index_dir: Path) -> dict[str, list[str]]:
    """Each file's reference-list passages, cut into entries (normalised), by file name."""
    db = sqlite3.connect(f"file:{index_dir / 'catalog.sqlite'}?mode=ro", uri=True)
    text: dict[str, str] = collections.defaultdict(str)
    for path, chunk, locator in db.execute("SELECT path, text, locator FROM chunks ORDER BY path, ordinal"):
        if json.loads(locator).get("references"):
            text[Path(path).name] += " " + re.sub(r"\s+", " ", chunk)
    out = {}
    for name, body in text.items():
        cuts = [m.start() for m in ENTRY.finditer(body)]
        pieces = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)], strict=True)]
        out[name] = [norm(p) for p in pieces if len(p) > 20]
    return out


def citing(title: str | None, entries: dict[str, list[str]], own: str) -> list[tuple[str, str]]:
    """(what precedes the title, what follows it) in each other file's entry carrying it."""
    wanted = norm(title or "")
    if len(wanted) < 15 or len(wanted.split()) < 3:
        return []
    hits = []
    for name, file_entries in entries.items():
        if name == own:
            continue
        for entry in file_entries:
            at = entry.find(wanted)
            if at >= 0:
                hits.append((entry[:at], entry[at + len(wanted):]))
                break
    return hits


def printed_names(surnames: Iterable[str], page: str) -> list[tuple[int, str]]:
    """(where, the name as printed) for each surname the page prints after capitalised words."""
    found = []
    for word in surnames:
        m = re.search(r"\b((?:[A-Z][\w'\-]*\.?[ \t]+){1,3})(" + re.escape(word) + r")\b", page, re.I)
        if m and m.group(2)[0].isupper() and all(w[0].isupper() for w in m.group(1).split()):
            found.append((m.start(2), (m.group(1) + m.group(2)).strip()))
    return found


def vote(record: PaperRecord, page: PageText | None, entries: dict[str, list[str]],
         own: str) -> tuple[PaperRecord, list[Any]]:
    hits = citing(record.title, entries, own)
    if not hits:
        return record, []
    text = fold("\n".join(ln.text for ln in page.lines)) if page else ""
    before = [set(h[0].split()) for h in hits]
    authors = list(record.authors)
    why: list[Any] = []
    named = [any(surname(a) in words for words in before) for a in authors]
    if authors and any(named) and not all(named):
        why.append(("drop", [a for a, ok in zip(authors, named, strict=True) if not ok]))
        authors = [a for a, ok in zip(authors, named, strict=True) if ok]
    # an entry that says "et al.", or whose start was not found (60 words before the title), lists no whole byline
    if authors and not any("et al" in h[0] or len(h[0].split()) > 60 for h in hits):
        lacking = set.intersection(*before) - NOT_NAMES - {surname(a) for a in authors}
        lacking = {w for w in lacking if len(w) > 2 and not w.isdigit() and w not in norm(record.title or "")}
        found = printed_names(lacking, text)
        if found and len(found) <= 3:
            where = {a: (m.start() if (m := re.search(re.escape(fold(a.split()[-1])), text)) else 10**9)
                     for a in authors}
            why.append(("add", [name for _, name in found]))
            authors = [a for _, a in sorted([(where[a], a) for a in authors] + found)]
    years: collections.Counter[str] = collections.Counter()
    for preceding, following in hits:
        ys = YEAR.findall(following[:160]) or YEAR.findall(preceding[-40:])
        if ys:
            years[ys[0]] += 1
    year = record.year
    if years:
        best, votes = years.most_common(1)[0]
        if votes * 2 > len(hits) and best in text and str(record.year) != best:
            why.append(("year", record.year, int(best)))
            year = int(best)
    if not why:
        return record, why
    return PaperRecord(title=record.title, authors=authors, year=year), why


def rules_at(commit: str | None) -> ModuleType:
    if commit is None:
        return today
    path = Path(tempfile.mkdtemp()) / "meta_then.py"
    path.write_text(old_meta(commit), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("athena_lab.pdf.meta_then", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", required=True, help="the papers-we-love checkout (its PDFs)")
    ap.add_argument("--index-dir", required=True, help="an index of that archive (bench/archive.py index)")
    ap.add_argument("--sets", required=True, help="labelling rounds, comma-separated (archive rows only)")
    ap.add_argument("--rules", help="read the records with pdf/meta.py as it was at this commit")
    ap.add_argument("--show", action="store_true", help="print each dev paper the vote changes")
    ap.add_argument("--out")
    args = ap.parse_args()
    meta = rules_at(args.rules)
    entries = reference_entries(Path(args.index_dir))
    sets = set(args.sets.split(","))
    rows = [json.loads(line) for line in GOLD.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = [r for r in rows if r.get("root", "archive") == "archive" and r["set"] in sets]
    before: collections.Counter[str] = collections.Counter()
    after: collections.Counter[str] = collections.Counter()
    changed = 0
    for row in rows:
        info, first, next_page = first_page(Path(args.root) / row["path"], row["path"], "auto")
        record = meta.paper_record(info, first, Path(row["path"]).name, next_page)
        voted, why = vote(record, next_page or first, entries, Path(row["path"]).name)
        was, now = score(row, record), score(row, voted)
        before.update(k for k, v in was.items() if v)
        after.update(k for k, v in now.items() if v)
        changed += bool(why)
        if args.show and why and row["split"] == "dev":
            print(json.dumps({"path": row["path"], "right_before": was["all"], "right_after": now["all"],
                              "vote": why}, ensure_ascii=False), file=sys.stderr)
    emit({"bench": "citing_vote", "sets": sorted(sets), "rules": args.rules or "today", "papers": len(rows),
          "cited_files": len(entries), "changed": changed, "before": dict(before), "after": dict(after),
          "context": context()}, args.out)


if __name__ == "__main__":
    main()
