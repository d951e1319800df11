"""The inline answer view: an anywidget whose synced state is the answer itself.

State is plain JSON (answer, citations, unsupported, mode, trace, streaming), so a saved
notebook renders the answer again without a kernel. Each citation carries the source
lines it points at (``preview``), which lets the view show the evidence inline wherever
JupyterLab's athena extension is not there to open the file.

The view is an ES module built from ``labextension/src/widget/`` into
``static/widget.js`` by the npm build (not committed; the wheel ships it). A source
checkout without that build still works: answers show as their static HTML, and the
first widget says once, on stderr, how to build the view.
"""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path
from typing import Any, Iterable

import anywidget
import traitlets

from athena_lab.document import GENERATED_MARK
from athena_lab.answer import Answer, fold
from athena_lab.render import answer_html, answer_text

STATIC = Path(__file__).parent / "static"
WIDGET_JS = STATIC / "widget.js"  # built from labextension/src/widget/widget.ts
PREVIEW_CONTEXT = 3  # lines shown around a cited range
PREVIEW_MAX_LINES = 80
NOT_BUILT = (f"athena: the notebook answer widget is not built ({WIDGET_JS} is missing), so answers "
             "show as static HTML. Build it once with `./run setup`, or `cd labextension && npm ci && "
             "npm run build:prod`, then restart the kernel.")
# What a view shows if it is displayed anyway (e.g. through ipywidgets' display()).
_NOT_BUILT_ESM = f"""// athena_lab answer widget: not built
export default {{ render({{ el }}) {{ el.textContent = {json.dumps(NOT_BUILT)}; }} }};
"""
_told: list[bool] = []
# The answer's state beside the widget view in every saved output: Lab draws it with
# athena's own view (labextension/src/savedWidget.ts) once the kernel, and with it the
# widget's model, is gone; front ends without athena skip a type they do not know.
ANSWER_MIME = "application/vnd.athena.answer+json"
SAVED_TRAITS = ("question", "answer", "sources", "citations", "unsupported", "not_found", "mode", "trace", "error", "notice",
                "conversation_id", "root")


def view_built() -> bool:
    """True when the widget's front end (``static/widget.js``) has been built."""
    return WIDGET_JS.is_file()


class AnswerWidget(anywidget.AnyWidget):
    # A path (anywidget reads the file) only when the build made it: anywidget raises a
    # bare FileNotFoundError at import for a missing one.
    _esm = WIDGET_JS if view_built() else _NOT_BUILT_ESM

    question = traitlets.Unicode("").tag(sync=True)
    answer = traitlets.Unicode("").tag(sync=True)
    # The quotes shown beside a model's answer (the sources event): on screen before the
    # model's first word; "" in extractive mode, where they are the answer.
    sources = traitlets.Unicode("").tag(sync=True)
    citations = traitlets.List(traitlets.Dict()).tag(sync=True)
    unsupported = traitlets.List(traitlets.Unicode()).tag(sync=True)
    # Names the model wrote that no indexed file (nor the question) holds: done.not_found,
    # [{name, sentence}], marked "not found in your documents" by the view.
    not_found = traitlets.List(traitlets.Dict()).tag(sync=True)
    mode = traitlets.Unicode("").tag(sync=True)
    trace = traitlets.List(traitlets.Dict()).tag(sync=True)
    streaming = traitlets.Bool(False).tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    # Said when the search behind the answer was not full hybrid: e.g. "hybrid over vectors
    # 2,310 / 7,050, embedding (…)" while an index run is still embedding.
    notice = traitlets.Unicode("").tag(sync=True)
    conversation_id = traitlets.Unicode("").tag(sync=True)
    # The indexed folder (absolute, POSIX): Copy makes the citation paths, relative to it,
    # into absolute links (to Jupyter's /files/ when the folder is under its root).
    root = traitlets.Unicode("").tag(sync=True)

    def __init__(self, workspace: Any = None, **state: Any) -> None:
        super().__init__(**state)
        if not view_built() and not _told:
            _told.append(True)
            print(NOT_BUILT, file=sys.stderr)
        self._workspace = workspace
        if workspace is not None and not self.root:
            self.root = Path(workspace.root).resolve().as_posix()
        self._turn = Answer(answer=self.answer, conversation_id=self.conversation_id or None)
        self.on_msg(self._on_message)

    @classmethod
    def from_answer(cls, answer: Any, workspace: Any = None, question: str = "") -> "AnswerWidget":
        """A finished Answer (from ``Athena.ask``) as a widget."""
        widget = cls(workspace, question=question)
        widget._turn = answer
        widget.answer = answer.answer or ""
        widget.sources = getattr(answer, "sources", "") or ""
        widget.citations = with_previews(workspace, answer.citations or [])
        widget.unsupported = list(answer.unsupported or [])
        widget.not_found = [dict(n) for n in getattr(answer, "not_found", None) or []]
        widget.mode = answer.mode or ""
        widget.trace = [dict(step) for step in (answer.trace or [])]
        widget.conversation_id = answer.conversation_id or ""
        widget.error = getattr(answer, "error", None) or ""
        widget.notice = getattr(answer, "degraded", None) or ""
        return widget

    def apply(self, event: Any) -> None:
        """Fold one loop event into the state (``answer.fold``); the view re-renders as it streams."""
        turn = fold(self._turn, event)
        kind = event["type"] if isinstance(event, dict) else event.type
        self.answer, self.sources, self.mode, self.streaming = turn.answer, turn.sources, turn.mode, turn.streaming
        self.conversation_id = turn.conversation_id or ""
        self.trace = [{k: step.get(k) for k in ("tool", "input", "summary")} for step in turn.trace]
        if kind in ("sources", "citations"):
            self.citations = with_previews(self._workspace, turn.citations)
        self.unsupported, self.notice, self.error = list(turn.unsupported), turn.degraded or "", turn.error or ""
        self.not_found = [dict(n) for n in turn.not_found]

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

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """``(data, metadata)``: the live view plus text and HTML fallbacks for front ends
        without widgets (only the fallbacks while the view is not built, docstring above);
        the metadata marks the output as athena's (``GENERATED_MARK``), so the notebook it
        is saved in never has this answer indexed or cited."""
        bundle = super()._repr_mimebundle_(**kwargs) if view_built() else None
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        metadata = dict(bundle[1] or {}) if isinstance(bundle, tuple) else {}
        data = dict(data or {})
        data["text/plain"] = answer_text(self.answer, self.citations, self.unsupported, self.error,
                                         self.notice, self.sources, self.not_found)
        data["text/html"] = answer_html(self.answer, self.citations, self.unsupported, self.error,
                                        self.notice, self.sources, self.not_found)
        data[ANSWER_MIME] = {**{name: getattr(self, name) for name in SAVED_TRAITS}, "streaming": self.streaming}
        return data, {**metadata, **GENERATED_MARK}


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
