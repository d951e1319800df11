"""Finding 5: ``grepDocs`` with ``regex: true`` cannot stall the server or kernel.

A real index holds lines an attacker's pattern would backtrack on; the agent tool (the
same Toolbox the MCP server serves) runs the classic catastrophic patterns. With Python's
``re`` ``(a+)+$`` against 26 a's takes well over ten seconds; with RE2 it must answer
in well under one. Patterns RE2 cannot run are refused with the feature named.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from athena_lab.agent.citations import TurnEvidence
from athena_lab.agent.tools import Toolbox
from athena_lab.workspace import Workspace

pytestmark = pytest.mark.integration

EVIL_LINE = "a" * 26 + "!"
BUDGET_S = 1.0  # RE2 needs milliseconds; the backtracking engine needed > 10 s on this line


@pytest.fixture(scope="module")
def tools(tmp_path_factory: pytest.TempPathFactory):
    root: Path = tmp_path_factory.mktemp("regex") / "docs"
    root.mkdir()
    (root / "evil.md").write_text(f"# Evil\n\n{EVIL_LINE}\n\nx = 1  # note\n", encoding="utf-8")
    (root / "plain.md").write_text("# Plain\n\ndef handler(request): pass\n", encoding="utf-8")
    ws = Workspace(root, overrides={"embedding.provider": "none"})
    ws.index()
    yield Toolbox(ws, TurnEvidence())
    ws.close()


@pytest.mark.parametrize("pattern", [r"(a+)+$", r"(a|a)*$", r"(a*)*b", r"^(a|aa)+$", r"(.*a){20}"])
def test_catastrophic_patterns_answer_in_linear_time(tools, pattern):
    started = time.perf_counter()
    result = tools.call("grepDocs", {"pattern": pattern, "regex": True, "limit": 5})
    elapsed = time.perf_counter() - started
    assert result.ok, result.content
    assert elapsed < BUDGET_S, f"{pattern!r} took {elapsed:.2f} s"


def test_anchors_match_at_line_ends_like_grep(tools):
    found = tools.call("grepDocs", {"pattern": r"^def \w+\(request\)", "regex": True})
    assert [m["path"] for m in found.content["matches"]] == ["plain.md"]
    tail = tools.call("grepDocs", {"pattern": r"a!$", "regex": True}).content["matches"]
    assert [(m["path"], m["text"]) for m in tail] == [("evil.md", EVIL_LINE)]


@pytest.mark.parametrize("pattern, feature", [
    (r"(a)\1", "backreferences"), (r"(?P<x>a)(?P=x)", "backreferences"),
    (r"foo(?=bar)", "lookaround"), (r"(?<!x)y", "negative lookaround"),
    (r"(?>a+)", "atomic groups"), (r"a++", "possessive quantifiers"),
])
def test_patterns_re2_cannot_run_are_refused_naming_the_feature(tools, pattern, feature):
    result = tools.call("grepDocs", {"pattern": pattern, "regex": True})
    assert not result.ok
    message = result.content["error"]
    assert feature in message and "RE2" in message and repr(pattern) in message
    assert "\n" not in message and "Traceback" not in message


def test_literal_search_treats_regex_characters_as_text(tools):
    result = tools.call("grepDocs", {"pattern": "x = 1  # note", "regex": False})
    assert [m["text"] for m in result.content["matches"]] == ["x = 1  # note"]
    assert tools.call("grepDocs", {"pattern": "(a+)+$", "regex": False}).content["matches"] == []
