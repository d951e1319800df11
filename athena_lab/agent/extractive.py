"""The offline answer: the sentences of the retrieved evidence that answer, cited.

It is the default so the product answers on a fresh machine with nothing else running.
It never writes a word the documents did not: every sentence is copied (markup cleaned)
from a retrieved chunk and followed by that chunk's marker, so citation validation
holds by construction. Sentences are chosen by meaning — the active embedder's
similarity between the question and each sentence of the top chunks — so a question
in other words, or in another language when the embedder is multilingual, still finds
them; without an embedder, by the question's key terms. A sentence that introduces
code or a table brings it along verbatim. When search found strong hits but no single
sentence qualifies, the best passage is shown rather than "no evidence".
"""

from __future__ import annotations

import math
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from athena_lab.agent.citations import EvidenceItem, key_terms, sentence_split
from athena_lab.agent.passages import Block, Sentence, clean_markup, sentences
from athena_lab.index.embeddings import query_vector

__all__ = ["FILTERED_OUT", "LEGACY_LABEL", "NO_EVIDENCE", "Quote", "Reply", "clean_markup", "extractive_answer",
           "stream_pieces"]

NO_EVIDENCE = ("The index has no evidence for this question: none of the indexed documents "
               "contains a passage about it, so there is nothing to quote.")
# When the filters (kind, path prefix, papers) leave no indexed chunk at all, the index is not to blame.
FILTERED_OUT = ("Your filters exclude every indexed source: no indexed document matches this kind, "
                "path prefix and choice of papers. Clear or widen the filters and ask again.")
# Extractive answers used to open with this; memory strips it from stored turns. The mode is in `mode`.
LEGACY_LABEL = "Extractive answer (no language model configured) — the most relevant passages:"
CLOSEST = "No sentence answers this directly; the closest passage found:"
TOP_CHUNKS = 5
MAX_SENTENCES = 6
MIN_COVERAGE = 1 / 3   # lexical mode: share of the question's key terms a sentence must contain
MIN_SIMILARITY = 0.35  # semantic mode: cosine a sentence needs to be quoted as an answer
PASSAGE_SIMILARITY = 0.25 # ... and the best sentence needs for its passage to be shown at all
# An English embedder scores a question in another language low against the right English
# sentence (0.26–0.48 on the dev questions), so the passage floor is lower for those.
PASSAGE_SIMILARITY_OTHER_LANGUAGE = 0.2
# For a question in another language, the multilingual channel's model (multilingual-e5-small)
# tells questions the corpus answers from off-topic ones, which the English embedder cannot:
# best sentence of the top chunks 0.835-0.892 for the dev questions in other languages, against
# 0.767-0.811 for twelve off-topic questions in the same languages (MiniLM: 0.25-0.61 against
# 0.13-0.49, so its floor above let most off-topic questions through and stopped some good ones).
CROSS_LANGUAGE_PASSAGE_SIMILARITY = 0.825
PASSAGE_RANKS = 3      # ... from one of the top chunks
PASSAGE_SENTENCES = 3  # the best sentence and its neighbours, not a whole release-notes list
KEEP_RATIO = 0.75      # a further sentence must score this share of the best one
MAX_BLOCK_LINES = 40

Similarity = Callable[[str, list[str]], list[float]]


@dataclass
class Candidate:
    number: int
    rank: int
    sentence: Sentence
    score: float
    similarity: float = 0.0
    # A short block introducer ("Like this:") is quoted after the sentence before it
    # ("So how do you register that blueprint?"), which says what the block shows.
    lead: str | None = None
    # Whether it stands alone as a quoted sentence (see ``quotable``); one that does not
    # (a table row, a line cut at a column's end) can still lead the closest passage.
    whole: bool = True
    # The part of ``score`` that the question's kind asked for (``naming``, a reason). A
    # sentence keeps its place beside the best one when it reaches the share of the best
    # score with or without it: one how-to bonus on the best must not turn every other
    # sentence away, nor its own bonus be lost to one.
    asked: float = 0.0

    @property
    def text(self) -> str:
        return f"{self.lead} {self.sentence.text}" if self.lead else self.sentence.text


@dataclass(frozen=True)
class Quote:
    """What the answer quotes from evidence ``number``: a sentence or a code block/table."""

    number: int
    text: str


@dataclass
class Reply:
    text: str
    quotes: list[Quote] = field(default_factory=list)
    # The text cut where it streams: one piece per quoted sentence (with the block it
    # introduces), so a front end shows each sentence as it arrives. Joined, they are `text`.
    pieces: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.pieces:
            self.pieces = [self.text]


