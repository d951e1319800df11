"""Inference runtimes for ONNX embedding models: OpenVINO first, onnxruntime as fallback.

Both run the *same* ONNX file; only the engine differs. On the Xeon this was measured on
(AMX/AVX-512 bf16), OpenVINO embeds docs chunks at 2.4× onnxruntime's rate with half its
memory, and short queries as fast or faster, with vectors that agree at min cosine ≥ 0.999
and the same SciFact scores (docs/embeddings.md). Because the vectors agree, the runtime
is *not* part of the embedder key: switching runtime re-embeds nothing.

A runner only turns feeds (token ids, attention mask) into the model's last hidden state;
tokenization, pooling and batching stay in the embedder.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import logging
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Protocol

import numpy as np

from athena_lab.errors import RuntimeUnavailable
from athena_lab.settings import EMBEDDING_RUNTIMES as RUNTIMES

Feeds = dict[str, np.ndarray]
_log = logging.getLogger(__name__)


@dataclass
class RuntimeInfo:
    """Which engine runs the model, how, and why it was chosen — what `athena doctor` shows."""

    name: str  # "openvino" | "onnxruntime"
    version: str
    precision: str  # "bf16" | "f32": the precision batches are computed in
    threads: int
    small_inputs: str = ""  # how a query runs when that differs from a batch
    lanes: int = 1  # document batches inferred at once, each on threads / lanes threads
    reason: str = ""
    fallback: str = ""  # what failed before this runtime was used ("" when nothing did)

    def describe(self) -> str:
        small = f"; queries {self.small_inputs}" if self.small_inputs else ""
        lanes = f" as {self.lanes} batches at once" if self.lanes > 1 else ""
        text = (f"{self.name} {self.version} ({self.precision}, {self.threads} "
                f"thread{'s' if self.threads != 1 else ''}{lanes}{small}): {self.reason}")
        return text + (f" — {self.fallback}" if self.fallback else "")

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__, summary=self.describe())


class Runner(Protocol):
    info: RuntimeInfo
    input_names: set[str]

    def infer(self, feeds: Feeds, query: bool = False) -> np.ndarray:
        """The last hidden state for one batch. Thread-safe for document batches when
        ``info.lanes`` > 1 (up to that many run at once); otherwise the embedder holds a lock.

        ``query``: the batch is one search query, which may run differently from documents."""

    def close(self) -> None:
        """Release the compiled models (the runner is not used after this)."""


def usable_cores() -> int:
    """Cores this process may run on (a container's CPU set, not the host's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "?"


def _probe(runner: Runner) -> None:
    """A tiny real inference: a runtime that imports but cannot run this model is refused here."""
    ids = np.array([[1, 2, 3]], dtype=np.int64)  # in range for any vocabulary; meaning is not tested
    feeds: Feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
    if "token_type_ids" in runner.input_names:
        feeds["token_type_ids"] = np.zeros_like(ids)
    hidden = np.asarray(runner.infer(feeds, query=True))
    if hidden.ndim != 3 or hidden.shape[:2] != (1, 3) or not np.isfinite(hidden).all():
        raise RuntimeUnavailable(f"{runner.info.name} returned an unusable output {hidden.shape} for a probe")


class OnnxRuntimeRunner:
    """onnxruntime on the CPU: the portable fallback that runs everywhere."""

    def __init__(self, model_path: Path, threads: int) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.log_severity_level = 3
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL  # one linear graph: no inter-op gain
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # Spinning workers burn a core while waiting for work. On a shared or busy machine that
        # doubled the CPU time of a query (docs/embeddings.md); off, they sleep between ops.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.add_session_config_entry("session.inter_op.allow_spinning", "0")
        self._session = ort.InferenceSession(str(model_path), options,
                                             providers=["CPUExecutionProvider"])
        self.input_names = {i.name for i in self._session.get_inputs()}
        self.info = RuntimeInfo("onnxruntime", ort.__version__, "f32", threads)

    def infer(self, feeds: Feeds, query: bool = False) -> np.ndarray:
        return self._session.run(None, feeds)[0]

    def close(self) -> None:
        pass


def openvino_cache_dir() -> Path | None:
    """Where compiled models are kept between processes (a user cache, never the indexed folder).

    A cache hit cuts model start-up from ~0.6 s to ~0.15 s; without a writable cache the
    model simply compiles every time.
    """
    base = os.environ.get("XDG_CACHE_HOME") or (
        os.environ.get("LOCALAPPDATA") if sys.platform == "win32" else None)
    try:
        path = (Path(base) if base else Path.home() / ".cache") / "athena-lab" / "openvino"
        path.mkdir(parents=True, exist_ok=True)
    except (OSError, RuntimeError):  # no home directory, read-only file system
        return None
    return path if os.access(path, os.W_OK) else None


@dataclass(frozen=True)
class Plan:
    """One way ``OpenVinoRunner`` compiles the model: its threads, its precision, and whether
    its threads are left unpinned (several lanes pinned one thread each shared one core)."""

    threads: int
    precision: str  # "bf16" | "f32"
    unpinned: bool


def _config(plan: Plan) -> dict[Any, Any]:
    import openvino as ov
    import openvino.properties as props
    import openvino.properties.hint as hints

    config = {hints.performance_mode: hints.PerformanceMode.LATENCY,
              hints.inference_precision: ov.Type.bf16 if plan.precision == "bf16" else ov.Type.f32,
              props.num_streams: 1, props.inference_num_threads: plan.threads}
    if plan.unpinned:
        # A model on one thread pins it to a core, the same one for every lane: two lanes
        # then took turns on one core (100 % CPU for two batches at once, not 200 %).
        config[hints.enable_cpu_pinning] = False
    if plan.precision == "bf16":
        config[hints.dynamic_quantization_group_size] = DOCUMENT_QUANT_GROUP
    return config


#: How long a child may take to compile the model into the cache before this process
#: compiles it itself (a cold compile takes about a second).
FILL_TIMEOUT = 300.0

#: What the child runs: ``fill_cache_here`` with the arguments ``fill_cache_apart`` gives it,
#: this package found last if it came from a folder the child would not search (appended, so
#: nothing of the standard library is ever shadowed).
FILL_CHILD = ("import json, sys\n"
              "if sys.argv[4] not in sys.path:\n"
              "    sys.path.append(sys.argv[4])\n"
              "from athena_lab.index.runtimes import Plan, fill_cache_here\n"
              "fill_cache_here(sys.argv[1], sys.argv[2], [Plan(**p) for p in json.loads(sys.argv[3])])\n")


def fill_cache_apart(model_path: str, cache_dir: Path, plans: list[Plan], device: str) -> bool:
    """Compile the model as each of ``plans`` says into OpenVINO's cache in one child
    process, once per model file, OpenVINO version, CPU (``device``, the name OpenVINO keys
    its blobs on) and set of plans, so that this process only loads compiled blobs.

    A process that compiles an ONNX file itself keeps what the compile brought in (OpenVINO's
    ONNX frontend, the transformations' memory) for the rest of its life: papers-we-love's
    first index on a fresh install peaked at 749 and 777 MB against 566 MB once the cache
    was filled, over the 700 MB goal (docs/benchmarks.md); the embedder alone on 400 archive
    chunks, 628 against 457 MB. Compiling twice in this process did not give it back.

    The child works in a folder of its own, seeded with copies of the cache's blobs (so a
    blob that already serves this plan is used, not compiled again), and a new blob is moved
    into the cache with ``os.replace``: OpenVINO writes a blob in place, truncating the
    file, and another process that has the old one mapped (a server beside an index run,
    both started on a cold cache) would die of SIGBUS. Returns whether the cache is filled;
    when the child cannot run, fails or leaves no blob, this process compiles the model
    itself, as it always did."""
    import openvino as ov

    if not sys.executable or getattr(sys, "frozen", False):
        return False  # no interpreter to run (an embedded or frozen application)
    try:
        stat = Path(model_path).stat()
        key = json.dumps([os.path.abspath(model_path), stat.st_size, stat.st_mtime_ns, ov.get_version(), device,
                          [asdict(p) for p in plans], DOCUMENT_QUANT_GROUP])
        marker = cache_dir / f"athena-filled-{hashlib.sha256(key.encode()).hexdigest()[:20]}"
        if marker.exists():
            return True
        cache_dir = Path(os.path.abspath(cache_dir))  # the child runs in another folder
        _drop_stale_fills(cache_dir)
        with tempfile.TemporaryDirectory(prefix=".filling-", dir=cache_dir) as folder:
            own = Path(os.path.abspath(folder))
            seeds = {}
            for blob in cache_dir.glob("*.blob"):
                shutil.copyfile(blob, own / blob.name)
                seeds[blob.name] = _stamp(own / blob.name)
            if not _compile_in_child(os.path.abspath(model_path), own, plans):
                return False
            _install_blobs(own, cache_dir, seeds)
        marker.touch()
    except (OSError, ValueError) as exc:
        _log.debug("the OpenVINO compile child could not fill the cache: %s", exc)
        return False
    return True


def _device_name(core: Any) -> str:
    """The CPU's name, which OpenVINO keys its blobs on; "" when the plugin cannot say (the
    marker is then keyed without it: the fill stays optional, never a reason to refuse OpenVINO)."""
    try:
        return str(core.get_property("CPU", "FULL_DEVICE_NAME"))
    except Exception:  # noqa: BLE001 - engines raise their own types
        return ""


def _compile_in_child(model_path: str, own: Path, plans: list[Plan]) -> bool:
    """Run ``FILL_CHILD`` in ``own`` (its working folder too: ``python -c`` imports from its
    working folder first, and the user's may hold a ``json.py``); whether it left a blob."""
    here = str(Path(__file__).resolve().parents[2])
    try:
        done = subprocess.run([sys.executable, "-c", FILL_CHILD, model_path, str(own),
                               json.dumps([asdict(p) for p in plans]), here],
                              cwd=own, stdin=subprocess.DEVNULL, capture_output=True, timeout=FILL_TIMEOUT,
                              check=False)
    except subprocess.SubprocessError as exc:  # the timeout: the child is killed
        stderr = getattr(exc, "stderr", None) or b""
        _log.debug("the OpenVINO compile child did not finish: %s %s", exc, stderr.decode("utf-8", "replace")[-2000:])
        return False
    if done.returncode != 0 or not any(own.glob("*.blob")):
        _log.debug("the OpenVINO compile child failed (exit %s): %s", done.returncode,
                   done.stderr.decode("utf-8", "replace")[-2000:])
        return False
    return True


def _stamp(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return stat.st_size, stat.st_mtime_ns


def _install_blobs(own: Path, cache_dir: Path, seeds: dict[str, tuple[int, int]]) -> None:
    """Move the blobs the child wrote or rewrote into the cache, each by an atomic rename.
    A seed it only read stays out: the cache's own copy may be mapped (and on Windows cannot
    be replaced), or newer, put there by another process meanwhile."""
    for blob in own.glob("*.blob"):
        if seeds.get(blob.name) != _stamp(blob):
            os.replace(blob, cache_dir / blob.name)


def _drop_stale_fills(cache_dir: Path) -> None:
    """Remove the folders of fills whose process was killed before it could (a blob's worth each)."""
    for folder in cache_dir.glob(".filling-*"):
        try:
            if time.time() - folder.stat().st_mtime > 2 * FILL_TIMEOUT:
                shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            pass


def fill_cache_here(model_path: str, cache_dir: str, plans: list[Plan]) -> None:
    """The child of ``fill_cache_apart``: compile the model as each of ``plans`` says, the cache set."""
    import openvino as ov
    import openvino.properties as props

    core = ov.Core()
    core.set_property({props.cache_dir: cache_dir})
    for plan in plans:
        core.compile_model(model_path, "CPU", _config(plan))


class OpenVinoRunner:
    """OpenVINO compiling the same ONNX file for the CPU: for queries and for documents.

    A query (one text of a few tokens) is too little work to share between threads, and on
    a busy machine waiting for a second thread cost more than it saved; in bf16 the
    conversions cost more than they save too. So with ``precision = "auto"`` queries run in
    f32 on one thread (p50 3.7 ms against 5.9 ms in bf16) and documents in bf16 on
    ``threads`` (2.4x onnxruntime's chunks/s, f32 1.9x); docs/embeddings.md. Documents
    always take the document model, so a vector never depends on how texts were batched.
    That model is compiled on first use, so a search process never holds it (on a cold cache
    the child of ``fill_cache_apart`` compiles it once, beside the process).

    ``lanes`` (0: two where documents run in bf16, one in f32; ``LANES``, ``F32_LANES``) > 1:
    the document model is compiled that many times, each copy on
    ``threads // lanes`` threads, and ``infer`` is thread-safe for documents: callers on
    as many Python threads run that many batches at once (OpenVINO releases the GIL while
    it infers; ingest/vectors.py ``embed_here``). A copy on one thread embeds more texts per
    CPU-second than one on two, which wait on each other (docs/embeddings.md). Two streams
    through ``AsyncInferQueue`` were tried instead: no faster here, and the process
    intermittently aborted at exit while tearing them down; these are plain synchronous
    requests, released by ``close`` (also at exit, before the interpreter tears down).
    """

    def __init__(self, model_path: Path, threads: int, precision: str = "auto",
                 cache_dir: Path | None = None, lanes: int = 1) -> None:
        import openvino as ov
        import openvino.properties as props

        core = ov.Core()
        batch_precision = precision
        if precision == "auto":
            capabilities = core.get_property("CPU", props.device.capabilities())
            batch_precision = "bf16" if "BF16" in capabilities else "f32"
        lanes = max(1, min(lanes or (LANES if batch_precision == "bf16" else F32_LANES), threads))
        self._core, self._path, self._threads = core, str(model_path), threads
        self._batch_precision, self._lanes = batch_precision, lanes
        self._small_precision = "f32" if precision == "auto" else precision
        self._same = lanes == 1 and threads == 1 and batch_precision == self._small_precision
        if cache_dir is not None:
            core.set_property({props.cache_dir: str(cache_dir)})
            # both plans now, in one child: the document model is still compiled here only on first use
            plans = [self._plan(1, self._small_precision), self._plan(threads // lanes, batch_precision)]
            fill_cache_apart(self._path, cache_dir, list(dict.fromkeys(plans)), _device_name(core))
        self._small: tuple[Any, Any] | None = self._compile(1, self._small_precision)
        self._free: queue.Queue[tuple[Any, Any]] | None = None  # document lanes not inferring now
        self._compiling = threading.Lock()
        self.input_names = {name for i in self._small[0].inputs for name in i.get_names()}
        self.info = RuntimeInfo("openvino", ov.get_version().split("-")[0], batch_precision, threads,
                                small_inputs="" if self._same else f"{self._small_precision} on 1 thread",
                                lanes=lanes)
        _OPEN.add(self)

    def _plan(self, threads: int, precision: str) -> Plan:
        """How this runner compiles the model on ``threads`` in ``precision``: the one place
        both the compile child and ``_compile`` take it from, so the child fills what is loaded."""
        return Plan(threads, precision, self._lanes > 1)

    def _compile(self, threads: int, precision: str) -> tuple[Any, Any]:
        # From the path, not a read ov.Model, so a cache hit skips ONNX parsing too. Input
        # shapes stay dynamic: every batch has its own padded length.
        compiled = self._core.compile_model(self._path, "CPU", _config(self._plan(threads, precision)))
        return compiled, compiled.create_infer_request()

    def _documents(self) -> queue.Queue[tuple[Any, Any]]:
        with self._compiling:
            if self._free is None:
                free: queue.Queue[tuple[Any, Any]] = queue.Queue()
                for _ in range(self._lanes):
                    free.put(self._small if self._same and self._small is not None else
                             self._compile(self._threads // self._lanes, self._batch_precision))
                self._free = free
                _OPEN.add(self)  # again, if used after ``close``
            return self._free

    def infer(self, feeds: Feeds, query: bool = False) -> np.ndarray:
        if query:
            assert self._small is not None, "the runner was closed"
            return self._small[1].infer(feeds)[0]
        free = self._documents()
        lane = free.get()
        try:
            rows = next(iter(feeds.values())).shape[0]
            return lane[1].infer(pad_rows(feeds))[0][:rows]
        finally:
            free.put(lane)

    def close(self) -> None:
        """Drop the infer requests and compiled models now, in this thread, rather than at
        interpreter shutdown: waits for the document batches in flight."""
        with self._compiling:
            free, self._free = self._free, None
        lanes = [free.get() for _ in range(self._lanes)] if free is not None else []
        lanes.clear()
        self._small = None
        _OPEN.discard(self)


_OPEN: weakref.WeakSet[OpenVinoRunner] = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    for runner in list(_OPEN):
        runner.close()


#: OpenVINO quantizes a bf16 batch's activations to int8, per group of this many values, for
#: the model's int8 weights. Larger groups spend less on scales than its default, 32:
#: 64 embeds papers-we-love's chunks 12 % faster per CPU-second with vectors at
#: min cosine 0.9992 to onnxruntime f32 (32: 0.9996), inside the 0.999 the embedder key
#: allows; 128 is 21 % faster but falls to 0.9987 (docs/embeddings.md).
DOCUMENT_QUANT_GROUP = 64

#: Document batches reach OpenVINO with a multiple of this many rows.
ROWS_TO = 8


def pad_rows(feeds: Feeds) -> Feeds:
    """``feeds`` with their row count rounded up to a multiple of ``ROWS_TO`` by repeating
    the first row (whose output is dropped).

    OpenVINO keeps about 3.5 MB for every input shape it has run. Batches of any size
    from 1 to 16 at eight padded widths are 128 shapes: measured in isolation, 88 such
    shapes took a process from 185 to 490 MB and still climbing, where 24 shapes (8, 16 or
    32 rows) stayed at 356 MB; in the 4× papers-we-love run this was most of the
    indexer's growth outside the vector graph (docs/benchmarks.md). The pipeline already
    sends groups of multiples of 8 texts (ingest/vectors.py ``embed_groups``), so the
    repeated rows are only a window's last few.
    """
    rows = next(iter(feeds.values())).shape[0]
    extra = -rows % ROWS_TO
    if not extra:
        return feeds
    return {name: np.concatenate([array, np.repeat(array[:1], extra, axis=0)]) for name, array in feeds.items()}


#: Document batches OpenVINO runs at once when it has at least as many threads (``OpenVinoRunner``).
LANES = 2
#: The same where documents run in f32 (a CPU without bf16). There a second lane cost 230 MB
#: (each f32 copy of the model holds its weights unpacked) and gained 1-2 % (AMD EPYC Zen 2,
#: AVX2, 2 cores: 13.5 and 12.6 texts/s against 13.3 and 12.4 on 400 archive chunks,
#: peak 620 MB against 387 MB; docs/embeddings.md), so one lane gets every thread.
F32_LANES = 1


def load_runner(model_path: Path, runtime: str = "auto", precision: str = "auto",
                threads: int = 0, lanes: int = 0) -> Runner:
    """The runner for ``runtime``; ``auto`` tries OpenVINO and falls back to onnxruntime.

    Each candidate must pass a tiny real inference before it is used, so "installed but
    broken on this CPU" falls back too. An explicitly requested runtime never falls back:
    its failure is the error. ``lanes``: OpenVINO's document lanes (0: ``LANES`` where
    documents run in bf16, ``F32_LANES`` where they run in f32).
    """
    threads = threads or usable_cores()
    if runtime not in RUNTIMES:
        raise RuntimeUnavailable(f"unknown embedding runtime {runtime!r}; use one of: {', '.join(RUNTIMES)}")
    if runtime == "onnxruntime":
        runner: Runner = _checked(lambda: OnnxRuntimeRunner(model_path, threads), "onnxruntime")
        runner.info.reason = "set by embedding.runtime"
        return runner
    try:
        runner = _checked(lambda: OpenVinoRunner(model_path, threads, precision,
                                                 openvino_cache_dir(), lanes), "openvino")
    except RuntimeUnavailable as exc:
        if runtime == "openvino":
            raise
        fallback = _checked(lambda: OnnxRuntimeRunner(model_path, threads), "onnxruntime")
        fallback.info.reason = "fallback of embedding.runtime = auto"
        fallback.info.fallback = str(exc)
        return fallback
    runner.info.reason = ("set by embedding.runtime" if runtime == "openvino" else
                          "fastest measured (embedding.runtime = auto); onnxruntime is the fallback")
    return runner


def _checked(build: Callable[[], Runner], name: str) -> Runner:
    try:
        runner = build()
        _probe(runner)
    except ImportError as exc:
        if exc.name is not None and exc.name.split(".")[0] == name:
            raise RuntimeUnavailable(f"{name} is not installed (pip install {name})") from None
        raise RuntimeUnavailable(f"{name} cannot be imported: {exc}") from exc
    except RuntimeUnavailable:
        raise
    except Exception as exc:  # engines raise their own types; all of them mean "cannot run"
        raise RuntimeUnavailable(f"{name} {_version(name)} cannot run the model: "
                            f"{type(exc).__name__}: {str(exc).strip()[:300]}") from exc
    return runner
