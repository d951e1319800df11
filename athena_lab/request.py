"""One question and its options (``AskRequest``), checked once for every front end.

``AskRequest.validate`` refuses a bad option with a ``RequestError`` naming the field, the
same way from the CLI, the magic, the widget and HTTP (400 before any stream).

The facade takes either a request or a question with its options as keywords:
``ws.ask(AskRequest("How?", k=5))`` and ``ws.ask("How?", k=5)`` are the same question;
``AskOptions`` types the keywords and ``AskRequest.of`` turns either into a request.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping, Union

from typing_extensions import TypedDict

from athena_lab.document import CITATION_KINDS, DOC_KINDS
from athena_lab.errors import RequestError
from athena_lab.paths import normalize_prefix
from athena_lab.settings import LLM_PROVIDERS

if TYPE_CHECKING:
    from athena_lab.agent.providers.base import Provider

MAX_K = 50
# What a question's filters may hold (contract.AskFilters): kind and folder, and the papers ones.
FILTER_KEYS = ("path_prefix", "kind", "collection", "tag", "author", "year", "papers")
MAX_CHOSEN_PAPERS = 1000
MAX_CONTEXT_CHARS = 20000  # an attached notebook cell or selection ("Ask about this cell")
MAX_CONTEXT_LABEL_CHARS = 200  # what the attached context is called ("cell 3 of analysis.ipynb")

# A filters object as front ends send it: {"path_prefix": "docs/", "kind": "pdf"}, or the
# papers ones ({"collection": "…"}, {"papers": [id, …]}); None means unset.
FilterValue = Union[str, list[str], None]
Filters = Mapping[str, FilterValue]


class AskOptions(TypedDict, total=False):
    """The options of a question, as keywords of ``Workspace.ask`` / ``ask_events``."""

    conversation_id: str | None  # continue this conversation
    filters: Filters  # narrow the search: path_prefix, kind, and the papers filters (FILTER_KEYS)
    provider: str | Provider | None  # the model that answers: a name (llm.provider's choices) or a Provider
    model: str | None
    k: int | None  # passages retrieved first (default search.k)
    context: str | None  # what the question is about: a notebook cell or editor selection
    context_label: str | None  # what the front end calls that context, shown again on reload
    base_url: str | None  # the provider's server, instead of llm.base_url
    model_path: str | None  # the local provider's GGUF file
    top_k: int | None  # the old name of ``k``: still read, with a DeprecationWarning


@dataclass
class AskRequest:
    """One question and its options, as every front end passes them to the agent loop.

    ``validate`` runs in ``Workspace.ask_events``, before a conversation is created, so a
    bad option is refused the same way from the CLI, the magic, the widget and HTTP (400
    before any stream) — and leaves no empty conversation behind.
    """

    question: str
    conversation_id: str | None = None
    filters: dict[str, FilterValue] = field(default_factory=dict)
    provider: str | Provider | None = None
    model: str | None = None
    k: int | None = None  # passages retrieved first; None: search.k
    context: str | None = None  # what the question is about: a notebook cell or editor selection
    context_label: str | None = None  # what the front end calls that context, shown again on reload
    base_url: str | None = None
    model_path: str | None = None

    @classmethod
    def of(cls, request: AskRequest | str, options: AskOptions) -> AskRequest:
        """``request`` as given, or the question ``request`` with ``options``; not validated."""
        if isinstance(request, AskRequest):
            if options:
                raise RequestError(f"options ({', '.join(sorted(options))}) go into the AskRequest, not beside it")
            return request
        unknown = set(options) - AskOptions.__optional_keys__
        if unknown:
            raise RequestError(f"unknown option {', '.join(sorted(unknown))}; options are: "
                               f"{', '.join(sorted(AskOptions.__optional_keys__ - {'top_k'}))}")
        k = options.get("k")
        if "top_k" in options:
            warnings.warn("'top_k' is now 'k' (passages retrieved first); 'top_k' is still read for now",
                          DeprecationWarning, stacklevel=3)
            k = options["top_k"] if k is None else k
        return cls(request, conversation_id=options.get("conversation_id"), filters=dict(options.get("filters") or {}),
                   provider=options.get("provider"), model=options.get("model"), k=k,
                   context=options.get("context"), context_label=options.get("context_label"),
                   base_url=options.get("base_url"), model_path=options.get("model_path"))

    def validate(self) -> AskRequest:
        if not self.question or not self.question.strip():
            raise RequestError("the question is empty: ask something")
        if self.k is not None and (isinstance(self.k, bool) or not isinstance(self.k, int) or not 1 <= self.k <= MAX_K):
            raise RequestError(f"'k' must be a whole number between 1 and {MAX_K}, not {self.k!r}")
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
        unknown = set(self.filters or {}) - set(FILTER_KEYS)
        if unknown:
            raise RequestError(f"'filters' may hold only {', '.join(FILTER_KEYS)}, not {', '.join(sorted(unknown))}")
        if self.filters:
            text = {key: _filter_text(self.filters, key) for key in ("kind", "path_prefix", "collection", "tag",
                                                                      "author", "year")}
            kind = text["kind"]
            if kind and kind not in CITATION_KINDS + DOC_KINDS:
                raise RequestError(f"filters.kind: unknown kind {kind!r}; use one of: {', '.join(DOC_KINDS)} "
                                   f"(or a citation kind: {', '.join(CITATION_KINDS)})")
            checked: dict[str, FilterValue] = {
                "kind": kind, "path_prefix": normalize_prefix(text["path_prefix"], "filters.path_prefix")}
            for key in ("collection", "tag", "author", "year"):
                value = text[key]
                if value and value.strip():
                    checked[key] = " ".join(value.split())
            year = text["year"]
            if year and year.strip() and not re.match(r"^\d{0,4}\s*(-|–|\.\.)?\s*\d{0,4}$", " ".join(year.split())):
                raise RequestError(f"filters.year: {year[:40]!r} is not a year (1985) or a range (1980-1990)")
            papers = self.filters.get("papers")
            if papers is not None:
                if (not isinstance(papers, list) or len(papers) > MAX_CHOSEN_PAPERS
                        or not all(isinstance(p, str) and 0 < len(p) <= 1000 for p in papers)):
                    raise RequestError(f"filters.papers must be a list of at most {MAX_CHOSEN_PAPERS} paper ids")
                checked["papers"] = list(dict.fromkeys(papers))
            self.filters = checked
        return self


def _filter_text(filters: Mapping[str, FilterValue], key: str) -> str | None:
    """One text filter as sent, or None; a list or an overlong text is refused by name."""
    value = filters.get(key)
    if value is not None and (not isinstance(value, str) or len(value) > 300):
        raise RequestError(f"filters.{key} must be a string of at most 300 characters")
    return value
