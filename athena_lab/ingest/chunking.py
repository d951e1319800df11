"""Turn parsed sections into retrieval chunks with stable ids and exact locators.

Sections are the natural unit (a heading and what it says). Oversized sections are packed
block by block, never cutting a code block or table; tiny sections join their neighbour
so a lone heading or one-line intro does not become a useless hit. Chunk ids hash the
file, the heading path and the position under that heading — not line numbers — so an
edit elsewhere in the file leaves them, and their cached embeddings, in place.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from athena_lab.document import ATOMIC_BLOCK_KINDS, Block, citation_kind, ParsedDocument

CHUNKER_VERSION = "2"
MAX_CHARS = 1800
MIN_CHARS = 280
# A PDF page is dense prose with few headings: smaller chunks keep all of a chunk inside the
# embedder's 256-token window and a citation on one page (unseen PDF questions, dev split:
# page recall@5 0.55 -> 0.64). Documentation sections did worse split that fine (0.41 -> 0.36).
MAX_CHARS_BY_KIND = {"pdf": 1000}


@dataclass
class Chunk:
    chunk_id: str
    path: str
    doc_kind: str
    ordinal: int
    heading_path: list[str]
    text: str
    start_line: int
    end_line: int
    cell: int | None = None
    end_cell: int | None = None
    pages: list[int] = field(default_factory=list)
    regions: list[dict] = field(default_factory=list)
    confidence: float | None = None
    warnings: list[str] = field(default_factory=list)
    prev_id: str | None = None
    next_id: str | None = None

    @property
    def kind(self) -> str:
        return citation_kind(self.doc_kind)

    @property
    def heading(self) -> str:
        return " > ".join(self.heading_path)

    def embedding_text(self, title: str | None = None) -> str:
        return embedding_text(self.heading, self.text, title)

    def locator(self) -> dict:
        loc: dict = {"start_line": self.start_line, "end_line": self.end_line}
        if self.cell is not None:
            loc["cell"] = self.cell
            if self.end_cell is not None and self.end_cell != self.cell:
                loc["end_cell"] = self.end_cell
        if self.pages:
            loc["page"] = self.pages[0]
            loc["pages"] = self.pages
            loc["regions"] = self.regions
        return loc


@dataclass
class _Piece:
    heading_path: list[str]
    blocks: list[Block]
    label: str | None = None  # a merged-in section's own title, shown inside the text

    @property
    def size(self) -> int:
        return sum(len(b.text) + 2 for b in self.blocks) + len(self.label or "")


def embedding_text(heading: str, text: str, title: str | None = None) -> str:
    """What a vector sees: where the text sits (its heading path, else the file's title),
    then the text itself. Every embedder and every cache key goes through this."""
    head = heading or (title or "")
    return f"{head}\n\n{text}" if head else text


def chunk_document(doc: ParsedDocument, max_chars: int | None = None,
                   min_chars: int = MIN_CHARS) -> list[Chunk]:
    """Chunks of one document, in reading order, linked to their neighbours."""
    max_chars = max_chars or MAX_CHARS_BY_KIND.get(doc.doc_kind, MAX_CHARS)
    pieces: list[_Piece] = []
    for section in doc.sections:
        blocks = [b for b in section.blocks if b.text.strip()]
        if not blocks:
            continue
        for group in _pack(_split_long_blocks(blocks, max_chars), max_chars):
            pieces.append(_Piece(list(section.heading_path), group))
    pieces = _merge_tiny(pieces, max_chars, min_chars)
    chunks = [_make_chunk(doc, i, p) for i, p in enumerate(pieces)]
    _assign_ids(chunks)
    for before, after in zip(chunks, chunks[1:]):
        before.next_id, after.prev_id = after.chunk_id, before.chunk_id
    return chunks


def _split_long_blocks(blocks: list[Block], max_chars: int) -> list[Block]:
    """Cut a prose block that alone exceeds the limit at line boundaries; keep atomic ones."""
    out: list[Block] = []
    for block in blocks:
        if len(block.text) <= max_chars or block.kind in ATOMIC_BLOCK_KINDS:
            out.append(block)
            continue
        lines = block.text.split("\n")
        span = block.end_line - block.start_line + 1
        exact = span == len(lines)  # line i of the text is source line start+i
        buf: list[str] = []
        start, size = 0, 0
        for i, line in enumerate(lines):
            if buf and size + len(line) + 1 > max_chars:
                out.append(_sub_block(block, buf, start, i - 1, exact))
                start, buf, size = i, [], 0
            buf.append(line)
            size += len(line) + 1
        if buf:
            out.append(_sub_block(block, buf, start, len(lines) - 1, exact))
    return out


def _sub_block(block: Block, lines: list[str], first: int, last: int, exact: bool) -> Block:
    if exact:
        start, end = block.start_line + first, block.start_line + last
    else:
        start, end = block.start_line, block.end_line
    regions = block.regions[first:last + 1] if len(block.regions) > last else block.regions
    return Block("\n".join(lines), start, end, block.kind, block.cell, block.page,
                 list(regions), block.confidence, list(block.warnings))


def _pack(blocks: list[Block], max_chars: int) -> list[list[Block]]:
    groups: list[list[Block]] = [[]]
    size = 0
    for block in blocks:
        if groups[-1] and size + len(block.text) > max_chars:
            groups.append([])
            size = 0
        groups[-1].append(block)
        size += len(block.text) + 2
    return [g for g in groups if g]


def _merge_tiny(pieces: list[_Piece], max_chars: int, min_chars: int) -> list[_Piece]:
    """Fold a piece under ``min_chars`` into the next piece (or the previous one)."""
    out: list[_Piece] = []
    pending: _Piece | None = None
    for piece in pieces:
        if pending is not None:
            if pending.size + piece.size <= max_chars:
                piece = _join(pending, piece)
            else:
                out.append(pending)
            pending = None
        if piece.size < min_chars:
            pending = piece
        else:
            out.append(piece)
    if pending is not None:
        if out and out[-1].size + pending.size <= max_chars:
            out[-1] = _join(out[-1], pending)
        else:
            out.append(pending)
    return out


def _join(first: _Piece, second: _Piece) -> _Piece:
    if second.heading_path == first.heading_path:
        return _Piece(first.heading_path, first.blocks + second.blocks, first.label)
    # The merged section keeps its own title inside the text so it stays findable.
    title = second.heading_path[-1] if second.heading_path else None
    labelled = list(second.blocks)
    if title and labelled:
        b = labelled[0]
        labelled[0] = Block(f"{title}\n\n{b.text}", b.start_line, b.end_line, b.kind, b.cell,
                            b.page, b.regions, b.confidence, b.warnings)
    return _Piece(first.heading_path, first.blocks + labelled, first.label)


def _make_chunk(doc: ParsedDocument, ordinal: int, piece: _Piece) -> Chunk:
    blocks = piece.blocks
    text = "\n\n".join(b.text.strip("\n") for b in blocks)
    cells = [b.cell for b in blocks if b.cell is not None]
    pages = sorted({b.page for b in blocks if b.page is not None})
    regions = [dict(r.as_dict(), page=r.page) for b in blocks for r in b.regions]
    confidences = [b.confidence for b in blocks if b.confidence is not None]
    warnings = sorted({w for b in blocks for w in b.warnings})
    first_cell: int | None
    last_cell: int | None
    if cells:
        first_cell, last_cell = cells[0], cells[-1]
        start = min(b.start_line for b in blocks if b.cell == first_cell)
        end = max(b.end_line for b in blocks if b.cell == last_cell)
    else:
        first_cell = last_cell = None
        start = min(b.start_line for b in blocks)
        end = max(b.end_line for b in blocks)
    return Chunk(
        chunk_id="", path=doc.path, doc_kind=doc.doc_kind, ordinal=ordinal,
        heading_path=piece.heading_path, text=text, start_line=start, end_line=end,
        cell=first_cell, end_cell=last_cell, pages=pages, regions=regions,
        confidence=min(confidences) if confidences else None, warnings=warnings)


def _assign_ids(chunks: list[Chunk]) -> None:
    seen: dict[str, int] = {}
    for chunk in chunks:
        key = " > ".join(chunk.heading_path)
        n = seen.get(key, 0)
        seen[key] = n + 1
        digest = hashlib.sha1(f"{chunk.path}\0{key}\0{n}".encode()).hexdigest()
        chunk.chunk_id = digest[:16]


def text_hash(text: str) -> str:
    """The key of the embedding cache: same text, same vector."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]
