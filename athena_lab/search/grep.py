"""Exact matching for what BM25 tokenises away: identifiers, flags, quoted error strings.

Identifiers are matched against an exact-term field in Tantivy (fast at any size);
quoted phrases and error messages are substring scans over the catalog, which is what a
user pasting a traceback line expects.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

import re2

try:  # Python 3.11+
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse as _sre_parse  # type: ignore[no-redef]

from athena_lab.contract import GrepMatch
from athena_lab.index.catalog import Catalog
from athena_lab.index.lexical import identifiers
from athena_lab.document import citation_kind

_BACKTICKED = re.compile(r"`([^`\n]{2,80})`")
# Double quotes anywhere; single quotes only as quotes, never the apostrophe of "don't".
_QUOTED = re.compile(r"[\"“”]([^\"“”\n]{4,200})[\"“”]|(?<![\w])'([^'\n]{4,200})'(?![\w])")
_ERROR_LINE = re.compile(r"\b\w*(?:Error|Exception|Warning)\b:\s*[^\n]{0,160}")  # a pasted "KeyError: 'x'" line


_ACRONYM = re.compile(r"\b[A-Z][A-Za-z]{1,3}\b")


def query_identifiers(query: str) -> list[str]:
    """Identifier-like tokens of a query: backticked words plus snake/Camel/--flag shapes.

    Short all-caps words (DNA, HTTP, API) are acronyms, not identifiers: they occur in too
    many chunks for an exact-match list to rank anything, so BM25 handles them.
    """
    acronyms = set()
    for m in _ACRONYM.finditer(query):
        word = m.group(0)
        if sum(ch.isupper() for ch in word) >= 2:  # DNS, URLs, IoT: not MyIdentifierName
            acronyms.update({word.lower(), word[:-1].lower() if word.endswith("s") else word.lower()})
    found = set(identifiers(query)) - acronyms
    for m in _BACKTICKED.finditer(query):
        found.update(identifiers(m.group(1)) or [m.group(1).strip().lower()])
    return sorted(found)


def quoted_phrases(query: str) -> list[str]:
    """Text the user wants matched verbatim: quoted strings and pasted error lines."""
    phrases = [(m.group(1) or m.group(2)).strip() for m in _QUOTED.finditer(query)]
    phrases += [m.group(0).strip() for m in _ERROR_LINE.finditer(query) if len(m.group(0)) > 12]
    return [p for p in dict.fromkeys(phrases) if p]


def grep_phrases(catalog: Catalog, phrases: list[str], limit: int,
                 kinds: list[str] | None = None, prefix: str | None = None) -> list[str]:
    """Chunk ids whose text contains any phrase (case-insensitive), most matches first."""
    counts: dict[str, int] = {}
    for cid in _scan(catalog, phrases, limit * 4, prefix):
        counts[cid] = counts.get(cid, 0) + 1
    ids = sorted(counts, key=lambda cid: counts[cid], reverse=True)
    if kinds:
        rows = catalog.chunks_by_id(ids)
        ids = [i for i in ids if i in rows and (rows[i].doc_kind in kinds
                                                 or citation_kind(rows[i].doc_kind) in kinds)]
    return ids[:limit]


def _scan(catalog: Catalog, phrases: list[str], limit: int, prefix: str | None) -> Iterator[str]:
    for phrase in phrases:
        yield from catalog.chunk_ids_containing(phrase.lower(), prefix, limit)


def grep_chunks(catalog: Catalog, pattern: str, *, regex: bool = False, case_sensitive: bool = False,
                limit: int = 20, prefix: str | None = None) -> list[GrepMatch]:
    """Line-level matches of a string or regex in indexed text (the grepDocs tool).

    ``^`` and ``$`` match at line ends, as in grep: the chunk-level prefilter runs in
    multi-line mode so it never hides a line that would match on its own.
    """
    line_pattern = compile_pattern(pattern, regex=regex, case_sensitive=case_sensitive)
    chunk_pattern = compile_pattern(pattern, regex=regex, case_sensitive=case_sensitive, multiline=True)
    out: list[GrepMatch] = []
    for cid, path, text, start, cell, doc_kind, page in catalog.chunk_texts(prefix):
        if not chunk_pattern.search(text):
            continue
        for offset, line in enumerate(text.split("\n")):
            if line_pattern.search(line):
                out.append({"chunk_id": cid, "path": path, "doc_kind": doc_kind,
                            "line": start + offset if doc_kind != "pdf" else None,
                            "cell": cell, "page": page, "text": line.strip()[:300]})
                if len(out) >= limit:
                    return out
    return out


class PatternError(ValueError):
    """A grep pattern that cannot be run: invalid, or a feature the linear-time engine lacks."""


def compile_pattern(pattern: str, *, regex: bool, case_sensitive: bool, multiline: bool = False) -> Any:
    """``pattern`` compiled by RE2, whose matching time is linear in the text.

    The pattern comes from a model (grepDocs) or an MCP client: with a backtracking engine
    (Python's ``re``), ``(a+)+$`` against 25 a's takes seconds and doubles with each
    character, stalling the server or kernel. RE2 has no backtracking, so it also lacks
    backreferences and lookaround; those get an error naming the feature.
    """
    options = re2.Options()
    options.log_errors = False
    options.case_sensitive = case_sensitive
    options.literal = not regex
    try:
        return re2.compile(("(?m)" + pattern) if regex and multiline else pattern, options)
    except re2.error as exc:
        raise PatternError(_explain(pattern, exc)) from None


# Python's parser names what RE2 refused; parsing is not matching, so this is cheap and safe.
_FEATURES = {
    "GROUPREF": "backreferences (\\1, (?P=name))", "GROUPREF_EXISTS": "conditional groups (?(1)…)",
    "ASSERT": "lookaround ((?=…), (?<=…))", "ASSERT_NOT": "negative lookaround ((?!…), (?<!…))",
    "ATOMIC_GROUP": "atomic groups (?>…)", "POSSESSIVE_REPEAT": "possessive quantifiers (a++, a*+)",
}


def _explain(pattern: str, exc: Exception) -> str:
    reason = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
    try:
        parsed = _sre_parse.parse(pattern)
    except (re.error, RecursionError, OverflowError) as bad:
        return f"invalid regular expression {pattern!r}: {bad}"
    feature = next((_FEATURES[op] for op in _opcodes(parsed) if op in _FEATURES), None)
    if feature:
        return (f"regular expression {pattern!r} uses {feature}, which the linear-time engine (RE2) "
                "does not support; rewrite it without them, or search for a plain string")
    return f"regular expression {pattern!r} is not supported by the linear-time engine (RE2): {reason}"


def _opcodes(node: Any) -> Iterator[str]:
    """Every opcode name in a parsed pattern tree (nested tuples, lists and SubPatterns)."""
    if isinstance(node, _sre_parse.SubPattern):
        node = list(node)
    if isinstance(node, (list, tuple)):
        if len(node) == 2 and not isinstance(node[0], (list, tuple, _sre_parse.SubPattern)) \
                and type(node[0]).__name__ == "_NamedIntConstant":
            yield str(node[0])
        for item in node:
            yield from _opcodes(item)
