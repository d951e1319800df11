"""`athena lab` (issue 21 §2): Jupyter's options pass through, root gets --allow-root with a
note, and the embedder Lab starts in the background stops when Jupyter exits.

The argument tests run the real CLI up to the point where it would become Jupyter
(``os.execve`` is caught); the last test starts a real `athena lab` on a copy of Flask's
docs, lets the background embedder start, stops Lab with SIGTERM and checks that the
embedder is gone, having saved what it embedded."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil
import pytest

from athena_lab import cli
from athena_lab.workspace import Workspace
from corpus_files import CORPORA, FLASK_DOCS
from http_servers import clean_env

pytestmark = [pytest.mark.integration, pytest.mark.slow]


class Execed(Exception):
    """Where `athena lab` would have become Jupyter."""


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "notes"
    root.mkdir()
    (root / "a.md").write_text("# Notes\n\nThe kiln runs at 900 degrees.\n")
    monkeypatch.setenv("ATHENA_EMBEDDING__PROVIDER", "none")
    monkeypatch.chdir(root)
    return root


def lab_argv(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture, euid: int,
             *args: str) -> tuple[list[str], str]:
    """``athena ARGS`` as user ``euid``: the argv it execs Jupyter with, and what it said on stderr."""
    def execve(path: str, argv: list[str], env: dict[str, str]) -> None:
        assert argv[0] == path and env["ATHENA_OPEN_CHAT"] == "1"
        assert env["ATHENA_WORKSPACE__ROOT"] == os.getcwd()  # Lab serves the folder just indexed
        raise Execed(argv[1:])

    monkeypatch.setattr(os, "execve", execve)
    monkeypatch.setattr(os, "geteuid", lambda: euid)
    with pytest.raises(Execed) as execed:
        cli.main(list(args))
    return execed.value.args[0], capsys.readouterr().err


def test_as_root_jupyter_gets_allow_root_and_the_user_a_note(folder, monkeypatch, capsys) -> None:
    argv, err = lab_argv(monkeypatch, capsys, 0, "lab", str(folder), "--no-browser")
    assert argv == ["lab", f"--ServerApp.root_dir={folder}", "--ServerApp.ip=127.0.0.1",
                    "--ServerApp.port=8888", "--no-browser", "--allow-root"]
    assert "running as root, so JupyterLab starts with --allow-root" in err
    argv, err = lab_argv(monkeypatch, capsys, 1000, "lab", str(folder), "--skip-index")
    assert "--allow-root" not in argv and "root" not in err
    argv, err = lab_argv(monkeypatch, capsys, 0)  # bare `athena` in the folder
    assert argv[1] == f"--ServerApp.root_dir={folder}" and argv[-1] == "--allow-root"


def test_ip_port_token_and_jupyter_options_pass_through(folder, monkeypatch, capsys) -> None:
    argv, err = lab_argv(monkeypatch, capsys, 1000, "lab", str(folder), "--skip-index", "--ip", "0.0.0.0",
                         "--port", "9000", "--token", "s3cret", "--allow-root", "--",
                         "--ServerApp.base_url=/athena-lab/", "--ServerApp.port_retries=0")
    assert argv == ["lab", f"--ServerApp.root_dir={folder}", "--ServerApp.ip=0.0.0.0", "--ServerApp.port=9000",
                    "--IdentityProvider.token=s3cret", "--allow-root", "--ServerApp.base_url=/athena-lab/",
                    "--ServerApp.port_retries=0"]
    assert err.count("athena:") == 0


def test_options_after_the_separator_replace_athenas_own(folder, monkeypatch, capsys) -> None:
    """Jupyter refuses a setting given twice: one passed after -- is the one it gets."""
    argv, err = lab_argv(monkeypatch, capsys, 0, "lab", "--skip-index", "--", "--port", "8899", "--allow-root",
                         "--ip=0.0.0.0", "--IdentityProvider.token=t")
    assert argv == ["lab", f"--ServerApp.root_dir={folder}", "--port", "8899", "--allow-root", "--ip=0.0.0.0",
                    "--IdentityProvider.token=t"]
    assert "running as root" not in err, "the user's own --allow-root: no note"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait(check: Any, what: str, proc: subprocess.Popen, log: Path, timeout: float) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        if proc.poll() is not None:
            pytest.fail(f"athena lab exited ({proc.returncode}) before {what}:\n{log.read_text()[-3000:]}")
        time.sleep(0.25)
    pytest.fail(f"no {what} within {timeout} s:\n{log.read_text()[-3000:]}")


def _gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_stopping_lab_stops_the_background_embedder_it_started(tmp_path: Path) -> None:
    """A real `athena lab` (as whoever runs the tests: as root it must add --allow-root by
    itself) on Flask's and pydantic's docs, which take a minute or more to embed on one
    thread: Lab up, the embedder running, SIGTERM to Lab — and the embedder is gone soon
    after, with what it embedded saved and the rest left for the next run."""
    root = tmp_path / "docs"
    shutil.copytree(FLASK_DOCS, root / "flask")
    shutil.copytree(CORPORA / "docs" / "pydantic", root / "pydantic")
    port, token, log = _free_port(), "lab-test-token", tmp_path / "lab.log"
    env = clean_env(JUPYTERLAB_SETTINGS_DIR=str(tmp_path / "settings"),
                    JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "workspaces"),
                    JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"), ATHENA_INDEX__VECTOR_CHECKPOINT_S="0",
                    ATHENA_EMBEDDING__THREADS="1")
    command = [sys.executable, "-m", "athena_lab.cli", "lab", str(root), "--no-browser", "--port", str(port),
               "--token", token, "--", "--ServerApp.port_retries=0", "--LabApp.news_url=None",
               "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    with log.open("w") as out:
        lab = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=tmp_path)
    embedder = None
    try:
        ws = Workspace(root)

        def embedding() -> Any:
            run = ws.index_run() if ws.has_index() else None
            if run and run["live"] and run["pid"] != lab.pid and run["phase"] == "embed" and run["done"] > 0:
                return run
            return None

        run = _wait(embedding, "background embedder embedding", lab, log, timeout=300)
        embedder = psutil.Process(run["pid"])
        assert embedder.ppid() == lab.pid, "Jupyter (what athena lab became) started it"
        total = ws.vector_state().total
        lab.send_signal(signal.SIGTERM)
        lab.wait(timeout=60)
        deadline = time.monotonic() + 30
        while not _gone(embedder.pid) and time.monotonic() < deadline:
            time.sleep(0.25)
        assert _gone(embedder.pid), f"the embedder {embedder.pid} outlived Jupyter:\n{log.read_text()[-3000:]}"
        vectors = Workspace(root).vector_state()
        assert 0 < vectors.done < total and vectors.state == "partial", vectors  # stopped, what it did kept
        assert ws.index_run() is None, "the stopped run cleared its progress row"
    finally:
        if lab.poll() is None:
            lab.kill()
            lab.wait()
        if embedder is not None and not _gone(embedder.pid):
            embedder.kill()
    text = log.read_text()
    if os.geteuid() == 0:
        assert "running as root, so JupyterLab starts with --allow-root" in text
    assert "Running as root is not recommended" not in text
