"""The import layers hold: front ends reach the core only through the workspace facade,
and nothing imports upwards (the contract is [tool.importlinter] in pyproject.toml)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def test_the_import_layer_contract_is_kept() -> None:
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or "lint-imports"
    done = subprocess.run([command, "--config", str(REPO / "pyproject.toml")], cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "0 broken" in done.stdout, done.stdout[-4000:] + done.stderr[-2000:]


def _architecture_doc():
    sys.path.insert(0, str(REPO / "tools"))
    try:
        import architecture_doc
    finally:
        sys.path.pop(0)
    return architecture_doc


def test_the_architecture_page_lists_every_module_as_it_describes_itself() -> None:
    tool = _architecture_doc()
    try:
        rendered = tool.render()
    except tool.IncompletePage as exc:
        pytest.fail(str(exc))
    page = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert page == rendered, "docs/architecture.md is out of date: run python tools/architecture_doc.py"


def test_a_module_in_no_group_or_without_a_docstring_fails_the_page(tmp_path, monkeypatch) -> None:
    """The page cannot quietly leave a module out (as it once did bibliography.py and answer_eval.py)."""
    tool = _architecture_doc()
    package = tmp_path / "athena_lab"
    shutil.copytree(REPO / "athena_lab", package,
                    ignore=shutil.ignore_patterns("__pycache__", "labextension", "static"))
    monkeypatch.setattr(tool, "PACKAGE", package)
    tool.render()  # the copy as it is: complete
    (package / "newcomer.py").write_text('"""A module nobody added to GROUPS."""\n')
    (package / "search" / "silent.py").write_text("X = 1\n")
    with pytest.raises(tool.IncompletePage) as raised:
        tool.render()
    assert "newcomer.py: in no group" in str(raised.value)
    assert "search/silent.py: has no docstring" in str(raised.value)
