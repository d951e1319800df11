"""One small real index shared by the agent and `athena ask` tests: a copy of six Flask
docs pages, indexed once per test session (lexical only — these tests are about the
loop, not about vectors)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from athena_lab.workspace import Workspace

from corpus_files import FLASK_DOCS  # noqa: E402
PAGES = ["quickstart.rst", "blueprints.rst", "config.rst", "testing.rst", "cli.rst", "errorhandling.rst"]
LEXICAL = {"embedding.provider": "none"}
_built: dict[str, Path] = {}


def indexed_flask(factory: pytest.TempPathFactory) -> Path:
    """The indexed folder, built on first use and reused for the rest of the session."""
    if "root" not in _built:
        if not FLASK_DOCS.is_dir():
            pytest.fail(f"the shared Flask docs are missing at {FLASK_DOCS}")
        root = factory.mktemp("flask-docs")
        for page in PAGES:
            shutil.copy(FLASK_DOCS / page, root / page)
        ws = Workspace(root, overrides=LEXICAL)
        ws.index()
        ws.close()
        _built["root"] = root
    return _built["root"]


def workspace(root: Path, **overrides: Any) -> Workspace:
    return Workspace(root, overrides={**LEXICAL, **overrides})
