"""``athena index --live``: index once, then follow the folder's edits until Ctrl-C.

The watch is put in place before the first run (paused), so a save made while that run
works is picked up right after it. Each batch prints one line — ``updated 3 files (2
changed, 1 deleted) in 0.8 s`` — or, with ``--json``, one JSON object per line. Batches
that changed nothing (a notebook re-saved with the same cells) print nothing.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
from typing import Any

from athena_lab.live_batch import Batch


def print_batch(batch: Batch, as_json: bool) -> None:
    if as_json:
        print(json.dumps({**batch.as_dict(), "summary": batch.summary}, default=str), flush=True)
    elif batch.files_changed or batch.error:
        print(batch.line(), flush=True)


def start_live_index(ws: Any, as_json: bool) -> Any:
    """The workspace's LiveIndex, watching but not applying until ``resume()``."""
    return ws.live_index(lambda batch: print_batch(batch, as_json), paused=True)


def keep_live_index(ws: Any, live: Any, as_json: bool) -> int:
    """Apply batches until SIGINT or SIGTERM, then stop cleanly (a batch in flight
    finishes or, while embedding, saves at its next batch) and return 0."""
    done = threading.Event()
    previous = {sig: signal.signal(sig, lambda *_: done.set()) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        if not as_json:
            print(f"watching {ws.root} for changes (Ctrl-C to stop)", flush=True)
        live.resume()
        while not done.wait(0.5):
            pass
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        live.stop()
    if not as_json:
        print(f"stopped watching after {live.batches} batch{'es' if live.batches != 1 else ''}",
              file=sys.stderr)
    return 0
