"""What a public visitor can do to a real `athena serve` in public mode (``[dropin] public``):
a token-less browser on the docs site's origin, as the drop-in widget is
(docs/security.md, "Public mode"). Each test sends the visitor's request and asserts what it
must not reach or start.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import httpx
import psutil
import pytest

from corpus_files import CORPORA
from http_servers import PDF_NAME, AthenaServer, fast_env, run_cli

pytestmark = pytest.mark.integration

DOCS_SITE = "http://docs.example"
VISITOR = {"Origin": DOCS_SITE}
USER_CONFIG = f"""
[server]
cors_origins = ["{DOCS_SITE}"]
[dropin]
public = true
public_paths = ["site/docs/**"]
[dropin.site_url_map]
"site/docs/**.md" = "https://docs.example/{{path}}"
[pdf.passwords]
"locked.pdf" = "owner-pw"
"""
SECRET = "PRIVATEOWL"
SPANISH = ["¿Cómo se rotan los tokens cebra cada noche?", "¿Quién guarda los tokens de la bóveda?",
           "¿Cuándo se cambian las claves del servidor?", "¿Dónde están las notas privadas del equipo?",
           "¿Por qué los tokens se rotan cada noche y no cada semana?"]


def _folder(tmp: Path) -> tuple[Path, dict[str, str]]:
    folder = tmp / "project"
    (folder / "site" / "docs" / "guide").mkdir(parents=True)
    (folder / "site" / "docs" / "guide" / "tokens.md").write_text(
        "# Tokens\n\nZebra tokens are rotated every night by the vault.\n", encoding="utf-8")
    (folder / "notes.md").write_text(f"# Notes\n\nZebra tokens were once rotated weekly by {SECRET}.\n",
                                     encoding="utf-8")
    (folder / "lab").mkdir()
    _notebook(folder / "lab" / "analysis.ipynb", f"zebra_key = '{SECRET}'")
    _notebook(folder / "site" / "docs" / "zebra.ipynb", "zebra_tokens = rotate_nightly()")
    papers = folder / "site" / "docs" / "papers"
    papers.mkdir()
    shutil.copy(CORPORA / "pdfs" / PDF_NAME, papers / "crazy.pdf")
    _locked_pdf(papers / "locked.pdf", "owner-pw")
    home = tmp / "xdg"
    (home / "athena").mkdir(parents=True)
    (home / "athena" / "config.toml").write_text(USER_CONFIG, encoding="utf-8")
    # multilingual.build stays "auto" (the default); a model that cannot load makes a build
    # that does start end at once instead of spending minutes of CPU in the test.
    env = fast_env(XDG_CONFIG_HOME=str(home), ATHENA_LLM__PROVIDER="extractive",
                   ATHENA_MULTILINGUAL__PROVIDER="onnx", ATHENA_MULTILINGUAL__MODEL_DIR=str(tmp / "no-model"))
    run_cli("index", str(folder), env=env)
    # Saved after the index run: inside the include rules, never indexed.
    (folder / "private-notes.md").write_text(f"# Private\n\nzebra {SECRET}\n", encoding="utf-8")
    (folder / "drafts").mkdir()
    (folder / "drafts" / "plan.txt").write_text(f"zebra plan {SECRET}\n", encoding="utf-8")
    (folder / "site" / "docs" / "guide" / "unreleased.md").write_text(f"# Soon\n\n{SECRET}\n", encoding="utf-8")
    return folder, env


def _notebook(path: Path, source: str) -> None:
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Zebra"), nbformat.v4.new_code_cell(source)])
    nbformat.write(nb, str(path))


def _locked_pdf(path: Path, password: str) -> None:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(str(CORPORA / "pdfs" / PDF_NAME)))
    writer.encrypt(user_password=password, owner_password=password)
    with open(path, "wb") as out:
        writer.write(out)


@pytest.fixture(scope="module")
def public(tmp_path_factory: pytest.TempPathFactory):
    folder, env = _folder(tmp_path_factory.mktemp("public-visitor"))
    with AthenaServer(folder, "--rate-limit", "0", env=env) as server:
        yield server


@pytest.fixture(scope="module")
def public_jobs(tmp_path_factory: pytest.TempPathFactory):
    """A server of its own: the owner's test starts an index run, which indexes everything."""
    folder, env = _folder(tmp_path_factory.mktemp("public-jobs"))
    with AthenaServer(folder, "--rate-limit", "0", env=env) as server:
        yield server


def _job(server: AthenaServer) -> dict:
    return server.client.get("/reindex").json()["job"]


def _children(server: AthenaServer) -> list[psutil.Process]:
    return psutil.Process(server.pid).children(recursive=True)


# Finding 1: background jobs ----------------------------------------------------------------

