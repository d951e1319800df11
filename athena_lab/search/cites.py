"""Reference lists in search: kept out of "what does the archive say about X", searched for
"which papers cite X".

A paper's bibliography names other work; a hit in it says nothing about X, only that
this paper cites something about X. The PDF parser marks those passages
(``locator["references"]``, pdf/structure.py); search leaves them out unless the question
asks what cites something, and then searches them alone.
"""

from __future__ import annotations

import re

REFERENCE_MODES = ("exclude", "only", "include")
MAX_QUESTION = 400  # characters: longer text is no who-cites question (``citing_subject``)

# A question asks which papers cite X when it is built around a verb of citing whose subject
# is the user's papers ("which papers cite X", "do any of my papers cite X", "what cites X"),
# around the passive ("is X cited anywhere in my papers?"), or around the papers'
# bibliographies ("whose reference lists include X"). Each form is read from its verb, so the
# words around it (please, in my Zotero library, thanks) need no form of their own.
_CITE_VERB = re.compile(r"\b(?:cit+(?:e|es|ed|ing)|refer(?:s|red|ring)?\s+to|"
                        r"ref[er]{1,3}nc(?:e|es|ed|ing)(?!\s+(?:lists?|implementations?|manual|guide|docs?|style)\b))\b",
                        re.I)
# the subject of the verb: the user's papers, or a bare who / what
_CITERS = re.compile(r"\b(?:papers?|articles?|works?|pdfs?|documents?|publications?|ones|anything|anyone|"
                     r"everything|something|nothing|none)\b", re.I)
_BARE = re.compile(r"^\s*(?:which|what|who|whom|any)(?:\s+(?:in|of|from|among)\s+(?:my|our|the|this|these)"
                   r"(?:\s+\w+){1,2})?\s*$", re.I)
# "does the Bigtable paper cite …", "did the ResNet authors cite …": that one work's own references
_OWN = re.compile(r"\b(?:do|does|did|has|have)\s+(?!any\w*\b|some\b|my\b|our\b|these\b|those\b|all\b|none\b|many\b|"
                  r"which\b|of\b)\w", re.I)
_NOT_ASKING = re.compile(r"^\s*(?:how(?!\s+(?:many|often))|why|explain|fix|format|what\s+is|what's|what\s+are|"
                         r"is\s+there\s+a\b)", re.I)
_PASSIVE = re.compile(r"^\s*(?:(?:where|how\s+often|by\s+whom)\s+)?(?:is|was|are|were|has|have)\s+(?P<what>.+?)\s+"
                      r"(?:been\s+)?(?:cited|referenced)\b(?P<rest>.*)$", re.I)
_PASSIVE_REST = re.compile(r"^\s*(?:$|anywhere|at\s+all|by\b|in\s+(?:any|my|our|this|these|the\s+(?:archive|library|"
                           r"collection|folder|papers))\b)", re.I)
_BIBLIOGRAPHY = [
    # "whose reference lists include Cook 1971", "bibliographies that mention Bloom filters"
    re.compile(r"(?:bibliograph(?:y|ies)|reference\s+lists?|references)\s+(?:that\s+)?"
               r"(?:include|list|mention|name|contain)s?\s+(?P<what>.+)$", re.I),
    # "papers that have X in their references"
    re.compile(r"\b(?:have|has|list|include)\s+(?P<what>.+?)\s+in\s+(?:their|its|the)\s+"
               r"(?:references|reference\s+lists?|bibliograph(?:y|ies))\b", re.I),
]
_CITATIONS_OF = re.compile(r"^\s*(?:(?:find|show|list|get|any)\s+(?:me\s+)?)?(?:all\s+)?(?:the\s+)?"
                           r"(?:(?:citations?|citing\s+papers)\s+(?:of|to|for)|references\s+to)\s+(?P<what>.+)$", re.I)
