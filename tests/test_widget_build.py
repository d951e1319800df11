"""The notebook answer widget's view is built, not committed (labextension/src/widget/ →
athena_lab/static/widget.js by `npm run build:prod`): the packaging must build and ship
it, and a source checkout without the build must say how to build it instead of failing
with a traceback about a missing file."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration  # it starts a Python process without the build

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

REPO = Path(__file__).resolve().parents[1]
BUILT = "athena_lab/static/widget.js"


def test_wheel_and_sdist_ship_the_built_widget_and_the_build_must_make_it() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    targets = config["tool"]["hatch"]["build"]["targets"]
    assert BUILT in targets["wheel"]["artifacts"], "the wheel ships the built (git-ignored) file"
    assert BUILT in targets["sdist"]["artifacts"], "so does the sdist"
    hook = config["tool"]["hatch"]["build"]["hooks"]["jupyter-builder"]
    assert BUILT in hook["ensured-targets"], "a build without it fails"
    assert hook["build-kwargs"]["build_cmd"] == "build:prod"
    package = json.loads((REPO / "labextension" / "package.json").read_text(encoding="utf-8"))
    assert f"../{BUILT}" in package["scripts"]["clean"].split()
    webpack = (REPO / "labextension" / "page.webpack.config.js").read_text(encoding="utf-8")
    assert "entry: './lib/widget/widget.js'" in webpack and "type: 'module'" in webpack
    ignored = (REPO / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert BUILT in ignored, "the build output is not committed"


def test_without_the_build_an_answer_shows_as_html_and_says_how_to_build_the_widget(tmp_path: Path) -> None:
    """A copy of the package without static/widget.js, as a fresh source checkout has it."""
    shutil.copytree(REPO / "athena_lab", tmp_path / "athena_lab",
                    ignore=shutil.ignore_patterns("__pycache__", "labextension", "widget.js"))
    assert not (tmp_path / BUILT).exists()
    script = ("from athena_lab.widget import AnswerWidget\n"
              "w = AnswerWidget(None, question='q?', answer='Set SECRET_KEY [1].')\n"
              "AnswerWidget(None, answer='again')\n"
              "print(sorted(w._repr_mimebundle_()[0]))\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "FileNotFoundError" not in done.stderr
    assert re.search(r"answer widget is not built .*widget\.js is missing", done.stderr), done.stderr
    assert "npm run build:prod" in done.stderr and "./run setup" in done.stderr
    assert done.stderr.count("not built") == 1, "said once per kernel, not per answer"
    # No widget view that cannot load; the answer's state stays beside the fallbacks (Lab's
    # athena extension draws it with its own view, labextension/src/savedWidget.ts).
    assert done.stdout.strip() == "['application/vnd.athena.answer+json', 'text/html', 'text/plain']"
