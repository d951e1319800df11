"""A chunk's text as a reader sees it: prose sentences, and the code or tables they introduce.

The extractive answer quotes sentences and the block a sentence introduces ("Use
``lifespan``:" followed by the example). Markup is cleaned from prose only; code and
tables stay verbatim. Lines that only pull in other files or configure the renderer
(FastAPI's ``{* ../../docs_src/… *}``, reST directives such as ``.. toctree::``) say
nothing to a reader and are dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from athena_lab.agent.citations import sentence_split

_FENCE = re.compile(r"^\s*(```|~~~)")
_INCLUDE = re.compile(r"^\s*(\{[*!].*[*!]\}|\{%.*%\}|\.\. \|.*\|)\s*$")
_DIRECTIVE = re.compile(r"^\s*\.\. ([\w:-]+)::")
# A directive's option (``:type: bool``), not prose that opens with a role (``:code:`x` and``).
_OPTION = re.compile(r"^\s+:[\w-]+:(?:\s|$)")
# API reference entries (``.. data:: SECRET_KEY``, ``.. confval:: numfig``): the body describes the name.
_ENTRY_DIRECTIVES = {"data", "attribute", "function", "method", "class", "exception", "confval", "option",
                     "envvar", "decorator", "module", "describe", "object", "directive", "role", "setting"}
_CODE_DIRECTIVES = {"code-block", "code", "sourcecode", "literalinclude", "doctest", "testcode"}
_PROSE_DIRECTIVES = {"note", "warning", "tip", "important", "hint", "caution", "attention", "seealso",
                     "versionadded", "versionchanged", "deprecated", "admonition", "danger", "error"}
# FastAPI's admonitions: ``/// tip | Technical Details`` opens one (its title is a heading,
# not a sentence), a bare ``///`` closes it; MkDocs' open with ``!!! note "Title"`` or
# ``??? api "API Documentation"`` (collapsible), their body indented under them.
_ADMONITION_FENCE = re.compile(r"^\s*///(\s|$)|^\s*(?:!!!|\?\?\?\+?)\s*[\w-]+")  # MkDocs: !!! note "Title"
_HEADING_RULE = re.compile(r"^\s*([=\-~^\"'`#*+_])\1{2,}\s*$")
_TABLE = re.compile(r"^\s*(\|.*\||\+[-=+]+\+)\s*$")
_BULLET = re.compile(r"^\s*(?:[-*+•◦▪‣●]|\d+[.)]|#\.)\s+")
_CODE_LINE = re.compile(r"^\s*(import |from \S+ import |def |class |async def |return\b|@\w|>>> |\$ |#!|print\()"
                        r"|[;{}]\s*$|^\s*[\w.\[\]\"']+\s*[+\-*/]?=\s*\S|^\s*\w[\w.]*\(.*\)\s*$")
_INLINE = [
    (re.compile(r":[\w:+-]+:`~?([^`<]*?)(?:\s*<[^>]*>)?`"), r"\1"),  # :role:`text <target>`
    (re.compile(r"`([^`<]+?)\s*<[^>]+>`_{1,2}"), r"\1"),           # `text <url>`_
    (re.compile(r"\[([^\]]+)\]\([^)]*\)"), r"\1"),                 # [text](url)
    (re.compile(r"``([^`]+)``"), r"\1"),
    (re.compile(r"`([^`]+)`_{0,2}"), r"\1"),
    (re.compile(r"(\*\*|__)(.+?)\1"), r"\2"),
    (re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![\w*])"), r"\1"),  # *emphasis*
    (re.compile(r"\s*\[\d[\d,;\s]*\]"), ""),                       # a document's own [1] refs
]


@dataclass
class Block:
    """A run of lines of one kind: ``prose``, ``code`` or ``table``; ``lang`` for code."""

    kind: str
    lines: list[str]
    lang: str = ""

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass
class Sentence:
    """A prose sentence, the block it introduces (if any) and its place in the chunk."""

    text: str
    position: int
    shows: Block | None = None
    paragraph: list[str] = field(default_factory=list)
    # The next sentence of the same list item, when it does not introduce a block: what
    # finishes this one's thought, if anything does (extractive.sequel).
    sequel: str | None = None
    # The sentence before it in the same list item or paragraph: what a short block
    # introducer ("Like this:") needs in front of it to say anything.
    before: str | None = None
    listed: bool = False  # a list item's text, which may well end without a full stop


def clean_markup(text: str) -> str:
    for pattern, repl in _INLINE:
        text = pattern.sub(repl, text)
    text = re.sub(r"::$", ":", re.sub(r"\s+::$", "", text.strip()))  # reST: "text. ::" shows "text."
    return re.sub(r"\s+", " ", text).strip()


def blocks(text: str) -> list[Block]:
    """The chunk's lines grouped into prose paragraphs, code blocks and tables, in order."""
    out: list[Block] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            i = _fenced(lines, i, out)
        elif _INCLUDE.match(line) or _ADMONITION_FENCE.match(line):
            i += 1
        elif _DIRECTIVE.match(line):
            i = _directive(lines, i, out)
        elif _TABLE.match(line):
            i = _run(lines, i, out, "table", lambda l: bool(_TABLE.match(l) or (l.strip() and "|" in l)))
        elif line.strip() and line.startswith(("    ", "\t")) and _after_colon(out):
            i = _run(lines, i, out, "code", lambda l: not l.strip() or l.startswith(("    ", "\t")))
        elif not line.strip():
            i += 1
        else:
            i = _paragraph(lines, i, out)
    return [b for b in out if any(l.strip() for l in b.lines)]


