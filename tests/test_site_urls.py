"""The citation → docs-site URL rule of ``[dropin] site_url_map`` (athena_lab/server/site_urls.py),
and that only the user's own config may set it."""

from __future__ import annotations

import pytest

from athena_lab import events
from athena_lab.config import load_config
from athena_lab.server.site_urls import compile_rules, event_with_site_urls, site_url, with_site_urls

pytestmark = pytest.mark.unit

FASTAPI = {"fastapi/docs/en/docs/**.md": "https://fastapi.example/{path}"}


def _url(mapping: dict[str, str], path: str, **extra: object) -> str | None:
    return site_url({"kind": "text", "path": path, **extra}, compile_rules(mapping))


def test_the_matched_prefix_is_stripped_and_the_extension_dropped() -> None:
    assert _url(FASTAPI, "fastapi/docs/en/docs/tutorial/body.md") == "https://fastapi.example/tutorial/body"
    assert _url(FASTAPI, "fastapi/docs/en/docs/features.md") == "https://fastapi.example/features"


def test_an_index_page_is_its_folder() -> None:
    assert _url(FASTAPI, "fastapi/docs/en/docs/tutorial/index.md") == "https://fastapi.example/tutorial/"
    assert _url(FASTAPI, "fastapi/docs/en/docs/index.md") == "https://fastapi.example/"


def test_paths_outside_the_glob_get_no_url() -> None:
    assert _url(FASTAPI, "fastapi/README.md") is None
    assert _url(FASTAPI, "fastapi/docs/en/docs/img/logo.png") is None
    assert _url({"docs/*.md": "https://d.example/{path}"}, "docs/a/b.md") is None  # * stays in one folder


def test_a_line_anchor_only_when_the_citation_has_a_line() -> None:
    mapping = {"handbook/**.rst": "https://git.example/blob/main/{file}#L{line}"}
    assert _url(mapping, "handbook/ops/deploy.rst", start_line=40) == "https://git.example/blob/main/ops/deploy.rst#L40"
    assert _url(mapping, "handbook/ops/deploy.rst") is None  # no half-made "#L"


def test_first_matching_rule_wins_and_only_http_urls_are_used() -> None:
    mapping = {"docs/api/**.md": "https://api.example/{path}", "docs/**.md": "https://docs.example/{path}",
               "notes/**.md": "javascript:alert('{path}')"}
    assert _url(mapping, "docs/api/users.md") == "https://api.example/users"
    assert _url(mapping, "docs/guide.md") == "https://docs.example/guide"
    assert _url(mapping, "notes/x.md") is None


def test_a_file_name_cannot_change_the_host_or_add_a_query() -> None:
    url = _url(FASTAPI, "fastapi/docs/en/docs/@evil.example?x=1#y.md")
    assert url is not None and url.startswith("https://fastapi.example/") and "?" not in url and "#" not in url


def test_urls_ride_on_the_citations_event_only() -> None:
    rules = compile_rules(FASTAPI)
    cited = events.Event("citations", {"citations": [{"id": 1, "kind": "text", "path": "fastapi/docs/en/docs/a.md"},
                                                     {"id": 2, "kind": "text", "path": "other.md"}]})
    out = event_with_site_urls(cited, rules).data["citations"]
    assert out[0]["url"] == "https://fastapi.example/a" and "url" not in out[1]
    assert "url" not in cited.data["citations"][0]  # the stored answer stays as it was
    chunk = events.chunk("text")
    assert event_with_site_urls(chunk, rules) is chunk
    assert with_site_urls([{"path": "a.md"}], []) == [{"path": "a.md"}]


def test_only_the_users_config_may_set_the_dropin_section(tmp_path) -> None:
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "athena.toml").write_text('[dropin]\npublic = true\n[dropin.site_url_map]\n"**.md" = "https://evil.example/{path}"\n',
                                        encoding="utf-8")
    home = tmp_path / "config"
    (home / "athena").mkdir(parents=True)
    config = load_config(folder, env={"XDG_CONFIG_HOME": str(home)})
    assert config.settings.dropin.public is False and config.settings.dropin.site_url_map == {}
    assert set(sum(config.ignored.values(), [])) == {"dropin.public", "dropin.site_url_map"}
    (home / "athena" / "config.toml").write_text('[dropin.site_url_map]\n"**.md" = "https://docs.example/{path}"\n',
                                                 encoding="utf-8")
    mine = load_config(folder, env={"XDG_CONFIG_HOME": str(home)})
    assert mine.settings.dropin.site_url_map == {"**.md": "https://docs.example/{path}"}


