"""Which language a question is in, from the stop words it uses.

Questions are short, and what matters here is only "English or one of the languages
users most often ask our English documents in". Counting each language's stop words
(Tantivy's Snowball lists, so no extra dependency or model to load) is instant and does
not mistake an English question full of identifiers for Portuguese, which character
n-gram detectors do on short technical text.
"""

from __future__ import annotations

import re
from functools import lru_cache

import tantivy

LANGUAGES = {"en": "english", "es": "spanish", "fr": "french", "de": "german",
             "pt": "portuguese", "it": "italian"}
LANGUAGE_NAMES = {"en": "English", "es": "Spanish", "fr": "French", "de": "German",
                  "pt": "Portuguese", "it": "Italian"}
# Letters that English text does not use: one is evidence enough to break a tie.
_MARKS = {"es": "ñ¿¡", "fr": "çœêèàâûî", "de": "äöüß", "pt": "ãõç", "it": "ò"}
_WORD = re.compile(r"\w+", re.UNICODE)
# Tantivy's English list is Lucene's 33 words; questions need the words people ask with.
_ENGLISH = frozenset("""
a about after all also am an and any are as at be because been before being between both
but by can could did do does doing don down during each every few for from get got had has
have having he her here hers him his how i if in into is it its just me more most my no nor
not now of off on once only or other our out over own same she should so some such than that
the their them then there these they this those through to too under until up very was we
were what when where which while who whom why will with without would you your yours
""".split())


@lru_cache(maxsize=None)
def _content_analyzer(language: str) -> tantivy.TextAnalyzer:
    return (tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
            .filter(tantivy.Filter.lowercase())
            .filter(tantivy.Filter.stopword(language))
            .build())


def stopword_count(text: str, code: str) -> int:
    words = _WORD.findall(text)
    if code == "en":
        return sum(w.lower() in _ENGLISH for w in words)
    return len(words) - len(_content_analyzer(LANGUAGES[code]).analyze(text))


def query_language(text: str) -> str:
    """ISO 639-1 code of the question's language: "en" unless another clearly wins."""
    counts = {code: stopword_count(text, code) for code in LANGUAGES}
    lowered = text.lower()
    for code, marks in _MARKS.items():
        counts[code] += sum(ch in marks for ch in lowered)
    best = max((c for c in LANGUAGES if c != "en"), key=lambda c: counts[c])
    return best if counts[best] >= 2 and counts[best] > counts["en"] else "en"


def content_words(text: str, code: str) -> list[str]:
    """The question's words less the stop words of its language (lowercased)."""
    return _content_analyzer(LANGUAGES.get(code, "english")).analyze(text)
