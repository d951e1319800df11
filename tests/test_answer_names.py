"""Which names of a model's answer are checked against the folder (agent/names.py), and the
lookup that checks them (search/names.py) on a real index.

The issue's own examples: ``monkeypatch.undo_setattr(...)``, ``SWAGGER_UI_ENABLED``,
``REDOC_ENABLED``, ``APACHE_CONFIG_FILE``, "routes.toml", ``Field(None, choices=[…])``.
"""

from __future__ import annotations

import pytest

from athena_lab.agent.names import answer_names, missing, sentence_names
from athena_lab.workspace import Workspace

pytestmark = pytest.mark.unit


def _written(text: str) -> list[str]:
    return [n.written for n in answer_names(text)]


def test_a_method_called_on_the_examples_own_parameter_is_checked_but_the_parameter_is_not():
    text = ("```python\ndef test_login(monkeypatch):\n    monkeypatch.undo_setattr(auth, 'check', fake)\n"
            "    client = TestClient(app)\n    response = client.get('/me')\n```\n")
    names = {n.written: n.parts for n in answer_names(text)}
    assert names["monkeypatch.undo_setattr"] == ("undo_setattr",)  # the parameter is the example's own
    assert names["TestClient()"] == ("testclient",)  # a call of a name the example does not define
    assert names["client.get"] == ("get",)
    assert "test_login" not in str(names) and "fake" not in str(names) and "auth" not in str(names)


def test_settings_environment_variables_and_file_names_in_prose_are_names():
    text = ("Set `SWAGGER_UI_ENABLED=False` and REDOC_ENABLED in the environment. "
            "Then edit routes.toml and APACHE_CONFIG_FILE; see https://example.com/a.b.c for more.")
    assert set(_written(text)) == {"SWAGGER_UI_ENABLED", "REDOC_ENABLED", "routes.toml", "APACHE_CONFIG_FILE"}
    where = {n.written: n.where for n in answer_names(text)}
    assert where["routes.toml"] == "Then edit routes.toml and APACHE_CONFIG_FILE; see https://example.com/a.b.c for more."


def test_a_keyword_argument_of_a_call_and_a_constant_string_are_names():
    names = _written("Use `Field(None, choices=['a', 'b'])` or `os.environ['REDOC_ENABLED']`.")
    assert {"Field()", "choices=", "os.environ", "REDOC_ENABLED"} <= set(names)


def test_ordinary_words_and_product_names_are_not_names():
    text = ("FastAPI and PostgreSQL work well together, e.g. behind Traefik. Use the Depends function "
            "for that, i.e. dependency injection.")
    assert _written(text) == []


def test_config_and_shell_blocks_give_their_directives_and_programs():
    text = ("```apache\nRemoteIPHeader X-Forwarded-For\n# a comment naming FAKE_THING\n```\n\n"
            "```bash\n$ htpasswd -c /etc/apache2/.htpasswd alice\ncd docs && sphinx-build --fresh-env . out\n```\n")
    names = _written(text)
    assert "RemoteIPHeader" in names and "htpasswd" in names and "--fresh-env" in names
    assert "FAKE_THING" not in names and "cd" not in names


def test_missing_leaves_out_what_the_folder_or_the_question_holds():
    names = sentence_names("Call `app.dependency_overrides` or `monkeypatch.undo_setattr()` on `get_user`.")

    def found(parts: list[str]) -> set[str]:
        return {p for p in parts if p in {"app", "dependency_overrides", "monkeypatch"}}

    lost = missing(names, found, question="How do I replace get_user in tests?")
    assert [n.written for n in lost] == ["monkeypatch.undo_setattr"]


def test_the_index_finds_identifiers_exactly_and_plain_words_by_their_text(tmp_path):
    root = tmp_path / "docs"
    root.mkdir()
    (root / "reference_text").mkdir()
    (root / "reference_text" / "federal-register-2020.md").write_text("# Notice\n\nNothing else.\n")
    (root / "guide.md").write_text("# Testing\n\nOverride a dependency with `app.dependency_overrides`.\n\n"
                                   "Create the password file with htpasswd, then reload.\n")
    ws = Workspace(root, tmp_path / "idx", overrides={"embedding.provider": "none"})
    ws.index()
    try:
        found = ws.names_found(["dependency_overrides", "app.dependency_overrides", "htpasswd", "undo_setattr",
                                "swagger_ui_enabled"])
        # an indexed file is in the folder by its name or path, though no chunk spells it
        # (a small model copies "paper_pasa.pdf p. 9" from its passages' labels)
        files = ws.names_found(["guide.md", "GUIDE.md", "routes.toml", "reference_text", "federal-register-2020.md"])
    finally:
        ws.close()
    assert found == {"dependency_overrides", "app.dependency_overrides", "htpasswd"}
    assert files == {"guide.md", "reference_text", "federal-register-2020.md"}
