"""Finding 10 (path prefixes): a filter is normalised, never trimmed into something else.

``lstrip("./")`` made ``../`` mean "no filter" (the whole index) and ``.github/`` mean
``github/``. Sent to a real ``athena serve`` and to the agent tools, ``..`` that leaves the
folder is refused with a message naming the filter; ``./docs/`` and ``docs/../api/``
are the folders they spell.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from athena_lab.agent.citations import TurnEvidence
from athena_lab.agent.tools import Toolbox
from athena_lab.errors import PathError
from athena_lab.paths import normalize_prefix
from athena_lab.workspace import Workspace
from http_servers import AthenaServer, chat_body, index_folder, served

pytestmark = pytest.mark.integration

TOKEN = "prefix-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
WORD = "zanzibarite"  # one rare word in every file, so each filter's effect is visible


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("prefix") / "repo"
    for rel in ("docs/a.md", "api/b.md", "github/c.md", "top.md"):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# {rel}\n\nThe {WORD} mineral is described here.\n", encoding="utf-8")
    return index_folder(root)


@pytest.fixture(scope="module")
def server(folder: Path):
    yield from served(folder, TOKEN)


def _search(server: AthenaServer, prefix: str) -> httpx.Response:
    return httpx.get(f"{server.url}/search", params={"q": WORD, "k": 10, "path_prefix": prefix},
                     headers=AUTH, timeout=30)


@pytest.mark.parametrize("prefix", ["../", "..", "docs/../../", "/etc/", "../../home"])
def test_search_refuses_a_prefix_that_leaves_the_folder_with_400(server, prefix):
    r = _search(server, prefix)
    assert r.status_code == 400, (prefix, r.text)
    message = r.json()["error"]["message"]
    assert repr(prefix) in message and ("'..'" in message or "absolute" in message), message


def test_dot_github_prefix_does_not_become_github(server):
    r = _search(server, ".github/")
    assert r.status_code == 200 and r.json()["hits"] == []


@pytest.mark.parametrize("prefix, expected", [
    ("./docs/", {"docs/a.md"}), ("docs/../api/", {"api/b.md"}), ("github//", {"github/c.md"}),
    ("./", {"docs/a.md", "api/b.md", "github/c.md", "top.md"}),
])
def test_search_normalises_a_prefix_to_the_folder_it_spells(server, prefix, expected):
    r = _search(server, prefix)
    assert r.status_code == 200, r.text
    assert {h["path"] for h in r.json()["hits"]} == expected


def test_chat_with_an_escaping_prefix_is_refused_before_a_conversation_is_created(server):
    before = httpx.get(f"{server.url}/conversations", headers=AUTH, timeout=30).json()["conversations"]
    r = httpx.post(f"{server.url}/chat", json=chat_body(f"what is {WORD}?", stream=False,
                                                        filters={"path_prefix": "../"}),
                   headers=AUTH, timeout=60)
    assert r.status_code == 400 and "'..'" in r.json()["error"]["message"], r.text
    after = httpx.get(f"{server.url}/conversations", headers=AUTH, timeout=30).json()["conversations"]
    assert after == before


@pytest.mark.parametrize("tool, args", [
    ("searchDocs", {"query": WORD, "filters": {"pathPrefix": "../"}}),
    ("grepDocs", {"pattern": WORD, "pathPrefix": "../"}),
    ("listDocs", {"pathPrefix": "../"}),
])
def test_agent_tools_refuse_an_escaping_prefix(folder, tool, args):
    ws = Workspace(folder, overrides={"embedding.provider": "none"})
    result = Toolbox(ws, TurnEvidence()).call(tool, args)
    ws.close()
    assert not result.ok and "pathPrefix '../'" in result.content["error"]


def test_agent_tools_keep_a_dot_folder_prefix_as_given(folder):
    ws = Workspace(folder, overrides={"embedding.provider": "none"})
    tools = Toolbox(ws, TurnEvidence())
    assert tools.call("grepDocs", {"pattern": WORD, "pathPrefix": ".github/"}).content["matches"] == []
    assert tools.call("listDocs", {"pathPrefix": ".github/"}).content["docs"] == []
    assert [d["path"] for d in tools.call("listDocs", {"pathPrefix": "./github"}).content["docs"]] == ["github/c.md"]
    ws.close()


@pytest.mark.parametrize("raw, clean", [
    (None, None), ("", None), (".", None), ("./", None), ("docs", "docs"), ("./docs/", "docs/"),
    (".github/", ".github/"), ("a//b/./c/", "a/b/c/"), ("a/../b", "b"), ("docs\\api\\", "docs/api/"),
])
def test_normalize_prefix_keeps_meaning(raw, clean):
    assert normalize_prefix(raw) == clean


@pytest.mark.parametrize("raw", ["..", "../", "a/../../b", "/abs", "C:/x", "a\x00b"])
def test_normalize_prefix_refuses_escapes_with_one_clear_line(raw):
    with pytest.raises(PathError) as info:
        normalize_prefix(raw)
    assert "\n" not in str(info.value) and repr(raw) in str(info.value)
