"""Under CI a skip fails the run unless CI_ALLOWED_SKIPS in tests/conftest.py names it; the
same run without CI passes. Each case runs pytest on a small generated suite with the suite's
own conftest loaded as a plugin (-p conftest)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

TESTS = Path(__file__).resolve().parent

SAMPLE = '''
import pytest

import conftest  # the suite's tests/conftest.py, loaded with -p conftest

conftest.CI_ALLOWED_SKIPS["a skip CI may take"] = "this sample's own allowlist entry"

pytestmark = pytest.mark.unit


def test_passes():
    pass


def test_skips_in_its_body():
    pytest.skip("chromium is missing")


@pytest.mark.skipif(True, reason="a skip CI may take, allowlisted above")
def test_allowed():
    pass
'''
MODULE_SKIP = ('import pytest\n\npytest.importorskip("athena_no_such_module")\n\npytestmark = pytest.mark.unit\n\n\n'
               'def test_x():\n    pass\n')


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_sample.py").write_text(SAMPLE)
    (tmp_path / "test_module_skip.py").write_text(MODULE_SKIP)
    return tmp_path


def run(folder: Path, ci: str | None, *args: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in ("CI", "PYTEST_ADDOPTS")}
    if ci is not None:
        env["CI"] = ci
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(TESTS), env.get("PYTHONPATH", "")) if p)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "conftest", "-p", "no:cacheprovider", "-q",
                           "-W", "ignore::pytest.PytestUnknownMarkWarning", *args],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("ci", [None, "false", "0"])
def test_skips_pass_without_ci(sample: Path, ci: str | None) -> None:
    done = run(sample, ci)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed, 3 skipped" in done.stdout
    assert "skips are failures under CI" not in done.stdout


def test_under_ci_a_skip_not_on_the_allowlist_fails_the_run_and_is_named(sample: Path) -> None:
    done = run(sample, "true")
    assert done.returncode == 1, done.stdout + done.stderr
    summary = done.stdout.split("skips are failures under CI", 1)[1]
    assert "SKIPPED test_sample.py::test_skips_in_its_body: chromium is missing" in summary
    assert "SKIPPED test_module_skip.py: could not import 'athena_no_such_module'" in summary
    assert "test_allowed" not in summary


def test_under_ci_an_allowlisted_skip_passes(sample: Path) -> None:
    done = run(sample, "true", "test_sample.py", "-k", "passes or allowed")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed, 1 skipped" in done.stdout


def test_under_ci_a_run_whose_every_module_skipped_fails_as_a_failure(sample: Path) -> None:
    """Not as "no tests collected" (5), which a caller might not treat as failure."""
    done = run(sample, "true", "test_module_skip.py")
    assert done.returncode == 1, done.stdout + done.stderr
    assert run(sample, None, "test_module_skip.py").returncode == 5
