"""What one batch of the live index did: the shape ingest/live.py reports to the CLI and the server.

The live index (``athena index --live``, a server's) applies saved files in
batches; each ``Batch`` says which paths, what the index run said and how long it took,
as one line a person reads (``line``) or JSON (``as_dict``). Front ends may not import
ingest/, so the shape lives here, below both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

LOCK_WAIT_S = 1.0  # how long a live-index batch waits for the index lock before retrying


@dataclass
class Batch:
    """One applied batch: which paths, what the index run said, how long it took."""

    number: int
    paths: list[str]
    started_at: float
    seconds: float = 0.0
    summary: Mapping[str, object] = field(default_factory=dict)
    error: str | None = None

    @property
    def files_changed(self) -> int:
        s = self.summary
        return sum(_count(s.get(k)) for k in ("new", "changed", "removed", "failed"))

    def line(self) -> str:
        """``updated 3 files (1 added, 1 changed, 1 deleted) in 0.8 s`` — one line a person reads."""
        if self.error:
            return f"update failed: {self.error}"
        s = self.summary
        parts = [f"{s.get(k)} {word}" for k, word in
                 (("new", "added"), ("changed", "changed"), ("removed", "deleted"), ("failed", "failed"))
                 if s.get(k)]
        n = self.files_changed
        what = f"updated {n} file{'s' if n != 1 else ''} ({', '.join(parts)})" if n else "nothing to update"
        return f"{what} in {self.seconds:.1f} s"

    def as_dict(self) -> dict[str, Any]:
        return {"number": self.number, "paths": len(self.paths), "started_at": self.started_at,
                "seconds": round(self.seconds, 3), "files_changed": self.files_changed,
                "line": self.line(), "error": self.error}


def _count(value: object) -> int:
    """A count of the index run's summary (a whole number; absent or None is 0)."""
    return int(value) if isinstance(value, (int, float)) else 0
