"""Shared fixtures for the whole suite."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus_files import CORPORA


@pytest.fixture(scope="session")
def corpora() -> Path:
    if not CORPORA.is_dir():
        pytest.fail(f"the shared corpora are missing at {CORPORA} (set ATHENA_SHARED)")
    return CORPORA
