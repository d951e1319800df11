"""The sidebar chat in a real JupyterLab: streamed answers whose citations open the
evidence, PDF page previews, conversations that survive a reload, no script from a
document ever running."""

from __future__ import annotations

import json
import re

import pytest

pytest.importorskip("playwright", reason="pip install playwright (Python package; the browser is Debian's chromium)")

from playwright.sync_api import expect  # noqa: E402
from chat_page import ANSWER_DONE, ask, drawn, set_theme  # noqa: E402
from conftest import ARTIFACTS, open_chat  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TEXT_QUESTION = "How do I configure the SECRET_KEY in Flask?"
PDF_QUESTION = "When was the typewriter invented?"


def current_editor_marks(page) -> dict:
    """The file in the current editor, its lines marked as cited (1-based), the cursor's line (0-based)."""
    return page.evaluate(
        """() => {
          const w = window.jupyterapp.shell.currentWidget;
          const view = w.content.editor.editor;
          const lines = [...w.node.querySelectorAll('.athena-cited-line')]
            .map(el => view.state.doc.lineAt(view.posAtDOM(el)).number);
          return {path: w.context.path, lines, cursor: w.content.editor.getCursorPosition().line};
        }"""
    )


def test_question_streams_an_extractive_answer_with_numbered_sources(page):
    chats = []
    page.on("response", lambda r: chats.append(r) if "/athena/chat" in r.url else None)
    answer = ask(page, TEXT_QUESTION)
    assert chats, "the chat request never reached /athena/chat"
    response = chats[-1]
    assert response.headers["content-type"].startswith("text/event-stream")
    wire = response.text()
    # Extractive: the answer is the quotes, sent whole as the `sources` event right after the
    # search (docs/contract.md, "Sources first"); no model follows, so no `chunk` either.
    sources = [json.loads(line[len("data: "):])
               for block in wire.split("\n\n") if block.startswith("event: sources")
               for line in block.splitlines() if line.startswith("data: ")]
    assert sources and sources[-1]["answer"] and sources[-1]["answer_follows"] is False, wire[:500]
    assert "event: chunk" not in wire
    assert answer.get_attribute("data-mode") == "extractive"
    assert "extractive" in answer.locator('[data-testid="athena-mode"]').inner_text()
    sources = answer.locator('[data-testid="athena-citation"]')
    assert sources.count() >= 1
    assert "SECRET_KEY" in answer.locator(".athena-answer-body").inner_text() or \
        any("config.rst" in text for text in sources.all_inner_texts())
    markers = answer.locator(".athena-citation-marker")
    assert markers.count() >= 1, "no [n] marker in the answer was made clickable"


def _last_citations(response) -> list[dict]:
    """The citations of the last ``citations`` event of an ``/athena/chat`` stream."""
    found: list[dict] = []
    for block in response.text().split("\n\n"):
        if block.startswith("event: citations"):
            data = "".join(line[len("data: "):] for line in block.splitlines() if line.startswith("data: "))
            found = json.loads(data)["citations"]
    return found


def test_text_citation_opens_the_file_with_the_cited_lines_marked(page):
    chats = []
    page.on("response", lambda r: chats.append(r) if "/athena/chat" in r.url else None)
    answer = ask(page, TEXT_QUESTION, kind="rst")
    citation = answer.locator('[data-testid="athena-citation"][data-kind="text"]').first
    label = citation.inner_text()
    citation.hover()
    # the preview is placed in the panel itself (so the conversation's scroll box never clips it)
    expect(page.locator('.athena-chat [data-testid="athena-snippet"]:visible')).to_have_count(1)
    citation.click()
    page.wait_for_function(
        "() => { const w = window.jupyterapp.shell.currentWidget;"
        " return w && w.content && w.content.editor && w.context.path.endsWith('.rst'); }"
    )
    location = label.split("]", 1)[1].split("\u00b7")[0].strip()  # "docs/config.rst:40–58"
    path, lines = location.rsplit(":", 1)
    start, _, end = lines.partition("\u2013")
    # The sidebar first asks where the chunk is now (the live index may have moved it), so
    # the mark lands a moment after the tab opens (tests/browser/test_lab_evidence.py pins
    # how long it stays).
    page.locator(".jp-FileEditor .athena-cited-line").first.wait_for(timeout=10_000)
    marked = current_editor_marks(page)
    assert marked["path"] == f"project/{path}"
    # Each quoted sentence's own lines are marked, not the lines between two quotes of one
    # citation (labextension/src/core/citations.ts citedRanges); the label spans them all.
    cited = next(c for c in _last_citations(chats[-1])
                 if c["kind"] == "text" and c["path"] == path)
    quoted = sorted({n for e in cited.get("evidence", []) for n in range(e["start_line"], e["end_line"] + 1)})
    assert marked["lines"] == (quoted or list(range(int(start), int(end or start) + 1)))
    assert marked["lines"][0] == int(start) and marked["lines"][-1] == int(end or start)
    assert marked["cursor"] == int(start) - 1


