"""The live index of a server (Jupyter's extension, ``athena serve --live``).

Small batches — a save, a rename — are applied in the server process: the embedder is
already loaded there and the index changes within about a second. A big batch (a ``git
checkout``, a folder copied in) goes to the reindex job slot, i.e. a background process
(ingest/background.py), for the reason that process exists: parsing hundreds of files
holds the interpreter lock, and the server must keep answering meanwhile. Either way the
index lock decides who writes: while a manual reindex runs, batches wait and coalesce.

With no index yet nothing is watched (a server started in a home folder must not put a
watch on all of it): the watch starts once an index appears, e.g. after the first reindex.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from athena_lab.errors import BusyError, JobRunning
from athena_lab.interrupt import StopRequest
from athena_lab.live_batch import Batch, LOCK_WAIT_S


log = logging.getLogger("athena_lab.server")

IN_PROCESS_MAX_PATHS = 50  # bigger batches run in a background process
INDEX_POLL_S = 2.0  # with no index yet, look for one this often
JOB_POLL_S = 0.2


class ServerLive:
    """Starts, reports and stops the live index of one ``ServerState``."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.live: Any = None
        self.error: str | None = None
        self._closing = threading.Event()

    def start(self) -> None:
        """Watch as soon as there is an index, from a thread: putting a watch on a big
        folder takes a while, and the host (Jupyter) must not wait for it to start."""
        threading.Thread(target=self._wait_for_index, name="athena-live-start", daemon=True).start()

    def _wait_for_index(self) -> None:
        while not self._closing.is_set():
            if self.state.workspace().has_index():
                self._start_watching()
                return
            self._closing.wait(INDEX_POLL_S)

    def _start_watching(self) -> None:
        ws = self.state.workspace()
        try:
            self.live = ws.live_index(self._logged, apply=self._apply)
        except Exception as exc:  # e.g. the system's limit on watched folders: say so, serve on
            self.error = f"live index off: {exc}"
            log.warning("athena_lab: %s", self.error)
            return
        if self._closing.is_set():  # the server closed while the watch was being set up
            self.live.stop()
            return
        log.info("athena_lab: live index: following edits in %s", ws.root)

    @staticmethod
    def _logged(batch: Batch) -> None:
        if batch.files_changed or batch.error:
            log.info("athena_lab: live index: %s", batch.line())

    def _apply(self, paths: list[str], stop: StopRequest) -> dict[str, Any]:
        ws = self.state.workspace()
        if not ws.has_index():
            return {}
        if len(paths) <= IN_PROCESS_MAX_PATHS:
            return ws.index(paths=paths, wait_s=LOCK_WAIT_S, stop=stop).as_dict()
        return self._in_background(paths, stop)

    def _in_background(self, paths: list[str], stop: StopRequest) -> dict[str, Any]:
        """The batch as a reindex job (a child process); waits for it to end."""
        try:
            job = self.state.jobs.start(paths=paths, wait_s=LOCK_WAIT_S)
        except JobRunning as exc:  # a manual reindex: the watcher retries after it
            raise BusyError(str(exc)) from None
        while job["state"] == "running":
            if stop.is_set():
                self.state.jobs.stop()
            time.sleep(JOB_POLL_S)
            job = self.state.jobs.current()
        error = job.get("error") or ""
        if job["state"] == "failed" and "is updating" in error:
            raise BusyError(error)
        if job["state"] == "failed":
            raise RuntimeError(error)
        return job.get("summary") or {}

    def status(self) -> dict[str, Any]:
        """``{"watching", "batches", "busy", "pending", "last", "error"}`` for /athena/info."""
        live = self.live
        if live is None:
            return {"watching": False, "batches": 0, "busy": False, "pending": 0, "last": None,
                    "error": self.error}
        return {"watching": live.watching, "batches": live.batches, "busy": live.busy,
                "pending": len(live.pending()), "last": live.last.as_dict() if live.last else None,
                "error": self.error or live.error}

    def stop(self) -> None:
        self._closing.set()
        if self.live is not None:
            self.live.stop()
