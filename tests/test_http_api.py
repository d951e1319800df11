"""The /athena/* routes of a real `athena serve` process over an indexed Flask docs copy."""

from __future__ import annotations

import threading
import time

import pytest

import httpx

from http_servers import PDF_NAME, AthenaServer, chat_body, indexed_corpus, sse_events

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    with AthenaServer(indexed_corpus(tmp_path_factory), "--rate-limit", "0") as server:
        yield server


def test_health_is_healthy_with_an_index_and_extractive_mode(api):
    r = api.client.get("/health")
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "healthy"
    assert body["components"]["index"]["status"] == "up"
    assert body["components"]["index"]["details"]["chunks"] > 0
    assert {c["status"] for c in body["components"].values()} <= {"up", "off"}
    assert all(isinstance(c["latency_ms"], float) for c in body["components"].values())


def test_info_reports_mode_and_index_counts(api):
    info = api.client.get("/info").json()
    assert info["mode"] == "extractive" and info["provider"] == "extractive"
    assert info["index"]["files"] == 11 and info["index"]["chunks"] > 11
    assert info["lab_path_prefix"] is None  # standalone: there is no Jupyter root


def test_info_names_the_question_limit_the_chat_refuses_beyond(api):
    """The composers read this to refuse before Send: it must be the limit the chat applies."""
    limit = api.client.get("/info").json()["limits"]["max_question_chars"]
    assert limit == 8000
    too_long = api.client.post("/chat", json={"messages": [{"role": "user", "content": "x" * (limit + 1)}],
                                              "stream": False})
    assert too_long.status_code == 400 and f"the limit is {limit}" in too_long.text


def test_search_returns_citations_with_scores(api):
    r = api.client.get("/search", params={"q": "register a blueprint", "k": 3})
    assert r.status_code == 200
    hits = r.json()["hits"]
    assert len(hits) == 3
    assert hits[0]["path"].endswith(".rst") and hits[0]["start_line"] >= 1 and hits[0]["score"] > 0
    assert r.json()["degraded"] is None  # lexical only by configuration is not a degradation


def test_search_filters_by_kind(api):
    hits = api.client.get("/search", params={"q": "crazy ones", "kind": "pdf"}).json()["hits"]
    assert hits and all(h["kind"] == "pdf" and h["regions"] for h in hits)


def test_search_bad_parameters_are_400_with_a_message(api):
    for params in ({}, {"q": "x", "k": "ten"}, {"q": "x", "k": "0"}, {"q": "x", "kind": "spreadsheet"}):
        r = api.client.get("/search", params=params)
        assert r.status_code == 400, params
        assert r.json()["error"]["status"] == 400 and r.json()["error"]["message"]


def test_source_returns_the_exact_lines(api, tmp_path_factory):
    root = indexed_corpus(tmp_path_factory)
    r = api.client.get("/source", params={"path": "quickstart.rst", "start_line": 3, "end_line": 5})
    assert r.status_code == 200
    expected = (root / "quickstart.rst").read_text(encoding="utf-8").splitlines()[2:5]
    assert r.json()["lines"] == expected
    assert r.json()["total_lines"] == len((root / "quickstart.rst").read_text(encoding="utf-8").splitlines())


def test_source_refuses_paths_that_escape_the_root(api):
    for path in ("../../etc/passwd", "/etc/passwd", "tutorial/../../x"):
        r = api.client.get("/source", params={"path": path})
        assert r.status_code == 400, path
        assert "not allowed" in r.json()["error"]["message"]
    missing = api.client.get("/source", params={"path": "nope.rst"})
    assert missing.status_code == 404


def test_status_lists_indexed_files(api):
    status = api.client.get("/status").json()
    paths = {f["path"] for f in status["files"]}
    assert "quickstart.rst" in paths and f"papers/{PDF_NAME}" in paths
    assert status["failed"] == [] and status["pending"] == []


def test_pdf_page_preview_is_a_png_of_the_cited_page(api):
    hit = api.client.get("/search", params={"q": "crazy ones", "kind": "pdf", "k": 1}).json()["hits"][0]
    r = api.client.get("/pdf/page", params={"path": hit["path"], "page": hit["page"],
                                            "chunk_id": hit["chunk_id"]})
    assert r.status_code == 200
    assert r.headers["content-type"] == "image/png"
    assert r.content.startswith(b"\x89PNG")
    wrong = api.client.get("/pdf/page", params={"path": "quickstart.rst", "page": 1})
    assert wrong.status_code == 400


