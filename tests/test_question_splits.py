"""Quality is reported on questions the code was not tuned on: every question file says
which questions are dev and which are test, and asking for a split a file does not have is
an error, not a score over zero questions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from athena_lab import cli
from athena_lab.answer_eval import load_answer_questions
from athena_lab.errors import QuestionFileError
from athena_lab.evaluation import load_questions

pytestmark = pytest.mark.unit

DATA = Path(__file__).resolve().parents[1] / "bench" / "data"


@pytest.mark.parametrize("file", sorted(DATA.glob("*.jsonl")), ids=lambda p: p.name)
def test_every_question_file_has_dev_and_test_rows(file: Path) -> None:
    rows = [json.loads(line) for line in file.read_text(encoding="utf-8").splitlines() if line.strip()]
    unmarked = [n for n, row in enumerate(rows, 1) if row.get("split") not in ("dev", "test")]
    assert not unmarked, f"{file.name}: rows {unmarked[:10]} have no split (python bench/split_questions.py --add {file})"
    assert {row["split"] for row in rows} == {"dev", "test"}


def _dev_only(tmp_path: Path, row: dict) -> Path:
    file = tmp_path / "dev_only.jsonl"
    file.write_text(json.dumps({**row, "split": "dev"}) + "\n" + json.dumps(row) + "\n")  # unmarked is dev
    return file


def test_asking_for_the_test_split_of_a_file_without_one_is_an_error(tmp_path: Path) -> None:
    file = _dev_only(tmp_path, {"question": "How?", "gold": [{"path": "a.md", "start_line": 1, "end_line": 2}]})
    assert len(load_questions(file, "dev")) == 2
    with pytest.raises(QuestionFileError, match=r'dev_only.jsonl: no question is marked "split": "test"'):
        load_questions(file, "test")


def test_the_answer_eval_refuses_a_missing_split_too(tmp_path: Path) -> None:
    file = _dev_only(tmp_path, {"question": "How?", "facts": ["a fact"]})
    with pytest.raises(QuestionFileError, match=r'no question is marked "split": "test"'):
        load_answer_questions(file, "test")


def test_the_cli_says_so_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = _dev_only(tmp_path, {"question": "How?", "gold": [{"path": "a.md", "start_line": 1, "end_line": 2}]})
    assert cli.main(["eval", "questions", str(file), "--split", "test", "--path", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("athena: ") and 'no question is marked "split": "test"' in err and "--split all" in err
