"""How the index grows: a synthetic archive at 10k…1M chunks, and Ray against a local run.

Archive: Markdown pages whose sections are sentences of the shared corpora (SciFact
abstracts, the docs' prose), each copy perturbed (two words swapped, a number changed or
added) so that repeats are not identical texts; one section is one chunk.

Build (``--chunks``): the real pipeline, catalog, Tantivy and hnswlib graph, each size in
its own process (so peak RSS is that build's). **Vectors at these sizes come from a
stand-in embedder** — hashed bag-of-words through a fixed random projection to 384 dims,
normalised (``StandIn`` below) — because MiniLM at ~35 chunks/s on 2 cores would need
~8 hours for 1M chunks. Texts sharing words get nearby vectors, so the graph is
clustered like real embeddings, not uniform noise: its build and search cost are
representative; its *relevance* is not, and is not measured here. Query latency is
``Workspace.search`` (hybrid) end to end, warm, with the stand-in's query vector (~0.05 ms,
where MiniLM's is ~2.2 ms: add that for the real figure).

Memory (``--rss-every``): each build samples its own resident memory every few seconds,
with the phase it is in; the trace is in the result (``rss_trace``: seconds, MB, phase)
and written line by line to ``WORK/rss-N.tsv`` while the build runs. ``graph`` says how
the vectors reached the hnswlib graph: insert calls and their seconds, checkpoint saves
of the graph and theirs (the library's ``VectorIndex``, timed from outside).

Ray (``--ray-chunks``): the same small archive indexed with the real MiniLM embedder,
locally and with ``--ray`` on a local cluster of ``--ray-cpus`` CPUs, in chunks/s.

    python bench/scale.py --chunks 10000 100000 300000 --ray-chunks 1500 [--work DIR] [--out F]
    python bench/scale.py --chunks 1000000 --ray-chunks 0 --work DIR   # the 1M build
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
from _common import REPO, context, emit, load_average, peak_rss_mb, percentile, work_dir
from query_latency import sentences

SECTIONS_PER_FILE = 10
SENTENCES_PER_SECTION = 4
DIMS = 384


# ---------------------------------------------------------------- the archive
def perturb(sentence: str, rng: random.Random) -> str:
    """A near-copy: two words swapped and a number changed or added."""
    words = sentence.split()
    if len(words) > 3:
        i, j = rng.sample(range(len(words)), 2)
        words[i], words[j] = words[j], words[i]
    numbered = [k for k, w in enumerate(words) if re.fullmatch(r"\d+(\.\d+)?", w)]
    if numbered:
        words[rng.choice(numbered)] = str(rng.randint(0, 9999))
    else:
        words.insert(rng.randrange(len(words) + 1), str(rng.randint(0, 9999)))
    return " ".join(words)


def write_archive(folder: Path, chunks: int, pool: list[str], seed: int = 0) -> list[str]:
    """``chunks // SECTIONS_PER_FILE`` pages; returns their section headings (the queries)."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    headings: list[str] = []
    for f in range(chunks // SECTIONS_PER_FILE):
        parts = [f"# Archive page {f}\n"]
        for _ in range(SECTIONS_PER_FILE):
            heading = " ".join(rng.choice(pool).split()[:rng.randint(2, 6)]).strip(".,;:")
            headings.append(heading)
            body = " ".join(perturb(rng.choice(pool), rng) for _ in range(SENTENCES_PER_SECTION))
            parts.append(f"## {heading}\n\n{body}\n")
        sub = folder / f"d{f // 1000:04d}"
        sub.mkdir(exist_ok=True)
        (sub / f"page{f:07d}.md").write_text("\n".join(parts), encoding="utf-8")
    return headings


def archive(work: Path, chunks: int) -> tuple[Path, list[str]]:
    folder = work / f"archive-{chunks}"
    marker = folder / ".headings.json"
    if marker.is_file():
        return folder, json.loads(marker.read_text())
    headings = write_archive(folder, chunks, sentences())
    sample = random.Random(1).sample(headings, min(200, len(headings)))
    marker.write_text(json.dumps(sample))
    return folder, sample


# ---------------------------------------------------------------- the stand-in embedder
class StandIn:
    """NOT a language model: hashed bag-of-words → fixed random projection (see the docstring)."""

    name = "stand-in:hashed-projection-384"
    key = "standin384"
    dimensions = DIMS

    def __init__(self) -> None:
        self._rows: dict[str, np.ndarray] = {}

    def _row(self, token: str) -> np.ndarray:
        row = self._rows.get(token)
        if row is None:
            seed = int.from_bytes(hashlib.blake2b(token.encode(), digest_size=8).digest(), "little")
            row = self._rows[token] = np.random.default_rng(seed).standard_normal(DIMS).astype(np.float32)
        return row

    def _one(self, text: str) -> np.ndarray:
        tokens = re.findall(r"\w+", text.lower()) or ["empty"]
        v = np.sum([self._row(t) for t in tokens], axis=0)
        return (v / (np.linalg.norm(v) or 1.0)).astype(np.float32)

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return np.stack([self._one(t) for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        return self._one(text)


def use_stand_in() -> None:
    """Every embedder this process builds is the stand-in (the bench's own process only)."""
    from athena_lab.index import embeddings

    shared = StandIn()
    embeddings._build = lambda settings: shared


# ---------------------------------------------------------------- one size, one process
class PhaseClock:
    """Seconds spent in each phase of the run, from the pipeline's progress reports. A phase
    lasts until the next one reports: "parse" includes storing the catalog rows and Tantivy
    documents; "embed" includes adding to the hnswlib graph and its checkpoint saves."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._phase: str | None = None
        self._since = time.perf_counter()

    @property
    def phase(self) -> str | None:
        return self._phase

    def __call__(self, phase: str, done: int, total: int) -> None:
        now = time.perf_counter()
        if self._phase is not None:
            self.seconds[self._phase] = self.seconds.get(self._phase, 0.0) + now - self._since
        self._phase, self._since = phase, now

    def rounded(self) -> dict[str, float]:
        self("end", 0, 0)
        return {k: round(v, 1) for k, v in self.seconds.items()}


def rss_mb() -> float:
    """Resident memory of this process now (VmRSS)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class RssTrace:
    """(seconds, RSS MB, phase) every ``every`` s, kept and appended to ``path`` as it goes."""

    def __init__(self, path: Path, clock: PhaseClock, every: float) -> None:
        self.path, self.clock, self.every = path, clock, every
        self.samples: list[tuple[float, int, str]] = []
        self._stop = threading.Event()
        self._t0 = time.perf_counter()
        path.write_text("seconds\trss_mb\tphase\n")
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        row = (round(time.perf_counter() - self._t0, 1), round(rss_mb()), self.clock.phase or "start")
        self.samples.append(row)
        with self.path.open("a") as f:
            f.write("\t".join(map(str, row)) + "\n")

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self._sample()

    def stop(self) -> list[tuple[float, int, str]]:
        self._stop.set()
        self._thread.join()
        self._sample()
        return self.samples


class GraphTimer:
    """Calls and seconds of the graph's inserts and checkpoint saves, timed around the
    library's methods (whichever this checkout has: before issue 30 every checkpoint was
    one ``update``, inserting and saving)."""

    def __init__(self) -> None:
        from athena_lab.index.vectors import VectorIndex

        self.stats: dict[str, dict[str, float]] = {}
        for name, key in (("insert", "insert"), ("update", "update"), ("_save_draft", "save"), ("_save", "save")):
            if hasattr(VectorIndex, name):
                setattr(VectorIndex, name, self._timed(getattr(VectorIndex, name), key))

    def _timed(self, method: Any, key: str) -> Any:
        stats = self.stats.setdefault(key, {"calls": 0, "seconds": 0.0, "last_s": 0.0})

        def timed(*args: Any, **kwargs: Any) -> Any:
            t = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                took = time.perf_counter() - t
                stats["calls"] += 1
                stats["seconds"] += took
                stats["last_s"] = took
        return timed

    def rounded(self) -> dict[str, dict[str, float]]:
        return {k: {"calls": int(v["calls"]), "seconds": round(v["seconds"], 1), "last_s": round(v["last_s"], 2)}
                for k, v in self.stats.items()}


def disk_mb(folder: Path) -> dict[str, float]:
    parts: dict[str, float] = {}
    for p in folder.rglob("*"):
        if p.is_file():
            top = p.relative_to(folder).parts[0]
            key = "tantivy" if top.startswith("tantivy") else top
            parts[key] = parts.get(key, 0.0) + p.stat().st_size / 1e6
    out = {k: round(v, 1) for k, v in sorted(parts.items())}
    out["total"] = round(sum(parts.values()), 1)
    return out


def measure_size(work: Path, chunks: int, queries: int, rss_every: float = 10.0) -> dict[str, Any]:
    """Build the archive's index from scratch with the stand-in, then time warm searches."""
    import shutil

    from athena_lab.index import vectors as vector_module
    from athena_lab.workspace import Workspace

    use_stand_in()
    folder, headings = archive(work, chunks)
    index_dir = work / f"index-{chunks}"
    shutil.rmtree(index_dir, ignore_errors=True)
    ws = Workspace(folder, index_dir)
    clock, timer = PhaseClock(), GraphTimer()
    trace, t0 = RssTrace(work / f"rss-{chunks}.tsv", clock, rss_every), time.perf_counter()
    summary = ws.index(progress=clock)
    build_s, phases, build_peak = time.perf_counter() - t0, clock.rounded(), peak_rss_mb()
    rss_trace = trace.stop()
    qs = [h.lower() for h in headings[:queries]]
    for q in qs[:20]:
        ws.search(q)
    wall, parts = [], {"lexical": [], "vector": [], "fuse": []}
    for q in qs:
        t = time.perf_counter()
        result = ws.search(q)
        wall.append((time.perf_counter() - t) * 1e3)
        for key in parts:
            parts[key].append(result.timings_ms.get(key, 0.0))
    out = {
        "chunks": summary.chunks, "files": summary.new, "vectors": summary.vectors_done,
        "embedder": summary.embedder, "build_seconds": round(build_s, 1),
        "build_chunks_per_s": round(summary.chunks / build_s), "phase_seconds": phases,
        "build_peak_rss_mb": round(build_peak), "peak_rss_mb_with_queries": round(peak_rss_mb()),
        "disk_mb": disk_mb(index_dir),
        "hnsw": {"M": vector_module.M, "ef_construction": vector_module.EF_CONSTRUCTION,
                 "ef_search": ws.config.settings.search.ef,
                 "graph_threads": getattr(ws.config.settings.index, "graph_threads", "1 (before issue 30)")},
        "graph": timer.rounded(), "rss_trace": rss_trace,
        "hybrid_query": {"queries": len(wall), "p50_ms": round(percentile(wall, 50), 2),
                         "p95_ms": round(percentile(wall, 95), 2)},
        "hybrid_parts_p50_ms": {k: round(percentile(v, 50), 2) for k, v in parts.items()},
        "load_average": load_average(),
    }
    ws.close()
    shutil.rmtree(index_dir, ignore_errors=True)  # the next size needs the disk
    return out


def in_child(args: list[str]) -> dict[str, Any]:
    """Run this script on one task in a fresh process: its peak RSS is its own."""
    done = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, cwd=REPO)
    if done.returncode != 0:
        return {"failed": done.stderr.strip().splitlines()[-1:] or ["no output"]}
    return json.loads(done.stdout)


# ---------------------------------------------------------------- Ray vs local
def measure_ray(work: Path, chunks: int, cpus: int, use_ray: bool) -> dict[str, Any]:
    """The small archive indexed with the real embedder, locally or on a local Ray cluster."""
    import shutil

    from athena_lab.workspace import Workspace

    folder, _ = archive(work, chunks)
    index_dir = work / f"ray-{chunks}-{'ray' if use_ray else 'local'}"
    shutil.rmtree(index_dir, ignore_errors=True)
    ws = Workspace(folder, index_dir, overrides={"embedding.threads": cpus})
    backend, started = None, time.perf_counter()
    if use_ray:
        from athena_lab.ingest.distributed import RayBackend

        backend = RayBackend(ws.config.settings.embedding, num_cpus=cpus)
        backend.connect()
    startup = time.perf_counter() - started
    t0 = time.perf_counter()
    summary = ws.index(backend=backend)
    run_s = time.perf_counter() - t0
    if backend is not None:
        backend.close()
    ws.close()
    shutil.rmtree(index_dir, ignore_errors=True)
    return {"mode": "ray" if use_ray else "local", "cpus": cpus, "chunks": summary.chunks,
            "embedded": summary.embedded, "embedder": summary.embedder,
            "cluster_start_seconds": round(startup, 1), "index_seconds": round(run_s, 1),
            "chunks_per_s": round(summary.chunks / run_s, 1),
            "chunks_per_s_with_start": round(summary.chunks / (run_s + startup), 1),
            "driver_peak_rss_mb": round(peak_rss_mb()), "load_average": load_average()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chunks", type=int, nargs="*", default=[10_000, 100_000])
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--ray-chunks", type=int, default=1_500, help="0 to skip the Ray comparison")
    ap.add_argument("--ray-cpus", type=int, default=2)
    ap.add_argument("--work", help="where archives and indexes are written (default: a temp dir)")
    ap.add_argument("--out", help="also write the JSON result here")
    ap.add_argument("--rss-every", type=float, default=10.0, help="seconds between RSS samples of a build")
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)  # internal: one size, this process
    ap.add_argument("--ray-one", choices=("ray", "local"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    work = work_dir(args.work, "scale")
    if args.one:
        print(json.dumps(measure_size(work, args.one, args.queries, args.rss_every)))
        return
    if args.ray_one:
        print(json.dumps(measure_ray(work, args.ray_chunks, args.ray_cpus, args.ray_one == "ray")))
        return
    common = ["--work", str(work), "--queries", str(args.queries), "--rss-every", str(args.rss_every)]
    result: dict[str, Any] = {"benchmark": "scale", **context(), "sizes": []}
    for n in args.chunks:
        archive(work, n)  # written here, so the build's process (and its RSS) starts clean
        result["sizes"].append(in_child(["--one", str(n), *common]))
        print(json.dumps(result["sizes"][-1]), file=sys.stderr)
    if args.ray_chunks:
        ray_args = ["--ray-chunks", str(args.ray_chunks), "--ray-cpus", str(args.ray_cpus), *common]
        result["ray"] = [in_child(["--ray-one", mode, *ray_args]) for mode in ("local", "ray")]
    result["load_average_end"] = load_average()
    emit(result, args.out)


if __name__ == "__main__":
    main()
