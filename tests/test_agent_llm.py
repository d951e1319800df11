"""The loop against real HTTP servers speaking the OpenAI and Anthropic wire protocols:
tool steps, renumbered citations, one system message, the step limit, memory,
compaction and a provider dying mid-answer."""

from __future__ import annotations

import json

import pytest

from agent_corpus import indexed_flask, workspace
from athena_lab.agent.citations import marker_numbers
from athena_lab.agent.loop import LAST_CALL_NOTE
from athena_lab.answer import collect
from wire_servers import AnthropicWireServer, OpenAIWireServer, RecordedRequest, ScriptedToolCall, Turn

pytestmark = pytest.mark.unit

QUESTION = "How do I mount a blueprint at a URL prefix?"


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return indexed_flask(tmp_path_factory)


def _ask(root, url, question=QUESTION, kind="openai", **options):
    ws = workspace(root, **options.pop("overrides", {}))
    try:
        stream = list(ws.ask_events(question, provider=kind, model="tiny", base_url=url, **options))
        answer = collect(stream)
        return stream, answer, {answer.conversation_id: ws.conversations.get(answer.conversation_id)}
    finally:
        ws.close()


def _tool_results(request: RecordedRequest) -> list[dict]:
    return [json.loads(m["content"].split("\n\n(That was")[0]) for m in request.body["messages"] if m["role"] == "tool"]


def test_tool_step_then_answer_with_renumbered_validated_citations(root):
    def script(request: RecordedRequest) -> Turn:
        results = _tool_results(request)
        if not results:
            return Turn(tool_calls=[ScriptedToolCall("c1", "searchDocs", {"query": "register_blueprint url_prefix", "limit": 3})])
        ref = results[0]["results"][0]["ref"]
        return Turn(text=[f"Pass url_prefix when you call register_blueprint to mount the blueprint [{ref}][99]. ",
                          f"Flask ships a PostgreSQL cluster manager for quantum deployments [{ref}]. ",
                          "Blueprints require a Kubernetes operator to be installed."])

    server = OpenAIWireServer(script)
    with server as url:
        stream, answer, _ = _ask(root, url)
    first, second = server.chat_requests
    systems = [m for m in first.body["messages"] if m["role"] == "system"]
    assert len(systems) == 1 and first.body["messages"][0]["role"] == "system"
    asked = first.body["messages"][-1]
    assert asked["role"] == "user" and asked["content"].rstrip().endswith("Answer in English.")
    assert "[1] " in asked["content"]  # retrieval ran before the model spoke: the passages come with the question
    assert "Passages:\n" not in systems[0]["content"]  # the rules alone: the same every turn
    assert {t["function"]["name"] for t in first.body["tools"]} >= {"searchDocs", "readSourceRange"}
    tool_hit = _tool_results(second)[0]["results"][0]
    assert [e.type for e in stream][:2] == ["start", "trace"]
    assert [t["tool"] for t in answer.trace] == ["searchDocs", "readPassages", "searchDocs"]
    # the quotes came first, numbered from 1; the model's marker continues their numbering
    quoted = next(e.data["citations"] for e in stream if e.type == "sources")
    assert quoted and [c["id"] for c in answer.citations[:len(quoted)]] == list(range(1, len(quoted) + 1))
    cited = next(c for c in answer.citations
                 if (c["path"], c["start_line"]) == (tool_hit["path"], tool_hit["locator"]["startLine"]))
    assert answer.answer.startswith(f"Pass url_prefix when you call register_blueprint to mount the blueprint [{cited['id']}]. ")
    assert "[99]" not in answer.answer and set(marker_numbers(answer.answer)) == {cited["id"]}
    assert len(answer.citations) == len(quoted) + (cited["id"] > len(quoted))
    assert answer.unsupported == ["Flask ships a PostgreSQL cluster manager for quantum deployments",
                                  "Blueprints require a Kubernetes operator to be installed."]
    assert answer.mode == "openai:tiny"
    assert answer.usage == {"input_tokens": 22, "output_tokens": 14}


def test_step_limit_stops_a_model_that_calls_tools_forever(root):
    server = OpenAIWireServer(lambda request: Turn(tool_calls=[ScriptedToolCall("g", "grepDocs", {"pattern": "blueprint"})]))
    with server as url:
        stream, answer, _ = _ask(root, url, overrides={"llm.max_steps": 3})
    assert len(server.chat_requests) == 3
    assert server.chat_requests[-1].body["messages"][-1]["content"].endswith(LAST_CALL_NOTE)
    assert answer.trace[-1]["tool"] == "stepLimit"
    assert [t["tool"] for t in answer.trace].count("grepDocs") == 2
    assert stream[-1].type == "done" and stream[-1].data["step_limit"] == 3
    assert "step limit" in answer.answer and answer.citations  # the evidence still answers


