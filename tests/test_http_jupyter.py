"""The same /athena/* API inside a real Jupyter server, behind Jupyter's own token auth."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import httpx
import pytest

from http_servers import JupyterServer, chat_body, fast_env, indexed_corpus, sse_events

pytestmark = pytest.mark.integration

TOKEN = "jupyter-test-token"


@pytest.fixture(scope="module")
def jupyter(tmp_path_factory):
    corpus = indexed_corpus(tmp_path_factory)
    # Jupyter's root is the corpus's parent, so the indexed folder sits one level below it.
    env = fast_env(ATHENA_WORKSPACE__ROOT=str(corpus))
    with JupyterServer(corpus.parent, TOKEN, env) as server:
        yield server


def auth() -> dict[str, str]:
    return {"Authorization": f"token {TOKEN}"}


def test_the_extension_is_enabled_by_installing_the_package():
    out = subprocess.run([sys.executable, "-m", "jupyter_server", "extension", "list"],
                         capture_output=True, text=True, timeout=120)
    listing = out.stdout + out.stderr
    line = next(l for l in listing.splitlines() if l.strip().startswith("athena_lab"))
    assert "enabled" in line
    assert "athena_lab 0" in listing and "OK" in listing


def test_health_and_search_answer_with_the_token(jupyter):
    health = httpx.get(f"{jupyter.url}/athena/health", headers=auth())
    assert health.status_code == 200 and health.json()["status"] == "healthy"
    hits = httpx.get(f"{jupyter.url}/athena/search", params={"q": "blueprint"}, headers=auth()).json()["hits"]
    assert hits and hits[0]["path"]


def test_requests_without_the_token_are_refused(jupyter):
    for path in ("health", "search?q=blueprint", "info"):
        r = httpx.get(f"{jupyter.url}/athena/{path}")
        assert r.status_code in (401, 403), path
        assert r.json()["error"]["status"] == r.status_code
    r = httpx.post(f"{jupyter.url}/athena/chat", json=chat_body("x"))
    assert r.status_code in (401, 403)


def test_info_gives_the_lab_path_prefix_of_the_indexed_folder(jupyter, tmp_path_factory):
    info = httpx.get(f"{jupyter.url}/athena/info", headers=auth()).json()
    assert info["lab_path_prefix"] == indexed_corpus(tmp_path_factory).name + "/"


def test_chat_streams_inside_jupyter(jupyter):
    with httpx.stream("POST", f"{jupyter.url}/athena/chat", headers=auth(), timeout=60,
                      json=chat_body("How do I register a blueprint?")) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        types = [t for t, _ in sse_events(r)]
    assert types[0] == "start" and types[-2:] == ["citations", "done"]


def test_lab_pages_name_the_real_path_of_a_symlinked_server_root(tmp_path_factory, tmp_path):
    """The widget's Copy turns a folder under Jupyter's root into /files/ links. The kernel
    names the folder by its real path, and root_dir keeps the symlink, so the page carries
    both (core/citations.ts linkBase)."""
    corpus = indexed_corpus(tmp_path_factory)
    linked = tmp_path / "work-link"
    linked.symlink_to(corpus.parent, target_is_directory=True)
    with JupyterServer(linked, TOKEN, fast_env(ATHENA_WORKSPACE__ROOT=str(corpus))) as server:
        page = httpx.get(f"{server.url}/lab", params={"token": TOKEN}, timeout=60)
    assert page.status_code == 200
    config = json.loads(re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                                  page.text, re.S).group(1))
    assert config["serverRoot"] == linked.as_posix()
    assert config["athenaRealServerRoot"] == corpus.parent.resolve().as_posix()