def test_pdf_citation_opens_a_page_preview_with_highlighted_regions(page):
    answer = ask(page, PDF_QUESTION, kind="pdf")
    citation = answer.locator('[data-testid="athena-citation"][data-kind="pdf"]').first
    assert " p. " in citation.inner_text()
    citation.click()
    image = page.locator('[data-testid="athena-pdf-preview"] img.athena-pdf-page-image')
    image.wait_for(timeout=30_000)
    page.wait_for_function(
        "() => { const i = document.querySelector('.athena-pdf-page-image');"
        " return i && i.complete && i.naturalWidth > 0; }"
    )
    # The cited lines are boxed over the page (tests/browser/test_lab_evidence.py pins where).
    page.locator('[data-testid="athena-pdf-preview"] [data-testid="pdf-region"]').first.wait_for(state="visible")
    assert page.locator(".athena-open-pdf").is_visible()


def test_conversation_is_restored_after_a_page_reload(page, show_chat):
    ask(page, TEXT_QUESTION)
    conversation = page.locator('[data-testid="athena-chat"]').get_attribute("data-conversation-id")
    assert conversation
    page.reload()
    page.wait_for_function("window.jupyterapp && window.jupyterapp.shell", timeout=60_000)
    chat = page.locator('[data-testid="athena-chat"]')
    page.wait_for_function(
        "id => document.querySelector('[data-testid=athena-chat]')?.dataset.conversationId === id",
        arg=conversation,
    )
    show_chat(page)
    assert TEXT_QUESTION in chat.locator('[data-testid="athena-user-message"]').first.inner_text()
    assert chat.locator(ANSWER_DONE).count() >= 1
    assert chat.locator('[data-testid="athena-citation"]').count() >= 1
    # Issue 21: the trace comes back too (it said "Trace (0 steps)" after a reload).
    trace = chat.locator('[data-testid="athena-trace"] summary').first.inner_text()
    assert trace != "Trace (0 steps)" and re.search(r"Trace \([1-9]\d* steps?\)", trace), trace


def test_hostile_document_scripts_never_run(page):
    answer = ask(page, "Where are zebra tokens stored?", prefix="docs/hostile")
    for citation in answer.locator('[data-testid="athena-citation"]').all():
        citation.hover()  # each preview has drawn the hostile passage before the next hover
        expect(page.locator('.athena-chat [data-testid="athena-snippet"]:visible')).to_have_count(1)
    assert page.evaluate("window.__athenaPwned") is None
    chat = page.locator('[data-testid="athena-chat"]')
    assert chat.locator("script").count() == 0
    assert chat.locator("[onerror]").count() == 0
    assert chat.locator('a[href^="javascript:"]').count() == 0
    assert "Zebra" in answer.inner_text() or "zebra" in answer.inner_text()


def test_shortcut_focuses_the_chat_input(page):
    page.locator(".jp-LabShell").click(position={"x": 700, "y": 400})
    page.keyboard.press("Control+Shift+A")
    expect(page.locator('[data-testid="athena-input"]')).to_be_focused()


def test_index_status_says_how_far_the_vectors_are(page):
    """The corpus was fully indexed with MiniLM: the strip says every chunk has its vector."""
    line = page.locator('[data-testid="athena-index-vectors"]')
    line.wait_for(state="visible")
    text = line.inner_text().strip()
    match = re.fullmatch(r"vectors ([\d,]+) / ([\d,]+)", text)
    assert match and match.group(1) == match.group(2) and match.group(1) != "0", text


def test_a_pdf_source_copies_as_bibtex(page):
    answer = ask(page, PDF_QUESTION, kind="pdf")
    button = answer.locator('[data-testid="athena-copy-bibtex"]').first
    button.click()
    page.wait_for_function("(b) => b.textContent === 'Copied'", arg=button.element_handle(), timeout=10_000)
    pasted = page.evaluate("() => navigator.clipboard.readText()")
    # the file field: saved in the folder as a .bib, the entry links its paper back (docs/papers.md)
    assert pasted.startswith("@") and "file = {papers/docling_multi_page.pdf}" in pasted, pasted


