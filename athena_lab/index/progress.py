"""How far the index is, and how far a running index run has got — said the same everywhere.

A writer (``athena index``, or the server's background run) keeps one manifest row,
``run_progress``, up to date: its pid, a heartbeat, the phase and, while embedding, the
rate. Readers (search, ``athena status``, the HTTP API, the sidebar) combine it with the
catalog's own count of chunks that have a current vector. That count, not the writer's,
is what search can use: vectors become searchable only when a checkpoint commits them.
A row whose process is gone (or whose heartbeat stopped long ago) is a run that died;
readers ignore it, so a killed run never shows as "embedding" forever.
"""

from __future__ import annotations

import json
import os
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Final, Literal

from athena_lab.contract import RunStatus, VectorStatus
from athena_lab.index.catalog import Catalog
from athena_lab.duration import duration

RUN_KEY = "run_progress"
HEARTBEAT_S = 1.0  # at most one row write per second from the progress callback
STALE_AFTER_S = 900.0  # no heartbeat for this long: the run is stuck or gone
RATE_WINDOW_S = 60.0  # the rate is measured over the last minute of embedding

# What the vectors of an index are doing, as one word a client can switch on.
VectorStateName = Literal["complete", "embedding", "indexing", "partial", "missing", "off"]
COMPLETE: Final = "complete"
EMBEDDING: Final = "embedding"
INDEXING: Final = "indexing"
PARTIAL: Final = "partial"
MISSING: Final = "missing"
OFF: Final = "off"


@dataclass
class RunInfo:
    """The row a running index run keeps in the manifest."""

    pid: int
    phase: str  # scan | parse | lexical | embed | save
    done: int
    total: int
    started_at: float
    heartbeat: float
    embedder_key: str | None = None
    embedder: str | None = None
    rate: float | None = None  # chunks per second over the last minute of embedding
    live: bool = True

    def as_dict(self) -> RunStatus:
        return {"pid": self.pid, "phase": self.phase, "done": self.done, "total": self.total,
                "started_at": self.started_at, "heartbeat": self.heartbeat, "embedder_key": self.embedder_key,
                "embedder": self.embedder, "rate": self.rate, "live": self.live}


@dataclass
class VectorState:
    """Vectors of the current embedder: how many chunks have one, and what is happening."""

    state: VectorStateName
    done: int
    total: int
    embedder: str | None = None
    rate: float | None = None
    eta_s: float | None = None
    phase: str | None = None  # of a live run that has not started embedding yet
    pid: int | None = None  # of the live run, if any

    @property
    def message(self) -> str:
        """One line for a person: ``vectors 2,310 / 7,050, embedding (31 chunks/s, about 2 min left)``."""
        if self.state == OFF:
            return "vectors off (embedding.provider = none): lexical search only"
        if self.state == MISSING:
            return f"no vectors yet ({self.done:,} / {self.total:,}); run `athena index` to embed them"
        return self.counts + self.activity

    @property
    def counts(self) -> str:
        return f"vectors {self.done:,} / {self.total:,}"

    @property
    def activity(self) -> str:
        """What happens to the missing vectors: being embedded, about to be, or nothing yet."""
        if self.state == EMBEDDING:
            return f", embedding{pace(self.rate, self.eta_s)}"
        if self.state == INDEXING:
            return f"; an index run is in its {self.phase or 'first'} phase, embedding follows"
        if self.state in (PARTIAL, MISSING):
            return "; run `athena index` to finish"
        return ""

    @property
    def running(self) -> bool:
        return self.state in (EMBEDDING, INDEXING)

    def as_dict(self) -> VectorStatus:
        return {"state": self.state, "done": self.done, "total": self.total, "embedder": self.embedder,
                "rate": self.rate, "eta_s": self.eta_s, "phase": self.phase, "pid": self.pid, "message": self.message}


def pace(rate: float | None, eta_s: float | None) -> str:
    """`` (31 chunks/s, about 2 min left)``, or nothing before the first measurement."""
    if not rate:
        return ""
    left = f", about {duration(eta_s)} left" if eta_s is not None else ""
    return f" ({rate:,.0f} chunks/s{left})" if rate >= 10 else f" ({rate:.1f} chunks/s{left})"


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process, but it exists
        return True
    except OSError:
        return False
    return True


