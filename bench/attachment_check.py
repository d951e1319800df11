"""The attachment check (ingest/attachments.py) on real PDFs: its cost, its false alarms on
right attachments and the wrong attachments it lets through.

    python bench/attachment_check.py --pdfs DIR [--titles FILE] [--bib FILE] [--work W] [--runs 3]

``--pdfs``: a folder of PDFs, indexed once into ``--work`` (embedding off; reused on the
next run). ``--titles``: JSON ``{set name: {PDF path under DIR: its title}}``, right
attachments: every warning on them is a false alarm (listed, to be read). ``--bib``: a real
BibTeX library (e.g. the 2,392-entry Mendeley export of docs/papers.md): each entry's title
is attached to an indexed PDF in turn (entry i to PDF i mod n; ``--shifts K``: to the PDFs
i + 7k mod n for k < K as well), wrong attachments almost all
— those not warned about are the ones the check lets through (a title found by chance, or
the PDF is that paper). The check is timed over all of them together, ``--runs`` times.

For the archive (docs/papers.md's figures): ``--make-titles ARCHIVE --out titles.json``
writes the titles and prints the metadata bench's held-out test files; copy the archive
without them (they are never read here) and give that copy as ``--pdfs``.
"""

from __future__ import annotations

import argparse
import json
import posixpath
import re
import time
from pathlib import Path
from typing import Any

from _common import CORPORA, context, emit, load_average, work_dir


def _bib_titles(path: Path) -> list[tuple[str, str]]:
    import bibtexparser
    from bibtexparser import middlewares

    from athena_lab.ingest.bibfile import entry_record

    library = bibtexparser.parse_string(
        path.read_text(encoding="utf-8", errors="replace"),
        append_middleware=[middlewares.NormalizeFieldKeys(), middlewares.SeparateCoAuthors(),
                           middlewares.SplitNameParts()])
    out = []
    for entry in library.entries:
        record = entry_record(entry, path.name)
        if record.get("title"):
            out.append((entry.key, record["title"]))
    return out


_README_LINK = re.compile(r"\[((?:[^\[\]]|\[[^\]]*\])+)\]\(([^)\s]+?\.pdf)\)")  # [Title](file.pdf)
_SCROLL_LINK = re.compile(r"\[:scroll:\]\(([^)]+?\.pdf)\)\s*\[((?:[^\[\]]|\[[^\]]*\])+)\]")  # [:scroll:](f.pdf) [Title](url)


def archive_titles(archive: Path) -> tuple[dict[str, dict[str, str]], list[str]]:
    """``--titles`` for the papers-we-love archive: each PDF's title as its folder's README
    links it, and as the archive metadata bench's dev gold has it; and the files of the
    held-out test split, to leave out of the folder indexed (never read here)."""
    gold = [json.loads(line) for line in (Path(__file__).parent / "data" / "archive_metadata.jsonl")
            .read_text(encoding="utf-8").splitlines() if line.strip()]
    held_out = sorted({r["path"] for r in gold if r["split"] != "dev"})
    pdfs = {p.relative_to(archive).as_posix() for p in archive.rglob("*.pdf")} - set(held_out)
    readme: dict[str, str] = {}
    for page in sorted(archive.rglob("README.md")):
        text = page.read_text(encoding="utf-8", errors="replace")
        links = [(m.group(1), m.group(2)) for m in _SCROLL_LINK.finditer(text)]
        links += [(m.group(2), m.group(1)) for m in _README_LINK.finditer(text) if m.group(1) != ":scroll:"]
        for link, title in links:
            path = posixpath.normpath(posixpath.join(page.parent.relative_to(archive).as_posix(),
                                                     link.replace("%20", " ")))
            title = re.sub(r"\s*\(\d{4}\)\s*$", "", " ".join(title.split()))  # "… (1949)"
            if path in pdfs:
                readme.setdefault(path, title)
    dev = {r["path"]: r["title"] for r in gold if r["split"] == "dev" and r["path"] in pdfs and r.get("title")}
    return {"readme": readme, "gold_dev": dev}, held_out


