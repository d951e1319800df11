"""No chunk of the shared PDF corpus holds a C0 or C1 control character.

The Attention paper's ε ("ϵ = 10^-9") came out as U+000F: CMMI10's glyph code passed
through as text. The whole shared PDF corpus is indexed by the real `athena index` into
a temporary --index-dir (the corpus itself is never written to), and every chunk's text,
heading and snippet-bearing locator is scanned. Tab and newline are text; every other
character of U+0000–U+001F, U+007F and U+0080–U+009F is not.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.slow]

CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def strings(value: object) -> list[str]:
    """Every string inside a JSON value (escaped controls are decoded, so they are seen)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def controls(where: str, values: list[str]) -> list[str]:
    return [f"{where}: U+{ord(m.group()):04X} in {value[max(0, m.start() - 30):m.end() + 30]!r}"
            for value in values for m in CONTROLS.finditer(value)]


def test_no_chunk_of_the_shared_pdf_corpus_holds_a_control_character(tmp_path: Path, corpora: Path) -> None:
    pdfs = corpora / "pdfs"
    assert sum(1 for _ in pdfs.glob("*.pdf")) >= 40
    index = tmp_path / "index"
    # Embedding is not what this checks: chunks are made and stored the same without vectors.
    env = {**os.environ, "ATHENA_EMBEDDING__PROVIDER": "none"}
    athena = shutil.which("athena") or str(Path(sys.executable).with_name("athena"))
    run = subprocess.run([athena, "index", str(pdfs), "--index-dir", str(index)],
                         capture_output=True, text=True, env=env, timeout=1800, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    conn = sqlite3.connect(index / "catalog.sqlite")
    try:
        rows = conn.execute("SELECT path, ordinal, heading, text, locator FROM chunks").fetchall()
        titles = conn.execute("SELECT path, title, metadata FROM sources").fetchall()
    finally:
        conn.close()
    assert len({r[0] for r in rows}) >= 40 and len(rows) > 1000  # the corpus was read, not skipped
    found = []
    for path, ordinal, heading, text, locator in rows:
        found += controls(f"{path} chunk {ordinal}", [text or "", heading or "", *strings(json.loads(locator or "{}"))])
    for path, title, metadata in titles:
        found += controls(f"{path} record", [title or "", *strings(json.loads(metadata or "{}"))])
    assert not found, f"{len(found)} control characters, first ones:\n" + "\n".join(found[:20])
