"""The Tantivy BM25 index: one document per chunk, headings and paths boosted.

User text never reaches Tantivy's query language: queries are reduced to word tokens, so
``foo(``, ``AND``, ``"x`` or ``a:b:c`` are ordinary searches, never syntax errors.
Identifier-like tokens (``snake_case``, ``CamelCase``, ``--flags``, ``dotted.names``) get a
field of their own, matched exactly, which is what makes API-name queries precise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import tantivy

from athena_lab.language import content_words
from athena_lab.settings import SearchSettings  # the tuned defaults (docs/benchmarks.md)

ANALYZER = "athena_en"
REFERENCE_PART = "reference"
LEXICAL_VERSION = "4"
_WORD = re.compile(r"\w+", re.UNICODE)
_IDENT = re.compile(
    r"(?<![\w-])--?[A-Za-z][\w-]+"  # --flags, -x (not the "-time" of "real-time")
    r"|[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+(?:\(\))?"  # dotted.names, module.func()
    r"|[A-Za-z]*_[\w]+|[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*"  # snake_case, camelCase, CamelCase
    r"|[A-Z]{2,}[a-z]\w*"  # HTTPException, XMLParser
    r"|[A-Z]{2,}[A-Z0-9_]*"  # CONSTANTS, HTTP codes names
)


#: A mark one of ``_IDENT``'s alternatives needs, or a little more: ``-x`` (flags), ``.x``
#: (dotted names), ``_x`` (snake_case), or a capital after a word character (camelCase,
#: CamelCase, HTTPException, CONSTANTS). It starts with one character class, so the regex
#: engine skips in C to the few characters that can start one.
_MARK = re.compile(r"[-._A-Z](?:(?<=[-._])\w|(?<=\w[A-Z]))")
_RUN_CHAR = re.compile(r"[\w.()-]")  # what a match of ``_IDENT`` is made of
_RUN_REST = re.compile(r"[\w.()-]*")


def _candidate_runs(text: str) -> list[str]:
    """The runs of ``_RUN_CHAR`` that hold a ``_MARK``: the only ones ``_IDENT`` can match in.
    Nearly every word of prose has none; ``_IDENT``, which tries its alternatives at every
    character of every word, was 22 % of a Markdown build's parse time (issue 30)."""
    runs: list[str] = []
    end = 0
    for mark in _MARK.finditer(text):
        at = mark.start()
        if at < end:
            continue  # in the run taken already
        start = at
        while start > end and _RUN_CHAR.match(text, start - 1):
            start -= 1
        rest = _RUN_REST.match(text, at)  # never None: the class may match nothing
        end = rest.end() if rest is not None else at
        runs.append(text[start:end])
    return runs


def identifiers(text: str) -> list[str]:
    """Identifier-like tokens, lowercased, for the exact-match field and for grep.

    The same tokens as ``_IDENT`` over the whole text (tests/test_index_fast_paths.py): a
    match holds only run characters and one of ``_MARK``'s marks, and the character before
    a run is neither a word character nor ``-`` (what ``_IDENT``'s look-behind asks), so
    ``_IDENT`` over the candidate runs joined by spaces finds exactly the same matches."""
    found = set()
    for m in _IDENT.finditer(" ".join(_candidate_runs(text))):
        token = m.group(0).rstrip("()").lower()
        found.add(token)
        if "." in token and not token.startswith("-"):
            # app.register_blueprint is also register_blueprint: a user names the method alone.
            found.update(part for part in token.split(".")[1:] if "_" in part or len(part) > 3)
    return sorted(t for t in found if 2 < len(t) <= 80)


def query_words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


@dataclass
class LexicalHit:
    chunk_id: str
    score: float


def _analyzer() -> tantivy.TextAnalyzer:
    return (tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
            .filter(tantivy.Filter.remove_long(40))
            .filter(tantivy.Filter.lowercase())
            .filter(tantivy.Filter.stopword("english"))
            .filter(tantivy.Filter.stemmer("english"))
            .build())