def main() -> None:
    from athena_lab.index.catalog import LibraryRow
    from athena_lab.ingest.attachments import MIN_WORDS, attachment_warnings
    from athena_lab.ingest.bibtitles import FoldedPage
    from athena_lab.workspace import Workspace

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pdfs", type=Path, default=CORPORA / "pdfs")
    ap.add_argument("--titles", type=Path)
    ap.add_argument("--bib", type=Path)
    ap.add_argument("--work", help="where the index goes (default: a folder under the system temp dir)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--shifts", type=int, default=1, help="pair each --bib entry with this many PDFs (i + 7k)")
    ap.add_argument("--out")
    ap.add_argument("--make-titles", type=Path, metavar="ARCHIVE",
                    help="write --titles for the papers-we-love archive to --out, and list the held-out files")
    args = ap.parse_args()
    if args.make_titles:
        titles, held_out = archive_titles(args.make_titles)
        Path(args.out).write_text(json.dumps(titles, indent=1, ensure_ascii=False), encoding="utf-8")
        print("\n".join(held_out))  # copy the archive without these before indexing it
        return
    result: dict[str, Any] = context()
    ws = Workspace(args.pdfs, work_dir(args.work, "attachments") / "index", overrides={"embedding.provider": "none"})
    start = time.perf_counter()
    summary = ws.index()
    result["index"] = {"seconds": round(time.perf_counter() - start, 1), "new": summary.new,
                       "unchanged": summary.unchanged}
    catalog = ws._require_index().catalog
    pdfs = sorted(catalog.first_pages())
    result["pdfs"] = len(pdfs)
    rows: list[LibraryRow] = []
    sets: dict[str, list[str]] = {}
    if args.titles:
        for name, pairs in json.loads(args.titles.read_text(encoding="utf-8")).items():
            for path, title in sorted(pairs.items()):
                if path in pdfs:
                    key = f"{name}:{len(rows)}"
                    rows.append(LibraryRow(key, {"source": "zotero", "title": title, "zotero": {"key": key}},
                                           [], [], [], [path], True))
                    sets.setdefault(name, []).append(key)
    if args.bib:
        titles = _bib_titles(args.bib)
        for shift in range(args.shifts):
            for i, (_key, title) in enumerate(titles):
                key = f"bib:{len(rows)}"
                rows.append(LibraryRow(key, {"source": "zotero", "title": title, "zotero": {"key": key}},
                                       [], [], [], [pdfs[(i + 7 * shift) % len(pdfs)]], True))
                sets.setdefault("bib", []).append(key)
    times = []
    found: dict[str, list[str]] = {}
    for _ in range(args.runs):
        start = time.perf_counter()
        found = attachment_warnings(rows, lambda paths: catalog.first_pages(paths=paths))
        times.append(round(time.perf_counter() - start, 3))
    result["check_seconds"] = sorted(times)
    result["rows"] = len(rows)
    warned = {m.split("Zotero item ", 1)[1].split(" ", 1)[0] for ms in found.values() for m in ms}
    texts = catalog.first_pages()
    no_text = {p for p, t in texts.items() if len(FoldedPage(t).words) < MIN_WORDS}
    result["pdfs_with_too_little_text"] = sorted(no_text)
    by_key = {r.id: r for r in rows}
    for name, keys in sets.items():
        said = [k for k in keys if k in warned]
        result[name] = {"pairs": len(keys), "not_checked_no_text": sum(by_key[k].files[0] in no_text for k in keys),
                        "warned": len(said)}
        if name != "bib":  # right attachments: each warning is a false alarm, to be read
            result[name]["false_alarms"] = [[by_key[k].files[0], by_key[k].record["title"]] for k in said]
    ws.close()
    result["load_average_after"] = load_average()
    emit(result, args.out)


if __name__ == "__main__":
    main()
