"""`athena index` without the ocr extra: it names the extra and how many papers it would fix.

The default install has no OCR engine. The test runs the real `athena index` in a
process where the extra's modules cannot be imported (a sitecustomize blocks them, as if
they had never been installed — the PDF workers inherit it), on a PDF whose text layer is
garbled and a scanned PDF of the shared corpus.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from corpus_files import CORPORA
from test_pdf_archive import PROSE, shifted_pdf

pytestmark = pytest.mark.integration

BLOCK = "import sys\nfor name in ('tesserocr', 'rapidocr_onnxruntime'):\n    sys.modules[name] = None\n"


def test_index_names_the_ocr_extra_and_the_papers_it_would_fix(tmp_path: Path) -> None:
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "shifted.pdf").write_bytes(shifted_pdf(PROSE))
    shutil.copy(CORPORA / "pdfs" / "scanned_docling_ocr_test.pdf", folder / "scan.pdf")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(BLOCK)
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site"), "ATHENA_EMBEDDING__PROVIDER": "none"}
    athena = shutil.which("athena") or str(Path(sys.executable).with_name("athena"))
    run = subprocess.run([athena, "index", str(folder), "--index-dir", str(tmp_path / "index")],
                         capture_output=True, text=True, env=env, timeout=600, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert ("athena: 2 PDF(s) have 2 page(s) only OCR can read (scans, garbled text layers); "
            "they are not indexed: pip install 'athena-lab[ocr]'") in run.stderr
    assert "garbled text layer" in run.stdout and "unreadable" in run.stdout
    assert "qspcmfn" not in run.stdout  # the noise is named, never shown
