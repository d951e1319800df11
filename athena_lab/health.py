"""Health probes: is the index usable, is the embedder answering, is the LLM reachable.

One module for ``Workspace.health()`` (what ``/athena/health`` serves) and ``athena doctor``:
the two used to probe separately and could disagree.

The three statuses mean what a monitor needs to act on: ``healthy``; ``degraded`` —
search still answers but the embedder or the LLM is down (or no index has been built yet,
which POST /athena/reindex fixes); ``unhealthy`` — the index exists but cannot be read,
so nothing works (HTTP 503).

Every error and URL in a report passes through ``redact.scrub``: anyone who may call
/health sees it, and a provider's error body or a base_url may hold a credential.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

from athena_lab.models import Health
from athena_lab.redact import redact_url, scrub

LLM_PROBE_TIMEOUT_S = 2.0
# Keys a provider adapter may send without being told to (providers._DEFAULT_KEY_ENV).
DEFAULT_KEY_ENVS = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY")


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)


def secrets_of(ws: Any) -> list[str]:
    """The key values this workspace may send, so a message that echoes one can mask it."""
    settings = ws.config.settings
    names = {settings.llm.api_key_env, settings.embedding.api_key_env, *DEFAULT_KEY_ENVS}
    return [os.environ[n] for n in names if n and os.environ.get(n)]


def _component(status: str, started: float | None, error: str | None = None, **details: Any) -> dict[str, Any]:
    """One component's report; ``started`` None means nothing was probed (latency 0)."""
    out: dict[str, Any] = {"status": status, "latency_ms": 0.0 if started is None else _ms(started)}
    if error:
        out["error"] = error
    if details:
        out["details"] = details
    return out


def probe_index(ws: Any) -> dict[str, Any]:
    started = time.perf_counter()
    if not ws.has_index():
        return _component("missing", started, f"no index at {ws.index_dir} yet; POST /athena/reindex builds it")
    try:
        counts = ws.store.catalog.counts()
        docs = ws.store.lexical.num_docs()
        vectors = ws.vector_state()
    except Exception as exc:
        return _component("down", started, f"cannot open the index: {exc}")
    # How far the vectors are is reported, not judged: an index whose vectors are still being
    # embedded (or were interrupted) answers searches, hybrid over what is there.
    return _component("up", started, files=counts["files"], chunks=counts["chunks"], lexical_docs=docs,
                      vectors=vectors.as_dict())


def probe_embedder(ws: Any) -> dict[str, Any]:
    started = time.perf_counter()
    settings = ws.config.settings.embedding
    if settings.provider == "none":
        return _component("off", None, provider="none", note="lexical search only")
    embedder = ws.embedder()
    if embedder is None:
        return _component("down", started, ws.embedder_error or "embedder unavailable", provider=settings.provider)
    try:
        embedder.embed_query("health check")
    except Exception as exc:
        return _component("down", started, f"{embedder.name} failed to embed: {exc}", provider=settings.provider)
    return _component("up", started, provider=settings.provider, name=embedder.name)


def probe_llm(ws: Any) -> dict[str, Any]:
    """A model listing from the configured provider, with a short timeout (no generation)."""
    started = time.perf_counter()
    llm = ws.config.settings.llm
    if llm.provider == "extractive":
        return _component("off", None, provider="extractive", note="answers from the evidence, no model")
    from athena_lab.agent.loop import resolve_provider
    from athena_lab.agent.providers import ProviderError, make_provider

    details = {"provider": llm.provider, "model": llm.model}
    try:
        configured = resolve_provider(ws)
        details["base_url"] = redact_url(configured.base_url)
        probe = configured  # the local provider's server runs in this process: ask it
        if configured.config.kind != "local":
            configured.close()
            probe = make_provider(replace(configured.config, timeout_s=LLM_PROBE_TIMEOUT_S, retry_delay_s=0.1))
    except ProviderError as exc:
        return _component("down", started, exc.message, **details)
    except OSError as exc:  # the local model's cache cannot be written, say
        return _component("down", started, f"the model could not be prepared: {exc}", **details)
    try:
        result = probe.health()
    finally:
        probe.close()
    up = result["reachable"] and result["model_present"] is not False
    return {**_component("up" if up else "down", started, result.get("error"), **details),
            "latency_ms": result["latency_ms"]}


def scrub_errors(components: dict[str, dict[str, Any]], secrets: list[str]) -> dict[str, dict[str, Any]]:
    """The components with every ``error`` made safe to show (no secrets, bounded length)."""
    return {name: {**c, "error": scrub(c["error"], secrets)} if c.get("error") else c
            for name, c in components.items()}


def overall(components: dict[str, dict[str, Any]]) -> str:
    if components["index"]["status"] == "down":
        return "unhealthy"
    if any(c["status"] in ("down", "missing") for c in components.values()):
        return "degraded"
    return "healthy"


def report(ws: Any) -> Health:
    """``{"status", "components": {"index", "embedder", "llm"}}``, the probes run in parallel
    (the LLM probe may wait on a network timeout) and every error scrubbed."""
    probes = {"index": probe_index, "embedder": probe_embedder, "llm": probe_llm}
    with ThreadPoolExecutor(max_workers=len(probes)) as pool:
        futures = {name: pool.submit(fn, ws) for name, fn in probes.items()}
        components = scrub_errors({name: f.result() for name, f in futures.items()}, secrets_of(ws))
    return {"status": overall(components), "components": components}
