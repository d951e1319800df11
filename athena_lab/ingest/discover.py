"""Find the files to index: include/exclude globs, .gitignore files, symlink safety.

Excluded folders are pruned while walking so a big node_modules costs nothing; every file
skipped for a reason the user may not expect (symlink out of the folder, loop, too big)
is reported rather than silently dropped. Hidden files and folders (a name starting with
".") are never indexed nor read: that is where ``.env``, ``.ssh``, ``.git`` and the index
live, and how editors and Jupyter name their temporary and lock files (``.~name.ipynb``
during an atomic save, ``.#name.md``).

One set of rules (``Rules``) decides for a whole walk (``discover``), for a few paths
(``discover_paths``, what the live index re-reads after a save), for a file watcher's
events (``Rules.may_matter``) and for one path a tool or route wants to read
(``Rules.refusal``): a live update never indexes what a full run would not, and "what may
be read" and "what would be indexed" cannot drift apart.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

import pathspec

from athena_lab.settings import IndexSettings

_KIND_BY_SUFFIX = {
    ".md": "markdown", ".markdown": "markdown", ".mdx": "markdown",
    ".rst": "rst", ".adoc": "asciidoc", ".asciidoc": "asciidoc",
    ".txt": "text", ".html": "html", ".htm": "html",
    ".ipynb": "notebook", ".pdf": "pdf",
}
_NEGOTIATED_HTML = re.compile(r"\.html?\.[a-z]{2}(?:-[a-z]{2,})?(?:\.[\w-]+)?$", re.IGNORECASE)
GITIGNORE = ".gitignore"
# A Zotero library's database and its journals (ingest/zotero.py): a write there can change
# what the indexed files are cited as, and which of them are in Zotero's trash.
BIBTEX = ".bib"  # a reference manager's export: records for the files its entries link
LIBRARY_DATABASE = ("zotero.sqlite", "zotero.sqlite-journal", "zotero.sqlite-wal")
HIDDEN = "it is hidden (a name starting with '.'); hidden files and folders are never indexed or read"


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
    # Files looked at that index.include/exclude or a .gitignore leave out, by suffix
    # ("" for none): what a folder with nothing to index holds instead.
    passed_over: dict[str, int] = field(default_factory=dict)
    # BibTeX files (not indexed as text): the records of the files their entries link
    # (ingest/bibfile.py).
    bibliographies: list[str] = field(default_factory=list)


def nothing_to_index(root: Path, settings: IndexSettings, found: Discovery) -> str:
    """The warning for a folder in which discovery found no file to index: how many files
    it saw, of which kinds, and which kinds it reads."""
    seen = sum(found.passed_over.values())
    kinds = [pattern.rsplit("/", 1)[-1] for pattern in settings.include + settings.extra_include]
    kinds = [k[1:] if k.startswith("*.") else k for k in dict.fromkeys(kinds)]
    reads = " ".join(kinds[:12]) + (" …" if len(kinds) > 12 else "")
    skipped = f"; {len(found.warnings)} skipped, see the warnings" if found.warnings else ""
    if not seen:
        what = (f"what it found was skipped ({len(found.warnings)}, see the warnings)" if found.warnings
                else "the folder holds no files (hidden ones aside)")
        return f"no indexable files under {root}: {what}; athena reads {reads}"
    common = sorted(found.passed_over.items(), key=lambda kv: (-kv[1], kv[0]))
    shown = ", ".join(f"{n} {suffix or 'without a suffix'}" for suffix, n in common[:4])
    more = ", …" if len(common) > 4 else ""
    return (f"no indexable files under {root}: {seen} file{'s' if seen != 1 else ''} seen ({shown}{more}), "
            f"none of a kind athena reads ({reads}) or not included{skipped}; check index.include, "
            f"index.extra_include and index.exclude in athena.toml, and .gitignore")


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
    """True when any part of a root-relative POSIX path (or a bare name) starts with '.'."""
    return any(part.startswith(".") for part in rel.split("/") if part not in ("", "."))


def in_scope(path: str, scope: Iterable[str]) -> bool:
    """``path`` is one of ``scope`` or lies under one of them ("" is the whole folder)."""
    return any(not s or path == s or path.startswith(s + "/") for s in scope)


def collapse(paths: Iterable[str]) -> list[str]:
    """Sorted, deduplicated, without paths that lie under another one of the set."""
    out: list[str] = []
    for p in sorted({p.strip("/") for p in paths}):
        if not out or not in_scope(p, out[-1:]):
            out.append(p)
    return out


def _relative(path: Path, root: Path) -> str | None:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return None


class Rules:
    """Include/exclude globs and the .gitignore files of one folder, as one decision.

    .gitignore files are read once per folder and kept; ``forget_gitignores`` drops them
    when one changed (the watcher calls it).
    """

    def __init__(self, root: Path, settings: IndexSettings, index_dir: Path | None = None) -> None:
        self.root = root.resolve()
        self.settings = settings
        self.include = pathspec.PathSpec.from_lines("gitignore", settings.include + settings.extra_include)
        self.exclude = pathspec.PathSpec.from_lines("gitignore", settings.exclude + settings.extra_exclude)
        self.max_bytes = int(settings.max_file_mb * 1024 * 1024)
        self.index_dir = index_dir.resolve() if index_dir else None
        # The index folder's path inside the root (None when it lies elsewhere).
        self.index_rel = (_relative(self.index_dir, self.root) or None) if self.index_dir else None
        self._gitignores: dict[str, pathspec.PathSpec | None] = {}  # dir prefix → its spec
        self.unreadable: dict[str, str] = {}  # .gitignore files that could not be read

    def forget_gitignores(self) -> None:
        self._gitignores.clear()

    def _gitignore(self, prefix: str) -> pathspec.PathSpec | None:
        if prefix not in self._gitignores:
            spec = None
            path = self.root / prefix / GITIGNORE
            if self.settings.respect_gitignore and path.is_file():
                try:
                    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
                    spec = pathspec.GitIgnoreSpec.from_lines(lines)
                except OSError:
                    self.unreadable[prefix + GITIGNORE] = "not readable; its rules were not applied"
            self._gitignores[prefix] = spec
        return self._gitignores[prefix]

    def why_ignored(self, rel: str, is_dir: bool) -> str | None:
        """Why a glob or the .gitignore of a folder above ``rel`` excludes it, or None."""
        probe = rel + "/" if is_dir else rel
        if self.exclude.match_file(probe):
            return "it is excluded by index.exclude"
        parts = rel.split("/")
        for depth in range(len(parts)):
            prefix = "".join(p + "/" for p in parts[:depth])
            spec = self._gitignore(prefix)
            if spec is not None and spec.match_file(probe[len(prefix):]):
                return f"it is ignored by {prefix}{GITIGNORE}"
        return None

    def ignored(self, rel: str, is_dir: bool) -> bool:
        return self.why_ignored(rel, is_dir) is not None

    def wants_file(self, rel: str) -> bool:
        """The file name and globs say index it (size, symlinks and readability aside)."""
        return not is_hidden(rel) and self.include.match_file(rel) and not self.ignored(rel, False)

    def is_index_dir(self, abs_path: Path) -> bool:
        """True for the index folder and anything inside it (``abs_path`` resolved)."""
        return self.index_dir is not None and (abs_path == self.index_dir or self.index_dir in abs_path.parents)

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

    def refusal(self, rel: str) -> str | None:
        """Why discovery would not index the file at root-relative POSIX ``rel``, or None
        when it would (it need not exist: a missing file is the caller's 404). Reads the
        .gitignore files afresh, so a long-running server follows edits to them."""
        if is_hidden(rel):
            return HIDDEN
        self.forget_gitignores()
        parts = rel.split("/")
        for depth in range(1, len(parts) + 1):
            here = "/".join(parts[:depth])
            entry = self.root / here
            if entry.is_symlink():
                why = self.symlink_refusal(entry)
                if why:
                    return why
            if self.is_index_dir(entry.resolve()):
                return "it is inside the index folder"
            why = self.why_ignored(here, depth < len(parts))
            if why:
                return why
        if not self.include.match_file(rel):
            return "no index.include pattern matches it"
        return None

    def outside(self, rel: str) -> bool:
        """``rel`` is the index folder, lies in it, or lies in an ignored folder."""
        if self.index_rel is not None and in_scope(rel, [self.index_rel]):
            return True
        parts = rel.split("/")
        return any(self.ignored("/".join(parts[:depth]), True) for depth in range(1, len(parts)))

    def may_matter(self, rel: str, exists_as_dir: bool | None) -> bool:
        """Could a change at ``rel`` change the index? For a file watcher's events.

        A deleted path may have been a folder of indexed files, so it matters unless its
        name or an ignore rule rules it out; a changed .gitignore always matters.
        """
        if not rel or rel == "." or self.outside(rel):
            return False
        name = rel.rsplit("/", 1)[-1]
        if name == GITIGNORE or rel in LIBRARY_DATABASE:
            return True
        if name.lower().endswith(BIBTEX) and not is_hidden(rel):
            return not self.ignored(rel, False)
        if is_hidden(rel):
            return False
        if exists_as_dir is None:  # gone: a file or a folder
            return not self.ignored(rel, True) or self.wants_file(rel)
        if exists_as_dir:
            return not self.ignored(rel, True)
        return self.wants_file(rel)


class _Walker:
    """One discovery: walks folders (or single files) and collects what ``Rules`` admits."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.result = Discovery()
        self.seen_dirs: set[tuple[int, int]] = set()

    def walk(self, dir_abs: Path, dir_rel: str) -> None:
        result = self.result
        try:
            st = dir_abs.stat()
        except OSError as exc:
            result.warnings[dir_rel or "."] = f"folder not readable: {exc.strerror}"
            return
        key = (st.st_dev, st.st_ino)
        if key in self.seen_dirs:
            result.warnings[dir_rel] = "skipped: symlink loop (this folder was already visited)"
            return
        self.seen_dirs.add(key)
        prefix = f"{dir_rel}/" if dir_rel else ""
        try:
            entries = sorted(os.scandir(dir_abs), key=lambda e: e.name)
        except OSError as exc:
            result.warnings[dir_rel or "."] = f"folder not readable: {exc.strerror}"
            return
        for entry in entries:
            self.consider(Path(entry.path), prefix + entry.name, entry.is_symlink())

    def consider(self, entry_abs: Path, rel: str, is_link: bool) -> None:
        """Walk into a folder or admit a file, as the rules and the file's state say."""
        rules, result = self.rules, self.result
        if is_hidden(rel):
            return  # never indexed (Rules.refusal says the same for one path)
        if is_link:
            if not rules.settings.follow_symlinks:
                return
            why = rules.symlink_refusal(entry_abs)
            if why:
                result.warnings[rel] = f"skipped: {why.removeprefix('it is ')}"
                return
        try:
            is_dir = entry_abs.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            if rules.is_index_dir(entry_abs.resolve()):
                return
            if not rules.ignored(rel, True):
                self.walk(entry_abs, rel)
            return
        if not rules.wants_file(rel):
            suffix = os.path.splitext(entry_abs.name)[1].lower()
            result.passed_over[suffix] = result.passed_over.get(suffix, 0) + 1
            if suffix == BIBTEX and not rules.ignored(rel, False):
                result.bibliographies.append(rel)
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
        result.files.append(DiscoveredFile(rel, entry_abs, doc_kind_for(entry_abs.name),
                                           st.st_size, st.st_mtime_ns))
        if entry_abs.name.lower().endswith(BIBTEX):  # indexed as text too (index.include says so)
            result.bibliographies.append(rel)

    def finish(self) -> Discovery:
        self.result.warnings.update(self.rules.unreadable)
        self.result.files.sort(key=lambda f: f.path)
        self.result.bibliographies.sort()
        return self.result


def discover(root: Path, settings: IndexSettings, index_dir: Path | None = None) -> Discovery:
    """Walk ``root`` and return the files to index, sorted by path."""
    walker = _Walker(Rules(root, settings, index_dir))
    walker.walk(walker.rules.root, "")
    return walker.finish()


def discover_paths(root: Path, settings: IndexSettings, index_dir: Path | None,
                   paths: Iterable[str], rules: Rules | None = None) -> Discovery:
    """What ``discover`` would find at or under each of ``paths`` (root-relative POSIX;
    files or folders; ones that no longer exist find nothing; "" is the whole folder)."""
    walker = _Walker(rules or Rules(root, settings, index_dir))
    for rel in collapse(paths):
        if not rel:
            walker.walk(walker.rules.root, "")
            continue
        if ".." in rel.split("/") or walker.rules.outside(rel):
            continue
        full = walker.rules.root / rel
        if full.is_symlink() or full.exists():
            walker.consider(full, rel, full.is_symlink())
    return walker.finish()
