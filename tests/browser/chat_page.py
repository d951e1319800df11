"""What browser tests do with the sidebar chat, shared by the test modules."""

from __future__ import annotations

ANSWER = '[data-testid="athena-answer"]'
ANSWER_DONE = '[data-testid="athena-answer"]:not(.athena-streaming)'


def ask(page, question: str, kind: str = "", prefix: str = "") -> object:
    """Type a question (with filters), press Enter, wait for the finished answer (the new
    one: a restored conversation may already show answers)."""
    page.locator(".athena-filter-kind").select_option(kind)
    page.locator(".athena-filter-prefix").fill(prefix)
    before = page.locator(ANSWER).count()  # streaming ones too: the new answer is the next one
    box = page.locator('[data-testid="athena-input"]')
    box.fill(question)
    box.press("Enter")
    answer = page.locator(ANSWER).nth(before)
    answer.wait_for(timeout=60_000)
    page.wait_for_function("(el) => !el.classList.contains('athena-streaming')", arg=answer.element_handle(),
                           timeout=60_000)
    return answer
