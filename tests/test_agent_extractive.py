"""The offline answering path on a real index: extractive answers, citations, events,
persistence. No model anywhere."""

from __future__ import annotations

import json
import re
from collections import OrderedDict

import pytest

from agent_corpus import indexed_flask, workspace
from athena_lab.agent.citations import marker_numbers
from athena_lab.events import Event
from athena_lab.agent.extractive import FILTERED_OUT, LEGACY_LABEL, NO_EVIDENCE
from athena_lab.errors import AthenaError
from athena_lab.answer import collect
from athena_lab.agent.memory import PastTurn, retrieval_query

pytestmark = pytest.mark.unit


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    athena = workspace(indexed_flask(tmp_path_factory))
    yield athena
    athena.close()


def test_extractive_answer_cites_real_lines_and_every_marker_resolves(ws):
    answer = ws.ask("How do I register a blueprint on an application?")
    assert answer.mode == "extractive"
    assert LEGACY_LABEL not in answer.answer and "language model" not in answer.answer
    numbers = marker_numbers(answer.answer)
    ids = [c["id"] for c in answer.citations]
    assert ids == list(range(1, len(ids) + 1)) and set(numbers) == set(ids)
    bullets = [line for line in answer.answer.splitlines() if line.startswith("- ")]
    # every cited sentence is copied from the lines its evidence names, and the label says so
    quoted = [(said.strip(" -"), int(n)) for line in bullets for said, n in re.findall(r"([^\[\]]+?) \[(\d+)\]", line)]
    assert quoted and sum(len(re.findall(r" \[\d+\]", line)) for line in bullets) == len(quoted)
    for sentence, number in quoted:
        cite = answer.citations[number - 1]
        where = next(e for e in cite["evidence"] if sentence in e["quote"])  # a lead-in is found with its sentence
        assert cite["start_line"] <= where["start_line"] <= where["end_line"] <= cite["end_line"]
        source = (ws.root / cite["path"]).read_text().splitlines()[where["start_line"] - 1:where["end_line"]]
        words = re.findall(r"\w+", sentence)[:6]
        assert " ".join(words) in " ".join(re.findall(r"\w+", " ".join(source))), sentence
        first = min(e["start_line"] for e in cite["evidence"])
        assert cite["label"].startswith(f"{cite['path']}:{first}")
    assert 1 <= len(bullets) <= 6
    assert answer.unsupported == []
    assert any("blueprints.rst" == c["path"] for c in answer.citations)


def test_question_without_evidence_says_so_instead_of_guessing(ws):
    answer = ws.ask("What is the boiling point of tungsten hexafluoride?")
    assert answer.answer == NO_EVIDENCE
    assert answer.citations == [] and answer.unsupported == []


def test_events_come_in_design_order_and_serialise_as_sse(ws):
    stream = list(ws.ask_events("How do I test CLI commands?"))
    types = [e.type for e in stream]
    # the search, then its quotes at once: in extractive mode they are the answer, no chunk follows
    assert types == ["start", "trace", "sources", "citations", "done"]
    assert stream[2].data["answer_follows"] is False and stream[2].data["answer"].startswith("- ")
    retrieval = stream[1].data
    assert retrieval["tool"] == "searchDocs" and retrieval["hits"][0]["ref"] == 1
    sse = stream[-1].to_sse()
    head, data, blank = sse.split("\n", 2)
    assert head == "event: done" and blank == "\n"
    assert json.loads(data[len("data: "):])["mode"] == "extractive"
    with pytest.raises(ValueError, match="unknown event type"):
        Event("thinking", {})


