"""The reindex job: at most one at a time, run in a child process, progress readable while it runs.

Indexing takes seconds to minutes; an HTTP request cannot wait for it, and the server must
keep answering searches and chats meanwhile. So POST /athena/reindex starts the run in a
child process (ingest/background.py: no GIL shared with the server, lower CPU priority)
and returns at once. The run commits the lexical index first and then vectors in
checkpoints, so the server's searches see each commit as it lands. Progress — phase,
vectors done / total, rate, ETA — is read from the catalog's progress row, the same one
``athena status`` reads, so a run started from a terminal shows up here too.

A second request while one runs is refused rather than queued: two runs would only redo
the same work. Stopping (DELETE, or the server shutting down) sends the child SIGTERM: it
finishes its batch, saves what it has embedded and exits; the next run resumes.
"""

from __future__ import annotations

from athena_lab.errors import JobRunning

import os
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable


STOP_WAIT_S = 20.0  # on shutdown, how long to let a stopping run save before leaving it
# A run of this very process (the live index applying a batch of saves) is short: a reindex
# asked for meanwhile queues behind its lock for up to this long instead of being refused.
OWN_RUN_WAIT_S = 60.0


@dataclass
class _Job:
    id: str
    state: str = "running"  # running | done | stopped | failed
    phase: str = "starting"
    started_at: float = field(default_factory=time.time)
    finished_at: float | None = None
    summary: dict[str, Any] | None = None
    error: str | None = None
    pid: int | None = None
    handle: Any = None  # the BackgroundIndex while the child runs
    # (phase, when this job first saw it, its done count then): the per-phase rate's origin
    phase_mark: tuple[str, float, int] | None = None


class ReindexJobs:
    """Owns the one job slot.

    ``start_run()`` starts a run and returns its handle (``BackgroundIndex``);
    ``read_progress()`` returns ``{"run": …, "vectors": …}`` for the index (or None when
    there is no index yet) — the live state every snapshot reports.
    """

    def __init__(self, start_run: Callable[..., Any],
                 read_progress: Callable[[], dict[str, Any] | None]) -> None:
        self._start_run = start_run
        self._read_progress = read_progress
        self._lock = threading.Lock()
        self._job: _Job | None = None

    def start(self, **options: Any) -> dict[str, Any]:
        """Start a run unless one is going (ours: 409 with it; another process's: 409 naming it).
        ``options`` go to ``start_run`` (``multilingual=True`` builds that channel too)."""
        with self._lock:
            if self._job is not None and self._job.state == "running":
                raise JobRunning(self._snapshot(self._job))
        live = self._read_progress()
        run = (live or {}).get("run")
        if run is not None and run["pid"] == os.getpid():
            options.setdefault("wait_s", OWN_RUN_WAIT_S)
        elif run is not None:
            raise JobRunning({"id": None, "state": "running", "pid": run["pid"], "progress": self._progress(live)},
                             f"an index run (pid {run['pid']}) is already updating this index; "
                             "GET /athena/status shows its progress")
        with self._lock:
            if self._job is not None and self._job.state == "running":
                raise JobRunning(self._snapshot(self._job))
            job = self._job = _Job(id=uuid.uuid4().hex)
            try:
                job.handle = self._start_run(**options)
            except Exception as exc:
                job.state, job.error, job.finished_at = "failed", f"could not start: {exc}", time.time()
                return self._snapshot(job)
            job.pid = job.handle.pid
        threading.Thread(target=self._wait, args=(job,), name=f"athena-reindex-{job.id[:8]}",
                         daemon=True).start()
        return self.current()

    def current(self) -> dict[str, Any]:
        """The job's snapshot with live progress (reads the catalog: call it off the IOLoop)."""
        with self._lock:
            job = self._job
        if job is None:
            return {"id": None, "state": "idle", "progress": None, "summary": None, "error": None}
        return self._snapshot(job, self._read_progress())

    @staticmethod
    def _pace(job: _Job, progress: dict[str, Any], now: float) -> None:
        """Add ``rate`` (files/s while scanning and parsing, chunks/s after) and ``eta_s`` for
        phases other than embedding (whose rate the run itself measures), from the counts this
        job saw since the phase began."""
        phase, done, total = progress["phase"], progress["done"], progress["total"]
        if job.phase_mark is None or job.phase_mark[0] != phase:
            job.phase_mark = (phase, now, done)
        if phase in ("embed", "save"):
            progress["unit"] = "chunks"
            return
        if not total:
            return
        _, since, done_then = job.phase_mark
        if now - since >= 0.5 and done > done_then:
            rate = (done - done_then) / (now - since)
            progress.update(rate=round(rate, 2), eta_s=round(max(0, total - done) / rate, 1),
                            unit="files" if phase in ("scan", "parse") else "chunks")

    def stop(self, wait_s: float = 0.0) -> bool:
        """Ask the running child to save and exit; optionally wait for it. False if none ran."""
        with self._lock:
            job = self._job
            handle = job.handle if job is not None and job.state == "running" else None
        if handle is None:
            return False
        handle.stop()
        deadline = time.monotonic() + wait_s
        while wait_s and handle.running() and time.monotonic() < deadline:
            time.sleep(0.1)
        return True

    # ------------------------------------------------------------------------------
    def _wait(self, job: _Job) -> None:
        try:
            outcome, error = job.handle.wait(), None
        except Exception as exc:  # the job must end in a state, whatever went wrong
            outcome, error = None, f"lost the index process: {exc}"
        with self._lock:
            job.finished_at = time.time()
            if outcome is None:
                job.state, job.error = "failed", error
            else:
                job.state, job.summary, job.error = outcome.state, outcome.summary, outcome.error
            job.phase = job.state
            job.handle = None

    @staticmethod
    def _progress(live: dict[str, Any] | None, phase: str = "starting") -> dict[str, Any]:
        run = (live or {}).get("run")
        vectors = (live or {}).get("vectors")
        out: dict[str, Any] = {"phase": run["phase"] if run else phase,
                               "done": run["done"] if run else 0, "total": run["total"] if run else 0}
        if vectors is not None:
            out.update(vectors=vectors, rate=vectors.get("rate"), eta_s=vectors.get("eta_s"),
                       message=vectors.get("message"))
        return out

    def _snapshot(self, job: _Job, live: dict[str, Any] | None = None) -> dict[str, Any]:
        running = job.state == "running"
        progress = self._progress(live if running or live else None, job.phase)
        now = time.time()
        if running:
            self._pace(job, progress, now)
        else:
            progress.update(phase=job.state)
            if job.summary:
                progress.update(done=job.summary.get("vectors_done", 0),
                                total=job.summary.get("vectors_total", 0))
        return {"id": job.id, "state": job.state, "pid": job.pid, "progress": progress,
                "started_at": job.started_at, "finished_at": job.finished_at,
                "elapsed_s": round((job.finished_at or now) - job.started_at, 1),
                "summary": job.summary, "error": job.error}
