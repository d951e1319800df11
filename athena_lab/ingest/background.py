"""An index run in a child process, so the server that starts it keeps answering.

Why a process and not a thread: parsing (markdown-it, nbformat), chunking, tokenising and
the pipeline's own Python work hold the GIL. On a 2-core machine a reindex thread makes
every search and chat wait for its turn at the interpreter; a child process only competes
for a core, and it runs at a lower CPU priority so requests win that too. The child also
takes the embedder's memory (over 1 GB at peak with large batches) with it when it exits,
and it is stopped the way a terminal run is: SIGTERM, which commits what is embedded
(interrupt.py) so the next run resumes.

The child receives the parent's effective settings on stdin (not argv: PDF passwords
live there), so overrides made in the parent process hold; it reports progress through
the catalog's progress row like any run, and prints its summary as JSON on stdout.

The child stops when its parent exits, however that happens (a server that never ran its
shutdown hook — Jupyter does not call a plain server extension's — or one that was
killed): it sends itself SIGTERM, so it saves what it embedded as on any stop, rather than
run on for minutes with nobody to report to while holding the index's write lock.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from athena_lab.config import Config

NICE = 5  # the child's CPU priority below the server's
PARENT_CHECK_S = 0.5  # how often the child looks whether its parent is still there
INDEXING_SECTIONS = ("index", "embedding", "search", "pdf", "multilingual")  # what a run reads; no LLM or server keys
PACKAGE_PARENT = str(Path(__file__).resolve().parents[2])


@dataclass
class Outcome:
    state: str  # done | stopped | failed
    summary: dict[str, Any] | None
    error: str | None
    returncode: int


class BackgroundIndex:
    """Handle on one child run: its pid, stop it, wait for its outcome."""

    def __init__(self, proc: subprocess.Popen) -> None:
        self._proc = proc

    @property
    def pid(self) -> int:
        return self._proc.pid

    def running(self) -> bool:
        return self._proc.poll() is None

    def stop(self) -> None:
        """Ask the run to stop: it finishes the batch in flight, saves, and exits."""
        if self._proc.poll() is None:
            self._proc.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        if self._proc.poll() is None:
            self._proc.kill()

    def wait(self, timeout: float | None = None) -> Outcome:
        """Block until the child exits (raises subprocess.TimeoutExpired after ``timeout``)."""
        out, err = self._proc.communicate(timeout=timeout)
        code = self._proc.returncode
        try:
            data = json.loads(out.strip().splitlines()[-1]) if out.strip() else {}
        except (json.JSONDecodeError, IndexError):
            data = {}
        if "error" in data:
            return Outcome("stopped" if data.get("stopped") else "failed", None, data["error"], code)
        if code == 0 and data:
            return Outcome("done", data, None, code)
        if data.get("interrupted"):
            return Outcome("stopped", data, None, code)
        last = (err.strip().splitlines() or [f"the index process exited with code {code}"])[-1]
        return Outcome("failed", None, last, code)


def start_background_index(config: Config, nice: int = NICE, multilingual: bool = False,
                           paths: list[str] | None = None, wait_s: float = 0.0) -> BackgroundIndex:
    """Start ``run_index(config)`` in a child process and return at once; ``multilingual``
    builds the multilingual channel in the same run; ``paths`` limits the run to those
    files or folders (the live index's big batches); ``wait_s`` queues it behind another
    writer that holds the index lock for at most that long."""
    payload: dict[str, Any] = {
        "root": str(config.root), "index_dir": str(config.index_dir), "nice": nice,
        "paths": paths, "wait_s": wait_s, "parent": os.getpid(),
        "settings": {section: dataclasses.asdict(getattr(config.settings, section))
                     for section in INDEXING_SECTIONS},
    }
    if multilingual:
        payload["settings"]["multilingual"]["build"] = "always"
    env = dict(os.environ)
    # The child imports this very athena_lab, whichever way the parent found it.
    env["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_PARENT, env.get("PYTHONPATH")) if p)
    proc = subprocess.Popen(
        [sys.executable, "-m", "athena_lab.ingest.background"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        # Its own session: a Ctrl-C meant for the server does not reach it; the server
        # stops it itself (SIGTERM), so it always gets the chance to save.
        start_new_session=True)
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(payload))
    proc.stdin.close()
    proc.stdin = None  # written and closed: communicate() must not flush it again
    return BackgroundIndex(proc)


def stop_with_parent(parent: int, stop: Any, every_s: float = PARENT_CHECK_S) -> threading.Thread | None:
    """Watch (in a daemon thread) for the process ``parent`` that started this one to exit
    (it is gone, or this process was handed to another parent); then SIGTERM this process —
    the stop every owner sends — unless a stop is already under way, with the output nobody
    reads any more sent to /dev/null. POSIX only (elsewhere: None, nothing watched)."""
    if os.name != "posix":
        return None
    first = os.getppid()

    def parent_alive() -> bool:
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            return False
        except OSError:  # someone else's process: it exists
            pass
        return os.getppid() == first

    def watch() -> None:
        while parent_alive():
            time.sleep(every_s)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.dup2(devnull, sys.stderr.fileno())
        if not stop.is_set():
            os.kill(os.getpid(), signal.SIGTERM)

    thread = threading.Thread(target=watch, name="athena-stop-with-parent", daemon=True)
    thread.start()
    return thread


def _child_main() -> int:
    from athena_lab.config import load_config
    from athena_lab.errors import IndexBusyError
    from athena_lab.interrupt import StopRequest, exit_code, graceful_signals
    from athena_lab.ingest.pipeline import run_index

    payload = json.loads(sys.stdin.read())
    try:
        os.nice(int(payload.get("nice", 0)))
    except (OSError, AttributeError):
        pass
    overrides = {f"{section}.{key}": value for section, values in payload["settings"].items()
                 for key, value in values.items()}
    try:
        config = load_config(payload["root"], payload["index_dir"], overrides)
        with graceful_signals(StopRequest()) as stop:
            if payload.get("parent"):
                stop_with_parent(int(payload["parent"]), stop)
            summary = run_index(config, stop=stop, paths=payload.get("paths"),
                                wait_s=float(payload.get("wait_s") or 0.0))
    except IndexBusyError as exc:
        print(json.dumps({"error": str(exc)}))
        return 3
    except KeyboardInterrupt as exc:
        reason = getattr(exc, "reason", "SIGINT")
        print(json.dumps({"stopped": reason,
                          "error": f"stopped by {reason}; what was not yet committed was rolled back "
                                   "and the index answers as before"}))
        return exit_code(reason)
    except Exception as exc:  # the message is what the job status shows
        print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}))
        return 1
    print(json.dumps(summary.as_dict(), default=str))
    return exit_code(summary.interrupted) if summary.interrupted else 0


if __name__ == "__main__":
    sys.exit(_child_main())
