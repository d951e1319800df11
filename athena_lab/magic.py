"""``%athena QUESTION`` and ``%%athena``: ask the indexed folder from any cell.

The answer streams into the output area as the inline widget (with text fallbacks in
the same display, updated as chunks arrive). Follow-ups in one kernel continue the same
conversation until ``--new``. Failures — no index, a provider that is down, a bad
option — are one readable line, never a traceback.
"""

from __future__ import annotations

import os
import re
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from IPython.core.magic import Magics, line_cell_magic, magics_class
from IPython.display import display

from athena_lab.config import workspace_default
from athena_lab.errors import AthenaError, MagicError, user_message
from athena_lab.request import AskRequest

USAGE = ("usage: %athena [--path DIR] [--path-prefix PREFIX] [-k N] [--kind KIND] [--provider NAME] "
         "[--model NAME] [--new] QUESTION   (or %%athena with the question as the cell body); "
         "%athena --status says what is indexed and how far the vectors are. The options mean what "
         "they mean for `athena ask`: --path is the folder (indexed on first use), --path-prefix "
         "keeps sources under that path")
# The same names as `athena ask`; --root is the magic's old name for the folder.
# -k is passages retrieved first, as for `athena ask`; --top-k is its old spelling, still read.
_VALUE_OPTIONS = {"--path": "root", "--root": "root", "--path-prefix": "path_prefix", "-k": "k",
                  "--top-k": "k", "--kind": "kind", "--provider": "provider", "--model": "model"}
UPDATE_EVERY_S = 0.2  # display updates per second while streaming, not one per token


@dataclass
class Request:
    question: str = ""
    root: str | None = None
    path_prefix: str | None = None
    k: int | str | None = None  # as typed, then a whole number once parsed
    kind: str | None = None
    provider: str | None = None
    model: str | None = None
    new: bool = False
    status: bool = False
    filters: dict[str, str | None] = field(default_factory=dict)


def parse(line: str, cell: str | None = None) -> Request:
    """Leading options, then the question verbatim (apostrophes and quotes are left alone)."""
    request = Request()
    rest = line.strip()
    while rest.startswith("-"):
        token, _, rest = rest.partition(" ")
        token, eq, inline_value = token.partition("=")
        rest = rest.lstrip()
        if token == "--new":
            request.new = True
            continue
        if token == "--status":
            request.status = True
            continue
        if token in ("-h", "--help"):
            raise MagicError(USAGE)
        if token not in _VALUE_OPTIONS:
            raise MagicError(f"unknown option {token}; {USAGE}")
        if eq:
            value = inline_value
        else:
            value, _, rest = rest.partition(" ")
            rest = rest.lstrip()
        if not value:
            raise MagicError(f"{token} needs a value")
        setattr(request, _VALUE_OPTIONS[token], value)
    request.question = (cell if cell is not None and cell.strip() else rest).strip()
    if request.k is not None:
        try:
            request.k = int(request.k)
        except ValueError:
            raise MagicError(f"-k needs a whole number, not {request.k!r}") from None
    request.filters = {k: v for k, v in (("path_prefix", request.path_prefix), ("kind", request.kind)) if v}
    return request


@magics_class
class AthenaMagics(Magics):
    """Holds the kernel's workspace and conversation between cells."""

    def __init__(self, shell: Any) -> None:
        super().__init__(shell)
        self.workspace: Any = None
        self.conversation_id: str | None = None

    @line_cell_magic
    def athena(self, line: str, cell: str | None = None) -> None:
        """Ask the indexed folder; the answer streams in with numbered, clickable sources.

        %athena [--path DIR] [--path-prefix PREFIX] [-k N] [--kind KIND]
                [--provider NAME] [--model NAME] [--new] QUESTION
        %%athena [options]      (the question is the cell body)
        %athena --status        (files, chunks, how far the vectors are)

        --path is the folder (indexed on first use), --path-prefix keeps sources under
        that path, --new starts a new conversation; follow-ups continue the last one.
        The options mean what they mean for `athena ask`.
        """
        try:
            request = parse(line, cell)
            if request.new:
                self.conversation_id = None
            if request.status:
                print(status_line(self._workspace_for(request).status()))
                return
            if not request.question:
                if request.new:
                    print("athena: new conversation")
                    return
                raise MagicError(USAGE)
            self._ask(request)
        except Exception as exc:  # one readable line in the output area, never a traceback
            print(f"athena: {one_line(exc)}", file=sys.stderr)

    def _workspace_for(self, request: Request) -> Any:
        """The folder's workspace, indexed on first use (with a progress bar), like ``Athena(path)``."""
        from athena_lab.api import Athena, last_workspace

        if request.root:
            if not os.path.isdir(request.root):
                raise MagicError(f"--path {request.root}: no such folder (to keep only sources under a "
                                 f"path of the indexed folder, use --path-prefix)")
            if self.workspace is None or str(self.workspace.root) != os.path.realpath(request.root):
                self.workspace = Athena(request.root, auto_index=False)
                self.conversation_id = None
        elif self.workspace is None:
            self.workspace = last_workspace() or Athena(workspace_default("root") or ".", auto_index=False)
        if not self.workspace.has_index():
            print(f"athena: indexing {self.workspace.root} (first use)", file=sys.stderr)
            self.workspace.index()
        return self.workspace

    def _ask(self, request: Request) -> None:
        from athena_lab.api import in_kernel

        workspace = self._workspace_for(request)
        k = request.k if isinstance(request.k, int) else None  # parse() made it one
        events = workspace.ask_events(AskRequest(request.question, conversation_id=self.conversation_id,
                                                 filters=dict(request.filters), provider=request.provider,
                                                 model=request.model, k=k))
        if in_kernel():
            self._stream_widget(workspace, request.question, events)
        else:
            self._stream_text(events)

    def _remember(self, event: Any) -> None:
        if event.type == "start" and event.data.get("conversation_id"):
            self.conversation_id = event.data["conversation_id"]

    def _stream_widget(self, workspace: Any, question: str, events: Any) -> None:
        from athena_lab.widget import AnswerWidget

        widget = AnswerWidget(workspace, question=question)
        # With the widget's metadata, which marks the output as athena's (never indexed).
        data, metadata = widget._repr_mimebundle_()
        handle = display(data, raw=True, metadata=metadata, display_id=True)
        last = time.monotonic()
        for event in events:
            self._remember(event)
            widget.apply(event)
            # the quotes at once (they come first, in well under a second); the model's
            # words at most every UPDATE_EVERY_S
            if event.type == "sources" or (event.type == "chunk" and time.monotonic() - last >= UPDATE_EVERY_S):
                data, metadata = widget._repr_mimebundle_()
                handle.update(data, raw=True, metadata=metadata)
                last = time.monotonic()
        data, metadata = widget._repr_mimebundle_()
        handle.update(data, raw=True, metadata=metadata)
        if widget.error:
            print(f"athena: {widget.error}", file=sys.stderr)

    def _stream_text(self, events: Any) -> None:
        from athena_lab.render import stream_text

        answer = stream_text(events, on_event=self._remember)
        if answer.error:
            print(f"\nathena: {answer.error}", file=sys.stderr)


