"""Where the real corpora are, and helpers that copy small real folders out of them.

The corpora live in ``../shared/corpora`` beside the checkout (read-only in CI); tests copy
what they index into pytest's tmp dirs and never write there. (A module of its own, not
conftest.py: tests/browser has a conftest too, so ``from conftest import`` is ambiguous.)
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("ATHENA_SHARED", REPO.parent / "shared"))
CORPORA = SHARED / "corpora"
FLASK_DOCS = CORPORA / "docs" / "flask" / "docs"

FLASK_PAGES = ["index.rst", "quickstart.rst", "blueprints.rst", "config.rst", "cli.rst",
               "testing.rst", "errorhandling.rst", "tutorial/views.rst", "tutorial/blog.rst",
               "tutorial/factory.rst"]


def copy_flask_subset(dest: Path, pages: list[str] = FLASK_PAGES) -> Path:
    for page in pages:
        target = dest / page
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(FLASK_DOCS / page, target)
    return dest
