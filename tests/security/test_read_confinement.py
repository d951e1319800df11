"""Finding 3: reads are confined to what is indexed, not to the whole folder.

A folder holding secrets beside its docs (``.env``, ``.ssh/``, a gitignored plan, a key
file, symlinks to them) is indexed for real; then the routes of a real ``athena serve``,
the agent tools, the real ``athena mcp`` process and the notebook widget are asked for each
secret. Every one refuses with a message naming the path and the reason, and no byte of a
secret comes back.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from athena_lab.agent.citations import TurnEvidence
from athena_lab.agent.tools import Toolbox
from athena_lab.widget import AnswerWidget, with_previews
from athena_lab.workspace import Workspace, ForbiddenPathError, MissingPathError
from http_servers import AthenaServer, index_folder, served

pytestmark = pytest.mark.integration

SECRET = "sk-live-DO-NOT-LEAK-4242"
TOKEN = "read-confinement-token"
LEXICAL = {"embedding.provider": "none"}

# path asked for → words the refusal must contain (besides the path itself)
REFUSED = {
    ".env": "hidden",
    ".ssh/id_rsa": "hidden",
    ".athena/catalog.sqlite": "hidden",
    "notes/.draft.md": "hidden",
    "secret.key": "no index.include pattern",
    "private/plan.md": ".gitignore",
    "node_modules/pkg/README.md": "index.exclude",
    "env-link.md": "symlink to a hidden file",
    "escape.md": "outside the indexed folder",
}


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def make_folder(root: Path) -> Path:
    """Docs next to secrets, as a home folder or a repository holds them."""
    _write(root, "docs/guide.md", "# Guide\n\nRotate the signing keys every quarter.\n")
    _write(root, ".env", f"OPENAI_API_KEY={SECRET}\n")
    _write(root, ".ssh/id_rsa", f"-----BEGIN KEY-----\n{SECRET}\n")
    _write(root, "notes/.draft.md", f"# Draft\n\n{SECRET}\n")
    _write(root, ".github/README.md", f"# CI notes\n\n{SECRET}\n")
    _write(root, "secret.key", SECRET)
    _write(root, ".gitignore", "private/\n")
    _write(root, "private/plan.md", f"# Plan\n\n{SECRET}\n")
    _write(root, "node_modules/pkg/README.md", f"# pkg\n\n{SECRET}\n")
    _write(root.parent / "outside", "secret.md", f"# Outside\n\n{SECRET}\n")
    (root / "env-link.md").symlink_to(root / ".env")
    (root / "escape.md").symlink_to(root.parent / "outside" / "secret.md")
    return root


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_folder(tmp_path_factory.mktemp("confine") / "home")
    return index_folder(root)


@pytest.fixture(scope="module")
def server(folder: Path):
    yield from served(folder, TOKEN)


@pytest.fixture(scope="module")
def ws(folder: Path):
    athena = Workspace(folder, overrides=LEXICAL)
    yield athena
    athena.close()


def _get(server: AthenaServer, route: str, **params: object) -> httpx.Response:
    return httpx.get(f"{server.url}/{route}", params=params,
                     headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30)


@pytest.mark.parametrize("path, why", REFUSED.items())
def test_source_route_refuses_files_that_are_not_indexed_documents_with_403(server, path, why):
    r = _get(server, "source", path=path)
    assert r.status_code == 403, (path, r.text)
    message = r.json()["error"]["message"]
    assert path in message and why in message, message
    assert SECRET not in r.text


@pytest.mark.parametrize("path", [".env", ".athena/catalog.sqlite", "secret.key"])
def test_pdf_page_route_refuses_the_same_files(server, path):
    r = _get(server, "pdf/page", path=path, page=1)
    assert r.status_code == 403, (path, r.text)
    assert path in r.json()["error"]["message"] and SECRET not in r.text


def test_source_route_still_serves_indexed_documents_and_404s_missing_ones(server):
    ok = _get(server, "source", path="docs/guide.md", start_line=1, end_line=3)
    assert ok.status_code == 200 and "Rotate the signing keys" in "\n".join(ok.json()["lines"])
    missing = _get(server, "source", path="docs/nope.md")
    assert missing.status_code == 404 and "docs/nope.md" in missing.json()["error"]["message"]


def test_hidden_folders_are_neither_indexed_nor_searchable(server):
    status = _get(server, "status").json()
    paths = {f["path"] for f in status["files"]}
    assert paths == {"docs/guide.md"}, paths
    hits = _get(server, "search", q=SECRET).json()["hits"]
    assert not hits


def test_a_file_the_rules_would_index_is_readable_before_the_next_reindex(folder, ws):
    _write(folder, "docs/new.md", "# New\n\nWritten after the index run.\n")
    assert ws.read_source("docs/new.md")["lines"][0] == "# New"


def test_index_folder_is_refused_even_when_it_is_not_hidden(tmp_path):
    root = make_folder(tmp_path / "home")
    athena = Workspace(root, root / "idx", overrides=LEXICAL)
    athena.index()
    with pytest.raises(ForbiddenPathError, match=r"idx/catalog.sqlite: refused: it is inside the index folder"):
        athena.source_path("idx/catalog.sqlite")
    athena.close()


@pytest.mark.parametrize("path, why", REFUSED.items())
def test_agent_read_tool_refuses_with_a_message_naming_the_path(ws, path, why):
    tools = Toolbox(ws, TurnEvidence())
    result = tools.call("readSourceRange", {"path": path, "startLine": 1})
    assert not result.ok
    assert path in result.content["error"] and why in result.content["error"]
    assert SECRET not in result.for_model()


def test_agent_pdf_tool_refuses_a_hidden_pdf(folder, ws):
    (folder / ".private").mkdir(exist_ok=True)
    (folder / ".private" / "scan.pdf").write_bytes(b"%PDF-1.4\n" + SECRET.encode())
    result = Toolbox(ws, TurnEvidence()).call("readPdfSource", {"path": ".private/scan.pdf", "page": 1})
    assert not result.ok and "hidden" in result.content["error"]


def test_widget_previews_and_page_images_refuse_hidden_paths(folder, ws):
    shown = with_previews(ws, [{"id": 1, "kind": "text", "path": ".env", "start_line": 1, "end_line": 1}])
    assert "preview" not in shown[0]
    widget = AnswerWidget(ws, citations=[{"id": 1, "kind": "pdf", "path": ".private/scan.pdf", "page": 1}])
    reply = widget.page_preview(1)
    assert "hidden" in reply["error"] and "png" not in reply


def test_read_errors_distinguish_missing_from_forbidden(ws):
    with pytest.raises(MissingPathError):
        ws.source_path("docs/missing.md")
    with pytest.raises(ForbiddenPathError):
        ws.source_path("./.env")
