"""Replay the Binder build (binder/postBuild) in a fresh virtualenv, since Docker cannot run here.

The venv is new, but to keep CI offline and fast it sees this venv's third-party packages
through a .pth file (a full dependency install is ~480 MB and compiles hnswlib); the
project itself is built and installed from a copy of the checkout by postBuild exactly as
on Binder: wheel build with the labextension, server extension config, demo index.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sysconfig
import time
import venv
from pathlib import Path

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[1]


def _checkout_copy(dest: Path) -> Path:
    """The files a clone would have (tracked and new, not ignored), as in the working tree."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=REPO, capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        src = REPO / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    # npm packages are the one thing a clone would fetch; reuse the installed ones.
    (dest / "labextension" / "node_modules").symlink_to(REPO / "labextension" / "node_modules")
    return dest


def _fresh_venv(path: Path) -> Path:
    venv.EnvBuilder(with_pip=False).create(path)
    site = Path(subprocess.run([path / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "_athena_test_parent.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return path


@pytest.fixture(scope="module")
def binder_build(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("binder")
    repo = _checkout_copy(root / "repo")
    env_dir = _fresh_venv(root / "venv")
    env = {**os.environ, "PATH": f"{env_dir / 'bin'}:{os.environ['PATH']}", "VIRTUAL_ENV": str(env_dir),
           "PIP_NO_INDEX": "1", "PIP_NO_BUILD_ISOLATION": "0", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
           "ATHENA_LLM__PROVIDER": "extractive", "JUPYTER_PLATFORM_DIRS": "1"}
    env.pop("PYTHONPATH", None)
    started = time.perf_counter()
    done = subprocess.run(["bash", "binder/postBuild"], cwd=repo, env=env, capture_output=True, text=True,
                          timeout=1200)
    seconds = time.perf_counter() - started
    assert done.returncode == 0, f"postBuild failed after {seconds:.0f}s:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    print(f"binder postBuild took {seconds:.1f}s")
    return repo, env_dir, env


def _run(env_dir: Path, env: dict, *args: str, cwd: Path) -> str:
    done = subprocess.run([str(env_dir / "bin" / "python"), *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, f"{args}:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done.stdout + done.stderr


def test_project_is_installed_into_the_new_venv_not_borrowed(binder_build) -> None:
    repo, env_dir, env = binder_build
    where = _run(env_dir, env, "-c", "import athena_lab; print(athena_lab.__file__)", cwd=repo.parent)
    assert str(env_dir) in where, where


def test_lab_and_server_extensions_are_enabled(binder_build) -> None:
    repo, env_dir, env = binder_build
    labext = _run(env_dir, env, "-m", "jupyter", "labextension", "list", cwd=repo)
    assert "athena-lab" in labext and "enabled" in labext.split("athena-lab", 1)[1].splitlines()[0], labext
    server = _run(env_dir, env, "-m", "jupyter", "server", "extension", "list", cwd=repo)
    assert "athena_lab" in server and "enabled" in server.split("athena_lab", 1)[1].splitlines()[0], server


def test_demo_index_is_built_at_build_time(binder_build) -> None:
    repo, env_dir, env = binder_build
    assert (repo / "demo" / ".athena" / "catalog.sqlite").is_file()
    status = json.loads(_run(env_dir, env, "-c", "import json; from athena_lab import Athena; "
                             "print(json.dumps(Athena('demo', auto_index=False).status()['counts']))", cwd=repo))
    assert status["files"] >= 10 and status["chunks"] > 50 and status["failed"] == 0


def test_quickstart_executes_in_the_built_environment(binder_build) -> None:
    repo, env_dir, env = binder_build
    _run(env_dir, env, "-m", "ipykernel", "install", "--sys-prefix", cwd=repo)
    script = ("import nbformat, sys; from nbclient import NotebookClient\n"
              "nb = nbformat.read('quickstart.ipynb', as_version=4)\n"
              "NotebookClient(nb, timeout=600, kernel_name='python3', store_widget_state=True,"
              " resources={'metadata': {'path': '.'}}).execute()\n"
              "errors = [o for c in nb.cells for o in c.get('outputs', []) if o.get('output_type') == 'error']\n"
              "athena = [o['text'] for c in nb.cells for o in c.get('outputs', [])"
              " if o.get('name') == 'stderr' and 'athena:' in o.get('text', '')]\n"
              "print('ERRORS', len(errors), len(athena))\n")
    out = _run(env_dir, env, "-c", script, cwd=repo / "notebooks")
    assert "ERRORS 0 0" in out, out