def status_line(status: dict[str, Any]) -> str:
    """``athena: 11 files, 114 chunks; vectors 64 / 114, embedding (4 chunks/s, about 13 s left)``."""
    counts = status["counts"]
    line = f"athena: {counts['files']} files, {counts['chunks']:,} chunks; {status['vectors']['message']}"
    run = status.get("run")
    if run and run["phase"] not in ("embed", "save"):
        line += f" (index run {run['pid']}: {run['phase']} {run['done']:,} / {run['total']:,})"
    return line


def one_line(exc: BaseException) -> str:
    """The user's errors as their message; anything else is a bug, named by its type."""
    if isinstance(exc, (AthenaError, OSError)):
        return user_message(exc)
    return f"{type(exc).__name__}: {' '.join(str(exc).split())} (a bug in athena_lab; please report it)"


_LINE_MAGIC = re.compile(r"^(\s*)%athena(?:[ \t]+(.*?))?\s*$")


def keep_question_marks(lines: list[str]) -> list[str]:
    """Turn ``%athena …?`` lines into the magic call before IPython reads ``?`` as help.

    IPython rewrites any line ending in ``?`` into an introspection request (``%athena
    what is x?`` would silently show help for ``x``), and questions end in ``?``.
    """
    out = []
    for line in lines:
        match = _LINE_MAGIC.match(line)
        if match and line.rstrip().endswith("?"):
            line = f"{match.group(1)}get_ipython().run_line_magic('athena', {match.group(2) or ''!r})\n"
        out.append(line)
    return out


_LOADS_US = re.compile(r"^\s*%?(?:re)?load_ext\s+athena_lab\s*$")
_HELP_MAGICS = ("pinfo", "pinfo2")


def answer_this_cells_questions(shell: Any) -> None:
    """Make ``%athena …?`` work in the very cell that loads the extension.

    IPython transforms a whole cell before running any of it, so in a cell that starts with
    ``%load_ext athena_lab`` the ``%athena …?`` lines were already turned into help requests
    for their last word (``Object `blueprint` not found``) before :func:`keep_question_marks`
    existed. The raw cell is in the history by then: for each such line after the load, the
    help request it became (``pinfo``/``pinfo2`` of its last word) asks the question instead,
    in order; any other help request in the cell is IPython's as usual. The stand-ins are
    removed when the cell ends.
    """
    history = getattr(getattr(shell, "history_manager", None), "input_hist_raw", None)
    if not history:
        return
    lines = history[-1].splitlines()
    start = next((i for i, line in enumerate(lines) if _LOADS_US.match(line)), None)
    if start is None:
        return
    pending = [match.group(2) for line in lines[start + 1:]
               if (match := _LINE_MAGIC.match(line)) and match.group(2) and line.rstrip().endswith("?")]
    if not pending:
        return
    table = shell.magics_manager.magics["line"]
    # The real help magics: the table may hold a lazy stand-in that looks itself up by name.
    helpers = {name: getattr(fn.__self__, fn.__name__) for name in _HELP_MAGICS if (fn := table.get(name))}

    def stand_in(name: str) -> Any:
        def help_or_question(target: str) -> Any:
            if pending and pending[0].rstrip("?").rstrip().endswith(target.strip()):
                return shell.run_line_magic("athena", pending.pop(0))
            return helpers[name](target) if name in helpers else None
        return help_or_question

    def restore(*_: Any) -> None:
        table.update(helpers)
        shell.events.unregister("post_run_cell", restore)

    table.update({name: stand_in(name) for name in _HELP_MAGICS})
    shell.events.register("post_run_cell", restore)


def load(shell: Any) -> None:
    """Register the magic, its ``?``-safe input handling and the rich displays in ``shell``."""
    from athena_lab.api import register_formatters

    shell.register_magics(AthenaMagics)
    if keep_question_marks not in shell.input_transformers_cleanup:
        shell.input_transformers_cleanup.append(keep_question_marks)
        answer_this_cells_questions(shell)
    register_formatters(shell)
