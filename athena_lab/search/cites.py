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

_CITING = re.compile(
    r"^\s*(?:which|what|who|list(?: the)?|find(?: the)?|show(?: me)?(?: the)?|are there(?: any)?)?\s*"
    r"(?:papers?|articles?|works?|documents?|sources?|authors?)?\s*(?:that|which|who)?\s*"
    r"(?:cites?|citing|cited|refer(?:s|ring)? to|references?(?:\s+to)?)\s+(?:the\s+)?(?:paper\s+|work\s+)?(?P<what>.+?)\s*\??\s*$",
    re.I)


def citing_subject(question: str) -> str | None:
    """``X`` when ``question`` asks which papers cite X ("which papers cite Lamport's
    Paxos?", "who cites the Dynamo paper"), else None."""
    match = _CITING.match(question or "")
    if not match:
        return None
    what = match.group("what").strip(" .?!\"'“”")
    return what or None


def is_reference(locator: dict) -> bool:
    return bool(locator.get("references"))
