"""``athena lab [PATH]`` (and bare ``athena``): index if needed, then JupyterLab with the chat.

The text is indexed in the foreground (seconds, and search works from then on); the
vectors are embedded by the server extension in a background process once Lab is up
(ATHENA_EMBED_IN_BACKGROUND), so Lab opens without waiting minutes for embeddings and
the sidebar shows their progress. The server extension finds the folder and its index
through ATHENA_ROOT and ATHENA_INDEX_DIR, so Lab serves exactly what was just indexed;
ATHENA_OPEN_CHAT asks the sidebar to open itself on start.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from typing import Any, Callable


def register(sub: Any, common: argparse.ArgumentParser, command: Callable) -> None:
    p = sub.add_parser("lab", parents=[common], help="index PATH if needed and open JupyterLab with the athena chat")
    p.add_argument("path_arg", nargs="?", metavar="PATH", help="folder to index and open (same as --path)")
    p.add_argument("--port", type=int, default=8888, help="JupyterLab port (default 8888)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument("--skip-index", action="store_true", help="start Lab without updating the index")
    command("lab")(cmd_lab)
    command("default")(cmd_default)


def cmd_default(args: argparse.Namespace) -> int:
    """Bare ``athena`` in a folder: the same as ``athena lab .``."""
    defaults = argparse.Namespace(path=None, path_arg=".", index_dir=None, json=False, port=8888,
                                  no_browser=False, skip_index=False)
    return cmd_lab(defaults)


def cmd_lab(args: argparse.Namespace) -> int:
    from athena_lab.cli import ProgressBar, open_workspace

    ws = open_workspace(args)
    if not args.skip_index:
        bar = ProgressBar(sys.stderr.isatty())
        try:
            summary = ws.index(progress=bar, embed=False)
        finally:
            bar.close()
        vectors = ws.vector_state()
        later = "; the rest is embedded in the background once Lab is up" if vectors.state in ("partial", "missing") else ""
        print(f"athena: {summary.chunks} chunks indexed from {ws.root} "
              f"({summary.new} new, {summary.changed} changed, {summary.failed} failed) in {summary.seconds:.1f} s; "
              f"{vectors.message if vectors.state == 'off' else vectors.counts}{later}", file=sys.stderr)
    jupyter = shutil.which("jupyter", path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    if jupyter is None:
        print("athena: error: JupyterLab is not installed in this environment: pip install jupyterlab",
              file=sys.stderr)
        return 2
    env = dict(os.environ, ATHENA_ROOT=str(ws.root), ATHENA_INDEX_DIR=str(ws.index_dir), ATHENA_OPEN_CHAT="1",
               ATHENA_EMBED_IN_BACKGROUND="0" if args.skip_index else "1")
    argv = [jupyter, "lab", f"--ServerApp.root_dir={ws.root}", "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={args.port}"]
    if args.no_browser:
        argv.append("--no-browser")
    os.execve(jupyter, argv, env)
    return 0  # pragma: no cover - execve does not return