def test_an_old_widget_section_still_configures_the_dropin_and_says_to_rename_it(tmp_path, capsys) -> None:
    """``[widget]`` was the drop-in's section before "widget" came to mean the notebook
    answer widget only: existing configs keep working, with one line saying what to rename."""
    from athena_lab import config as config_module

    folder = tmp_path / "site"
    folder.mkdir()
    home = tmp_path / "config"
    (home / "athena").mkdir(parents=True)
    user = home / "athena" / "config.toml"
    user.write_text('[widget]\npublic = true\n[widget.site_url_map]\n"**.md" = "https://docs.example/{path}"\n',
                    encoding="utf-8")
    config_module._WARNED.clear()
    first = load_config(folder, env={"XDG_CONFIG_HOME": str(home)})
    again = load_config(folder, env={"XDG_CONFIG_HOME": str(home)})
    assert first.settings.dropin.public is True and again.settings.dropin.public is True
    assert first.settings.dropin.site_url_map == {"**.md": "https://docs.example/{path}"}
    warnings = capsys.readouterr().err.strip().splitlines()
    assert warnings == [f"athena: warning: {user}: [widget] is now called [dropin] "
                        "(ATHENA_DROPIN__KEY in the environment); it still works, but rename it"]
    # the environment's old spelling too
    from_env = load_config(folder, env={"XDG_CONFIG_HOME": str(tmp_path / "none"), "ATHENA_WIDGET__PUBLIC": "true"})
    assert from_env.settings.dropin.public is True
    # and a folder still may not set it under either name
    (folder / "athena.toml").write_text("[widget]\npublic = true\n", encoding="utf-8")
    refused = load_config(folder, env={"XDG_CONFIG_HOME": str(tmp_path / "none")})
    assert refused.settings.dropin.public is False and sum(refused.ignored.values(), []) == ["dropin.public"]


def test_the_folder_a_front_end_defaults_to_is_workspace_root_and_the_old_names_still_work(tmp_path, capsys) -> None:
    from athena_lab import config as config_module
    from athena_lab.config import workspace_default

    config_module._WARNED.clear()
    nowhere = str(tmp_path / "no-config")
    assert workspace_default("root", {"XDG_CONFIG_HOME": nowhere}) == ""
    assert workspace_default("root", {"XDG_CONFIG_HOME": nowhere, "ATHENA_WORKSPACE__ROOT": "/data/docs",
                                      "ATHENA_ROOT": "/old"}) == "/data/docs"
    assert capsys.readouterr().err == ""
    for old in ("ATHENA_ROOT", "ATHENA_PATH"):
        assert workspace_default("root", {"XDG_CONFIG_HOME": nowhere, old: "/old/docs"}) == "/old/docs"
        assert capsys.readouterr().err.strip() == (f"athena: warning: {old} is now called ATHENA_WORKSPACE__ROOT; "
                                                   "it still works, but rename it")
    assert workspace_default("index_dir", {"XDG_CONFIG_HOME": nowhere, "ATHENA_INDEX_DIR": "/idx"}) == "/idx"
    home = tmp_path / "config"
    (home / "athena").mkdir(parents=True)
    (home / "athena" / "config.toml").write_text('[workspace]\nroot = "/mine"\n', encoding="utf-8")
    assert workspace_default("root", {"XDG_CONFIG_HOME": str(home)}) == "/mine"
    # a folder's own config cannot point the front ends at another folder
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "athena.toml").write_text('[workspace]\nroot = "/elsewhere"\n', encoding="utf-8")
    assert load_config(folder, env={"XDG_CONFIG_HOME": nowhere}).ignored == {str(folder / "athena.toml"): ["workspace.root"]}
