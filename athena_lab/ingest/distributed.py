"""Parsing and embedding on a Ray cluster; everything else stays in the run (pipeline.py).

``athena index PATH --ray [ADDRESS]`` keeps discovery, the scan of unchanged files, the
catalog, Tantivy, the embedding cache and the hnswlib checkpoints in this process, and
hands Ray only the two expensive steps through ``pipeline.Backend``:

- **parse**: plain remote tasks over groups of files. The file's bytes travel with the
  task (through Ray's object store), so workers need the package but not the folder; a
  task is a pure function of its bytes, so when its worker dies Ray simply runs it again
  (``max_retries``) and only that group's files are parsed twice.
- **embed**: one actor per worker CPU, each loading the embedder once. Batches are the
  very lists of texts the local run would embed, sent round-robin and read back in
  order: the same texts in the same batches give the same vectors (the int8 model's
  activations are quantized per batch, so batching matters), and the same insertion
  order gives the same hnswlib graph. A dead actor is restarted (``max_restarts``) and its
  unfinished batches re-run (``max_task_retries``).

Why tasks and actors rather than Ray Data: on 2 CPUs Ray Data's streaming executor adds
its own scheduling and a driver-side thread for a pipeline that is two maps; and the run
needs ordered results and a bounded number of batches in flight (a stop must not wait for
the whole archive), which ``ray.get`` on a sliding window gives directly.
"""

from __future__ import annotations

import os
import socket
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np

from athena_lab.config import Config
from athena_lab.settings import EmbeddingSettings, Settings
from athena_lab.errors import EmbedderError, RayUnavailable
from athena_lab.index.embeddings import Embedder, make_embedder
from athena_lab.ingest.discover import DiscoveredFile
from athena_lab.ingest.pipeline import Progress, _parse_pdfs, _Parsed, _parse_text

INSTALL_HINT = "pip install 'athena-lab[ray]'"
GROUP_FILES = 16  # text files per parse task: enough to amortise a task's ~ms overhead
GROUP_BYTES = 4 << 20  # ... or this many bytes, whichever comes first; a PDF is a task alone
IN_FLIGHT_PER_ACTOR = 2  # batches queued per actor: keeps each busy, bounds memory and stop latency
RETRIES = 3


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayUnavailable(f"--ray needs Ray: {INSTALL_HINT}") from None
    return ray


def check_reachable(address: str, timeout_s: float = 5.0) -> None:
    """Fail in seconds, in one line, when nothing listens at ``address``: Ray itself retries
    an unreachable cluster for minutes while printing its own log lines."""
    if address == "auto" or ":" not in address:
        return
    host, _, port = address.split("://")[-1].rpartition(":")
    try:
        socket.create_connection((host, int(port)), timeout=timeout_s).close()
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise RayUnavailable(f"cannot reach the Ray cluster at {address}: {reason}") from None


# ---------------------------------------------------------------- parsing
Job = tuple[DiscoveredFile, str, bytes]  # file, its sha256, its bytes


def group_jobs(jobs: list[Job]) -> list[list[Job]]:
    """Files in task-sized groups: PDFs alone (they are the slow ones), text by count/bytes."""
    groups: list[list[Job]] = []
    current: list[Job] = []
    size = 0
    for job in jobs:
        if job[0].doc_kind == "pdf":
            groups.append([job])
            continue
        if current and (len(current) >= GROUP_FILES or size + len(job[2]) > GROUP_BYTES):
            groups.append(current)
            current, size = [], 0
        current.append(job)
        size += len(job[2])
    if current:
        groups.append(current)
    return groups


def parse_group(pdf_config: Config, group: list[Job]) -> list[_Parsed]:
    """Parse files from their bytes with the local parsers: they are written under a private
    temp folder at their own relative paths, so the documents are exactly what a local run
    parses (parsers see only the relative path)."""
    with tempfile.TemporaryDirectory(prefix="athena-ray-") as tmp:
        local: list[tuple[DiscoveredFile, str]] = []
        originals: dict[str, DiscoveredFile] = {}
        for f, digest, data in group:
            target = Path(tmp) / f.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            local.append((replace(f, abs_path=target), digest))
            originals[f.path] = f
        out = [_parse_text(f, d) for f, d in local if f.doc_kind != "pdf"]
        out += _parse_pdfs(pdf_config, [(f, d) for f, d in local if f.doc_kind == "pdf"])
    for item in out:
        item.file = originals[item.file.path]
    return out


def _read(f: DiscoveredFile) -> bytes:
    try:
        return f.abs_path.read_bytes()
    except OSError:
        return b""  # vanished since the scan: the parser reports an empty file, as locally


