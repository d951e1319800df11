"""One way to refuse a request: a tornado HTTPError carrying a user-readable message
(and, for 401/429, the headers that tell the client what to do next)."""

from __future__ import annotations

from tornado.web import HTTPError


def api_error(status: int, message: str, headers: dict[str, str] | None = None) -> HTTPError:
    # log_message is %-formatted by tornado only when args are given; we pass none.
    err = HTTPError(status, log_message=message)
    err.athena_headers = dict(headers or {})  # type: ignore[attr-defined]
    return err
