"""Shared fixtures: where the real corpora are, and small real folders to index.

The corpora live in ``../shared/corpora`` beside the checkout (read-only in CI); tests copy
what they index into pytest's tmp dirs and never write there.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ATHENA_SHARED", REPO.parent / "shared"))
CORPORA = SHARED / "corpora"

FLASK_PAGES = ["index.rst", "quickstart.rst", "blueprints.rst", "config.rst", "cli.rst",
               "testing.rst", "errorhandling.rst", "tutorial/views.rst", "tutorial/blog.rst",
               "tutorial/factory.rst"]


def copy_flask_subset(dest: Path, pages: list[str] = FLASK_PAGES) -> Path:
    src = CORPORA / "docs" / "flask" / "docs"
    for page in pages:
        target = dest / page
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src / page, target)
    return dest


@pytest.fixture(scope="session")
def corpora() -> Path:
    if not CORPORA.is_dir():
        pytest.fail(f"the shared corpora are missing at {CORPORA} (set ATHENA_SHARED)")
    return CORPORA
