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


# Tiers (pyproject's markers): `./run test -m unit` is the quick loop while coding; `./run
# test` runs them all. A module is "integration" when it starts processes — servers,
# kernels, Jupyter, `athena` itself — "slow" when it indexes whole corpora, builds a model
# or waits out time windows, and "unit" otherwise.
INTEGRATION = {
    "test_ask_cli.py", "test_binder.py", "test_core_eval.py", "test_http_api.py", "test_http_background_reindex.py",
    "test_http_guard.py", "test_http_health.py", "test_http_jupyter.py", "test_http_multilingual.py",
    "test_http_reindex.py", "test_index_progress.py", "test_live_processes.py", "test_magic.py", "test_mcp.py",
    "test_multilingual_channel.py", "test_notebooks.py", "test_local_llm.py", "test_local_model.py", "test_widget.py",
    "test_http_page.py", "test_http_dropin.py",
    "test_ray_index.py", "test_layers.py", "test_contract_front_ends.py", "test_deploy.py",
}
SLOW = {"test_binder.py", "test_live_processes.py", "test_local_llm.py", "test_local_model.py", "test_notebooks.py",
        "test_ray_index.py", "test_bundled_model.py",
        "test_http_multilingual.py",
        # in-process, but they index whole corpora, build models or wait out debounce windows
        "test_pdf_ingest.py", "test_e5_small.py", "test_core_search.py", "test_core_pdf_index.py",
        "test_core_index.py", "test_live_index.py", "test_embedding_runtimes.py", "test_core_embeddings.py",
        "test_bibliography.py"}


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
