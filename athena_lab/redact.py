"""Take secrets out of text before it leaves the process: health reports, error messages.

A URL in the config may carry credentials (``https://user:pass@host/v1?key=…``), and a
provider or embedding server that refuses a request may echo it back — the URL, the
Authorization header, the key it rejected. Health and error messages are shown to every
client of the API and end up in logs, so they pass through ``scrub`` first: known secret
values, URL credentials and query values, bearer tokens and ``key=value`` secrets become
``***``, and the text is cut to a bounded length.
"""

from __future__ import annotations

import re
from typing import Iterable
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

MAX_MESSAGE_CHARS = 300
MASK = "***"
# Shorter values are not masked: replacing every "ab" in a message would garble it.
MIN_SECRET_CHARS = 6

_URL = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s'\"<>]+")
_SCHEME_TOKEN = re.compile(r"(?i)\b(bearer|basic|token)(\s+)[A-Za-z0-9._~+/=-]{8,}")
_ASSIGNED = re.compile(r"(?i)\b([\w-]*(?:api[_-]?key|token|secret|password|passwd|authorization)[\w-]*)"
                       r"([\"']?\s*[:=]\s*[\"']?)(?!\*\*\*)[^\s\"',;&}]+")
_VENDOR_KEY = re.compile(r"\b(?:sk|pk|rk|xox[abp])-[A-Za-z0-9_-]{12,}")


def redact_url(url: str) -> str:
    """``url`` with any user:password@ and every query value masked; unchanged otherwise."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return MASK
    if "@" not in parts.netloc and not parts.query:
        return url
    netloc = parts.netloc.rpartition("@")[2]
    if "@" in parts.netloc:
        netloc = f"{MASK}@{netloc}"
    query = urlencode([(k, MASK) for k, _ in parse_qsl(parts.query, keep_blank_values=True)], safe="*")
    return urlunsplit((parts.scheme, netloc, parts.path, query or (MASK if parts.query else ""), parts.fragment))


def scrub(text: str, secrets: Iterable[str | None] = (), limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` safe to show: no secret values, URL credentials or tokens; at most ``limit`` chars."""
    for secret in secrets:
        if secret and len(secret) >= MIN_SECRET_CHARS:
            text = text.replace(secret, MASK)
    text = _URL.sub(lambda m: redact_url(m.group(0)), text)
    text = _SCHEME_TOKEN.sub(lambda m: f"{m.group(1)}{m.group(2)}{MASK}", text)
    text = _ASSIGNED.sub(lambda m: f"{m.group(1)}{m.group(2)}{MASK}", text)
    text = _VENDOR_KEY.sub(MASK, text)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