def test_anthropic_answer_in_the_question_language(root, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    server = AnthropicWireServer([Turn(text=["How do I mount a blueprint with a URL prefix?"]),  # retrieval's translation
                                  Turn(text=["Usa register_blueprint con url_prefix ", "para montar el blueprint [1]."])])
    with server as url:
        _, answer, _ = _ask(root, url, "¿Cómo monto un blueprint con un prefijo de URL?", kind="anthropic")
    body = server.chat_requests[1].body
    last = body["messages"][-1]["content"]
    text = last if isinstance(last, str) else "".join(block.get("text", "") for block in last)
    assert text.rstrip().endswith("Answer in Spanish.")
    assert body["system"].startswith("You are Athena") and all(m["role"] != "system" for m in body["messages"])
    number = marker_numbers(answer.answer)
    assert answer.answer == f"Usa register_blueprint con url_prefix para montar el blueprint [{number[0]}]."
    assert answer.mode == "anthropic:tiny" and number[0] in {c["id"] for c in answer.citations}


def test_follow_up_sees_questions_and_summaries_not_tool_traces(root):
    script = [Turn(tool_calls=[ScriptedToolCall("c1", "grepDocs", {"pattern": "url_prefix"})]),
              Turn(text=["Call register_blueprint with url_prefix [1]. The rules get the prefix [1]. Extra detail [1]."]),
              Turn(text=["Use test_client to test it [1]."])]
    server = OpenAIWireServer(script)
    with server as url:
        _, first, _ = _ask(root, url)
        _, second, store = _ask(root, url, "And how do I test it?", conversation_id=first.conversation_id)
    follow_up = server.chat_requests[2].body["messages"]
    assert [m["role"] for m in follow_up] == ["system", "user", "assistant", "user"]
    assert follow_up[1]["content"] == QUESTION
    memory = follow_up[2]["content"]
    assert memory.startswith("Call register_blueprint with url_prefix. The rules get the prefix.")
    assert "Extra detail" not in memory and "Sources: " in memory
    assert not any(m.get("tool_calls") or m["role"] == "tool" for m in follow_up)
    assert "url_prefix" not in follow_up[0]["content"]  # the system message holds the rules alone
    assert follow_up[0]["content"] == server.chat_requests[0].body["messages"][0]["content"]  # unchanged: cached
    assert len(store[second.conversation_id]["messages"]) == 4 and second.conversation_id == first.conversation_id


def _two_extractive_turns(root) -> str:
    ws = workspace(root)
    try:
        cid = ws.ask("How do I register a blueprint?").conversation_id
        ws.ask("How do I load configuration from environment variables?", conversation_id=cid)
        return cid
    finally:
        ws.close()


def test_compaction_summarises_older_turns_when_the_context_is_small(root):
    cid = _two_extractive_turns(root)
    server = OpenAIWireServer([Turn(text=["The user asked about blueprints and configuration."]),
                               Turn(text=["Use app.testing [1]."])])
    with server as url:
        stream, answer, _ = _ask(root, url, "How do I run the tests?", conversation_id=cid, k=2,
                                 overrides={"llm.context_size": 1000})  # two past turns do not fit; a summary does
    compaction = next(e.data for e in stream if e.type == "compaction")
    assert compaction["method"] == "summary" and compaction["dropped_turns"] >= 1
    assert compaction["summary"] == "The user asked about blueprints and configuration."
    types = [e.type for e in stream]
    assert types.index("compaction") < types.index("chunk")
    summary_request, answer_request = server.chat_requests
    assert "How do I register a blueprint?" in summary_request.body["messages"][-1]["content"]
    systems = [m for m in answer_request.body["messages"] if m["role"] == "system"]
    assert len(systems) == 1 and "Earlier conversation summary:\nThe user asked" in systems[0]["content"]
    assert answer_request.body["messages"][-1]["content"].rstrip().endswith("Answer in English.")
    assert answer.answer == "Use app.testing [1]."


def test_compaction_falls_back_to_dropping_turns_when_summarising_fails(root):
    cid = _two_extractive_turns(root)
    server = OpenAIWireServer([Turn(status=500, error="summariser crashed"), Turn(text=["Use app.testing [1]."])])
    with server as url:
        stream, answer, _ = _ask(root, url, "How do I run the tests?", conversation_id=cid, k=2,
                                 overrides={"llm.context_size": 800})
    compaction = next(e.data for e in stream if e.type == "compaction")
    assert compaction["method"] == "dropped_oldest" and compaction["dropped_turns"] >= 1
    assert "summariser crashed" in compaction["warning"]
    assert answer.error is None and answer.answer == "Use app.testing [1]."


def test_user_message_is_kept_when_the_provider_dies_mid_stream(root):
    server = OpenAIWireServer([Turn(text=["Blue", "prints ", "are"], cut_after=2)])
    with server as url:
        stream, answer, store = _ask(root, url)
    assert stream[0].type == "start" and stream[-1].type == "error"
    assert "ended unexpectedly" in answer.error or "closed" in answer.error
    messages = store[answer.conversation_id]["messages"]
    assert [(m["role"], m["content"]) for m in messages] == [("user", QUESTION)]


def test_unreachable_provider_is_one_clear_error(root):
    from wire_servers import free_port

    stream, answer, _ = _ask(root, f"http://127.0.0.1:{free_port()}/v1")
    assert [e.type for e in stream][-1] == "error"
    assert "127.0.0.1" in answer.error and "Traceback" not in answer.error


def test_a_question_in_another_language_is_also_searched_in_english(root):
    spanish = "¿Cómo monto un blueprint bajo un prefijo de URL?"

    def script(request: RecordedRequest) -> Turn:
        system = request.body["messages"][0]["content"]
        if system.startswith("You are a translator."):
            return Turn(text=["How do I mount a blueprint ", "at a URL prefix?"])
        return Turn(text=["Pasa url_prefix a register_blueprint [1]."])

    server = OpenAIWireServer(script)
    with server as url:
        stream, answer, _ = _ask(root, url, question=spanish)
    kinds = [e.type for e in stream]
    steps = [(i, e.data["tool"]) for i, e in enumerate(stream) if e.type == "trace"]
    translating = next(i for i, tool in steps if tool == "translate")
    shown = [i for i, kind in enumerate(kinds) if kind == "sources"]
    # the quotes for the question as asked go out before the model translates; a search in
    # English that changes them replaces them whole, before the model's first word
    assert shown[0] < translating and shown[-1] < kinds.index("chunk") and len(shown) <= 2
    last = stream[shown[-1]].data["citations"]
    assert [c["id"] for c in last] == list(range(1, len(last) + 1))
    assert [(c["id"], c["path"]) for c in answer.citations[:len(last)]] == [(c["id"], c["path"]) for c in last]
    translation = server.chat_requests[0]
    assert translation.body["messages"][-1]["content"] == "Translate into English:\n\n" + spanish
    asked, translated = [t for t in answer.trace if t["tool"] == "searchDocs"]
    assert "translated" not in asked["input"]  # the question as asked first: its quotes go out before any model call
    assert translated["input"]["translated"] == "How do I mount a blueprint at a URL prefix?"
    assert "register_blueprint" in answer.answer and answer.citations


PORTUGUESE = "Dá para montar um blueprint sob um prefixo de URL?"
ANSWERED = "Yes, it is possible to mount a blueprint under a URL prefix."


def _ask_a_translator_that_answers(root, asked_again: str):
    """A Portuguese question to a model that answers "translate this" with an answer, and
    ``asked_again`` when asked once more (the question set apart)."""

    def script(request: RecordedRequest) -> Turn:
        if request.body["messages"][0]["content"].startswith("You are a translator."):
            again = request.body["messages"][-1]["content"].startswith("Translate this question word for word")
            return Turn(text=[asked_again if again else ANSWERED])
        return Turn(text=["Passe url_prefix a register_blueprint [1]."])

    with OpenAIWireServer(script) as url:
        stream, answer, _ = _ask(root, url, question=PORTUGUESE)
    return stream, answer, [t["input"] for t in answer.trace if t["tool"] == "searchDocs"]


def test_a_translation_that_answers_the_question_twice_is_dropped_and_the_question_searched_as_written(root):
    stream, answer, searches = _ask_a_translator_that_answers(root, ANSWERED)
    assert len(searches) == 1 and "translated" not in searches[0]  # the model's answer is never searched
    assert "instead of translating" in stream[-1].data["translation_failed"]
    assert "register_blueprint" in answer.answer and answer.citations


def test_a_model_that_answers_instead_of_translating_is_asked_once_more_for_the_translation(root):
    _, _, searches = _ask_a_translator_that_answers(root, "Can I mount a blueprint under a URL prefix?")
    assert searches[-1]["translated"] == "Can I mount a blueprint under a URL prefix?"


FRENCH = ("Des capteurs nous envoient du JSON compressé dans le corps des requêtes. "
          "Comment monter un blueprint sous un préfixe d'URL ?")


def test_a_translation_that_leaves_a_sentence_out_is_asked_for_sentence_by_sentence(root):
    """The 1.5B translated only the question of a two-sentence message, losing the sentence
    that named what to search for; asked piece by piece, the whole message is searched."""

    def script(request: RecordedRequest) -> Turn:
        asked = request.body["messages"][-1]["content"]
        if request.body["messages"][0]["content"].startswith("You are a translator."):
            if asked.endswith(FRENCH):
                return Turn(text=["How do I mount a blueprint under a URL prefix?"])  # the first sentence lost
            if asked.endswith("requêtes."):
                return Turn(text=["Sensors send us compressed JSON in the body of requests."])
            return Turn(text=["How can I mount a blueprint under a URL prefix?"])
        return Turn(text=["Passe url_prefix a register_blueprint [1]."])

    with OpenAIWireServer(script) as url:
        _, answer, _ = _ask(root, url, question=FRENCH)
    searched = [t["input"] for t in answer.trace if t["tool"] == "searchDocs"][-1]
    assert searched["translated"] == ("Sensors send us compressed JSON in the body of requests. "
                                      "How can I mount a blueprint under a URL prefix?")


def test_an_english_question_is_not_sent_for_translation(root):
    server = OpenAIWireServer([Turn(text=["Use url_prefix [1]."])])
    with server as url:
        _, answer, _ = _ask(root, url)
    assert len(server.chat_requests) == 1
    assert "translated" not in answer.trace[0]["input"]


def test_an_answer_that_cites_nothing_keeps_the_quotes_beside_it_and_its_claim_flagged(root):
    server = OpenAIWireServer([Turn(text=["Penguins orchestrate quarterly tax audits in Antarctica."])])
    with server as url:
        _, answer, stored = _ask(root, url)
    said = "Penguins orchestrate quarterly tax audits in Antarctica."
    assert answer.answer == said  # the model's words alone: no "From the sources:" floor under them
    assert answer.unsupported == [said.rstrip(".")] or answer.unsupported == [said]  # the model's claim stays flagged
    assert "[1]" in answer.sources and answer.citations[0].get("evidence")  # quotes cited to their lines
    message = stored[answer.conversation_id]["messages"][-1]
    assert (message["content"], message["sources"]) == (said, answer.sources)  # a reload shows both


def test_a_model_that_says_the_sources_do_not_answer_is_not_flagged(root):
    server = OpenAIWireServer([Turn(text=["The index has no evidence for this question."])])
    with server as url:
        _, answer, _ = _ask(root, url)
    assert answer.answer == "The index has no evidence for this question." and answer.unsupported == []


def test_a_selected_answers_lead_sentence_with_a_name_the_folder_lacks_is_left_out(root):
    """Select mode: the quotes carry the answer, so a lead sentence with a made-up name is
    dropped (and said so in the trace), never shown; the lead's other sentence stays."""
    lead = "1\nCall `frobnicate_blueprints()` first. Register it with a url_prefix.\n"
    server = OpenAIWireServer([Turn(text=[lead[:9], lead[9:30], lead[30:]])])
    with server as url:
        stream, answer, _ = _ask(root, url, overrides={"llm.answer_style": "select"})
    assert answer.error is None, answer.error
    assert "frobnicate" not in answer.answer, answer.answer
    assert "Register it with a url_prefix" in answer.answer, answer.answer
    checks = [t for t in answer.trace if t["tool"] == "checkNames"]
    assert checks and any("frobnicate_blueprints" in n for n in checks[0]["input"]["names"]), answer.trace
    assert not any("frobnicate" in str(e.data) for e in stream if e.type == "chunk")
    assert not answer.not_found
    assert any(line.startswith("- ") for line in answer.answer.splitlines()), answer.answer


def test_a_lead_is_kept_whole_when_every_name_is_in_the_folder():
    from athena_lab.agent.select import checked_lead

    lead = "Pass url_prefix to register_blueprint. It mounts every route.\nSecond line."
    assert checked_lead(lead, lambda sentence, defined: []) == (lead, [])
    kept, lost = checked_lead(lead, lambda sentence, defined: ["register_blueprint"] if "register" in sentence else [])
    assert (kept, lost) == ("It mounts every route.\nSecond line.", ["register_blueprint"])
