"""The drop-in widget's server side against a real `athena serve`: /athena/widget.js, public
mode (``[dropin] public``: token-less read-only routes for pages on ``server.cors_origins``,
nothing else) and citations carrying the ``site_url_map`` URL. docs/security.md, "Public mode"."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from http_servers import AthenaServer, fast_env, run_cli, sse_events

pytestmark = pytest.mark.integration

DOCS_SITE = "http://docs.example"
WIDGET_JS = Path(__file__).resolve().parents[1] / "athena_lab" / "static" / "dropin" / "widget.js"
QUESTION = {"messages": [{"role": "user", "content": "How are zebra tokens rotated?"}], "stream": True}
USER_CONFIG = f"""
[server]
cors_origins = ["{DOCS_SITE}"]
[dropin]
public = {{public}}
[dropin.site_url_map]
"site/docs/**.md" = "https://docs.example/{{{{path}}}}"
"""


def _serve(tmp: Path, public: bool):
    folder = tmp / "project"
    (folder / "site" / "docs" / "guide").mkdir(parents=True)
    (folder / "site" / "docs" / "guide" / "tokens.md").write_text(
        "# Tokens\n\nZebra tokens are rotated every night by the vault.\n", encoding="utf-8")
    (folder / "notes.md").write_text("# Notes\n\nZebra tokens were once rotated weekly.\n", encoding="utf-8")
    home = tmp / "xdg"
    (home / "athena").mkdir(parents=True)
    (home / "athena" / "config.toml").write_text(USER_CONFIG.format(public=str(public).lower()), encoding="utf-8")
    env = fast_env(XDG_CONFIG_HOME=str(home), ATHENA_LLM__PROVIDER="extractive")
    run_cli("index", str(folder), env=env)
    return AthenaServer(folder, env=env)


@pytest.fixture(scope="module")
def public(tmp_path_factory: pytest.TempPathFactory):
    with _serve(tmp_path_factory.mktemp("dropin-public"), public=True) as server:
        yield server


@pytest.fixture(scope="module")
def private(tmp_path_factory: pytest.TempPathFactory):
    with _serve(tmp_path_factory.mktemp("dropin-private"), public=False) as server:
        yield server


def _site(server: AthenaServer) -> str:
    return server.url.removesuffix("/athena")


@pytest.mark.skipif(not WIDGET_JS.is_file(), reason="the widget is not built (npm run build:prod)")
def test_widget_script_is_javascript_cacheable_and_loadable_by_other_sites(public):
    r = httpx.get(f"{public.url}/widget.js")  # a <script> tag: no token, no Origin
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert "max-age" in r.headers["cache-control"] and "public" in r.headers["cache-control"]
    assert r.headers["cross-origin-resource-policy"] == "cross-origin"
    assert r.content == WIDGET_JS.read_bytes()


def test_public_chat_from_the_docs_site_answers_with_site_urls(public):
    with httpx.stream("POST", f"{public.url}/chat", json=QUESTION, headers={"Origin": DOCS_SITE}, timeout=60) as r:
        assert r.status_code == 200, r.read()
        assert r.headers["access-control-allow-origin"] == DOCS_SITE
        # The widget reads the page image's scale cross-origin (core/pdfPage.ts).
        assert "X-Athena-Scale" in r.headers["access-control-expose-headers"]
        got = dict(sse_events(r))
    by_path = {c["path"]: c for c in got["citations"]["citations"]}
    assert by_path["site/docs/guide/tokens.md"]["url"] == "https://docs.example/guide/tokens"
    assert "url" not in by_path.get("notes.md", {})
    hits = httpx.get(f"{public.url}/search", params={"q": "zebra"}, headers={"Origin": DOCS_SITE}).json()["hits"]
    assert {h.get("url") for h in hits} >= {"https://docs.example/guide/tokens"}


def test_public_mode_keeps_writing_listing_and_deleting_behind_the_token(public):
    origin = {"Origin": DOCS_SITE}
    refused = [
        httpx.post(f"{public.url}/reindex", headers=origin),
        httpx.get(f"{public.url}/reindex", headers=origin),
        httpx.delete(f"{public.url}/reindex", headers=origin),
        httpx.get(f"{public.url}/conversations", headers=origin),
        httpx.get(f"{public.url}/conversations/abc", headers=origin),
        httpx.delete(f"{public.url}/conversations/abc", headers=origin),
        httpx.get(f"{public.url}/info", headers=origin),
        httpx.get(f"{public.url}/status", headers=origin),
    ]
    assert [r.status_code for r in refused] == [401] * len(refused)
    assert httpx.get(f"{public.url}/conversations", headers={**origin, **public.auth}).status_code == 200


def test_public_mode_refuses_other_origins_no_origin_and_wrong_tokens(public):
    foreign = httpx.post(f"{public.url}/chat", json=QUESTION, headers={"Origin": "http://evil.example"})
    assert foreign.status_code == 403 and "access-control-allow-origin" not in foreign.headers
    assert httpx.post(f"{public.url}/chat", json=QUESTION).status_code == 401  # not a browser on the docs site
    wrong = httpx.get(f"{public.url}/search", params={"q": "zebra"},
                      headers={"Origin": DOCS_SITE, "Authorization": "Bearer wrong"})
    assert wrong.status_code == 401  # a failed login is not turned into a visitor


def test_public_visitors_cannot_attach_a_cell_to_be_stored(public):
    body = {**QUESTION, "stream": False, "context": "secret = 'hunter2'\n" * 100}
    r = httpx.post(f"{public.url}/chat", json=body, headers={"Origin": DOCS_SITE})
    assert r.status_code == 403 and "context" in r.json()["error"]["message"]


def test_public_visitors_cannot_choose_the_model(public):
    body = {**QUESTION, "stream": False, "provider": "openai", "model": "gpt-expensive"}
    r = httpx.post(f"{public.url}/chat", json=body, headers={"Origin": DOCS_SITE})
    assert r.status_code == 403 and "provider" in r.json()["error"]["message"]


def test_public_mode_is_off_by_default(private):
    origin = {"Origin": DOCS_SITE}
    assert httpx.post(f"{private.url}/chat", json=QUESTION, headers=origin).status_code == 401
    assert httpx.get(f"{private.url}/search", params={"q": "zebra"}, headers=origin).status_code == 401
    # The script is static code with no secret: served without the token, so the button shows
    # and can say why the API refuses it (issue 21: a 401 left the button silently missing).
    script = httpx.get(f"{private.url}/widget.js")
    assert script.status_code == (200 if WIDGET_JS.is_file() else 503)  # 503: not built, and says how to build it
    # With the token, citations still carry the site URL (the map is independent of public mode).
    body = {**QUESTION, "stream": False}
    answer = httpx.post(f"{private.url}/chat", json=body, headers={**origin, **private.auth}, timeout=60).json()
    assert "https://docs.example/guide/tokens" in {c.get("url") for c in answer["citations"]}
