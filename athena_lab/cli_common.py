"""What every ``athena`` subcommand module shares: the command table, the workspace the flags name, JSON and progress output.

cli.py builds the parser from the subcommand modules (cli_agent, cli_eval, cli_papers,
cli_server, cli_lab, mcp); they import these helpers from here, never from cli.py, so no module
imports the command line back.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, Callable

from athena_lab.request import FilterValue
from athena_lab.workspace import Workspace

if TYPE_CHECKING:
    from tqdm import tqdm

COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {}


Command = Callable[[argparse.Namespace], int]


def command(name: str) -> Callable[[Command], Command]:
    """Register ``fn`` as the subcommand ``name`` (the decorator every subcommand module uses)."""
    def register(fn: Command) -> Command:
        COMMANDS[name] = fn
        return fn
    return register


def open_workspace(args: argparse.Namespace, overrides: dict[str, Any] | None = None) -> Workspace:
    root = getattr(args, "path_arg", None) or args.path or "."
    return Workspace(root, args.index_dir, overrides=overrides)


def print_json(data: Any) -> None:
    json.dump(data, sys.stdout, indent=2, ensure_ascii=False, default=str)
    sys.stdout.write("\n")


class ProgressBar:
    """A tqdm bar per phase on a terminal; silence when piped."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.bar: tqdm | None = None
        self.phase: str | None = None

    def __call__(self, phase: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        from tqdm import tqdm

        if phase != self.phase:
            self.close()
            self.phase = phase
            self.bar = tqdm(total=total, desc=f"{phase:>5}", unit=" chunks" if phase in ("embed", "multilingual") else " files",
                            file=sys.stderr, leave=False)
        if self.bar is not None:
            self.bar.total = total
            self.bar.n = done
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def paper_flags(p: argparse.ArgumentParser) -> None:
    """The flags that narrow a command to some papers (search/papers.py)."""
    p.add_argument("--collection", help="only papers in this Zotero collection (or one under it), "
                                        "e.g. 'Computer Science / Distributed Systems'")
    p.add_argument("--tag", help="only papers with this Zotero tag")
    p.add_argument("--author", help="only papers with an author whose name contains this")
    p.add_argument("--year", help="only papers of this year (1985) or range (1980-1990, 2000-)")
    p.add_argument("--paper", action="append", metavar="ID",
                   help="only this paper (an id from `athena papers`: zotero:KEY or a PDF's path); repeatable")


def paper_filters(args: argparse.Namespace) -> dict[str, FilterValue]:
    """The paper filters given on the command line (none: an empty dict)."""
    out: dict[str, FilterValue] = {key: getattr(args, key) for key in ("collection", "tag", "author", "year")
                           if getattr(args, key, None)}
    if getattr(args, "paper", None):
        out["papers"] = args.paper
    return out


def provider_flags(p: argparse.ArgumentParser, purpose: str) -> None:
    p.add_argument("--provider", choices=("extractive", "openai", "anthropic", "ollama", "local"),
                   help=f"the model that {purpose} (default: the configured one)")
    p.add_argument("--model", help="the model name for that provider (local: a bundled model's name)")
    p.add_argument("--model-path", metavar="FILE.gguf", help="local provider: the GGUF to serve in-process")
