"""The errors a user can cause, each knowing how every front end reports it.

Every front end used to keep its own table of which exceptions are the user's fault and
what to answer, and the tables disagreed; the agent loop even turned a programming
error's ``KeyError`` into an "error" whose message was a key name. Now an exception the
user can cause is an ``AthenaError`` and carries its HTTP status, CLI exit code and a
one-line hint. The edges (CLI, HTTP, magic, loop, MCP) catch only this family (plus
``OSError`` from the file system); anything else is a bug and surfaces as one.
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


class NotFoundError(AthenaError):
    """Something named by the request does not exist: a file, chunk or conversation."""

    status = 404


class ConflictError(AthenaError):
    """The index is not in a state to do this yet (none built, a run in progress)."""

    status = 409


class BusyError(ConflictError):
    """Another process holds the index's write lock."""

    exit_code = 3


class UnavailableError(AthenaError):
    """A part the request needs (the embedder, a model server) cannot serve it."""

    status = 503


class UpstreamError(AthenaError):
    """A model server answered, but not with something usable."""

    status = 502


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
