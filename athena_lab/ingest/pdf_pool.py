"""Parse many PDFs in worker processes, with a per-file time limit.

Extraction is the slow part of indexing and pdfium can spin or crash on hostile files,
so each worker is a separate process: a runaway file is killed (and its worker
replaced) without hurting the caller or the other files. Workers live across files so
imports and the OCR model load once per worker, not once per file.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from collections import deque
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection, wait
from pathlib import Path

from athena_lab.document import ParsedDocument
from athena_lab.errors import ParseError
from athena_lab.ingest.parsers.pdf import PdfOptions, parse

Job = tuple[Path, str]
Result = tuple[str, "ParsedDocument | str"]


def _serve(conn: Connection, options: PdfOptions) -> None:
    """Worker loop: parse each job it is sent; any failure goes back as a message. While a
    file is parsed, its page count and each page sent to OCR go back too ("time"
    messages), so the pool's limit grows with the work the file really needs."""
    while True:
        job = conn.recv()
        if job is None:
            return
        abs_path, path = job

        def progress(event: str, seconds: float) -> None:
            conn.send(("time", event, seconds))

        progress("start", 0.0)  # the clock starts now, not while this process was importing

        try:
            result: ParsedDocument | str = parse(abs_path, path, options, progress)
        except ParseError as exc:
            result = str(exc)
        except Exception as exc:  # noqa: BLE001 - report, never kill the pool
            result = f"cannot parse {path}: {type(exc).__name__}: {exc}"
        conn.send(("done", path, result))


class _Worker:
    def __init__(self, ctx: mp.context.SpawnContext, options: PdfOptions) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(child, options), daemon=True)
        self.process.start()
        child.close()
        self.job: Job | None = None
        self.started = 0.0
        self.limit = 0.0  # seconds this job may take: grows with its pages and OCR

    def give(self, job: Job, limit: float) -> None:
        self.job, self.started, self.limit = job, time.monotonic(), limit
        self.conn.send(job)

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
    it returns False when it has none, and the pool then waits for the workers."""
    if not jobs:
        return
    ctx = mp.get_context("spawn")  # fork is unsafe once the caller has threads
    queue = deque(jobs)
    size = max(1, min(workers or os.cpu_count() or 1, len(jobs)))
    pool = [_Worker(ctx, options) for _ in range(size)]
    try:
        for worker in pool:
            worker.give(queue.popleft(), options.timeout_s)
        while any(w.job is not None for w in pool):
            busy = [w for w in pool if w.job is not None]
            deadline = min(w.deadline for w in busy)
            ready = wait([w.conn for w in busy], timeout=0)
            if not ready and not (idle is not None and idle()):
                ready = wait([w.conn for w in busy], timeout=max(0.0, deadline - time.monotonic()))
            for index, worker in enumerate(pool):
                outcome = _collect(worker, ready)
                if outcome is None:
                    continue
                yield outcome
                if queue:
                    if not worker.process.is_alive():
                        worker = pool[index] = _Worker(ctx, options)
                    worker.give(queue.popleft(), options.timeout_s)
    finally:
        for worker in pool:
            if worker.job is not None:
                worker.kill()
            else:
                worker.stop()


def _collect(worker: _Worker, ready: list) -> Result | None:
    """The finished, crashed or timed-out job of ``worker``, or None if it is still working."""
    if worker.job is None:
        return None
    path = worker.job[1]
    if worker.conn in ready:
        try:
            message = worker.conn.recv()
        except (EOFError, OSError):
            code = worker.process.exitcode
            worker.kill()
            worker.job = None
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
        worker.job = None
        return message[1], message[2]
    if time.monotonic() >= worker.deadline:
        worker.kill()
        worker.job = None
        return path, f"timed out after {worker.limit:g} s"
    return None
