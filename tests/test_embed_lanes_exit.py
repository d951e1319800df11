"""A process that embeds on OpenVINO's two document lanes (index/runtimes.py) exits cleanly,
also with calls still running on both lanes when it ends."""

from __future__ import annotations

import subprocess
import sys

import pytest

from athena_lab.index.runtimes import usable_cores

pytestmark = pytest.mark.integration

EXIT_SCRIPT = """
import sys
from athena_lab.index.embeddings import make_embedder
from athena_lab.ingest.vectors import embed_here
from athena_lab.index import runtimes
from athena_lab.settings import EmbeddingSettings
runtimes.F32_LANES = 2  # two lanes on any CPU (where documents run in bf16 they have them anyway)
embedder = make_embedder(EmbeddingSettings())
assert embedder.lanes == 2, embedder.lanes
calls = [[f"text {b} {i} " + "word " * (20 * b + i) for i in range(8)] for b in range(6)]
vectors = embed_here(embedder, calls)
if sys.argv[1] == "all":
    assert sum(len(v) for v in vectors) == 48
else:  # exit with calls still running on both lanes
    next(vectors)
    KEPT = vectors
"""


def test_a_process_embedding_on_two_lanes_exits_cleanly() -> None:
    # Two OpenVINO streams (AsyncInferQueue) aborted now and then at exit ("Resource
    # deadlock avoided"); the lanes are plain requests, released before the interpreter
    # tears down. 30 runs in a row all exited 0 (docs/embeddings.md); a few here.
    if usable_cores() < 2:
        pytest.skip("one core: OpenVINO runs one lane")
    for mode in ("all", "in-flight", "all", "in-flight"):
        done = subprocess.run([sys.executable, "-c", EXIT_SCRIPT, mode], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
