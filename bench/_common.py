"""Helpers every benchmark shares: load average, peak memory, percentiles, result files.

Benchmarks here run on a shared 2-core machine, so every figure is printed with the load
average it was measured under; a timing without its load says little.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import resource
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
# the corpora: $ATHENA_CORPORA, else under $ATHENA_SHARED as the tests find them, else beside the checkout
CORPORA = Path(os.environ.get("ATHENA_CORPORA") or Path(os.environ.get("ATHENA_SHARED", REPO.parent / "shared")) / "corpora")
if str(REPO) not in sys.path:  # run as `python bench/x.py` from a checkout
    sys.path.insert(0, str(REPO))


def embedding_jobs(catalog: Any) -> dict[str, str]:
    """text hash → the exact string the pipeline embeds: heading (or file title), blank line, text."""
    from athena_lab.ingest.chunking import embedding_text  # after sys.path points at the checkout

    titles = {p: s.title or "" for p, s in catalog.sources().items()}
    out: dict[str, str] = {}
    for digest, text, heading, path in catalog.conn.execute(
            "SELECT text_hash, text, heading, path FROM chunks ORDER BY path, ordinal"):
        out.setdefault(digest, embedding_text(heading, text, titles.get(path)))
    return out


def cap_threads(threads: int) -> None:
    """Make this process see ``threads`` CPUs (llama.cpp's thread count, the embedders'):
    on a machine shared far beyond its cores (load 25-40 on 2), llama.cpp's two threads wait
    on each other at every step while one is descheduled, and a single thread gets more done."""
    if threads > 0:
        os.cpu_count = lambda: threads  # type: ignore[assignment]


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def peak_rss_mb() -> float:
    """Peak resident memory of this process: VmHWM, its own; ru_maxrss would also count the
    image before an exec (a fork of a bench that had grown). Both in KiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cpu_seconds(children: bool = False) -> float:
    """User + system CPU time so far: unlike wall time, it barely moves with the load."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def work_dir(given: str | None, name: str) -> Path:
    """The folder for generated corpora and indexes: never inside the shared corpora."""
    path = Path(given) if given else Path(tempfile.gettempdir()) / f"athena-bench-{name}"
    path.mkdir(parents=True, exist_ok=True)
    return path


def context() -> dict[str, Any]:
    return {"date": _dt.datetime.now().isoformat(timespec="seconds"), "load_average": load_average(),
            "cpus": os.cpu_count(), "python": platform.python_version()}


def emit(result: dict[str, Any], out: str | None) -> None:
    """Print the result as JSON and, if asked, write it to a file too."""
    text = json.dumps(result, indent=2)
    print(text)
    if out:
        Path(out).write_text(text + "\n", encoding="utf-8")


def parse_sets(pairs: list[str]) -> dict[str, str]:
    """``--set search.rrf_k=30`` flags → config overrides."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or "." not in key:
            raise SystemExit(f"--set {pair!r}: expected SECTION.KEY=VALUE, e.g. search.rrf_k=30")
        out[key.strip()] = value.strip()
    return out