def test_conversation_keeps_question_and_cited_answer(ws):
    first = ws.ask("How do I load configuration from environment variables?")
    follow = ws.ask("and from a file?", conversation_id=first.conversation_id)
    assert follow.conversation_id == first.conversation_id
    stored = ws.conversations.get(first.conversation_id)
    assert [m["role"] for m in stored["messages"]] == ["user", "assistant", "user", "assistant"]
    assert stored["messages"][1]["citations"] == first.citations
    assert stored["messages"][1]["mode"] == "extractive"
    listed = ws.conversations.list(limit=50)
    assert listed[0]["id"] == first.conversation_id and listed[0]["turns"] == 2
    assert ws.conversations.delete(first.conversation_id) is True
    assert ws.conversations.get(first.conversation_id) is None
    assert ws.conversations.delete(first.conversation_id) is False


def test_unknown_conversation_and_empty_question_are_clear_errors(ws):
    assert "unknown conversation" in collect(ws.ask_events("hi there", conversation_id="nope")).error
    with pytest.raises(AthenaError, match="empty"):  # refused before a turn (HTTP: 400)
        ws.ask_events("   ")


def test_short_follow_up_borrows_the_previous_questions_terms():
    past = [PastTurn("How do I register a blueprint?", "Use register_blueprint.")]
    assert "blueprint" in retrieval_query("and how do I test it?", past)
    assert retrieval_query("How are configuration values loaded from files?", past) == \
        "How are configuration values loaded from files?"


def test_a_question_with_its_own_subject_searches_alone_in_the_conversation(ws):
    """Issue 31: "¿Cómo configuro la clave secreta?" after a blueprint question searched for
    the blueprint question again ("la" counted as a pronoun)."""
    first = collect(ws.ask_events("How do I register a blueprint on an application?"))
    stream = list(ws.ask_events("¿Cómo configuro la clave secreta?", conversation_id=first.conversation_id))
    search = next(e for e in stream if e.type == "trace" and e.data["tool"] == "searchDocs")
    assert search.data["input"]["query"] == "¿Cómo configuro la clave secreta?"
    follow = list(ws.ask_events("¿y cómo lo pruebo?", conversation_id=first.conversation_id))
    search = next(e for e in follow if e.type == "trace" and e.data["tool"] == "searchDocs")
    assert "clave" in search.data["input"]["query"]  # this one leans on the question before it


def test_filters_limit_the_evidence(ws):
    answer = ws.ask("How do I register commands?", filters={"path_prefix": "cli.rst"})
    assert answer.citations and {c["path"] for c in answer.citations} == {"cli.rst"}


def test_sentences_are_embedded_once_per_process_not_once_per_turn(tmp_path):
    """Embedding the top passages' sentences is most of an extractive turn; a follow-up on
    the same passages reuses their vectors (the real MiniLM embedder, counted)."""
    import numpy as np

    from athena_lab.agent.extractive import SentenceVectors
    from athena_lab.workspace import Workspace

    embedder = Workspace(tmp_path).embedder()
    calls: list[list[str]] = []

    class Counting:
        name = embedder.name

        def embed_documents(self, texts):
            calls.append(list(texts))
            return embedder.embed_documents(texts)

    cache = SentenceVectors(capacity=2)
    texts = ["Blueprints group related routes together.", "The application factory builds the app."]
    first = cache.embed(Counting(), texts)
    again = cache.embed(Counting(), texts[::-1])
    assert calls == [texts] and np.allclose(again[0], first[1])
    cache.embed(Counting(), ["A third sentence pushes out the oldest one."])
    cache.embed(Counting(), texts)
    assert calls[-1] == texts[1:]  # the least recently used one was evicted at capacity


