"""Run notebooks in a real kernel (nbclient, the venv's ipykernel) on an indexed copy of demo/.

Indexing the demo folder with the real embedder is the slow part (tens of seconds on two
busy cores), so it happens once per test session; every test gets its own copy of the
folder with that index inside.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[1]
DEMO = REPO / "demo"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
OFFLINE_ENV = {"ATHENA_LLM__PROVIDER": "extractive"}
_BUILT: dict[str, Path] = {}


def indexed_demo(tmp_factory: Any) -> Path:
    """A session-wide copy of demo/ with its index in demo/.athena (built once)."""
    if "demo" not in _BUILT:
        from athena_lab.workspace import Workspace

        folder = tmp_factory.mktemp("demo-indexed") / "demo"
        shutil.copytree(DEMO, folder, ignore=shutil.ignore_patterns(".athena"))
        workspace = Workspace(folder)
        summary = workspace.index()
        workspace.close()
        assert summary.failed == 0, summary.errors
        _BUILT["demo"] = folder
    return _BUILT["demo"]


def copy_demo(tmp_factory: Any, dest: Path) -> Path:
    """A private copy of the indexed demo folder at ``dest``."""
    shutil.copytree(indexed_demo(tmp_factory), dest)
    return dest


def notebook(*cells: str) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    return nb


def execute(nb: nbformat.NotebookNode, cwd: Path, timeout: int = 300, allow_errors: bool = False,
            env: dict[str, str] | None = None) -> nbformat.NotebookNode:
    """Execute ``nb`` top to bottom in a fresh python3 kernel, keeping the widget state."""
    ensure_kernelspec()
    extra = {**OFFLINE_ENV, **(env or {})}
    saved = {k: os.environ.get(k) for k in extra}
    os.environ.update(extra)
    try:
        client = NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=allow_errors,
                                store_widget_state=True, resources={"metadata": {"path": str(cwd)}})
        client.execute()
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return nb


def ensure_kernelspec() -> None:
    """The python3 kernel must be this venv's interpreter, or the kernel imports another athena_lab."""
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec("python3")
    if Path(spec.argv[0]).resolve() != Path(sys.executable).resolve() and spec.argv[0] != "python":
        raise RuntimeError(f"the python3 kernel runs {spec.argv[0]}, not {sys.executable}: "
                           "run `python -m ipykernel install --sys-prefix`")


def outputs_of(cell: nbformat.NotebookNode, output_type: str | None = None) -> list[Any]:
    return [o for o in cell.get("outputs", []) if output_type is None or o["output_type"] == output_type]


def stream_text(cell: nbformat.NotebookNode, name: str) -> str:
    return "".join(o["text"] for o in outputs_of(cell, "stream") if o["name"] == name)


def widget_states(nb: nbformat.NotebookNode) -> dict[str, dict[str, Any]]:
    """model_id → synced state, as saved in the notebook's metadata."""
    saved = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    return {model_id: entry["state"] for model_id, entry in saved.items()}


def answer_widget_state(nb: nbformat.NotebookNode, cell: nbformat.NotebookNode) -> dict[str, Any]:
    """The saved state of the answer widget the cell displayed last."""
    views = [o["data"][WIDGET_VIEW]["model_id"] for o in outputs_of(cell)
             if o["output_type"] in ("display_data", "execute_result") and WIDGET_VIEW in o.get("data", {})]
    assert views, f"no widget view in the cell's outputs: {cell.get('outputs')}"
    states = widget_states(nb)
    assert views[-1] in states, "the widget's state was not saved in the notebook"
    return states[views[-1]]
