"""``athena lab [PATH]`` (and bare ``athena``): index if needed, then JupyterLab with the chat.

The text is indexed in the foreground (seconds, and search works from then on); the
vectors are embedded by the server extension in a background process once Lab is up
(ATHENA_EMBED_IN_BACKGROUND), so Lab opens without waiting minutes for embeddings and
the sidebar shows their progress. The server extension finds the folder and its index
through ATHENA_WORKSPACE__ROOT and ATHENA_WORKSPACE__INDEX_DIR, so Lab serves exactly what was just indexed;
ATHENA_OPEN_CHAT asks the sidebar to open itself on start.

Jupyter's own options pass through after ``--`` (``athena lab PATH -- --ServerApp.x=y``) and
win over the ones athena sets (root folder, ip, port, token). As root, ``--allow-root`` is
added (Jupyter refuses to start as root without it), with a note. The embedder Lab starts
is a child of Jupyter (ingest/background.py) and stops itself when Jupyter exits, saving
what it embedded; the next run resumes.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from typing import Any, Callable


def register(sub: Any, common: argparse.ArgumentParser, command: Callable) -> None:
    p = sub.add_parser("lab", parents=[common], help="index PATH if needed and open JupyterLab with the athena chat",
                       epilog="Arguments after -- go to `jupyter lab` as they are and replace athena's own "
                              "settings of the same name, e.g. athena lab docs/ -- --ServerApp.base_url=/x/ "
                              "--port 8899")
    p.parse_known_args = _after_separator(p.parse_known_args)  # type: ignore[method-assign]
    p.add_argument("path_arg", nargs="?", metavar="PATH", help="folder to index and open (same as --path)")
    p.add_argument("--ip", default="127.0.0.1", help="address JupyterLab listens on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8888, help="JupyterLab port (default 8888)")
    p.add_argument("--token", help="the token Lab asks for (default: Jupyter makes one and prints the URL)")
    p.add_argument("--allow-root", action="store_true",
                   help="let Jupyter run as root (added by itself when athena runs as root)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument("--skip-index", action="store_true", help="start Lab without updating the index")
    command("lab")(cmd_lab)
    command("default")(cmd_default)


def _after_separator(parse: Callable) -> Callable:
    """``lab``'s parsing with everything after ``--`` set aside as ``jupyter_args``, untouched
    (argparse itself would refuse them once the folder has filled its positional slot)."""

    def parse_known_args(args: Any = None, namespace: Any = None) -> tuple[argparse.Namespace, list[str]]:
        args, extra = list(args or []), []
        if "--" in args:  # the subcommand's own arguments, as the `athena` parser hands them over
            cut = args.index("--")
            args, extra = args[:cut], args[cut + 1:]
        parsed, unknown = parse(args, namespace)
        parsed.jupyter_args = extra
        return parsed, unknown

    return parse_known_args


def cmd_default(args: argparse.Namespace) -> int:
    """Bare ``athena`` in a folder: the same as ``athena lab .``."""
    defaults = argparse.Namespace(path=None, path_arg=".", index_dir=None, json=False, ip="127.0.0.1",
                                  port=8888, token=None, allow_root=False, no_browser=False,
                                  skip_index=False, jupyter_args=[])
    return cmd_lab(defaults)


#: The Jupyter settings athena lab passes, and the other command-line names that set them:
#: Jupyter refuses one setting given twice, so one the user passes after -- replaces athena's.
_SETTINGS = {"ServerApp.root_dir": ("notebook-dir", "ServerApp.notebook_dir"), "ServerApp.ip": ("ip",),
             "ServerApp.port": ("port",), "IdentityProvider.token": ("ServerApp.token", "token")}


def jupyter_argv(jupyter: str, root: str, args: argparse.Namespace,
                 euid: int | None) -> tuple[list[str], list[str]]:
    """``jupyter lab`` and its arguments for ``args``, and notes for the user. ``euid``: the
    effective user id (None where there is none): as root (0), ``--allow-root`` is added."""
    extra = list(args.jupyter_args or [])
    given = {arg[2:].split("=", 1)[0] for arg in extra if arg.startswith("--")}
    own = {"ServerApp.root_dir": root, "ServerApp.ip": args.ip, "ServerApp.port": str(args.port)}
    if args.token is not None:
        own["IdentityProvider.token"] = args.token
    argv = [jupyter, "lab"] + [f"--{name}={value}" for name, value in own.items()
                               if not given & {name, *_SETTINGS[name]}]
    if args.no_browser:
        argv.append("--no-browser")
    notes = []
    if args.allow_root:
        argv.append("--allow-root")
    elif euid == 0 and not given & {"allow-root", "ServerApp.allow_root"}:
        argv.append("--allow-root")
        notes.append("athena: running as root, so JupyterLab starts with --allow-root (Jupyter refuses "
                     "to run as root without it)")
    return argv + extra, notes


def cmd_lab(args: argparse.Namespace) -> int:
    from athena_lab.cli_common import ProgressBar, open_workspace

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
        if summary.no_files:
            print(f"athena: warning: {summary.no_files}", file=sys.stderr)
    jupyter = shutil.which("jupyter", path=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    if jupyter is None:
        print("athena: error: JupyterLab is not installed in this environment: pip install jupyterlab",
              file=sys.stderr)
        return 2
    env = dict(os.environ, ATHENA_WORKSPACE__ROOT=str(ws.root), ATHENA_WORKSPACE__INDEX_DIR=str(ws.index_dir),
               ATHENA_OPEN_CHAT="1",
               ATHENA_EMBED_IN_BACKGROUND="0" if args.skip_index else "1")
    argv, notes = jupyter_argv(jupyter, str(ws.root), args, os.geteuid() if hasattr(os, "geteuid") else None)
    for note in notes:
        print(note, file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(jupyter, argv, env)
    return 0  # pragma: no cover - execve does not return