class SentenceVectors:
    """Sentence vectors by (embedder, text), most recently used kept.

    Embedding the sentences of the top passages is most of an extractive turn's time
    (docs/http-api.md). A follow-up question or a regenerate mostly lands on the same
    passages, so their sentences are embedded once per process, not once per turn.
    """

    def __init__(self, capacity: int = 8192) -> None:
        self.capacity = capacity
        self._vectors: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def embed(self, embedder: Any, texts: list[str]) -> np.ndarray:
        name = str(getattr(embedder, "key", None) or getattr(embedder, "name", id(embedder)))
        with self._lock:
            known = {t: self._vectors[(name, t)] for t in texts if (name, t) in self._vectors}
            for t in known:
                self._vectors.move_to_end((name, t))
        missing = list(dict.fromkeys(t for t in texts if t not in known))
        if missing:
            fresh = np.asarray(embedder.embed_documents(missing), dtype=np.float32)
            with self._lock:
                for t, vector in zip(missing, fresh):
                    known[t] = self._vectors[(name, t)] = vector
                while len(self._vectors) > self.capacity:
                    self._vectors.popitem(last=False)
        return np.stack([known[t] for t in texts])


SENTENCE_VECTORS = SentenceVectors()


def embedder_similarity(embedder: Any) -> Similarity | None:
    """Cosine between a question and sentences with the index's own embedder, if it has one."""
    if embedder is None:
        return None

    def similarity(question: str, texts: list[str]) -> list[float]:
        if not texts:
            return []
        q = query_vector(embedder, question)
        return [float(x) for x in SENTENCE_VECTORS.embed(embedder, texts) @ q]
    return similarity


def cross_language_similarity(embedder: Any) -> Similarity | None:
    """``embedder_similarity`` for the model CROSS_LANGUAGE_PASSAGE_SIMILARITY was set on
    (multilingual-e5-small, by either runtime, with its own prefixes); None for any other
    channel model, whose cosines sit elsewhere and would turn every answer away."""
    name = str(getattr(embedder, "name", ""))
    own = (getattr(embedder, "query_prefix", "query: "), getattr(embedder, "passage_prefix", "passage: "))
    if embedder is None or "multilingual-e5-small" not in name or own != ("query: ", "passage: "):
        return None
    return embedder_similarity(embedder)


def candidates(question: str, evidence: list[EvidenceItem], similarity: Similarity | None = None,
               top: int = TOP_CHUNKS) -> list[Candidate]:
    """Every quotable sentence of the top chunks, scored by meaning (or key terms without an
    embedder), plus what the question's kind asks for: the call or setting a how-to names,
    the reason a why-question wants."""
    found: list[Candidate] = []
    for rank, item in enumerate(evidence[:top]):
        for s in sentences(item.text):
            if s.shows is not None and len(s.text) < INTRO_ALONE and s.before and not author_block(s.before):
                found.append(Candidate(item.number, rank, s, 0.0, lead=s.before))
            elif readable(s.text):
                found.append(Candidate(item.number, rank, s, 0.0, whole=quotable(s, question)))
    if not found:
        return []
    wanted = key_terms(question)
    sims = similarity(question, [c.text for c in found]) if similarity else None
    why = asked_why(question)
    for n, cand in enumerate(found):
        terms = key_terms(cand.text)
        coverage = len(wanted & terms) / len(wanted) if wanted else 0.0
        asked = cand.asked = (NAME_WEIGHT * naming(cand, wanted)
                              + (REASON_WEIGHT if why & terms and _REASON.search(cand.text) else 0.0))
        if sims is not None:
            cand.similarity = sims[n]
            cand.score = sims[n] + 0.2 * coverage + 0.1 / (cand.rank + 1) + asked
        else:
            cand.similarity = coverage
            cand.score = coverage + 0.5 / (cand.rank + 1) + 0.1 / cand.sentence.position + asked
    return found


# A block introducer shorter than this ("Like this:", "Copy the generated value into it.")
# is quoted after the sentence before it, which says what "this" and "it" are.
INTRO_ALONE = 50


