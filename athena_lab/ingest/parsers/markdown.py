"""Markdown and MDX, parsed by markdown-it-py whose token line maps give exact locations.

Block text is the source lines themselves (after the line-preserving MDX/admonition
rewrites below), so a citation's lines always contain exactly what was indexed.
"""

from __future__ import annotations

import re
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.front_matter import front_matter_plugin

from athena_lab.document import Block, ParsedDocument
from athena_lab.ingest.parsers._common import SectionBuilder, line_block, strip_tags

NAME = "markdown-it"
VERSION = "1"

#: Block structure only: inline parsing is half the cost and only headings need it.
_MD = MarkdownIt("commonmark").enable("table").use(front_matter_plugin).disable("inline")
_INLINE = MarkdownIt("commonmark")

_BLOCK_KINDS = {
    "paragraph_open": "paragraph",
    "fence": "code",
    "code_block": "code",
    "table_open": "table",
    "bullet_list_open": "list",
    "ordered_list_open": "list",
    "blockquote_open": "quote",
}
_HEADING_ID_RE = re.compile(r"\s*\{\s*#[^}]*\}\s*$")  # "## Title { #anchor }" (attr_list)
_MDX_STATEMENT_RE = re.compile(r"^(import|export)\s")
_JSX_LINE_RE = re.compile(r"^\s*</?[A-Z][\w.]*(\s[^<>]*)?/?>\s*$")
_INLINE_JSX_RE = re.compile(r"</?[A-Z][\w.]*(\s[^<>]*)?/?>")
_ADMONITION_RE = re.compile(r"^(\s*)(!!!|\?\?\?\+?)\s")
_FRONT_VALUE_RE = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s*(.*)$")


def parse(text: str, path: str) -> ParsedDocument:
    builder = SectionBuilder()
    found = add_markdown(builder, text, mdx=path.lower().endswith(".mdx"))
    metadata = found["metadata"]
    title = metadata.get("title") if isinstance(metadata.get("title"), str) else None
    title = title or found["h1"]
    return ParsedDocument(path=path, doc_kind="markdown", sections=builder.sections(title),
                          title=title, metadata=metadata)


def add_markdown(builder: SectionBuilder, text: str, *, mdx: bool = False,
                 cell: int | None = None) -> dict[str, Any]:
    """Feed one markdown source into ``builder``; returns its front matter and first h1.

    Notebooks call this once per markdown cell so headings carry across cells.
    """
    lines = text.splitlines()
    if mdx:
        lines = _rewrite_mdx(lines)
    lines = _dedent_admonitions(lines)
    tokens = _MD.parse("\n".join(lines))
    found: dict[str, Any] = {"metadata": {}, "h1": None}
    for i, token in enumerate(tokens):
        if token.level != 0 or token.map is None:
            continue
        start, end = token.map
        if token.type == "front_matter":
            found["metadata"] = parse_front_matter(token.content)
        elif token.type == "heading_open":
            level = int(token.tag[1])
            title = _heading_title(tokens[i + 1])
            builder.heading(level, title, start + 1)
            if level == 1 and found["h1"] is None:
                found["h1"] = title
        elif token.type == "html_block":
            block = _html_block(lines, start, end, cell)
            if block:
                builder.add(block)
        elif token.type in _BLOCK_KINDS:
            block = line_block(lines, start, end, _BLOCK_KINDS[token.type], cell)
            if block:
                builder.add(block)
    return found


def parse_front_matter(content: str) -> dict[str, Any]:
    """Top-level ``key: value`` pairs and ``- item`` lists; nested YAML stays a raw string.

    A YAML library is not a dependency; front matter in docs is nearly always flat.
    """
    data: dict[str, Any] = {}
    key: str | None = None
    for raw in content.splitlines():
        match = _FRONT_VALUE_RE.match(raw)
        if match:
            key, value = match.group(1), match.group(2).strip()
            data[key] = _front_scalar(value) if value else []
        elif key is not None and raw.strip().startswith("- ") and isinstance(data[key], list):
            data[key].append(_front_scalar(raw.strip()[2:].strip()))
        elif key is not None and raw.strip():
            previous = data[key] if isinstance(data[key], str) else ""
            data[key] = (previous + "\n" + raw.strip()).strip()
    return data


def _front_scalar(value: str) -> Any:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    if value.startswith("[") and value.endswith("]"):
        return [_front_scalar(v.strip()) for v in value[1:-1].split(",") if v.strip()]
    return value


#: Characters where commonmark's inline rules can start (markdown-it's terminator
#: characters), and the two its normalize step rewrites. A heading with none of them is
#: one plain text token: its own text, with no inline parse (most headings of prose).
_INLINE_MARKUP = frozenset("\n!#$%&*+-:<=>@[\\]^_`{}~\r\x00")


def _heading_title(inline: Token) -> str:
    """Heading text without inline markup and without an attr_list ``{ #anchor }``."""
    content = inline.content
    if _INLINE_MARKUP.isdisjoint(content):
        return content.strip()  # what the inline parse returns for it (tests/test_index_fast_paths.py)
    return _heading_title_parsed(content)


def _heading_title_parsed(content: str) -> str:
    children = _INLINE.parseInline(content)[0].children or []
    parts = [child.content for child in children if child.type in ("text", "code_inline")]
    return _HEADING_ID_RE.sub("", "".join(parts)).strip() or content.strip()


def _html_block(lines: list[str], start: int, end: int, cell: int | None) -> Block | None:
    block = line_block(lines, start, end, "paragraph", cell)
    if block is None:
        return None
    block.text = strip_tags(block.text)
    return block if block.text else None


def _rewrite_mdx(lines: list[str]) -> list[str]:
    """Blank out import/export statements and JSX tag lines, dedent text inside components,
    and drop inline component tags (``<Badge>new</Badge>`` keeps ``new``).

    Blanking keeps the line count, so markdown-it's line maps still point at the source;
    dedenting stops indented component children from turning into indented code.
    """
    out: list[str] = []
    depth = 0
    indent: int | None = None
    in_statement = False
    for line in lines:
        if depth == 0 and (_MDX_STATEMENT_RE.match(line) or in_statement):
            in_statement = _continues_statement(line)
            out.append("")
        elif _JSX_LINE_RE.match(line):
            stripped = line.strip()
            if stripped.startswith("</"):
                depth = max(depth - 1, 0)
            elif not stripped.endswith("/>"):
                depth += 1
            indent = None
            out.append("")
        elif depth and line.strip():
            if indent is None:
                indent = len(line) - len(line.lstrip(" "))
            leading = len(line) - len(line.lstrip(" "))
            out.append(_INLINE_JSX_RE.sub("", line[min(indent, leading):]))
        else:
            out.append(_INLINE_JSX_RE.sub("", line))
    return out


def _continues_statement(line: str) -> bool:
    """True while a multi-line import/export (``import {\\n a,\\n} from 'x'``) is open."""
    stripped = line.strip()
    return stripped.endswith(("{", ",")) or (stripped.count("{") > stripped.count("}"))


def _dedent_admonitions(lines: list[str]) -> list[str]:
    """Dedent the 4-space body of ``!!! note`` admonitions so it parses as text, not code."""
    out = list(lines)
    body_indent: int | None = None
    for i, line in enumerate(lines):
        match = _ADMONITION_RE.match(line)
        if match:
            body_indent = len(match.group(1)) + 4
            continue
        if body_indent is None or not line.strip():
            continue
        leading = len(line) - len(line.lstrip(" "))
        if leading >= body_indent:
            out[i] = line[4:]
        else:
            body_indent = None
    return out
