"""What a public visitor can do to a real `athena serve` in public mode (``[widget] public``):
a token-less browser on the docs site's origin, as the drop-in widget is
(docs/security.md, "Public mode"). Each test sends the visitor's request and asserts what it
must not reach or start.
"""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import psutil
import pytest

from http_servers import AthenaServer, fast_env, run_cli

DOCS_SITE = "http://docs.example"
VISITOR = {"Origin": DOCS_SITE}
USER_CONFIG = f"""
[server]
cors_origins = ["{DOCS_SITE}"]
[widget]
public = true
[widget.site_url_map]
"site/docs/**.md" = "https://docs.example/{{path}}"
"""
SPANISH = ["¿Cómo se rotan los tokens cebra cada noche?", "¿Quién guarda los tokens de la bóveda?",
           "¿Cuándo se cambian las claves del servidor?", "¿Dónde están las notas privadas del equipo?",
           "¿Por qué los tokens se rotan cada noche y no cada semana?"]


def _folder(tmp: Path) -> tuple[Path, dict[str, str]]:
    folder = tmp / "project"
    (folder / "site" / "docs" / "guide").mkdir(parents=True)
    (folder / "site" / "docs" / "guide" / "tokens.md").write_text(
        "# Tokens\n\nZebra tokens are rotated every night by the vault.\n", encoding="utf-8")
    (folder / "notes.md").write_text("# Notes\n\nZebra tokens were once rotated weekly.\n", encoding="utf-8")
    home = tmp / "xdg"
    (home / "athena").mkdir(parents=True)
    (home / "athena" / "config.toml").write_text(USER_CONFIG, encoding="utf-8")
    # multilingual.build stays "auto" (the default); a model that cannot load makes a build
    # that does start end at once instead of spending minutes of CPU in the test.
    env = fast_env(XDG_CONFIG_HOME=str(home), ATHENA_LLM__PROVIDER="extractive",
                   ATHENA_MULTILINGUAL__PROVIDER="onnx", ATHENA_MULTILINGUAL__MODEL_DIR=str(tmp / "no-model"))
    run_cli("index", str(folder), env=env)
    return folder, env


@pytest.fixture(scope="module")
def public(tmp_path_factory: pytest.TempPathFactory):
    folder, env = _folder(tmp_path_factory.mktemp("public-visitor"))
    with AthenaServer(folder, "--rate-limit", "0", env=env) as server:
        yield server


def _job(server: AthenaServer) -> dict:
    return server.client.get("/reindex").json()["job"]


def _children(server: AthenaServer) -> list[psutil.Process]:
    return psutil.Process(server.pid).children(recursive=True)


# Finding 1: background jobs ----------------------------------------------------------------

def test_a_public_visitor_never_starts_a_background_job(public):
    """Issue 22, finding 1: each token-less Spanish question started a full index run (a
    child process building the multilingual vectors); five questions, five runs."""
    for question in SPANISH:
        r = httpx.get(f"{public.url}/search", params={"q": question}, headers=VISITOR, timeout=60)
        assert r.status_code == 200, r.text
        assert not any("being built" in w for w in r.json()["warnings"])
    chat = httpx.post(f"{public.url}/chat", headers=VISITOR, timeout=60,
                      json={"messages": [{"role": "user", "content": SPANISH[0]}], "stream": False})
    assert chat.status_code == 200, chat.text
    streamed = httpx.post(f"{public.url}/chat", headers=VISITOR, timeout=60,
                          json={"messages": [{"role": "user", "content": SPANISH[1]}], "stream": True})
    assert streamed.status_code == 200, streamed.text
    assert _job(public)["state"] == "idle"
    assert _children(public) == []


def test_the_owners_first_foreign_question_starts_one_build_and_later_ones_none(public):
    first = public.client.get("/search", params={"q": SPANISH[0]}, timeout=60)
    assert first.status_code == 200, first.text
    job = _job(public)
    assert job["id"] is not None and job["state"] in ("running", "failed", "done"), job
    deadline = time.monotonic() + 120
    while _job(public)["state"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.3)
    for question in SPANISH[1:]:
        assert public.client.get("/search", params={"q": question}, timeout=60).status_code == 200
        assert httpx.get(f"{public.url}/search", params={"q": question}, headers=VISITOR, timeout=60).status_code == 200
    assert _job(public)["id"] == job["id"], "a later question started another run"
    assert _children(public) == []
