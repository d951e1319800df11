"""Which language a question is in: by its script, else by the stop words it uses.

One detector for the whole package: the agent's answer directive (agent/prompts.py), the
retrieval side (search/hybrid.py's multilingual channel, lexical stop words) and the
translation of questions (agent/translate.py) all ask :func:`detect_language`. There used
to be two, which disagreed on ties, and both knew only six Latin-script languages, so a
question in Russian, Chinese, Arabic or Greek counted as English and never reached the
multilingual channel.

* A question written mostly in another script is in that script's language: Cyrillic
  (Russian, Ukrainian when it uses і ї є ґ), Greek, Arabic (Persian when it uses پ چ ژ گ),
  Hebrew, Devanagari, Bengali, Tamil, Thai, Georgian, Armenian, Hangul, Japanese kana,
  Han ideographs (Chinese). Code identifiers in Latin letters do not outvote it.
* In Latin script, each language's stop words are counted (Tantivy's Snowball lists, so no
  model to load) plus letters English does not use (ñ, ç, ß …). That is instant and does
  not mistake an English question full of identifiers for Portuguese, which character
  n-gram detectors do on short technical text (docs/benchmarks.md, "Question language").

One tie rule: another language must clearly beat English (at least two signs and more
than English's); English wins a tie; a text with no sign, or one sign of another
language and none of English (``register_blueprint``, ``???``), is undecided (None). Retrieval treats undecided as English (:func:`query_language`), the
directive asks for "the language of the question".
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import tantivy

# Latin-script languages told apart by stop words: code -> Tantivy's stop-word list.
STOPWORD_LANGUAGES = {"en": "english", "es": "spanish", "fr": "french", "de": "german",
                      "pt": "portuguese", "it": "italian"}
# Stop words removed from a question's content words (lexical search) in these languages too.
_CONTENT_LISTS = {**STOPWORD_LANGUAGES, "ru": "russian", "uk": "russian"}
LANGUAGE_NAMES = {"en": "English", "es": "Spanish", "fr": "French", "de": "German",
                  "pt": "Portuguese", "it": "Italian", "ru": "Russian", "uk": "Ukrainian",
                  "el": "Greek", "ar": "Arabic", "fa": "Persian", "he": "Hebrew", "hi": "Hindi",
                  "bn": "Bengali", "ta": "Tamil", "th": "Thai", "ka": "Georgian", "hy": "Armenian",
                  "ko": "Korean", "ja": "Japanese", "zh": "Chinese"}
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

# Short, frequent function words of the six Latin-script languages. Not used to detect a
# language (that is the Snowball lists above): agent/citations.py drops them from a claim's
# key terms, so "the"/"de"/"und" never count as support.
FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset("the a an and or of to in on for with is are was were be been how what why when "
                    "where which who do does did can could should would i you it this that these those "
                    "my your our their from by as at not no there here about into than then".split()),
    "es": frozenset("el la los las un una unos unas y o de del al en con por para es son fue está están "
                    "cómo como qué que por qué cuál cuando dónde quién se su sus mi tu lo le no hay "
                    "puedo puede debo este esta estos estas ese esa".split()),
    "fr": frozenset("le la les un une des et ou de du au aux en dans avec pour par est sont était "
                    "comment quoi que qui quel quelle pourquoi quand où je vous il elle ce cette ces "
                    "mon ton son ne pas peut puis-je faut-il".split()),
    "de": frozenset("der die das ein eine einen und oder von zu im in mit für ist sind war wie was "
                    "warum wann wo welche welcher wer ich sie es dieser diese dieses mein kann nicht "
                    "den dem des auf aus bei".split()),
    "pt": frozenset("o a os as um uma uns umas e ou de do da dos das no na em com por para é são foi "
                    "está como que qual quando onde quem se seu sua meu não posso pode isso este esta".split()),
    "it": frozenset("il lo la i gli le un una e o di del della dei in con per è sono era come che "
                    "cosa quale quando dove chi si suo sua mio non posso può questo questa nel nella".split()),
}

# Unicode blocks (first, last code point) -> the script's language. Kana outranks Han: a
# Japanese sentence is mostly kanji and kana, a Chinese one has no kana at all.
_SCRIPTS: tuple[tuple[int, int, str], ...] = (
    (0x0370, 0x03FF, "el"), (0x1F00, 0x1FFF, "el"),  # Greek, polytonic Greek
    (0x0400, 0x052F, "ru"),  # Cyrillic (+ supplement); Ukrainian is told by its letters below
    (0x0530, 0x058F, "hy"), (0x0590, 0x05FF, "he"),
    (0x0600, 0x06FF, "ar"), (0x0750, 0x077F, "ar"), (0xFB50, 0xFDFF, "ar"), (0xFE70, 0xFEFF, "ar"),
    (0x0900, 0x097F, "hi"), (0x0980, 0x09FF, "bn"), (0x0B80, 0x0BFF, "ta"), (0x0E00, 0x0E7F, "th"),
    (0x10A0, 0x10FF, "ka"), (0x1100, 0x11FF, "ko"), (0xAC00, 0xD7AF, "ko"), (0x3130, 0x318F, "ko"),
    (0x3040, 0x30FF, "ja"), (0x31F0, 0x31FF, "ja"),  # kana
    (0x3400, 0x4DBF, "zh"), (0x4E00, 0x9FFF, "zh"), (0xF900, 0xFAFF, "zh"),  # Han
)
_UKRAINIAN, _PERSIAN = set("іїєґІЇЄҐ"), set("پچژگ")
# An ideograph or kana says about as much as a short Latin word: weigh it as three letters.
_DENSE = {"zh": 3, "ja": 3}
SCRIPT_SHARE = 0.3  # of a text's letters, a script needs this share to decide its language


def _script(ch: str) -> str | None:
    cp = ord(ch)
    for first, last, code in _SCRIPTS:
        if first <= cp <= last:
            return code
    return None


def script_language(text: str) -> str | None:
    """The language of the non-Latin script most of ``text``'s letters are in, or None.

    Needs two letters of it and ``SCRIPT_SHARE`` of all letters (ideographs and kana
    weigh three): an English question citing ``Δt`` or ``π`` stays English, a Russian one
    naming ``register_blueprint`` is Russian."""
    weights: dict[str, int] = {}
    latin = 0
    for ch in text:
        if not ch.isalpha():
            continue
        code = _script(ch)
        if code is None:
            latin += 1 if unicodedata.name(ch, "").startswith("LATIN") else 0
            continue
        weights[code] = weights.get(code, 0) + _DENSE.get(code, 1)
    if not weights:
        return None
    if "ja" in weights and "zh" in weights:  # kanji in a Japanese text
        weights["ja"] += weights.pop("zh")
    code = max(weights, key=lambda c: weights[c])
    letters = latin + sum(weights.values())
    if weights[code] < 2 or weights[code] < SCRIPT_SHARE * letters:
        return None
    if code == "ru" and any(ch in _UKRAINIAN for ch in text):
        return "uk"
    if code == "ar" and any(ch in _PERSIAN for ch in text):
        return "fa"
    return code


@lru_cache(maxsize=None)
def _content_analyzer(language: str) -> tantivy.TextAnalyzer:
    return (tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
            .filter(tantivy.Filter.lowercase())
            .filter(tantivy.Filter.stopword(language))
            .build())


def stopword_count(text: str, code: str) -> int:
    """How many of ``text``'s words are stop words of the Latin-script language ``code``."""
    words = _WORD.findall(text)
    if code == "en":
        return sum(w.lower() in _ENGLISH for w in words)
    return len(words) - len(_content_analyzer(STOPWORD_LANGUAGES[code]).analyze(text))


