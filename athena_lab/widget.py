"""The inline answer view: an anywidget whose synced state is the answer itself.

State is plain JSON (answer, citations, unsupported, mode, trace, streaming), so a saved
notebook renders the answer again without a kernel. Each citation carries the source
lines it points at (``preview``), which lets the view show the evidence inline wherever
JupyterLab's athena extension is not there to open the file.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import Any, Iterable

import anywidget
import traitlets

STATIC = Path(__file__).parent / "static"
PREVIEW_CONTEXT = 3  # lines shown around a cited range
PREVIEW_MAX_LINES = 80


class AnswerWidget(anywidget.AnyWidget):
    _esm = STATIC / "widget.js"
    _css = STATIC / "widget.css"

    question = traitlets.Unicode("").tag(sync=True)
    answer = traitlets.Unicode("").tag(sync=True)
    citations = traitlets.List(traitlets.Dict()).tag(sync=True)
    unsupported = traitlets.List().tag(sync=True)
    mode = traitlets.Unicode("").tag(sync=True)
    trace = traitlets.List(traitlets.Dict()).tag(sync=True)
    streaming = traitlets.Bool(False).tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    # Said when the search behind the answer was not full hybrid: e.g. "hybrid over vectors
    # 2,310 / 7,050, embedding (…)" while an index run is still embedding.
    notice = traitlets.Unicode("").tag(sync=True)
    conversation_id = traitlets.Unicode("").tag(sync=True)

    def __init__(self, workspace: Any = None, **state: Any) -> None:
        super().__init__(**state)
        self._workspace = workspace
        self.on_msg(self._on_message)

    @classmethod
    def from_answer(cls, answer: Any, workspace: Any = None, question: str = "") -> "AnswerWidget":
        """A finished Answer (from ``Athena.ask``) as a widget."""
        widget = cls(workspace, question=question)
        widget.answer = answer.answer or ""
        widget.citations = with_previews(workspace, answer.citations or [])
        widget.unsupported = list(answer.unsupported or [])
        widget.mode = answer.mode or ""
        widget.trace = [dict(step) for step in (answer.trace or [])]
        widget.conversation_id = answer.conversation_id or ""
        widget.error = getattr(answer, "error", None) or ""
        widget.notice = getattr(answer, "degraded", None) or ""
        return widget

    def apply(self, event: Any) -> None:
        """Fold one loop event into the state; the view re-renders as it streams."""
        kind, data = event.type, event.data or {}
        if kind == "start":
            self.streaming = True
            self.conversation_id = data.get("conversation_id") or ""
        elif kind == "trace":
            self.trace = [*self.trace, {k: data.get(k) for k in ("tool", "input", "summary")}]
        elif kind == "chunk":
            self.answer += data.get("content", "")
        elif kind == "citations":
            self.citations = with_previews(self._workspace, data.get("citations") or [])
        elif kind == "done":
            self.unsupported = list(data.get("unsupported") or [])
            self.mode = data.get("mode") or self.mode
            self.notice = data.get("degraded") or ""
            self.streaming = False
        elif kind == "error":
            self.error = data.get("message") or "the answer failed"
            self.streaming = False

    def _on_message(self, _widget: Any, content: dict[str, Any], _buffers: list[bytes]) -> None:
        if content.get("type") == "preview":
            self.send({"type": "preview", "id": content.get("id"), **self.page_preview(content.get("id"))})

    def page_preview(self, citation_id: Any) -> dict[str, str]:
        """A rendered PDF page with the cited regions marked, base64 PNG."""
        citation = next((c for c in self.citations if c.get("id") == citation_id), None)
        if citation is None or citation.get("kind") != "pdf":
            return {"error": f"no PDF citation [{citation_id}]"}
        if self._workspace is None:
            return {"error": "the page image needs the kernel that produced this answer"}
        try:  # through the workspace: the same read confinement as every route and tool
            png = self._workspace.pdf_page_png(citation["path"], int(citation["page"]),
                                               regions=citation.get("regions") or [])
            return {"png": base64.b64encode(png.read_bytes()).decode("ascii")}
        except Exception as exc:  # shown in the widget: a preview must never break the answer
            return {"error": f"{citation['path']} page {citation.get('page')}: {exc}"}

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The live view plus text and HTML fallbacks for front ends without widgets."""
        bundle = super()._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        data = dict(data or {})
        data["text/plain"] = answer_text(self.answer, self.citations, self.unsupported, self.error,
                                         self.notice)
        data["text/html"] = answer_html(self.answer, self.citations, self.unsupported, self.error,
                                        self.notice)
        return data


