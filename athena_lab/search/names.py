"""Whether a name (a call, an option, a setting, a file name) occurs anywhere in the folder.

A model's answer that names ``monkeypatch.undo_setattr`` or ``SWAGGER_UI_ENABLED`` reads as
fact; the folder is the judge of whether the documents say so. The exact-identifier field
of the Tantivy index answers most lookups in microseconds (it holds every snake_case,
CamelCase, dotted, --flag and CONSTANT token of every chunk, lower-cased); a name it does
not hold — a plain word in backticks (``htpasswd``), or one the tokenizer cut differently
— is looked for as a substring of the chunks' text in the catalog, which is exact and
takes one scan per name (~0.1 s on the 7,050-chunk docs corpus): only names that are
probably missing pay it.
"""

from __future__ import annotations

from typing import Iterable

from athena_lab.index.store import IndexStore


def names_found(store: IndexStore, names: Iterable[str]) -> set[str]:
    """The names (lower-cased) that occur in some indexed chunk, whole, case-insensitively."""
    wanted = sorted({n.lower() for n in names if n and n.strip()})
    if not wanted:
        return set()
    found = {n for n in wanted if store.lexical.identifier_count(n) > 0}
    for name in wanted:
        if name not in found and next(store.catalog.chunk_ids_containing(name, None, 1), None) is not None:
            found.add(name)
    return found
