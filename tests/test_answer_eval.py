"""`athena eval answers`: the fact check, the locator check and the question file, pinned."""

from __future__ import annotations

import json

import pytest

from athena_lab.answer_eval import LocatorText, contains_fact, load_answer_questions, locator_holds
from athena_lab.errors import QuestionFileError
from corpus_files import CORPORA

pytestmark = pytest.mark.unit


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


def test_an_api_entry_sentence_is_held_by_the_lines_from_its_name_to_its_description(tmp_path):
    (tmp_path / "c.rst").write_text(".. confval:: numfig_format\n   :type: dict\n\n   A dictionary mapping figure\n"
                                    "   to its number format.\n")
    reader = LocatorText(tmp_path)
    chunk = {"id": 1, "kind": "text", "path": "c.rst", "start_line": 1, "end_line": 5}
    assert locator_holds(reader, {1: chunk}, "- numfig_format: A dictionary mapping figure to its number format. [1]", [1])
    assert not locator_holds(reader, {1: chunk}, "- figsize: A dictionary mapping figure to its number format. [1]", [1])
    assert not locator_holds(reader, {1: chunk}, "- numfig_format: A dictionary mapping table to its format. [1]", [1])


def test_a_table_row_holds_its_quote_as_printed_left_to_right(tmp_path):
    """This report's stream puts each row's dates before its city and type: read in
    stream order, the row's text never holds a quote of the row as printed."""
    from athena_lab.pdf.source import read_pdf_source

    name = "table_pdfplumber_ca-warn-report.pdf"
    (tmp_path / name).symlink_to(CORPORA / "pdfs" / name)
    lines = read_pdf_source(tmp_path / name, 1)["lines"]
    at = next(i for i, line in enumerate(lines) if "Encompass Digital Media" in line["text"])
    row = lines[at]["text"]
    assert "Encompass Digital Media" in row
    reader = LocatorText(tmp_path)

    def cite(lines_cited: list[dict]) -> dict:
        regions = [dict(line["region"], page=1) for line in lines_cited]
        return {"id": 1, "kind": "pdf", "path": name, "page": 1,
                "evidence": [{"page": 1, "regions": regions, "quote": row}]}

    assert locator_holds(reader, {1: cite([lines[at]])}, f"{row} [1]", [1])
    assert not locator_holds(reader, {1: cite([lines[at + 1]])}, f"{row} [1]", [1])  # the next row does not


def test_each_line_of_a_right_to_left_pdf_holds_its_own_text(tmp_path):
    """Arabic lines with Latin words and numbers inside: read as the extractor reads a line
    (pieces from the right, each piece in its own order), not character by character."""
    from athena_lab.pdf.source import read_pdf_source

    name = "docling_right_to_left_01.pdf"
    (tmp_path / name).symlink_to(CORPORA / "pdfs" / name)
    reader = LocatorText(tmp_path)
    lines = [line for line in read_pdf_source(tmp_path / name, 1)["lines"] if line["text"].strip()]
    assert len(lines) > 10
    for line in lines:
        cite = {"id": 1, "kind": "pdf", "path": name, "page": 1,
                "evidence": [{"page": 1, "regions": [dict(line["region"], page=1)], "quote": line["text"]}]}
        assert locator_holds(reader, {1: cite}, f"{line['text']} [1]", [1]), line["text"]


def test_a_question_without_facts_is_refused_with_its_line(tmp_path):
    file = tmp_path / "q.jsonl"
    file.write_text(json.dumps({"question": "What?", "facts": []}) + "\n")
    with pytest.raises(QuestionFileError, match="question 1: needs a \"facts\" list"):
        load_answer_questions(file)


def test_the_shipped_question_file_has_sixty_plus_questions_split_dev_and_test():
    rows = load_answer_questions("bench/data/answer_questions.jsonl")
    assert len(rows) >= 60 and {r["split"] for r in rows} == {"dev", "test"} and {r["set"] for r in rows} == {"docs", "pdfs"}


def _gold_text(row: dict, gold: dict) -> str:
    import pypdfium2 as pdfium

    path = CORPORA / row["set"] / gold["path"]
    if "page" in gold:
        pdf = pdfium.PdfDocument(str(path))
        try:
            return pdf[gold["page"] - 1].get_textpage().get_text_range()
        finally:
            pdf.close()
    lines = path.read_text(encoding="utf-8").splitlines()
    return "\n".join(lines[gold["start_line"] - 1:gold["end_line"]])


