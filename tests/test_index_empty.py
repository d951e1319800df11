"""A folder with nothing athena reads (issue 21 §3): the index run says so loudly — how many
files it saw, of which kinds, which kinds it reads, what to check — instead of a quiet
"0 new" that leaves `ask` to blame the documents. It still exits 0: an empty new folder
is a fine start (and `athena index --watch` on one must go on following it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from athena_lab.api import Athena
from athena_lab.workspace import Workspace
from http_servers import fast_env

pytestmark = pytest.mark.integration


def athena(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "athena_lab.cli", *args], env=fast_env(),
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def code_folder(tmp_path: Path) -> Path:
    """Source code and data, no documents."""
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    for name in ("a.py", "b.py", "c.py"):
        (root / "src" / name).write_text("x = 1\n")
    (root / "data.csv").write_text("a,b\n1,2\n")
    (root / ".env").write_text("SECRET=1\n")  # hidden: not even counted
    return root


def test_index_of_a_folder_with_no_document_warns_with_what_it_saw(code_folder: Path) -> None:
    done = athena("index", str(code_folder))
    assert done.returncode == 0, done.stderr
    assert "files: 0 new" in done.stdout
    warning = done.stderr.strip().splitlines()[-1]
    assert warning.startswith(f"athena: warning: no indexable files under {code_folder}: 4 files seen "
                              "(3 .py, 1 .csv), none of a kind athena reads (.md .mdx .markdown .txt .rst"), warning
    assert ".ipynb .pdf" in warning and "check index.include" in warning and "index.exclude" in warning

    as_json = athena("index", str(code_folder), "--json")
    assert as_json.returncode == 0
    assert json.loads(as_json.stdout)["no_files"].startswith(f"no indexable files under {code_folder}: 4 files")
    assert "athena: warning: no indexable files" in as_json.stderr


def test_an_empty_folder_says_it_holds_no_files(tmp_path: Path) -> None:
    done = athena("index", str(tmp_path))
    assert done.returncode == 0
    assert (f"athena: warning: no indexable files under {tmp_path}: the folder holds no files (hidden ones aside); "
            "athena reads .md") in done.stderr


def test_excluded_documents_and_the_configured_kinds_are_named(code_folder: Path) -> None:
    (code_folder / "notes.md").write_text("# Notes\n\nHello.\n")
    (code_folder / "athena.toml").write_text('[index]\ninclude = ["**/*.org"]\nextra_exclude = ["*.md"]\n')
    summary = Workspace(code_folder, overrides={"embedding.provider": "none"}).index()
    assert summary.no_files is not None
    assert "6 files seen (3 .py, 1 .csv, 1 .md, 1 .toml)" in summary.no_files
    assert "none of a kind athena reads (.org) or not included" in summary.no_files


def test_a_folder_with_documents_or_a_live_update_says_nothing(code_folder: Path, capsys) -> None:
    ws = Workspace(code_folder, overrides={"embedding.provider": "none"})
    assert ws.index(paths=["src/a.py"]).no_files is None, "a live update of a few paths is not the folder"
    (code_folder / "notes.md").write_text("# Notes\n\nHello.\n")
    assert ws.index().no_files is None
    done = athena("index", str(code_folder))
    assert "warning" not in done.stderr


def test_athena_in_a_notebook_or_script_warns_on_stderr(code_folder: Path, capsys) -> None:
    Athena(code_folder, overrides={"embedding.provider": "none"})  # indexes on first use
    assert f"athena: warning: no indexable files under {code_folder}: 4 files seen" in capsys.readouterr().err
