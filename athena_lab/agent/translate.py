"""A question in another language, put into English by the answering model for retrieval.

English documents match an English wording far better, whatever the embedder: on the
held-out Spanish, French and German questions about English docs, the original found its
passage in the top 5 for 3 of 8 and Qwen2.5-Coder-1.5B's translation for 7 of 8. The
original is always searched too, so a poor translation costs only a little time. The
answer itself is still written in the user's language.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from athena_lab.agent.prompts import TRANSLATE_PROMPT
from athena_lab.agent.providers import Message, Provider, SamplingParams
from athena_lab.language import query_language

_CACHE: OrderedDict[tuple[str, str], str] = OrderedDict()
_LOCK = threading.Lock()
CACHE_SIZE = 256
MAX_CHARS = 500


def english(llm: Provider, text: str) -> str | None:
    """``text`` in English, or None when it is English already; a provider error is raised
    to the caller, which searches the original alone."""
    if query_language(text) == "en":
        return None
    key = (f"{llm.config.kind}:{llm.model}", text)
    with _LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    reply = llm.complete([Message("system", TRANSLATE_PROMPT), Message("user", text)],
                         sampling=SamplingParams(temperature=0.0, max_tokens=160))
    out = " ".join(reply.text.split())[:MAX_CHARS]
    if not out:
        return None
    with _LOCK:
        _CACHE[key] = out
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    return out