def with_previews(workspace: Any, citations: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Citations plus the source lines they point at, so the view can show them offline."""
    out = []
    for c in citations:
        c = dict(c)
        if workspace is not None:
            try:
                c.update(_preview(workspace, c))
            except Exception:  # a moved or unreadable source leaves the snippet as evidence
                pass
        out.append(c)
    return out


def _preview(workspace: Any, c: dict[str, Any]) -> dict[str, Any]:
    if c.get("kind") == "text" and c.get("start_line"):
        start = max(1, int(c["start_line"]) - PREVIEW_CONTEXT)
        end = int(c.get("end_line") or c["start_line"]) + PREVIEW_CONTEXT
        lines = workspace.read_source(c["path"], start, end, max_lines=PREVIEW_MAX_LINES)
        return {"preview": lines["lines"], "preview_start": lines["start_line"]}
    chunk = workspace.chunk(c["chunk_id"]) if c.get("chunk_id") else None
    if chunk is None:
        return {}
    return {"preview": chunk.text.splitlines()[:PREVIEW_MAX_LINES]}


def citation_label(c: dict[str, Any]) -> str:
    """``path:12-40``, ``paper.pdf p.3`` or ``nb.ipynb cell 4``, as the view labels a chip."""
    if c.get("kind") == "pdf":
        return f"{c.get('path')} p.{c.get('page')}"
    if c.get("kind") == "notebook":
        return f"{c.get('path')} cell {c.get('cell')}"
    start, end = c.get("start_line"), c.get("end_line")
    if start is None:
        return str(c.get("path"))
    return f"{c.get('path')}:{start}-{end}" if end and end != start else f"{c.get('path')}:{start}"


def claim_text(claim: Any) -> str:
    if isinstance(claim, dict):
        return str(claim.get("text") or claim.get("claim") or claim)
    return str(claim)


def answer_text(answer: str, citations: list[dict[str, Any]], unsupported: list[Any], error: str = "",
                notice: str = "") -> str:
    """The answer for a terminal: text, then numbered sources, then unsupported claims."""
    parts = [answer.strip()] if answer.strip() else []
    if error:
        parts.append(f"error: {error}")
    if notice:
        parts.append(f"note: {notice}")
    if citations:
        parts.append("Sources:\n" + "\n".join(f"  [{c.get('id')}] {citation_label(c)}" for c in citations))
    if unsupported:
        parts.append("Not supported by the sources:\n" + "\n".join(f"  - {claim_text(u)}" for u in unsupported))
    return "\n\n".join(parts)


def answer_html(answer: str, citations: list[dict[str, Any]], unsupported: list[Any], error: str = "",
                notice: str = "") -> str:
    """A static, fully escaped rendering for viewers that run no widget code."""
    esc = html.escape
    parts = [f'<div class="athena-static"><div style="white-space:pre-wrap">{esc(answer)}</div>']
    if error:
        parts.append(f"<p><b>error:</b> {esc(error)}</p>")
    if notice:
        parts.append(f"<p><i>note: {esc(notice)}</i></p>")
    if unsupported:
        items = "".join(f"<li>{esc(claim_text(u))}</li>" for u in unsupported)
        parts.append(f"<p>&#9888; Not supported by the sources:</p><ul>{items}</ul>")
    if citations:
        items = "".join(
            f"<li><details><summary>[{esc(str(c.get('id')))}] {esc(citation_label(c))}</summary>"
            f"<pre>{esc(c.get('snippet') or '')}</pre></details></li>" for c in citations)
        parts.append(f"<ol style='list-style:none;padding-left:0'>{items}</ol>")
    parts.append("</div>")
    return "".join(parts)