def test_every_question_has_a_fact_its_gold_passage_states_and_its_question_does_not():
    """A fact the gold passage does not state (under the eval's own whole-word matcher) makes a
    question no answer can pass; a fact the question states passes by echoing it. The
    second-person review found six of the first kind and two of the second."""
    for row in load_answer_questions("bench/data/answer_questions.jsonl"):
        golds = [_gold_text(row, g) for g in row["gold"]]
        assert any(contains_fact(text, row["facts"]) for text in golds), f"{row['id']}: no fact is in its gold"
        assert not contains_fact(row["question"], row["facts"]), f"{row['id']}: the question states its fact"


def _turn(text: str, citations: list[dict], unsupported: list[str] | None = None, mode: str = "extractive"):
    """An answer as the events of docs/contract.md carry it, gathered by the eval's own reader."""
    from athena_lab.answer_eval import timed

    return timed([{"type": "chunk", "data": {"content": text}},
                  {"type": "citations", "data": {"citations": citations}},
                  {"type": "done", "data": {"unsupported": unsupported or [], "mode": mode}}])


def _cache_doc(tmp_path):
    (tmp_path / "a.md").write_text("# Cache\n\nThe cache keeps entries\nfor ten minutes. Each `get` call\n"
                                   "renews the entry, e.g. after a hit.\n")
    return {"id": 1, "kind": "text", "path": "a.md", "start_line": 3, "end_line": 5, "label": "a.md:3–5"}


def test_breaking_the_agents_splitter_and_matcher_does_not_move_the_grade(tmp_path, monkeypatch):
    """The grader splits, flattens and reads sources by its own rules: if it used the
    agent's, a bug there would move the answer and its grade together."""
    import ast
    import inspect

    from athena_lab import answer_eval
    from athena_lab.agent import citations, locate

    row = {"id": "q", "set": "docs", "facts": ["ten minutes"]}
    answer = _turn("The cache keeps entries for ten minutes. [1] Each `get` call renews the entry. [1]",
                   [_cache_doc(tmp_path)])
    before = answer_eval.score_answer(row, answer, answer_eval.LocatorText(tmp_path))
    assert (before["cited"], before["held"], before["sentences"], before["fact"]) == (2, 2, 2, True)

    monkeypatch.setattr(citations, "split_sentences", lambda text: [])
    monkeypatch.setattr(citations, "marker_numbers", lambda text: [])
    monkeypatch.setattr(locate, "squash", lambda text: "")
    after = answer_eval.score_answer(row, answer, answer_eval.LocatorText(tmp_path))
    assert after == before

    imported = {node.module for node in ast.walk(ast.parse(inspect.getsource(answer_eval)))
                if isinstance(node, ast.ImportFrom) and node.module}
    assert not {m for m in imported if m.startswith(("athena_lab.agent", "athena_lab.pdf", "athena_lab.parsers"))}


def test_a_quote_cut_mid_sentence_reordered_or_not_in_the_file_is_not_held(tmp_path):
    """What a broken splitter or reading order would produce scores lower, sentence by sentence."""
    from athena_lab.answer_eval import LocatorText, score_answer

    row = {"id": "q", "set": "docs", "facts": ["ten minutes"]}
    answer = _turn("The cache keeps entries for ten minutes. [1] Each `get` call renews the entry. [1] "
                   "The cache keeps minutes for ten entries. [1] The cache is cleared at midnight. [1]",
                   [_cache_doc(tmp_path)])
    scored = score_answer(row, answer, LocatorText(tmp_path))
    assert (scored["cited"], scored["held"]) == (4, 2)


def test_the_eval_splits_at_a_full_stop_before_whitespace_and_keeps_trailing_markers():
    """Its own rule, written out in the module docstring: five abbreviations, no other list."""
    from athena_lab.answer_eval import cited_sentences, sentences

    text = ("## Heading\n\nIt reached 40.4 BLEU. [2] Then, e.g. here [1, 3]. See Fig. 2 below.\n"
            "- A bullet without a stop [4]\n```\ncode. [9]\n```\n1) Last one? [5]")
    assert sentences(text) == ["It reached 40.4 BLEU. [2]", "Then, e.g. here [1, 3].", "See Fig.", "2 below.",
                               "A bullet without a stop [4]", "Last one? [5]"]
    assert [n for _, n in cited_sentences(text)] == [[2], [1, 3], [4], [5]]
    # a stop before a lower-case word ends no sentence: "(e.g. What does this mean? or …?)" is one
    quoted = "Lucy asks (e.g. What does this mean? or What does this refer to?). [1] Next one. [2]"
    assert sentences(quoted) == ["Lucy asks (e.g. What does this mean? or What does this refer to?). [1]", "Next one. [2]"]
    cited = "Drawing on Ko et al. (2020) and Lee et al. (2023), she asks. [1] Case No. 4 settled. [2]"
    assert sentences(cited) == ["Drawing on Ko et al. (2020) and Lee et al. (2023), she asks. [1]", "Case No. 4 settled. [2]"]


