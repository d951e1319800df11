"""What every ``athena`` subcommand module shares: the command table, the workspace the flags name, JSON and progress output.

cli.py builds the parser from the subcommand modules (cli_agent, cli_eval, cli_server,
cli_lab, mcp); they import these helpers from here, never from cli.py, so no module
imports the command line back.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, Callable

from athena_lab.workspace import Workspace

if TYPE_CHECKING:
    from tqdm import tqdm

COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {}


def command(name: str) -> Callable:
    def register(fn: Callable[[argparse.Namespace], int]) -> Callable:
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


def provider_flags(p: argparse.ArgumentParser, purpose: str) -> None:
    p.add_argument("--provider", choices=("extractive", "openai", "anthropic", "ollama", "local"),
                   help=f"the model that {purpose} (default: the configured one)")
    p.add_argument("--model", help="the model name for that provider (local: a bundled model's name)")
    p.add_argument("--model-path", metavar="FILE.gguf", help="local provider: the GGUF to serve in-process")
