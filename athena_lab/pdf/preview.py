"""Page previews: page N rendered to PNG with the cited regions highlighted.

Rendering costs tens of milliseconds and a UI asks for the same page repeatedly, so the
PNG is cached under the index directory, keyed by the file's identity (path, size,
mtime) plus page, regions and scale: a changed PDF never serves a stale preview.

Two limits make the route safe to call from a browser:

- a sidebar opening a citation fires several requests for the same page at once: one
  renders (a per-page lock), the rest wait and read its file; each render writes a temp
  file of its own and renames it into place, so no request can see, or rename away,
  another's half-written file (another process sharing the index may render too);
- a PDF page may be 14,400 pt on a side (200 inches): at scale 2 that is 829 million
  pixels, gigabytes of memory for one request. Previews are scaled down to at most
  ``MAX_PIXELS`` (16 MP: an A4 page at scale 2 is 2 MP, so ordinary pages are untouched).
  The scale a page was rendered at is kept in the PNG (``preview_scale``), so a client that
  draws boxes over the image (labextension core/pdfPage.ts) places them right on a poster too.

The cache is bounded (issue 31): a public visitor may ask for every page of every published
PDF, and a 4,654-page archive at 343 KiB a preview (the mean of 12 papers-we-love pages)
would otherwise fill 1.5 GB of the owner's disk, more with each chunk's highlighted variant. After each new preview, when the folder holds more than ``MAX_CACHE_BYTES``,
the least recently used previews (a hit touches its file) are deleted down to three
quarters of it, so pruning runs once per many renders, not on every one.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
import threading
import zlib
from pathlib import Path

from PIL import Image, ImageDraw
from PIL.PngImagePlugin import PngInfo

from athena_lab.contract import Region
from athena_lab.errors import ParseError

from .document import open_pdf

FILL = (255, 213, 0, 90)  # translucent yellow: text stays readable under it
OUTLINE = (230, 120, 0, 255)
MAX_PIXELS = 16_000_000
MAX_CACHE_BYTES = 256 << 20  # previews kept on disk; the least recently used go first
SCALE_KEY = "athena-scale"  # PNG text chunk: the pixels per point the page was rendered at
_LOCKS = [threading.Lock() for _ in range(64)]  # striped per page: bounded, no registry to clean up


def render_page_preview(abs_pdf: Path, page: int, regions: list[Region], cache_dir: Path,
                        scale: float = 2.0, password: str | None = None) -> Path:
    """Path of a PNG of page ``page`` (1-based) with ``regions`` (PDF points, top-left) marked."""
    abs_pdf = Path(abs_pdf)
    target = Path(cache_dir) / f"{abs_pdf.stem[:40]}-p{page}-{_key(abs_pdf, page, regions, scale)}.png"
    if _touched(target):
        return target
    with _LOCKS[zlib.crc32(str(target).encode()) % len(_LOCKS)]:
        if not target.exists():  # the request that held the lock may have rendered it
            image, used = _render(abs_pdf, page, regions, scale, password)
            _write_png(image, target, used)
            prune(Path(cache_dir), keep=target)
    return target


def _touched(target: Path) -> bool:
    """True when ``target`` is cached; its mtime becomes now, so pruning keeps it longest."""
    try:
        os.utime(target)
        return True
    except OSError:  # absent, or pruned by another request a moment ago: render it
        return False


def prune(cache_dir: Path, max_bytes: int | None = None, keep: Path | None = None) -> int:
    """Delete the least recently used previews while the folder holds more than
    ``max_bytes``, down to three quarters of it; how many were deleted. ``keep`` (the
    preview just written, about to be served) is never one of them."""
    max_bytes = MAX_CACHE_BYTES if max_bytes is None else max_bytes
    entries = []
    with os.scandir(cache_dir) as found:
        for entry in found:
            if entry.name.endswith(".png") and entry.is_file(follow_symlinks=False):
                stat = entry.stat(follow_symlinks=False)
                entries.append((stat.st_mtime_ns, stat.st_size, Path(entry.path)))
    total = sum(size for _, size, _ in entries)
    if total <= max_bytes:
        return 0
    deleted = 0
    for _, size, path in sorted(entries, key=lambda e: e[0]):
        if total <= max_bytes * 3 // 4:
            break
        if keep is not None and path == keep:
            continue
        path.unlink(missing_ok=True)
        total -= size
        deleted += 1
    return deleted


def preview_scale(png: Path) -> float:
    """Pixels per PDF point of a preview this module wrote (2.0 unless the page was capped)."""
    with Image.open(png) as image:  # ``info`` holds the text chunks written before the pixels: no decode
        return float(image.info.get(SCALE_KEY, 2.0))


def capped_scale(width_pt: float, height_pt: float, scale: float, max_pixels: int = MAX_PIXELS) -> float:
    """``scale``, lowered so a ``width_pt`` × ``height_pt`` page renders to at most ``max_pixels``."""
    def pixels(s: float) -> int:
        return math.ceil(width_pt * s) * math.ceil(height_pt * s)

    if width_pt <= 0 or height_pt <= 0 or pixels(scale) <= max_pixels:
        return scale
    fitted = math.sqrt(max_pixels / (width_pt * height_pt))
    while pixels(fitted) > max_pixels:  # ceil() rounding may overshoot by a row or column
        fitted *= 0.999
    return fitted


def _render(abs_pdf: Path, page: int, regions: list[Region], scale: float,
            password: str | None) -> tuple[Image.Image, float]:
    doc = open_pdf(abs_pdf, abs_pdf.name, password)
    try:
        if not 1 <= page <= len(doc):
            raise ParseError(f"{abs_pdf.name} has no page {page} (it has {len(doc)})")
        pdf_page = doc[page - 1]
        width, height = pdf_page.get_size()
        scale = capped_scale(width, height, scale)
        image = pdf_page.render(scale=scale).to_pil().convert("RGBA")
        pdf_page.close()
    finally:
        doc.close()
    return _highlight(image, regions, scale).convert("RGB"), scale


def _write_png(image: Image.Image, target: Path, scale: float) -> None:
    """Write to a temp file of our own in the cache folder, then rename it into place."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, partial = tempfile.mkstemp(prefix=target.stem + ".", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            info = PngInfo()
            info.add_text(SCALE_KEY, f"{scale:.6f}")
            image.save(fh, format="PNG", pnginfo=info)
        os.replace(partial, target)  # readers never see a half-written file
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise


def _key(abs_pdf: Path, page: int, regions: list[Region], scale: float) -> str:
    stat = abs_pdf.stat()
    # "v2": previews carry their scale (preview_scale); older cached files did not.
    ident = ["v2", str(abs_pdf.resolve()), stat.st_size, stat.st_mtime_ns, page, scale,
             [[round(float(r[k]), 2) for k in ("x", "y", "width", "height")] for r in regions]]
    return hashlib.sha256(json.dumps(ident).encode()).hexdigest()[:16]


def _highlight(image: Image.Image, regions: list[Region], scale: float) -> Image.Image:
    if not regions:
        return image
    overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    for r in regions:
        x0, y0 = float(r["x"]) * scale, float(r["y"]) * scale
        x1, y1 = x0 + float(r["width"]) * scale, y0 + float(r["height"]) * scale
        draw.rectangle([x0 - 1, y0 - 1, x1 + 1, y1 + 1], fill=FILL, outline=OUTLINE, width=2)
    return Image.alpha_composite(image, overlay)