def _fenced(lines: list[str], i: int, out: list[Block]) -> int:
    fence = _FENCE.match(lines[i]).group(1)  # type: ignore[union-attr]
    lang = lines[i].strip()[3:].strip().split(" ")[0].strip("{}.")
    j = i + 1
    while j < len(lines) and not lines[j].strip().startswith(fence):
        j += 1
    body = [l for l in lines[i + 1:j] if not _INCLUDE.match(l)]
    out.append(Block("code", body, lang))
    return j + 1


def _directive(lines: list[str], i: int, out: list[Block]) -> int:
    name = _DIRECTIVE.match(lines[i]).group(1)  # type: ignore[union-attr]
    j = i + 1
    body: list[str] = []
    while j < len(lines) and (not lines[j].strip() or lines[j].startswith((" ", "\t"))):
        body.append(lines[j])
        j += 1
    content = [l for l in body if not _OPTION.match(l)]
    if name in _CODE_DIRECTIVES and name != "literalinclude":
        out.append(Block("code", _dedent(content), lines[i].split("::", 1)[1].strip()))
    elif name in _PROSE_DIRECTIVES or name.split(":")[-1] in _ENTRY_DIRECTIVES:
        inline = lines[i].split("::", 1)[1].strip()
        body_blocks = blocks("\n".join(_dedent(content)))
        if inline and name.split(":")[-1] in _ENTRY_DIRECTIVES and body_blocks and body_blocks[0].kind == "prose":
            body_blocks[0].lines[0] = f"{inline}: {body_blocks[0].lines[0].strip()}"  # the name leads its description
        elif inline and name != "admonition":  # an admonition's argument is its title, a heading
            body_blocks.insert(0, Block("prose", [inline]))
        out.extend(body_blocks)
    return j


def _dedent(lines: list[str]) -> list[str]:
    while lines and not lines[0].strip():
        lines = lines[1:]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    indent = min((len(l) - len(l.lstrip()) for l in lines if l.strip()), default=0)
    return [l[indent:] for l in lines]


def _after_colon(out: list[Block]) -> bool:
    return bool(out) and out[-1].kind == "prose" and out[-1].lines[-1].rstrip().endswith(":")


def _run(lines: list[str], i: int, out: list[Block], kind: str, keep) -> int:  # type: ignore[no-untyped-def]
    j = i
    while j < len(lines) and keep(lines[j]):
        j += 1
    out.append(Block(kind, _dedent(lines[i:j])))
    return j


def _paragraph(lines: list[str], i: int, out: list[Block]) -> int:
    j = i
    while j < len(lines) and lines[j].strip() and not _FENCE.match(lines[j]) and not _TABLE.match(lines[j]) \
            and not _DIRECTIVE.match(lines[j]) and not _ADMONITION_FENCE.match(lines[j]):
        j += 1
    para = [l for l in lines[i:j] if not _INCLUDE.match(l)]
    code = sum(bool(_CODE_LINE.search(l)) for l in para)
    out.append(Block("code" if para and code * 2 >= len(para) else "prose", para))
    return j


def sentences(text: str) -> list[Sentence]:
    """Readable prose sentences in order; a sentence right before a code block or table shows it."""
    found: list[Sentence] = []
    parts = blocks(text)
    for n, block in enumerate(parts):
        if block.kind != "prose":
            continue
        following = parts[n + 1] if n + 1 < len(parts) and parts[n + 1].kind != "prose" else None
        para_sentences: list[Sentence] = []
        for listed, item in _items(_without_headings(block.lines)):
            pieces = sentence_split(clean_markup(" ".join(item)))
            for at, piece in enumerate(pieces):
                sequel = pieces[at + 1] if at + 1 < len(pieces) else None
                before = pieces[at - 1] if at else None
                para_sentences.append(Sentence(piece, len(found) + len(para_sentences) + 1, sequel=sequel,
                                               before=before, listed=listed))
        for s in para_sentences:
            s.paragraph = [p.text for p in para_sentences]
        if para_sentences and following is not None:
            para_sentences[-1].shows = following
            if len(para_sentences) > 1 and para_sentences[-2].sequel == para_sentences[-1].text:
                para_sentences[-2].sequel = None  # "…as follows:" without the block it announces
        found.extend(para_sentences)
    return found


def _without_headings(lines: list[str]) -> list[str]:
    """Drop markdown `#` headings and reST titles (a line over or under a rule)."""
    rules = {i for i, l in enumerate(lines) if _HEADING_RULE.match(l)}
    titles = {i - 1 for i in rules} | {i + 1 for i in rules}
    return [l.strip() for i, l in enumerate(lines)
            if i not in rules and i not in titles and not re.match(r"\s*#{1,6}\s", l)]


def _items(lines: list[str]) -> list[tuple[bool, list[str]]]:
    """A paragraph split at bullet lines, so each list item reads as its own sentence(s);
    each with whether it is a list item."""
    items: list[tuple[bool, list[str]]] = []
    for line in lines:
        if _BULLET.match(line) or not items:
            items.append((bool(_BULLET.match(line)), [_BULLET.sub("", line)]))
        else:
            items[-1][1].append(line)
    return [(listed, i) for listed, i in items if " ".join(i).strip()]
