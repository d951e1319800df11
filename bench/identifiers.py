"""The identifier field's tokens, the regex over the whole text against issue 30's filter.

Both over the chunk texts of bench/scale.py's archive (``--chunks N``, written if missing)
and over every text of the corpora (the docs corpus' text files and SciFact's abstracts):
whether the tokens are identical, and ms per text for each.

    python bench/identifiers.py --chunks 20000 --work /tmp/b/scale
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from _common import CORPORA, REPO, context, emit, load_average, work_dir
from scale import archive

from athena_lab.index import lexical
from athena_lab.ingest.chunking import chunk_document
from athena_lab.ingest.parsers import markdown

sys.path.insert(0, str(REPO / "tests"))
from test_index_fast_paths import _reference as whole_text  # noqa: E402  the code before issue 30


def compare(texts: list[str]) -> dict[str, Any]:
    t = time.perf_counter()
    old = [whole_text(x) for x in texts]
    old_s = time.perf_counter() - t
    t = time.perf_counter()
    new = [lexical.identifiers(x) for x in texts]
    new_s = time.perf_counter() - t
    return {"texts": len(texts), "chars": sum(map(len, texts)), "identical": old == new,
            "tokens": sum(map(len, new)), "whole_text_ms_per_text": round(1e3 * old_s / len(texts), 3),
            "filtered_ms_per_text": round(1e3 * new_s / len(texts), 3), "speedup": round(old_s / new_s, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chunks", type=int, default=20_000)
    ap.add_argument("--work", help="where the archive is (default: a temp dir)")
    ap.add_argument("--out", help="also write the JSON result here")
    args = ap.parse_args()
    folder, _ = archive(work_dir(args.work, "scale"), args.chunks)
    chunks = []
    for page in sorted(folder.rglob("*.md")):
        doc = markdown.parse(page.read_text(encoding="utf-8"), page.name)
        chunks += [f"{c.heading}\n{c.text}" for c in chunk_document(doc)]
    corpora = [p.read_text(encoding="utf-8", errors="replace") for p in sorted((CORPORA / "docs").rglob("*"))
               if p.suffix in {".md", ".rst", ".py", ".html"}]
    with (CORPORA / "scifact" / "corpus.jsonl").open(encoding="utf-8") as f:
        corpora += [json.loads(line)["text"] for line in f]
    emit({"benchmark": "identifiers", **context(), "archive_chunks": compare(chunks),
          "corpora": compare(corpora), "load_average_end": load_average()}, args.out)


if __name__ == "__main__":
    main()