def test_a_turn_embeds_its_question_once(tmp_path, monkeypatch):
    """The vector search and the sentence picking both need the question's vector; it is
    one model run, not two (the real MiniLM embedder, its calls counted)."""
    from athena_lab.workspace import Workspace

    (tmp_path / "signals.md").write_text(
        "# Signals\n\nThe template_rendered signal is sent when a template was rendered.\n\n"
        "# Blueprints\n\nBlueprints group related views and are registered on the application.\n")
    ws = Workspace(tmp_path)
    ws.index()
    embedder = ws.embedder()
    monkeypatch.setattr("athena_lab.index.embeddings._QUERY_VECTORS", OrderedDict())  # none kept yet
    asked: list[str] = []
    real = embedder.embed_query

    def counted(text):
        asked.append(text)
        return real(text)

    monkeypatch.setattr(embedder, "embed_query", counted)
    answer = ws.ask("Which signal is sent when a template is rendered?")
    assert answer.citations and len(asked) == 1
    ws.ask("Which signal is sent when a template is rendered?")
    assert len(asked) == 1  # asked again (regenerate): the vector is still known
    ws.close()


def test_extractive_answer_arrives_whole_in_one_sources_event(ws):
    stream = list(ws.ask_events("How do I register a blueprint on an application?"))
    assert not [e for e in stream if e.type == "chunk"]  # the quotes are the answer: nothing streams after them
    sources = next(e.data for e in stream if e.type == "sources")
    bullets = [line for line in sources["answer"].splitlines() if line.startswith("- ")]
    assert len(bullets) >= 2 and sources["answer_follows"] is False
    assert ws.ask("How do I register a blueprint on an application?").answer == sources["answer"]


def test_sources_event_cites_every_marker_it_shows_with_the_lines_of_its_quotes(ws):
    stream = list(ws.ask_events("How do I register a blueprint on an application?"))
    sources = next(e.data for e in stream if e.type == "sources")
    announced = [c["id"] for c in sources["citations"]]
    # numbered from 1 in the order quoted, and every marker names a citation the front end has
    assert announced == list(range(1, len(announced) + 1)) and announced
    assert set(marker_numbers(sources["answer"])) == set(announced)
    assert all(c.get("evidence") for c in sources["citations"])  # narrowed to the quoted lines at once
    final = stream[-2].data["citations"]
    assert final == sources["citations"]


def test_filters_that_exclude_every_source_say_so_instead_of_blaming_the_index(ws):
    answer = ws.ask("How do I register commands?", filters={"path_prefix": "no/such/folder/"})
    assert answer.answer == FILTERED_OUT and "filters exclude every indexed source" in answer.answer
    assert answer.no_evidence == "filters" and answer.citations == [] and answer.unsupported == []
    assert answer.trace[0]["summary"] == "no hits: the filters exclude every indexed source"
    by_kind = ws.ask("How do I register commands?", filters={"kind": "pdf"})
    assert by_kind.answer == FILTERED_OUT and by_kind.no_evidence == "filters"
    unrelated = ws.ask("What is the boiling point of tungsten hexafluoride?", filters={"path_prefix": "cli.rst"})
    assert unrelated.answer == NO_EVIDENCE and unrelated.no_evidence != "filters"  # the filters left sources


def test_example_questions_come_from_section_headings_and_find_passages(ws):
    questions = ws.example_questions()
    assert 2 <= len(questions) <= 4 and len(set(questions)) == len(questions)
    headings = {h.split(">")[-1].strip().lower() for _, h in ws._require_index().catalog.headings()}
    for question in questions:
        assert any(heading in question.lower() for heading in headings), question
        assert ws.ask(question).citations, question  # a click always gets a cited answer


def test_example_questions_follow_the_index_after_a_new_file(tmp_path):
    """Example questions are kept between chats, but a re-index that adds a file offers it."""
    from athena_lab.workspace import Workspace

    (tmp_path / "deploy.md").write_text("# Deploying\n\n## Running under Gunicorn\n\nRun gunicorn with four workers.\n")
    ws = Workspace(tmp_path, overrides={"embedding.provider": "none"})
    ws.index()
    first = ws.example_questions()
    assert len(first) == 1 and ws.example_questions() == first
    (tmp_path / "testing.md").write_text("# Testing\n\n## Testing the command line\n\nUse the CLI runner to invoke commands.\n")
    ws.index()
    assert len(ws.example_questions()) == 2
    ws.close()
