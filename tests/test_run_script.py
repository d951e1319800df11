"""`./run demo`'s first setup (issue 21 §4): the couple of minutes of pip are announced and,
for a person at a terminal, show pip's progress; a log (CI) keeps pip quiet. A failed
install still stops the script. The real script runs in a copy of the checkout whose
.venv holds stand-ins for python and athena that record how they were called."""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[1]
FAKE_PYTHON = """#!/usr/bin/env bash
echo "python $* HNSWLIB_NO_NATIVE=${HNSWLIB_NO_NATIVE:-}" >> "$FAKE_LOG"
if [ "$1 $2 $3" = "-m pip install" ]; then
  echo "Collecting tantivy"
  echo "WARNING: Location is not on PATH"
  case " $* " in *" -e "*) exit "${FAKE_PIP_STATUS:-0}";; esac
fi
exit 0
"""
FAKE_ATHENA = '#!/usr/bin/env bash\necho "athena $*" >> "$FAKE_LOG"\n'


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    root = tmp_path / "checkout"
    (root / ".venv" / "bin").mkdir(parents=True)
    shutil.copy(REPO / "run", root / "run")
    for name, text in (("python", FAKE_PYTHON), ("athena", FAKE_ATHENA)):
        path = root / ".venv" / "bin" / name
        path.write_text(text)
        path.chmod(0o755)
    return root


def _env(checkout: Path, **extra: str) -> dict[str, str]:
    return {"PATH": os.environ["PATH"], "HOME": str(checkout), "FAKE_LOG": str(checkout / "calls.log"), **extra}


def _pip_installs(checkout: Path) -> list[str]:
    return [line for line in (checkout / "calls.log").read_text().splitlines() if " -e " in line]


def test_in_a_log_pip_stays_quiet_and_the_wait_is_announced(checkout: Path) -> None:
    done = subprocess.run([str(checkout / "run"), "demo"], env=_env(checkout), capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "about 2 minutes the first time" in done.stderr
    assert _pip_installs(checkout) == ["python -m pip install -q -e .[ocr] HNSWLIB_NO_NATIVE=1"]
    assert "athena index demo" in (checkout / "calls.log").read_text()


def test_at_a_terminal_pip_shows_its_progress(checkout: Path) -> None:
    primary, secondary = pty.openpty()
    proc = subprocess.Popen([str(checkout / "run"), "demo"], env=_env(checkout), stdin=subprocess.DEVNULL,
                            stdout=secondary, stderr=secondary)
    os.close(secondary)
    out = b""
    while True:
        try:
            chunk = os.read(primary, 4096)
        except OSError:  # the terminal closed with the script
            break
        if not chunk:
            break
        out += chunk
    os.close(primary)
    assert proc.wait(timeout=60) == 0, out.decode()
    text = out.decode()
    assert "about 2 minutes the first time" in text
    assert _pip_installs(checkout) == ["python -m pip install -e .[ocr] HNSWLIB_NO_NATIVE=1"]
    assert "Collecting tantivy" in text and "WARNING: Location" not in text


def test_a_failed_install_still_stops_the_script(checkout: Path) -> None:
    done = subprocess.run([str(checkout / "run"), "demo"], env=_env(checkout, FAKE_PIP_STATUS="1"),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "athena" not in (checkout / "calls.log").read_text().replace("athena-lab", "")
    assert not list((checkout / ".venv").glob(".athena-setup-*")), "no setup-done stamp"
