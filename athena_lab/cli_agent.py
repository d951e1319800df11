"""`athena ask`: one question, the answer streamed to the terminal, then its sources.

The command only renders the loop's events; `--json` prints
`{answer, citations, unsupported, mode, trace}` (plus conversation_id and usage).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, Iterator

from athena_lab.answer import collect
from athena_lab.cli_common import open_workspace, paper_filters, paper_flags
from athena_lab.events import Event
from athena_lab.render import stream_text
from athena_lab.request import AskRequest


def register(sub: Any, common: argparse.ArgumentParser, command: Callable) -> None:
    p = sub.add_parser("ask", parents=[common], help="answer a question from the index, with citations")
    p.add_argument("question")
    p.add_argument("--provider", choices=("extractive", "openai", "anthropic", "ollama", "local"),
                   help="LLM provider (default: llm.provider from the config, extractive if none)")
    p.add_argument("--model", help="model name for the provider")
    p.add_argument("--base-url", help="provider endpoint, e.g. http://127.0.0.1:8080/v1")
    p.add_argument("--model-path", metavar="FILE.gguf",
                   help="local provider: a GGUF model served by llama.cpp in this process (pip install xllamacpp)")
    p.add_argument("--conversation", metavar="ID", help="continue this conversation (follow-up)")
    p.add_argument("--kind", help="only this document kind (markdown, rst, pdf, notebook, …)")
    p.add_argument("--path-prefix", help="only files under this path")
    p.add_argument("-k", type=int, default=None, help="passages retrieved first (default: search.k, 8)")
    paper_flags(p)
    command("ask")(cmd_ask)


def cmd_ask(args: argparse.Namespace) -> int:
    ws = open_workspace(args)
    request = AskRequest(args.question, conversation_id=args.conversation,
                         filters={"kind": args.kind, "path_prefix": args.path_prefix, **paper_filters(args)}, provider=args.provider,
                         model=args.model, k=args.k, base_url=args.base_url, model_path=args.model_path or None)
    stream = ws.ask_events(request)
    if args.json:
        answer = collect(stream)
        if answer.error:
            return _fail(answer.error)
        data = answer.to_dict()
        data.pop("error")
        json.dump(data, sys.stdout, indent=2, ensure_ascii=False, default=str)
        sys.stdout.write("\n")
        return 0
    return _render(stream)


def _render(stream: Iterator[Event]) -> int:
    """Print chunks as they arrive; the numbered sources and any warnings after them."""
    answer = stream_text(stream)
    return _fail(answer.error) if answer.error else 0


def _fail(message: str) -> int:
    print(f"athena: error: {message}", file=sys.stderr)
    return 2
