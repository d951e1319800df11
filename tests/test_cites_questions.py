"""The "which papers cite X" set of bench/cites.py: every row loads with its fields, ids are
unique, each target has names and was counted in at least two papers' reference lists, and
a hit names X by the bench's rule (case, whitespace, ligatures and a hyphen at a line break
do not matter; a name is matched as whole words)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))
try:
    cites = importlib.import_module("cites")
finally:
    sys.path.remove(str(BENCH))

pytestmark = pytest.mark.unit


def test_the_question_file_loads_with_every_field() -> None:
    rows = cites.load(cites.QUESTIONS)
    assert len(rows) >= 40
    ids = [r["id"] for r in rows]
    assert len(ids) == len(set(ids))
    for row in rows:
        assert row["question"].strip() and row["target"].strip(), row["id"]
        assert row["names"] and all(isinstance(n, str) and n.strip() for n in row["names"]), row["id"]
        assert isinstance(row["citing_papers"], int) and row["citing_papers"] >= 2, row["id"]
        assert row["split"] in ("dev", "test"), row["id"]
    # one target, one set of names and one count, whichever question asks about it
    by_target: dict[str, set[tuple]] = {}
    for row in rows:
        by_target.setdefault(row["target"], set()).add((tuple(row["names"]), row["citing_papers"]))
    assert all(len(v) == 1 for v in by_target.values()), by_target


def test_a_hit_names_the_target_as_a_bibliography_prints_it() -> None:
    assert cites.names_target("[7] F. Chang et al. Big- table: a distributed storage system", ["Bigtable"])
    assert cites.names_target("S. Ghemawat. The Google ﬁle sys-\ntem. In SOSP", ["Google File System"])
    assert cites.names_target("fault- tolerant services", ["fault tolerant"])
    assert cites.names_target("MAPREDUCE: SIMPLIFIED\n DATA  PROCESSING", ["MapReduce: simplified data processing"])
    assert not cites.names_target("an aircraft collision model", ["Raft"])
    assert not cites.names_target("a draft of the paper", ["Raft"])


def test_the_phrasings_file_has_who_cites_questions_and_look_alikes_in_both_splits() -> None:
    result = {split: cites.phrasings(cites.PHRASINGS, split) for split in ("dev", "test")}
    assert (result["dev"]["who_cites"], result["dev"]["look_alikes"]) == (30, 30)
    assert (result["test"]["who_cites"], result["test"]["look_alikes"]) == (40, 40)
