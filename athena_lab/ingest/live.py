"""The live index: follow a folder's edits and re-index each batch of saves within ~2 s.

Two threads. The watching thread waits on ``watchfiles`` (inotify / FSEvents / polling,
in Rust) and keeps the changed paths that can matter to the index — decided by the same
``Rules`` discovery uses, so a live update never indexes what a full run would not. The
applying thread takes *everything* pending at once and hands it to ``apply`` (an
incremental index run over those paths, ``run_index(paths=...)``), so events that arrive
while a batch runs are coalesced into the next one instead of queueing a run each.

Debounce is two-level: watchfiles yields a set of changes once ``STEP_MS`` pass with no new
event (or after ``DEBOUNCE_MS`` of continuous events), so a ``git checkout`` of 500 files is
one set; and whatever piles up during a run is one more batch, not many.

Another writer (a manual reindex, ``athena index`` in a terminal) holds the index lock:
``apply`` raises ``BusyError`` and the batch waits, merging new events, until the lock
is free. There is never a second writer: the lock is the index's own (``IndexStore``).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol

from athena_lab.config import Config
from athena_lab.errors import BusyError, WatchError
from athena_lab.ingest.discover import GITIGNORE, Rules, collapse
from athena_lab.ingest.pipeline import IndexSummary
from athena_lab.interrupt import StopRequest
from athena_lab.live_batch import Batch, LOCK_WAIT_S

log = logging.getLogger("athena_lab.watch")

STEP_MS = 300  # a set of changes is handed over once this long passes with no new event
DEBOUNCE_MS = 3000  # ... or after this long of continuous events (a long checkout)
TIMEOUT_MS = 1000  # the watching thread looks at its stop flag at least this often
BUSY_RETRY_S = 0.5  # pause before trying a batch again while another writer holds the lock

# (paths, stop) -> the index run's summary (IndexSummary.as_dict()); raises BusyError
# while another writer holds the index. ``stop`` is set when the live index is stopped.
Apply = Callable[[list[str], StopRequest], Mapping[str, object]]


class LiveFolder(Protocol):
    """What the live index needs of a workspace (``athena_lab.workspace.Workspace`` is one).
    A protocol, not the class: ingest sits below the facade in the import layers."""

    @property
    def root(self) -> Path: ...

    @property
    def index_dir(self) -> Path: ...

    @property
    def config(self) -> Config: ...

    def has_index(self) -> bool: ...

    def index(self, *, wait_s: float, stop: StopRequest | None, paths: list[str] | None) -> IndexSummary: ...


class LiveIndex:
    """Follows ``rules.root``; calls ``apply(paths)`` for each batch, ``on_batch`` after it.

    ``start()`` returns once the watch is in place: a save after it is seen.
    """

    def __init__(self, rules: Rules, apply: Apply, on_batch: Callable[[Batch], None] | None = None,
                 *, step_ms: int = STEP_MS, debounce_ms: int = DEBOUNCE_MS) -> None:
        self.rules = rules
        self.root = rules.root
        self._apply = apply
        self._on_batch = on_batch
        self._step_ms, self._debounce_ms = step_ms, debounce_ms
        self._pending: set[str] = set()
        self._wake = threading.Condition()
        self._stop = threading.Event()
        self._resumed = threading.Event()
        self._stop_request = StopRequest()  # lets a run that is embedding end between batches
        self._threads: list[threading.Thread] = []
        self._notify: Any = None
        self.batches = 0  # batches applied (no-op ones included)
        self.last: Batch | None = None
        self.busy = False  # a batch is being applied right now
        self.error: str | None = None  # why watching stopped, if it stopped by itself
        # What the threads report, for whoever must know that nothing more is coming:
        self.quiet_polls = 0  # watches that ended with no event in a whole TIMEOUT_MS
        self.lock_waits = 0  # batches put back because another writer held the index

    # lifecycle --------------------------------------------------------------------
    def start(self, *, paused: bool = False) -> "LiveIndex":
        """Put the watch in place and start both threads; ``paused`` collects events but
        applies none until ``resume()`` (so a first full index can run meanwhile)."""
        from watchfiles._rust_notify import RustNotify  # watchfiles' documented Rust backend

        force_polling = os.environ.get("WATCHFILES_FORCE_POLLING", "").lower() in ("1", "true", "yes")
        # Created here, not in the thread: when start() returns, the watch is in place.
        # Unreadable subfolders are skipped (they cannot be indexed either); any other
        # failure — the system's limit on watched folders, a missing folder — is one line.
        def notify(ignore_permission_denied: bool) -> Any:
            return RustNotify([str(self.root)], False, force_polling, 300, True, ignore_permission_denied)

        try:
            try:
                self._notify = notify(False)
            except PermissionError:
                self._notify = notify(True)
        except Exception as exc:
            raise WatchError(f"cannot watch {self.root}: {exc}") from None
        if not paused:
            self._resumed.set()
        for target, name in ((self._watch_loop, "athena-watch"), (self._apply_loop, "athena-live-index")):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def resume(self) -> None:
        self._resumed.set()

    @property
    def watching(self) -> bool:
        return bool(self._threads) and self._threads[0].is_alive() and not self._stop.is_set()

    def stop(self, timeout: float = 30.0) -> None:
        """Stop watching. A batch being applied ends first: one that is embedding saves
        what it embedded at its next embedding batch (the next run embeds the rest)."""
        self._stop.set()
        self._stop_request.request("stop")
        self._resumed.set()
        with self._wake:
            self._wake.notify_all()
        deadline = time.monotonic() + timeout
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        if self._notify is not None and not any(t.is_alive() for t in self._threads[:1]):
            self._notify.close()

    def pending(self) -> list[str]:
        with self._wake:
            return sorted(self._pending)

    def wait_settled(self, timeout: float) -> bool:
        """Block until every change made before this call was seen and applied: the watcher
        has twice waited a whole ``TIMEOUT_MS`` with no event since (a change made before
        would have ended one of those waits), and nothing is pending or being applied.
        False if that takes longer than ``timeout`` (changes keep coming, or a batch runs long).
        For tests and tools that must know nothing more is on its way, without sleeping."""
        deadline = time.monotonic() + timeout
        with self._wake:
            start = self.quiet_polls
            while self.quiet_polls < start + 2 or self._pending or self.busy:
                left = deadline - time.monotonic()
                if left <= 0 or self._stop.is_set():
                    return False
                self._wake.wait(min(left, 0.1))
        return True

    # watching ---------------------------------------------------------------------
    def _watch_loop(self) -> None:
        try:
            while not self._stop.is_set():
                raw = self._notify.watch(self._debounce_ms, self._step_ms, TIMEOUT_MS, self._stop)
                if raw == "stop":
                    return
                if isinstance(raw, str):  # "timeout" (or "signal", which only the main thread gets)
                    if raw == "timeout":
                        with self._wake:
                            self.quiet_polls += 1
                            self._wake.notify_all()
                    continue
                self._add(self._relevant(raw))
        except Exception as exc:  # the watcher must never take its host down
            self.error = f"stopped watching {self.root}: {exc}"
            log.error("athena: live index %s", self.error)

    def _relevant(self, raw: set[tuple[int, str]]) -> set[str]:
        """The root-relative paths among ``raw`` that can change the index; a changed
        .gitignore stands for its whole folder (what it ignores may have changed)."""
        out: set[str] = set()
        for _change, abs_path in raw:
            rel = self._relative(abs_path)
            if rel is None:
                continue
            if rel.rsplit("/", 1)[-1] == GITIGNORE:
                self.rules.forget_gitignores()
                out.add(rel.rpartition("/")[0])
                continue
            # Whatever the event said, what is there now decides (None: gone).
            exists_as_dir = os.path.isdir(abs_path) if os.path.lexists(abs_path) else None
            if self.rules.may_matter(rel, exists_as_dir):
                out.add(rel)
        return out

    def _relative(self, abs_path: str) -> str | None:
        try:
            return Path(abs_path).relative_to(self.root).as_posix()
        except ValueError:
            return None

    def _add(self, paths: set[str]) -> None:
        if not paths:
            return
        with self._wake:
            self._pending |= paths
            self._wake.notify_all()

    # applying ---------------------------------------------------------------------
    def _apply_loop(self) -> None:
        self._resumed.wait()
        while True:
            with self._wake:
                while not self._pending and not self._stop.is_set():
                    self._wake.wait()
                if self._stop.is_set():
                    return
                paths, self._pending = collapse(self._pending), set()
                self.busy = True
            try:
                self._run(paths)
            finally:
                self.busy = False

    def _run(self, paths: list[str]) -> None:
        started, clock = time.time(), time.perf_counter()
        try:
            summary, error = self._apply(paths, self._stop_request), None
        except BusyError:
            # Another writer: keep the paths, merge what arrives meanwhile, try again.
            with self._wake:
                self.lock_waits += 1
            self._add(set(paths))
            self._stop.wait(BUSY_RETRY_S)
            return
        except Exception as exc:  # one clear line; the next save tries again
            summary, error = {}, f"{type(exc).__name__}: {exc}"
            log.error("athena: live update of %d paths failed: %s", len(paths), error)
        batch = Batch(self.batches + 1, paths, started, time.perf_counter() - clock, summary, error)
        if self._on_batch is not None:
            try:
                self._on_batch(batch)
            except Exception as exc:
                log.error("athena: live index batch callback failed: %s", exc)
        # Counted once reported: whoever sees ``batches == n`` sees batch n's callback done.
        self.last, self.batches = batch, batch.number


def start_live_index(ws: LiveFolder, on_batch: Callable[[Batch], None] | None = None, *, paused: bool = False,
           apply: Apply | None = None) -> LiveIndex:
    """A started ``LiveIndex`` for the workspace ``ws``. Batches run in this
    process through ``ws.index(paths=...)`` unless ``apply`` says otherwise (a server hands
    big ones to a background process). With no index yet a batch does nothing: a partial
    index of the few files just saved would hide that the folder was never indexed."""

    def in_process(paths: list[str], stop: StopRequest) -> dict[str, Any]:
        if not ws.has_index():
            return {}
        return ws.index(paths=paths, wait_s=LOCK_WAIT_S, stop=stop).as_dict()

    rules = Rules(ws.root, ws.config.settings.index, ws.index_dir)
    return LiveIndex(rules, apply or in_process, on_batch).start(paused=paused)
