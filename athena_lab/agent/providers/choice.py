"""Which LLM a turn uses: the configured one, or the one a flag or request names, checked before the turn starts.

``plan_provider`` turns ``[llm]`` settings (and overrides) into a ``ProviderPlan``: a
configuration error (no model, a bad URL, a missing key, no model file) is raised at
once, while starting the model — seconds for a local one read into memory — waits for
``load``, so a turn can say it is loading. A plan whose ``load`` gives None means the
extractive mode (no model).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from athena_lab.settings import LLMSettings

from . import make_provider
from .base import Provider, ProviderConfig, ProviderKind, SamplingParams
from athena_lab.errors import ProviderError

REMOTE_KINDS: tuple[ProviderKind, ...] = ("openai", "anthropic", "ollama")  # served over HTTP
DEFAULT_BASE_URLS = {"openai": "http://127.0.0.1:8080/v1", "ollama": "http://127.0.0.1:11434",
                     "anthropic": "https://api.anthropic.com"}
LOCAL_CONTEXT = 8192
MAX_TOKENS = 1024
LOCAL_MAX_TOKENS = 400  # ~20 s of writing at 20 tokens/s; the rules ask for four sentences


@dataclass
class ProviderPlan:
    """A provider checked but not yet started: ``load`` may take seconds (a local model
    assembled on first use, then read into memory), so a turn says so while it waits."""

    load: Callable[[], Provider | None]
    loading: bool = False  # True when ``load`` has a model to read into memory
    model: bool = True  # False in extractive mode: ``load`` gives None, no model writes


def plan_provider(llm: LLMSettings, provider: str | Provider | None = None, model: str | None = None,
                  base_url: str | None = None, model_path: str | None = None) -> ProviderPlan:
    """The configured (or overridden) LLM, checked now and started by ``load``; a plan whose
    ``load`` gives None means extractive mode. Configuration errors are raised here."""
    if provider is not None and not isinstance(provider, str):
        given = provider
        return ProviderPlan(lambda: given)
    kind = provider or llm.provider
    if kind == "extractive" and model_path and not provider:
        kind = "local"  # a model file asked for implies the in-process server
    if kind == "extractive" and model and not provider:
        kind = "openai"  # a model asked for by name implies a model server; OpenAI-compatible is the common one
    if kind == "extractive":
        return ProviderPlan(lambda: None, model=False)
    sampling = SamplingParams(temperature=llm.temperature, top_p=llm.top_p or None, top_k=llm.top_k or None,
                              repeat_penalty=llm.repeat_penalty or None, seed=llm.seed if llm.seed >= 0 else None,
                              max_tokens=llm.max_tokens or (LOCAL_MAX_TOKENS if kind == "local" else MAX_TOKENS),
                              context_size=llm.context_size or None)
    if kind == "local":
        return local_plan(llm, model, model_path, sampling)
    name = model or llm.model
    if not name:
        raise ProviderError(f"no model configured for the {kind} provider: set llm.model or pass --model", "config")
    remote = next((k for k in REMOTE_KINDS if k == kind), None)
    if remote is None:
        raise ProviderError(f"unknown provider kind '{kind}'; use one of: {', '.join(REMOTE_KINDS)}", "config")
    url = base_url or llm.base_url or DEFAULT_BASE_URLS.get(remote, "")
    config = ProviderConfig(kind=remote, base_url=url, model=name, api_key_env=llm.api_key_env or None,
                            timeout_s=llm.timeout_s, sampling=sampling)
    built = make_provider(config)  # cheap; a bad URL or a missing key is refused now, not mid-turn
    return ProviderPlan(lambda: built)


def local_plan(llm: LLMSettings, model: str | None, model_path: str | None, sampling: SamplingParams) -> ProviderPlan:
    from . import bundled
    from .local import is_loaded, make_local_provider

    context = llm.context_size or LOCAL_CONTEXT
    configured = llm.provider == "local"  # llm.model / model_path name another provider's model otherwise
    path = model_path or (llm.model_path if configured else "")
    if importlib.util.find_spec("xllamacpp") is None:
        raise ProviderError("the local provider needs xllamacpp: pip install 'athena-lab[local]'", "config")
    if path and not Path(path).expanduser().is_file():
        raise ProviderError(f"no model file at {path}: set llm.model_path or pass --model-path FILE.gguf", "config")
    if not path:
        chosen = bundled.lookup(model or (llm.model if configured else None) or None)
        bundled.part_files(chosen)  # not installed: say which extra, before the turn starts
        target = bundled.cache_dir() / f"{chosen.name}.gguf"

        def load() -> Provider:
            file = bundled.model_file(chosen.name, bundled.stderr_progress(f"assembling {chosen.name}"))
            return make_local_provider(file, context, sampling, llm.timeout_s, llm.tool_protocol)
        return ProviderPlan(load, loading=not is_loaded(target, context))
    return ProviderPlan(lambda: make_local_provider(path, context, sampling, llm.timeout_s, llm.tool_protocol),
                        loading=not is_loaded(path, context))


def resolve_provider(llm: LLMSettings, provider: str | Provider | None = None, model: str | None = None,
                     base_url: str | None = None, model_path: str | None = None) -> Provider | None:
    """The configured (or overridden) LLM, started; None for extractive mode."""
    return plan_provider(llm, provider, model, base_url, model_path).load()
