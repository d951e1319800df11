"""PDFs through the whole pipeline: page-region citations, warnings, passwords, tables."""

from __future__ import annotations

import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from athena_lab.workspace import Workspace

pytestmark = pytest.mark.slow

PDFS = ["paper_attention_1706.03762.pdf", "encrypted_pdfjs_issue6010_1_pwabc.pdf",
        "malformed_pdfplumber_empty.pdf", "malformed_pdfjs_xref_command_missing.pdf",
        "table_pdfplumber_senate-expenditures.pdf"]


@pytest.fixture(scope="module")
def ws(tmp_path_factory, corpora: Path) -> Workspace:
    root = tmp_path_factory.mktemp("pdfs") / "papers"
    root.mkdir()
    for name in PDFS:
        shutil.copy(corpora / "pdfs" / name, root / name)
    (root / "athena.toml").write_text('[pdf]\nocr = "off"\n'
                                      '[pdf.passwords]\n"encrypted_pdfjs_issue6010_1_pwabc.pdf" = "abc"\n')
    workspace = Workspace(root)
    workspace.summary = workspace.index()
    return workspace


def test_pdfs_index_beside_broken_ones_with_a_warning_each(ws: Workspace) -> None:
    summary = ws.summary
    assert summary.new == 4 and summary.failed == 1  # the missing xref is repaired, with a warning
    assert "empty" in summary.warnings["malformed_pdfplumber_empty.pdf"][0]
    assert "repaired" in " ".join(summary.warnings["malformed_pdfjs_xref_command_missing.pdf"])
    files = {f["path"]: f for f in ws.status()["files"]}
    assert files["paper_attention_1706.03762.pdf"]["pages"] == 15


def test_pdf_hits_cite_the_page_and_regions_that_contain_the_text(ws: Workspace) -> None:
    query = "scaled dot-product attention queries keys values"
    cites = ws.search_citations(query, k=3, kind="pdf")
    top = next(c for c in cites if c["path"] == "paper_attention_1706.03762.pdf")
    assert top["kind"] == "pdf" and top["page"] in (3, 4, 5) and top["regions"]
    assert 0 < top["confidence"] <= 1
    pdf = pdfium.PdfDocument(str(ws.root / top["path"]))
    page = pdf[top["page"] - 1]
    height = page.get_height()
    text = page.get_textpage()
    inside = " ".join(
        text.get_text_bounded(left=r["x"] - 1, bottom=height - r["y"] - r["height"] - 1,
                              right=r["x"] + r["width"] + 1, top=height - r["y"] + 1)
        for r in top["regions"] if r.get("page", top["page"]) == top["page"])
    chunk = ws.chunk(top["chunk_id"])
    words = [w for w in chunk.text.split() if w.isalpha() and len(w) > 4][:15]
    assert words and sum(w in inside for w in words) >= len(words) * 0.8


def test_encrypted_pdf_opens_with_its_configured_password(ws: Workspace) -> None:
    files = {f["path"]: f for f in ws.status()["files"]}
    assert files["encrypted_pdfjs_issue6010_1_pwabc.pdf"]["status"] == "ok"


def test_detected_tables_get_csv_sidecars(ws: Workspace) -> None:
    source = ws.store.catalog.source("table_pdfplumber_senate-expenditures.pdf")
    tables = source.metadata.get("tables", [])
    assert tables and (ws.index_dir / tables[0]["csv"]).read_text().count(",") > 10


def test_pdf_page_reading_and_preview_go_through_the_workspace(ws: Workspace) -> None:
    cite = ws.search_citations("multi-head attention", k=1, kind="pdf")[0]
    page = ws.read_pdf_source(cite["path"], cite["page"])
    assert cite["chunk_id"] in page["chunk_ids"] and page["lines"]
    png = ws.pdf_page_png(cite["path"], cite["page"], cite["chunk_id"])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and ws.index_dir in png.parents


def test_unchanged_pdfs_are_not_extracted_again(ws: Workspace) -> None:
    summary = ws.index()
    assert summary.unchanged == 5 and summary.chunks_written == 0
