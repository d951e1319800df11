"""How a citation is labelled, the same in every front end: ``guide.md:40–58``, ``paper.pdf p. 3``, ``nb.ipynb cell 4``.

The CLI, the magic, the widget, the HTTP API and the sidebar used to label the same
notebook cell differently ("cell 12" in one, "cell 13" in another). Here is the one label
(1-based cells, ``p. 3``, en dashes); the citation JSON also carries it (``labelled``), so
the JavaScript front ends show the same text without re-deriving it. See docs/contract.md.
"""

from __future__ import annotations

from typing import Any, Mapping

DASH = "\u2013"


def cell_number(cell: int) -> int:
    """nbformat counts cells from 0; people count them from 1, like lines and pages."""
    return int(cell) + 1


def narrowest(c: Mapping[str, Any]) -> Mapping[str, Any]:
    """The citation as its ``evidence`` entries narrow it: their lines, cell or pages.

    A chunk is what search found; the evidence is where the quoted sentences are. The
    label names the latter, so "p. 3" is the page the quote is printed on.
    """
    evidence = [e for e in (c.get("evidence") or []) if isinstance(e, Mapping)]
    if not evidence:
        return c
    if c.get("kind") == "pdf":
        pages = sorted({int(r.get("page", e.get("page"))) for e in evidence
                        for r in (e.get("regions") or [e]) if r.get("page", e.get("page")) is not None})
        return {"kind": "pdf", "path": c.get("path"), "page": pages[0] if pages else c.get("page"), "pages": pages}
    if c.get("kind") == "notebook":
        cells = sorted({int(e["cell"]) for e in evidence if e.get("cell") is not None})
        if len(cells) != 1:
            return {"kind": "notebook", "path": c.get("path"), "cell": cells[0], "end_cell": cells[-1]} if cells else c
        return {"kind": "notebook", "path": c.get("path"), "cell": cells[0],
                "cell_lines": (min(int(e["start_line"]) for e in evidence), max(int(e["end_line"]) for e in evidence))}
    return {"kind": c.get("kind"), "path": c.get("path"),
            "start_line": min(int(e["start_line"]) for e in evidence),
            "end_line": max(int(e["end_line"]) for e in evidence)}


def citation_location(c: Mapping[str, Any]) -> str:
    """``guide.md:40–58``, ``paper.pdf p. 3`` (``pp. 3–4``), ``nb.ipynb cell 4`` (``cells 4–6``,
    ``cell 4:2–5`` for lines of one cell), narrowed to the citation's ``evidence`` when it has any."""
    record = c.get("record") or {}
    c = narrowest(c)
    path = str(c.get("path") or "?")
    kind = c.get("kind")
    if record.get("source") in ("zotero", "bibtex") and record.get("label"):
        # A Zotero attachment (or a file a .bib entry links) is cited as its item ("Fischer et
        # al., 1985, p. 4"): its file name in storage/ (storage/ILY4REGN/Fischer et al. - 1985 -
        # Imposs….pdf) says less.
        path = f"{record['label']},"
    if kind == "pdf":
        pages = [p for p in (c.get("pages") or []) if p is not None]
        first, last = (min(pages), max(pages)) if pages else (c.get("page"), c.get("page"))
        where = f"{path} pp. {first}{DASH}{last}" if first is not None and last is not None and last != first \
            else f"{path} p. {first if first is not None else '?'}"
        return f"{where}, reference list" if c.get("references") else where
    if kind == "notebook" and c.get("cell") is not None:
        first = cell_number(c["cell"])
        end = c.get("end_cell")
        if end is not None and int(end) != int(c["cell"]):
            return f"{path} cells {first}{DASH}{cell_number(end)}"
        if c.get("cell_lines"):
            start, end = c["cell_lines"]
            return f"{path} cell {first}:{start}" + (f"{DASH}{end}" if end != start else "")
        return f"{path} cell {first}"
    start, end = c.get("start_line"), c.get("end_line")
    if start is None:
        return path.rstrip(",")
    if path.endswith(","):  # a Zotero item's snapshot: "Chang et al., 2008, lines 40–58"
        return f"{path} line{'s' if end is not None and end != start else ''} {start}" + (
            f"{DASH}{end}" if end is not None and end != start else "")
    return f"{path}:{start}{DASH}{end}" if end is not None and end != start else f"{path}:{start}"


def citation_label(c: Mapping[str, Any]) -> str:
    """What a source list shows: the location, then the heading path when there is one."""
    location = citation_location(c)
    heading = c.get("heading_path")
    return f"{location} \u00b7 {heading}" if heading else location


def labelled(c: dict[str, Any]) -> dict[str, Any]:
    """The citation JSON with its ``label``, so no front end re-derives it."""
    c["label"] = citation_location(c)
    return c


def distinct_labels(citations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Labels a reader can tell apart: two passages quoted from one page, cell or line range
    (with one heading) would read the same twice in a source list. Each such label gets
    what differs: the passage's own lines, pages or cells when those differ, else its
    place among them ("passage 2 of 3", in citation order). Idempotent: labels are
    derived from the locators, never from an earlier label."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for c in citations:
        groups.setdefault(citation_label(c), []).append(c)
    for same in groups.values():
        if len(same) < 2:
            continue
        spans = [_span(c) for c in same]
        distinct = all(spans) and len(set(spans)) == len(spans)
        for n, c in enumerate(same, 1):
            extra = f"passage in {spans[n - 1]}" if distinct else f"passage {n} of {len(same)}"
            c["label"] = f"{citation_location(c)} ({extra})"
    return citations


def _span(c: Mapping[str, Any]) -> str:
    """The whole passage's lines, pages or cells (not narrowed to its quote), or ''."""
    if c.get("kind") == "pdf":
        pages = sorted({int(p) for p in (c.get("pages") or []) if p is not None})
        return f"pp. {pages[0]}{DASH}{pages[-1]}" if len(pages) > 1 else ""
    if c.get("kind") == "notebook":
        if c.get("cell") is None:
            return ""
        end = c.get("end_cell")
        return (f"cells {cell_number(c['cell'])}{DASH}{cell_number(end)}" if end is not None and end != c["cell"]
                else f"cell {cell_number(c['cell'])}")
    start, end = c.get("start_line"), c.get("end_line")
    if start is None:
        return ""
    return f"lines {start}{DASH}{end}" if end is not None and end != start else f"line {start}"
