"""The ``athena`` command. Each subcommand is a thin wrapper over ``Workspace``.

Errors a user can fix are printed as one line naming what to do; tracebacks are for bugs.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
import time
from typing import Any

from athena_lab import __version__
from athena_lab.errors import AthenaError, BusyError, user_message
from athena_lab.citations.labels import citation_location
from athena_lab.interrupt import IndexInterrupted, StopRequest, exit_code, graceful_signals
from athena_lab.workspace import Workspace
from athena_lab import cli_agent, cli_eval, cli_lab, cli_papers, cli_server, mcp
from athena_lab.cli_common import (COMMANDS, ProgressBar, command, open_workspace, paper_filters, paper_flags,
                                   print_json, provider_flags)


@command("index")
def cmd_index(args: argparse.Namespace) -> int:
    ws = open_workspace(args, {"multilingual.build": "always"} if args.multilingual else None)
    if not args.live:
        return _index_once(ws, args)
    from athena_lab.cli_live import keep_live_index, start_live_index

    live = start_live_index(ws, args.json)  # before the first run: no save is missed
    try:
        code = _index_once(ws, args)
        return code if code else keep_live_index(ws, live, args.json)
    finally:
        live.stop()


def _ray_backend(ws: Workspace, args: argparse.Namespace) -> Any:
    """The Ray backend when ``--ray`` was given (raises one line if Ray is missing), else None."""
    if getattr(args, "ray", None) is None:
        return None
    return ws.ray_backend(args.ray or None, args.ray_cpus)


def _index_once(ws: Workspace, args: argparse.Namespace) -> int:
    backend = _ray_backend(ws, args)
    bar = ProgressBar(sys.stderr.isatty() and not args.json)
    try:
        # Ctrl-C or SIGTERM while embedding: finish the batch, save, and report (interrupt.py).
        with graceful_signals(StopRequest()) as stop:
            summary = ws.index(progress=bar, wait_s=args.wait, stop=stop, backend=backend)
    finally:
        bar.close()
        if backend is not None:
            backend.close()
    stopped = _interrupted_message(summary)
    # Last, on stderr; exit 0 all the same: an empty new folder (or --live on one) is fine.
    empty = f"athena: warning: {summary.no_files}" if summary.no_files else ""
    if args.json:
        print_json(summary.as_dict())
        if empty:
            print(empty, file=sys.stderr)
        if stopped:
            print(f"athena: {stopped}", file=sys.stderr)
        return exit_code(summary.interrupted) if stopped else 0
    print(f"indexed {ws.root} → {ws.index_dir}")
    print(f"  files: {summary.new} new, {summary.changed} changed, {summary.unchanged} unchanged, "
          f"{summary.removed} removed, {summary.failed} failed, {summary.pending} pending")
    print(f"  chunks: {summary.chunks} in the index ({summary.chunks_written} written this run); "
          f"embedded {summary.embedded} (+{summary.embedded_from_cache} from cache)"
          + (f" with {summary.embedder}" if summary.embedder else ""))
    if summary.multilingual:
        m = summary.multilingual
        print(f"  multilingual: embedded {m['embedded']} (+{m['from_cache']} from cache) with {m['model']}")
    if summary.library:
        items = summary.library["items"]
        print(f"  library: {items} item{'' if items == 1 else 's'} read from {', '.join(summary.library['from'])} "
              "(records, collections, tags; `athena papers` lists them)")
    print(f"  took {summary.seconds:.2f} s")
    if summary.duplicates:
        print(f"  duplicates: {summary.duplicates} file(s) with the same bytes as another, indexed once under "
              "the first path (athena status lists them)")
    for path, warnings in sorted(summary.warnings.items()):
        for w in warnings:
            print(f"  warning: {path}: {w}")
    for err in summary.errors:
        print(f"  warning: {err}")
    if summary.needs_ocr:
        papers, pages = len(summary.needs_ocr), sum(summary.needs_ocr.values())
        print(f"athena: {papers} PDF(s) have {pages} page(s) only OCR can read (scans, garbled text layers); "
              f"they are not indexed: pip install 'athena-lab[ocr]' and run athena index again", file=sys.stderr)
    if empty:
        print(empty, file=sys.stderr)
    if stopped:
        print(f"athena: {stopped}", file=sys.stderr)
        return exit_code(summary.interrupted)
    return 0


def _interrupted_message(summary: Any) -> str:
    if not summary.interrupted:
        return ""
    left = summary.vectors_total - summary.vectors_done
    if not left and summary.multilingual is not None:
        return (f"stopped by {summary.interrupted} while embedding the multilingual vectors; those "
                "embedded so far are saved and searchable. Run `athena index --multilingual` to "
                "embed the rest.")
    return (f"stopped by {summary.interrupted} while embedding; vectors {summary.vectors_done:,} / "
            f"{summary.vectors_total:,} are saved and searchable. Run `athena index` again to embed "
            f"the remaining {left:,}.")


@command("search")
def cmd_search(args: argparse.Namespace) -> int:
    ws = open_workspace(args)
    result = ws.search(args.query, k=args.k, kind=args.kind, path_prefix=args.path_prefix,
                       neighbours=args.neighbours, mode=args.mode, translate=_translator(ws, args),
                       papers=paper_filters(args) or None)
    cites = result.citations()
    if args.json:
        print_json(cites)
        if result.degraded:
            print(f"athena: {result.degraded}", file=sys.stderr)
        return 0
    if result.degraded:
        print(f"note: {result.degraded}")
    for w in result.warnings:
        print(f"note: {w}")
    if not cites:
        print("no results")
    for n, c in enumerate(cites, 1):
        where = citation_location(c)
        heading = f"  {c['heading_path']}" if c.get("heading_path") else ""
        print(f"{n:>2}. {where}{heading}  (score {c['score']:.4f})")
        print(textwrap.indent(c["snippet"], "    "))  # its lines kept: code reads as code
    return 0


@command("cite")
def cmd_cite(args: argparse.Namespace) -> int:
    from athena_lab.citations.bibliography import render

    targets: list[str] = []
    for target in args.targets:
        targets += _answer_sources(target) if target.endswith(".json") else [target]
    print(render(open_workspace(args).cite(targets), args.format), end="")
    return 0


def _answer_sources(file: str) -> list[str]:
    """The cited chunks (or paths) of an answer saved with `athena ask --json`."""
    try:
        with open(file, encoding="utf-8") as fh:
            answer = json.load(fh)
        citations = answer["citations"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise AthenaError(f"{file}: not an answer saved by `athena ask --json` ({exc})") from None
    return [c.get("chunk_id") or c["path"] for c in citations if isinstance(c, dict)]


@command("status")
def cmd_status(args: argparse.Namespace) -> int:
    ws = open_workspace(args)
    status = ws.status()
    if args.json:
        print_json(status)
        return 0
    counts = status["counts"]
    when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(status["last_indexed"])) if status["last_indexed"] else "never"
    updated = f" (updated {ago(status['updated_at'])})" if status["updated_at"] else ""
    print(f"{status['root']} (index: {status['index_dir']})")
    print(f"  {counts['files']} files, {counts['chunks']} chunks, {counts['failed']} failed, "
          f"{counts['pending']} pending; last indexed {when}{updated}; embedder {status['embedder'] or 'none'}")
    print(f"  {status['vectors']['message']}")
    ml = status["multilingual"]
    if ml["build"] != "off":
        print(f"  multilingual vectors {ml['done']:,} / {ml['total']:,}" + (f" ({ml['model']})" if ml["model"] else
              " (built by `athena index --multilingual`, or by a server on the first question in another language)"))
    run = status["run"]
    if run:
        print(f"  index run in progress (pid {run['pid']}): {run['phase']} {run['done']:,} / {run['total']:,}, "
              f"started {time.strftime('%H:%M:%S', time.localtime(run['started_at']))}")
    by_kind: dict[str, int] = {}
    for f in status["files"]:
        by_kind[f["doc_kind"]] = by_kind.get(f["doc_kind"], 0) + 1
    print("  kinds: " + ", ".join(f"{k} {n}" for k, n in sorted(by_kind.items())))
    warned = [(f["path"], f["warnings"]) for f in status["files"]] + [(s["path"], s["warnings"]) for s in status["skipped"]]
    for path, warnings in warned:
        for w in warnings:
            print(f"  warning: {path}: {w}")
    return 0


def ago(when: float) -> str:
    """``3 s ago``, ``5 min ago`` — how the sidebar says it too."""
    from athena_lab.duration import duration

    return f"{duration(max(0.0, time.time() - when))} ago"


@command("doctor")
def cmd_doctor(args: argparse.Namespace) -> int:
    chosen = {"llm.provider": args.provider, "llm.model": args.model, "llm.model_path": args.model_path}
    ws = open_workspace(args, {key: value for key, value in chosen.items() if value})
    report = ws.doctor()
    if args.json:
        print_json({"ok": report.ok, "checks": [c.__dict__ for c in report.checks],
                     "embedding_runtime": report.embedding_runtime})
        return 0 if report.ok else 1
    for c in report.checks:
        mark = "ok " if c.ok else ("warn" if c.warn else "FAIL")
        print(f"[{mark}] {c.name}: {c.detail}")
        if c.fix:
            print(f"       fix: {c.fix}")
    print("all good" if report.ok else "problems found (see FAIL lines)")
    return 0 if report.ok else 1


def _translator(ws: Any, args: argparse.Namespace) -> Any:
    """What puts a question into English for search: the provider asked for, if any."""
    if not (args.provider or args.model_path or args.model) or args.provider == "extractive":
        return None
    kind = args.provider or ("local" if args.model_path else ws.config.settings.llm.provider)
    return (kind if kind != "extractive" else "openai", args.model, args.model_path)  # loaded only when needed


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--path", help="the indexed folder (default: the current one)")
    common.add_argument("--index-dir", help="where the index lives (default: PATH/.athena)")
    common.add_argument("--json", action="store_true", help="machine-readable output")
    parser = argparse.ArgumentParser(prog="athena", description="Index a folder of docs, notebooks and PDFs; search it with exact citations.")
    parser.add_argument("--version", action="version", version=f"athena-lab {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("index", parents=[common], help="build or update the index of a folder")
    p.add_argument("path_arg", nargs="?", metavar="PATH", help="folder to index (same as --path)")
    p.add_argument("--wait", type=float, default=0.0, metavar="SECONDS",
                   help="if another index run holds the lock, wait this long for it")
    p.add_argument("--multilingual", action="store_true",
                   help="also build the multilingual vectors that questions in other languages use")
    p.add_argument("--live", "--watch", dest="live", action="store_true",
                   help="after indexing, run the live index: re-index what changes until Ctrl-C, one line per "
                        "batch (--watch is its old name)")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="parse and embed on Ray: the cluster at ADDRESS, or a local one "
                        "(needs athena-lab[ray]); the index written is the same")
    p.add_argument("--ray-cpus", type=int, default=None, metavar="N",
                   help="CPUs of the local Ray cluster --ray starts (default: all)")

    p = sub.add_parser("search", parents=[common], help="hybrid search with citations")
    p.add_argument("query")
    p.add_argument("-k", type=int, default=None, help="number of hits (default: search.k, 8)")
    p.add_argument("--kind", help="markdown, rst, asciidoc, text, html, notebook, pdf")
    p.add_argument("--path-prefix", help="only files under this path")
    p.add_argument("--neighbours", type=int, default=0, help="attach N chunks of context each side")
    p.add_argument("--mode", choices=("hybrid", "lexical", "vector"), default="hybrid")
    paper_flags(p)
    provider_flags(p, "puts a question in another language into English, searched beside it")

    p = sub.add_parser("cite", parents=[common], help="BibTeX, RIS or CSL-JSON for sources, chunks or an answer")
    p.add_argument("targets", nargs="+", metavar="CHUNK_OR_ANSWER",
                   help="chunk ids, indexed paths, paper ids (zotero:KEY) or an answer saved by `athena ask --json` "
                        "(a .json file)")
    p.add_argument("--format", choices=("bibtex", "ris", "csl-json"), default="bibtex")

    sub.add_parser("status", parents=[common], help="what is indexed, when, with which warnings")
    p = sub.add_parser("doctor", parents=[common], help="check versions, the embedder, the index and the model")
    provider_flags(p, "answers (the local one is loaded and timed)")

    # Subcommands that live in their own modules (eval, ask, papers, serve, lab, mcp).
    for module in (cli_eval, cli_agent, cli_papers, cli_server, cli_lab, mcp):
        module.register(sub, common, command)
    return parser


NO_JSON = ("serve", "lab", "mcp")  # they take the common flags, but print nothing to make JSON of


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        handler = COMMANDS.get("default")
        if handler is None:
            parser.print_help()
            return 0
        return handler(args)
    if getattr(args, "json", False) and args.command in NO_JSON:
        # Servers print no results to make machine-readable: say so rather than ignore it.
        print(f"athena {args.command}: --json has no effect here: it serves, it prints no results", file=sys.stderr)
        return 2
    try:
        return COMMANDS[args.command](args)
    except BusyError as exc:
        print(f"athena: {exc.user_message()}", file=sys.stderr)
        return exc.exit_code
    except (AthenaError, FileNotFoundError) as exc:
        print(f"athena: error: {user_message(exc)}", file=sys.stderr)
        return exc.exit_code if isinstance(exc, AthenaError) else 2
    except BrokenPipeError:  # output piped into `head` and closed early
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt as exc:
        reason = exc.reason if isinstance(exc, IndexInterrupted) else "SIGINT"
        print(f"athena: interrupted ({reason}); the previous index still answers, run the command "
              "again to finish", file=sys.stderr)
        return exit_code(reason)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
