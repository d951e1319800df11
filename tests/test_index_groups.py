"""Parsed files are stored a group at a time: one catalog transaction and one Tantivy
commit per group, the group closed by time or by the text it holds (issue 30: before, every
16 files, which made a folder of many small Markdown files pay a commit per 16 files).
Whatever the grouping, the stores hold the same; a crash while a group is stored loses that
group in both stores and nothing before it, and the next run finishes the job."""

from __future__ import annotations

from pathlib import Path

import pytest
import tantivy

from athena_lab.document import Block, ParsedDocument, Section
from athena_lab.index.lexical import LexicalIndex
from athena_lab.ingest import pipeline
from athena_lab.ingest.discover import DiscoveredFile
from athena_lab.workspace import Workspace

pytestmark = pytest.mark.unit

FILES = 7


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "notes"
    root.mkdir()
    for n in range(FILES):
        sections = "\n".join(f"## Part {k} of note {n}\n\nNote {n} says thing {k} with parse_item_{n}_{k}() "
                             f"and a sentence long enough to stand as its own chunk of text, twice over. "
                             f"Note {n} says thing {k} again, in other words, to fill the section. " * 3 + "\n"
                             for k in range(3))
        (root / f"note{n}.md").write_text(f"# Note {n}\n\n{sections}", encoding="utf-8")
    return root


def _lexical_chunk_ids(ws: Workspace) -> set[str]:
    lexical = ws.store.lexical
    searcher = lexical._fresh_searcher()
    hits = searcher.search(tantivy.Query.all_query(), limit=10_000).hits
    return {searcher.doc(address)["chunk_id"][0] for _, address in hits}


def _catalog_chunk_ids(ws: Workspace) -> set[str]:
    return {c.chunk_id for c in ws.store.catalog.iter_chunks()}


def _contents(ws: Workspace) -> tuple:
    catalog = ws.store.catalog
    chunks = sorted((c.chunk_id, c.path, c.ordinal, c.heading, c.text) for c in catalog.iter_chunks())
    # BM25's statistics are the whole index's, whatever its segments: the same scores
    hits = ws.store.lexical.search("thing note 3 says", 100)
    idents = ws.store.lexical.search_identifiers(["parse_item_3_1"], 10)
    return (chunks, sorted(_lexical_chunk_ids(ws)), sorted((h.chunk_id, round(h.score, 5)) for h in hits),
            [h.chunk_id for h in idents])


def test_one_group_or_a_group_per_file_gives_the_same_stores(folder: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    commits: list[bool] = []
    real_commit = LexicalIndex.commit

    def counted(self: LexicalIndex, *, final: bool = True) -> None:
        commits.append(final)
        real_commit(self, final=final)

    monkeypatch.setattr(LexicalIndex, "commit", counted)
    one = Workspace(folder, tmp_path / "one")
    one.index(embed=False)
    one_group = commits.count(False)
    monkeypatch.setattr(pipeline, "_BATCH_CHARS", 1)  # every file closes its group
    commits.clear()
    each = Workspace(folder, tmp_path / "each")
    summary = each.index(embed=False)
    assert summary.new == FILES
    assert (one_group, commits.count(False)) == (1, FILES)
    assert _contents(one) == _contents(each)
    assert len(_lexical_chunk_ids(each)) == each.store.catalog.counts()["chunks"] >= 3 * FILES
    assert each.store.lexical._writer is None, "the run lets the Tantivy writer go"


def test_a_crash_while_a_group_is_stored_loses_that_group_only(folder: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline, "_BATCH_CHARS", 1)
    real_store = pipeline._store_item
    stored: list[str] = []

    def crash_on_the_third(store, item, old, summary, streaming) -> None:  # type: ignore[no-untyped-def]
        if len(stored) == 2:
            real_store(store, item, old, summary, streaming)  # written, then the crash: rolled back
            raise RuntimeError("crash while storing")
        real_store(store, item, old, summary, streaming)
        stored.append(item.file.path)

    monkeypatch.setattr(pipeline, "_store_item", crash_on_the_third)
    ws = Workspace(folder, tmp_path / "index")
    with pytest.raises(RuntimeError, match="crash while storing"):
        ws.index(embed=False)
    ws.close()
    monkeypatch.setattr(pipeline, "_store_item", real_store)
    after = Workspace(folder, tmp_path / "index")
    assert sorted(after.store.catalog.sources()) == sorted(stored)
    assert _lexical_chunk_ids(after) == _catalog_chunk_ids(after) != set()
    summary = after.index(embed=False)
    assert (summary.new, summary.unchanged) == (FILES - 2, 2)
    assert _lexical_chunk_ids(after) == _catalog_chunk_ids(after)
    assert len(after.store.catalog.sources()) == FILES


def _parsed(path: str, chars: int) -> pipeline._Parsed:
    doc = ParsedDocument(path=path, doc_kind="markdown", sections=[
        Section(heading_path=["T"], level=1, blocks=[Block(text="x" * chars, start_line=1, end_line=1,
                                                           kind="paragraph")])])
    return pipeline._Parsed(DiscoveredFile(path=path, abs_path=Path(path), doc_kind="markdown", size=chars,
                                           mtime_ns=0), "0" * 64, doc)


def test_a_group_closes_at_its_text_budget_or_its_time(monkeypatch: pytest.MonkeyPatch) -> None:
    items = [_parsed(f"f{n}.md", 400) for n in range(10)]
    sizes = [len(g) for g in pipeline._batches(iter(items), max_s=3600, max_chars=1000)]
    assert sizes == [3, 3, 3, 1]
    assert [len(g) for g in pipeline._batches(iter(items), max_s=3600, max_chars=10**9)] == [10]
    assert [len(g) for g in pipeline._batches(iter(items), max_s=0, max_chars=10**9)] == [1] * 10
    failed = pipeline._Parsed(items[0].file, "0" * 64, None, error="unreadable")
    assert pipeline._text_size(failed) == 0
