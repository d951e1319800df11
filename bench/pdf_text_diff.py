"""Which PDF pages read differently after a change to the extractor.

Usage:
    python bench/pdf_text_diff.py against REV [DIR ...]       # REV's text against this checkout's
    python bench/pdf_text_diff.py snapshot OUT.json [DIR ...]
    python bench/pdf_text_diff.py compare OLD.json NEW.json

Default DIR: corpora/pdfs under $ATHENA_SHARED (or ../shared beside this checkout). A snapshot holds every page's lines (text and
cells, OCR off) of every PDF under the folders. `against` checks REV out into a temporary git
worktree, snapshots it there (that tree's `athena_lab` first on the path) and here, and compares.

Why it exists: a rule in the extractor is tuned on a few pages, and a record benchmark only sees
first pages' titles, authors and years. In s28 a font rule that fixed three titles changed 34 of
the shared corpus's pages for the worse (words run together, a formula scrambled), and the
records comparison could not see it. Every extraction change runs this before it lands: the
pages it lists are read by eye, each one better or worse.

Exit status: 0 when no page's text changed, 1 when some did (cells alone report but pass), 2 on
bad input.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

DEFAULT_DIR = Path(os.environ.get("ATHENA_SHARED", Path(__file__).resolve().parents[2] / "shared")) / "corpora" / "pdfs"
REPO = Path(__file__).resolve().parents[1]
Lines = list[list[object]]


class BadInput(Exception):
    """A snapshot, a folder or a revision this tool cannot use: said in one line, exit 2."""


def page_lines(path: Path) -> dict[int, Lines | str]:
    """Each page's [text, cells] per line; a page or file that fails keeps its error, so a new
    crash shows as a change rather than a missing page."""
    import pypdfium2 as pdfium

    from athena_lab.pdf.pages import extract_page

    try:
        doc = pdfium.PdfDocument(str(path))
    except Exception as e:  # an encrypted or broken file is part of what is compared
        return {0: f"cannot open: {type(e).__name__}"}
    out: dict[int, Lines | str] = {}
    try:
        for i in range(len(doc)):
            try:
                out[i] = [[ln.text, ln.cells] for ln in extract_page(doc, i, ocr="off").lines]
            except Exception as e:
                out[i] = f"error: {e!r}"
    finally:
        doc.close()
    return out


def snapshot(dirs: list[Path]) -> dict[str, Lines | str]:
    """Pages keyed "folder-relative path#page", so two checkouts' snapshots line up."""
    pages: dict[str, Lines | str] = {}
    for root in dirs:
        for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() == ".pdf"):
            rel = f"{root.name}/{path.relative_to(root)}"
            for i, lines in page_lines(path).items():
                pages[f"{rel}#{i}"] = lines
    return pages


def _texts(lines: Lines | str) -> list[str]:
    return [lines] if isinstance(lines, str) else [str(ln[0]) for ln in lines]


def compare(old: dict[str, Lines | str], new: dict[str, Lines | str], show: int) -> int:
    """Print what changed, page by page, and return the count of pages whose text changed."""
    text_changed = cells_changed = 0
    for key in sorted(set(old) | set(new), key=_page_order):
        a, b = old.get(key), new.get(key)
        if a == b:
            continue
        if a is None or b is None:
            text_changed += 1
            print(f"{key}: only in the {'new' if a is None else 'old'} snapshot")
            continue
        ta, tb = _texts(a), _texts(b)
        if ta == tb:
            cells_changed += 1
            print(f"{key}: cells changed, text the same")
            continue
        text_changed += 1
        diff = list(difflib.unified_diff(ta, tb, lineterm="", n=0))[2:]
        print(f"{key}: text changed ({sum(d.startswith('-') for d in diff)} lines out, {sum(d.startswith('+') for d in diff)} in)")
        for d in diff[:show]:
            print(f"    {d}")
        if len(diff) > show:
            print(f"    … {len(diff) - show} more diff lines")
    print(f"{len(set(old) | set(new))} pages: {text_changed} with text changed, {cells_changed} with only cells changed")
    return text_changed