# A sentence ends in one of these (then maybe a closing quote or bracket); a line without one
# is a heading, a figure's labels or a sentence cut where its chunk or column ends.
_TERMINATED = re.compile(r"[.!?:;…][\"'”’)\]*]*$")
# A paragraph that opens in lower case mid-sentence ("inside of scaled dot-product attention
# by masking…") is the end of a sentence cut where a column, page or chunk began.
_CONTINUATION = re.compile(r"^[a-z]+[\s,]")
_CAPTION = re.compile(r"^(?:Figure|Fig\.|Table|Listing|Algorithm|Abbildung|Tabelle)\s*\d+[a-z]?\s*[:.]", re.I)
_ASKS_FIGURE = re.compile(r"\b(?:figures?|fig|tables?|diagrams?|charts?|plots?|captions?)\b", re.I)


def readable(text: str) -> bool:
    """A readable length, not a question, not an author line."""
    return 20 <= len(text) <= 500 and len(text.split()) >= 4 and not text.endswith("?") and not author_block(text)


def quotable(s: Sentence, question: str) -> bool:
    """Whether a sentence can stand alone as an answer: ended as a sentence (a list item
    needs no full stop), not the cut-off end of one, and not a figure's caption unless
    figures are asked about."""
    text = s.text
    if not (s.listed or s.shows is not None or _TERMINATED.search(text)):
        return False
    if s.before is None and not s.listed and _CONTINUATION.match(text):
        return False
    return not _CAPTION.match(text) or bool(_ASKS_FIGURE.search(question))


