"""One contract across front ends: the same citation gets the same label everywhere, and
one fold turns a turn's events into the same answer for every Python front end.

The TypeScript side (labels, markers, SSE parsing) is tested by `cd labextension && npm test`,
a step of its own in `./run test` that fails the run: not from here, where a missing npm or
node_modules used to turn it into a skip inside the unit tier."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from athena_lab import events
from athena_lab.answer import Answer, collect, fold
from athena_lab.citations.labels import citation_location
from athena_lab.render import answer_text, stream_text
from athena_lab.widget import AnswerWidget

pytestmark = pytest.mark.unit

FIXTURES = Path(__file__).parent / "fixtures"
LABELS = json.loads((FIXTURES / "citation_labels.json").read_text())

NB_CITE = {"id": 1, "kind": "notebook", "path": "nb/a.ipynb", "cell": 12, "start_line": 3, "end_line": 9,
           "label": "nb/a.ipynb cell 13", "snippet": "x = 1"}
STREAM = [events.start("c-1"), events.trace("searchDocs", {"query": "x"}, "2 hits"),
          events.chunk("Set x to one "), events.chunk("[1]."),
          events.Event("citations", {"citations": [NB_CITE]}),
          events.Event("done", {"usage": {"input": 3}, "unsupported": [], "mode": "extractive",
                                "conversation_id": "c-1", "degraded": None})]


@pytest.mark.parametrize("case", LABELS, ids=[c["label"] for c in LABELS])
def test_citation_labels_are_one_style_with_one_based_cells(case) -> None:
    assert citation_location(case["citation"]) == case["label"]


def test_every_python_front_end_folds_the_stream_to_the_same_answer() -> None:
    folded = collect(STREAM)
    assert (folded.answer, folded.mode, folded.conversation_id) == ("Set x to one [1].", "extractive", "c-1")

    widget = AnswerWidget(None, question="q")
    for event in STREAM:
        widget.apply(event)
    assert (widget.answer, widget.mode, widget.conversation_id, widget.streaming) == (
        folded.answer, folded.mode, folded.conversation_id, False)

    out, err = io.StringIO(), io.StringIO()
    printed = stream_text(STREAM, out, err)
    assert printed.to_dict() == folded.to_dict()
    assert "[1] nb/a.ipynb cell 13" in out.getvalue()
    assert "[1] nb/a.ipynb cell 13" in answer_text(folded.answer, folded.citations, [])
    assert "mode: extractive" in err.getvalue() and "mode" not in out.getvalue()


def test_an_error_event_ends_the_answer_with_its_message() -> None:
    answer = fold(Answer(), events.error("the model server at 127.0.0.1:9 refused the connection"))
    assert answer.error.startswith("the model server") and not answer.streaming


def test_search_citations_carry_the_label(tmp_path) -> None:
    from athena_lab.workspace import Workspace

    (tmp_path / "guide.md").write_text("# Guide\n\nTokens expire after one hour.\n")
    ws = Workspace(tmp_path, tmp_path / ".idx", overrides={"embedding.provider": "none"})
    ws.index()
    cites = ws.search_citations("tokens expire", k=1)
    assert cites[0]["label"] == citation_location(cites[0]) == "guide.md:3"
    ws.close()


def test_the_contract_page_names_every_event_citation_and_answer_field(tmp_path) -> None:
    """docs/contract.md is the users' copy of the contract: it must not drift from the code."""
    from dataclasses import fields

    from athena_lab.events import EVENT_TYPES
    from athena_lab.workspace import Workspace

    page = (Path(__file__).parent.parent / "docs" / "contract.md").read_text()
    for name in EVENT_TYPES:
        assert f"| `{name}` |" in page, f"event {name} missing from docs/contract.md"
    for f in fields(Answer):
        if f.name != "streaming":
            assert f"| `{f.name}` |" in page, f"Answer.{f.name} missing from docs/contract.md"
    (tmp_path / "a.md").write_text("# A\n\nAlpha beta gamma.\n")
    ws = Workspace(tmp_path, tmp_path / ".idx", overrides={"embedding.provider": "none"})
    ws.index()
    for key in ws.search_citations("alpha", k=1)[0]:
        assert f"`{key}`" in page, f"citation field {key} missing from docs/contract.md"
    ws.close()


@pytest.fixture(scope="module")
def small_ws(tmp_path_factory):
    from athena_lab.workspace import Workspace

    root = tmp_path_factory.mktemp("contract")
    (root / "guide.md").write_text("# Guide\n\nTokens expire after one hour.\n")
    ws = Workspace(root, root / ".idx", overrides={"embedding.provider": "none"})
    ws.index()
    yield ws
    ws.close()


@pytest.mark.parametrize("options, field", [
    ({"k": 500}, "'k' must be"), ({"k": 0}, "'k' must be"), ({"provider": "gpt"}, "provider"),
    ({"shoe_size": 9}, "unknown option shoe_size"),
    ({"filters": {"kind": "slides"}}, "unknown kind"), ({"filters": {"colour": "x"}}, "may hold only path_prefix, kind, collection"),
    ({"filters": {"year": "last year"}}, "filters.year"), ({"filters": {"papers": "x"}}, "filters.papers"),
    ({"context": "x" * 20001}, "'context' is 20001 characters"), ({"context": 5}, "'context' must be a string"),
])
def test_a_bad_option_is_refused_before_a_conversation_is_created(small_ws, options, field) -> None:
    from athena_lab.errors import AthenaError

    before = len(small_ws.conversations.list())
    with pytest.raises(AthenaError, match=field) as raised:
        small_ws.ask("when do tokens expire?", **options)
    assert raised.value.status == 400
    assert len(small_ws.conversations.list()) == before, "no empty conversation is left behind"


