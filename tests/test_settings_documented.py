"""Every setting a user can write is documented, and the reference lists no setting that is
gone (datasette's habit: a test per documented thing). The keys come from the settings
dataclasses, so a key added to athena_lab/settings.py fails here until docs/configuration.md
has its row."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from athena_lab.settings import Settings

pytestmark = pytest.mark.unit

DOCS = Path(__file__).resolve().parents[1] / "docs"
REFERENCE = DOCS / "configuration.md"


def _keys() -> list[str]:
    return [f"{section.name}.{key.name}" for section in dataclasses.fields(Settings)
            for key in dataclasses.fields(section.default_factory())]


def test_every_setting_has_a_row_in_the_configuration_reference() -> None:
    rows = set(re.findall(r"^\| `([a-z_]+\.[a-z_]+)` \|", REFERENCE.read_text(encoding="utf-8"), re.M))
    missing = [key for key in _keys() if key not in rows]
    assert not missing, (f"settings with no row in docs/configuration.md: {', '.join(missing)}. Add one per key "
                         "under its section: | `section.key` | default | what it does |")


def test_the_reference_lists_no_setting_that_does_not_exist() -> None:
    rows = re.findall(r"^\| `([a-z_]+\.[a-z_]+)` \|", REFERENCE.read_text(encoding="utf-8"), re.M)
    stale = sorted(set(rows) - set(_keys()))
    assert not stale, f"docs/configuration.md lists settings athena_lab/settings.py does not have: {', '.join(stale)}"
    assert len(rows) == len(set(rows)), "a setting has two rows in docs/configuration.md"


def test_the_readme_points_to_the_reference() -> None:
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    assert "docs/configuration.md" in readme
