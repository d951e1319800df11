"""The notebook-facing ``Athena``: the workspace facade plus what a kernel user expects.

``Athena("docs/")`` indexes the folder when it has no index yet (a progress bar in a
notebook), search results show as a table and answers as the inline widget. The
workspace stays front-end free; everything Jupyter-specific lives here and in
:mod:`athena_lab.magic`.
"""

from __future__ import annotations

import html
import os
import sys
import weakref
from typing import Any, Callable, Mapping, overload

from typing_extensions import Unpack

from athena_lab.answer import Answer
from athena_lab.config import Config
from athena_lab.document import GENERATED_MARK
from athena_lab.interrupt import StopRequest
from athena_lab.request import AskOptions, AskRequest
from athena_lab.settings import SettingValue
from athena_lab.citations.labels import citation_location
from athena_lab.render import answer_text
from athena_lab.widget import AnswerWidget
from athena_lab.workspace import Workspace
from athena_lab.workspace import Backend, IndexSummary, Progress, SearchResult

_LAST: list[weakref.ref] = []  # the most recent Athena made in this process (for %athena)


def ipython() -> Any:
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()


def in_kernel() -> bool:
    """True inside a Jupyter kernel (rich output), False in a terminal or a script."""
    shell = ipython()
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


class Athena(Workspace):
    """A folder of documents and its index, for notebooks and scripts.

    ``auto_index`` builds the index on first use so ``Athena("docs/")`` is ready to search;
    call :meth:`index` again to pick up edits (unchanged files are skipped).
    """

    def __init__(self, root: str | os.PathLike[str] = ".", index_dir: str | os.PathLike[str] | None = None,
                 *, auto_index: bool = True, config: Config | None = None,
                 overrides: Mapping[str, SettingValue] | None = None) -> None:
        super().__init__(root, index_dir, config=config, overrides=overrides)
        register_formatters(ipython())
        _LAST[:] = [weakref.ref(self)]
        if auto_index and not self.has_index():
            self.index()

    def index(self, progress: Progress | None = None, wait_s: float = 0.0, stop: StopRequest | None = None,
              embed: bool = True, paths: list[str] | None = None, backend: Backend | None = None) -> IndexSummary:
        """Bring the index up to date; in a notebook, with a progress bar per phase (not for
        the live index's batches, ``paths=...``: they are small and run in a thread). A
        folder with no file to index says so on stderr (``summary.no_files``)."""
        if progress is not None or ipython() is None or paths is not None:
            summary = super().index(progress, wait_s, stop, embed, paths, backend)
        else:
            with ProgressBars() as bars:
                summary = super().index(bars, wait_s, stop, embed, paths, backend)
        if summary.no_files:  # else the first answer blames the documents
            print(f"athena: warning: {summary.no_files}", file=sys.stderr)
        return summary

    @overload
    def ask(self, request: AskRequest) -> Answer: ...

    @overload
    def ask(self, request: str, **options: Unpack[AskOptions]) -> Answer: ...

    def ask(self, request: AskRequest | str, **options: Unpack[AskOptions]) -> Answer:
        """The workspace's Answer, remembering its question and which folder it came from for
        its display (the widget shows the question above the answer)."""
        asked = AskRequest.of(request, options)
        answer = super().ask(asked)
        answer.folder = weakref.ref(self)  # previews read cited lines from this folder
        answer.question = asked.question
        return answer

    def ask_widget(self, request: AskRequest | str, **options: Unpack[AskOptions]) -> AnswerWidget:
        """Ask and return the answer as a widget that streams while the loop runs."""
        asked = AskRequest.of(request, options)
        widget = AnswerWidget(self, question=asked.question)
        for event in self.ask_events(asked):
            widget.apply(event)
        return widget


def last_workspace() -> Athena | None:
    """The Athena most recently created in this process, if it is still alive."""
    return _LAST[0]() if _LAST else None


