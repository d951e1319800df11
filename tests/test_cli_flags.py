"""Flags say what they do: a flag a command cannot honour is refused, and help states the real defaults."""

from __future__ import annotations

import pytest

from athena_lab.cli import build_parser, main


@pytest.mark.parametrize("command", ["serve", "lab", "mcp"])
def test_json_on_a_command_that_prints_no_results_is_refused_not_ignored(command, capsys, tmp_path):
    assert main([command, "--json", "--path", str(tmp_path)]) == 2
    assert f"athena {command}: --json has no effect here" in capsys.readouterr().err


def test_serve_help_states_the_rate_limit_default_the_config_has():
    from athena_lab.settings import ServerSettings

    sub = next(a for a in build_parser()._subparsers._group_actions if a.dest == "command")
    help_text = sub.choices["serve"].format_help()
    assert f"(default {ServerSettings().rate_limit_per_minute};" in " ".join(help_text.split())
