"""Embedding runtimes on the real MiniLM model: OpenVINO and onnxruntime run the same ONNX
file, their vectors agree, the cache key ignores the runtime, and doctor says which runs."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

from athena_lab import cli
from athena_lab.config import load_config
from athena_lab.errors import ConfigError, EmbedderError
from athena_lab.settings import EmbeddingSettings
from athena_lab.index.embeddings import make_embedder, minilm_paths, OnnxEmbedder
from athena_lab.ingest.chunking import chunk_document
from athena_lab.ingest.parsers import rst
from athena_lab.workspace import Workspace
from corpus_files import FLASK_DOCS, copy_flask_subset

pytestmark = pytest.mark.slow

# The key of the default embedder before runtimes were pluggable: indexes built then must
# keep their cached vectors whatever runtime now runs the model.
MINILM_KEY = "45cbf99f3340"


def _real_chunks(n: int = 6) -> list[str]:
    texts = []
    for page in ("blueprints.rst", "config.rst"):
        doc = rst.parse((FLASK_DOCS / page).read_text(encoding="utf-8"), page)
        texts += [c.embedding_text(doc.title) for c in chunk_document(doc)]
    return texts[:n]


def _hide_openvino(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a platform without OpenVINO wheels: ``import openvino`` fails."""
    for name in [m for m in sys.modules if m == "openvino" or m.startswith("openvino.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "openvino", None)


def test_openvino_and_onnxruntime_vectors_agree_on_real_text() -> None:
    pytest.importorskip("openvino")
    texts = _real_chunks(48)  # chunks of many lengths, so of several padded widths
    ort = make_embedder(EmbeddingSettings(runtime="onnxruntime"))
    reference = ort.embed_documents(texts)
    for precision in ("auto", "bf16"):  # auto: bf16 batches where the CPU has it, f32 queries
        ov = make_embedder(EmbeddingSettings(runtime="openvino", precision=precision))
        assert ov.runtime.name == "openvino"
        assert ov.key == ort.key == MINILM_KEY
        cosines = (ov.embed_documents(texts) * reference).sum(axis=1)
        assert cosines.min() >= 0.999, (precision, cosines.min())
        query = "how do I register a blueprint"
        assert float(ov.embed_query(query) @ ort.embed_query(query)) >= 0.999


def test_bf16_document_batches_quantize_activations_in_groups_of_64() -> None:
    """The speed of indexing rests on this engine setting (docs/embeddings.md): a newer
    OpenVINO that dropped or renamed it would make every index slower without a word."""
    pytest.importorskip("openvino")
    from athena_lab.index.runtimes import DOCUMENT_QUANT_GROUP, OpenVinoRunner

    model, _ = minilm_paths()
    runner = OpenVinoRunner(model, threads=2, precision="bf16", lanes=2)
    lanes = runner._documents()
    lane = lanes.get()
    try:
        group = int(lane[0].get_property("DYNAMIC_QUANTIZATION_GROUP_SIZE"))
    finally:
        lanes.put(lane)  # close() waits for every lane to be back
        runner.close()
    assert group == DOCUMENT_QUANT_GROUP == 64


_FRESH_PROCESS = """
import json
from athena_lab.index.embeddings import make_embedder
from athena_lab.settings import EmbeddingSettings
embedder = make_embedder(EmbeddingSettings(runtime="openvino", precision="bf16"))
vectors = embedder.embed_documents(["a relational model of data", "consistent hashing"] * 4)
lanes = embedder._runner._documents()
lane = lanes.get()
group = int(lane[0].get_property("DYNAMIC_QUANTIZATION_GROUP_SIZE"))
lanes.put(lane)
maps = open("/proc/self/maps").read()
print(json.dumps({"onnx_frontend": "onnx_frontend" in maps, "group": group, "norm": float(vectors[0] @ vectors[0])}))
"""


def _fresh_process(cache: Path, where: Path) -> dict[str, object]:
    import subprocess

    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run([sys.executable, "-c", _FRESH_PROCESS], env=env, cwd=where, capture_output=True,
                          text=True, timeout=600, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.integration  # a fresh Python process each time, as a first index on a fresh install
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/maps")
@pytest.mark.parametrize("cache", ["absolute", "relative"])
def test_a_cold_compile_cache_is_filled_by_a_child_so_the_indexer_never_compiles_onnx(cache: str, tmp_path: Path) -> None:
    """A process that compiled the ONNX file itself held ~180-210 MB more all its life: the
    first index of papers-we-love on a fresh install peaked over the 700 MB goal. Filled by
    a child, the cache gives this process compiled blobs only, with the bf16 lanes' settings
    (also from an XDG_CACHE_HOME relative to where athena runs: the child runs elsewhere)."""
    pytest.importorskip("openvino")
    home = tmp_path / "cache" if cache == "absolute" else Path("cache")
    folder = tmp_path / "cache" / "athena-lab" / "openvino"
    first = _fresh_process(home, tmp_path)
    filled = sorted(p.name for p in folder.iterdir())
    assert first == {"onnx_frontend": False, "group": 64, "norm": pytest.approx(1.0, abs=1e-3)}
    assert any(name.startswith("athena-filled-") for name in filled) and any(n.endswith(".blob") for n in filled)
    assert not any(name.startswith(".filling-") for name in filled)
    again = _fresh_process(home, tmp_path)  # the marker is found: no second child, nothing new compiled
    assert again == first
    assert sorted(p.name for p in folder.iterdir()) == filled


@pytest.mark.integration  # starts the compile child on purpose
@pytest.mark.parametrize("how", ["too slow", "fails"])
def test_when_the_child_cannot_fill_the_cache_this_process_compiles_as_before(
        how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("openvino")
    import subprocess

    from athena_lab.index import runtimes

    started: list[list[str]] = []
    run = subprocess.run

    def spy(argv: list[str], **kwargs: object) -> subprocess.CompletedProcess[bytes]:
        started.append(argv)
        return run(argv, **kwargs)  # type: ignore[call-overload,no-any-return]

    monkeypatch.setattr(runtimes.subprocess, "run", spy)
    if how == "too slow":
        monkeypatch.setattr(runtimes, "FILL_TIMEOUT", 0.0)  # stopped before it compiles
    else:
        monkeypatch.setattr(sys, "executable", "/bin/false")  # exits 1 at once
    model, _ = minilm_paths()
    runner = runtimes.OpenVinoRunner(model, threads=2, precision="bf16", cache_dir=tmp_path, lanes=2)
    try:
        ids = np.array([[101, 7592, 2088, 102]], dtype=np.int64)
        hidden = runner.infer({"input_ids": ids, "attention_mask": np.ones_like(ids),
                               "token_type_ids": np.zeros_like(ids)})
    finally:
        runner.close()
    assert started and all(argv[1:3] == ["-c", runtimes.FILL_CHILD] for argv in started)
    assert hidden.shape[:2] == (1, 4) and np.isfinite(hidden).all()
    assert not any(p.name.startswith(("athena-filled-", ".filling-")) for p in tmp_path.iterdir())


def test_forced_onnxruntime_runs_and_says_so() -> None:
    embedder = make_embedder(EmbeddingSettings(runtime="onnxruntime"))
    assert embedder.runtime.name == "onnxruntime" and embedder.runtime.precision == "f32"
    assert "set by embedding.runtime" in embedder.runtime.describe()
    docs = embedder.embed_documents(["Register a blueprint on the application",
                                     "The recipe needs two eggs and flour"])
    assert np.allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-4)
    query = embedder.embed_query("add a blueprint to my app")
    assert float(docs[0] @ query) > float(docs[1] @ query) + 0.2


def test_an_invalid_runtime_is_a_config_error_naming_the_key(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"embedding\.runtime = 'tensorrt' is not allowed; "
                                          r"use one of: auto, openvino, onnxruntime"):
        load_config(tmp_path, overrides={"embedding.runtime": "tensorrt"})
    (tmp_path / "athena.toml").write_text('[embedding]\nprecision = "fp8"\n')
    with pytest.raises(ConfigError, match=r"athena\.toml: embedding\.precision = 'fp8' is not allowed"):
        load_config(tmp_path)
    (tmp_path / "sub").mkdir()
    with pytest.raises(ConfigError, match=r"environment: embedding\.runtime = 'gpu'"):
        load_config(tmp_path / "sub", env={"ATHENA_EMBEDDING__RUNTIME": "gpu"})


def test_auto_falls_back_to_onnxruntime_and_says_what_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    _hide_openvino(monkeypatch)
    model, tokenizer = minilm_paths()
    embedder = OnnxEmbedder(model, tokenizer, name="all-MiniLM-L6-v2-int8", dimensions=384)
    assert embedder.runtime.name == "onnxruntime"
    assert embedder.runtime.fallback == "openvino is not installed (pip install openvino)"
    assert "fallback" in embedder.runtime.describe() and embedder.key == MINILM_KEY
    assert embedder.embed_query("blueprints").shape == (384,)
    with pytest.raises(EmbedderError, match="openvino is not installed"):
        OnnxEmbedder(model, tokenizer, name="x", dimensions=384, runtime="openvino")


def test_switching_runtime_reembeds_nothing(tmp_path: Path) -> None:
    pytest.importorskip("openvino")
    root = copy_flask_subset(tmp_path / "docs", ["blueprints.rst"])
    (root / "recipes.md").write_text("# Pancakes\n\nWhisk two eggs with flour and milk, then fry.\n")
    first = Workspace(root, overrides={"embedding.runtime": "onnxruntime"})
    summary = first.index()
    assert summary.embedded > 0 and first.embedder().runtime.name == "onnxruntime"
    first.close()
    second = Workspace(root, overrides={"embedding.runtime": "openvino"})
    again = second.index()
    assert (again.embedded, again.embedded_from_cache) == (0, 0)
    assert second.embedder().runtime.name == "openvino"
    hits = second.search("attach a group of views to an app", mode="vector", k=3).hits
    assert hits and hits[0].chunk.path == "blueprints.rst" and "vector" in hits[0].ranks
    second.close()


def test_doctor_reports_the_runtime_in_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    report = Workspace(tmp_path, overrides={"embedding.runtime": "onnxruntime"}).doctor()
    check = next(c for c in report.checks if c.name == "embedding runtime")
    assert check.ok and not check.warn
    assert check.detail.startswith("onnxruntime ") and "set by embedding.runtime" in check.detail
    assert report.embedding_runtime["name"] == "onnxruntime"

    cli.main(["doctor", "--path", str(tmp_path), "--json"])
    data = json.loads(capsys.readouterr().out)
    runtime = data["embedding_runtime"]
    assert runtime["name"] in ("openvino", "onnxruntime") and runtime["summary"]
    assert any(c["name"] == "embedding runtime" and c["detail"] == runtime["summary"]
               for c in data["checks"])


def test_doctor_warns_when_auto_fell_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _hide_openvino(monkeypatch)
    # batch_size makes these settings new to the per-process embedder cache, so it loads now.
    report = Workspace(tmp_path, overrides={"embedding.batch_size": 15}).doctor()
    check = next(c for c in report.checks if c.name == "embedding runtime")
    assert check.warn and "openvino is not installed" in check.detail and check.fix
    assert report.embedding_runtime["fallback"]
