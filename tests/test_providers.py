"""Providers against real HTTP servers on 127.0.0.1 speaking each vendor's wire protocol."""

from __future__ import annotations

import threading
import time

import pytest

from athena_lab.agent.providers import make_provider, Message, ProviderConfig, SamplingParams, StreamEnd, TextDelta, ToolCall, ToolCallEvent, ToolSpec
from athena_lab.errors import ProviderError
from wire_servers import (
    AnthropicWireServer,
    OllamaWireServer,
    OpenAIWireServer,
    ScriptedToolCall,
    Turn,
    free_port,
)

pytestmark = pytest.mark.unit

SEARCH_TOOL = ToolSpec(
    name="searchDocs",
    description="Search the indexed documents.",
    parameters={
        "type": "object",
        "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
        "required": ["query"],
    },
)
SEARCH_CALL = ScriptedToolCall("call_7", "searchDocs", {"query": "token refresh — élan", "limit": 5})
CONVERSATION = [
    Message("system", "You answer from the docs."),
    Message("user", "How do tokens refresh?"),
    Message("system", "Answer in English."),
]
SAMPLING = SamplingParams(temperature=0.2, top_p=0.9, top_k=40, repeat_penalty=1.1, max_tokens=256, context_size=8192, seed=7)


def provider_for(kind: str, url: str, **overrides):
    config = dict(kind=kind, base_url=url, model="tiny", timeout_s=5.0, retry_delay_s=0.05)
    config.update(overrides)
    return make_provider(ProviderConfig(**config))


def events_of(provider, messages=CONVERSATION, tools=None, sampling=None):
    return list(provider.stream(messages, tools, sampling))


# -- OpenAI-compatible --------------------------------------------------------


def test_openai_text_deltas_stream_in_order_and_end_with_usage():
    server = OpenAIWireServer([Turn(text=["Tokens ", "refresh ", "hourly."], usage=(30, 4))])
    with server as url:
        events = events_of(provider_for("openai", url))
    assert events == [
        TextDelta("Tokens "),
        TextDelta("refresh "),
        TextDelta("hourly."),
        StreamEnd("stop", {"input_tokens": 30, "output_tokens": 4}),
    ]


def test_openai_tool_call_split_across_deltas_is_reassembled():
    server = OpenAIWireServer([Turn(text=["Let me look."], tool_calls=[SEARCH_CALL], arg_chunk=3)])
    with server as url:
        events = events_of(provider_for("openai", url), tools=[SEARCH_TOOL])
    assert events[0] == TextDelta("Let me look.")
    assert events[1] == ToolCallEvent(ToolCall("call_7", "searchDocs", {"query": "token refresh — élan", "limit": 5}))
    assert isinstance(events[2], StreamEnd) and events[2].finish_reason == "tool_calls"


def test_openai_request_body_has_one_system_message_sampling_and_tool_schema():
    server = OpenAIWireServer([Turn(text=["ok"])])
    with server as url:
        events_of(provider_for("openai", url, sampling=SamplingParams(temperature=0.9, seed=1)), tools=[SEARCH_TOOL], sampling=SAMPLING)
    body = server.chat_requests[0].body
    assert body["messages"] == [
        {"role": "system", "content": "You answer from the docs.\n\nAnswer in English."},
        {"role": "user", "content": "How do tokens refresh?"},
    ]
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert {k: body[k] for k in ("temperature", "top_p", "top_k", "repeat_penalty", "max_tokens", "seed")} == {
        "temperature": 0.2, "top_p": 0.9, "top_k": 40, "repeat_penalty": 1.1, "max_tokens": 256, "seed": 7,
    }
    assert body["tools"] == [
        {"type": "function", "function": {"name": "searchDocs", "description": "Search the indexed documents.", "parameters": SEARCH_TOOL.parameters}}
    ]


def test_openai_unset_sampling_fields_are_not_sent():
    """Real OpenAI rejects unknown fields like top_k, so only configured knobs travel."""
    server = OpenAIWireServer([Turn(text=["ok"])])
    with server as url:
        events_of(provider_for("openai", url))
    body = server.chat_requests[0].body
    assert set(body) == {"model", "messages", "stream", "stream_options"}


