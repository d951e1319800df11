"""Whether a name (a call, an option, a setting, a file name) occurs anywhere in the folder.

A model's answer that names ``monkeypatch.undo_setattr`` or ``SWAGGER_UI_ENABLED`` reads as
fact; the folder is the judge of whether the documents say so. The exact-identifier field
of the Tantivy index answers most lookups in microseconds (it holds every snake_case,
CamelCase, dotted, --flag and CONSTANT token of every chunk, lower-cased). A name it does
not hold — a plain word in backticks (``htpasswd``), or one the tokenizer cut differently —
is looked for in the chunks' text, lower-cased and kept in memory per index (6.5 MB for the
7,050-chunk docs corpus; read once per process, again only after an index run changed it).
At load 40 on two cores a missing name then cost ~0.1-0.2 s, where a scan of the catalog
per name (SQLite ``instr(lower(text), …)``) cost ~1 s; the first read took 9 s at that load.
"""

from __future__ import annotations

import threading
from typing import Iterable

from athena_lab.index.store import IndexStore

_TEXTS: dict[str, tuple[tuple[int, float, int], str]] = {}  # catalog path → (its stamp, its text)
_LOCK = threading.Lock()


def names_found(store: IndexStore, names: Iterable[str]) -> set[str]:
    """The names (lower-cased) that occur in some indexed chunk, whole, case-insensitively."""
    wanted = sorted({n.lower() for n in names if n and n.strip()})
    if not wanted:
        return set()
    found = {n for n in wanted if store.lexical.identifier_count(n) > 0}
    rest = [n for n in wanted if n not in found]
    if rest:
        text = _all_text(store)
        found.update(n for n in rest if n in text)
    rest = [n for n in wanted if n not in found]
    if rest:  # a file or folder of the folder, named by (part of) its path: ``paper_pasa.pdf``,
        # ``multicol_pdfplumber_federal`` of ``multicol_pdfplumber_federal-register-2020.pdf``
        paths = "\n".join(str(p).lower() for p in store.catalog.sources())
        found.update(n for n in rest if n in paths)
    return found


def _all_text(store: IndexStore) -> str:
    catalog = store.catalog
    key, stamp = str(catalog.path), catalog.sources_stamp()
    with _LOCK:
        kept = _TEXTS.get(key)
        if kept is not None and kept[0] == stamp:
            return kept[1]
    text = "\n".join(row[2] for row in catalog.chunk_texts()).lower()
    with _LOCK:
        _TEXTS[key] = (stamp, text)
    return text
