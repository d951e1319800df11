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
from collections.abc import Iterator
from multiprocessing.connection import Connection, wait
from pathlib import Path

from athena_lab.document import ParsedDocument
from athena_lab.errors import ParseError
from athena_lab.ingest.parsers.pdf import PdfOptions, parse

Job = tuple[Path, str]
Result = tuple[str, "ParsedDocument | str"]


def _serve(conn: Connection, options: PdfOptions) -> None:
    """Worker loop: parse each job it is sent; any failure goes back as a message."""
    while True:
        job = conn.recv()
        if job is None:
            return
        abs_path, path = job
        try:
            result: ParsedDocument | str = parse(abs_path, path, options)
        except ParseError as exc:
            result = str(exc)
        except Exception as exc:  # noqa: BLE001 - report, never kill the pool
            result = f"cannot parse {path}: {type(exc).__name__}: {exc}"
        conn.send((path, result))


class _Worker:
    def __init__(self, ctx: mp.context.SpawnContext, options: PdfOptions) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(child, options), daemon=True)
        self.process.start()
        child.close()
        self.job: Job | None = None
        self.started = 0.0

    def give(self, job: Job) -> None:
        self.job, self.started = job, time.monotonic()
        self.conn.send(job)

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


def parse_pdfs(jobs: list[Job], options: PdfOptions, workers: int | None = None) -> Iterator[Result]:
    """Yield (path, ParsedDocument) or (path, error message) for every job, in any order."""
    if not jobs:
        return
    ctx = mp.get_context("spawn")  # fork is unsafe once the caller has threads
    queue = deque(jobs)
    size = max(1, min(workers or os.cpu_count() or 1, len(jobs)))
    pool = [_Worker(ctx, options) for _ in range(size)]
    try:
        for worker in pool:
            worker.give(queue.popleft())
        while any(w.job is not None for w in pool):
            busy = [w for w in pool if w.job is not None]
            deadline = min(w.started for w in busy) + options.timeout_s
            ready = wait([w.conn for w in busy], timeout=max(0.0, deadline - time.monotonic()))
            for index, worker in enumerate(pool):
                outcome = _collect(worker, ready, options.timeout_s)
                if outcome is None:
                    continue
                yield outcome
                if queue:
                    if not worker.process.is_alive():
                        worker = pool[index] = _Worker(ctx, options)
                    worker.give(queue.popleft())
    finally:
        for worker in pool:
            if worker.job is not None:
                worker.kill()
            else:
                worker.stop()


def _collect(worker: _Worker, ready: list, timeout_s: float) -> Result | None:
    """The finished, crashed or timed-out job of ``worker``, or None if it is still working."""
    if worker.job is None:
        return None
    path = worker.job[1]
    if worker.conn in ready:
        try:
            outcome = worker.conn.recv()
            worker.job = None
            return outcome
        except (EOFError, OSError):
            code = worker.process.exitcode
            worker.kill()
            worker.job = None
            return path, f"cannot parse {path}: the PDF worker crashed (exit code {code})"
    if time.monotonic() - worker.started >= timeout_s:
        worker.kill()
        worker.job = None
        return path, f"timed out after {timeout_s:g} s"
    return None
