"""Nothing invented (issue 28): a name the folder does not hold is marked, never cited, and a
correct answer in another language is not flagged.

Real components throughout: CI's bundled model (Qwen2.5-Coder 0.5B Instruct, llama.cpp
in-process) asked about an API the test folder does not have, and the multilingual channel's
model (multilingual-e5-small) judging Spanish, French and German sentences against the
English passage they render.
"""

from __future__ import annotations

import os

import pytest

from athena_lab.agent.citations import split_sentences
from athena_lab.agent.support import unsupported_sentences
from athena_lab.workspace import Workspace

pytestmark = [pytest.mark.integration, pytest.mark.slow]

SMALL = "qwen2.5-coder-0.5b-instruct"
DOC = """# Zephyr gateway

The Zephyr gateway forwards requests from the edge to the billing service.

## Configuration

The gateway reads its listening port from the ZEPHYR_PORT environment variable. When ZEPHYR_PORT is
not set, the gateway listens on port 7414.

Requests that take longer than the timeout are cancelled. Set ZEPHYR_TIMEOUT to a number of seconds
to change the timeout; the default is 45 seconds.

## Python client

Connect with `zephyr.connect(host, port)`, which returns a `Gateway`. Call `gateway.forward(request)`
to send one request through it, and `gateway.close()` when done.
"""
# Nothing in DOC says how to set a header: at temperature 0 the 0.5B answers with a setting it
# makes up (ZEPHYR_CUSTOM_HEADER when this was written). Whatever it invents must be caught.
MADE_UP = "How do I set a custom header on every request the Zephyr Python client forwards?"


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    pytest.importorskip("xllamacpp")
    cache = tmp_path_factory.mktemp("model-cache")
    root = tmp_path_factory.mktemp("zephyr")
    (root / "gateway.md").write_text(DOC)
    old = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(cache)
    athena = Workspace(root, overrides={"llm.provider": "local", "llm.answer_style": "free", "llm.model": SMALL, "llm.max_tokens": 160,
                                        "llm.temperature": 0.0, "multilingual.build": "always"})
    athena.index()
    yield athena
    athena.close()
    if old is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = old


def test_a_made_up_name_is_marked_not_found_and_its_sentence_is_not_cited(ws):
    answer = ws.ask(MADE_UP)
    assert answer.error is None, answer.error
    assert answer.not_found, f"the model's answer named nothing the folder lacks: {answer.answer!r}"
    for entry in answer.not_found:
        assert entry["name"].lower().strip("()=") not in DOC.lower()
        assert entry["sentence"] in answer.answer  # findable, verbatim, in what the reader sees
    prose = [e["sentence"] for e in answer.not_found if e["sentence"] in " ".join(split_sentences(answer.answer))]
    for sentence in prose:
        cited = next(s for s in split_sentences(answer.answer) if sentence in s)
        assert "[" not in cited.replace(sentence, ""), f"a marker on {cited!r}"
        assert any(sentence in flag or flag in sentence for flag in answer.unsupported), answer.unsupported
    # the answer stored with it marks the same names again after a reload
    stored = ws.conversations.get(answer.conversation_id)["messages"][-1]
    assert stored["not_found"] == answer.not_found


def test_names_the_folder_holds_are_not_marked(ws):
    answer = ws.ask("What port does the Zephyr gateway listen on when nothing is configured?")
    assert answer.error is None, answer.error
    assert "7414" in answer.answer + answer.sources
    assert not [e for e in answer.not_found if "ZEPHYR_PORT" in e["name"] or "7414" in e["name"]]


PASSAGE = {1: DOC}
CORRECT = {  # what DOC says, in other words: hardly a key term in common with it
    "es": "El gateway reenvía las solicitudes desde el borde hasta el servicio de facturación [1]. "
          "Las solicitudes que tardan más que el tiempo de espera se cancelan [1].",
    "fr": "La passerelle Zephyr transmet les requêtes depuis la périphérie vers le service de facturation [1]. "
          "Les requêtes qui durent plus longtemps que le délai sont annulées [1].",
    "de": "Das Gateway leitet Anfragen vom Rand an den Abrechnungsdienst weiter [1]. "
          "Anfragen, die länger als das Zeitlimit dauern, werden abgebrochen [1].",
}


def _across(ws):
    from athena_lab.agent.extractive import cross_language_similarity

    across = cross_language_similarity(ws.multilingual_embedder())
    assert across is not None, "the multilingual channel's model is installed by default"
    return across


@pytest.mark.parametrize("language", sorted(CORRECT))
def test_a_correct_answer_in_another_language_carries_no_flag(ws, language):
    across = _across(ws)
    assert unsupported_sentences(CORRECT[language], PASSAGE) != []  # key terms alone flag it
    assert unsupported_sentences(CORRECT[language], PASSAGE, "", across) == []


def test_a_wrong_sentence_in_another_language_is_still_flagged(ws):
    wrong = ("El gateway guarda cada solicitud en una base de datos durante treinta días [1]. "
             "Las solicitudes que tardan más que el tiempo de espera se cancelan [1].")
    flagged = unsupported_sentences(wrong, PASSAGE, "", _across(ws))
    assert flagged == ["El gateway guarda cada solicitud en una base de datos durante treinta días"]


def test_a_spanish_answer_from_the_model_carries_no_flag(ws):
    answer = ws.ask("¿En qué puerto escucha el gateway Zephyr cuando no se configura nada?")
    assert answer.error is None, answer.error
    assert "7414" in answer.answer, answer.answer
    assert answer.unsupported == [], (answer.answer, answer.unsupported)


def test_a_bundled_model_selects_by_default_and_quotes_the_chosen_sentences_under_a_short_lead(tmp_path):
    pytest.importorskip("xllamacpp")
    root = tmp_path / "zephyr"
    root.mkdir()
    (root / "gateway.md").write_text(DOC)
    # no llm.answer_style: "auto" is select for a bundled local model
    ws = Workspace(root, tmp_path / "idx", overrides={"llm.provider": "local", "llm.model": SMALL,
                                                      "llm.temperature": 0.0, "llm.hyde": True})
    ws.index()
    try:
        answer = ws.ask("What port does the Zephyr gateway listen on when nothing is configured?")
    finally:
        ws.close()
    assert answer.error is None, answer.error
    steps = [(t["tool"], t["input"]) for t in answer.trace]
    # HyDE searched again with an imagined passage, after the first search (and the sources)
    assert [tool for tool, _ in steps if tool == "searchDocs"] == ["searchDocs", "searchDocs"]
    assert steps[-2][1].get("hypothetical") and steps[-1][0] == "readPassages"
    # the chosen sentences are the documents' own, each with its marker (neighbours of one
    # passage share a bullet, as the offline answer renders them: "- A. [1] B. [1]")
    quoted = [line for line in answer.answer.splitlines() if line.startswith("- ")]
    assert quoted and all(line.endswith("[1]") for line in quoted), answer.answer
    plain = " ".join(DOC.replace("`", "").split())
    sentences = [" ".join(part.replace("`", "").split()) for line in quoted for part in line[2:].split("[1]")]
    assert all(s in plain for s in sentences if s), answer.answer
    assert answer.unsupported == [], answer.unsupported
