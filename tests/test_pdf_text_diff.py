"""bench/pdf_text_diff.py: an extraction change shows every page whose text it changed.

The tool guards the shared corpus's page texts between commits (s28's font rule changed 34
pages while the records benchmark saw nothing). These tests run it on real PDFs, as a script,
the way a developer runs it before landing an extraction change.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from printed_pdf import printed_pdf

pytestmark = pytest.mark.integration

TOOL = Path(__file__).resolve().parents[1] / "bench" / "pdf_text_diff.py"


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(TOOL), *map(str, args)], capture_output=True, text=True, timeout=300)


def folder(tmp_path: Path, name: str, lines: list[str]) -> Path:
    """A folder named "papers" holding one one-page PDF, so two versions' keys line up."""
    root = tmp_path / name / "papers"
    root.mkdir(parents=True)
    (root / "report.pdf").write_bytes(printed_pdf([(text, 12.0) for text in lines], {}))
    return root


def test_a_page_whose_text_changed_is_named_with_its_lines(tmp_path: Path) -> None:
    before = folder(tmp_path, "a", ["Reading Records", "Ada Lovelace"])
    after = folder(tmp_path, "b", ["Reading Records", "Alan Turing"])
    assert run("snapshot", tmp_path / "old.json", before).returncode == 0
    assert run("snapshot", tmp_path / "new.json", after).returncode == 0

    out = run("compare", tmp_path / "old.json", tmp_path / "new.json")

    assert out.returncode == 1
    assert "papers/report.pdf#0: text changed (1 lines out, 1 in)" in out.stdout
    assert "-Ada Lovelace" in out.stdout and "+Alan Turing" in out.stdout
    assert "1 pages: 1 with text changed" in out.stdout


def test_the_same_text_passes(tmp_path: Path) -> None:
    pdfs = folder(tmp_path, "a", ["Reading Records", "Ada Lovelace"])
    run("snapshot", tmp_path / "one.json", pdfs)
    run("snapshot", tmp_path / "two.json", pdfs)

    out = run("compare", tmp_path / "one.json", tmp_path / "two.json")

    assert out.returncode == 0
    assert "1 pages: 0 with text changed, 0 with only cells changed" in out.stdout


def test_against_head_checks_out_the_revision_and_finds_no_change(tmp_path: Path) -> None:
    pdfs = folder(tmp_path, "a", ["Reading Records", "Ada Lovelace"])

    out = run("against", "HEAD", pdfs)

    assert out.returncode == 0, out.stderr
    assert "1 pages: 0 with text changed" in out.stdout


def test_a_missing_folder_or_a_foreign_file_is_a_clear_error(tmp_path: Path) -> None:
    missing = run("snapshot", tmp_path / "out.json", tmp_path / "nowhere")
    (tmp_path / "other.json").write_text("{}", encoding="utf-8")
    foreign = run("compare", tmp_path / "other.json", tmp_path / "other.json")

    unknown = run("against", "no-such-revision", tmp_path)
    (tmp_path / "list.json").write_text('{"pages": []}', encoding="utf-8")
    listed = run("compare", tmp_path / "list.json", tmp_path / "list.json")
    nowhere = run("snapshot", tmp_path / "no" / "out.json", folder(tmp_path, "a", ["Reading Records"]))

    assert missing.returncode == 2 and "nowhere: no such folder" in missing.stderr
    assert foreign.returncode == 2 and "not a snapshot this tool wrote" in foreign.stderr
    assert listed.returncode == 2 and "not a snapshot this tool wrote" in listed.stderr
    assert unknown.returncode == 2 and "no-such-revision: no such revision" in unknown.stderr
    assert nowhere.returncode == 2 and "its folder does not exist" in nowhere.stderr
    assert "Traceback" not in missing.stderr + foreign.stderr + listed.stderr + unknown.stderr + nowhere.stderr
