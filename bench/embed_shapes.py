"""OpenVINO's memory per input shape: the default embedder's resident memory after document
batches of many row counts and widths, with the rows padded as the product pads them and
without.

OpenVINO keeps memory for each input shape it has run (about 3.5 MB each here). The
pipeline pads token lengths to a multiple of 32 and, since issue 30's 4× run, rows to a
multiple of 8 (``index/runtimes.py`` ``pad_rows``). This runs 88 batches — 1 to 31 rows
in steps of 3, at 8 widths from 20 to 244 words, shuffled with seed 1 — in a fresh
process per mode, and prints the resident MB every 10 batches.

    python bench/embed_shapes.py [--out F]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from _common import REPO, context, emit, load_average

CHILD = '''
import json, random, sys
import psutil
from athena_lab.index import runtimes
if sys.argv[1] == "unpadded":
    runtimes.pad_rows = lambda feeds: feeds
from athena_lab.index.embeddings import make_embedder
from athena_lab.settings import EmbeddingSettings
embedder = make_embedder(EmbeddingSettings())
words = "the quick brown fox jumps over lazy dog consensus protocol replica leader log".split()
rng = random.Random(1)
shapes = [(rows, width) for width in range(20, 250, 32) for rows in range(1, 33, 3)]
rng.shuffle(shapes)
process, trace = psutil.Process(), []
for i, (rows, width) in enumerate(shapes):
    embedder.embed_documents([" ".join(rng.choice(words) for _ in range(width)) for _ in range(rows)])
    if i % 10 == 0 or i == len(shapes) - 1:
        trace.append([i + 1, process.memory_info().rss >> 20])
print(json.dumps({"batches": len(shapes), "rss_mb_by_batch": trace, "rss_mb": trace[-1][1]}))
'''


def run(mode: str) -> dict:
    before = load_average()
    out = subprocess.run([sys.executable, "-c", CHILD, mode], capture_output=True, text=True, cwd=REPO,
                         check=True).stdout
    return {**json.loads(out.strip().splitlines()[-1]), "load_average_before": before,
            "load_average_after": load_average()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out")
    args = ap.parse_args()
    emit({"bench": "embed_shapes", "padded": run("padded"), "unpadded": run("unpadded"), "context": context()},
         args.out)


if __name__ == "__main__":
    main()