class ProgressBars:
    """A ``Progress`` callback drawing one tqdm.auto bar per indexing phase."""

    def __init__(self) -> None:
        self._bars: dict[str, Any] = {}

    def __enter__(self) -> "ProgressBars":
        return self

    def __call__(self, phase: str, done: int, total: int) -> None:
        from tqdm.auto import tqdm

        bar = self._bars.get(phase)
        if bar is None:
            bar = self._bars[phase] = tqdm(total=total, desc=phase, unit="file" if phase == "scan" else "item")
        if bar.total != total:
            bar.total = total
        bar.update(done - bar.n)

    def __exit__(self, *_exc: Any) -> None:
        for bar in self._bars.values():
            bar.close()


# rich output ---------------------------------------------------------------------
def search_text(result: SearchResult) -> str:
    """Search hits for a terminal: rank, score, location, heading, snippet."""
    lines = [f"{len(result.hits)} hits for {result.query!r}"]
    if result.degraded:
        lines.append(f"(degraded: {result.degraded})")
    for n, c in enumerate(result.citations(), 1):
        lines.append(f"{n:>2}. {c['score']:.4f}  {citation_location(c)}  {c.get('heading_path') or ''}".rstrip())
        lines.append(f"      {' '.join((c.get('snippet') or '').split())[:160]}")
    return "\n".join(lines)


def search_html(result: SearchResult) -> str:
    """Search hits as an escaped HTML table for notebooks."""
    esc = html.escape
    rows = []
    for n, c in enumerate(result.citations(), 1):
        rows.append(f"<tr><td>{n}</td><td>{c['score']:.4f}</td><td><code>{esc(citation_location(c))}</code></td>"
                    f"<td>{esc(c.get('heading_path') or '')}</td>"
                    f"<td style='text-align:left'>{esc((c.get('snippet') or '')[:300])}</td></tr>")
    note = f"<p><i>degraded: {esc(result.degraded)}</i></p>" if result.degraded else ""
    head = "<tr><th>#</th><th>score</th><th>source</th><th>heading</th><th>snippet</th></tr>"
    return (f"<div class='athena-search'><p>{len(result.hits)} hits for <b>{esc(result.query)}</b></p>{note}"
            f"<table><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table></div>")


def search_bundle(result: SearchResult) -> tuple[dict[str, Any], dict[str, Any]]:
    """Search hits in a notebook: the table and its text, marked as athena's output (its
    snippets quote the documents; indexed, the notebook would compete with them)."""
    return {"text/plain": search_text(result), "text/html": search_html(result)}, dict(GENERATED_MARK)


def answer_plain(answer: Any) -> str:
    return answer_text(answer.answer or "", answer.citations or [], answer.unsupported or [],
                       getattr(answer, "error", None) or "", getattr(answer, "degraded", None) or "",
                       getattr(answer, "sources", "") or "", getattr(answer, "not_found", None) or [])


def answer_bundle(answer: Answer) -> tuple[dict[str, Any], dict[str, Any]]:
    """An Answer shown as the widget (with text/HTML fallbacks inside the bundle), its
    output marked as athena's (``GENERATED_MARK``: never indexed)."""
    found = answer.folder() if answer.folder is not None else None
    workspace = found if isinstance(found, Athena) else last_workspace()
    return AnswerWidget.from_answer(answer, workspace, question=answer.question)._repr_mimebundle_()


_FORMATTED: "weakref.WeakSet[Any]" = weakref.WeakSet()


def plain(text_of: Callable[[Any], str]) -> Callable[[Any, Any, bool], None]:
    """An IPython plain-text printer ``(obj, printer, cycle)`` that prints ``text_of(obj)``."""
    def show(obj: Any, printer: Any, cycle: bool) -> None:
        printer.text(text_of(obj))
    return show


def register_formatters(shell: Any) -> None:
    """Teach IPython to show SearchResult and Answer richly, without touching those classes."""
    if shell is None or shell in _FORMATTED:
        return
    formatters = shell.display_formatter.formatters
    formatters["text/plain"].for_type(SearchResult, plain(search_text))
    formatters["text/html"].for_type(SearchResult, search_html)
    formatters["text/plain"].for_type_by_name("athena_lab.answer", "Answer", plain(answer_plain))
    if type(shell).__name__ == "ZMQInteractiveShell":
        bundles = shell.display_formatter.mimebundle_formatter
        bundles.for_type_by_name("athena_lab.answer", "Answer", answer_bundle)
        bundles.for_type(SearchResult, search_bundle)
    _FORMATTED.add(shell)
