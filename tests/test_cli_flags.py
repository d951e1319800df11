"""Flags say what they do: a flag a command cannot honour is refused, and help states the real defaults."""

from __future__ import annotations

import pytest

from athena_lab.cli import build_parser, main

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("command", ["serve", "lab", "mcp"])
def test_json_on_a_command_that_prints_no_results_is_refused_not_ignored(command, capsys, tmp_path):
    assert main([command, "--json", "--path", str(tmp_path)]) == 2
    assert f"athena {command}: --json has no effect here" in capsys.readouterr().err


def test_serve_help_states_the_rate_limit_default_the_config_has():
    from athena_lab.settings import ServerSettings

    sub = next(a for a in build_parser()._subparsers._group_actions if a.dest == "command")
    help_text = sub.choices["serve"].format_help()
    assert f"(default {ServerSettings().rate_limit_per_minute};" in " ".join(help_text.split())


@pytest.mark.parametrize("command", ["index", "serve"])
@pytest.mark.parametrize("flag", ["--live", "--watch"])
def test_the_live_index_flag_is_live_and_its_old_name_still_works(command, flag):
    assert build_parser().parse_args([command, flag]).live is True


def test_search_and_ask_help_state_the_k_default_the_config_has():
    from athena_lab.settings import SearchSettings

    sub = next(a for a in build_parser()._subparsers._group_actions if a.dest == "command")
    for name in ("search", "ask"):
        assert f"(default: search.k, {SearchSettings().k})" in " ".join(sub.choices[name].format_help().split())
