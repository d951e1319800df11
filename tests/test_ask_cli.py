"""`athena ask` as a user runs it: a real process on a real index."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from agent_corpus import indexed_flask
from wire_servers import free_port

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return indexed_flask(tmp_path_factory)


def _athena(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "ATHENA_EMBEDDING__PROVIDER": "none"}
    return subprocess.run([sys.executable, "-m", "athena_lab.cli", "ask", *args], capture_output=True,
                          text=True, env=env, timeout=120)


def test_ask_json_prints_answer_citations_unsupported_mode_and_trace(root):
    done = _athena("How do I register a blueprint?", "--path", str(root), "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert {"answer", "citations", "unsupported", "mode", "trace"} <= set(data)
    assert data["mode"] == "extractive" and data["unsupported"] == []
    assert data["citations"][0]["id"] == 1 and data["citations"][0]["path"].endswith(".rst")
    assert "[1]" in data["answer"] and data["trace"][0]["tool"] == "searchDocs"


def test_ask_streams_the_answer_then_a_numbered_source_list(root):
    done = _athena("How do I register a blueprint?", "--path", str(root), "--path-prefix", "blueprints")
    assert done.returncode == 0, done.stderr
    answer, sources = done.stdout.split("\nSources:\n")
    assert answer.startswith("- ") and "language model" not in answer  # the mode is on stderr, not in the answer
    assert sources.splitlines()[0].startswith("  [1] blueprints.rst:")
    assert "mode: extractive" in done.stderr


def test_ask_with_an_unreachable_model_is_one_error_line_and_exit_2(root):
    done = _athena("How do I register a blueprint?", "--path", str(root), "--provider", "openai",
                   "--model", "tiny", "--base-url", f"http://127.0.0.1:{free_port()}/v1")
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and done.stderr.startswith("athena: error: ")
    assert "Traceback" not in done.stderr