def test_a_flag_on_a_sentence_its_source_prints_word_for_word_is_counted(tmp_path):
    """The share of the product's "unsupported" flags that fall on verbatim quotes (should be 0)."""
    from athena_lab.answer_eval import LocatorText, score_answers

    cite = _cache_doc(tmp_path)
    answers = {
        "verbatim": _turn("The cache keeps entries for ten minutes. [1]", [cite],
                          ["The cache keeps entries for ten minutes."]),
        "invented": _turn("The cache is cleared at midnight every day. [1]", [cite],
                          ["The cache is cleared at midnight every day."]),
    }
    rows = [{"id": q, "set": "docs", "question": q, "facts": ["ten minutes"]} for q in answers]
    result = score_answers(rows, answers.__getitem__, LocatorText(tmp_path))
    assert result["unsupported_per_answer"] == 1.0
    assert (result["unsupported_on_verbatim"], result["unsupported_on_verbatim_share"]) == (1, 0.5)
    by_id = {d["id"]: d for d in result["details"]}
    assert by_id["verbatim"]["unsupported_verbatim"] == ["The cache keeps entries for ten minutes."]
    assert by_id["invented"]["unsupported_verbatim"] == []


def test_time_to_first_text_counts_the_quotes_the_reader_sees_before_the_model_writes(tmp_path):
    """Sources first: the reader has the quotes at once and the model's words later; the
    eval's first text is the quotes, and the fact counts where the reader sees it."""
    import time

    from athena_lab.answer_eval import score_answer, timed

    cite = _cache_doc(tmp_path)

    def events():
        yield {"type": "start", "data": {"conversation_id": "c"}}
        yield {"type": "sources", "data": {"answer": "- The cache keeps entries for ten minutes. [1]",
                                           "citations": [cite], "answer_follows": True}}
        time.sleep(0.5)  # the model loads and reads
        yield {"type": "chunk", "data": {"content": "Entries expire [1]."}}
        yield {"type": "citations", "data": {"citations": [cite]}}
        yield {"type": "done", "data": {"unsupported": [], "mode": "local:m"}}

    answer = timed(events())
    assert answer.first_chunk_s is not None and answer.first_chunk_s < 0.5 <= answer.seconds
    assert answer.answer == "Entries expire [1]." and answer.sources.startswith("- The cache keeps")
    scored = score_answer({"id": "q", "set": "docs", "facts": ["ten minutes"]}, answer, LocatorText(tmp_path))
    assert scored["fact"] and not scored["fact_model_text"]  # in the quotes beside the words, not in them


def test_names_the_folder_lacks_are_counted_by_the_evals_own_rule(tmp_path):
    """Issue 28: a model's made-up call or setting is counted; a name the folder, the question or
    the answer's own example holds is not; the quotes under a model's words are not read."""
    from athena_lab.answer_eval import LocatorText, score_answers

    cite = _cache_doc(tmp_path)
    (tmp_path / "b.py").write_text("cache = Cache(ttl=600)\ncache.renew('k')\n")
    text = ("Call `cache.renew()` to keep an entry [1]. Set CACHE_FOREVER_MODE to keep it forever, "
            "or call `cache.pin_entry()`.\n\n```python\ndef keep(store):\n    store.renew('k')\n"
            "    store.freeze_all()\n    return my_helper\n```\n\nThe `ttl_seconds` the question names.\n\n"
            "From the sources:\n\n- The cache keeps entries for ten minutes. [1] `quoted_name_x`")
    rows = [{"id": "q", "set": "docs", "question": "What does ttl_seconds do?", "facts": ["ten minutes"]}]
    result = score_answers(rows, lambda q: _turn(text, [cite], mode="local:model.gguf"), LocatorText(tmp_path))
    assert sorted(result["details"][0]["names_not_in_folder"]) == ["CACHE_FOREVER_MODE", "cache.pin_entry",
                                                                   "store.freeze_all"]
    assert (result["names_not_in_folder"], result["answers_with_names_not_in_folder"]) == (3, 1)


def test_marked_model_sentences_count_as_supported_when_their_locator_holds_half_their_words(tmp_path):
    from athena_lab.answer_eval import LocatorText, score_answers

    cite = _cache_doc(tmp_path)
    text = ("Entries stay in the cache for ten minutes [1]. The cache is flushed to disk at midnight [1]. "
            "Each get call renews it.")
    rows = [{"id": "q", "set": "docs", "question": "How long?", "facts": ["ten minutes"]}]
    result = score_answers(rows, lambda q: _turn(text, [cite], mode="local:model.gguf"), LocatorText(tmp_path))
    assert (result["model_marked_sentences"], result["model_marked_supported"]) == (2, 0.5)
