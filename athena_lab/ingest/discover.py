"""Find the files to index: include/exclude globs, .gitignore files, symlink safety.

Excluded folders are pruned while walking so a big node_modules costs nothing; every file
skipped for a reason the user may not expect (symlink out of the folder, loop, too big)
is reported rather than silently dropped.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

from athena_lab.config import IndexSettings

_KIND_BY_SUFFIX = {
    ".md": "markdown", ".markdown": "markdown", ".mdx": "markdown",
    ".rst": "rst", ".adoc": "asciidoc", ".asciidoc": "asciidoc",
    ".txt": "text", ".html": "html", ".htm": "html",
    ".ipynb": "notebook", ".pdf": "pdf",
}
_NEGOTIATED_HTML = re.compile(r"\.html?\.[a-z]{2}(?:-[a-z]{2,})?(?:\.[\w-]+)?$", re.IGNORECASE)


@dataclass(frozen=True)
class DiscoveredFile:
    path: str  # POSIX, relative to the root
    abs_path: Path
    doc_kind: str
    size: int
    mtime_ns: int


@dataclass
class Discovery:
    files: list[DiscoveredFile] = field(default_factory=list)
    warnings: dict[str, str] = field(default_factory=dict)  # path → why it was skipped


def doc_kind_for(name: str) -> str:
    """The parser kind for a file name; files with no extension are plain text."""
    lower = name.lower()
    if _NEGOTIATED_HTML.search(lower):
        return "html"
    suffix = os.path.splitext(lower)[1]
    if suffix in _KIND_BY_SUFFIX:
        return _KIND_BY_SUFFIX[suffix]
    return "text"


def discover(root: Path, settings: IndexSettings, index_dir: Path | None = None) -> Discovery:
    """Walk ``root`` and return the files to index, sorted by path."""
    include = pathspec.PathSpec.from_lines("gitignore", settings.include + settings.extra_include)
    exclude = pathspec.PathSpec.from_lines("gitignore", settings.exclude + settings.extra_exclude)
    max_bytes = int(settings.max_file_mb * 1024 * 1024)
    result = Discovery()
    root = root.resolve()
    skip_dir = index_dir.resolve() if index_dir else None
    seen_dirs: set[tuple[int, int]] = set()
    ignores: list[tuple[str, pathspec.PathSpec]] = []  # (dir prefix, its .gitignore)

    def ignored(rel: str, is_dir: bool) -> bool:
        probe = rel + "/" if is_dir else rel
        if exclude.match_file(probe):
            return True
        for prefix, spec in ignores:
            if (not prefix or rel.startswith(prefix)) and spec.match_file(probe[len(prefix):]):
                return True
        return False

    def walk(dir_abs: Path, dir_rel: str) -> None:
        try:
            st = dir_abs.stat()
        except OSError as exc:
            result.warnings[dir_rel or "."] = f"folder not readable: {exc.strerror}"
            return
        key = (st.st_dev, st.st_ino)
        if key in seen_dirs:
            result.warnings[dir_rel] = "skipped: symlink loop (this folder was already visited)"
            return
        seen_dirs.add(key)
        prefix = f"{dir_rel}/" if dir_rel else ""
        if settings.respect_gitignore:
            gi = dir_abs / ".gitignore"
            if gi.is_file():
                try:
                    lines = gi.read_text(encoding="utf-8", errors="replace").splitlines()
                    ignores.append((prefix, pathspec.GitIgnoreSpec.from_lines(lines)))
                except OSError:
                    result.warnings[prefix + ".gitignore"] = "not readable; its rules were not applied"
        try:
            entries = sorted(os.scandir(dir_abs), key=lambda e: e.name)
        except OSError as exc:
            result.warnings[dir_rel or "."] = f"folder not readable: {exc.strerror}"
            return
        for entry in entries:
            rel = prefix + entry.name
            entry_abs = Path(entry.path)
            is_link = entry.is_symlink()
            if is_link:
                if not settings.follow_symlinks:
                    continue
                try:
                    target = entry_abs.resolve(strict=True)
                except (OSError, RuntimeError):
                    result.warnings[rel] = "skipped: broken or looping symlink"
                    continue
                if target != root and root not in target.parents:
                    result.warnings[rel] = "skipped: symlink points outside the indexed folder"
                    continue
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                if skip_dir is not None and entry_abs.resolve() == skip_dir:
                    continue
                if not ignored(rel, True):
                    walk(entry_abs, rel)
                continue
            if ignored(rel, False) or not include.match_file(rel):
                continue
            try:
                st = entry_abs.stat()
            except OSError as exc:
                result.warnings[rel] = f"not readable: {exc.strerror}"
                continue
            if not stat.S_ISREG(st.st_mode):
                continue
            if st.st_size > max_bytes:
                result.warnings[rel] = (
                    f"skipped: {st.st_size / 1e6:.0f} MB is over the {settings.max_file_mb:g} MB limit "
                    "(raise index.max_file_mb in athena.toml to index it)")
                continue
            result.files.append(DiscoveredFile(rel, entry_abs, doc_kind_for(entry.name),
                                               st.st_size, st.st_mtime_ns))

    walk(root, "")
    result.files.sort(key=lambda f: f.path)
    return result
