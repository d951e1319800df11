"""The import layers hold: front ends reach the core only through the workspace facade,
and nothing imports upwards (the contract is [tool.importlinter] in pyproject.toml)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

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


def _import_cycles(package: str) -> list[list[str]]:
    """Groups of modules that import each other round in a circle (Tarjan's strongly
    connected components of grimp's module graph; imports inside functions count too)."""
    import grimp

    graph = grimp.build_graph(package, cache_dir=None)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in edges.get(module, []):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1 or module in edges.get(module, []):
                cycles.append(sorted(group))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return cycles


def test_no_module_of_athena_lab_imports_itself_back_through_others() -> None:
    """Issue 23: e5_small → e5_weights → embeddings → e5_small and page ↔ dropin were cycles."""
    assert _import_cycles("athena_lab") == []


def test_the_cycle_check_names_the_modules_of_a_cycle(tmp_path, monkeypatch) -> None:
    package = tmp_path / "cyclepkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from cyclepkg import b\n")
    (package / "b.py").write_text("def f():\n    from cyclepkg.c import g\n")
    (package / "c.py").write_text("import cyclepkg.a\n\ndef g():\n    pass\n")
    (package / "d.py").write_text("import cyclepkg.a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert _import_cycles("cyclepkg") == [["cyclepkg.a", "cyclepkg.b", "cyclepkg.c"]]


def test_the_workspace_is_what_health_and_the_live_index_read_it_as(tmp_path) -> None:
    """health.py and ingest/live.py sit below the facade, so they name what they use of it
    as protocols (Inspected, LiveFolder) instead of taking ``Any``; mypy proves the real
    Workspace satisfies both, so a renamed method fails here, not at run time."""
    probe = tmp_path / "workspace_fits.py"
    probe.write_text("from athena_lab.health import Inspected\n"
                     "from athena_lab.ingest.live import LiveFolder\n"
                     "from athena_lab.workspace import Workspace\n\n\n"
                     "def fits(ws: Workspace) -> tuple[Inspected, LiveFolder]:\n"
                     "    return ws, ws\n")
    done = subprocess.run([sys.executable, "-m", "mypy", "--ignore-missing-imports", "--no-incremental",
                           "--cache-dir", str(tmp_path / "cache"), str(probe)],
                          cwd=REPO, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "MYPYPATH": str(REPO)})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
