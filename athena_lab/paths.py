"""Paths a user, a model or a web page hands us: the errors they cause and prefix filters.

A leaf module (it imports only the error family) so search, the agent tools and the
workspace share one spelling of "path relative to the indexed folder". Which files may
actually be *read* is decided by ``Workspace.source_path`` with ``ingest.discover.Rules``.
"""

from __future__ import annotations

from athena_lab.errors import PathError

import posixpath



def normalize_prefix(prefix: str | None, field: str = "path_prefix") -> str | None:
    """A path filter in canonical POSIX form (``./docs//a/`` → ``docs/a/``), or None for "all".

    The filter is a string prefix of indexed paths, so ``../`` must be refused rather than
    trimmed into "no filter", and ``.github/`` must stay ``.github/``, not become ``github/``.
    """
    if prefix is None or not prefix.strip():
        return None
    raw = prefix.strip().replace("\\", "/")
    if "\x00" in raw:
        raise PathError(f"{field} {prefix!r}: contains a NUL character")
    if raw.startswith("/") or (len(raw) > 1 and raw[1] == ":"):
        raise PathError(f"{field} {prefix!r}: absolute paths are not allowed; "
                        "give a folder relative to the indexed root, e.g. docs/")
    folder = raw.endswith("/")
    norm = posixpath.normpath(raw)
    if norm == ".." or norm.startswith("../"):
        raise PathError(f"{field} {prefix!r}: '..' leads outside the indexed folder; "
                        "give a folder inside it, e.g. docs/")
    if norm == ".":
        return None
    return norm + "/" if folder else norm
