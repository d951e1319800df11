"""HTTP plumbing shared by the adapters: one retry on connection failure, readable errors.

Only failures that happen before any byte of the response arrived are retried: the
server never started answering, so asking again cannot duplicate a half-seen answer.
HTTP errors and failures mid-stream are reported at once.
"""

from __future__ import annotations

import functools
import json
import ssl
import time
from contextlib import contextmanager
from typing import Any, Iterator

import httpx

from athena_lab.redact import redact_url

from athena_lab.errors import ProviderError

# Errors that mean "the request got no response at all": refused, reset, or the
# server closed the connection before writing a status line.
_NO_RESPONSE_ERRORS = (httpx.ConnectError, httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError)
_HEALTH_TIMEOUT_S = 5.0


class Transport:
    def __init__(
        self,
        provider: str,
        base_url: str,
        *,
        timeout_s: float,
        retry_delay_s: float,
        headers: dict[str, str],
        secret: str | None,
    ) -> None:
        self.provider = provider
        self.base_url = redact_url(base_url)  # for messages; the client uses the real one
        self.timeout_s = timeout_s
        self.retry_delay_s = retry_delay_s
        self._secret = secret
        self._client = httpx.Client(
            base_url=base_url, headers=headers, timeout=httpx.Timeout(timeout_s), verify=_tls_context()
        )

    def close(self) -> None:
        self._client.close()

    def redact(self, text: str) -> str:
        """Servers sometimes echo the key they rejected; it must never reach a message."""
        return text.replace(self._secret, "***") if self._secret else text

    @contextmanager
    def open(self, method: str, path: str, body: dict[str, Any] | None = None) -> Iterator[httpx.Response]:
        """Send with one retry on no-response failures; error bodies are read before yielding."""
        request = self._client.build_request(method, path.lstrip("/"), json=body)
        response = self._send_with_retry(request)
        try:
            if response.status_code >= 400:
                try:
                    response.read()
                except httpx.HTTPError as exc:
                    raise ProviderError(self._mid_stream_message(exc), "protocol") from None
            yield response
        finally:
            response.close()

    def lines(self, response: httpx.Response) -> Iterator[str]:
        """Response lines, with read failures turned into a ProviderError."""
        try:
            yield from response.iter_lines()
        except httpx.TimeoutException:
            raise ProviderError(
                f"{self.provider} at {self.base_url} stopped responding: no data for {self.timeout_s:g} s",
                "timeout",
            ) from None
        except httpx.HTTPError as exc:
            raise ProviderError(self._mid_stream_message(exc), "protocol") from None

    def get_json(self, path: str) -> tuple[int, Any]:
        """A short GET for listings and health; (status, parsed body or None)."""
        request = self._client.build_request(
            "GET", path.lstrip("/"), timeout=httpx.Timeout(min(self.timeout_s, _HEALTH_TIMEOUT_S))
        )
        response = self._send_with_retry(request)
        try:
            response.read()
            try:
                return response.status_code, response.json()
            except ValueError:
                return response.status_code, None
        except httpx.HTTPError as exc:
                raise ProviderError(self._mid_stream_message(exc), "protocol") from None
        finally:
            response.close()

    def _send_with_retry(self, request: httpx.Request) -> httpx.Response:
        for attempt in (1, 2):
            try:
                return self._client.send(request, stream=True)
            except httpx.TimeoutException as exc:
                phase = "connecting to" if isinstance(exc, httpx.ConnectTimeout) else "waiting for"
                raise ProviderError(
                    f"timed out after {self.timeout_s:g} s {phase} {self.provider} at {self.base_url}",
                    "timeout",
                ) from None
            except _NO_RESPONSE_ERRORS as exc:
                if attempt == 2:
                    raise ProviderError(self._unreachable_message(exc), "unreachable") from None
                time.sleep(self.retry_delay_s)
        raise AssertionError("unreachable")

    def _unreachable_message(self, exc: httpx.HTTPError) -> str:
        text = str(exc) or type(exc).__name__
        if isinstance(exc, httpx.ConnectError) and "refused" in text.lower():
            reason = "connection refused"
        elif isinstance(exc, httpx.RemoteProtocolError):
            reason = "the server closed the connection without answering"
        else:
            reason = self.redact(text)
        return f"cannot reach {self.provider} at {self.base_url}: {reason} — is the server running?"

    def _mid_stream_message(self, exc: httpx.HTTPError) -> str:
        detail = self.redact(str(exc) or type(exc).__name__)
        return f"{self.provider} stream ended unexpectedly: connection lost mid-response ({detail})"


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """Loading the CA bundle costs ~0.1-0.4 s; every provider shares one context."""
    return httpx.create_ssl_context()


def error_detail(response: httpx.Response) -> str:
    """The server's own words from an error body, in any of the three vendors' shapes."""
    text = response.text.strip()
    try:
        payload = json.loads(text)
    except ValueError:
        return _shorten(text) or response.reason_phrase or "no details"
    return _shorten(_message_from(payload) or text)


def _message_from(payload: Any) -> str | None:
    if isinstance(payload, dict):
        error = payload.get("error", payload)
        if isinstance(error, str):
            return error
        if isinstance(error, dict):
            message = error.get("message") or error.get("detail")
            kind = error.get("type")
            if isinstance(message, str):
                return f"{kind}: {message}" if isinstance(kind, str) and kind not in message else message
        detail = payload.get("detail")
        if isinstance(detail, str):
            return detail
    return None


def _shorten(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