def test_unknown_route_is_a_json_404(api):
    r = api.client.get("/nothing-here")
    assert r.status_code == 404 and r.json()["error"]["status"] == 404


def test_chat_streams_start_trace_sources_citations_done_in_order(api):
    with api.client.stream("POST", "/chat", json=chat_body("How do I register a blueprint?"),
                           timeout=60) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        assert r.headers["cache-control"] == "no-cache"
        events = list(sse_events(r))
    types = [t for t, _ in events]
    # extractive: the search, then the quotes (the whole answer, no chunk), the final list, done
    assert types == ["start", "trace", "sources", "citations", "done"]
    data = dict(events)
    assert data["done"]["mode"] == "extractive"
    assert data["citations"]["citations"][0]["path"].endswith(".rst")
    assert data["sources"]["answer_follows"] is False and "[1]" in data["sources"]["answer"]
    assert data["sources"]["citations"] == data["citations"]["citations"]


def test_chat_stream_false_returns_one_json_body(api):
    r = api.client.post("/chat", json=chat_body("What does the application factory do?", stream=False),
                        timeout=60)
    assert r.status_code == 200
    body = r.json()
    assert set(body) >= {"conversation_id", "answer", "citations", "unsupported", "mode", "usage", "trace"}
    assert body["mode"] == "extractive" and body["citations"] and body["answer"]
    assert body["trace"][0]["tool"] == "searchDocs"


def test_conversation_round_trip_list_get_delete(api):
    first = api.client.post("/chat", json=chat_body("How are tests written?", stream=False), timeout=60)
    cid = first.json()["conversation_id"]
    follow = api.client.post("/chat", timeout=60,
                             json=chat_body("And the test client?", stream=False, conversation_id=cid))
    assert follow.status_code == 200 and follow.json()["conversation_id"] == cid
    listed = api.client.get("/conversations", params={"limit": 5}).json()["conversations"]
    assert listed[0]["id"] == cid and listed[0]["turns"] == 2
    thread = api.client.get(f"/conversations/{cid}").json()
    assert [m["role"] for m in thread["messages"]] == ["user", "assistant", "user", "assistant"]
    assert thread["messages"][1]["citations"]
    # Issue 21: the answer's steps come back with it, so a reloaded chat shows its trace.
    steps = thread["messages"][1]["trace"]
    assert steps and steps[0]["tool"] == "searchDocs" and steps[0]["hits"]
    assert "trace" not in thread["messages"][0]
    assert api.client.delete(f"/conversations/{cid}").status_code == 204
    assert api.client.get(f"/conversations/{cid}").status_code == 404
    assert api.client.delete(f"/conversations/{cid}").status_code == 404
    unknown = api.client.post("/chat", json=chat_body("x", conversation_id=cid))
    assert unknown.status_code == 404


@pytest.mark.parametrize("body, fragment", [
    ({}, "'messages'"),
    ({"messages": []}, "'messages'"),
    ({"messages": [{"role": "assistant", "content": "hi"}]}, "last message"),
    ({"messages": [{"role": "user", "content": "   "}]}, "last message"),
    ({"messages": [{"role": "user", "content": 5}]}, "messages[0]"),
    ({"messages": [{"role": "user", "content": "x" * 9000}]}, "limit"),
    ({"messages": [{"role": "user", "content": "x"}], "stream": "yes"}, "'stream'"),
    ({"messages": [{"role": "user", "content": "x"}], "top_k": 0}, "'top_k'"),
    ({"messages": [{"role": "user", "content": "x"}], "provider": "skynet"}, "'provider'"),
    ({"messages": [{"role": "user", "content": "x"}], "filters": {"path": "a"}}, "'filters'"),
    ({"messages": [{"role": "user", "content": "x"}], "conversation_id": "../x"}, "conversation_id"),
])
def test_chat_rejects_invalid_bodies_with_400(api, body, fragment):
    r = api.client.post("/chat", json=body)
    assert r.status_code == 400
    assert fragment in r.json()["error"]["message"]


