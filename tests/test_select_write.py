"""Select, then write (agent/select.py): the model's reply streams as numbers, held back, then
its lead; the chosen sentences are quoted as the documents wrote them, with their markers."""

from __future__ import annotations

import pytest

from athena_lab.agent.citations import EvidenceItem
from athena_lab.agent.support import unsupported_sentences
from athena_lab.agent.extractive import candidates
from athena_lab.agent.select import MOST, Selection, choices, chosen_style, messages

pytestmark = pytest.mark.unit

PASSAGE = ("# Debug mode\n\nTo turn on debug mode, run `flask run --debug`. The debugger then shows tracebacks "
           "in the browser.\n\nNever run the debugger in production: it allows executing code from the browser.\n")


def _options():
    items = [EvidenceItem(1, {"kind": "text", "path": "debug.md", "start_line": 1, "end_line": 5}, PASSAGE)]
    return choices(candidates("How do I enable debug mode?", items))


def test_the_numbers_are_held_back_and_the_lead_streams_whatever_the_cut():
    options = _options()
    assert 2 <= len(options) <= 10
    reply = "2, 1\nRun `flask run --debug`; the debugger then shows tracebacks."
    for cut in range(1, len(reply)):
        selection = Selection(options)
        shown = selection.feed(reply[:cut]) + selection.feed(reply[cut:]) + selection.flush()
        assert shown == "Run `flask run --debug`; the debugger then shows tracebacks."
        assert selection.chosen == [options[1], options[0]]


def test_the_chosen_sentences_are_quoted_verbatim_with_their_marker_and_pass_the_check():
    options = _options()
    selection = Selection(options)
    selection.feed("1\nTurn it on with the flag.")
    quotes = selection.quotes()
    assert quotes.text.startswith("- ") and "[1]" in quotes.text
    assert options[0].text in quotes.text
    assert unsupported_sentences(quotes.text, {1: PASSAGE}) == []


def test_a_reply_without_numbers_is_all_lead_and_the_best_sentence_is_quoted():
    options = _options()
    selection = Selection(options)
    assert selection.feed("Use the debug flag when you run the app.") + selection.flush() == \
        "Use the debug flag when you run the app."
    assert selection.chosen == [] and options[0].text in selection.quotes().text


def test_no_more_than_four_are_taken_and_out_of_range_numbers_are_ignored():
    options = _options() * 4
    selection = Selection(options)
    selection.feed("1, 2, 3, 4, 5, 6, 99\nLead.")
    assert len(selection.chosen) == MOST and selection.chosen == options[:MOST]


def test_the_request_numbers_the_sentences_and_asks_in_the_questions_language():
    system, user = messages(_options(), "¿Cómo activo el modo de depuración?")
    assert system.role == "system" and "first line" in system.content
    assert user.content.startswith("Sentences:\n1. ") and user.content.rstrip().endswith("Reply:")
    assert "Answer in Spanish." in user.content


def test_auto_selects_for_a_bundled_local_model_and_writes_freely_for_a_hosted_one():
    assert chosen_style("auto", "local") == "select"
    assert chosen_style("auto", "openai") == "free" and chosen_style("auto", "anthropic") == "free"
    assert chosen_style("free", "local") == "free" and chosen_style("select", "ollama") == "select"
