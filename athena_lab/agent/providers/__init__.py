"""LLM providers: thin httpx adapters behind one streaming interface.

    provider = make_provider(ProviderConfig(kind="openai", base_url="http://127.0.0.1:8080/v1", model="m"))
    for event in provider.stream([Message("user", "hi")]):
        ...
"""

from __future__ import annotations

import os
from dataclasses import replace

from athena_lab.redact import redact_url

from .anthropic import AnthropicProvider
from .base import (
    Completion,
    Message,
    Provider,
    PromptProgress,
    ProviderConfig,
    SamplingParams,
    StreamEnd,
    StreamEvent,
    TextDelta,
    ToolCall,
    ToolCallEvent,
    ToolSpec,
)
from athena_lab.errors import ProviderError
from .ollama import OllamaProvider
from .openai_compat import OpenAICompatProvider

_ADAPTERS: dict[str, type[Provider]] = {
    "openai": OpenAICompatProvider,
    "anthropic": AnthropicProvider,
    "ollama": OllamaProvider,
}
# Only Anthropic always needs a key. An OpenAI-compatible server is often local, and
# sending OPENAI_API_KEY to it unasked would hand the user's key to another server.
_DEFAULT_KEY_ENV = {"anthropic": "ANTHROPIC_API_KEY"}


def make_provider(cfg: ProviderConfig) -> Provider:
    """Build the adapter for cfg.kind; the key comes from cfg.api_key, else cfg.api_key_env."""
    adapter = _ADAPTERS.get(cfg.kind)
    if adapter is None:
        raise ProviderError(
            f"unknown provider kind '{cfg.kind}'; use one of: {', '.join(_ADAPTERS)}", "config"
        )
    if not cfg.base_url.startswith(("http://", "https://")):
        raise ProviderError(f"provider base_url must start with http:// or https://, got '{redact_url(cfg.base_url)}'", "config")
    if cfg.api_key_env is None and cfg.kind in _DEFAULT_KEY_ENV and not cfg.api_key:
        cfg = replace(cfg, api_key_env=_DEFAULT_KEY_ENV[cfg.kind])
    return adapter(cfg, _api_key(cfg))


def _api_key(cfg: ProviderConfig) -> str | None:
    if cfg.api_key:
        return cfg.api_key
    if not cfg.api_key_env:
        return None
    key = os.environ.get(cfg.api_key_env, "").strip()
    if not key:
        raise ProviderError(
            f"no API key for the {cfg.kind} provider: set the environment variable {cfg.api_key_env}", "config"
        )
    return key


__all__ = [
    "AnthropicProvider",
    "Completion",
    "Message",
    "OllamaProvider",
    "OpenAICompatProvider",
    "PromptProgress",
    "Provider",
    "ProviderConfig",
    "ProviderError",
    "SamplingParams",
    "StreamEnd",
    "StreamEvent",
    "TextDelta",
    "ToolCall",
    "ToolCallEvent",
    "ToolSpec",
    "make_provider",
]
