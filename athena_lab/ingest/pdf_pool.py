"""Parse many PDFs in worker processes, with a per-file time limit.

Extraction is the slow part of indexing and pdfium can spin or crash on hostile files,
so each worker is a separate process: a runaway file is killed (and its worker
replaced) without hurting the caller or the other files. Workers live across files so
imports and the OCR model load once per worker, not once per file.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection, wait
from pathlib import Path
from queue import SimpleQueue

from athena_lab.document import ParsedDocument
from athena_lab.errors import ParseError
from athena_lab.ingest.parsers.pdf import PdfOptions, parse

Job = tuple[Path, str]
Result = tuple[str, "ParsedDocument | str"]


def _serve(conn: Connection, options: PdfOptions) -> None:
    """Worker loop: parse each job it is sent; any failure goes back as a message. While a
    file is parsed, its page count and each page sent to OCR go back too ("time"
    messages), so the pool's limit grows with the work the file really needs. Messages
    go out from a thread of their own, in order: a parsed paper (60–220 KB pickled on
    papers-we-love) can fill the pipe's buffer, and the worker starts its next file (sent
    ahead: ``AHEAD``) while the pool, busy embedding a batch, has not read it yet."""
    outbox: SimpleQueue[tuple | None] = SimpleQueue()

    def send() -> None:
        while (message := outbox.get()) is not None:
            conn.send(message)

    sender = threading.Thread(target=send, name="pdf-results", daemon=True)
    sender.start()
    try:
        while True:
            job = conn.recv()
            if job is None:
                return
            abs_path, path = job

            def progress(event: str, seconds: float) -> None:
                outbox.put(("time", event, seconds))

            progress("start", 0.0)  # the clock starts now, not while this process was importing

            try:
                result: ParsedDocument | str = parse(abs_path, path, options, progress)
            except ParseError as exc:
                result = str(exc)
            except Exception as exc:  # noqa: BLE001 - report, never kill the pool
                result = f"cannot parse {path}: {type(exc).__name__}: {exc}"
            outbox.put(("done", path, result))
            del result  # the sender holds it until the pool has read it
    finally:
        outbox.put(None)
        sender.join()


#: Jobs a worker holds at once: the one it parses and the next, already in its pipe, so it
#: starts the next file as soon as it sends a result instead of waiting until this process
#: (embedding a batch between results: ``idle``) has read it and sent another. Without it
#: papers-we-love's parse phase kept 1.4–1.9 of the 2 cores busy and took 77–107 s; with
#: it 1.96 and 67 s (docs/benchmarks.md, issue 30).
AHEAD = 2


class _Worker:
    def __init__(self, ctx: mp.context.SpawnContext, options: PdfOptions) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(child, options), daemon=True)
        self.process.start()
        child.close()
        self.jobs: deque[Job] = deque()  # the file being parsed first, then the ones sent after it
        self.started = 0.0
        self.limit = 0.0  # seconds the current job may take: grows with its pages and OCR
        self.timeout = 0.0

    @property
    def job(self) -> Job | None:
        return self.jobs[0] if self.jobs else None

    def give(self, job: Job, limit: float) -> None:
        if not self.jobs:
            self.started, self.limit = time.monotonic(), limit
        self.timeout = limit
        self.jobs.append(job)
        self.conn.send(job)

    def next_job(self) -> None:
        """The current job is over: the next one sent (if any) is being parsed from now."""
        self.jobs.popleft()
        self.started, self.limit = time.monotonic(), self.timeout

    @property
    def deadline(self) -> float:
        return self.started + self.limit

    def kill(self) -> None:
        self.process.kill()
        self.process.join(5)
        self.conn.close()

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.process.join(2)
        if self.process.is_alive():
            self.kill()


def parse_pdfs(jobs: list[Job], options: PdfOptions, workers: int | None = None,
               idle: Callable[[], bool] | None = None) -> Iterator[Result]:
    """Yield (path, ParsedDocument) or (path, error message) for every job, in any order.

    ``idle``: work for this process while every worker is busy (one embedding batch);
    it returns False when it has none, and the pool then waits for the workers. Each
    worker holds up to ``AHEAD`` jobs while more are queued than there are workers."""
    if not jobs:
        return
    ctx = mp.get_context("spawn")  # fork is unsafe once the caller has threads
    queue = deque(jobs)
    size = max(1, min(workers or os.cpu_count() or 1, len(jobs)))
    pool = [_Worker(ctx, options) for _ in range(size)]

    alone: set[Job] = set()  # jobs of a worker that crashed with more than one: parsed with none behind

    def top_up(worker: _Worker) -> None:
        while queue and (not worker.jobs or (len(worker.jobs) < AHEAD and len(queue) > size
                                             and worker.jobs[-1] not in alone and queue[0] not in alone)):
            worker.give(queue.popleft(), options.timeout_s)

    try:
        for worker in pool:
            top_up(worker)
        while any(w.jobs for w in pool):
            busy = [w for w in pool if w.jobs]
            deadline = min(w.deadline for w in busy)
            ready = wait([w.conn for w in busy], timeout=0)
            if not ready and not (idle is not None and idle()):
                ready = wait([w.conn for w in busy], timeout=max(0.0, deadline - time.monotonic()))
            for index, worker in enumerate(pool):
                outcome = _collect(worker, ready, alone)
                if outcome is None and not (worker.conn.closed and worker.jobs):
                    continue  # still at work, or idle
                if outcome is not None:
                    yield outcome
                if not worker.process.is_alive():  # its files not yet done go back first, to a new worker
                    if outcome is None:  # it crashed with files sent ahead: which one did is unknown
                        alone.update(worker.jobs)
                    queue.extendleft(reversed(worker.jobs))
                    worker.jobs.clear()
                    if queue:
                        worker = pool[index] = _Worker(ctx, options)
                top_up(worker)
    finally:
        for worker in pool:
            if worker.jobs:
                worker.kill()
            else:
                worker.stop()


def _collect(worker: _Worker, ready: list, alone: set[Job]) -> Result | None:
    """The finished, crashed or timed-out job of ``worker``, or None if it is still working
    (or crashed with files sent ahead and not parsed alone: then none is blamed)."""
    if worker.job is None:
        return None
    path = worker.job[1]
    if worker.conn in ready:
        try:
            message = worker.conn.recv()
        except (EOFError, OSError):
            code = worker.process.exitcode
            worker.kill()
            if len(worker.jobs) > 1 and worker.jobs[0] not in alone:
                return None
            worker.jobs.popleft()
            return path, f"cannot parse {path}: the PDF worker crashed (exit code {code})"
        if message[0] == "time":  # the file's own limit: its pages, then each OCR'd page
            _kind, event, seconds = message
            if event == "start":
                worker.started = time.monotonic()
            elif event == "pages":
                worker.limit = max(worker.limit, seconds)
            else:
                worker.limit += seconds
            return None
        worker.next_job()
        return message[1], message[2]
    if time.monotonic() >= worker.deadline:
        worker.kill()
        worker.jobs.popleft()
        return path, f"timed out after {worker.limit:g} s"
    return None
