"""The one error type of the provider layer, shared by the adapters and the transport."""

from __future__ import annotations


class ProviderError(Exception):
    """Raised by every adapter; its message is written for the user to read.

    `reason` lets callers (health checks, the loop) react without parsing text:
    unreachable, timeout, auth, model_not_found, protocol, http, config.
    """

    def __init__(self, message: str, reason: str = "http") -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason
