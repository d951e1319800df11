"""Page previews: page N rendered to PNG with the cited regions highlighted.

Rendering costs tens of milliseconds and a UI asks for the same page repeatedly, so the
PNG is cached under the index directory, keyed by the file's identity (path, size,
mtime) plus page, regions and scale: a changed PDF never serves a stale preview.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from PIL import Image, ImageDraw

from athena_lab.ingest.model import ParseError

from .document import open_pdf

FILL = (255, 213, 0, 90)  # translucent yellow: text stays readable under it
OUTLINE = (230, 120, 0, 255)


def render_page_preview(abs_pdf: Path, page: int, regions: list[dict], cache_dir: Path,
                        scale: float = 2.0, password: str | None = None) -> Path:
    """Path of a PNG of page ``page`` (1-based) with ``regions`` (PDF points, top-left) marked."""
    abs_pdf = Path(abs_pdf)
    target = Path(cache_dir) / f"{abs_pdf.stem[:40]}-p{page}-{_key(abs_pdf, page, regions, scale)}.png"
    if target.exists():
        return target
    doc = open_pdf(abs_pdf, abs_pdf.name, password)
    try:
        if not 1 <= page <= len(doc):
            raise ParseError(f"{abs_pdf.name} has no page {page} (it has {len(doc)})")
        pdf_page = doc[page - 1]
        image = pdf_page.render(scale=scale).to_pil().convert("RGBA")
        pdf_page.close()
    finally:
        doc.close()
    image = _highlight(image, regions, scale)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".tmp")
    image.convert("RGB").save(partial, format="PNG")
    partial.replace(target)  # readers never see a half-written file
    return target


def _key(abs_pdf: Path, page: int, regions: list[dict], scale: float) -> str:
    stat = abs_pdf.stat()
    ident = [str(abs_pdf.resolve()), stat.st_size, stat.st_mtime_ns, page, scale,
             [[round(float(r[k]), 2) for k in ("x", "y", "width", "height")] for r in regions]]
    return hashlib.sha256(json.dumps(ident).encode()).hexdigest()[:16]


def _highlight(image: Image.Image, regions: list[dict], scale: float) -> Image.Image:
    overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    for r in regions:
        x0, y0 = float(r["x"]) * scale, float(r["y"]) * scale
        x1, y1 = x0 + float(r["width"]) * scale, y0 + float(r["height"]) * scale
        draw.rectangle([x0 - 1, y0 - 1, x1 + 1, y1 + 1], fill=FILL, outline=OUTLINE, width=2)
    return Image.alpha_composite(image, overlay)
