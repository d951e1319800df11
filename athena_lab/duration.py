"""How long something takes, said the same way everywhere: ``42 s``, ``3 min 5 s``, ``2 h 10 min``.

The CLI's progress and status lines, the server's messages and the sidebar (whose
JavaScript says it the same way) all word a duration with ``duration``.
"""

from __future__ import annotations


def duration(seconds: float | None) -> str:
    """``42 s``, ``3 min 5 s``, ``2 h 10 min``: how long, as every front end and the
    progress line say it (the sidebar's JavaScript says it the same way)."""
    if seconds is None:
        return "?"
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        minutes, rest = divmod(seconds, 60)
        return f"{minutes} min" if minutes >= 10 or not rest else f"{minutes} min {rest} s"
    hours, rest = divmod(seconds, 3600)
    return f"{hours} h {rest // 60} min"