def test_chat_body_that_is_not_json_is_400(api):
    r = api.client.post("/chat", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "not valid JSON" in r.json()["error"]["message"]


def test_server_keeps_answering_while_chats_stream(api):
    """The chat generator runs in a worker thread: health answers during a stream and after
    a client that hung up mid-stream."""
    done = threading.Event()

    def chat_and_hang_up():
        with api.client.stream("POST", "/chat", json=chat_body("How is configuration loaded?"),
                               timeout=60) as r:
            for event_type, _ in sse_events(r):
                if event_type == "start":
                    break  # leave before the answer
        done.set()

    worker = threading.Thread(target=chat_and_hang_up)
    worker.start()
    started = time.perf_counter()
    assert api.client.get("/health", timeout=10).status_code == 200
    worker.join(60)
    assert done.is_set()
    assert time.perf_counter() - started < 30
    assert api.client.post("/chat", json=chat_body("What is a blueprint?", stream=False),
                           timeout=60).status_code == 200


def test_cite_route_gives_bibtex_for_a_cited_pdf_and_400_for_a_bad_format(api):
    hits = api.client.get("/search", params={"q": "crazy ones misfits rebels", "kind": "pdf", "k": 1}).json()["hits"]
    r = api.client.get("/cite", params={"target": hits[0]["chunk_id"]})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    assert r.text.startswith("@misc{") and "title = {{The Crazy Ones}}" in r.text and "crazyones-pdfa.pdf}" in r.text
    bad = api.client.get("/cite", params={"target": hits[0]["chunk_id"], "format": "docx"})
    assert bad.status_code == 400 and "'format'" in bad.json()["error"]["message"]
    missing = api.client.get("/cite", params={"target": "no/such.pdf"})
    assert missing.status_code == 404


def test_info_lists_the_providers_the_settings_offer(api):
    assert api.client.get("/info").json()["providers"] == ["extractive", "openai", "anthropic", "ollama", "local"]


def test_chat_trace_lists_each_hit_with_fused_score_and_retriever_ranks(api):
    body = api.client.post("/chat", json=chat_body("How do I register a blueprint?", stream=False), timeout=60).json()
    search = body["trace"][0]
    assert search["tool"] == "searchDocs" and search["hits"]
    first = search["hits"][0]
    assert first["ref"] == 1 and first["path"].endswith(".rst") and first["where"].startswith(first["path"])
    assert first["score"] > 0 and first["ranks"]["bm25"] >= 1
    assert all(isinstance(rank, int) and rank >= 1 for h in search["hits"] for rank in h["ranks"].values())
    assert [h["score"] for h in search["hits"]] == sorted((h["score"] for h in search["hits"]), reverse=True)


def test_conversation_titles_repeat_the_first_question_numbered_when_taken(api):
    question = "Where is   the\n configuration file read?"
    ids = [api.client.post("/chat", json=chat_body(question, stream=False), timeout=60).json()["conversation_id"]
           for _ in range(3)]
    titles = {c["id"]: c["title"] for c in api.client.get("/conversations", params={"limit": 50}).json()["conversations"]}
    assert [titles[i] for i in ids] == ["Where is the configuration file read?",
                                        "Where is the configuration file read? (2)",
                                        "Where is the configuration file read? (3)"]
    for cid in ids:
        api.client.delete(f"/conversations/{cid}")


def test_rewind_drops_a_question_and_what_followed_so_it_can_be_asked_again(api):
    cid = api.client.post("/chat", json=chat_body("How are tests written?", stream=False),
                          timeout=60).json()["conversation_id"]
    api.client.post("/chat", json=chat_body("And the test client?", stream=False, conversation_id=cid), timeout=60)
    r = api.client.post(f"/conversations/{cid}/rewind", json={"turn": 1})
    assert r.status_code == 200 and r.json()["dropped"] == 2
    assert [m["content"] for m in r.json()["conversation"]["messages"] if m["role"] == "user"] == [
        "How are tests written?"]
    again = api.client.post("/chat", json=chat_body("How do I use the test client?", stream=False,
                                                    conversation_id=cid), timeout=60)
    assert again.status_code == 200
    thread = api.client.get(f"/conversations/{cid}").json()
    assert [m["content"] for m in thread["messages"] if m["role"] == "user"] == [
        "How are tests written?", "How do I use the test client?"]
    api.client.post(f"/conversations/{cid}/rewind", json={"turn": 0})
    api.client.post("/chat", json=chat_body("Which fixtures does pytest offer?", stream=False,
                                            conversation_id=cid), timeout=60)
    assert api.client.get(f"/conversations/{cid}").json()["title"] == "Which fixtures does pytest offer?"
    assert api.client.post(f"/conversations/{cid}/rewind", json={"turn": 5}).status_code == 404
    assert api.client.post(f"/conversations/{cid}/rewind", json={"turn": "1"}).status_code == 400
    assert api.client.post("/conversations/nope/rewind", json={"turn": 0}).status_code == 404
    api.client.delete(f"/conversations/{cid}")


def test_chat_context_joins_the_search_query_and_is_limited(api):
    cell = "app = Flask(__name__)\nbp = Blueprint('auth', __name__)\napp.register_blueprint(bp)"
    body = api.client.post("/chat", json={**chat_body("What does this do?", stream=False), "context": cell},
                           timeout=60).json()
    query = body["trace"][0]["input"]["query"]
    assert query.startswith("What does this do?") and "register_blueprint" in query and "Blueprint" in query
    assert body["citations"]
    stored = api.client.get(f"/conversations/{body['conversation_id']}").json()["messages"][0]["content"]
    assert stored == "What does this do?"
    too_long = api.client.post("/chat", json={**chat_body("x"), "context": "y" * 20001})
    assert too_long.status_code == 400 and "'context'" in too_long.json()["error"]["message"]
    wrong = api.client.post("/chat", json={**chat_body("x"), "context": ["cell"]})
    assert wrong.status_code == 400 and "'context'" in wrong.json()["error"]["message"]


def test_a_conversation_read_back_gives_each_question_the_filters_and_cell_it_was_asked_with(api):
    import json
    from pathlib import Path

    import jsonschema

    filters = {"kind": "rst", "path_prefix": "tutorial/"}
    cid = api.client.post("/chat", json=chat_body("How is the blog built?", stream=False, filters=filters),
                          timeout=60).json()["conversation_id"]
    cell = {"text": "bp = Blueprint('blog', __name__)", "label": "cell 2 of blog.ipynb"}
    api.client.post("/chat", json=chat_body("And the views?", stream=False, conversation_id=cid,
                                            context=cell["text"], context_label=cell["label"]), timeout=60)
    thread = api.client.get(f"/conversations/{cid}").json()
    questions = [m for m in thread["messages"] if m["role"] == "user"]
    assert [q.get("filters") for q in questions] == [filters, None]
    assert [q.get("context") for q in questions] == [None, cell]
    assert all("filters" not in m and "context" not in m for m in thread["messages"] if m["role"] == "assistant")
    not_text = api.client.post("/chat", json=chat_body("Named?", stream=False, context="x = 1",
                                                       context_label={"cell": 3}))
    assert not_text.status_code == 400 and "context_label" in not_text.text
    schema = json.loads((Path(__file__).parent.parent / "docs" / "contract.schema.json").read_text())
    jsonschema.validate(thread, {**schema, "$ref": "#/$defs/Conversation"})
    rewound = api.client.post(f"/conversations/{cid}/rewind", json={"turn": 1}).json()["conversation"]
    assert rewound["messages"][0]["filters"] == filters
    api.client.delete(f"/conversations/{cid}")


def test_catalog_names_an_indexed_sources_kind_and_nothing_else(api):
    """Issue 31: a citation chip opens only what this route calls an indexed source, as the
    kind it gives (the labextension's open.ts asks it before opening anything)."""
    assert api.client.get("/catalog", params={"path": f"papers/{PDF_NAME}"}).json() == {
        "path": f"papers/{PDF_NAME}", "kind": "pdf"}
    assert api.client.get("/catalog", params={"path": "quickstart.rst"}).json()["kind"] == "text"
    for path in ("../quickstart.rst", "/etc/passwd", "nope.md", ".athena/catalog.sqlite", "papers"):
        missing = api.client.get("/catalog", params={"path": path})
        assert missing.status_code == 404, (path, missing.text)
        assert "is not a source in the index" in missing.json()["error"]["message"]
    assert api.client.get("/catalog").status_code == 400
    assert httpx.get(f"{api.url}/catalog", params={"path": "quickstart.rst"}).status_code == 401
