"""An answer as text or HTML, and a turn streamed to a terminal: one renderer for the
CLI, the magic outside a kernel, the widget's fallbacks and ``Athena.ask``'s display."""

from __future__ import annotations

import html
import sys
from typing import Any, Iterable, TextIO

from athena_lab.answer import Answer, fold
from athena_lab.citations.labels import citation_location
from athena_lab.duration import duration


def claim_text(claim: Any) -> str:
    if isinstance(claim, dict):
        return str(claim.get("text") or claim.get("claim") or claim)
    return str(claim)


def sources_text(citations: list[dict[str, Any]]) -> str:
    return "Sources:\n" + "\n".join(
        f"  [{c.get('id')}] {citation_location(c)}" + (f"  {c['heading_path']}" if c.get("heading_path") else "")
        for c in citations)


# Over the quotes shown beside a model's answer (the sources event, docs/answers.md).
QUOTES_LEAD = "From the sources:"


NOT_FOUND_LEAD = "Not found in your documents"


def names_not_found(not_found: list[dict[str, str]]) -> list[str]:
    """Each name a model wrote that no indexed file holds (``done.not_found``), once."""
    return list(dict.fromkeys(str(n.get("name")) for n in not_found if n.get("name")))


def still_unsupported(unsupported: list[Any], not_found: list[dict[str, str]]) -> list[Any]:
    """Unsupported sentences not already said as holding a name the folder lacks: such a
    sentence is named once, as "not found in your documents"."""
    said = {str(n.get("sentence", "")).strip() for n in not_found}
    return [u for u in unsupported if claim_text(u).strip() not in said]


def answer_text(answer: str, citations: list[dict[str, Any]], unsupported: list[Any], error: str = "",
                notice: str = "", sources: str = "", not_found: list[dict[str, str]] | None = None) -> str:
    """The answer for a terminal: text, the quotes beside a model's words, numbered
    sources, the names no indexed file holds, then unsupported claims."""
    parts = [answer.strip()] if answer.strip() else []
    if sources.strip():
        parts.append(f"{QUOTES_LEAD}\n\n{sources.strip()}")
    if error:
        parts.append(f"error: {error}")
    if notice:
        parts.append(f"note: {notice}")
    if citations:
        parts.append(sources_text(citations))
    names = names_not_found(not_found or [])
    if names:
        parts.append(f"{NOT_FOUND_LEAD} (the model wrote them; no indexed file holds them):\n"
                     + "\n".join(f"  - {name}" for name in names))
    unsupported = still_unsupported(unsupported, not_found or [])
    if unsupported:
        parts.append("Not supported by the sources:\n" + "\n".join(f"  - {claim_text(u)}" for u in unsupported))
    return "\n\n".join(parts)


def markdown_html(text: str) -> str:
    """An answer's Markdown as HTML for viewers that run no widget code (GitHub, nbviewer,
    a Lab without athena): lists, emphasis and code fences read as such, not as raw ``- ``
    and backticks. Raw HTML in the answer is escaped, never passed through (``html``
    off), markdown-it refuses ``javascript:`` and similar link targets, and images stay
    links (``image`` off): an answer quoting a hostile page must not make every viewer of
    the notebook fetch from its host."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).enable("table").disable("image").render(text)


def answer_html(answer: str, citations: list[dict[str, Any]], unsupported: list[Any], error: str = "",
                notice: str = "", sources: str = "", not_found: list[dict[str, str]] | None = None) -> str:
    """A static rendering for viewers that run no widget code: the answer's Markdown as HTML
    (raw HTML in it escaped), the quotes beside a model's words likewise, everything else
    escaped text."""
    esc = html.escape
    parts = [f'<div class="athena-static"><div class="athena-static-answer">{markdown_html(answer)}</div>']
    if sources.strip():
        parts.append(f'<div class="athena-static-quotes"><p><i>{QUOTES_LEAD}</i></p>{markdown_html(sources)}</div>')
    if error:
        parts.append(f"<p><b>error:</b> {esc(error)}</p>")
    if notice:
        parts.append(f"<p><i>note: {esc(notice)}</i></p>")
    names = names_not_found(not_found or [])
    if names:
        items = "".join(f"<li><code>{esc(name)}</code></li>" for name in names)
        parts.append(f"<p>&#9888; {NOT_FOUND_LEAD} (the model wrote them; no indexed file holds them):</p>"
                     f"<ul>{items}</ul>")
    unsupported = still_unsupported(unsupported, not_found or [])
    if unsupported:
        items = "".join(f"<li>{esc(claim_text(u))}</li>" for u in unsupported)
        parts.append(f"<p>&#9888; Not supported by the sources:</p><ul>{items}</ul>")
    if citations:
        items = "".join(
            f"<li><details><summary>[{esc(str(c.get('id')))}] {esc(citation_location(c))}</summary>"
            f"<pre>{esc(c.get('snippet') or '')}</pre></details></li>" for c in citations)
        parts.append(f"<ol style='list-style:none;padding-left:0'>{items}</ol>")
    parts.append("</div>")
    return "".join(parts)


BAR_WIDTH = 20


def progress_line(summary: str, data: dict[str, Any]) -> str:
    """``reading 5 passages (≈1,150 tokens) ▕██████░░░░▏ 600 / 1,500 prompt tokens · about 40 s left``:
    a local model reading its prompt, as a terminal's status line (the ``progress`` event)."""
    done, total = int(data.get("done") or 0), int(data.get("total") or 0)
    filled = round(BAR_WIDTH * done / total) if total else 0
    bar = "\u2595" + "\u2588" * filled + "\u2591" * (BAR_WIDTH - filled) + "\u258f"
    eta = data.get("eta_s")
    left = f" \u00b7 about {duration(max(1.0, float(eta)))} left" if eta is not None else ""
    return f"{summary} {bar} {done:,} / {total:,} prompt tokens{left}"


