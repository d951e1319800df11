"""The import layers hold: front ends reach the core only through the workspace facade,
and nothing imports upwards (the contract is [tool.importlinter] in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_the_import_layer_contract_is_kept() -> None:
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or "lint-imports"
    done = subprocess.run([command, "--config", str(REPO / "pyproject.toml")], cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "0 broken" in done.stdout, done.stdout[-4000:] + done.stderr[-2000:]


def test_the_architecture_page_lists_every_module_as_it_describes_itself() -> None:
    sys.path.insert(0, str(REPO / "tools"))
    try:
        from architecture_doc import render
    finally:
        sys.path.pop(0)
    page = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert page == render(), "docs/architecture.md is out of date: run python tools/architecture_doc.py"
