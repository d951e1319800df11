"""Write docs/architecture.md: the layers, and one line per module from its docstring.

    python tools/architecture_doc.py        # rewrite the page
Every module of the package must belong to one of GROUPS and say what it holds in its
docstring (only an empty ``__init__.py`` may say nothing): otherwise render() raises, naming
the module, so tests/test_layers.py fails and this script exits non-zero. It also fails when
the page is out of date, so run this after adding, moving or re-describing a module.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "athena_lab"
GROUPS = [
    ("Front ends (they talk to the workspace only)",
     ["__init__.py", "cli.py", "cli_common.py", "cli_agent.py", "cli_eval.py", "cli_papers.py", "cli_lab.py", "cli_server.py",
      "cli_live.py", "server/", "mcp.py",
      "magic.py", "api.py", "widget.py", "evaluation.py", "render.py"]),
    ("Answer evaluation (its own sentence, marker and source-reading rules: it imports nothing it grades)",
     ["answer_eval.py"]),
    ("The facade", ["workspace.py", "health.py"]),
    ("Agent (sees the folder through agent/corpus.py's protocol)", ["agent/"]),
    ("Ingest (writes into the index)", ["ingest/"]),
    ("Search", ["search/"]),
    ("Citations (labels, export, freshness: below search, which labels its hits)", ["citations/"]),
    ("PDF and index", ["pdf/", "index/"]),
    ("The contract and shared leaves", ["events.py", "contract.py", "request.py", "answer.py", "duration.py",
                                        "live_batch.py", "document.py", "config.py", "settings.py", "redact.py", "interrupt.py",
                                        "language.py", "paths.py", "errors.py"]),
]
INTRO = """# Architecture: the layers and what each module holds

Imports flow one way. Front ends (CLI, HTTP server, MCP, magic, widget, notebook API) use
one facade, `athena_lab.workspace.Workspace`; the facade drives the agent, search, ingest and
index layers; the contract (`events`, `contract`, `request`, `answer`) and the shared leaves sit at the bottom.
`pyproject.toml`'s `[tool.importlinter]` contract states the layers and
`tests/test_layers.py` fails when an import goes upwards, a front end reaches past the
facade, or modules import each other in a cycle (it computes the module graph with grimp). The shapes front ends exchange are in [contract.md](contract.md). This page is
written by `tools/architecture_doc.py`.

One name per concept:

- **`k`**: how many passages a search returns and an answer retrieves first (`search.k`,
  8; `AskRequest.k`, `-k`, HTTP `k`). **`top_k`** is only the model's sampling (`llm.top_k`);
  the old `top_k` for passages is still read, with a warning. **`limit`** caps an unranked
  list (grep lines, conversations listed). The agent tools' JSON schemas keep `limit` for
  their result count: it is the wire name models and MCP clients already send.
- **The live index**: the feature that re-indexes saves (`ingest/live.py`, `cli_live.py`,
  `server/live.py`, `Workspace.live_index`, `--live`); its *watcher* is the thread that
  watches the folder. `--watch` and `Workspace.follow` are the old names, still accepted.
- **`TurnEvidence`** is what one turn retrieved (agent/citations.py); **`contract.Evidence`**
  is the JSON of one evidence entry of a citation.
- **Summarise** (British, like the rest: licence, neighbours).
- **`SearchResult.channel`** (`ChannelStatus`) says what the multilingual vectors did;
  `warnings` are sentences for a person, never parsed.
"""


def first_paragraph(path: Path) -> str:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return " ".join(doc.split("\n\n")[0].split()).replace("|", "\\|")


class IncompletePage(Exception):
    """A module the page would leave out: not in GROUPS, or without a docstring."""


def render() -> str:
    out, listed, undescribed = [INTRO], set(), []
    for title, members in GROUPS:
        out += [f"## {title}", "", "| module | holds |", "|---|---|"]
        for member in members:
            paths = sorted((PACKAGE / member).rglob("*.py")) if member.endswith("/") else [PACKAGE / member]
            for path in paths:
                listed.add(path)
                text = first_paragraph(path)
                if text:
                    out.append(f"| `{path.relative_to(PACKAGE).as_posix()}` | {text} |")
                elif path.name != "__init__.py" or path.read_text(encoding="utf-8").strip():
                    undescribed.append(path.relative_to(PACKAGE).as_posix())
        out.append("")
    unlisted = sorted(p.relative_to(PACKAGE).as_posix() for p in set(PACKAGE.rglob("*.py")) - listed)
    problems = [f"{name}: in no group of tools/architecture_doc.py's GROUPS" for name in unlisted]
    problems += [f"{name}: has no docstring saying what it holds" for name in undescribed]
    if problems:
        raise IncompletePage("docs/architecture.md would leave out:\n  " + "\n  ".join(problems))
    return "\n".join(out)


if __name__ == "__main__":
    try:
        page = render()
    except IncompletePage as exc:
        raise SystemExit(str(exc)) from None
    (REPO / "docs" / "architecture.md").write_text(page, encoding="utf-8")
