"""Finding 6: a reindex growing the vector graph while searches read it.

Inside one process (a server or kernel building the multilingual channel while it answers
questions) the index run and the searches share one ``VectorIndex`` — the object
``IndexStore.vectors`` hands to both. The run grows the graph batch by batch, as the
checkpoints do, from empty past its capacity three times (1024 → 2048 → 4096 → 8192)
while four threads search it. hnswlib cannot resize a graph another thread queries: before
the fix this crashed the process (segfault, heap corruption) or answered with labels of
other vectors. The work runs in a child process so a crash is a failed test, not a dead
test run.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

import pytest

from athena_lab.index.store import IndexStore

pytestmark = pytest.mark.integration

CHILD = r'''
import json, sys, threading
from pathlib import Path
import numpy as np
from athena_lab.index.store import IndexStore

root, total, batch, dims = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), 64
data = np.random.default_rng(7).standard_normal((total, dims)).astype(np.float32)
data /= np.linalg.norm(data, axis=1, keepdims=True)
store = IndexStore(root)
shared = store.vectors("race", dims)  # what the searcher and an in-process index run share
published = [0]  # labels [0, published) were added by an update that has returned
stop = threading.Event()
report = {"searches": 0, "errors": [], "wrong": []}

def search(seed):
    rng = np.random.default_rng(seed)
    while not stop.is_set():
        known = published[0]
        if not known:
            continue
        label = int(rng.integers(0, known))
        try:
            hits = shared.search(data[label], 5)
        except Exception as exc:
            report["errors"].append(repr(exc))
            return
        report["searches"] += 1
        # The vector itself must come first, and no hit may name a label never added.
        if not hits or hits[0][0] != label or any(not 0 <= l < total for l, _ in hits):
            report["wrong"].append([label, hits[:2]])

threads = [threading.Thread(target=search, args=(seed,)) for seed in range(4)]
for t in threads:
    t.start()
for start in range(0, total, batch):
    end = min(total, start + batch)
    shared.update({label: data[label] for label in range(start, end)}, set())
    published[0] = end
stop.set()
for t in threads:
    t.join()
report["capacity"] = shared.graph().get_max_elements()
report["live"] = shared.live_count()
print(json.dumps(report))
'''

TOTAL, BATCH = 5000, 100


def test_searches_during_an_update_that_grows_the_graph_past_capacity_neither_crash_nor_misanswer(tmp_path: Path):
    proc = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path / "index"), str(TOTAL), str(BATCH)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"the process died (exit {proc.returncode}): {proc.stderr[-2000:]}"
    report = json.loads(proc.stdout)
    assert report["errors"] == [] and report["wrong"] == [], report
    assert report["searches"] > 100, "the searches must really overlap the growth"
    assert report["capacity"] >= TOTAL > 4096 and report["live"] == TOTAL


def test_a_search_sees_vectors_as_soon_as_their_update_returns(tmp_path: Path):
    store = IndexStore(tmp_path / "index")
    shared = store.vectors("visible", 8)
    vectors = np.eye(8, dtype=np.float32)
    shared.update({0: vectors[0]}, set())
    assert shared.search(vectors[0], 1)[0][0] == 0
    held = shared.graph()  # a search in flight holds this graph
    shared.update({label: vectors[label] for label in range(1, 8)}, {0})
    assert [label for label, _ in shared.search(vectors[3], 1)] == [3]
    assert 0 not in shared.labels() - shared.deleted_labels()
    assert held.element_count == 1, "the graph a running search holds is never mutated"
    store.close()