class StatusLine:
    """What the turn is doing while nothing is written yet — "loading the model…", then a
    local model's reading as a bar — on one line of a terminal, rewritten in place and
    cleared before any answer text. Only on a terminal: a log or a pipe gets none of it."""

    def __init__(self, err: TextIO) -> None:
        self.err = err
        self.live = bool(getattr(err, "isatty", lambda: False)())
        self.shown = False
        self.summary = "reading the passages"

    def event(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "trace" and data.get("tool") in ("loadModel", "translate", "readPassages"):
            self.summary = str(data.get("summary") or "").rstrip("…")
            self.show(f"{self.summary}…")
        elif kind == "progress":
            self.show(progress_line(self.summary, data))

    def show(self, line: str) -> None:
        if self.live:
            self.err.write("\r\x1b[K" + line)
            self.err.flush()
            self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.err.write("\r\x1b[K")
            self.err.flush()
            self.shown = False


def stream_text(events: Iterable[Any], out: TextIO | None = None, err: TextIO | None = None,
                on_event: Any = None) -> Answer:
    """Print the quotes as soon as the search has them, a model's answer as it streams after
    them, then the numbered sources, notes and unsupported claims.

    A terminal cannot write above what it printed, so a model's words come under the
    quotes ("From the sources:" then "Answer:"); in extractive mode the quotes are the
    answer and print alone. The text goes to ``out``; what is about the answer rather than
    part of it (notes, unsupported claims, the mode) goes to ``err``, so ``athena ask … >
    answer.md`` keeps only the answer and its sources. Returns the folded Answer; stops at
    an error event.
    """
    out = out or sys.stdout
    err = err or sys.stderr
    answer = Answer()
    quoted = wrote = False
    status = StatusLine(err)
    for event in events:
        fold(answer, event)
        if on_event is not None:
            on_event(event)
        kind, data = event.type, event.data
        status.event(kind, data)
        if kind in ("sources", "chunk", "compaction", "error", "done"):
            status.clear()
        if kind == "sources" and (data.get("answer") or "").strip():
            # A second one (the question searched again in English) replaces the first:
            # its numbers are the ones the final source list uses.
            lead = ("\n\nSearched again with the question in English; these quotes replace the ones above:\n\n"
                    if quoted else f"{QUOTES_LEAD}\n\n" if data.get("answer_follows") else "")
            out.write(lead + data["answer"].rstrip() + "\n")
            out.flush()
            quoted = True
        elif kind == "chunk":
            if not wrote and quoted:
                out.write("\nAnswer:\n\n")
            wrote = True
            out.write(data["content"])
            out.flush()
        elif kind == "compaction":
            print(f"(older turns compacted: {data['dropped_turns']} dropped)", file=err)
        elif kind == "error":
            break
    if answer.error:
        return answer
    out.write("\n")
    if answer.citations:
        out.write("\n" + sources_text(answer.citations) + "\n")
    for name in names_not_found(answer.not_found):
        print(f"not found in your documents: {name}", file=err)
    for sentence in still_unsupported(answer.unsupported, answer.not_found):
        print(f"unsupported: {claim_text(sentence)}", file=err)
    if answer.degraded:
        print(f"note: {answer.degraded}", file=err)
    if answer.mode:
        print(f"(mode: {answer.mode}; conversation {answer.conversation_id})", file=err)
    return answer