def test_openai_tool_round_trip_messages_use_tool_calls_and_tool_role():
    history = [
        Message("user", "q"),
        Message("assistant", "", tool_calls=[ToolCall("call_7", "searchDocs", {"query": "q"})]),
        Message("tool", "3 hits", tool_call_id="call_7", name="searchDocs"),
    ]
    server = OpenAIWireServer([Turn(text=["done"])])
    with server as url:
        events_of(provider_for("openai", url), messages=history)
    sent = server.chat_requests[0].body["messages"]
    assert sent[1] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": "call_7", "type": "function", "function": {"name": "searchDocs", "arguments": '{"query": "q"}'}}],
    }
    assert sent[2] == {"role": "tool", "tool_call_id": "call_7", "content": "3 hits", "name": "searchDocs"}


def test_openai_api_key_is_sent_as_bearer_token_from_environment(monkeypatch):
    monkeypatch.setenv("ATHENA_TEST_KEY", "sk-secret-123")
    server = OpenAIWireServer([Turn(text=["ok"])], api_key="sk-secret-123")
    with server as url:
        provider = provider_for("openai", url, api_key_env="ATHENA_TEST_KEY")
        assert provider.complete(CONVERSATION).text == "ok"
    assert server.chat_requests[0].headers["authorization"] == "Bearer sk-secret-123"
    assert "sk-secret" not in repr(provider)


def test_complete_drains_stream_into_text_calls_and_usage():
    server = OpenAIWireServer([Turn(text=["a", "b"], tool_calls=[SEARCH_CALL], usage=(3, 2))])
    with server as url:
        result = provider_for("openai", url).complete(CONVERSATION, [SEARCH_TOOL])
    text, calls, usage = result
    assert text == "ab"
    assert [c.name for c in calls] == ["searchDocs"]
    assert usage == {"input_tokens": 3, "output_tokens": 2}


def test_malformed_tool_arguments_are_reported_on_the_call_not_raised():
    """A small model's broken JSON is the model's mistake: the loop can tell it so."""
    broken = ScriptedToolCall("call_1", "searchDocs", '{"query": "tokens", "limit": 5')
    with OpenAIWireServer([Turn(tool_calls=[broken])]) as url:
        calls = provider_for("openai", url).complete(CONVERSATION, [SEARCH_TOOL]).tool_calls
    assert calls[0].arguments == {}
    assert "not valid JSON" in calls[0].arguments_error


# -- Anthropic ------------------------------------------------------------------


def test_anthropic_text_and_tool_use_events_become_deltas_and_a_tool_call(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "ak-test")
    server = AnthropicWireServer([Turn(text=["I will ", "search."], tool_calls=[SEARCH_CALL], usage=(40, 12))], api_key="ak-test")
    with server as url:
        events = events_of(provider_for("anthropic", url), tools=[SEARCH_TOOL])
    assert events == [
        TextDelta("I will "),
        TextDelta("search."),
        ToolCallEvent(ToolCall("call_7", "searchDocs", SEARCH_CALL.arguments)),
        StreamEnd("tool_calls", {"input_tokens": 40, "output_tokens": 12}),
    ]
    headers = server.chat_requests[0].headers
    assert headers["x-api-key"] == "ak-test" and headers["anthropic-version"] == "2023-06-01"


def test_anthropic_request_puts_system_top_level_and_tools_as_input_schema():
    history = [
        *CONVERSATION,
        Message("assistant", "Searching.", tool_calls=[ToolCall("call_7", "searchDocs", {"query": "q"})]),
        Message("tool", "hit 1", tool_call_id="call_7"),
        Message("tool", "hit 2", tool_call_id="call_8"),
    ]
    server = AnthropicWireServer([Turn(text=["ok"])])
    with server as url:
        events_of(provider_for("anthropic", url, api_key="k"), messages=history, tools=[SEARCH_TOOL], sampling=SAMPLING)
    body = server.chat_requests[0].body
    assert body["system"] == "You answer from the docs.\n\nAnswer in English."
    assert all(m["role"] != "system" for m in body["messages"])
    assert body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "How do tokens refresh?"}]},
        {"role": "assistant", "content": [
            {"type": "text", "text": "Searching."},
            {"type": "tool_use", "id": "call_7", "name": "searchDocs", "input": {"query": "q"}},
        ]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "call_7", "content": "hit 1"},
            {"type": "tool_result", "tool_use_id": "call_8", "content": "hit 2"},
        ]},
    ]
    assert body["tools"] == [{"name": "searchDocs", "description": "Search the indexed documents.", "input_schema": SEARCH_TOOL.parameters}]
    assert {k: body[k] for k in ("temperature", "top_p", "top_k", "max_tokens")} == {
        "temperature": 0.2, "top_p": 0.9, "top_k": 40, "max_tokens": 256,
    }
    assert "seed" not in body and "repeat_penalty" not in body


