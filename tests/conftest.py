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
