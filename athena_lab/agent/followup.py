"""Whether a question leans on the one before it: only then does its search borrow words.

"and how do I test it?" after a blueprint question is about blueprints; "¿Cómo configuro la
clave secreta?" after the same question is about the secret key, although its "la" is
spelt like a pronoun. Three signs make a question lean on the previous one, each read in
the question's language:

* it opens as a continuation: "and …?", "what about …", "¿y …?", "et …", "und …";
* a word points back: "it", "eso", "ça", "ihn", a clitic on a verb ("dejarlo", "je le
  laisse"), "das" at the end of a German question, a French question ending on "avec";
* it has no subject of its own: no content word beyond generic ones ("why?", "an example?").

A question that has SUBJECT_WORDS content words of its own stands alone even with a word
that points back: "My app crashes in production, how can I get it to email me the errors?"
is about the app it names. The word lists are short and closed (pronouns, not vocabulary);
the thresholds were tuned on the dev split of bench/data/followups.jsonl and the test split
is reported in docs/benchmarks.md ("Follow-up questions").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from athena_lab.agent.citations import key_terms
from athena_lab.language import detect_language, has_own_letters

SUBJECT_WORDS = 5  # content words that make a question stand alone despite a pronoun
_TOKEN = re.compile(r"\w+'|\w+", re.UNICODE)

# Words that point back to something said before, per language. Articles that are spelt
# like pronouns (es "la", fr "le", de "das") are not here: see _clitic and _german_demonstrative.
_ANAPHORS = {
    "en": frozenset("it its this these those they them their theirs same".split()),
    "es": frozenset("eso esto ello ése ésa éste ésta esos esas estos estas él ellos ellas "
                    "le les su sus mismo misma".split()),
    "fr": frozenset("ça ca cela ceci celui celle ceux celles il ils elle elles y leur leurs "
                    "son sa ses mien mienne siens même".split()),
    "de": frozenset("es ihn ihm ihnen denen dessen deren dies diese dieser dieses diesem diesen "
                    "damit dafür dazu davon darauf dabei darin daran darüber dadurch dagegen dahin "
                    "selbe selben".split()),
    "pt": frozenset("isso isto aquilo ele ela eles elas mesmo mesma".split()),
    "it": frozenset("questo questa questi queste quello quella quelli ciò esso essa stesso stessa".split()),
}
# A continuation's first word(s): "and", "what about", "¿y", "et si", "was ist mit".
_OPENERS = {
    "en": ("and", "also", "but", "so", "then", "what about", "how about", "what if", "plus", "same for"),
    "es": ("y", "e", "pero", "entonces", "también", "qué tal", "qué pasa con", "y si"),
    "fr": ("et", "mais", "alors", "aussi", "pareil", "qu' en est", "et si"),
    "de": ("und", "aber", "dann", "auch", "was ist mit", "wie ist es mit", "und wenn"),
    "pt": ("e", "mas", "então", "também"),
    "it": ("e", "ma", "allora", "anche"),
}
# Words that name no subject: "why?", "an example?", "the default?", and the light verbs a
# question is built with ("can it have …", "¿se le puede poner …", "kann man … geben").
_GENERIC = frozenset(key_terms(
    "example examples code snippet default work works explain more else why difference alternative "
    "instead better possible have has give put make get use using need want leave keep find "
    "ejemplo código defecto funciona explica más diferencia mejor posible puede pueden puedo tener "
    "poner dar hacer hago usar dejar debería saco "
    "exemple défaut marche fonctionne explique plus différence mieux possible peux peut avoir donner "
    "mettre faire utiliser laisser trouve "
    "beispiel standard funktioniert geht erkläre mehr sonst unterschied besser möglich kann haben "
    "geben machen lassen benutzen bekomme"))
# Where a clause ends inside the question: a pronoun after one can point at what the
# question itself named before it ("What is CSRF and how do I prevent it?").
_CLAUSE = re.compile(r"[,;:]|\b(?:and|y|e|et|und|instead of|rather than|en vez de|en lugar de|"
                     r"plutôt que|au lieu de|statt|anstatt)\b")
# Where a pronoun says nothing about an earlier question: "is it possible to …", "gibt es",
# "il faut", "il y a".
_EXPLETIVES = {
    "en": re.compile(r"\b(?:is it|it is|it's|was it|would it be) (?:possible|ok|okay|safe|better|worth|"
                     r"necessary|recommended|a good idea)\b"),
    "de": re.compile(r"\b(?:gibt es|es gibt|geht es|es geht)\b"),
    "fr": re.compile(r"\b(?:il y a|y a-t-il|il faut|faut-il|il est possible|il vaut mieux)\b"),
}
# French subject pronouns and question words a clitic follows: "je le laisse", "comment la tester".
_FR_BEFORE_CLITIC = frozenset("je j' tu on nous vous comment ne n' peux peut dois doit faut veux vais va "
                              "pouvez pourquoi où".split())
_ES_BEFORE_CLITIC = frozenset("cómo como dónde donde cuándo cuando qué que no se ya".split())
_ES_ENCLITIC = re.compile(r"\w{2,}(?:ar|er|ir|ándo|iendo|ando)(?:lo|la|los|las|le|les)$")
_GERMAN_ADJECTIVE = re.compile(r"[a-zäöüß]{2,}(?:e|en|er|es|em)$")
_FR_TRAILING = frozenset("avec dessus dedans dessous pour".split())


@dataclass(frozen=True)
class Reading:
    """How a question reads against the previous one; ``leans`` is the decision."""

    language: str
    opener: bool
    anaphor: bool
    subject: int  # content words of its own, generic ones left out

    def leans(self, subject_words: int = SUBJECT_WORDS) -> bool:
        """The decision; ``subject_words`` is the threshold (bench/followups.py tunes it)."""
        if self.opener or self.subject == 0:
            return True
        return self.anaphor and self.subject < subject_words


def read_question(question: str, previous: str = "") -> Reading:
    """The signs of leaning in ``question``, read in its language. A short question says
    little about its language ("Il peut avoir son propre dossier ?" alone reads as Spanish):
    unless its own letters say otherwise (¿, ñ, ß …), the conversation's words decide too."""
    own, conversation = detect_language(question), detect_language(f"{previous} {question}")
    if own is None or (own != conversation and conversation and not has_own_letters(question, own)):
        own = conversation
    language = own if own in _ANAPHORS else "en"
    text = question.lower().replace("’", "'")
    tokens = _TOKEN.findall(text)
    subject = len(key_terms(question) - _GENERIC)
    # After the first clause that names something, a pronoun points inside the question.
    first = text
    for match in _CLAUSE.finditer(text):
        if match.start() and key_terms(text[:match.start()]) - _GENERIC:
            first = text[:match.start()]
            break
    cased = _TOKEN.findall(question.replace("’", "'")[:len(first)])
    return Reading(language, _opens(tokens, language), _points_back(first, _TOKEN.findall(first), cased, language),
                   subject)