def test_anthropic_without_configured_max_tokens_sends_a_default():
    server = AnthropicWireServer([Turn(text=["ok"])])
    with server as url:
        events_of(provider_for("anthropic", url, api_key="k"))
    assert server.chat_requests[0].body["max_tokens"] == 1024


def test_anthropic_without_any_api_key_is_a_config_error_naming_the_variable(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(ProviderError, match="ANTHROPIC_API_KEY") as info:
        provider_for("anthropic", "http://127.0.0.1:1")
    assert info.value.reason == "config"


def test_anthropic_error_event_mid_stream_is_raised_with_its_message():
    events = [
        b'event: message_start\ndata: {"type": "message_start", "message": {"usage": {"input_tokens": 3}}}\n\n',
        b'event: content_block_start\ndata: {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}\n\n',
        b'event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}\n\n',
    ]
    with AnthropicWireServer([Turn(raw_events=events)]) as url:
        with pytest.raises(ProviderError, match="overloaded_error: Overloaded"):
            events_of(provider_for("anthropic", url, api_key="k"))


@pytest.mark.parametrize("server_class, kind, raw", [
    (OpenAIWireServer, "openai", b'data: {"error": {"message": "model runner crashed"}}\n\n'),
    (OllamaWireServer, "ollama", b'{"error": "model runner crashed"}\n'),
])
def test_error_object_inside_a_stream_is_raised_with_the_servers_words(server_class, kind, raw):
    with server_class([Turn(raw_events=[raw])]) as url:
        with pytest.raises(ProviderError, match="reported an error mid-stream: model runner crashed"):
            events_of(provider_for(kind, url))


# -- Ollama native ----------------------------------------------------------------


def test_ollama_ndjson_stream_yields_text_tool_call_and_usage():
    server = OllamaWireServer([Turn(text=["Hal", "lo"], tool_calls=[SEARCH_CALL], usage=(9, 3))], models=["tiny:latest"])
    with server as url:
        events = events_of(provider_for("ollama", url), tools=[SEARCH_TOOL])
    assert events[:2] == [TextDelta("Hal"), TextDelta("lo")]
    assert isinstance(events[2], ToolCallEvent) and events[2].call.name == "searchDocs"
    assert events[2].call.arguments == SEARCH_CALL.arguments
    assert events[3] == StreamEnd("tool_calls", {"input_tokens": 9, "output_tokens": 3})


def test_ollama_request_maps_sampling_and_context_size_into_options():
    server = OllamaWireServer([Turn(text=["ok"])])
    with server as url:
        events_of(provider_for("ollama", url), tools=[SEARCH_TOOL], sampling=SAMPLING)
    body = server.chat_requests[0].body
    assert body["options"] == {
        "temperature": 0.2, "top_p": 0.9, "top_k": 40, "repeat_penalty": 1.1,
        "num_ctx": 8192, "num_predict": 256, "seed": 7,
    }
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert body["tools"][0]["function"]["parameters"] == SEARCH_TOOL.parameters


# -- failures the user must understand ------------------------------------------------


@pytest.mark.parametrize("server_class, kind", [
    (OpenAIWireServer, "openai"), (AnthropicWireServer, "anthropic"), (OllamaWireServer, "ollama"),
])
def test_server_dying_mid_stream_is_a_provider_error_not_a_traceback(server_class, kind):
    server = server_class([Turn(text=["one ", "two ", "three"], cut_after=2)])
    with server as url:
        provider = provider_for(kind, url, api_key="k")
        received = []
        with pytest.raises(ProviderError, match="stream ended unexpectedly") as info:
            for event in provider.stream(CONVERSATION):
                received.append(event)
    assert info.value.reason == "protocol"
    assert len(server.chat_requests) == 1, "a failure mid-stream must not be retried"
    assert not any(isinstance(e, StreamEnd) for e in received)


@pytest.mark.parametrize("server_class, kind", [
    (OpenAIWireServer, "openai"), (AnthropicWireServer, "anthropic"), (OllamaWireServer, "ollama"),
])
def test_malformed_json_in_the_stream_is_named_as_such(server_class, kind):
    server = server_class([Turn(text=["one ", "two"], malformed_after=1)])
    with server as url:
        with pytest.raises(ProviderError, match="malformed JSON") as info:
            events_of(provider_for(kind, url, api_key="k"))
    assert info.value.message.startswith(f"{provider_for(kind, url, api_key='k').name} stream ended unexpectedly")


@pytest.mark.parametrize("server_class, kind", [
    (OpenAIWireServer, "openai"), (AnthropicWireServer, "anthropic"), (OllamaWireServer, "ollama"),
])
def test_unknown_model_names_the_model_and_lists_available_ones(server_class, kind):
    server = server_class([Turn(text=["never"])], models=["gemma3:270m", "qwen3:0.6b"])
    with server as url:
        with pytest.raises(ProviderError) as info:
            events_of(provider_for(kind, url, api_key="k", model="llama-9000"))
    assert info.value.reason == "model_not_found"
    assert info.value.message == f"model 'llama-9000' not found at {url}; available: gemma3:270m, qwen3:0.6b"


def test_wrong_base_url_path_is_not_mistaken_for_a_missing_model():
    server = OpenAIWireServer([Turn(text=["never"])])  # lists no models: /models is a 404 too
    with server as url:
        with pytest.raises(ProviderError, match="no /chat/completions endpoint.*check base_url"):
            events_of(provider_for("openai", url.removesuffix("/v1")))


@pytest.mark.parametrize("server_class, kind", [(OpenAIWireServer, "openai"), (AnthropicWireServer, "anthropic")])
def test_rejected_api_key_names_the_variable_and_never_the_key(server_class, kind, monkeypatch):
    monkeypatch.setenv("MY_LLM_KEY", "sk-wrong-very-secret")
    server = server_class([Turn(text=["never"])], api_key="sk-right")
    with server as url:
        with pytest.raises(ProviderError) as info:
            events_of(provider_for(kind, url, api_key_env="MY_LLM_KEY"))
    assert info.value.reason == "auth"
    assert info.value.message.startswith("API key rejected by")
    assert "set MY_LLM_KEY" in info.value.message
    assert "very-secret" not in str(info.value)


def test_missing_api_key_on_a_server_that_needs_one_says_so():
    server = OpenAIWireServer([Turn(text=["never"])], api_key="sk-right")
    with server as url:
        with pytest.raises(ProviderError, match=r"requires an API key \(HTTP 401\)"):
            events_of(provider_for("openai", url))


def test_connection_refused_is_retried_once_then_reported_clearly():
    port = free_port()
    url = f"http://127.0.0.1:{port}/v1"
    started = time.perf_counter()
    with pytest.raises(ProviderError) as info:
        events_of(provider_for("openai", url, retry_delay_s=0.3))
    assert time.perf_counter() - started >= 0.3, "the one retry waits retry_delay_s before trying again"
    assert info.value.reason == "unreachable"
    assert info.value.message == (
        f"cannot reach OpenAI-compatible server at {url}: connection refused — is the server running?"
    )


def test_retry_reaches_a_server_that_came_up_after_the_first_refusal():
    port = free_port()
    server = OpenAIWireServer([Turn(text=["up now"])], port=port)
    opened = threading.Event()

    def start_late():
        time.sleep(0.2)
        server.__enter__()
        opened.set()

    starter = threading.Thread(target=start_late)
    starter.start()
    try:
        provider = provider_for("openai", f"http://127.0.0.1:{port}/v1", retry_delay_s=1.5)
        assert provider.complete(CONVERSATION).text == "up now"
    finally:
        starter.join()
        if opened.is_set():
            server.__exit__(None, None, None)


def test_connection_dropped_before_any_response_is_retried_exactly_once():
    server = OpenAIWireServer([Turn(drop_connection=True), Turn(text=["second try"])])
    with server as url:
        assert provider_for("openai", url).complete(CONVERSATION).text == "second try"
    assert len(server.chat_requests) == 2


def test_two_dropped_connections_give_up_after_one_retry():
    server = OpenAIWireServer([Turn(drop_connection=True), Turn(drop_connection=True), Turn(text=["never"])])
    with server as url:
        with pytest.raises(ProviderError, match="closed the connection without answering") as info:
            events_of(provider_for("openai", url))
    assert info.value.reason == "unreachable"
    assert len(server.chat_requests) == 2


def test_http_errors_are_not_retried_and_carry_the_servers_message():
    server = OpenAIWireServer([Turn(status=500, error="CUDA out of memory"), Turn(text=["never"])])
    with server as url:
        with pytest.raises(ProviderError, match="failed: HTTP 500: server_error: CUDA out of memory"):
            events_of(provider_for("openai", url))
    assert len(server.chat_requests) == 1


def test_silent_server_times_out_with_the_configured_limit():
    server = OpenAIWireServer([Turn(text=["slow"], event_delay_s=1.5)])
    with server as url:
        with pytest.raises(ProviderError, match="stopped responding: no data for 0.4 s") as info:
            events_of(provider_for("openai", url, timeout_s=0.4))
    assert info.value.reason == "timeout"


def test_a_json_body_instead_of_an_event_stream_is_named():
    body = [b'{"choices": [{"message": {"content": "x"}}]}\n']
    with OpenAIWireServer([Turn(raw_events=body)]) as url:
        with pytest.raises(ProviderError, match="did not answer with an event stream"):
            events_of(provider_for("openai", url))


# -- health ----------------------------------------------------------------------


@pytest.mark.parametrize("server_class, kind", [
    (OpenAIWireServer, "openai"), (AnthropicWireServer, "anthropic"), (OllamaWireServer, "ollama"),
])
def test_health_reports_reachability_model_presence_and_latency(server_class, kind):
    with server_class(models=["tiny"]) as url:
        present = provider_for(kind, url, api_key="k").health()
        absent = provider_for(kind, url, api_key="k", model="other").health()
    assert present["reachable"] and present["model_present"] is True and present["latency_ms"] >= 0
    assert absent["reachable"] and absent["model_present"] is False
    assert absent["error"] == f"model 'other' not found at {url}"


def test_health_of_a_stopped_server_is_unreachable_with_a_message():
    url = f"http://127.0.0.1:{free_port()}"
    report = provider_for("ollama", url).health()
    assert report["reachable"] is False
    assert "connection refused" in report["error"]


def test_ollama_model_without_tag_matches_latest():
    with OllamaWireServer(models=["tiny:latest"]) as url:
        assert provider_for("ollama", url).health()["model_present"] is True


def test_unknown_provider_kind_is_a_config_error():
    with pytest.raises(ProviderError, match="unknown provider kind 'gemini'"):
        make_provider(ProviderConfig(kind="gemini", base_url="http://127.0.0.1:1", model="m"))  # type: ignore[arg-type]


def test_a_search_line_is_a_tool_call_but_search_mid_sentence_is_answer_text():
    from athena_lab.agent.providers.text_tools import TextToolParser

    parser = TextToolParser()
    events = [*parser.feed("Use the SEARCH: feature here.\nDone\n  search: tokens\nok"), *parser.finish()]
    assert [type(e).__name__ for e in events] == ["TextDelta", "ToolCallEvent", "TextDelta"]
    assert events[0].text == "Use the SEARCH: feature here.\nDone\n" and events[2].text == "ok"
    assert events[1].call.arguments == {"query": "tokens"}


def test_configured_seed_travels_with_each_request_and_minus_one_sends_none():
    """`llm.seed` makes a model's answers repeat (benchmarks fix it); -1 leaves the server's own."""
    from athena_lab.agent.providers.choice import plan_provider
    from athena_lab.settings import LLMSettings

    for seed, sent in ((11, 11), (-1, None)):
        server = OpenAIWireServer([Turn(text=["ok"])])
        with server as url:
            plan = plan_provider(LLMSettings(provider="openai", model="m", base_url=url, seed=seed))
            provider = plan.load()
            assert provider is not None
            list(provider.stream([Message("user", "hi")], None))
        assert server.chat_requests[0].body.get("seed") == sent