def test_a_request_object_and_keywords_ask_the_same_question(small_ws) -> None:
    from athena_lab.request import AskRequest

    by_keywords = small_ws.ask("when do tokens expire?", k=1, filters={"kind": "markdown"})
    by_request = small_ws.ask(AskRequest("when do tokens expire?", k=1, filters={"kind": "markdown"}))
    assert by_keywords.answer == by_request.answer and by_keywords.citations == by_request.citations
    assert by_keywords.trace[0]["input"]["limit"] == 1


def test_the_old_top_k_is_still_read_with_a_deprecation_warning(small_ws) -> None:
    with pytest.warns(DeprecationWarning, match="'top_k' is now 'k'"):
        answer = small_ws.ask("when do tokens expire?", top_k=1)
    assert answer.trace[0]["input"]["limit"] == 1


def test_options_beside_a_request_object_are_refused(small_ws) -> None:
    from athena_lab.errors import RequestError
    from athena_lab.request import AskRequest

    with pytest.raises(RequestError, match="go into the AskRequest"):
        small_ws.ask(AskRequest("when do tokens expire?"), k=2)


def test_an_attached_cell_reaches_the_search_query_of_an_extractive_answer(small_ws) -> None:
    answer = small_ws.ask("what does this set?", context="settings.token_expiry = 3600  # tokens expire")
    query = answer.trace[0]["input"]["query"]
    assert query.startswith("what does this set?") and "token_expiry" in query
    assert answer.citations and answer.citations[0]["path"] == "guide.md"


def test_user_errors_carry_their_http_status_exit_code_and_one_line() -> None:
    from athena_lab.errors import ConfigError
    from athena_lab.errors import AthenaError, status_of, user_message
    from athena_lab.errors import CatalogError
    from athena_lab.errors import EmbedderError
    from athena_lab.errors import IndexBusyError
    from athena_lab.errors import SearchError
    from athena_lab.errors import MissingPathError, PathError

    expected = {ConfigError: (400, 2), SearchError: (400, 2), PathError: (400, 2), MissingPathError: (404, 2),
                CatalogError: (409, 2), IndexBusyError: (409, 3), EmbedderError: (503, 2)}
    for kind, (status, code) in expected.items():
        exc = kind("something\n  went wrong")
        assert isinstance(exc, AthenaError) and (status_of(exc), exc.exit_code) == (status, code), kind
        assert user_message(exc) == "something went wrong"
    assert status_of(KeyError("chunk_id")) == 500, "a bug is a bug, not a user error"


def test_a_bug_in_the_loop_is_raised_not_turned_into_an_answer(small_ws, monkeypatch) -> None:
    from athena_lab.agent import loop

    def broken(*_a, **_k):
        raise KeyError("chunk_id")

    monkeypatch.setattr(loop._Turn, "run", broken)
    with pytest.raises(KeyError):
        small_ws.ask("when do tokens expire?")


def test_the_schema_and_the_typescript_types_are_generated_from_the_models() -> None:
    """docs/contract.schema.json and labextension/src/core/contract.ts are written by
    tools/contract_schema.py from athena_lab/contract.py; a hand edit or a model change
    without regenerating fails here."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent.parent / "tools"))
    try:
        from contract_schema import rendered
    finally:
        sys.path.pop(0)
    for path, text in rendered().items():
        assert path.read_text(encoding="utf-8") == text, f"{path.name} is stale: run python tools/contract_schema.py"


def test_what_the_server_sends_matches_the_schema(small_ws) -> None:
    import jsonschema

    schema = json.loads((Path(__file__).parent.parent / "docs" / "contract.schema.json").read_text())
    events_seen = [e.to_dict() for e in small_ws.ask_events("when do tokens expire?")]
    event_schema = {**schema, "$ref": "#/$defs/Event"}
    for event in events_seen:
        jsonschema.validate(event, event_schema)
    citation_schema = {**schema, "$ref": "#/$defs/Citation"}
    for hit in small_ws.search_citations("tokens expire", k=3):
        jsonschema.validate(hit, citation_schema)
    assert {e["type"] for e in events_seen} >= {"start", "sources", "citations", "done"}


def test_status_and_health_match_their_closed_schemas(small_ws) -> None:
    """``IndexStatus`` and ``Health`` are closed in the schema: a field added to
    ``Workspace.status()`` or the health report without its model fails here."""
    import jsonschema

    schema = json.loads((Path(__file__).parent.parent / "docs" / "contract.schema.json").read_text())
    status = small_ws.status()
    jsonschema.validate(status, {**schema, "$ref": "#/$defs/IndexStatus"})
    health = small_ws.health()
    jsonschema.validate(health, {**schema, "$ref": "#/$defs/Health"})
    assert status["counts"]["files"] == 1 and health["components"]["index"]["status"] == "up"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**status, "surprise": 1}, {**schema, "$ref": "#/$defs/IndexStatus"})
