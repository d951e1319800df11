"""A citation's snippet (search/hybrid.py ``snippet``), which the notebook widget, the CLI,
the HTTP API and MCP show: code keeps its lines, and reST roles read as Sphinx shows them."""

from __future__ import annotations

from athena_lab.render import answer_html
from athena_lab.search.hybrid import snippet
import pytest

pytestmark = pytest.mark.unit

CHUNK = """URL Building
````````````

To build a URL to a specific function, use the :func:`~flask.url_for` function.

.. code-block:: python

    @app.route('/user/<username>')
    def profile(username):
        return f'{username}\\'s profile'
"""


def test_a_snippet_keeps_the_lines_and_indentation_of_code():
    """Issue 31: the widget's snippet flattened code to one line."""
    shown = snippet(CHUNK, "How do I build a URL?")
    assert "    def profile(username):\n        return f'{username}\\'s profile'" in shown
    assert "\n\n" not in shown  # blank lines go: a snippet is short


def test_a_snippet_shows_a_rest_role_as_its_name():
    shown = snippet(CHUNK, "url_for")
    assert "use the url_for function." in shown and ":func:" not in shown
    assert snippet("See :ref:`URL Building <url-building>` first.", "url") == "See URL Building first."


def test_a_long_snippet_is_a_window_around_the_question_starting_at_a_line():
    text = "\n".join(f"line {n} of filler prose about harbours and gulls" for n in range(40)) + \
        "\nThe kiln fires at dawn.\n" + "\n".join(f"more {n} filler" for n in range(40))
    shown = snippet(text, "When does the kiln fire?")
    assert "The kiln fires at dawn." in shown and shown.startswith("…\n") and shown.endswith("…")
    assert len(shown) <= 290


def test_the_widgets_static_fallback_shows_the_snippets_lines():
    html = answer_html("Use it [1].", [{"id": 1, "kind": "text", "path": "a.rst", "start_line": 1, "end_line": 9,
                                        "snippet": snippet(CHUNK, "profile")}], [])
    assert "    def profile(username):\n" in html
