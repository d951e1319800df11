"""Discovery defaults, .gitignore, config files and their error messages."""

from __future__ import annotations

from pathlib import Path

import pytest

from athena_lab.config import load_config
from athena_lab.errors import ConfigError
from athena_lab.ingest.discover import discover, doc_kind_for

pytestmark = pytest.mark.unit


def _touch(root: Path, rel: str, text: str = "hello world\n") -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_default_globs_take_docs_and_skip_build_and_vendor_folders(tmp_path: Path) -> None:
    for rel in ["guide.md", "page.mdx", "notes.txt", "api.rst", "book.adoc", "site/a.html",
                "nb/analysis.ipynb", "papers/x.pdf", "README", "CHANGELOG", "manual/x.html.en.utf8",
                "node_modules/pkg/readme.md", ".git/info.md", "dist/out.md", "build/b.md",
                "coverage/c.md", ".athena/x.md", "nb/.ipynb_checkpoints/a.ipynb", ".venv/lib/x.md",
                "src/main.py", "image.png"]:
        _touch(tmp_path, rel)
    found = discover(tmp_path, load_config(tmp_path).settings.index)
    assert [f.path for f in found.files] == [
        "CHANGELOG", "README", "api.rst", "book.adoc", "guide.md", "manual/x.html.en.utf8",
        "nb/analysis.ipynb", "notes.txt", "page.mdx", "papers/x.pdf", "site/a.html"]


def test_gitignore_rules_are_respected_including_nested_ones(tmp_path: Path) -> None:
    _touch(tmp_path, ".gitignore", "drafts/\n*.tmp.md\n")
    _touch(tmp_path, "docs/.gitignore", "private.md\n")
    for rel in ["keep.md", "drafts/a.md", "x.tmp.md", "docs/private.md", "docs/public.md"]:
        _touch(tmp_path, rel)
    paths = [f.path for f in discover(tmp_path, load_config(tmp_path).settings.index).files]
    assert paths == ["docs/public.md", "keep.md"]


def test_gitignore_can_be_turned_off_in_athena_toml(tmp_path: Path) -> None:
    _touch(tmp_path, ".gitignore", "drafts/\n")
    _touch(tmp_path, "drafts/a.md")
    _touch(tmp_path, "athena.toml", "[index]\nrespect_gitignore = false\n")
    paths = [f.path for f in discover(tmp_path, load_config(tmp_path).settings.index).files]
    assert paths == ["drafts/a.md"]


def test_pyproject_tool_athena_table_overrides_defaults(tmp_path: Path) -> None:
    _touch(tmp_path, "pyproject.toml", "[tool.athena.index]\nextra_exclude = ['**/legacy/**']\n"
                                       "[tool.athena.search]\nk = 4\n")
    config = load_config(tmp_path)
    assert config.settings.search.k == 4
    assert "**/legacy/**" in config.settings.index.extra_exclude


def test_bad_config_value_names_the_key_and_the_allowed_values(tmp_path: Path) -> None:
    _touch(tmp_path, "athena.toml", "[embedding]\nprovider = \"bert\"\n")
    with pytest.raises(ConfigError) as info:
        load_config(tmp_path)
    message = str(info.value)
    assert "embedding.provider" in message and "minilm" in message and "athena.toml" in message


def test_unknown_config_key_lists_the_valid_keys(tmp_path: Path) -> None:
    _touch(tmp_path, "athena.toml", "[search]\ntopk = 3\n")
    with pytest.raises(ConfigError, match=r"unknown key 'search.topk'.*\bk\b"):
        load_config(tmp_path)


def test_wrong_type_says_what_type_is_expected(tmp_path: Path) -> None:
    _touch(tmp_path, "athena.toml", "[search]\nk = \"many\"\n")
    with pytest.raises(ConfigError, match="search.k = 'many' should be a whole number"):
        load_config(tmp_path)


def test_invalid_toml_is_reported_with_the_file_name(tmp_path: Path) -> None:
    _touch(tmp_path, "athena.toml", "[index\n")
    with pytest.raises(ConfigError, match="athena.toml: not valid TOML"):
        load_config(tmp_path)


def test_environment_overrides_files_and_flags_override_environment(tmp_path: Path) -> None:
    _touch(tmp_path, "athena.toml", "[search]\nk = 4\n")
    config = load_config(tmp_path, env={"ATHENA_SEARCH__K": "6"})
    assert config.settings.search.k == 6
    config = load_config(tmp_path, overrides={"search.k": 9}, env={"ATHENA_SEARCH__K": "6"})
    assert config.settings.search.k == 9


def test_index_dir_defaults_inside_the_folder_and_can_live_elsewhere(tmp_path: Path) -> None:
    assert load_config(tmp_path).index_dir == tmp_path.resolve() / ".athena"
    assert load_config(tmp_path, tmp_path / "elsewhere").index_dir == (tmp_path / "elsewhere").resolve()


def test_symlink_loops_and_links_out_of_the_folder_are_reported(tmp_path: Path) -> None:
    root = tmp_path / "root"
    _touch(root, "a.md")
    (root / "loop").symlink_to(root, target_is_directory=True)
    outside = tmp_path / "outside.md"
    outside.write_text("secret")
    (root / "out.md").symlink_to(outside)
    found = discover(root, load_config(root).settings.index)
    assert [f.path for f in found.files] == ["a.md"]
    assert "symlink loop" in found.warnings["loop"]
    assert "outside the indexed folder" in found.warnings["out.md"]


def test_kind_detection_by_name() -> None:
    assert doc_kind_for("a.MD") == "markdown"
    assert doc_kind_for("x.html.en.utf8") == "html"
    assert doc_kind_for("LICENSE") == "text"
    assert doc_kind_for("n.ipynb") == "notebook"
