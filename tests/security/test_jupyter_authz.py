"""Inside Jupyter, a logged-in user whom the server's authorizer makes read-only may search
and read, but may not reindex, chat (which writes a conversation) or delete conversations.

A real `jupyter server` with a custom Authorizer (readonly_authorizer.py: every "write"
is denied) and athena_lab's extension over a private copy of the indexed corpus.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import httpx
import pytest

from http_servers import JupyterServer, chat_body, fast_env, indexed_corpus

pytestmark = pytest.mark.integration

TOKEN = "read-only-user-token"
HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def readonly(tmp_path_factory):
    corpus = Path(shutil.copytree(indexed_corpus(tmp_path_factory), tmp_path_factory.mktemp("authz") / "docs"))
    path = os.pathsep.join(p for p in (str(HERE), os.environ.get("PYTHONPATH", "")) if p)
    env = fast_env(ATHENA_WORKSPACE__ROOT=str(corpus), PYTHONPATH=path)
    with JupyterServer(corpus.parent, TOKEN, env,
                       "--ServerApp.authorizer_class=readonly_authorizer.ReadOnlyAuthorizer") as server:
        yield server, corpus


def call(server: JupyterServer, method: str, path: str, **kwargs) -> httpx.Response:
    return httpx.request(method, f"{server.url}/athena/{path}", headers={"Authorization": f"token {TOKEN}"},
                         timeout=60, **kwargs)


def assert_forbidden(r: httpx.Response) -> None:
    assert r.status_code == 403, r.text
    error = r.json()["error"]
    assert error["status"] == 403 and "not authorized to write" in error["message"] and "athena" in error["message"]


def test_read_only_user_can_search_and_read(readonly):
    server, _ = readonly
    assert call(server, "GET", "search", params={"q": "blueprint"}).json()["hits"]
    assert call(server, "GET", "source", params={"path": "quickstart.rst"}).status_code == 200


def test_read_only_user_cannot_start_a_reindex(readonly):
    server, corpus = readonly
    catalog = corpus / ".athena" / "catalog.sqlite"
    before = catalog.stat().st_mtime_ns
    assert_forbidden(call(server, "POST", "reindex"))
    assert call(server, "GET", "reindex").json()["job"]["state"] == "idle"
    assert catalog.stat().st_mtime_ns == before


def test_read_only_user_cannot_chat_or_create_a_conversation(readonly):
    server, _ = readonly
    before = call(server, "GET", "conversations").json()["conversations"]
    assert_forbidden(call(server, "POST", "chat", json=chat_body("What is a blueprint?", stream=False)))
    assert_forbidden(call(server, "POST", "chat", json=chat_body("What is a blueprint?")))
    assert call(server, "GET", "conversations").json()["conversations"] == before


def test_read_only_user_cannot_delete_a_conversation(readonly):
    server, _ = readonly
    assert_forbidden(call(server, "DELETE", "conversations/some-conversation"))