# ---------------------------------------------------------------- embedding
class EmbedWorker:
    """One per worker CPU: loads the embedder once, then embeds the batches it is sent."""

    def __init__(self, settings: EmbeddingSettings) -> None:
        embedder = make_embedder(settings)
        if embedder is None:  # embedding.provider = "none": the run embeds nothing, so asks for no actor
            raise EmbedderError("an embedding actor needs an embedder; embedding.provider is none")
        self.embedder = embedder

    def embed(self, texts: list[str]) -> np.ndarray:
        return self.embedder.embed_documents(texts)


def ordered_window(submit: Any, count: int, window: int, get: Any) -> Iterator[Any]:
    """Results of ``submit(0..count-1)`` in order, with at most ``window`` submitted ahead."""
    pending: dict[int, Any] = {}
    for i in range(min(window, count)):
        pending[i] = submit(i)
    for i in range(count):
        ahead = i + window
        if ahead < count:
            pending[ahead] = submit(ahead)
        yield get(pending.pop(i))


# ---------------------------------------------------------------- the backend
class RayBackend:
    """``pipeline.Backend`` on Ray. ``address`` None starts a local cluster of ``num_cpus``.
    ``embedding``: the settings the actors build their embedder from (the run's own)."""

    def __init__(self, embedding: EmbeddingSettings, address: str | None = None,
                 num_cpus: int | None = None) -> None:
        self.ray = import_ray()
        self.embedding = embedding
        self.address = address
        self.num_cpus = num_cpus
        self._started = False
        self._actors: list[Any] = []
        self._actor_key: str | None = None

    # What runs on the workers. A subclass may wrap them: tests/test_ray_index.py makes the
    # first of each kill its worker, as a lost node would. Ray pickles what these return,
    # and functions or classes defined inside a method travel by value.
    def parse_task(self) -> Callable[[Config, list[Job]], list[_Parsed]]:
        """The function each group of files is parsed by, on a worker."""
        return parse_group

    def embed_worker(self) -> type[EmbedWorker]:
        """The actor class each worker CPU embeds with."""
        return EmbedWorker

    # -- cluster
    def connect(self) -> None:
        ray = self.ray
        if ray.is_initialized():
            return
        try:
            if self.address:
                check_reachable(self.address)
                ray.init(address=self.address, log_to_driver=False)
            else:
                ray.init(num_cpus=self.num_cpus or os.cpu_count() or 1, include_dashboard=False,
                         log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = self.address or "a local cluster"
            raise RayUnavailable(f"cannot start Ray on {where}: {str(exc).splitlines()[0]}") from None
        self._started = True

    def cpus(self) -> int:
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def close(self) -> None:
        """Release the actors (their models), and the cluster if this backend started it."""
        self.close_actors()
        if self._started:
            self.ray.shutdown()
            self._started = False

    # -- parse
    def parse(self, config: Config, jobs: list[tuple[DiscoveredFile, str]],
              report: Progress) -> list[_Parsed]:
        if not jobs:
            report("parse", 0, 0)
            return []
        self.connect()
        ray = self.ray
        # Only what parsing needs goes to the cluster: PDF options, never API keys.
        pdf_config = Config(root=Path("."), index_dir=Path("."),
                            settings=Settings(pdf=replace(config.settings.pdf, workers=1)))
        task = ray.remote(num_cpus=1, max_retries=RETRIES, retry_exceptions=False)(self.parse_task())
        shared = ray.put(pdf_config)
        groups = group_jobs([(f, d, _read(f)) for f, d in jobs])
        window = 2 * self.cpus()
        done, out = 0, []
        report("parse", 0, len(jobs))
        results = ordered_window(lambda i: task.remote(shared, groups[i]),
                                 len(groups), window, ray.get)
        for group, parsed in zip(groups, results):
            out.extend(parsed)
            done += len(group)
            report("parse", done, len(jobs))
        return out

    # -- embed
    def _embed_actors(self, settings: EmbeddingSettings) -> list[Any]:
        key = repr(settings)
        if self._actors and self._actor_key == key:
            return self._actors
        self.close_actors()
        ray = self.ray
        worker = ray.remote(num_cpus=1, max_restarts=RETRIES, max_task_retries=RETRIES)(self.embed_worker())
        # One thread per actor: the cluster's CPUs are shared out as actors, not threads.
        one = replace(settings, threads=1)
        self._actors = [worker.remote(one) for _ in range(self.cpus())]
        self._actor_key = key
        return self._actors

    def close_actors(self) -> None:
        for actor in self._actors:
            self.ray.kill(actor)
        self._actors = []

    def embed_batches(self, embedder: Embedder, batches: list[list[str]]) -> Iterator[np.ndarray]:
        if not batches:
            return
        self.connect()
        actors = self._embed_actors(self.embedding)
        yield from ordered_window(lambda i: actors[i % len(actors)].embed.remote(batches[i]),
                                  len(batches), IN_FLIGHT_PER_ACTOR * len(actors), self.ray.get)