def read_run(catalog: Catalog, now: float | None = None) -> RunInfo | None:
    """The live run writing this index, or None (no run, or one that died)."""
    raw = catalog.get_manifest(RUN_KEY)
    if not raw:
        return None
    try:
        data = json.loads(raw)
        run = RunInfo(**{k: data.get(k) for k in RunInfo.__dataclass_fields__ if k in data})
    except (ValueError, TypeError):
        return None
    now = time.time() if now is None else now
    run.live = _alive(int(run.pid)) and now - float(run.heartbeat) < STALE_AFTER_S
    return run if run.live else None


def vector_state(catalog: Catalog, embedder_key: str | None, embedder: str | None = None,
                 *, provider_off: bool = False) -> VectorState:
    """The vectors of ``embedder_key`` (None: no embedder has run yet) and any live run."""
    run = read_run(catalog)
    if run is not None and embedder_key is None:
        embedder_key = run.embedder_key
    if embedder_key is not None:
        done, total = catalog.vector_counts(embedder_key)
    else:
        done, total = 0, catalog.counts()["chunks"]
    name = embedder or (run.embedder if run else None) or catalog.get_manifest("embedder_name")
    if provider_off:
        return VectorState(OFF, done, total, None)
    if run is not None and run.embedder_key not in (None, embedder_key):
        run = None  # a run for another embedder does not fill these vectors
    if run is not None and total == 0:
        return VectorState(INDEXING, done, total, name, phase=run.phase, pid=run.pid)
    if done >= total:
        return VectorState(COMPLETE, done, total, name, pid=run.pid if run else None)
    if run is not None and run.phase in ("embed", "save"):
        eta = (total - done) / run.rate if run.rate else None
        return VectorState(EMBEDDING, done, total, name, run.rate, eta, pid=run.pid)
    if run is not None:
        return VectorState(INDEXING, done, total, name, phase=run.phase, pid=run.pid)
    return VectorState(PARTIAL if done else MISSING, done, total, name)


class RunProgress:
    """The writer's side: keeps the ``run_progress`` row current and measures the rate.

    ``report(phase, done, total)`` is the pipeline's progress callback; it writes the row
    at most once per HEARTBEAT_S (and on every phase change), so a reader always sees a
    recent heartbeat without the writer paying for a write per file.
    """

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        now = time.time()
        self.row: dict[str, Any] = {"pid": os.getpid(), "phase": "scan", "done": 0, "total": 0,
                                    "started_at": now, "heartbeat": now}
        self._written = 0.0
        self._samples: deque[tuple[float, int]] = deque()
        self._write()

    def report(self, phase: str, done: int, total: int) -> None:
        changed = phase != self.row["phase"]
        self.row.update(phase=phase, done=done, total=total)
        if changed or time.monotonic() - self._written >= HEARTBEAT_S:
            self._write()

    def embedder(self, key: str, name: str) -> None:
        self.row.update(embedder_key=key, embedder=name)
        self._write()

    def embedded(self, chunks_so_far: int) -> None:
        """Count chunks given fresh vectors so far in this run; updates the rate."""
        now = time.monotonic()
        self._samples.append((now, chunks_so_far))
        while len(self._samples) > 2 and self._samples[0][0] < now - RATE_WINDOW_S:
            self._samples.popleft()
        (t0, n0), (t1, n1) = self._samples[0], self._samples[-1]
        if t1 > t0 and n1 > n0:
            first = self.row.get("rate") is None
            self.row["rate"] = round((n1 - n0) / (t1 - t0), 2)
            if first:  # readers get a rate (and an ETA) as soon as there is one
                self._write()

    def start_rate(self, so_far: int = 0) -> None:
        """Embedding (of texts not in the cache) starts now, ``so_far`` chunks embedded
        already: measure from here."""
        self._samples.clear()
        self._samples.append((time.monotonic(), so_far))

    def _write(self) -> None:
        self.row["heartbeat"] = time.time()
        self.catalog.set_manifest(RUN_KEY, json.dumps(self.row))
        self._written = time.monotonic()

    def finish(self) -> None:
        """The run is over (done, failed or interrupted): readers stop seeing it."""
        self.catalog.conn.execute("DELETE FROM manifest WHERE key=?", (RUN_KEY,))
