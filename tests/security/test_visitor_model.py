"""Issue 31, finding 2: a public visitor spent the owner's machine through the model.

A token-less visitor's question in another language loaded the bundled model and translated
all of it: 7,900 characters of Spanish cost 217 s of CPU, the server grew to 2 GB and the
owner's own question waited a minute. Now a visitor gets no model unless the owner turned
one on for visitors (``[dropin] public_model``), and then within a length and a time cap,
queued behind the owner's model work (agent/model_work.py; the queue itself is pinned by
test_visitor_chat_share.py).

The first test runs a real `athena serve` in public mode with the bundled model the dev
extra installs (Qwen2.5-Coder 0.5B, what CI has), in extractive mode with translation on,
as an owner who wants their own questions in other languages translated would run it.
The others use a wire-fake OpenAI server, whose requests show what reached the model.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from pathlib import Path

import httpx
import psutil
import pytest

from http_servers import AthenaServer, chat_body, fast_env, run_cli, served_with_wire_model
from wire_servers import OpenAIWireServer, RecordedRequest, Turn

pytestmark = [pytest.mark.integration, pytest.mark.slow]

DOCS_SITE = "http://docs.example"
VISITOR = {"Origin": DOCS_SITE}
SMALL = "qwen2.5-coder-0.5b-instruct"
MEMORY_CAP = 700 * 2**20
SEARCH_CAP_S = 2.0
# What the review sent: one long question in Spanish, pasted by a visitor (under the
# server's 8,000-character limit for a question).
SENTENCES = [
    "¿Cómo se rotan los tokens cebra cada noche y quién guarda las claves de la bóveda?",
    "Necesito saber qué pasa cuando el servidor reinicia durante la rotación de las claves.",
    "También quiero entender por qué la documentación dice que los tokens caducan a medianoche.",
    "¿Dónde se configuran los permisos de los usuarios que pueden leer la bóveda de secretos?",
    "Explique con detalle cada paso del proceso, los archivos que cambian y los registros que se escriben.",
]


def _long_spanish_question(size: int = 7900) -> str:
    text = ""
    while len(text) < size:
        text += " ".join(SENTENCES) + " "
    return text[:size].rsplit(" ", 1)[0] + "?"


def _folder(tmp: Path, config: str) -> tuple[Path, Path]:
    folder = tmp / "project"
    (folder / "docs").mkdir(parents=True)
    (folder / "docs" / "tokens.md").write_text(
        "# Tokens\n\nZebra tokens are rotated every night by the vault.\n\n"
        "## Keys\n\nThe vault keeps the keys; only the operators group may read them.\n", encoding="utf-8")
    home = tmp / "xdg"
    (home / "athena").mkdir(parents=True)
    (home / "athena" / "config.toml").write_text(
        f'[server]\ncors_origins = ["{DOCS_SITE}"]\n[dropin]\npublic = true\npublic_paths = ["docs/**"]\n{config}',
        encoding="utf-8")
    return folder, home


def _tree_rss(pid: int) -> int:
    proc = psutil.Process(pid)
    total = proc.memory_info().rss
    for child in proc.children(recursive=True):
        try:
            total += child.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total


def test_a_visitors_long_spanish_question_loads_no_model_and_the_owner_searches_meanwhile(tmp_path):
    folder, home = _folder(tmp_path, "")
    env = fast_env(XDG_CONFIG_HOME=str(home), ATHENA_LLM__PROVIDER="extractive", ATHENA_LLM__TRANSLATE="auto",
                   ATHENA_LLM__MODEL=SMALL, ATHENA_MULTILINGUAL__PROVIDER="onnx",
                   ATHENA_MULTILINGUAL__MODEL_DIR=str(tmp_path / "no-model"))
    run_cli("index", str(folder), env=env)
    question = _long_spanish_question()
    assert 7800 <= len(question) <= 7900
    with AthenaServer(folder, "--rate-limit", "0", env=env) as server:
        before = _tree_rss(server.pid)
        peak = [before]
        visitor: dict = {}

        def ask() -> None:
            started = time.monotonic()
            visitor["answer"] = httpx.post(f"{server.url}/chat", headers=VISITOR, timeout=600,
                                           json=chat_body(question, stream=False))
            visitor["took"] = time.monotonic() - started

        thread = threading.Thread(target=ask, daemon=True)
        thread.start()
        searches = []
        while thread.is_alive() or len(searches) < 5:
            started = time.monotonic()
            hit = server.client.get("/search", params={"q": "zebra tokens rotated"}, timeout=60)
            searches.append(time.monotonic() - started)
            assert hit.status_code == 200 and hit.json()["hits"], hit.text
            peak.append(_tree_rss(server.pid))
            time.sleep(0.2)
            if len(searches) > 3000:
                break
        thread.join(600)
        answer = visitor["answer"]
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["mode"] == "extractive"
        # every search of the turn: the first is the question as asked (the sources), a later
        # one would carry its English translation
        searched = [step["input"] for step in body["trace"] if step["tool"] == "searchDocs"]
        search_step = {"input": next((s for s in searched if "translated" in s), searched[0])}
        seen = (f"server {before / 2**20:.0f} → {max(peak) / 2**20:.0f} MiB at most; the owner's {len(searches)} "
                f"searches took at most {max(searches):.2f} s; the visitor's answer {visitor['took']:.1f} s; "
                f"translated: {search_step['input'].get('translated', '')[:60]!r}")
        print(seen)
        assert "translated" not in search_step["input"], f"the visitor's question was translated by a model: {seen}"
        assert max(peak) < MEMORY_CAP, seen
        assert max(searches) < SEARCH_CAP_S, seen
        # The owner's own question in Spanish is still translated by the bundled model.
        owner = server.client.post("/chat", json=chat_body("¿Quién guarda las claves de la bóveda?", stream=False),
                                   timeout=600)
        assert owner.status_code == 200, owner.text
        owner_searches = [step["input"] for step in owner.json()["trace"] if step["tool"] == "searchDocs"]
        assert any(s.get("translated") for s in owner_searches), owner.json()


def _reply(request: RecordedRequest) -> Turn:
    asked = " ".join(str(m.get("content")) for m in request.body.get("messages", []) if m.get("role") == "user")
    if "slowly" in asked:
        return Turn(text=["Zebra tokens rotate nightly. "] * 40, event_delay_s=0.25)
    return Turn(text=["Zebra tokens rotate every night [1]."])


@pytest.fixture(scope="module")
def model_for_visitors(tmp_path_factory: pytest.TempPathFactory):
    """Public mode with the owner's model turned on for visitors, capped at 300 characters
    and 3 seconds."""
    tmp = tmp_path_factory.mktemp("visitor-model")
    folder, home = _folder(tmp, "public_model = true\npublic_model_chars = 300\npublic_model_seconds = 3\n")
    yield from served_with_wire_model(folder, home, _reply)


def _asked(model: OpenAIWireServer, words: str) -> int:
    return sum(words in str(r.body) for r in model.requests if r.path.endswith("/chat/completions"))


def test_without_public_model_a_visitor_never_reaches_the_owners_model(tmp_path):
    folder, home = _folder(tmp_path, "")
    with contextmanager(served_with_wire_model)(folder, home, _reply) as (server, model):
        visitor = httpx.post(f"{server.url}/chat", headers=VISITOR, timeout=60,
                             json=chat_body("How are zebra tokens rotated by the visitor?", stream=False))
        assert visitor.status_code == 200 and visitor.json()["mode"] == "extractive", visitor.text
        assert "rotated every night" in visitor.json()["answer"]
        assert _asked(model, "by the visitor") == 0
        owner = server.client.post("/chat", json=chat_body("How are zebra tokens rotated?", stream=False),
                                   timeout=60)
        assert owner.status_code == 200 and owner.json()["mode"] == "openai:tiny", owner.text


def test_a_visitors_question_over_the_length_cap_gets_no_model_work(model_for_visitors):
    server, model = model_for_visitors
    long = "How are zebra tokens rotated, asked at length? " + "Please explain every detail. " * 12
    assert len(long) > 300
    answer = httpx.post(f"{server.url}/chat", headers=VISITOR, timeout=60, json=chat_body(long, stream=False))
    assert answer.status_code == 200 and answer.json()["mode"] == "extractive", answer.text
    assert _asked(model, "asked at length") == 0
    short = httpx.post(f"{server.url}/chat", headers=VISITOR, timeout=60,
                       json=chat_body("How are zebra tokens rotated?", stream=False))
    assert short.status_code == 200 and short.json()["mode"] == "openai:tiny", short.text
    assert "rotate every night" in short.json()["answer"]


def test_a_visitors_model_time_is_capped(model_for_visitors):
    server, model = model_for_visitors
    started = time.monotonic()
    answer = httpx.post(f"{server.url}/chat", headers=VISITOR, timeout=60,
                        json=chat_body("How do zebra tokens rotate, slowly?", stream=False))
    took = time.monotonic() - started
    assert answer.status_code == 200, answer.text
    assert _asked(model, "slowly") == 1
    said = answer.json()["answer"].count("rotate nightly")
    assert 0 < said < 40, answer.json()["answer"]  # stopped at 3 s: about 12 of the 40 pieces
    assert took < 8, f"the visitor's turn took {took:.1f} s"
