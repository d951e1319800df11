"""One question and its options (``AskRequest``), checked once for every front end.

``AskRequest.validate`` refuses a bad option with a ``RequestError`` naming the field, the
same way from the CLI, the magic, the widget and HTTP (400 before any stream).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from athena_lab.settings import LLM_PROVIDERS
from athena_lab.document import CITATION_KINDS, DOC_KINDS
from athena_lab.errors import RequestError
from athena_lab.paths import normalize_prefix

MAX_TOP_K = 50
MAX_CONTEXT_CHARS = 20000  # an attached notebook cell or selection ("Ask about this cell")
MAX_CONTEXT_LABEL_CHARS = 200  # what the attached context is called ("cell 3 of analysis.ipynb")


@dataclass
class AskRequest:
    """One question and its options, as every front end passes them to the agent loop.

    ``validate`` runs in ``Workspace.ask_events``, before a conversation is created, so a
    bad option is refused the same way from the CLI, the magic, the widget and HTTP (400
    before any stream) — and leaves no empty conversation behind.
    """

    question: str
    conversation_id: str | None = None
    filters: dict[str, str | None] = field(default_factory=dict)
    provider: str | None = None
    model: str | None = None
    top_k: int | None = None
    context: str | None = None  # what the question is about: a notebook cell or editor selection
    context_label: str | None = None  # what the front end calls that context, shown again on reload

    def validate(self) -> AskRequest:
        if not self.question or not self.question.strip():
            raise RequestError("the question is empty: ask something")
        if self.top_k is not None and (isinstance(self.top_k, bool) or not isinstance(self.top_k, int)
                                       or not 1 <= self.top_k <= MAX_TOP_K):
            raise RequestError(f"'top_k' must be a whole number between 1 and {MAX_TOP_K}, not {self.top_k!r}")
        # A Provider object handed in by code (tests, notebooks) needs no name check; its
        # filters are checked like anyone's.
        if isinstance(self.provider, str) and self.provider not in LLM_PROVIDERS:
            raise RequestError(f"'provider' must be one of: {', '.join(LLM_PROVIDERS)}, not {self.provider!r}")
        if self.context is not None:
            if not isinstance(self.context, str):
                raise RequestError(f"'context' must be a string (the cell or selection asked about), not {self.context!r}")
            if len(self.context) > MAX_CONTEXT_CHARS:
                raise RequestError(f"'context' is {len(self.context)} characters; the limit is {MAX_CONTEXT_CHARS} "
                                   "(select the part of the cell the question is about)")
            self.context = self.context if self.context.strip() else None
        if self.context_label is not None:
            if not isinstance(self.context_label, str):
                raise RequestError(f"'context_label' must be a string (what the attached cell or selection "
                                   f"is called), not {self.context_label!r:.80}")
            # A long notebook name makes a long label: cut it rather than refuse the question.
            label = self.context_label.strip()[:MAX_CONTEXT_LABEL_CHARS]
            self.context_label = (label or None) if self.context else None
        unknown = set(self.filters or {}) - {"path_prefix", "kind"}
        if unknown:
            raise RequestError(f"'filters' may hold only path_prefix and kind, not {', '.join(sorted(unknown))}")
        if self.filters:
            kind = self.filters.get("kind")
            if kind and kind not in CITATION_KINDS + DOC_KINDS:
                raise RequestError(f"filters.kind: unknown kind {kind!r}; use one of: {', '.join(DOC_KINDS)} "
                                   f"(or a citation kind: {', '.join(CITATION_KINDS)})")
            self.filters = {"kind": self.filters.get("kind"),
                            "path_prefix": normalize_prefix(self.filters.get("path_prefix"), "filters.path_prefix")}
        return self
