"""What every embedder shares: its error, the key that names its vectors, file hashes.

Its own module so the providers (``embeddings.py``) and the multilingual-e5 code they load
lazily both import it from below, and neither has to import the other back (no cycle).
"""

from __future__ import annotations

import hashlib
import json
import platform
import sys
from pathlib import Path



def multilingual_missing(package: str) -> str:
    """What to do when the multilingual model's package is missing. It is part of the base
    install wherever its wheel exists (Linux x86-64), so there a missing one means a broken
    install; anywhere else the model is not available at all."""
    if sys.platform == "linux" and platform.machine() in ("x86_64", "AMD64"):
        return (f"the {package} package is missing, although the base install brings it on Linux x86-64: "
                "reinstall athena-lab (pip install --force-reinstall athena-lab)")
    return (f"the {package} package has no wheel for this platform ({sys.platform} {platform.machine()}; "
            "it exists for Linux x86-64 only), so the multilingual model cannot run here: "
            "set multilingual.build = \"off\", or embedding.provider to minilm or onnx")


def embedder_key(*parts: object) -> str:
    """A short stable hash of everything that changes a vector (the cache key's part)."""
    return hashlib.sha1(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:12]


def file_sha256(path: Path) -> str:
    """sha256 of a file read in 1 MiB blocks (model files are too large to read at once)."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


_SHA256_MEMO: dict[tuple[str, int, int], str] = {}


def verified_sha256(path: Path) -> str:
    """sha256 of a file, computed once per (path, size, mtime): model files are large."""
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns)
    if key not in _SHA256_MEMO:
        _SHA256_MEMO[key] = file_sha256(path)
    return _SHA256_MEMO[key]
