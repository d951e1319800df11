"""Parse a request body as a JSON object, refusing what would otherwise be a 500.

Python's json parser recurses once per nesting level: a 256 KiB body of ``[[[[…`` raises
RecursionError, and a body just under the interpreter's limit parses into a value the
routes then walk recursively. No API body nests deeper than a few levels, so anything
beyond ``MAX_DEPTH`` is refused as a 400 naming the limit.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import api_error

MAX_DEPTH = 32


def parse_object(body: bytes, limit_bytes: int) -> dict[str, Any]:
    """The body as a dict; a 400/413 ``api_error`` with a one-line reason otherwise."""
    if len(body) > limit_bytes:
        raise api_error(413, f"request body is {len(body)} bytes; the limit is {limit_bytes}")
    try:
        data = json.loads(body or b"{}")
    except RecursionError:
        raise api_error(400, f"request body nests deeper than {MAX_DEPTH} levels; flatten it") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise api_error(400, f"request body is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise api_error(400, "request body must be a JSON object")
    if depth_exceeds(data, MAX_DEPTH):
        raise api_error(400, f"request body nests deeper than {MAX_DEPTH} levels; flatten it")
    return data


def depth_exceeds(value: Any, limit: int) -> bool:
    """True when lists/objects nest more than ``limit`` levels (iterative: no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values() if isinstance(v, (dict, list)))
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item if isinstance(v, (dict, list)))
    return False
