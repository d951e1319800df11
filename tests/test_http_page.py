"""The chat page's front door (docs/chat-page.md), over plain HTTP against a real
`athena serve`: the token rule, the cookie, the redirect, the CSP, the assets."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from http_servers import AthenaServer, fast_env

pytestmark = pytest.mark.integration

PAGE_JS = Path(__file__).resolve().parents[1] / "athena_lab" / "static" / "page" / "page.js"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("page-http")
    (folder / "note.md").write_text("# Note\n\nNothing here.\n", encoding="utf-8")
    with AthenaServer(folder, env=fast_env()) as running:
        yield running


def test_printed_url_is_the_chat_page_with_its_token(server):
    assert server.page_url.split("?")[0].endswith(":" + server.url.split(":")[-1].split("/")[0] + "/")
    assert "?token=" in server.page_url


def test_page_without_token_is_refused_with_a_hint(server):
    r = httpx.get(server.url.removesuffix("/athena") + "/")
    assert r.status_code == 401
    assert "?token=" in r.text and r.headers["content-type"].startswith("text/plain")


@pytest.mark.skipif(not PAGE_JS.is_file(), reason="the chat page is not built (npm run build:prod)")
def test_token_url_sets_the_cookie_and_redirects_to_a_page_under_a_strict_csp(server):
    with httpx.Client() as client:
        first = client.get(server.page_url)
        assert first.status_code == 302 and first.headers["location"] == "/"
        assert any(c.startswith("athena-token-") for c in client.cookies.keys())
        page = client.get(server.url.removesuffix("/athena") + "/")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        csp = page.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp and "'unsafe-inline'" not in csp
        assert "<script src=\"page/page.js\" defer>" in page.text and "<script>" not in page.text
        script = client.get(server.url.removesuffix("/athena") + "/page/page.js")
        assert script.status_code == 200 and "javascript" in script.headers["content-type"]
        assert client.get(server.url + "/info").status_code == 200  # the API takes the cookie too
        assert client.get(server.url.removesuffix("/athena") + "/page/other.js").status_code == 404