def test_a_public_visitor_never_starts_a_background_job(public_jobs):
    """Issue 22, finding 1: each token-less Spanish question started a full index run (a
    child process building the multilingual vectors); five questions, five runs."""
    for question in SPANISH:
        r = httpx.get(f"{public_jobs.url}/search", params={"q": question}, headers=VISITOR, timeout=60)
        assert r.status_code == 200, r.text
        assert not any("being built" in w for w in r.json()["warnings"])
    chat = httpx.post(f"{public_jobs.url}/chat", headers=VISITOR, timeout=60,
                      json={"messages": [{"role": "user", "content": SPANISH[0]}], "stream": False})
    assert chat.status_code == 200, chat.text
    streamed = httpx.post(f"{public_jobs.url}/chat", headers=VISITOR, timeout=60,
                          json={"messages": [{"role": "user", "content": SPANISH[1]}], "stream": True})
    assert streamed.status_code == 200, streamed.text
    assert _job(public_jobs)["state"] == "idle"
    assert _children(public_jobs) == []


def test_the_owners_first_foreign_question_starts_one_build_and_later_ones_none(public_jobs):
    first = public_jobs.client.get("/search", params={"q": SPANISH[0]}, timeout=60)
    assert first.status_code == 200, first.text
    job = _job(public_jobs)
    assert job["id"] is not None and job["state"] in ("running", "failed", "done"), job
    deadline = time.monotonic() + 120
    while _job(public_jobs)["state"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.3)
    for question in SPANISH[1:]:
        assert public_jobs.client.get("/search", params={"q": question}, timeout=60).status_code == 200
        assert httpx.get(f"{public_jobs.url}/search", params={"q": question}, headers=VISITOR, timeout=60).status_code == 200
    assert _job(public_jobs)["id"] == job["id"], "a later question started another run"
    assert _children(public_jobs) == []


# Finding 2: reads beyond what the site publishes -------------------------------------------

UNPUBLISHED = ["notes.md",                      # indexed, outside public_paths
               "private-notes.md",              # saved after indexing
               "drafts/plan.txt",               # likewise, in a folder
               "site/docs/guide/unreleased.md",  # under public_paths, but not indexed
               "site/docs/guide/missing.md",    # not there at all
               ".env", "../../etc/passwd", "site/docs/../../notes.md"]


def _visitor_get(server: AthenaServer, route: str, **params) -> httpx.Response:
    return httpx.get(f"{server.url}/{route}", params=params, headers=VISITOR, timeout=60)


@pytest.mark.parametrize("path", UNPUBLISHED)
def test_a_visitor_reads_no_source_the_site_does_not_publish_and_cannot_tell_why(public, path):
    """Issue 22, finding 2: a token-less /athena/source returned private-notes.md and
    drafts/plan.txt (saved after indexing), and 404 against 403 told whether a file exists."""
    r = _visitor_get(public, "source", path=path)
    assert r.status_code == 404, r.text
    assert r.json()["error"]["message"] == f"{path}: no such published document"
    assert SECRET not in r.text


def test_the_owner_still_reads_what_the_folder_rules_allow(public):
    assert public.client.get("/source", params={"path": "notes.md"}).status_code == 200
    assert public.client.get("/source", params={"path": "private-notes.md"}).status_code == 200
    assert public.client.get("/pdf/page", params={"path": "site/docs/papers/locked.pdf", "page": 1}).status_code == 200


def test_a_visitor_reads_published_sources(public):
    r = _visitor_get(public, "source", path="site/docs/guide/tokens.md")
    assert r.status_code == 200 and "Zebra tokens" in "\n".join(r.json()["lines"])
    assert _visitor_get(public, "cell", path="site/docs/zebra.ipynb", cell=1).status_code == 200
    png = _visitor_get(public, "pdf/page", path="site/docs/papers/crazy.pdf", page=1)
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"


def test_a_visitor_opens_no_unpublished_notebook_cell(public):
    r = _visitor_get(public, "cell", path="lab/analysis.ipynb", cell=1)
    assert r.status_code == 404 and SECRET not in r.text
    assert r.json()["error"]["message"] == "lab/analysis.ipynb: no such published document"


def test_a_visitor_gets_no_page_of_a_pdf_the_owner_unlocked_with_a_password(public):
    r = _visitor_get(public, "pdf/page", path="site/docs/papers/locked.pdf", page=1)
    assert r.status_code == 404 and r.headers["content-type"].startswith("application/json")
    assert r.json()["error"]["message"] == "site/docs/papers/locked.pdf: no such published document"


def test_a_visitor_searches_and_asks_only_the_published_sources(public):
    hits = _visitor_get(public, "search", q="zebra tokens rotated", k=100).json()["hits"]
    assert hits and {h["path"] for h in hits} <= {"site/docs/guide/tokens.md", "site/docs/zebra.ipynb"}
    owner = public.client.get("/search", params={"q": "zebra tokens rotated", "k": 100}).json()["hits"]
    assert "notes.md" in {h["path"] for h in owner}  # the owner's search is whole
    answer = httpx.post(f"{public.url}/chat", headers=VISITOR, timeout=60, json={
        "messages": [{"role": "user", "content": f"Who rotated zebra tokens weekly? {SECRET}?"}], "stream": False})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert SECRET not in body["answer"] and {c["path"] for c in body["citations"]} <= {
        "site/docs/guide/tokens.md", "site/docs/zebra.ipynb"}