def detect_language(text: str) -> str | None:
    """ISO 639-1 code of ``text``'s language; None when nothing in it decides.

    The script first (:func:`script_language`); then stop words and marks, where another
    language must clearly beat English: two signs at least and more than English has."""
    by_script = script_language(text)
    if by_script is not None:
        return by_script
    counts = {code: stopword_count(text, code) for code in STOPWORD_LANGUAGES}
    lowered = text.lower()
    marked = {code: sum(ch in marks for ch in lowered) for code, marks in _MARKS.items()}
    for code, n in marked.items():
        counts[code] += n
    # Between two other languages, the one whose own letters appear wins a tie ("après").
    best = max((c for c in STOPWORD_LANGUAGES if c != "en"), key=lambda c: (counts[c], marked[c]))
    if counts[best] >= 2 and counts[best] > counts["en"]:
        return best
    if counts["en"] and counts["en"] >= counts[best]:
        return "en"  # a tie goes to English, the language of the documents
    return None


def has_own_letters(text: str, code: str) -> bool:
    """Whether ``text`` uses a letter of ``code``'s that English does not (ñ, ç, ß …): the
    surest sign of a short text's language."""
    return any(ch in _MARKS.get(code, "") for ch in text.lower())


def query_language(text: str) -> str:
    """:func:`detect_language` for retrieval: an undecided question is searched as English
    (the documents are), so "en" unless another language is detected."""
    return detect_language(text) or "en"


def content_words(text: str, code: str) -> list[str]:
    """The question's words less the stop words of its language (lowercased)."""
    return _content_analyzer(_CONTENT_LISTS.get(code, "english")).analyze(text)
