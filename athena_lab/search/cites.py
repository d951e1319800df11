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

# Who asks: "which (of my) (FRP) papers (in the archive)", "do any of my papers", "has anyone".
_ASKER = (r"(?:which|what|who|list(?:\s+the)?|find(?:\s+(?:me\s+)?(?:the|all(?:\s+the)?))?|show(?:\s+me)?(?:\s+the)?|"
          r"are\s+there(?:\s+any)?|(?:do|does|did|have|has)\s+(?:any(?:one|thing)?|some)|is\s+there\s+any(?:thing)?)?")
_WHOSE = r"(?:\s*(?:of|in|among)\s+(?:my|our|the|these|this)\b)?"
_NOUN = (r"(?:\s*(?:[\w-]+\s+){0,2}?(?:papers?|articles?|works?|documents?|sources?|authors?|ones|"
         r"publications?|pdfs?))?")
_SCOPE = (r"(?:\s+(?:in|from|of|among)\s+(?:my|our|the|this)\s+(?:archive|library|collection|folder|corpus|"
          r"papers|references|zotero(?:\s+library)?))?")
_VERB = (r"(?:cites?|citing|cited|refer(?:s|red|ring)?\s+to|references?(?:\s+to)?|referenced|referencing|"
         r"have\s+cited|has\s+cited)")
_WHAT = r"(?:the\s+)?(?:paper\s+|work\s+)?(?P<what>.+?)"
_END = r"\s*[?.!]*\s*$"
_CITING = [
    # "Which papers cite Paxos?", "who cites the Dynamo paper", "references to MapReduce",
    # "Do any of my papers cite Kademlia?", "papers referencing Bayou"
    re.compile(r"^\s*" + _ASKER + _WHOSE + _NOUN + _SCOPE + r"\s*(?:that|which|who)?\s*" + _VERB + r"\s+"
               + _WHAT + r"(?:\s+(?:anywhere|at\s+all))?" + _END, re.I),
    # "Find citations of the Bitcoin whitepaper", "citations to Chord"
    re.compile(r"^\s*(?:find|show(?:\s+me)?|list|any)?\s*(?:all\s+)?(?:the\s+)?(?:citations?|references)\s+(?:of|to)\s+"
               + _WHAT + _END, re.I),
    # "Where is Raft cited?", "Is Chubby cited anywhere?", "Has Bigtable been referenced?"
    re.compile(r"^\s*(?:(?:where|by\s+whom|how\s+often)\s+(?:is|are|was|were|has|have)|is|was|has|have)\s+" + _WHAT
               + r"\s+(?:been\s+)?(?:cited|referenced)(?:\s+(?:anywhere|at\s+all|in\s+.+|by\s+.+))?" + _END, re.I),
    # "Knuth's TAOCP: which papers cite it?"
    re.compile(r"^\s*" + _WHAT + r"\s*[:,;\u2014\u2013-]+\s*(?:which|what|who)\s+(?:[\w-]+\s+)?(?:papers?\s+)?"
               + r"(?:cites?|references?)\s+(?:it|this|them)" + _END, re.I),
    # "Which papers have X in their references?", "bibliographies that mention X"
    re.compile(r"^\s*(?:which|what)\s+(?:papers?|articles?|works?)" + _SCOPE + r"\s+(?:have|list|include)\s+" + _WHAT
               + r"\s+in\s+(?:their|the)\s+(?:references|reference\s+lists?|bibliograph(?:y|ies))" + _END, re.I),
    re.compile(r"^\s*(?:which\s+|what\s+)?(?:bibliograph(?:y|ies)|reference\s+lists?)\s+(?:that\s+)?"
               r"(?:mention|list|include|name)s?\s+" + _WHAT + _END, re.I),
]


def citing_subject(question: str) -> str | None:
    """``X`` when ``question`` asks which papers cite X ("which papers cite Lamport's
    Paxos?", "who cites the Dynamo paper", "where is Raft cited?"), else None. The forms
    are what people ask of a paper archive; a question none of them reads is searched as
    evidence, as any other."""
    for pattern in _CITING:
        match = pattern.match(question or "")
        if match:
            what = match.group("what").strip(" .?!\"'“”")
            # "what references are there on Paxos": a question about the literature, no subject
            if what and not re.fullmatch(r"(?:it|this|that|them|these|those)", what, re.I) \
                    and not re.match(r"(?:are|is|was|were|do|does|there)\b", what, re.I):
                return what
    return None


def is_reference(locator: dict) -> bool:
    return bool(locator.get("references"))
