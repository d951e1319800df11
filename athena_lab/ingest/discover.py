"""Find the files to index: include/exclude globs, .gitignore files, hidden names, symlink safety.

Excluded folders are pruned while walking so a big node_modules costs nothing; every file
skipped for a reason the user may not expect (symlink out of the folder, loop, too big)
is reported rather than silently dropped.

The rules live in ``IndexRules``, which answers both for the walk and for one path
(``IndexRules.refusal``): the workspace asks it before reading a file that is not yet in
the catalog, so "what a tool or route may read" and "what would be indexed" are one rule
and cannot drift apart. Hidden files and folders (a name starting with '.') are never
indexed nor read: that is where ``.env``, ``.ssh``, ``.git`` and the index itself live.
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
HIDDEN = "it is hidden (a name starting with '.'); hidden files and folders are never indexed or read"
Ignores = list[tuple[str, pathspec.PathSpec]]  # (folder prefix, that folder's .gitignore)


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


def is_hidden(rel: str) -> bool:
    """True when any component of a root-relative POSIX path starts with '.'."""
    return any(part.startswith(".") for part in rel.split("/") if part not in ("", "."))


class IndexRules:
    """Which paths under ``root`` are indexed: include/exclude globs, .gitignore files,
    hidden names, the index folder, symlinks and the size limit."""

    def __init__(self, root: Path, settings: IndexSettings, index_dir: Path | None = None) -> None:
        self.root = Path(root).resolve()
        self.settings = settings
        self.index_dir = Path(index_dir).resolve() if index_dir else None
        self._include = pathspec.PathSpec.from_lines("gitignore", settings.include + settings.extra_include)
        self._exclude = pathspec.PathSpec.from_lines("gitignore", settings.exclude + settings.extra_exclude)
        self.max_bytes = int(settings.max_file_mb * 1024 * 1024)

    # single rules, shared by the walk and by refusal() ---------------------------
    def excluded(self, rel: str, is_dir: bool, ignores: Ignores) -> str | None:
        """Why index.exclude or a .gitignore drops ``rel``, or None."""
        probe = rel + "/" if is_dir else rel
        if self._exclude.match_file(probe):
            return "it is excluded by index.exclude"
        for prefix, spec in ignores:
            if (not prefix or rel.startswith(prefix)) and spec.match_file(probe[len(prefix):]):
                return f"it is ignored by {prefix}.gitignore"
        return None

    def included(self, rel: str) -> bool:
        return bool(self._include.match_file(rel))

    def is_index_dir(self, abs_path: Path) -> bool:
        """True for the index folder and anything inside it (``abs_path`` resolved)."""
        return self.index_dir is not None and (abs_path == self.index_dir or self.index_dir in abs_path.parents)

    def gitignore(self, dir_abs: Path, prefix: str) -> pathspec.PathSpec | None:
        """The folder's .gitignore rules, when gitignore files are respected; raises OSError."""
        if not self.settings.respect_gitignore:
            return None
        gi = dir_abs / ".gitignore"
        if not gi.is_file():
            return None
        return pathspec.GitIgnoreSpec.from_lines(gi.read_text(encoding="utf-8", errors="replace").splitlines())

    def symlink_refusal(self, link: Path) -> str | None:
        """Why a symlink may not be followed: off, broken, out of the folder, hidden or the index."""
        if not self.settings.follow_symlinks:
            return "it is a symlink and index.follow_symlinks is off"
        try:
            target = link.resolve(strict=True)
        except (OSError, RuntimeError):
            return "it is a broken or looping symlink"
        if target != self.root and self.root not in target.parents:
            return "it is a symlink that points outside the indexed folder"
        if is_hidden(target.relative_to(self.root).as_posix()):
            return "it is a symlink to a hidden file or folder"
        if self.is_index_dir(target):
            return "it is a symlink into the index folder"
        return None

    def size_refusal(self, size: int) -> str | None:
        if size > self.max_bytes:
            return (f"it is over the {self.settings.max_file_mb:g} MB limit at {size / 1e6:.0f} MB "
                    "(raise index.max_file_mb in athena.toml to index it)")
        return None

    # one path ------------------------------------------------------------------------
    def refusal(self, rel: str) -> str | None:
        """Why discovery would not index the file at root-relative POSIX ``rel``, or None
        when it would (it need not exist: a missing file is the caller's 404)."""
        if is_hidden(rel):
            return HIDDEN
        parts = rel.split("/")
        ignores: Ignores = []
        dir_abs, prefix = self.root, ""
        for depth, name in enumerate(parts):
            try:
                spec = self.gitignore(dir_abs, prefix)
            except OSError:
                spec = None
            if spec is not None:
                ignores.append((prefix, spec))
            here, entry = prefix + name, dir_abs / name
            last = depth == len(parts) - 1
            if entry.is_symlink():
                why = self.symlink_refusal(entry)
                if why:
                    return why
            if self.is_index_dir(entry.resolve()):
                return "it is inside the index folder"
            why = self.excluded(here, not last, ignores)
            if why:
                return why
            dir_abs, prefix = entry, here + "/"
        if not self.included(rel):
            return "no index.include pattern matches it"
        return None


def discover(root: Path, settings: IndexSettings, index_dir: Path | None = None) -> Discovery:
    """Walk ``root`` and return the files to index, sorted by path."""
    rules = IndexRules(root, settings, index_dir)
    result = Discovery()
    seen_dirs: set[tuple[int, int]] = set()
    ignores: Ignores = []

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
        try:
            spec = rules.gitignore(dir_abs, prefix)
            if spec is not None:
                ignores.append((prefix, spec))
        except OSError:
            result.warnings[prefix + ".gitignore"] = "not readable; its rules were not applied"
        try:
            entries = sorted(os.scandir(dir_abs), key=lambda e: e.name)
        except OSError as exc:
            result.warnings[dir_rel or "."] = f"folder not readable: {exc.strerror}"
            return
        for entry in entries:
            visit(entry, prefix + entry.name)

    def visit(entry: os.DirEntry, rel: str) -> None:
        if entry.name.startswith("."):
            return  # hidden: never indexed (IndexRules.refusal says the same for one path)
        entry_abs = Path(entry.path)
        if entry.is_symlink():
            if not settings.follow_symlinks:
                return
            why = rules.symlink_refusal(entry_abs)
            if why:
                result.warnings[rel] = f"skipped: {why.removeprefix('it is ')}"
                return
        try:
            is_dir = entry.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            if not rules.is_index_dir(entry_abs.resolve()) and not rules.excluded(rel, True, ignores):
                walk(entry_abs, rel)
            return
        if rules.excluded(rel, False, ignores) or not rules.included(rel):
            return
        try:
            st = entry_abs.stat()
        except OSError as exc:
            result.warnings[rel] = f"not readable: {exc.strerror}"
            return
        if not stat.S_ISREG(st.st_mode):
            return
        too_big = rules.size_refusal(st.st_size)
        if too_big:
            result.warnings[rel] = f"skipped: {too_big.removeprefix('it is ')}"
            return
        result.files.append(DiscoveredFile(rel, entry_abs, doc_kind_for(entry.name), st.st_size, st.st_mtime_ns))

    walk(rules.root, "")
    result.files.sort(key=lambda f: f.path)
    return result
