"""The reindex job: at most one at a time, run in a thread, progress readable while it runs.

Indexing takes seconds to minutes; an HTTP request cannot wait for it. The job runs
``Athena.index(progress=...)`` on the server's own workspace (so searches see the new
index as soon as it commits) and the status route reads its progress. A second request
while one runs is refused rather than queued: two runs would only redo the same work.
"""

from __future__ import annotations

import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable


class JobRunning(RuntimeError):
    """A reindex job is already running; carries its snapshot."""

    def __init__(self, job: dict[str, Any]) -> None:
        super().__init__("a reindex job is already running; wait for it to finish (GET /athena/reindex)")
        self.job = job


@dataclass
class _Job:
    id: str
    state: str = "running"  # running | done | failed
    phase: str = "starting"
    done: int = 0
    total: int = 0
    started_at: float = field(default_factory=time.time)
    finished_at: float | None = None
    summary: dict[str, Any] | None = None
    error: str | None = None

    def snapshot(self) -> dict[str, Any]:
        return {"id": self.id, "state": self.state,
                "progress": {"done": self.done, "total": self.total, "phase": self.phase},
                "started_at": self.started_at, "finished_at": self.finished_at,
                "summary": self.summary, "error": self.error}


class ReindexJobs:
    """Owns the one job slot. ``run_index(progress)`` returns an object with ``as_dict()``."""

    def __init__(self, run_index: Callable[[Callable[[str, int, int], None]], Any]) -> None:
        self._run_index = run_index
        self._lock = threading.Lock()
        self._job: _Job | None = None

    def start(self) -> dict[str, Any]:
        with self._lock:
            if self._job is not None and self._job.state == "running":
                raise JobRunning(self._job.snapshot())
            job = self._job = _Job(id=uuid.uuid4().hex)
        threading.Thread(target=self._run, args=(job,), name=f"athena-reindex-{job.id[:8]}",
                         daemon=True).start()
        return job.snapshot()

    def current(self) -> dict[str, Any]:
        with self._lock:
            if self._job is None:
                return {"id": None, "state": "idle", "progress": None, "summary": None, "error": None}
            return self._job.snapshot()

    def _run(self, job: _Job) -> None:
        def progress(phase: str, done: int, total: int) -> None:
            with self._lock:
                job.phase, job.done, job.total = phase, done, total

        try:
            summary = self._run_index(progress)
        except Exception as exc:  # the message is what the user reads in the job status
            with self._lock:
                job.state, job.error = "failed", str(exc) or type(exc).__name__
                job.finished_at = time.time()
            return
        with self._lock:
            job.state, job.phase, job.summary = "done", "done", summary.as_dict()
            job.finished_at = time.time()