def test_a_long_question_is_counted_and_refused_in_the_composer_and_on_resend(page):
    """Issue 21: over the server's limit (GET /athena/info `limits`) Send is off and the
    counter says why; an edited question that long is refused before the conversation is
    rewound (the server used to refuse it only after Send, and Regenerate the same way)."""
    chat = page.locator('[data-testid="athena-chat"]')
    box = chat.locator('[data-testid="athena-input"]')
    box.fill("x" * 59000)
    counter = chat.locator('[data-testid="athena-counter"]')
    assert counter.inner_text() == ("59,000 / 8,000 The question is 59,000 characters; the limit is 8,000. "
                                    "Shorten it by 51,000 characters to send it.")
    assert chat.locator('[data-testid="athena-send"]').is_disabled()
    box.press("Enter")
    assert box.input_value() == "x" * 59000  # not sent, not cleared
    page.screenshot(path=str(ARTIFACTS / "lab-counter-over-light.png"))
    set_theme(page, "JupyterLab Dark", False)
    page.screenshot(path=str(ARTIFACTS / "lab-counter-over-dark.png"))
    set_theme(page, "JupyterLab Light", True)
    box.fill("")
    answer = ask(page, TEXT_QUESTION)
    asked = chat.locator('[data-testid="athena-user-message"]').count()
    chat.locator('[data-testid="athena-edit-question"]').last.click()
    chat.locator('[data-testid="athena-edit-box"]').fill("y" * 59000)
    chat.locator('[data-testid="athena-edit-send"]').click()
    dialog = page.locator(".jp-Dialog")
    dialog.wait_for()
    assert "Cannot ask that question again" in dialog.inner_text()
    assert "the limit is 8,000" in dialog.inner_text()
    dialog.locator("button").last.click()
    assert answer.is_visible() and chat.locator('[data-testid="athena-user-message"]').count() == asked


def save_lab_settings(page, raw: str) -> None:
    """Save the sidebar's settings as the settings editor does, and reload Lab to apply them."""
    page.evaluate("raw => window.jupyterapp.serviceManager.settings.save('athena-lab:plugin', raw)", raw)
    page.reload()
    page.wait_for_function("window.jupyterapp && window.jupyterapp.shell", timeout=60_000)
    open_chat(page)


def test_a_provider_error_names_the_lab_setting_and_the_chip_says_the_provider_failed(page):
    """Issue 21: with openai chosen in Lab's settings and no model anywhere, the error says
    which setting to change in Lab (not "pass --model"), and the header chip says openai
    failed instead of the server's "extractive"."""
    save_lab_settings(page, '{"provider": "openai"}')
    try:
        chip = page.locator('[data-testid="athena-server-mode"]')
        chip.filter(has_text="openai").wait_for()
        assert chip.inner_text() == "openai"  # what will answer: the provider chosen in Settings
        answer = ask(page, TEXT_QUESTION)
        error = answer.locator(".athena-error").inner_text()
        assert "--model" not in error and "pass " not in error
        assert "choose a Model in Settings \u2192 Settings Editor \u2192 Athena chat" in error
        assert chip.inner_text() == "openai failed"
        assert answer.locator('[data-testid="athena-mode"]').is_hidden()  # no empty chip beside "Athena"
        assert "Settings Editor" in chip.get_attribute("title")
        page.screenshot(path=str(ARTIFACTS / "lab-provider-failed-light.png"))
        set_theme(page, "JupyterLab Dark", False)
        page.screenshot(path=str(ARTIFACTS / "lab-provider-failed-dark.png"))
        set_theme(page, "JupyterLab Light", True)
    finally:
        save_lab_settings(page, "{}")
    page.locator('[data-testid="athena-server-mode"]', has_text="extractive").wait_for()


