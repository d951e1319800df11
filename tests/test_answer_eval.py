"""`athena eval answers`: the fact check, the locator check and the question file, pinned."""

from __future__ import annotations

import json

import pytest

from athena_lab.answer_eval import LocatorText, contains_fact, load_answer_questions, locator_holds
from athena_lab.evaluation import QuestionFileError


def test_a_fact_counts_whatever_its_markup_case_or_punctuation():
    assert contains_fact("Set `app.dependency_overrides[get_user]` in the test [1].", ["dependency_overrides"])
    assert contains_fact("It reached **40.4** BLEU.", ["40.4"])
    assert not contains_fact("It reached 140.45 BLEU.", ["40.4"])


def test_a_sentence_is_held_only_by_the_locator_that_prints_it(tmp_path):
    (tmp_path / "a.md").write_text("# A\n\nFirst line here.\nThe cache keeps entries\nfor ten minutes.\n")
    reader = LocatorText(tmp_path)
    chunk = {"id": 1, "kind": "text", "path": "a.md", "start_line": 3, "end_line": 5}
    sentence = "The cache keeps entries for ten minutes. [1]"
    assert locator_holds(reader, {1: chunk}, sentence, [1])
    narrow = dict(chunk, evidence=[{"start_line": 3, "end_line": 3, "quote": "The cache keeps entries for ten minutes."}])
    assert not locator_holds(reader, {1: narrow}, sentence, [1])  # evidence that names the wrong line fails


def test_a_question_without_facts_is_refused_with_its_line(tmp_path):
    file = tmp_path / "q.jsonl"
    file.write_text(json.dumps({"question": "What?", "facts": []}) + "\n")
    with pytest.raises(QuestionFileError, match="question 1: needs a \"facts\" list"):
        load_answer_questions(file)


def test_the_shipped_question_file_has_sixty_plus_questions_split_dev_and_test():
    rows = load_answer_questions("bench/data/answer_questions.jsonl")
    assert len(rows) >= 60 and {r["split"] for r in rows} == {"dev", "test"} and {r["set"] for r in rows} == {"docs", "pdfs"}