def test_a_visitor_cannot_cite_an_unpublished_source(public):
    refused = _visitor_get(public, "cite", target="notes.md")
    absent = _visitor_get(public, "cite", target="nope.md")
    assert refused.status_code == absent.status_code == 404
    assert refused.json()["error"]["message"] == "notes.md: neither a chunk id nor an indexed file"
    assert _visitor_get(public, "cite", target="site/docs/papers/crazy.pdf").status_code == 200


# Finding 7: visitors' conversations ---------------------------------------------------------

def _ask(server: AthenaServer, question: str, **extra) -> httpx.Response:
    return httpx.post(f"{server.url}/chat", headers=VISITOR, timeout=60,
                      json={"messages": [{"role": "user", "content": question}], "stream": False, **extra})


def test_a_visitors_conversation_stays_out_of_the_owners_history(public):
    """Issue 22, finding 7: public visitors' questions were stored in the owner's catalog,
    listed in the owner's history and never pruned."""
    owners = public.client.post("/chat", timeout=60, json={
        "messages": [{"role": "user", "content": "How are zebra tokens rotated?"}], "stream": False}).json()
    before = public.client.get("/conversations", params={"limit": 200}).json()["conversations"]
    first = _ask(public, "How often are zebra tokens rotated?")
    assert first.status_code == 200, first.text
    follow_up = _ask(public, "And by whom?", conversation_id=first.json()["conversation_id"])
    assert follow_up.status_code == 200, follow_up.text
    after = public.client.get("/conversations", params={"limit": 200}).json()["conversations"]
    assert after == before
    # The two id spaces are apart: a visitor cannot continue (read back) the owner's conversation.
    assert _ask(public, "What did I ask?", conversation_id=owners["conversation_id"]).status_code == 404
    assert public.client.get(f"/conversations/{first.json()['conversation_id']}").status_code == 404


def test_visitors_conversations_are_forgotten_after_a_while_and_capped():
    from athena_lab.server.public import VisitorConversations

    now = [0.0]
    store = VisitorConversations(ttl_s=60, max_conversations=3, max_messages=4, clock=lambda: now[0])
    ids = [store.create(f"question {n}") for n in range(5)]
    assert len(store) == 3 and not store.exists(ids[0]) and store.exists(ids[4])
    for n in range(10):
        store.add_message(ids[4], "user", f"q{n}")
    assert [m["content"] for m in store.get(ids[4])["messages"]] == ["q6", "q7", "q8", "q9"]
    now[0] = 61
    assert len(store) == 0 and store.get(ids[4]) is None


def test_visitors_conversations_hold_at_most_their_byte_bound():
    """Issue 31: 1,000 conversations of 40 messages were the only bound: 330 MiB of the
    owner's memory when half the messages are 8,000-character questions and half cited
    answers. The store now also keeps at most ``max_bytes``, dropping the least recently
    used conversations first."""
    from athena_lab.server.public import VisitorConversations

    store = VisitorConversations(max_bytes=200_000)
    ids = []
    for n in range(60):
        cid = store.create(f"question {n}")
        ids.append(cid)
        for _ in range(3):
            store.add_message(cid, "user", "¿" + "palabra " * 1000 + "?")  # 8,000 characters
            store.add_message(cid, "assistant", "answer", citations=[{"id": 1, "snippet": "s" * 2000}])
    assert store.size <= 200_000
    assert store.exists(ids[-1]) and not store.exists(ids[0])
    assert len(store.get(ids[-1])["messages"]) == 6
    default = VisitorConversations()
    assert default.max_bytes == 32 << 20 and default.max_conversations == 1000


def test_a_visitor_is_not_shown_the_servers_paths_when_there_is_no_index(tmp_path):
    """Issue 31, finding 6: the 409 "no index for /abs/path yet" told a visitor where the
    owner keeps the folder. The owner still gets the path and the route that builds it."""
    folder = tmp_path / "unindexed-project"
    (folder / "site" / "docs").mkdir(parents=True)
    (folder / "site" / "docs" / "a.md").write_text("# A\n\nzebra\n", encoding="utf-8")
    home = tmp_path / "xdg"
    (home / "athena").mkdir(parents=True)
    (home / "athena" / "config.toml").write_text(USER_CONFIG, encoding="utf-8")
    env = fast_env(XDG_CONFIG_HOME=str(home), ATHENA_LLM__PROVIDER="extractive")
    with AthenaServer(folder, "--rate-limit", "0", env=env) as server:
        answers = [httpx.get(f"{server.url}/search", params={"q": "zebra"}, headers=VISITOR, timeout=30),
                   httpx.post(f"{server.url}/chat", headers=VISITOR, timeout=30,
                              json={"messages": [{"role": "user", "content": "zebra?"}], "stream": False})]
        for answer in answers:
            assert answer.status_code == 409, answer.text
            assert str(tmp_path) not in answer.text and "unindexed-project" not in answer.text
            assert "/athena/reindex" not in answer.text
            assert answer.json()["error"]["message"] == "this site's documents are not indexed yet; try again later"
        owner = server.client.get("/search", params={"q": "zebra"})
        assert owner.status_code == 409 and str(folder) in owner.text and "POST /athena/reindex" in owner.text