# "Knuth's TAOCP: which papers cite it?", "Byzantine Generals Problem - who cites it"
_TOPIC = re.compile(r"^(?P<what>.+)(?:\s*[:;\u2014\u2013]|\s+-+)\s+(?P<rest>.+)$")
_PRONOUN = re.compile(r"^(?:it|this|that|them|these|those|this\s+(?:one|paper|work))$", re.I)
# words around the cited work that are no part of it
_SCOPE_TAIL = re.compile(r"(?:,?\s+(?:anywhere|at\s+all|please|thanks?(?:\s+you)?|here)\b.*|"
                         r"\s+(?:in|from|among|within)\s+(?:my|our|this|these|the)\s+(?:\w+\s+){0,2}?"
                         r"(?:archive|library|collection|folder|corpus|papers|pdfs|documents|zotero)\b.*|"
                         r"\s+(?:in|from)\s+(?:my|our)\s+zotero\b.*|,\s*$)", re.I)
_NO_SUBJECT = re.compile(r"^(?:of|for|as|to|does|do|did|are|is|was|were|there|the\s+most|most|many|the\s+number)\b",
                         re.I)


_SECOND_SENTENCE = re.compile(r"[?!]\s+\w|\.\s+(?:what|which|who|how|why|when|where|is|are|does|do|can)\b", re.I)


def _work(text: str) -> str | None:
    """The cited work as the question names it, without the words around it."""
    what = _SCOPE_TAIL.sub("", text.strip()).strip(" .?!,;:\"'“”‘’")
    what = re.sub(r"^the\s+", "", what, flags=re.I)
    what = re.sub(r"^(?:paper|work|article)\s+", "", what, flags=re.I)
    what = re.sub(r"\s+(?:paper|article|work)$", "", what, flags=re.I).strip(" \"'“”‘’")
    if not what or _PRONOUN.match(what) or _NO_SUBJECT.match(what) or _SECOND_SENTENCE.search(what):
        return None  # no work named, or a second sentence: a question about something else
    return what


# "A position paper on … cites how often …", "The Bigtable paper cites …": one work's own citing
_ONE_WORK = re.compile(r"^\s*(?:a|an|the|this|that|its|his|her|their)\s+(?:[\w'’-]+\s+){0,8}?"
                       r"(?:paper|article|work|pdf|document|publication|survey|study|report|book|thesis)\b(?!s)", re.I)


def _active(question: str) -> str | None:
    """``X`` of "… papers … cite X", the verb's subject being the user's papers or who/what."""
    verb = _CITE_VERB.search(question)
    if not verb:
        return None
    lead = question[:verb.start()]
    if _NOT_ASKING.match(lead) or _OWN.search(lead) or _ONE_WORK.match(lead):
        return None
    if not (_CITERS.search(lead) or _BARE.match(lead)):
        return None
    return _work(question[verb.end():])


def citing_subject(question: str) -> str | None:
    """``X`` when ``question`` asks which papers cite X ("which papers cite Lamport's
    Paxos?", "who cites the Dynamo paper", "is Raft cited anywhere in my papers?"), else
    None: such a question searches the reference lists alone, for X (Workspace.search)."""
    # Whitespace runs collapsed and the length capped: the forms below backtrack over runs of
    # spaces, and a pasted page of text (20,000 characters) took 60 s before; a question
    # naming a cited work is a line, not a page.
    q = " ".join((question or "").split()).strip("?.! ")
    if not q or len(q) > MAX_QUESTION:
        return None
    topic = _TOPIC.match(q)
    if topic:
        rest = topic.group("rest").strip(" ?.!")
        verb = _CITE_VERB.search(rest)
        if verb and _PRONOUN.match(_SCOPE_TAIL.sub("", rest[verb.end():]).strip(" ?.!")) \
                and (_CITERS.search(rest[:verb.start()]) or _BARE.match(rest[:verb.start()])):
            return _work(topic.group("what"))
    for pattern in _BIBLIOGRAPHY:
        found = pattern.search(q)
        if found:
            return _work(found.group("what"))
    found = _CITATIONS_OF.match(q)
    if found:
        return _work(found.group("what"))
    passive = _PASSIVE.match(q)
    if passive and _PASSIVE_REST.match(passive.group("rest")):
        return _work(passive.group("what"))
    return _active(q)


def is_reference(locator: dict) -> bool:
    return bool(locator.get("references"))
