"""Opening a PDF: passwords, unreadable files, and damage pdfium silently repairs.

Every failure becomes a ParseError whose message names the file and what to do, because
the user sees it as-is in the index summary.
"""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium

from athena_lab.errors import ParseError

from .structure import OutlineEntry

_STARTXREF = re.compile(rb"startxref\s+(\d+)")
_OBJ_AT = re.compile(rb"\s*(xref|\d+\s+\d+\s+obj)")


def password_for(path: str, passwords: dict[str, str]) -> str | None:
    """The configured password for ``path`` (matched by relative path, then file name)."""
    if path in passwords:
        return passwords[path]
    return passwords.get(Path(path).name)


def open_pdf(abs_path: Path, path: str, password: str | None) -> pdfium.PdfDocument:
    """Open with the empty user password first, then the configured one."""
    _check_readable(abs_path, path)
    try:
        return pdfium.PdfDocument(str(abs_path), password="")
    except pdfium.PdfiumError as exc:
        if "password" not in str(exc).lower():
            raise ParseError(f"damaged beyond repair: pdfium cannot read {path} ({_reason(exc)})") from None
    if password is None:
        raise ParseError(f"encrypted: set a password for {path} in athena.toml [pdf.passwords]")
    try:
        return pdfium.PdfDocument(str(abs_path), password=password)
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise ParseError(f"encrypted: the password for {path} in athena.toml [pdf.passwords] "
                             "is wrong") from None
        raise ParseError(f"damaged beyond repair: pdfium cannot read {path} ({_reason(exc)})") from None


def _reason(exc: Exception) -> str:
    match = re.search(r"\(PDFium: (.*?)\)", str(exc))
    return match.group(1) if match else str(exc)


def _check_readable(abs_path: Path, path: str) -> None:
    try:
        with abs_path.open("rb") as fh:
            head = fh.read(1024)
    except OSError as exc:
        raise ParseError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not head:
        raise ParseError(f"empty file: {path} has 0 bytes")
    if b"%PDF-" not in head:
        raise ParseError(f"not a PDF: {path} does not start with a %PDF header")


def structure_warnings(abs_path: Path) -> list[str]:
    """Damage pdfium repairs on load without telling: truncation and a broken xref.

    Worth a warning because repaired files may lose pages or text silently.
    """
    size = abs_path.stat().st_size
    with abs_path.open("rb") as fh:
        fh.seek(max(0, size - 2048))
        tail = fh.read()
        if b"%%EOF" not in tail:
            return ["truncated file: no %%EOF marker at the end (pdfium recovered what it could)"]
        offsets = _STARTXREF.findall(tail)
        if not offsets:
            return ["damaged cross-reference table: no startxref (repaired on load)"]
        offset = int(offsets[-1])
        if offset >= size:
            return ["damaged cross-reference table: startxref points past the end (repaired on load)"]
        fh.seek(offset)
        if not _OBJ_AT.match(fh.read(64)):
            return ["damaged cross-reference table: startxref points to the wrong place "
                    "(repaired on load)"]
    return []


def read_outline(doc: pdfium.PdfDocument, limit: int = 500) -> list[OutlineEntry]:
    """The PDF's bookmarks with their page and the top of their destination, in order.

    A LaTeX paper made with hyperref has one per numbered section: where the printed
    headings are, exactly, which type sizes can only guess. A broken outline (a loop, a
    destination pdfium cannot resolve) gives fewer entries, never an error."""
    out: list[OutlineEntry] = []
    try:
        for mark in doc.get_toc(max_depth=6):
            if len(out) >= limit:
                break
            dest = mark.get_dest()
            index = dest.get_index() if dest is not None else None
            if index is None:
                continue
            top = None
            try:
                _mode, view = dest.get_view()
                if len(view) >= 2 and view[1] and view[1] > 0:
                    # the page's size without loading its content (the height get_height gives)
                    top = doc.get_page_size(index)[1] - float(view[1])
            except Exception:  # noqa: BLE001 - a destination without a position is still a page
                top = None
            out.append(OutlineEntry(mark.level + 1, mark.get_title() or "", index + 1, top))
    except Exception:  # noqa: BLE001 - a damaged outline must not lose the text
        return out
    return out
