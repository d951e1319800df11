"""The retrieval evaluation harness on a slice of the real SciFact set and a question file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from athena_lab.evaluation import ndcg_at, read_qrels, recall_at
from corpus_files import copy_flask_subset

pytestmark = pytest.mark.integration


def _scifact_slice(corpora: Path, dest: Path, queries: int = 8, distractors: int = 60) -> Path:
    src = corpora / "scifact"
    qrels = read_qrels(src / "qrels" / "test.tsv")
    chosen = sorted(qrels)[:queries]
    wanted = {d for q in chosen for d in qrels[q]}
    corpus = [json.loads(line) for line in (src / "corpus.jsonl").open()]
    keep = [d for d in corpus if d["_id"] in wanted] + [d for d in corpus if d["_id"] not in wanted][:distractors]
    (dest / "qrels").mkdir(parents=True)
    (dest / "corpus.jsonl").write_text("".join(json.dumps(d) + "\n" for d in keep))
    qs = [json.loads(line) for line in (src / "queries.jsonl").open()]
    (dest / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in qs if q["_id"] in chosen))
    lines = ["query-id\tcorpus-id\tscore"] + [f"{q}\t{d}\t{s}" for q in chosen for d, s in qrels[q].items()]
    (dest / "qrels" / "test.tsv").write_text("\n".join(lines) + "\n")
    return dest


def test_metric_formulas_match_hand_computed_values() -> None:
    gold = {"a": 1, "b": 1}
    assert recall_at(["x", "a", "y"], gold, 2) == 0.5
    assert abs(ndcg_at(["a", "x", "b"], gold, 10) - (1 + 1 / 2) / (1 + 1 / 1.5849625)) < 1e-6


def test_eval_beir_prints_ndcg_recall_and_mrr(corpora: Path, tmp_path: Path) -> None:
    beir = _scifact_slice(corpora, tmp_path / "beir")
    proc = subprocess.run([sys.executable, "-m", "athena_lab.cli", "eval", "beir", str(beir), "--split", "test",
                           "--index-dir", str(tmp_path / "work"), "--json"],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    metrics = json.loads(proc.stdout)
    assert metrics["queries"] == 8
    assert set(metrics) >= {"ndcg@10", "recall@10", "recall@100", "mrr@10"}
    assert metrics["ndcg@10"] > 0.5  # the gold abstracts are in a 70-document pool


def test_eval_beir_on_a_folder_that_is_not_beir_says_what_is_missing(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "athena_lab.cli", "eval", "beir", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "corpus.jsonl is missing" in proc.stderr


def test_eval_questions_counts_hits_overlapping_gold_spans(tmp_path: Path) -> None:
    root = copy_flask_subset(tmp_path / "docs", ["blueprints.rst", "config.rst", "quickstart.rst"])
    lines = (root / "blueprints.rst").read_text().splitlines()
    register = next(i for i, l in enumerate(lines, 1) if l.startswith("Registering Blueprints"))
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        json.dumps({"question": "how do I register a blueprint with the app",
                    "gold": [{"path": "blueprints.rst", "start_line": register, "end_line": register + 30}]}) + "\n" +
        json.dumps({"question": "zzzz qqqq", "gold": [{"path": "nowhere.md", "start_line": 1, "end_line": 2}]}) + "\n")
    proc = subprocess.run([sys.executable, "-m", "athena_lab.cli", "eval", "questions", str(questions),
                           "--path", str(root), "--json"], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    metrics = json.loads(proc.stdout)
    assert metrics["questions"] == 2 and metrics["recall@5"] == 0.5


def test_a_two_part_question_scores_half_when_one_part_is_found() -> None:
    from athena_lab.evaluation import question_score, Span

    gold = [{"path": "a.md", "start_line": 10, "end_line": 20, "part": 0},
            {"path": "a.md", "start_line": 100, "end_line": 120, "part": 0},  # an alternative
            {"path": "b.md", "start_line": 1, "end_line": 5, "part": 1}]
    ranked = [Span("c.md", 1, 50), Span("a.md", 110, 130), Span("b.md", 40, 60)]
    score = question_score(ranked, gold)
    assert score["recall@1"] == 0.0 and score["recall@5"] == 0.5
    assert score["mrr@10"] == 0.5 and score["file@5"] == 1.0
    assert question_score([Span("p.pdf", pages=(3, 4))], [{"path": "p.pdf", "page": 4}])["recall@1"] == 1.0


def test_eval_questions_reports_by_kind_and_language_for_one_split(tmp_path: Path) -> None:
    root = copy_flask_subset(tmp_path / "docs", ["blueprints.rst", "config.rst", "quickstart.rst"])
    lines = (root / "blueprints.rst").read_text().splitlines()
    register = next(i for i, l in enumerate(lines, 1) if l.startswith("Registering Blueprints"))
    gold = [{"path": "blueprints.rst", "start_line": register, "end_line": register + 30}]
    questions = tmp_path / "q.jsonl"
    rows = [{"question": "how do I register a blueprint with the app", "kind": "concept", "lang": "en",
             "split": "test", "gold": gold},
            {"question": "¿Cómo registro un blueprint en la aplicación?", "kind": "concept", "lang": "es",
             "split": "test", "gold": gold},
            {"question": "zzzz qqqq", "split": "dev", "gold": gold}]
    questions.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    proc = subprocess.run([sys.executable, "-m", "athena_lab.cli", "eval", "questions", str(questions),
                           "--path", str(root), "--split", "test", "--json",
                           "--details", str(tmp_path / "d.json")],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    metrics = json.loads(proc.stdout)
    assert metrics["questions"] == 2 and metrics["split"] == "test"
    assert set(metrics["by"]) >= {"kind:concept", "lang:english", "lang:other-language", "lang:es"}
    assert metrics["by"]["lang:english"]["recall@5"] == 1.0
    details = json.loads((tmp_path / "d.json").read_text())
    assert [d["lang"] for d in details] == ["en", "es"]


def test_a_question_file_without_gold_names_the_question(tmp_path: Path) -> None:
    root = copy_flask_subset(tmp_path / "docs", ["config.rst"])
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"question": "where is the config"}) + "\n")
    proc = subprocess.run([sys.executable, "-m", "athena_lab.cli", "eval", "questions", str(questions),
                           "--path", str(root)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    assert "question 1" in proc.stderr and "gold" in proc.stderr and "Traceback" not in proc.stderr
