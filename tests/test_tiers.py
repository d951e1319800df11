"""Every test says its tier on itself, and a test that starts a process cannot pass as an
in-process one: an unmarked test fails collection, naming its file and the line to add; a
test marked unit (or slow) that starts a process fails, naming the process. Each case runs
pytest on a small generated suite with the suite's own conftest loaded as a plugin."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

TESTS = Path(__file__).resolve().parent

STARTS_A_PROCESS = '''
import subprocess
import sys

import pytest

pytestmark = pytest.mark.{tier}


def test_runs_python():
    subprocess.run([sys.executable, "-c", "pass"], check=True)
'''


def run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in ("CI", "PYTEST_ADDOPTS")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(TESTS), env.get("PYTHONPATH", "")) if p)
    (folder / "pytest.ini").write_text("[pytest]\nmarkers =\n  unit\n  slow\n  integration\n  browser\n")
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "conftest", "-p", "no:cacheprovider", "-q", *args],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=300)


def test_a_test_without_a_tier_fails_collection_and_says_what_to_add(tmp_path: Path) -> None:
    (tmp_path / "test_new_feature.py").write_text("def test_something():\n    assert True\n")
    done = run(tmp_path)
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout + done.stderr
    said = done.stdout + done.stderr
    assert "test_new_feature.py::test_something: no tier" in said
    assert "`pytestmark = pytest.mark.unit` (in-process, quick)" in said
    assert "`pytest.mark.integration` (starts a process or server)" in said


def test_unit_with_another_tier_is_refused(tmp_path: Path) -> None:
    (tmp_path / "test_mixed.py").write_text(
        "import pytest\n\npytestmark = [pytest.mark.unit, pytest.mark.integration]\n\n\ndef test_x():\n    pass\n")
    done = run(tmp_path)
    assert done.returncode == pytest.ExitCode.USAGE_ERROR
    assert "test_mixed.py::test_x: unit and integration" in done.stdout + done.stderr


@pytest.mark.parametrize("tier", ["unit", "slow"])
def test_an_in_process_test_that_starts_a_process_fails_naming_it(tmp_path: Path, tier: str) -> None:
    (tmp_path / "test_sneaky.py").write_text(STARTS_A_PROCESS.format(tier=tier))
    done = run(tmp_path)
    assert done.returncode == pytest.ExitCode.TESTS_FAILED, done.stdout + done.stderr
    assert "test_sneaky.py::test_runs_python started a process (subprocess.Popen:" in done.stdout
    assert "pytestmark = pytest.mark.integration" in done.stdout


def test_an_integration_test_may_start_processes(tmp_path: Path) -> None:
    (tmp_path / "test_honest.py").write_text(STARTS_A_PROCESS.format(tier="integration"))
    done = run(tmp_path)
    assert done.returncode == pytest.ExitCode.OK, done.stdout + done.stderr