def _page_order(key: str) -> tuple[str, int]:
    path, _, page = key.rpartition("#")
    return path, int(page)


def _snapshot_at(rev: str, dirs: list[Path], out: Path) -> None:
    """Snapshot REV's extractor: this script, run with REV's package first on the path."""
    known = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                           capture_output=True, text=True)
    if known.returncode != 0:
        raise BadInput(f"{rev}: no such revision in {REPO}; name a commit, a branch or a tag")
    with tempfile.TemporaryDirectory(prefix="athena-textdiff-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "-q", str(tree), rev], check=True)
        try:
            env = {**os.environ, "PYTHONPATH": str(tree)}
            cmd = [sys.executable, str(Path(__file__).resolve()), "snapshot", str(out), *map(str, dirs), "--package-root", str(tree)]
            if subprocess.run(cmd, env=env, cwd=tree).returncode != 0:
                raise BadInput(f"{rev}: its extraction failed (above); is athena_lab importable at that revision?")
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)], check=False)


def _load(path: Path) -> dict[str, Lines | str]:
    try:
        pages = json.loads(path.read_text(encoding="utf-8"))["pages"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise BadInput(f"{path}: not a snapshot this tool wrote ({e}); make one with `snapshot OUT.json`") from None
    if not isinstance(pages, dict) or not all(isinstance(k, str) and k.rpartition("#")[2].isdigit() for k in pages):
        raise BadInput(f"{path}: not a snapshot this tool wrote (its pages are not keyed \"file#page\")")
    return pages


def _write(pages: dict[str, Lines | str], out: Path) -> None:
    import athena_lab

    try:
        out.write_text(json.dumps({"package": athena_lab.__file__, "pages": pages}, ensure_ascii=False), encoding="utf-8")
    except OSError as e:
        raise BadInput(f"{out}: cannot write the snapshot there ({e.strerror}); name a file in a folder that exists") from None


def _this_checkout() -> None:
    """Import this checkout's athena_lab, not whatever an editable install elsewhere points at,
    so that "this checkout" in a comparison is the one the script sits in."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("snapshot", help="write every page's lines to OUT.json")
    s.add_argument("out", type=Path)
    s.add_argument("dirs", type=Path, nargs="*")
    s.add_argument("--package-root", type=Path, help=argparse.SUPPRESS)
    c = sub.add_parser("compare", help="list the pages whose lines differ between two snapshots")
    c.add_argument("old", type=Path)
    c.add_argument("new", type=Path)
    g = sub.add_parser("against", help="compare a git revision's extraction with this checkout's")
    g.add_argument("rev")
    g.add_argument("dirs", type=Path, nargs="*")
    for p in (c, g):
        p.add_argument("--show", type=lambda v: max(0, int(v)), default=8, help="diff lines shown per page (default 8)")
    args = ap.parse_args(argv)
    try:
        return _run(args)
    except BadInput as e:
        print(e, file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    if args.cmd == "compare":
        return 1 if compare(_load(args.old), _load(args.new), args.show) else 0
    dirs = [d.resolve() for d in (args.dirs or [DEFAULT_DIR])]
    for d in dirs:
        if not d.is_dir():
            raise BadInput(f"{d}: no such folder; name a folder of PDFs (or set ATHENA_SHARED)")
    if args.cmd == "snapshot":
        if args.package_root is None:
            _this_checkout()
        import athena_lab

        root = (args.package_root or REPO).resolve()
        if not Path(athena_lab.__file__).resolve().is_relative_to(root):
            raise BadInput(f"athena_lab came from {athena_lab.__file__}, not from {root}")
        if not args.out.parent.is_dir():
            raise BadInput(f"{args.out}: its folder does not exist; name a file in a folder that exists")
        _write(snapshot(dirs), args.out)
        return 0
    _this_checkout()
    with tempfile.TemporaryDirectory(prefix="athena-textdiff-") as tmp:
        old, new = Path(tmp) / "old.json", Path(tmp) / "new.json"
        _snapshot_at(args.rev, dirs, old)
        _write(snapshot(dirs), new)
        return 1 if compare(_load(old), _load(new), args.show) else 0


if __name__ == "__main__":
    sys.exit(main())
