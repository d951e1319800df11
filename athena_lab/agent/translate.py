"""A question in another language, put into English by the answering model for retrieval.

English documents match an English wording far better, whatever the embedder: on the
held-out Spanish, French and German questions about English docs, the original found its
passage in the top 5 for 3 of 8 and Qwen2.5-Coder-1.5B's translation for 7 of 8. The
original is always searched too, so a poor translation costs only a little time. The
answer itself is still written in the user's language.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict

from athena_lab.agent.prompts import TRANSLATE_AGAIN, TRANSLATE_PROMPT, TRANSLATE_REQUEST
from athena_lab.agent.providers import Message, Provider, SamplingParams
from athena_lab.language import query_language

_CACHE: OrderedDict[tuple[str, str], str] = OrderedDict()
_LOCK = threading.Lock()
CACHE_SIZE = 256
MAX_CHARS = 500
SHORT = 0.65  # a whole translation runs at least 0.69× the question's characters (110 of 113 questions)
_PIECES = re.compile(r"(?<=[.?!:;。？！])\s+")


class NotATranslation(ValueError):
    """The model's reply is an answer, not the question in English: searching it would
    look for what the model made up, so the question is searched as written alone."""


def is_translation(text: str, reply: str) -> bool:
    """Whether ``reply`` can be ``text`` in English: an answer gives itself away by running
    far longer (a translation stays within about 1.5× the characters: at most 1.46× on 59
    questions in six languages), by bringing a code block the question has not, or by
    asking nothing back when the question asks ("Dá para fazer?" → "Yes, it is possible …")."""
    if len(reply) > 2 * len(text) + 40:
        return False
    if "```" in reply and "```" not in text:
        return False
    asks = any(mark in text for mark in "?？¿؟")
    return not asks or "?" in reply


def english(llm: Provider, text: str) -> str | None:
    """``text`` in English, or None when it is English already. A reply that answers
    instead of translating is asked for once more, set apart as a question; one that leaves
    part of the question out is made whole (``_whole``); a provider error, or a second
    answer (``NotATranslation``), is raised to the caller, which searches the original alone."""
    if query_language(text) == "en":
        return None
    key = (f"{llm.config.kind}:{llm.model}", text)
    with _LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    out, asked_again = _ask(llm, TRANSLATE_REQUEST + text), False
    if out and not is_translation(text, out):
        out, asked_again = _ask(llm, TRANSLATE_AGAIN.format(text=text)), True  # once more, set apart
        if out and not is_translation(text, out):
            raise NotATranslation("the model answered the question instead of translating it")
    if out and len(out) < SHORT * len(text):
        out = _whole(llm, text, out, asked_again)
    if not out:
        return None
    with _LOCK:
        _CACHE[key] = out
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    return out


def _whole(llm: Provider, text: str, short: str, asked_again: bool) -> str:
    """A translation that left part of the question out, made whole. The 1.5B drops a
    sentence that sets the scene ("Des capteurs IoT nous envoient leur JSON compressé …"
    became only its question), which is often the part that names what to search for; asked
    piece by piece it translates every piece (3 of 3 such questions of 113). A one-piece
    question is asked once more set apart instead, unless ``short`` already came from that
    request (at temperature 0 it would come back the same). A piece that comes back as an
    answer keeps the short translation: it is still the question's own words."""
    pieces = [p for p in _PIECES.split(text) if p.strip()]
    if len(pieces) == 1:
        if asked_again:
            return short
        again = _ask(llm, TRANSLATE_AGAIN.format(text=text))
        return again if is_translation(text, again) and len(again) > len(short) else short
    parts = [_ask(llm, TRANSLATE_REQUEST + piece) for piece in pieces]
    if not all(part and is_translation(piece, part) for piece, part in zip(pieces, parts, strict=True)):
        return short
    whole = " ".join(parts)
    return whole if len(whole) > len(short) else short


def _ask(llm: Provider, request: str) -> str:
    reply = llm.complete([Message("system", TRANSLATE_PROMPT), Message("user", request)],
                         sampling=SamplingParams(temperature=0.0, max_tokens=160))
    return " ".join(reply.text.split())[:MAX_CHARS]
