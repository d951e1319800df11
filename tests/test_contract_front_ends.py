"""One turn, every front end: the same question asked over HTTP (SSE), through the CLI's
`--json`, and in process, folds to the same answer — the same text, citation numbers,
labels and fields. Extractive answers are deterministic, so any difference is a front end
re-implementing part of the contract."""

from __future__ import annotations

import json

import pytest

from athena_lab.answer import Answer, fold
from athena_lab.workspace import Workspace
from http_servers import AthenaServer, chat_body, fast_env, indexed_corpus, run_cli, sse_events

pytestmark = pytest.mark.integration

QUESTION = "How do I register a blueprint with a URL prefix?"


def _shape(answer: dict) -> dict:
    """What a user sees of an answer: text, the numbered labels, the unsupported sentences."""
    return {"answer": answer["answer"], "mode": answer["mode"], "unsupported": answer["unsupported"],
            "citations": [(c["id"], c["label"], c["kind"], c["path"], c.get("start_line"), c.get("end_line"))
                          for c in answer["citations"]]}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    return indexed_corpus(tmp_path_factory)


def test_http_stream_cli_json_and_python_agree_on_one_answer(corpus) -> None:
    with AthenaServer(corpus, env=fast_env()) as server:
        with server.client.stream("POST", "/chat", json=chat_body(QUESTION), timeout=120) as response:
            assert response.status_code == 200
            streamed = Answer()
            for kind, data in sse_events(response):
                fold(streamed, {"type": kind, "data": data})
        plain = server.client.post("/chat", json=chat_body(QUESTION, stream=False), timeout=120).json()
    cli = run_cli("ask", QUESTION, "--path", str(corpus), "--json", env=fast_env())
    assert cli.returncode == 0, cli.stderr
    ws = Workspace(corpus, overrides={"embedding.provider": "none"})
    try:
        in_process = ws.ask(QUESTION).to_dict()
    finally:
        ws.close()

    expected = _shape(in_process)
    assert expected["citations"], "the question must cite something for this comparison to mean anything"
    assert _shape(streamed.to_dict()) == expected, "SSE folded by answer.fold"
    assert _shape(plain) == expected, "POST /athena/chat with stream: false"
    assert _shape(json.loads(cli.stdout)) == expected, "athena ask --json"
    assert all(c["label"].startswith(c["path"]) for c in in_process["citations"])
