"""The sidebar with the live index (on by default in Jupyter): a saved file is answerable,
the strip says when the index changed, a citation whose lines moved opens at its new
lines, and a source whose text changed since the answer is marked so."""

from __future__ import annotations

import json
import time
from urllib.parse import parse_qs, urlparse

import httpx
import pytest

from test_lab_chat import ANSWER_DONE, ask, current_editor_marks

pytestmark = [pytest.mark.browser, pytest.mark.slow]

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")

NOTES = """# Live notes

Notes written while Lab runs. They cover the errands of the week, who keeps which key,
how the reading room is booked, and when the post arrives. Each section stands on its own
so a question finds one section and not the whole page; this introduction is long enough
to be a passage of its own rather than being merged into the next section.

## Okapi ledger

The okapi ledger is archived every Tuesday in the basement vault. Only the
night clerk may open the vault, and the ledger never leaves the basement. Entries are
written in green ink, one line per delivery, and a page that is full is signed by two
clerks before the ledger goes back on its shelf behind the third door on the left.
"""
QUESTION = "Where is the okapi ledger archived?"


def api(lab: str):
    """(GET /athena/<path>, as a function) for the Lab fixture's server and token."""
    url = urlparse(lab)
    token = parse_qs(url.query)["token"][0]
    base = f"{url.scheme}://{url.netloc}/athena"
    return lambda path, **params: httpx.get(f"{base}/{path}", params={**params, "token": token}, timeout=10).json()


def in_search(get) -> bool:
    return any(h["path"] == "docs/live-notes.md" for h in get("search", q="okapi ledger")["hits"])


def poll(check, what: str, deadline_s: float = 10.0):
    start = time.monotonic()
    while not (value := check()):
        if time.monotonic() - start > deadline_s:
            pytest.fail(f"{what}: not within {deadline_s} s")
        time.sleep(0.1)
    return value


def test_a_moved_citation_opens_at_its_new_lines_and_a_changed_one_is_marked(page, lab, corpus, show_chat):
    get = api(lab)
    notes = corpus / "docs" / "live-notes.md"
    notes.write_text(NOTES, encoding="utf-8")
    try:
        poll(lambda: in_search(get), "the saved file in search")
        page.wait_for_function(
            "() => /updated .* ago|updated just now/.test("
            "document.querySelector('[data-testid=athena-index-summary]')?.textContent ?? '')")

        chats = []
        page.on("response", lambda r: chats.append(r) if "/athena/chat" in r.url else None)
        answer = ask(page, QUESTION, prefix="docs/live-notes")
        sent = [json.loads(line[len("data: "):])["citations"] for block in chats[-1].text().split("\n\n")
                if block.startswith("event: citations") for line in block.splitlines() if line.startswith("data: ")]
        source = answer.locator('[data-testid="athena-citation"][data-kind="text"]').first
        cited = next(h for h in get("search", q="okapi ledger archived")["hits"] if h["path"] == "docs/live-notes.md")
        notes.write_text(NOTES.replace("of its own rather than being merged into the next section.\n",
                                       "of its own rather than being merged into the next section.\n"
                                       "\nOne\ntwo\nthree\nfour\nfive\n"), encoding="utf-8")
        poll(lambda: get("chunks", ids=cited["chunk_id"])["chunks"][0].get("start_line") == cited["start_line"] + 6,
             "the chunk's new lines")
        source.click()
        page.wait_for_function(
            "() => { const w = window.jupyterapp.shell.currentWidget;"
            " return w?.context?.path?.endsWith('live-notes.md') && w.node.querySelector('.athena-cited-line'); }")
        # The quoted lines (the whole passage when the quote was not located), six lines down.
        evidence = next((c.get("evidence") or [] for c in sent[-1] if c.get("chunk_id") == cited["chunk_id"]), [])
        first = min((e["start_line"] for e in evidence), default=cited["start_line"])
        last = max((e["end_line"] for e in evidence), default=cited["end_line"])
        assert current_editor_marks(page)["lines"] == list(range(first + 6, last + 7))

        notes.write_text(notes.read_text().replace("basement vault", "attic vault"), encoding="utf-8")
        poll(lambda: get("chunks", ids=cited["chunk_id"])["chunks"][0].get("text_hash") != cited["text_hash"],
             "the changed text indexed")
        page.reload()
        page.wait_for_function("window.jupyterapp && window.jupyterapp.shell", timeout=60_000)
        show_chat(page)
        page.locator(ANSWER_DONE).last.wait_for()
        mark = page.locator('[data-testid="athena-citation-stale"]').first
        mark.wait_for(timeout=10_000)
        assert mark.inner_text() == "source changed since this answer"
    finally:
        notes.unlink(missing_ok=True)
        poll(lambda: not in_search(get), "the deleted file out of search")