def leans_on_previous(question: str, previous: str) -> bool:
    """True when ``question`` continues ``previous`` rather than asking about something new."""
    return read_question(question, previous).leans()


def _opens(tokens: list[str], language: str) -> bool:
    head = " ".join(tokens[:4])
    return any(head == opener or head.startswith(opener + " ") for opener in _OPENERS[language])


def _points_back(text: str, tokens: list[str], cased: list[str], language: str) -> bool:
    expletive = _EXPLETIVES.get(language)
    words = _TOKEN.findall(expletive.sub(" ", text)) if expletive else tokens
    if any(w in _ANAPHORS[language] for w in words):
        return True
    if language == "en":
        return _english_that(words)
    if language == "es":
        return _spanish_clitic(tokens)
    if language == "fr":
        return _french_clitic(tokens)
    if language == "de":
        return _german_demonstrative(cased)
    return False


def _english_that(words: list[str]) -> bool:
    """"that" pointing back ("does that work?", "how do I change that") rather than a
    relative pronoun ("a view that returns JSON"): last word, or followed by a verb of being."""
    return any(w == "that" and (i == len(words) - 1 or words[i + 1] in {"is", "does", "work", "works",
                                                                        "one", "too", "also", "mean"})
               for i, w in enumerate(words))


def _spanish_clitic(tokens: list[str]) -> bool:
    """"¿Cómo lo pruebo?", "¿cómo la activo?", "dejarlo": an object pronoun, not an article."""
    for i, word in enumerate(tokens):
        before = tokens[i - 1] if i else ""
        if word == "lo" and (i + 1 == len(tokens) or tokens[i + 1] not in {"que", "de"}):
            return True
        if word in {"la", "las", "los"} and (not before or before in _ES_BEFORE_CLITIC):
            return True
        if _ES_ENCLITIC.match(word):
            return True
    return False


def _french_clitic(tokens: list[str]) -> bool:
    """"comment la tester ?", "je l'enregistre", "on peut y mettre": le/la/les/l' before a verb."""
    for i, word in enumerate(tokens):
        before = tokens[i - 1] if i else ""
        if word in {"le", "la", "les", "l'"} and before in _FR_BEFORE_CLITIC:
            return True
    return bool(tokens) and tokens[-1] in _FR_TRAILING


def _german_demonstrative(cased: list[str]) -> bool:
    """"Wie teste ich den?", "wie registriere ich das in der App?": der/die/das/den/dem as a
    pronoun, which no noun follows (German nouns are capitalised; "das Logging" is an article)."""
    for i, word in enumerate(cased):
        if not i or word not in {"das", "den", "die", "dem"}:
            continue
        after = cased[i + 1:]
        while after and _GERMAN_ADJECTIVE.match(after[0]):
            after = after[1:]  # "den geheimen Schlüssel": an adjective, then the noun
        if not after or not after[0][:1].isupper():
            return True
    return False
