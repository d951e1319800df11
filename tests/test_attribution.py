"""Markers a small model leaves out are added as its sentences finish (agent/attribute.py).

A sentence gets the passage that holds the largest share of its key terms, the same test
the citation check applies afterwards; one no passage supports keeps no marker and is
flagged. The result must not depend on how the model's stream happens to be cut.
"""

from __future__ import annotations

import random

import pytest

from athena_lab.agent.attribute import Attributor
from athena_lab.agent.support import unsupported_sentences

pytestmark = pytest.mark.unit

PASSAGES = {
    1: "To set the secret key, assign app.secret_key a random bytes value. Flask signs session cookies with it.",
    2: "Blueprints are registered with app.register_blueprint(simple_page) on the application object.",
}


def _stream(text: str, seed: int = 0) -> tuple[str, int]:
    rng, attributor, out, at = random.Random(seed), Attributor(PASSAGES), "", 0
    while at < len(text):
        step = rng.randint(1, 6)
        out += attributor.feed(text[at:at + step])
        at += step
    return out + attributor.flush(), attributor.added


def test_an_unmarked_sentence_gets_the_passage_that_supports_it_before_its_full_stop():
    out, added = _stream("You assign `app.secret_key` a random bytes value. "
                         "Register blueprints with `app.register_blueprint()` on the application object!")
    assert out == ("You assign `app.secret_key` a random bytes value [1]. "
                   "Register blueprints with `app.register_blueprint()` on the application object [2]!")
    assert added == 2
    assert unsupported_sentences(out, PASSAGES) == []


def test_a_sentence_no_passage_supports_keeps_no_marker_and_stays_flagged():
    out, added = _stream("The moon is made of green cheese and rocks.")
    assert out == "The moon is made of green cheese and rocks." and added == 0
    assert unsupported_sentences(out, PASSAGES) == ["The moon is made of green cheese and rocks."]


def test_marked_sentences_code_blocks_and_lead_ins_are_left_as_written():
    text = ("Flask signs the session cookies with it [1]. Here is how:\n\n"
            "```python\napp.secret_key = b'random bytes value. Flask signs'\n```\n")
    out, added = _stream(text)
    assert out == text and added == 0


def test_dots_inside_names_and_versions_do_not_end_a_sentence():
    out, _ = _stream("Version 2.0 and app.register_blueprint e.g. register blueprints on the application object.")
    assert out == "Version 2.0 and app.register_blueprint e.g. register blueprints on the application object [2]."


def test_the_result_does_not_depend_on_where_the_stream_is_cut():
    text = ("- You assign `app.secret_key` a random bytes value.\n- Flask signs session cookies with it. [1] "
            "Then more.\n\n```\nx = 1. Y\n```\nRegister blueprints on the application object.\nThe moon is cheese.")
    outputs = {_stream(text, seed)[0] for seed in range(60)}
    assert len(outputs) == 1
    assert outputs.pop() == text.replace("random bytes value.", "random bytes value [1].").replace(
        "on the application object.", "on the application object [2].")


def test_tables_indented_code_abbreviations_and_ellipses_are_left_intact():
    text = ("| Setting | Default |\n|---|---|\n| secret key | random bytes value |\n\n"
            "    app.secret_key = random bytes value\n"
            "Markdown, reStructuredText, etc. are signed... Flask signs the session cookies with the secret key")
    out, _ = _stream(text)
    assert out.splitlines()[:5] == text.splitlines()[:5]  # no marker in a table row or a code line
    assert "etc. are signed..." in out and out.endswith("Flask signs the session cookies with the secret key [1]")


def test_a_stray_backtick_does_not_leave_later_markers_unrenumbered():
    from athena_lab.agent.citations import TurnEvidence, EvidenceItem, MarkerRewriter

    evidence = TurnEvidence([EvidenceItem(1, {"kind": "text", "path": "a.md"}, "x"),
                         EvidenceItem(2, {"kind": "text", "path": "b.md"}, "y")])
    rewriter = MarkerRewriter(evidence)
    out = rewriter.feed("Press the ` key first.\nBlueprints are registered on the application [2].") + rewriter.flush()
    assert out.endswith("application [1].") and rewriter.mapping == {2: 1}


def _names_stream(text: str, seed: int, unknown: set[str]) -> tuple[str, Attributor]:
    from athena_lab.agent.names import sentence_names

    def missing(sentence: str, defined: set[str]) -> list[str]:
        return [n.written for n in sentence_names(sentence, defined) if set(n.parts) & unknown]

    rng, attributor, out, at = random.Random(seed), Attributor(PASSAGES, missing), "", 0
    while at < len(text):
        step = rng.randint(1, 6)
        out += attributor.feed(text[at:at + step])
        at += step
    return out + attributor.flush(), attributor


def test_a_sentence_with_a_name_the_folder_lacks_gets_no_marker_not_even_the_models_own():
    text = ("You assign `app.secret_key` a random bytes value. Then call `app.rotate_secret_key()` "
            "on the application object [2]. Register blueprints on the application object [2].\n")
    outputs = set()
    for seed in range(40):
        out, attributor = _names_stream(text, seed, {"rotate_secret_key"})
        outputs.add(out)
    assert outputs == {"You assign `app.secret_key` a random bytes value [1]. Then call `app.rotate_secret_key()` "
                       "on the application object. Register blueprints on the application object [2].\n"}
    assert attributor.withheld == ["Then call `app.rotate_secret_key()` on the application object [2]."]
    flagged = unsupported_sentences(outputs.pop(), PASSAGES)
    assert flagged == ["Then call `app.rotate_secret_key()` on the application object."]


def test_a_passage_without_the_sentences_names_does_not_support_it():
    # the key terms are all there, the name is not: the passage is about register_blueprint
    text = "Blueprints are registered with app.add_blueprint(simple_page) on the application object."
    out, added = _stream(text)
    assert added == 0 and "[" not in out
    assert unsupported_sentences(text.replace(" object.", " object [2]."), PASSAGES) == [text[:-1]]


def test_with_the_name_check_on_the_result_still_does_not_depend_on_the_cut():
    """The same texts as above, through an attributor that checks names (nothing unknown):
    holding a model's own markers and the spaces before them changes nothing."""
    texts = [("- You assign `app.secret_key` a random bytes value.\n- Flask signs session cookies with it. [1] "
              "Then more.\n\n```\nx = 1. Y\n```\nRegister blueprints on the application object.\nThe moon is cheese."),
             ("| Setting | Default |\n|---|---|\n| secret key | random bytes value |\n\n"
              "    app.secret_key = random bytes value\n"
              "Markdown, reStructuredText, etc. are signed... Flask signs the session cookies [1] with the key [x]"),
             "See [the guide](https://example.com/a) for it [2]. Flask  signs  cookies  [1].  Two  spaces [9]."]
    for text in texts:
        plain = {_stream(text, seed)[0] for seed in range(30)}
        checked = {_names_stream(text, seed, set())[0] for seed in range(30)}
        assert len(plain) == 1 and checked == plain, (text, checked ^ plain)