def _schema() -> tantivy.Schema:
    b = tantivy.SchemaBuilder()
    b.add_text_field("chunk_id", stored=True, tokenizer_name="raw")
    b.add_text_field("path_raw", tokenizer_name="raw")
    b.add_text_field("dirs", tokenizer_name="raw")
    b.add_text_field("kind", tokenizer_name="raw")
    b.add_text_field("ckind", tokenizer_name="raw")
    b.add_text_field("ident", tokenizer_name="raw")
    b.add_text_field("part", tokenizer_name="raw")  # "reference": a passage of a paper's reference list
    b.add_text_field("title", tokenizer_name=ANALYZER)
    b.add_text_field("heading", tokenizer_name=ANALYZER)
    b.add_text_field("path", tokenizer_name="default")
    b.add_text_field("body", tokenizer_name=ANALYZER)
    return b.build()


def directory_prefixes(path: str) -> list[str]:
    """``a/b/c.md`` → ``["a/", "a/b/"]``: lets a path-prefix filter be one term query."""
    parts = path.split("/")[:-1]
    return ["/".join(parts[:i]) + "/" for i in range(1, len(parts) + 1)]


class LexicalIndex:
    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.directory = directory
        self.schema = _schema()
        reuse = tantivy.Index.exists(str(directory))
        self.index = tantivy.Index(self.schema, path=str(directory), reuse=reuse)
        self.index.register_tokenizer(ANALYZER, _analyzer())
        self._writer: tantivy.IndexWriter | None = None
        self._seen_commit: tuple[int, int] | None = None

    # writing ----------------------------------------------------------------
    def writer(self) -> tantivy.IndexWriter:
        if self._writer is None:
            self._writer = self.index.writer(heap_size=64_000_000, num_threads=1)
        return self._writer

    def delete_path(self, path: str) -> None:
        self.writer().delete_documents_by_term("path_raw", path)

    def add_chunk(self, *, chunk_id: str, path: str, doc_kind: str, cite_kind: str,
                  title: str, heading: str, text: str, reference: bool = False) -> None:
        """``reference``: the chunk is a passage of a paper's reference list, which a who-cites
        search looks in alone inside the query (``_run``), so BM25 ranks the reference lists
        among themselves."""
        fields = {
            "chunk_id": chunk_id, "path_raw": path, "dirs": directory_prefixes(path),
            "kind": doc_kind, "ckind": cite_kind, "ident": identifiers(f"{heading}\n{text}"),
            "title": title, "heading": heading, "path": path.replace("/", " "), "body": text,
        }
        if reference:
            fields["part"] = REFERENCE_PART
        doc = tantivy.Document.from_dict(fields, self.schema)
        self.writer().add_document(doc)

    def commit(self, *, final: bool = True) -> None:
        """Make what was added and deleted searchable. ``final=False`` keeps the writer for
        more (an index run between its groups of files): its merges go on in the
        background instead of being waited for, and no new writer is built for the next
        group. A final commit waits for the merges and lets the writer go."""
        if self._writer is not None:
            self._writer.commit()
            if final:
                self._writer.wait_merging_threads()
                self._writer = None
        self.index.reload()

    def rollback(self) -> None:
        if self._writer is not None:
            self._writer.rollback()
            self._writer = None

    # reading ----------------------------------------------------------------
    def _fresh_searcher(self) -> tantivy.Searcher:
        """A searcher that sees the last commit, whoever made it (an index run in another
        thread or process, the live index). Tantivy rewrites meta.json on every commit; one
        stat says whether to reload. (Reloading at most every 0.5 s, as before, let a search
        right after "reindex done" miss what the run had just written.)"""
        try:
            meta = (self.directory / "meta.json").stat()
            commit: tuple[int, int] | None = (meta.st_mtime_ns, meta.st_size)
        except OSError:
            commit = None
        if commit is None or commit != self._seen_commit:
            self.index.reload()
            self._seen_commit = commit
        return self.index.searcher()

    def num_docs(self) -> int:
        return self._fresh_searcher().num_docs

    def search(self, text: str, limit: int, *, kinds: list[str] | None = None,
               dir_prefix: str | None = None, heading_boost: float = SearchSettings.heading_boost,
               path_boost: float = SearchSettings.path_boost, language: str = "en",
               paths: frozenset[str] | None = None, only_references: bool = False) -> list[LexicalHit]:
        """BM25 over title, heading, body and path; ``language`` drops that language's stop
        words first (a Spanish "de", "la", "que" would otherwise match English text by chance)."""
        words = query_words(text) if language == "en" else content_words(text, language)
        if not words:
            return []
        parsed = self.index.parse_query(
            " ".join(words), ["title", "heading", "body", "path"],
            field_boosts={"title": heading_boost, "heading": heading_boost, "path": path_boost})
        return self._run(parsed, limit, kinds, dir_prefix, paths, only_references)

    def identifier_count(self, token: str) -> int:
        """How many chunks hold ``token`` (lower-cased) in the exact-identifier field."""
        return int(self._fresh_searcher().doc_freq("ident", token))

    def search_identifiers(self, tokens: list[str], limit: int, *, kinds: list[str] | None = None,
                           dir_prefix: str | None = None, max_share: float = 0.01,
                           paths: frozenset[str] | None = None, only_references: bool = False) -> list[LexicalHit]:
        """Chunks holding any of the identifiers exactly. An identifier found in more than
        ``max_share`` of all chunks (a product name like FastAPI) distinguishes nothing and
        is left to BM25."""
        searcher = self._fresh_searcher()
        ceiling = max(20, int(searcher.num_docs * max_share))
        tokens = [t for t in tokens if searcher.doc_freq("ident", t) <= ceiling]
        if not tokens:
            return []
        terms = [(tantivy.Occur.Should, tantivy.Query.term_query(self.schema, "ident", t))
                 for t in tokens]
        return self._run(tantivy.Query.boolean_query(terms), limit, kinds, dir_prefix, paths, only_references)

    def _run(self, query: tantivy.Query, limit: int, kinds: list[str] | None,
             dir_prefix: str | None, paths: frozenset[str] | None = None,
             only_references: bool = False) -> list[LexicalHit]:
        """``paths``: only chunks of these files (an empty set matches nothing).
        ``only_references``: only passages of reference lists, in the query itself, so BM25
        ranks them among themselves. (Leaving them out of an evidence search's query instead
        of after fusion was tried: it shifts BM25's ranks against the vectors' and cost the
        PDF test split recall@5 0.594 → 0.563, docs/pdf.md.)"""
        if paths is not None and not paths:
            return []
        clauses = [(tantivy.Occur.Must, query)]
        if kinds:
            kind_q = tantivy.Query.boolean_query(
                [(tantivy.Occur.Should, tantivy.Query.term_query(self.schema, field, k))
                 for k in kinds for field in ("kind", "ckind")])
            clauses.append((tantivy.Occur.Must, kind_q))
        if dir_prefix:
            clauses.append((tantivy.Occur.Must,
                            tantivy.Query.term_query(self.schema, "dirs", dir_prefix)))
        if paths:
            clauses.append((tantivy.Occur.Must, tantivy.Query.boolean_query(
                [(tantivy.Occur.Should, tantivy.Query.term_query(self.schema, "path_raw", p)) for p in sorted(paths)])))
        if only_references:
            clauses.append((tantivy.Occur.Must, tantivy.Query.term_query(self.schema, "part", REFERENCE_PART)))
        final = query if len(clauses) == 1 else tantivy.Query.boolean_query(clauses)
        searcher = self._fresh_searcher()
        result = searcher.search(final, limit=limit, count=False)
        hits = []
        for score, address in result.hits:
            doc = searcher.doc(address)
            hits.append(LexicalHit(doc["chunk_id"][0], float(score)))
        return hits
