"""Save to searchable: how long the live index takes to make an edit findable.

A copy of the shared Flask docs is indexed, followed by the live index in this process
(what Jupyter's extension and ``athena serve --live`` do for small batches), then edited
N times: each edit appends a sentence with a new word to a page, and the clock runs from
the write until ``Workspace.search`` finds the word in that page (polled every 20 ms). With
``--embedding minilm`` the edited chunk is re-embedded before the batch ends, so the
figure includes that; the first figure of a run is reported apart (it loads the parser's
imports the first time).

    python bench/live_latency.py [--edits 20] [--embedding none|minilm] [--work DIR] [--out FILE]
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import time

from _common import CORPORA, context, emit, percentile, work_dir

from athena_lab.workspace import Workspace


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--embedding", default="none", choices=("none", "minilm"))
    parser.add_argument("--work")
    parser.add_argument("--out")
    args = parser.parse_args()

    root = work_dir(args.work, "live") / "flask-docs"
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(CORPORA / "docs" / "flask" / "docs", root)
    ws = Workspace(root, overrides={"embedding.provider": args.embedding})
    first = ws.index()
    batches: list = []
    live = ws.live_index(batches.append)
    pages = sorted(p for p in root.rglob("*.rst"))
    rng = random.Random(7)
    took: list[float] = []
    for n in range(args.edits):
        page = rng.choice(pages)
        word = f"livebenchword{n}x"
        rel = page.relative_to(root).as_posix()
        start = time.perf_counter()
        page.write_text(page.read_text() + f"\n\nA sentence with {word} in it.\n")
        while rel not in {h.chunk.path for h in ws.search(word, mode="lexical").hits}:
            time.sleep(0.02)
        took.append(time.perf_counter() - start)
        time.sleep(0.5)  # let the batch finish before the next edit
    live.stop()
    steady = took[1:] or took
    emit({"bench": "live_latency", **context(), "embedding": args.embedding,
          "files": first.new, "chunks": first.chunks, "edits": len(took),
          "first_s": round(took[0], 3), "p50_s": round(statistics.median(steady), 3),
          "p95_s": round(percentile(steady, 95), 3), "max_s": round(max(steady), 3),
          "batches": live.batches, "batch_run_p50_s": round(statistics.median(b.seconds for b in batches), 3),
          "embedded_per_batch": sorted({b.summary.get("embedded", 0) for b in batches})}, args.out)


if __name__ == "__main__":
    main()
