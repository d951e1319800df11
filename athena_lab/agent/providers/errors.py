"""The one error type of the provider layer, shared by the adapters and the transport."""

from __future__ import annotations

from athena_lab.errors import UpstreamError


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
