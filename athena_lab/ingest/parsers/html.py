"""HTML through the stdlib's ``html.parser``, whose ``getpos()`` gives source lines.

A block's lines run from its start tag to its last visible text (or end tag), so a
citation opens the HTML source where the text is. Rules, in order:

* dropped with everything inside: script, style, nav, header, footer, noscript, template,
  svg, head, and any element whose id or one of whose classes is in ``BOILERPLATE``
  (site chrome that plain HTML marks only by name: the httpd manual's page header,
  breadcrumbs, quick-reference box, language bars and footer; Sphinx's permalinks);
* h1–h6 open sections; <title> (else the first h1) is the document title;
* pre → one code block; table → one table block (a row per line, cells joined by
  " | "); ul/ol/dl → one list block; blockquote → one quote block;
* any other text becomes paragraphs, split at block-level tags.
"""

from __future__ import annotations

from html.parser import HTMLParser

from athena_lab.document import Block, ParsedDocument
from athena_lab.ingest.parsers._common import SectionBuilder, normalize_space

NAME = "html-stdlib"
VERSION = "1"

DROPPED_TAGS = frozenset({"script", "style", "nav", "header", "footer", "noscript",
                          "template", "svg"})
BOILERPLATE = frozenset({"page-header", "path", "breadcrumbs", "quickview", "toplang",
                         "bottomlang", "footer", "menu", "up", "top", "permalink",
                         "headerlink", "sidebar", "sphinxsidebar", "related", "toc"})
_CONTAINERS = {"pre": "code", "table": "table", "ul": "list", "ol": "list", "dl": "list",
               "blockquote": "quote"}
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_BREAKS = frozenset({"p", "div", "section", "article", "main", "aside", "body", "br", "hr",
                     "li", "dt", "dd", "tr", "form", "figure", "figcaption", "address",
                     "center", "fieldset", "details", "summary", "caption", "title"})
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                   "meta", "param", "source", "track", "wbr"})


def parse(text: str, path: str) -> ParsedDocument:
    reader = _Reader()
    reader.feed(text)
    reader.close()
    reader.finish()
    title = reader.title or reader.first_h1
    return ParsedDocument(path=path, doc_kind="html", sections=reader.builder.sections(title),
                          title=title, warnings=reader.warnings)


class _Capture:
    """Text being gathered for one block or heading, with where it started and ended."""

    def __init__(self, tag: str, kind: str, line: int) -> None:
        self.tag, self.kind = tag, kind
        self.start_line = self.end_line = line
        self.depth = 1  # nesting of ``tag`` inside itself
        self.lines: list[list[str]] = [[]]  # output lines, each a list of cells

    def text(self, data: str) -> None:
        self.lines[-1].append(data)

    def newline(self) -> None:
        if self.lines[-1]:
            self.lines.append([])

    def cell(self) -> None:
        self.lines[-1].append("\0")  # cell separator, resolved in render()

    def render(self) -> str:
        if self.kind == "code":
            return "".join("".join(parts) for parts in self.lines).strip("\n")
        rows = []
        for parts in self.lines:
            cells = [normalize_space(c) for c in "".join(parts).split("\0")]
            row = " | ".join(c for c in cells if c)
            if row:
                rows.append(row)
        return "\n".join(rows)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.builder = SectionBuilder()
        self.title: str | None = None
        self.first_h1: str | None = None
        self.warnings: list[str] = []
        self._skip: _Capture | None = None  # a dropped subtree being skipped
        self._block: _Capture | None = None  # a container, heading or <title>
        self._para: _Capture | None = None  # loose text between block-level tags

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        if self._skip:
            self._skip.depth += tag == self._skip.tag
        elif tag in DROPPED_TAGS or _is_boilerplate(attrs):
            if tag not in _VOID:
                self._flush_para()
                self._skip = _Capture(tag, "", line)
        elif self._block:
            self._inner_start(tag)
        elif tag in _CONTAINERS or tag in _HEADINGS or tag == "title":
            self._flush_para()
            self._block = _Capture(tag, _CONTAINERS.get(tag, tag), line)
        elif tag in _BREAKS:
            self._flush_para()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._block and tag == "br":
            self._block.newline()
        elif not self._skip and not self._block and tag in _BREAKS:
            self._flush_para()

    def handle_endtag(self, tag: str) -> None:
        line = self.getpos()[0]
        if self._skip:
            self._skip.depth -= tag == self._skip.tag
            if self._skip.depth == 0:
                self._skip = None
        elif self._block:
            if tag == self._block.tag:
                self._block.depth -= 1
                if self._block.depth == 0:
                    self._block.end_line = max(self._block.end_line, line)
                    self._finish_block()
            elif tag in ("tr", "li", "dt", "dd", "p", "div") and self._block.kind != "code":
                self._block.newline()
        elif tag in _BREAKS:
            self._flush_para()

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        line = self.getpos()[0]
        if self._block is None and data.strip() and self._para is None:
            self._para = _Capture("p", "paragraph", line + _leading_newlines(data))
        target = self._block or self._para
        if target is None:
            return
        target.text(data)
        if data.strip():
            target.end_line = line + data.rstrip().count("\n")

    def finish(self) -> None:
        """Close what malformed HTML left open, and say so instead of losing text quietly."""
        if self._skip:
            self.warnings.append(f"unclosed <{self._skip.tag}> from line "
                                 f"{self._skip.start_line}: the rest of the file was skipped")
        if self._block:
            self._finish_block()
        self._flush_para()

    def _inner_start(self, tag: str) -> None:
        block = self._block
        assert block is not None
        if tag == block.tag:
            block.depth += 1
        if block.kind == "code":
            return
        if tag in ("tr", "li", "dt", "dd", "p", "div"):
            block.newline()
            if tag in ("li", "dt", "dd") and block.kind == "list":
                block.text("- " if tag != "dd" else "  ")
        elif tag in ("td", "th") and block.lines[-1]:
            block.cell()

    def _finish_block(self) -> None:
        block, self._block = self._block, None
        assert block is not None
        text = block.render()
        if block.kind == "title":
            self.title = normalize_space(text) or None
        elif block.tag in _HEADINGS:
            name = normalize_space(text)
            if name:
                self.builder.heading(_HEADINGS[block.tag], name, block.start_line)
                if block.tag == "h1" and self.first_h1 is None:
                    self.first_h1 = name
        elif text.strip("- \n"):
            self.builder.add(Block(text=text, start_line=block.start_line,
                                   end_line=block.end_line, kind=block.kind))

    def _flush_para(self) -> None:
        para, self._para = self._para, None
        text = para.render() if para else ""
        if para and text:
            self.builder.add(Block(text=text, start_line=para.start_line,
                                   end_line=para.end_line, kind="paragraph"))


def _is_boilerplate(attrs: list[tuple[str, str | None]]) -> bool:
    for name, value in attrs:
        if name == "id" and value in BOILERPLATE:
            return True
        if name == "class" and value and not BOILERPLATE.isdisjoint(value.split()):
            return True
    return False


def _leading_newlines(data: str) -> int:
    return data[: len(data) - len(data.lstrip())].count("\n")
