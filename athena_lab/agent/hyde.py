"""A short passage the model imagines answering the question (HyDE), searched with it.

A user's question and the page that answers it rarely share words ("keep an internal
endpoint out of the API reference" / ``include_in_schema=False``); a passage written the
way documentation is written shares more of them, right or wrong, so searching it beside
the question finds the page more often. The passage is never shown and never cited: only
what the search finds with it is. A follow-up is rewritten the same way: the passage is
written for the follow-up read with the question before it, so "and how do I test it?"
searches as the thing "it" was.

The model writes it after the sources are on screen (the loop's model path, after the first
search), in English for a question in another language (from its translation), with a
fixed budget of tokens at temperature 0. Measured in docs/benchmarks.md ("HyDE").
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from athena_lab.agent.providers import Message, Provider, SamplingParams

PROMPT = ("Write a short passage, two or three sentences, from the technical documentation that answers "
          "the user's question, the way the documentation itself would say it: with the names of the "
          "functions, settings, options or commands it would use. Reply with the passage only.")
FOLLOW_UP = "Earlier question: {before}\nFollow-up question: {question}"
MAX_TOKENS = 96
MAX_CHARS = 800

_CACHE: OrderedDict[tuple[str, str], str] = OrderedDict()
_LOCK = threading.Lock()
CACHE_SIZE = 256


def hypothetical(llm: Provider, question: str, before: str | None = None) -> str | None:
    """The passage, or None when the model wrote nothing; a provider error is raised to the
    caller, which then searches without it."""
    asked = FOLLOW_UP.format(before=before, question=question) if before else question
    key = (f"{llm.config.kind}:{llm.model}", asked)
    with _LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    reply = llm.complete([Message("system", PROMPT), Message("user", asked)],
                         sampling=SamplingParams(temperature=0.0, max_tokens=MAX_TOKENS))
    text = " ".join(reply.text.split())[:MAX_CHARS]
    if not text:
        return None
    with _LOCK:
        _CACHE[key] = text
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    return text