# How-to questions are answered by the call, setting or command the docs name: an identifier
# (``app.register_blueprint``, ``SECRET_KEY``, ``before_request()``) in the sentence or in the
# code it introduces that holds the question's words.
NAME_WEIGHT = 0.15
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*(?:[._][A-Za-z_]\w*)+|[A-Za-z_]\w*(?=\()|--?[a-z][\w-]+")
# Why-questions are answered by the sentence that gives the reason.
REASON_WEIGHT = 0.2
_WHY = re.compile(r"\b(?:why|warum|wieso|pourquoi|por ?qu[eé]|perch[eé]|reason)\b", re.I)
_REASON = re.compile(r"\b(?:because|so that|in order to|to (?:counteract|avoid|prevent|ensure|keep|make sure)"
                     r"|due to|as a result|this is why|that is why|the reason)\b", re.I)


def asked_why(question: str) -> set[str]:
    """The key terms of a why-question's own sentence ("Why is it scaled?" → scale), whose
    reason is wanted; empty for other questions. A follow-up's borrowed words come after it."""
    first = sentence_split(question)[0] if question.strip() else ""
    return key_terms(first) if _WHY.search(first) else set()


def naming(cand: Candidate, wanted: set[str]) -> float:
    """1 when an identifier in the sentence or its code block holds two of the question's
    words (``register_blueprint`` for "register a blueprint"), 1/3 when it holds one."""
    best = max(_named(cand.text, wanted), _named(code_of(cand), wanted))
    return 1.0 if best >= min(2, len(wanted)) and best else 1 / 3 if best == 1 else 0.0


def shows_how(cand: Candidate, wanted: set[str]) -> bool:
    """Whether the code block the sentence introduces uses a name made of the question's
    words: for "How do I set the secret key?", the block that reads ``SECRET_KEY = '…'``."""
    return bool(wanted) and _named(code_of(cand), wanted) >= min(2, len(wanted))


def code_of(cand: Candidate) -> str:
    block = cand.sentence.shows
    return "\n".join(block.lines[:MAX_BLOCK_LINES]) if block is not None and block.kind == "code" else ""


def _named(text: str, wanted: set[str]) -> int:
    return max((len(wanted & key_terms(name)) for name in _IDENTIFIER.findall(text)), default=0)


_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
_AUTHOR_MARKS = re.compile(r"[∗*†‡§¶]")


def author_block(text: str) -> bool:
    """A paper's author, affiliation or e-mail lines ("Illia Polosukhin∗ ‡ illia@…"): never
    an answer, whatever they score against a question."""
    return bool(_EMAIL.search(text)) or len(_AUTHOR_MARKS.findall(text)) >= 2


def qualifies(cand: Candidate, semantic: bool, wanted: int) -> bool:
    if semantic:
        return cand.similarity >= MIN_SIMILARITY
    return cand.similarity * wanted >= max(1, math.ceil(wanted * MIN_COVERAGE))


def pick(found: list[Candidate], semantic: bool, wanted: set[str], most: int = MAX_SENTENCES,
         how: bool = True) -> list[Candidate]:
    """The best sentences (no near-repeats) that qualify: the best one first, since it is
    the one that answers, then the others in evidence order. ``how``: when none of them
    brings the code that uses the name the question asks about, the best sentence of the
    top passages that does comes too (its words rarely resemble the question's: "Copy the
    generated value into it." before ``SECRET_KEY = '…'``)."""
    chosen: list[Candidate] = []
    seen: list[set[str]] = []
    for cand in sorted(found, key=lambda c: c.score, reverse=True):
        if not cand.whole or not qualifies(cand, semantic, len(wanted)) \
                or (chosen and cand.score < chosen[0].score * KEEP_RATIO
                    and cand.score - cand.asked < (chosen[0].score - chosen[0].asked) * KEEP_RATIO):
            continue
        terms = key_terms(cand.text)
        if any(len(terms & s) / max(1, len(terms | s)) > 0.7 for s in seen):
            continue
        chosen.append(cand)
        seen.append(terms)
        if len(chosen) >= most:
            break
    if chosen and how and not any(shows_how(c, wanted) for c in chosen):
        code = [c for c in found if c.whole and c.rank < PASSAGE_RANKS and shows_how(c, wanted)]
        if code:
            chosen = chosen[:most - 1] + [max(code, key=lambda c: c.score)]
    return chosen[:1] + sorted(chosen[1:], key=lambda c: (c.rank, c.sentence.position))


def fenced(block: Block) -> str:
    """A code block or table verbatim, fenced so it renders as written (long ones cut)."""
    lines = block.lines[:MAX_BLOCK_LINES]
    if block.kind == "table":
        return "\n".join(lines)
    ticks = "````" if any("```" in l for l in lines) else "```"
    return "\n".join([ticks + block.lang, *lines, ticks])


def sequels(cand: Candidate, taken: set[str], most: int = 1) -> list[str]:
    """The sentences after this one in its list item or paragraph, which often finish its
    thought ("… is now deprecated." / "It's advised to use the `a2wsgi` package instead."),
    up to the first the answer quotes already or that introduces a block, and none when this
    one introduces a block. Given to the first bullet only: on the dev questions that found
    one more fact in the docs and one in the PDFs; a sequel on every bullet doubled the
    answer's length for one PDF fact more. A definition gets two: "We call our particular
    attention 'Scaled Dot-Product Attention'." is followed by what its input is, then by
    what it computes."""
    s = cand.sentence
    if s.shows is not None or not s.sequel or s.sequel in taken:
        return []
    after = s.paragraph[s.paragraph.index(s.text) + 1:] if s.text in s.paragraph else [s.sequel]
    if not after or after[0] != s.sequel:
        return [s.sequel]
    found: list[str] = []
    for text in after[:most]:
        if text in taken or text.endswith(":"):
            break
        found.append(text)
    return found


# A sentence that leans on the one before it ("To counteract this effect, we scale …").
_ANAPHORA = re.compile(r"^(?:(?:To \w+ |For |Because of |Due to )?(?:this|these|that|those|such)\b"
                       r"|(?:Therefore|Thus|Hence|That is why|This is why)\b)", re.I)


# "What is X?" / "What does X mean?" in the languages the question sets hold.
_DEFINE = re.compile(r"^\s*(?:what(?:'s| is| are| does .+ mean)|define|definition of|was (?:ist|sind|bedeutet)"
                     r"|qu[ée]? es|qu'est-ce|cos'è|che cos)", re.I)


def render(chosen: list[Candidate], define: bool = False) -> Reply:
    """Bullets ``- sentence [n]``; the block a sentence introduces follows it, cited the same."""
    pieces: list[str] = []
    quotes: list[Quote] = []
    taken = {c.sentence.text for c in chosen} | {c.lead for c in chosen if c.lead}
    for n, cand in enumerate(chosen):
        said = [cand.lead, cand.sentence.text] if cand.lead else [cand.sentence.text]
        if n == 0 and not cand.lead and cand.sentence.before and _ANAPHORA.match(cand.sentence.text) \
                and cand.sentence.before not in taken:
            said.insert(0, cand.sentence.before)  # what "this effect" is
        if n == 0:
            said += sequels(cand, taken, 2 if define else 1)  # each located on its own: it may start on another line or page
        # each sentence its own marker: the check reads sentences, and a first sentence whose
        # marker came after its sequel was flagged "unsupported" although quoted word for word
        piece = ("\n" if n else "") + "- " + " ".join(f"{text} [{cand.number}]" for text in said)
        if cand.lead:  # "Like this:" is too short to find alone: the two are found together
            said_at = [f"{cand.lead} {cand.sentence.text}", *said[2:]]
        else:
            said_at = said
        quotes.extend(Quote(cand.number, text) for text in said_at)
        block = cand.sentence.shows
        if block is not None and block.lines:
            piece += "\n\n" + fenced(block) + "\n"
            quotes.append(Quote(cand.number, "\n".join(block.lines[:MAX_BLOCK_LINES])))
        pieces.append(piece)
    return Reply("".join(pieces), quotes, pieces)


def closest_passage(best: Candidate) -> Reply:
    """The paragraph around the best sentence, quoted whole, when no sentence qualifies alone."""
    around = best.sentence.paragraph or [best.sentence.text]
    at = around.index(best.sentence.text) if best.sentence.text in around else 0
    quoted = around[max(0, at - 1):max(0, at - 1) + PASSAGE_SENTENCES]
    # no neighbour that opens mid-sentence ("ask . Paper Plain draws on…") or stops short
    while len(quoted) > 1 and quoted[0] != best.sentence.text and _CONTINUATION.match(quoted[0]):
        quoted = quoted[1:]
    while len(quoted) > 1 and quoted[-1] != best.sentence.text and not _TERMINATED.search(quoted[-1]):
        quoted = quoted[:-1]
    paragraph = " ".join(quoted)
    cited = " ".join(f"{sentence} [{best.number}]" for sentence in quoted)  # each sentence its marker
    reply = Reply(f"{CLOSEST}\n\n> {cited}", [Quote(best.number, paragraph)])
    if best.sentence.shows is not None:
        reply.text += "\n\n" + fenced(best.sentence.shows)
        reply.quotes.append(Quote(best.number, "\n".join(best.sentence.shows.lines[:MAX_BLOCK_LINES])))
    return reply


def passage_floor(question: str) -> float:
    from athena_lab.language import query_language

    return PASSAGE_SIMILARITY if query_language(question) == "en" else PASSAGE_SIMILARITY_OTHER_LANGUAGE


def extractive_answer(question: str, evidence: list[EvidenceItem], similarity: Similarity | None = None,
                      across: Similarity | None = None, most: int = MAX_SENTENCES) -> Reply:
    """The answer text with `[n]` markers that use the evidence numbers, and what it quotes.
    ``across``: a similarity that crosses languages (the multilingual channel's model). For
    a question in another language it decides whether the top chunks answer at all (the
    English embedder's scores carry no such signal there). It only rules passages out: its
    nearest sentences are often release-notes lines that name languages (the channel's
    crowding, docs/retrieval.md), so it picks the closest passage only when no English
    embedder is there to."""
    found = candidates(question, evidence, similarity)
    nearest = nearest_across(question, found, across)
    if nearest is not None and nearest[1] < CROSS_LANGUAGE_PASSAGE_SIMILARITY:
        return Reply(NO_EVIDENCE)
    chosen = pick(found, similarity is not None, key_terms(question), most, how=not asked_why(question))
    if chosen:
        return render(chosen, define=bool(_DEFINE.search(question)))
    if nearest is not None and similarity is None:
        return closest_passage(nearest[0])
    best = max(found, key=lambda c: c.score, default=None)
    # Past the cross-language check, the English embedder's low scores for a question in
    # another language say nothing: its floor applies only when nothing else could judge.
    if (best is not None and similarity is not None and best.rank < PASSAGE_RANKS
            and (nearest is not None or best.similarity >= passage_floor(question))):
        return closest_passage(best)
    return Reply(NO_EVIDENCE)


def nearest_across(question: str, found: list[Candidate],
                   across: Similarity | None) -> tuple[Candidate, float] | None:
    """The top chunks' sentence nearest the question across languages, and that similarity;
    None without the model (the caller gives it only for a question not in English) or
    without a readable sentence in the top chunks."""
    top = [c for c in found if c.rank < PASSAGE_RANKS]
    if across is None or not top:
        return None
    try:
        scores = across(question, [c.sentence.text for c in top])
    except Exception:  # a check that only rules answers out must never fail the turn
        return None
    at = max(range(len(top)), key=scores.__getitem__)
    return top[at], scores[at]


def stream_pieces(text: str) -> list[str]:
    """The answer cut into line-sized pieces, streamed as chunk events like a model's."""
    return [line + "\n" for line in text.split("\n")[:-1]] + [text.split("\n")[-1]]
