"""The six tools the model may call, with JSON schemas checked before anything runs.

A weak model sends wrong types, missing fields and out-of-range numbers; each of those
comes back to it as a tool result saying exactly what was wrong, so it can retry,
instead of an exception ending the turn. Paths go through the workspace's
``source_path`` — absolute paths, ``..``, symlinks leading out of the indexed folder,
hidden files, the index folder and files that would not be indexed are refused there,
once, for every front end (the MCP server included).

Every chunk, range or page a tool returns is registered as evidence and shown to the
model with its ``ref`` number: the only numbers an answer may cite.

The chat's own filters (``path_prefix``, ``kind``, and the papers ones: collection, tag,
author, year, chosen papers) bound every tool, not only the first
search: a model (or a document's prompt injection) may narrow them but never widen them.
A read, listing or neighbour of anything outside them comes back as a refusal the model
can read ("outside this chat's filters"), so it cannot send another file to its provider.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from athena_lab.agent.citations import TurnEvidence
from athena_lab.agent.corpus import Corpus
from athena_lab.agent.providers import ToolSpec
from athena_lab.errors import OutsideFiltersError, PathError, ToolInputError
from athena_lab.paths import normalize_prefix
from athena_lab.document import citation_kind, CITATION_KINDS, DOC_KINDS
from athena_lab.search.hybrid import Hit

MAX_RESULT_CHARS = 8000
TEXT_PREVIEW = 800
_KINDS = list(DOC_KINDS + CITATION_KINDS)
_JSON_TYPES: dict[str, type | tuple[type, ...]] = {"object": dict, "string": str, "integer": int, "number": (int, float), "boolean": bool,
               "array": list}


@dataclass(frozen=True)
class ToolResult:
    content: dict[str, Any]
    summary: str
    ok: bool = True
    hits: list[dict[str, Any]] | None = None  # a search's hits for the trace (contract.TraceHit)

    def for_model(self) -> str:
        text = json.dumps(self.content, ensure_ascii=False, default=str)
        return text if len(text) <= MAX_RESULT_CHARS else text[:MAX_RESULT_CHARS] + " …(truncated)"


def trace_hit(hit: Hit, ref: int, evidence: TurnEvidence) -> dict[str, Any]:
    """One search hit as the trace shows it (contract.TraceHit): where it is, its fused score
    and its 1-based rank in each retriever that found it (``bm25``, ``vector``, ``ident``,
    ``grep``, ``multilingual``; ``bm25@2`` … for the translated question's search)."""
    return {"ref": ref, "path": hit.chunk.path, "where": evidence.item(ref).where,
            "heading_path": hit.chunk.heading, "score": round(hit.score, 4), "ranks": dict(hit.ranks)}


# -- schema validation -----------------------------------------------------------
def validate(schema: dict[str, Any], value: Any, where: str = "input") -> None:
    """The subset of JSON Schema the tool schemas use: type, properties, required,
    additionalProperties, enum, minimum/maximum, minLength/maxLength."""
    expected = schema.get("type")
    if expected:
        py = _JSON_TYPES[expected]
        if not isinstance(value, py) or (isinstance(value, bool) and expected in ("integer", "number")):
            raise ToolInputError(f"{where} must be {_article(expected)}, got {json.dumps(value)[:80]}")
    if "enum" in schema and value not in schema["enum"]:
        raise ToolInputError(f"{where} must be one of {', '.join(map(str, schema['enum']))}, got {value!r}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            raise ToolInputError(f"{where} must be at least {schema['minimum']}, got {value}")
        if "maximum" in schema and value > schema["maximum"]:
            raise ToolInputError(f"{where} must be at most {schema['maximum']}, got {value}")
    if isinstance(value, str):
        if len(value.strip()) < schema.get("minLength", 0):
            raise ToolInputError(f"{where} must not be empty")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            raise ToolInputError(f"{where} is longer than {schema['maxLength']} characters")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        missing = [k for k in schema.get("required", []) if k not in value]
        if missing:
            raise ToolInputError(f"{where} is missing the required field(s): {', '.join(missing)}")
        extra = [k for k in value if k not in props]
        if extra and schema.get("additionalProperties") is False:
            raise ToolInputError(f"{where} has unknown field(s): {', '.join(extra)}; "
                                 f"allowed: {', '.join(props)}")
        for key, sub in props.items():
            if key in value and value[key] is not None:
                validate(sub, value[key], f"{key}" if where == "input" else f"{where}.{key}")


def _article(kind: str) -> str:
    return ("an " if kind[0] in "aeiou" else "a ") + kind


def _obj(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required or [],
            "additionalProperties": False}


_PREFIX = {"type": "string", "maxLength": 500, "description": "only files under this folder, e.g. docs/"}
_KIND = {"type": "string", "enum": _KINDS, "description": "only this document kind"}
_PATH = {"type": "string", "minLength": 1, "maxLength": 1000,
         "description": "path relative to the indexed folder, as tools return it"}
_REGION = _obj({k: {"type": "number", "minimum": 0} for k in ("x", "y", "width", "height")},
               ["x", "y", "width", "height"])


# -- the tools ----------------------------------------------------------------------
class Toolbox:
    """The tools bound to one workspace and one turn's evidence."""

    def __init__(self, workspace: Corpus, evidence: TurnEvidence, filters: dict[str, Any] | None = None) -> None:
        self.ws = workspace
        self.evidence = evidence
        self.filters = filters or {}
        self._scope_prefix = _prefix(self.filters.get("path_prefix"))
        self._scope_kind: str | None = self.filters.get("kind") or None
        # A collection, tag, author, year or chosen papers: the files of those papers only.
        self._scope_paths: frozenset[str] | None = workspace.scope_paths(self.filters)
        self._tools: dict[str, tuple[str, dict[str, Any], Callable[[dict[str, Any]], ToolResult]]] = {
            "searchDocs": ("Hybrid (keyword + semantic) search over the indexed documents. Returns chunks "
                           "with their ref number for citing.",
                           _obj({"query": {"type": "string", "minLength": 1, "maxLength": 1000},
                                 "filters": _obj({"pathPrefix": _PREFIX, "kind": _KIND}),
                                 "limit": {"type": "integer", "minimum": 1, "maximum": 20}}, ["query"]),
                           self.search_docs),
            "grepDocs": ("Exact string or regular-expression search for identifiers, flags and error "
                         "messages. Returns matching lines with the ref of their chunk. Regexes use RE2 "
                         "syntax: no backreferences or lookaround.",
                         _obj({"pattern": {"type": "string", "minLength": 1, "maxLength": 500},
                               "regex": {"type": "boolean"}, "caseSensitive": {"type": "boolean"},
                               "pathPrefix": _PREFIX,
                               "limit": {"type": "integer", "minimum": 1, "maximum": 50}}, ["pattern"]),
                         self.grep_docs),
            "readSourceRange": ("Read exact lines (1-based, inclusive, at most 400) of a text document.",
                                _obj({"path": _PATH, "startLine": {"type": "integer", "minimum": 1},
                                      "endLine": {"type": "integer", "minimum": 1}}, ["path", "startLine"]),
                                self.read_source_range),
            "readPdfSource": ("Read the text of one PDF page, optionally only the lines inside a region "
                              "(PDF points, origin top-left).",
                              _obj({"path": _PATH, "page": {"type": "integer", "minimum": 1},
                                    "region": _REGION}, ["path", "page"]),
                              self.read_pdf_source),
            "listDocs": ("List the indexed documents (path, kind, title, chunk count) to narrow a search.",
                         _obj({"pathPrefix": _PREFIX, "kind": _KIND}), self.list_docs),
            "relatedChunks": ("Fetch the chunks before and after a chunk (by chunkId) for more context.",
                              _obj({"chunkId": {"type": "string", "minLength": 1, "maxLength": 64},
                                    "before": {"type": "integer", "minimum": 0, "maximum": 5},
                                    "after": {"type": "integer", "minimum": 0, "maximum": 5}}, ["chunkId"]),
                              self.related_chunks),
        }

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def specs(self, only: tuple[str, ...] | None = None) -> list[ToolSpec]:
        """The tools' schemas; ``only`` keeps those named (a CPU model reads every schema
        with every request, ~150 tokens each)."""
        return [ToolSpec(name, desc, schema) for name, (desc, schema, _) in self._tools.items()
                if only is None or name in only]

    def call(self, name: str, arguments: dict[str, Any], arguments_error: str | None = None) -> ToolResult:
        """Validate, then run; every failure becomes a result the model can read."""
        if name not in self._tools:
            return _failed(f"unknown tool {name!r}; available tools: {', '.join(self._tools)}")
        if arguments_error:
            return _failed(f"{name}: {arguments_error}")
        _, schema, run = self._tools[name]
        try:
            validate(schema, arguments)
            return run(arguments)
        except ToolInputError as exc:
            return _failed(f"{name}: invalid input: {exc}")
        except Exception as exc:  # a tool failing must reach the model as text, not end the turn
            return _failed(f"{name}: {exc}")

    # -- implementations ------------------------------------------------------------
    def search_docs(self, args: dict[str, Any]) -> ToolResult:
        filters = args.get("filters") or {}
        prefix = self._narrow_prefix(filters.get("pathPrefix"))
        kind = self._narrow_kind(filters.get("kind"))
        result = self.ws.search(args["query"], k=args.get("limit") or None, kind=kind, path_prefix=prefix,
                                paths=self._scope_paths)
        rows = [self._hit_row(hit, args["query"]) for hit in result.hits]
        content: dict[str, Any] = {"results": rows}
        if result.degraded:
            content["note"] = result.degraded
        hits = [trace_hit(hit, row["ref"], self.evidence) for hit, row in zip(result.hits, rows)]
        return ToolResult(content, _hits_summary(rows), hits=hits)

    def grep_docs(self, args: dict[str, Any]) -> ToolResult:
        matches = self.ws.grep(args["pattern"], regex=bool(args.get("regex")),
                               case_sensitive=bool(args.get("caseSensitive")), limit=args.get("limit") or 20,
                               path_prefix=self._narrow_prefix(args.get("pathPrefix")))
        rows = []
        for m in matches:
            chunk = self.ws.chunk(m["chunk_id"])
            if not self._in_scope(m["path"], chunk.doc_kind if chunk else None) or (self._scope_kind and not chunk):
                continue
            ref = self.evidence.add_hit(Hit(chunk, 0.0), args["pattern"]) if chunk else None
            rows.append({"ref": ref, "path": m["path"], "line": m.get("line"), "page": m.get("page"),
                         "text": m["text"], "chunkId": m["chunk_id"]})
        return ToolResult({"matches": rows}, f"{len(rows)} matching line(s)"
                          + (f" in {len({r['path'] for r in rows})} file(s)" if rows else ""))

    def read_source_range(self, args: dict[str, Any]) -> ToolResult:
        self._check_path(args["path"])
        data = self.ws.read_source(args["path"], args["startLine"], args.get("endLine"))
        ref = self.evidence.add_range(data["path"], data["start_line"], data["end_line"], data["lines"])
        content = {"ref": ref, **data}
        return ToolResult(content, f"{data['path']}:{data['start_line']}-{data['end_line']} "
                                   f"({data['total_lines']} lines in the file)")

    def read_pdf_source(self, args: dict[str, Any]) -> ToolResult:
        path = args["path"]
        if not path.lower().endswith(".pdf"):
            raise ToolInputError(f"{path} is not a PDF; read it with readSourceRange")
        self._check_path(path)
        page = self.ws.read_pdf_source(path, args["page"], args.get("region"))
        regions = [args["region"]] if args.get("region") else []
        ref = self.evidence.add_pdf_page(path, page["page"], page["text"], regions,
                                         page.get("confidence"), page.get("warnings", []))
        content = {"ref": ref, "path": path, "page": page["page"], "pages": page["pages"],
                   "text": page["text"], "lines": page["lines"][:200], "warnings": page.get("warnings", [])}
        return ToolResult(content, f"{path} p. {page['page']} of {page['pages']}: {len(page['lines'])} line(s)")

    def list_docs(self, args: dict[str, Any]) -> ToolResult:
        docs = self.ws.list_docs(self._narrow_prefix(args.get("pathPrefix")), self._narrow_kind(args.get("kind")))
        docs = [d for d in docs if self._in_scope(d["path"], d.get("doc_kind"))]
        shown = [{k: d.get(k) for k in ("path", "kind", "doc_kind", "title", "chunks", "pages")} for d in docs[:200]]
        content: dict[str, Any] = {"docs": shown, "total": len(docs)}
        return ToolResult(content, f"{len(docs)} document(s)")

    def related_chunks(self, args: dict[str, Any]) -> ToolResult:
        center = self.ws.chunk(args["chunkId"])
        if center is not None and not self._in_scope(center.path, center.doc_kind):
            raise OutsideFiltersError(f"chunk {args['chunkId']} is in {center.path}, "
                                      f"outside this chat's filters ({self._scope_text()})")
        rows = self.ws.related(args["chunkId"], args.get("before", 1), args.get("after", 1))
        out = [self._hit_row(Hit(row, 0.0), "") for row in rows if self._in_scope(row.path, row.doc_kind)]
        return ToolResult({"chunks": out}, f"{len(out)} chunk(s) around {args['chunkId']}")

    # -- the chat's filters bound every tool ----------------------------------------
    def _scope_text(self) -> str:
        parts = [f"path prefix {self._scope_prefix!r}"] if self._scope_prefix else []
        if self._scope_kind:
            parts.append(f"kind {self._scope_kind!r}")
        if self._scope_paths is not None:
            named = [f"{k} {self.filters[k]!r}" for k in ("collection", "tag", "author", "year") if self.filters.get(k)]
            if self.filters.get("papers"):
                named.append(f"{len(self.filters['papers'])} chosen paper(s)")
            parts.append(" and ".join(named) + f" ({len(self._scope_paths)} file(s))")
        return ", ".join(parts)

    def _narrow_prefix(self, asked: str | None) -> str | None:
        """The model's path filter inside the chat's: a wider one (or none) becomes the chat's."""
        prefix, scope = _prefix(asked), self._scope_prefix
        if scope is None:
            return prefix
        if prefix is None or scope.startswith(prefix):
            return scope
        if prefix.startswith(scope):
            return prefix
        raise OutsideFiltersError(f"pathPrefix {asked!r} is outside this chat's filters ({self._scope_text()})")

    def _narrow_kind(self, asked: str | None) -> str | None:
        """The model's kind inside the chat's: ``markdown`` narrows ``text``; another kind is refused."""
        scope = self._scope_kind
        if not asked or not scope or asked == scope or (scope in CITATION_KINDS and citation_kind(asked) == scope):
            return asked or scope
        if asked in CITATION_KINDS and citation_kind(scope) == asked:
            return scope
        raise OutsideFiltersError(f"kind {asked!r} is outside this chat's filters ({self._scope_text()})")

    def _in_scope(self, path: str, doc_kind: str | None = None) -> bool:
        if self._scope_prefix and not path.startswith(self._scope_prefix):
            return False
        if self._scope_paths is not None and path not in self._scope_paths:
            return False
        if self._scope_kind and doc_kind is not None:
            return self._scope_kind in (doc_kind, citation_kind(doc_kind))
        return True

    def _check_path(self, path: str) -> None:
        """Refuse a file the chat's filters leave out — judged on the file actually read (a
        symlink's target) and, with a kind filter, on the kind it was indexed as."""
        if not self._scope_prefix and not self._scope_kind and self._scope_paths is None:
            return
        full = self.ws.source_path(path)
        rel = full.relative_to(self.ws.root.resolve()).as_posix()
        refused = OutsideFiltersError(f"{path} is outside this chat's filters ({self._scope_text()})")
        if not self._in_scope(rel):
            raise refused
        if self._scope_kind:
            indexed = [d for d in self.ws.list_docs(rel) if d["path"] == rel]
            if not indexed or not self._in_scope(rel, indexed[0].get("doc_kind")):
                raise refused

    def _hit_row(self, hit: Hit, query: str) -> dict[str, Any]:
        ref = self.evidence.add_hit(hit, query)
        cite = self.evidence.item(ref).citation
        locator = ({"page": cite.get("page")} if cite["kind"] == "pdf"
                   else {"startLine": cite.get("start_line"), "endLine": cite.get("end_line")})
        text = hit.chunk.text
        return {"ref": ref, "chunkId": hit.chunk.chunk_id, "path": hit.chunk.path,
                "headingPath": hit.chunk.heading, "score": round(hit.score, 4), "locator": locator,
                "text": text if len(text) <= TEXT_PREVIEW else text[:TEXT_PREVIEW] + " …"}


def _prefix(prefix: str | None) -> str | None:
    """A path filter may not point outside the indexed folder either (``paths.normalize_prefix``)."""
    try:
        return normalize_prefix(prefix, "pathPrefix")
    except PathError as exc:
        raise ToolInputError(str(exc)) from None


def _failed(message: str) -> ToolResult:
    return ToolResult({"error": message}, f"error: {message}", ok=False)


def _hits_summary(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "no hits"
    where = ", ".join(f"[{r['ref']}] {r['path']}" for r in rows[:5])
    return f"{len(rows)} hit(s): {where}" + (" …" if len(rows) > 5 else "")