def test_the_status_strip_never_breaks_a_part_such_as_updated_ago(page):
    """Issue 21: "updated 1 min 54 s ago" wrapped "ago" onto a line of its own; the strip
    now wraps only between its parts, each part on one line."""
    parts = page.locator('[data-testid="athena-index-part"]')
    parts.nth(2).wait_for()
    texts = parts.all_inner_texts()
    assert texts[0].endswith(" files") and texts[1].endswith(" chunks")
    assert texts[2].startswith(("updated", "indexed"))
    page.evaluate("() => { document.querySelector('.athena-chat').style.width = '240px'; }")  # narrower still
    # One read of the strip as it is now: it redraws as "updated … ago" ticks, and a part
    # read apart from the others could be the one just replaced (no rects, detached).
    drawn(page)
    lines = page.evaluate("""() => Array.from(document.querySelectorAll('[data-testid="athena-index-part"]'))
        .slice(0, 3).map(el => el.getClientRects().length)""")
    assert lines == [1, 1, 1], (texts, lines)
    strip = page.locator('[data-testid="athena-index-summary"]')
    strip.screenshot(path=str(ARTIFACTS / "lab-status-strip-narrow-light.png"))
    set_theme(page, "JupyterLab Dark", False)
    strip.screenshot(path=str(ARTIFACTS / "lab-status-strip-narrow-dark.png"))
    set_theme(page, "JupyterLab Light", True)


def test_at_700_px_the_pdf_preview_keeps_open_pdf_in_view(page):
    """Issue 21: in a 700 px window the preview's long label pushed "Open PDF" out of the tab."""
    page.set_viewport_size({"width": 700, "height": 800})
    # Lab's sidebars keep their width when the window narrows (the main area takes the
    # change): a sidebar an earlier test left wide leaves the main area no width at 700 px.
    # Share the window between the chat and the main area, as a user would drag it.
    page.evaluate("""() => { const split = window.jupyterapp.shell._hsplitPanel;
        if (split) { const sizes = split.relativeSizes(); split.setRelativeSizes([0.5, 0.5, ...sizes.slice(2).map(() => 0)]); } }""")
    answer = ask(page, PDF_QUESTION, kind="pdf")
    answer.locator('[data-testid="athena-citation"][data-kind="pdf"]').first.click()
    bar = page.locator(".athena-pdf-preview-bar")
    bar.wait_for(timeout=30_000)
    # The tab opens into a split that Lumino lays out over a few frames: measured at once,
    # the bar has been seen 20 px wide. Wait (polled once a frame) until the button has its
    # width and the bar's width holds from one frame to the next.
    page.wait_for_function("""() => {
        const bar = document.querySelector(".athena-pdf-preview-bar");
        const button = document.querySelector(".athena-open-pdf");
        const width = bar ? bar.getBoundingClientRect().width : -1;
        const held = window.__athenaBarWidth === width;
        window.__athenaBarWidth = width;
        return held && !!button && button.getBoundingClientRect().width > 40;
    }""", timeout=30_000)
    button = page.locator(".athena-open-pdf")
    box, area = button.bounding_box(), bar.bounding_box()
    assert box and area and box["width"] > 40
    assert box["x"] >= area["x"] and box["x"] + box["width"] <= area["x"] + area["width"] + 0.5, (box, area)
    assert box["x"] + box["width"] <= 700
    label = page.locator(".athena-pdf-preview-label")
    assert " p. " in label.get_attribute("title")
    page.screenshot(path=str(ARTIFACTS / "lab-pdf-700-light.png"))
    set_theme(page, "JupyterLab Dark", False)
    page.screenshot(path=str(ARTIFACTS / "lab-pdf-700-dark.png"))
    set_theme(page, "JupyterLab Light", True)


def test_a_pdf_preview_tab_comes_back_at_its_page_after_a_reload(page):
    """Issue 21: after a reload the PDF page preview tab was gone; Lab's layout restorer now
    reopens it at the page it showed, with its regions boxed."""
    answer = ask(page, PDF_QUESTION, kind="pdf")
    answer.locator('[data-testid="athena-citation"][data-kind="pdf"]').first.click()
    preview = page.locator('[data-testid="athena-pdf-preview"]')
    preview.locator("img.athena-pdf-page-image").wait_for(timeout=30_000)
    shown = preview.get_attribute("data-page")
    title = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current").inner_text()
    page.wait_for_timeout(1500)  # Lab saves its layout shortly after a change
    page.reload()
    page.wait_for_function("window.jupyterapp && window.jupyterapp.shell", timeout=60_000)
    restored = page.locator('[data-testid="athena-pdf-preview"]')
    restored.locator("img.athena-pdf-page-image").wait_for(timeout=60_000)
    assert restored.get_attribute("data-page") == shown
    restored.locator('[data-testid="pdf-region"]').first.wait_for(state="visible")
    assert title in page.locator(".lm-DockPanel-tabBar").inner_text()
    assert " p. " in title  # titled with the file name and page, not an id
