"""Findings 8 and 9: PDF page previews under parallel requests and for giant pages.

PDFs made on the fly with pypdfium2 are indexed and served by a real ``athena serve``:
parallel requests for one uncached page (a sidebar opening a citation) must all get the
same PNG — before the fix one got it and the rest a 500 (FileNotFoundError on rename); a
14,400 pt page (the largest a PDF allows) must come back scaled to the pixel cap instead
of needing gigabytes.
"""

from __future__ import annotations

import io
import math
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pypdfium2 as pdfium
import pytest
from PIL import Image

from athena_lab.pdf.preview import MAX_PIXELS, capped_scale
from http_servers import AthenaServer, index_folder, served

pytestmark = pytest.mark.integration

TOKEN = "preview-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
PAGES = 6


def _pdf(path: Path, sizes: list[tuple[float, float]]) -> None:
    pdf = pdfium.PdfDocument.new()
    for width, height in sizes:
        pdf.new_page(width, height)
    pdf.save(str(path))
    pdf.close()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("previews") / "papers"
    root.mkdir()
    _pdf(root / "posters.pdf", [(1500, 1500)] * PAGES)  # 3000 × 3000 px at scale 2: slow enough to overlap
    _pdf(root / "huge.pdf", [(14400, 14400), (14400, 200), (595, 842)])
    return index_folder(root)


@pytest.fixture(scope="module")
def server(folder: Path):
    yield from served(folder, TOKEN)


def _page(server: AthenaServer, path: str, page: int) -> httpx.Response:
    return httpx.get(f"{server.url}/pdf/page", params={"path": path, "page": page}, headers=AUTH, timeout=120)


def _size(png: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(png)) as image:
        return image.size


def test_parallel_requests_for_one_uncached_page_all_get_the_same_png(folder, server):
    for page in range(1, PAGES + 1):
        with ThreadPoolExecutor(max_workers=8) as pool:
            replies = list(pool.map(lambda _: _page(server, "posters.pdf", page), range(8)))
        assert [r.status_code for r in replies] == [200] * 8, [r.text[:200] for r in replies if r.status_code != 200]
        assert len({r.content for r in replies}) == 1, f"page {page}: the requests got different bytes"
        assert _size(replies[0].content) == (3000, 3000)
    leftovers = [p.name for p in (folder / ".athena" / "previews").iterdir() if not p.name.endswith(".png")]
    assert leftovers == [], "no temp file is left behind"


def test_a_14400_point_page_is_scaled_down_to_the_pixel_cap(server):
    r = _page(server, "huge.pdf", 1)
    assert r.status_code == 200, r.text[:300]
    width, height = _size(r.content)
    assert width * height <= MAX_PIXELS and (width, height) == (4000, 4000)
    # The front ends draw region boxes over the image: the scale says where a point lands.
    scale = float(r.headers["X-Athena-Scale"])
    assert scale < 2 and round(14400 * scale) == 4000


def test_an_ordinary_page_says_it_was_rendered_at_two_pixels_per_point(folder, server):
    first = _page(server, "huge.pdf", 3)
    again = _page(server, "huge.pdf", 3)  # from the preview cache: the scale is kept in the PNG
    for r in (first, again):
        assert r.status_code == 200, r.text[:300]
        assert float(r.headers["X-Athena-Scale"]) == 2.0 and _size(r.content) == (1190, 1684)


def test_a_long_thin_page_keeps_its_shape_under_the_cap(server):
    r = _page(server, "huge.pdf", 2)
    assert r.status_code == 200, r.text[:300]
    width, height = _size(r.content)
    assert width * height <= MAX_PIXELS
    assert abs(width / height - 14400 / 200) < 0.5


@pytest.mark.parametrize("size, scale", [((595, 842), 2.0), ((1500, 1500), 2.0)])
def test_ordinary_pages_keep_the_requested_scale(size, scale):
    assert capped_scale(*size, scale) == scale


@pytest.mark.parametrize("size", [(14400, 14400), (14400, 3), (5000, 14400), (14400, 14400.5)])
def test_capped_scale_never_exceeds_the_cap(size):
    s = capped_scale(*size, 2.0)
    assert math.ceil(size[0] * s) * math.ceil(size[1] * s) <= MAX_PIXELS


def test_the_previews_cache_is_pruned_to_its_bound_least_recently_used_first(tmp_path, monkeypatch):
    """Issue 31: nothing bounded the previews folder, and a visitor may ask for every page of
    every published PDF. Real renders of a 40-page PDF with the bound set to a few previews."""
    from athena_lab.pdf import preview

    pdf = tmp_path / "long.pdf"
    _pdf(pdf, [(595, 842)] * 40)
    cache = tmp_path / "previews"
    first = preview.render_page_preview(pdf, 1, [], cache)
    one = first.stat().st_size
    monkeypatch.setattr(preview, "MAX_CACHE_BYTES", one * 8)
    for page in range(2, 41):
        preview.render_page_preview(pdf, page, [], cache)
        assert preview.render_page_preview(pdf, 1, [], cache) == first  # page 1 is read again: kept
    kept = sorted(cache.glob("*.png"))
    assert sum(p.stat().st_size for p in kept) <= one * 8 and len(kept) <= 8
    assert first.exists()  # the most recently used survive, the oldest went
    assert not any(p.name.startswith("long-p2-") for p in kept)
    assert any(p.name.startswith("long-p40-") for p in kept)
