"""The /athena/* routes, written once as mixins over whatever RequestHandler base serves them.

Every method is ``@authenticated``: jupyter_server (2.x) lets undecorated handlers through
unauthenticated by default; standalone, the base handler's user is whoever passed the token.

Inside Jupyter the base is ``jupyter_server``'s APIHandler (its login, token and XSRF
rules apply, and app.handlers adds its ``@authorized`` check to every verb); standalone it
is ``middleware.StandaloneHandler`` (Host and Origin checks, token, rate limits, JSON-only
bodies, body limit). The route code never knows which: it reads the
workspace from ``self.state`` and answers JSON errors shaped
``{"error": {"message", "status"}}`` from any exception a user can cause.
"""

from __future__ import annotations

import json
import logging
import os
import re
from typing import TYPE_CHECKING, Any, Callable

from tornado.web import HTTPError, RequestHandler, authenticated

from athena_lab import __version__
from athena_lab import events
from athena_lab.errors import JobRunning, RequestError, status_of, user_message
from athena_lab.settings import LLM_PROVIDERS
from athena_lab.request import AskRequest

from . import jsonbody, site_urls, sse
from .errors import api_error
from .addresses import client_key
from .state import ServerState

if TYPE_CHECKING:
    from athena_lab.workspace import Workspace

    from .public import PublicCorpus

log = logging.getLogger("athena_lab.server")

ROLES = ("user", "assistant", "system")
CONVERSATION_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def require_index(ws: Any, owner: bool = True) -> None:
    """409 before any work when the folder has no index yet. Only the owner is told which
    folder and how to build it: a public visitor learns neither the server's paths nor its
    routes (issue 31)."""
    if not ws.has_index():
        if not owner:
            raise api_error(409, "this site's documents are not indexed yet; try again later")
        raise api_error(409, f"no index for {ws.root} yet; POST /athena/reindex builds it")


def without_server_paths(message: str, ws: Any) -> str:
    """``message`` with the indexed folder's and the index's absolute paths taken out: what a
    public visitor is shown of an error (a path under the folder stays relative)."""
    if ws is None:
        return message
    for place in sorted({str(getattr(ws, "index_dir", "") or ""), str(ws.root)}, key=len, reverse=True):
        if len(place) > 1:
            message = message.replace(place + "/", "").replace(place, "the indexed folder")
    return message


def _status_for(exc: BaseException) -> int:
    """Each user error carries its status (athena_lab.errors); anything else is a bug (500)."""
    return exc.status_code if isinstance(exc, HTTPError) else status_of(exc)


def _message_for(exc: BaseException | None, status: int) -> str:
    if isinstance(exc, HTTPError):
        return exc.log_message or exc.reason or f"HTTP {status}"
    if exc is None or status == 500:
        return "internal error; the server log has the details" if exc else f"HTTP {status}"
    return user_message(exc)


# The routes are mixins: at run time each is combined with the server's own handler class
# (Jupyter's APIHandler or the standalone server's), so the mixin itself derives from
# nothing. For the type checker it is a RequestHandler: those are the methods it calls.
if TYPE_CHECKING:
    _Handler = RequestHandler
else:
    _Handler = object


class AthenaRoute(_Handler):
    """Shared helpers; mixed in before the base handler class so these methods win."""

    state: ServerState

    if TYPE_CHECKING:
        # Both bases (jupyter_server's APIHandler, middleware.StandaloneHandler) take the
        # content type here; tornado's own finish does not.
        def finish(self, chunk: str | bytes | dict[str, Any] | None = None,
                   set_content_type: str = "application/json") -> Any: ...

    def initialize(self, state: ServerState) -> None:  # tornado passes the route kwargs here
        self.state = state

    # answers -------------------------------------------------------------------
    def send_json(self, data: Any, status: int = 200) -> None:
        self.set_status(status)
        self.finish(json.dumps(data, ensure_ascii=False, default=str))

    def send_error_body(self, status: int, message: str, **extra: Any) -> None:
        self.send_json({"error": {"message": message, "status": status}, **extra}, status)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        exc = kwargs.get("exc_info", (None, None, None))[1]
        status = _status_for(exc) if exc is not None else status_code
        extra = {"job": exc.job} if isinstance(exc, JobRunning) else {}
        for name, value in getattr(exc, "athena_headers", {}).items():
            self.set_header(name, value)
        message = _message_for(exc, status)
        if not self.for_owner:
            message = without_server_paths(message, self.state.opened())
        self.send_error_body(status, message, **extra)

    def log_exception(self, typ: Any, value: Any, tb: Any) -> None:
        if value is not None and _status_for(value) < 500:
            log.info("%s %s → %s: %s", self.request.method, self.request.path, _status_for(value), value)
            return
        super().log_exception(typ, value, tb)  # type: ignore[misc]

    # requests ------------------------------------------------------------------
    @property
    def ws(self) -> Any:
        return self.state.workspace()

    def json_body(self) -> dict[str, Any]:
        return jsonbody.parse_object(self.request.body or b"", self.state.limits.max_body_bytes)

    def int_arg(self, name: str, default: int | None, low: int, high: int) -> int | None:
        raw = self.get_query_argument(name, None)
        if raw is None or raw == "":
            return default
        try:
            value = int(raw)
        except ValueError:
            raise api_error(400, f"{name} must be a whole number, got {raw!r}") from None
        if not low <= value <= high:
            raise api_error(400, f"{name} must be between {low} and {high}, got {value}")
        return value

    def str_arg(self, name: str, required: bool = False) -> str | None:
        value = self.get_query_argument(name, None)
        if required and not (value or "").strip():
            raise api_error(400, f"query parameter '{name}' is required")
        return value or None

    def site_rules(self) -> list[site_urls.SiteRule]:
        """The user's ``[dropin] site_url_map``: every citation this server sends gets its
        docs-site ``url`` from it (site_urls.py), in this one place per route."""
        return site_urls.compile_rules(self.ws.config.settings.dropin.site_url_map)

    @property
    def for_owner(self) -> bool:
        """True unless this request came in as a token-less public visitor (middleware.py);
        inside Jupyter every request has passed its login."""
        return not getattr(self, "public_visitor", False)

    @property
    def reads(self) -> Any:
        """What this request may read: the workspace for the owner, only the published
        sources for a public visitor (public.py)."""
        if self.for_owner:
            return self.ws
        from .public import PublicCorpus

        return PublicCorpus(self.ws, self.state.visitor_conversations)

    async def blocking(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run index/disk work off the IOLoop so one slow request never stalls the others."""
        return await self.state.run(fn, *args, owner=self.for_owner)


class HealthRoute(AthenaRoute):
    @authenticated
    async def get(self) -> None:
        report = await self.blocking(self.state.health)
        self.send_json(report, 503 if report["status"] == "unhealthy" else 200)


class InfoRoute(AthenaRoute):
    @authenticated
    async def get(self) -> None:
        self.send_json(await self.blocking(self._info))

    def _info(self) -> dict[str, Any]:
        ws = self.ws
        llm = ws.config.settings.llm
        index: dict[str, Any] = {"files": 0, "chunks": 0, "last_indexed": None, "updated_at": None,
                                 "warnings": 0, "vectors": None, "run": None}
        if ws.has_index():
            status = ws.status()
            index.update(files=status["counts"]["files"], chunks=status["counts"]["chunks"],
                         last_indexed=status["last_indexed"], updated_at=status["updated_at"],
                         warnings=sum(len(f["warnings"]) for f in status["files"] + status["skipped"]),
                         vectors=status["vectors"], run=status["run"])
        mode = "extractive" if llm.provider == "extractive" else f"{llm.provider}:{llm.model}"
        return {"version": __version__, "root": str(ws.root), "index_dir": str(ws.index_dir),
                "lab_path_prefix": self.state.lab_path_prefix(), "provider": llm.provider,
                "providers": list(LLM_PROVIDERS),
                # The bundled local models by name, so Lab's settings can offer them.
                "local_models": ws.local_models(),
                "model": llm.model or None, "mode": mode,
                "embedding": ws.config.settings.embedding.provider, "index": index,
                "live": self.state.live.status(),
                # Questions the empty chat offers, from the index's section headings.
                "examples": ws.example_questions() if ws.has_index() else [],
                # `athena lab` asks the sidebar to open itself on start.
                "open_chat": os.environ.get("ATHENA_OPEN_CHAT") == "1",
                # What POST /athena/chat refuses: the composers count and refuse before Send.
                "limits": {"max_question_chars": self.state.limits.max_question_chars}}


class StatusRoute(AthenaRoute):
    @authenticated
    async def get(self) -> None:
        self.send_json(await self.blocking(self._status))

    def _status(self) -> dict[str, Any]:
        ws = self.ws
        if not ws.has_index():
            return {"files": [], "pending": [], "failed": [], "skipped": [], "last_indexed": None,
                    "updated_at": None, "vectors": None, "run": None, "multilingual": None}
        status = ws.status()
        # The workspace's IndexStatus, plus the pending and failed files picked out for the sidebar.
        by_state = {s: [{"path": f["path"], "warnings": f["warnings"]} for f in status["files"] if f["status"] == s]
                    for s in ("pending", "failed")}
        return {**status, **by_state}


class SearchRoute(AthenaRoute):
    # Public mode (middleware.py): a docs site's readers may use this without a token.
    public_verbs = frozenset({"GET"})

    @authenticated
    async def get(self) -> None:
        query = self.str_arg("q", required=True)
        k = self.int_arg("k", None, 1, 100)
        kind, prefix = self.str_arg("kind"), self.str_arg("path_prefix")
        mode = self.get_query_argument("mode", "hybrid")  # checked by the searcher (400)
        papers: dict[str, Any] = {key: self.str_arg(key) for key in ("collection", "tag", "author", "year")
                                  if self.str_arg(key)}
        if self.get_query_arguments("paper"):
            papers["papers"] = self.get_query_arguments("paper")[:1000]
        require_index(self.ws, self.for_owner)
        reads = self.reads
        result = await self.blocking(lambda: reads.search(query, k=k, kind=kind, path_prefix=prefix, mode=mode,
                                                          papers=papers or None))
        hits = site_urls.with_site_urls(result.citations(), self.site_rules())
        self.send_json({"query": query, "hits": hits,
                        "degraded": result.degraded, "warnings": result.warnings})


class SourceRoute(AthenaRoute):
    # Public mode (middleware.py): a docs site's readers may use this without a token.
    public_verbs = frozenset({"GET"})

    @authenticated
    async def get(self) -> None:
        path = self.str_arg("path", required=True)
        start = self.int_arg("start_line", 1, 1, 10**9)
        end = self.int_arg("end_line", None, 1, 10**9)
        self.send_json(await self.blocking(self.reads.read_source, path, start, end))


class CiteRoute(AthenaRoute):
    """``GET /athena/cite?target=CHUNK_OR_PATH[&target=…]&format=bibtex``: text to paste."""

    # Public mode (middleware.py): a docs site's readers may use this without a token.
    public_verbs = frozenset({"GET"})

    @authenticated
    async def get(self) -> None:
        from athena_lab.citations.bibliography import FORMATS, render

        targets = [t for t in self.get_query_arguments("target") if t.strip()][:50]
        if not targets:
            raise api_error(400, "'target' is required: a chunk id or an indexed path (repeatable)")
        fmt = self.str_arg("format") or "bibtex"
        if fmt not in FORMATS:
            raise api_error(400, f"'format' must be one of: {', '.join(FORMATS)}")
        require_index(self.ws, self.for_owner)
        records = await self.blocking(self.reads.cite, targets)
        self.finish(render(records, fmt),
                    set_content_type="application/json" if fmt == "csl-json" else "text/plain; charset=utf-8")


class PapersRoute(AthenaRoute):
    """``GET /athena/papers``: the archive's papers, filtered (author, year, collection, tag)
    and sorted; with ``about=…``, the papers that discuss it, each with its best passage."""

    @authenticated
    async def get(self) -> None:
        filters = {key: self.str_arg(key) for key in ("author", "year", "collection", "tag")}
        chosen = [p for p in self.get_query_arguments("paper") if p.strip()][:1000]
        if chosen:
            filters["papers"] = chosen  # type: ignore[assignment]
        about = self.str_arg("about")
        sort = self.str_arg("sort") or "title"
        descending = self.str_arg("order") == "desc"
        k = self.int_arg("k", 5, 1, 50)
        require_index(self.ws)
        ws = self.ws

        def papers() -> dict[str, Any]:
            wanted = {key: value for key, value in filters.items() if value}
            if about:
                hits = ws.papers_about(about, k=k, **wanted)
                for hit in hits:
                    hit["best"] = site_urls.with_site_urls([hit["best"]], self.site_rules())[0]
                return {"about": about, "papers": hits}
            return {"papers": ws.papers(sort=sort, descending=descending, **wanted), **ws.paper_facets()}

        self.send_json(await self.blocking(papers))


class PdfPageRoute(AthenaRoute):
    # Public mode (middleware.py): a docs site's readers may use this without a token.
    public_verbs = frozenset({"GET"})

    @authenticated
    async def get(self) -> None:
        path = self.str_arg("path", required=True)
        page = self.int_arg("page", 1, 1, 100_000)
        chunk_id = self.str_arg("chunk_id")
        png, scale = await self.blocking(self._render, path, page, chunk_id)
        self.set_header("Content-Type", "image/png")
        # Pixels per PDF point: the front ends place region boxes with it (core/pdfPage.ts).
        self.set_header("X-Athena-Scale", f"{scale:.6f}")
        self.set_header("Cache-Control", "private, max-age=300")
        self.write(png)
        self.finish(set_content_type="image/png")

    def _render(self, path: str, page: int, chunk_id: str | None) -> tuple[bytes, float]:
        require_index(self.ws, self.for_owner)
        return self.reads.pdf_page_image(path, page, chunk_id)


class ReindexRoute(AthenaRoute):
    """POST starts a background run and returns at once; GET follows it; DELETE stops it
    (it saves what it has embedded first)."""

    @authenticated
    async def post(self) -> None:
        self.send_json({"job": await self.blocking(self.state.jobs.start)}, 202)

    @authenticated
    async def get(self) -> None:
        self.send_json({"job": await self.blocking(self.state.jobs.current)})

    @authenticated
    async def delete(self) -> None:
        if not await self.blocking(self.state.jobs.stop):
            raise api_error(409, "no reindex job is running")
        self.send_json({"job": await self.blocking(self.state.jobs.current)}, 202)


class ConversationsRoute(AthenaRoute):
    @authenticated
    async def get(self) -> None:
        limit = self.int_arg("limit", 20, 1, 200) or 20
        items = await self.blocking(lambda: self._list(limit))
        self.send_json({"conversations": items})

    def _list(self, limit: int) -> list[Any]:
        return self.ws.conversations.list(limit) if self.ws.has_index() else []


class ConversationRoute(AthenaRoute):
    @authenticated
    async def get(self, conversation_id: str) -> None:
        found = await self.blocking(self._get, conversation_id)
        if found is None:
            raise api_error(404, f"no conversation {conversation_id!r}")
        self.send_json(found)

    @authenticated
    async def delete(self, conversation_id: str) -> None:
        if not await self.blocking(self._delete, conversation_id):
            raise api_error(404, f"no conversation {conversation_id!r}")
        self.set_status(204)
        self.finish()

    def _get(self, conversation_id: str) -> Any:
        return self.ws.conversations.get(conversation_id) if self.ws.has_index() else None

    def _delete(self, conversation_id: str) -> bool:
        return bool(self.ws.conversations.delete(conversation_id)) if self.ws.has_index() else False


class ConversationRewindRoute(AthenaRoute):
    """POST {"turn": n}: drop question n (0-based) and everything after it, so the sidebar can
    ask it again edited (edit and resend) or as it was (regenerate the last answer)."""

    @authenticated
    async def post(self, conversation_id: str) -> None:
        turn = self.json_body().get("turn")
        if isinstance(turn, bool) or not isinstance(turn, int) or turn < 0:
            raise api_error(400, "'turn' must be the 0-based number of a question in the conversation")
        dropped = await self.blocking(self._rewind, conversation_id, turn)
        if dropped is None:
            raise api_error(404, f"no question {turn} in conversation {conversation_id!r}")
        self.send_json({"dropped": dropped, "conversation": await self.blocking(self._get, conversation_id)})

    def _rewind(self, conversation_id: str, turn: int) -> int | None:
        return self.ws.conversations.rewind(conversation_id, turn) if self.ws.has_index() else None

    def _get(self, conversation_id: str) -> Any:
        return self.ws.conversations.get(conversation_id)


def chat_request(body: dict[str, Any], max_chars: int, max_messages: int) -> tuple[AskRequest, bool]:
    """Validate a chat body; return the question's ``AskRequest`` (validated) and the stream flag."""
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise api_error(400, "'messages' must be a non-empty list of {role, content} objects")
    if len(messages) > max_messages:
        raise api_error(400, f"'messages' holds {len(messages)} items; the limit is {max_messages}")
    for n, m in enumerate(messages):
        if not isinstance(m, dict) or m.get("role") not in ROLES or not isinstance(m.get("content"), str):
            raise api_error(400, f"messages[{n}] must be {{\"role\": user|assistant|system, \"content\": string}}")
        if len(m["content"]) > max_chars:
            raise api_error(400, f"messages[{n}].content is {len(m['content'])} characters; the limit is {max_chars}")
    question = messages[-1]["content"].strip()
    if messages[-1]["role"] != "user" or not question:
        raise api_error(400, "the last message must be a non-empty user message (the question)")
    stream = body.get("stream", True)
    if not isinstance(stream, bool):
        raise api_error(400, "'stream' must be true or false")
    conversation_id = body.get("conversation_id")
    if conversation_id is not None:
        if not isinstance(conversation_id, str) or not CONVERSATION_ID.match(conversation_id):
            raise api_error(400, "'conversation_id' must be 1-64 letters, digits, '-' or '_'")
    filters = body.get("filters") or {}
    if not isinstance(filters, dict) or not all(isinstance(v, str) or v is None or (k == "papers" and isinstance(v, list))
                                                for k, v in filters.items()):
        raise api_error(400, "'filters' must be an object of strings (path_prefix, kind, collection, tag, author, "
                             "year) and 'papers', a list of paper ids")
    for key in ("provider", "model"):
        value = body.get(key)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise api_error(400, f"'{key}' must be a non-empty string")
    # The same validation as every front end, before the turn starts, so a bad option is a
    # 400 and leaves no conversation behind.
    # ``k``: passages retrieved first; ``top_k`` is its old name, still read (docs/http-api.md).
    old_name = "k" not in body and "top_k" in body
    request = AskRequest(question, conversation_id, {k: v for k, v in filters.items() if v},
                         body.get("provider"), body.get("model"), body.get("top_k") if old_name else body.get("k"),
                         body.get("context"), body.get("context_label"))
    try:
        return request.validate(), stream
    except RequestError as exc:
        if old_name and exc.message.startswith("'k'"):
            raise RequestError(f"'top_k' (now 'k'): {exc.message}") from None
        raise


class ChatRoute(AthenaRoute):
    _pump: sse.EventPump | None = None
    # Public mode: a docs site's readers may ask (not list, read back or delete conversations).
    public_verbs = frozenset({"POST"})

    @authenticated
    async def post(self) -> None:
        limits = self.state.limits
        request, stream = chat_request(self.json_body(), limits.max_question_chars, limits.max_messages)
        if getattr(self, "public_visitor", False) and (request.provider is not None or request.model is not None):
            # Which model (and whose API key) answers is the server owner's choice.
            raise api_error(403, "'provider' and 'model' need the token; public visitors get the server's model")
        if getattr(self, "public_visitor", False) and request.context is not None:
            # An attached cell is stored with the question: no anonymous 20,000 characters per
            # question in the owner's catalog (the drop-in never attaches one).
            raise api_error(403, "'context' needs the token; public visitors ask without an attached cell")
        require_index(self.ws, self.for_owner)
        ws = self.reads  # a visitor's turn searches and reads only the published sources
        cid = request.conversation_id
        if cid and not await self.blocking(ws.conversations.exists, cid):
            raise api_error(404, f"no conversation {cid!r}; omit conversation_id to start a new one")
        address = self._take_visitor_slot()
        if stream:
            await self._stream(ws, request, address)
            return
        try:
            answer = await self.state.run_chat(lambda: ws.ask(request),
                                               owner=self.for_owner)
        finally:
            if address is not None:
                self.state.visitor_chats.give_back(address)
        body = answer.to_dict()
        body["citations"] = site_urls.with_site_urls(body["citations"], self.site_rules())
        error = body.pop("error")
        if error:
            self.send_error_body(502, f"the answer failed: {error}", conversation_id=body["conversation_id"])
        else:
            self.send_json(body)

    def _take_visitor_slot(self) -> str | None:
        """A public visitor's turn holds one of the visitors' slots (state.visitor_chats) until
        its worker is done; the address it counts under, or None for the owner."""
        if self.for_owner:
            return None
        slots = self.state.visitor_chats
        address = client_key(self.request.remote_ip)
        refused = slots.take(address)
        if refused == "address":
            raise api_error(429, f"at most {slots.per_address} public chats may run at once from one address; "
                                 "wait for one to finish", {"Retry-After": "5"})
        if refused:
            raise api_error(503, f"all {slots.total} chat workers for public visitors are busy; "
                                 "retry in a few seconds", {"Retry-After": "5"})
        return address

    async def _stream(self, ws: Workspace | PublicCorpus, request: AskRequest, address: str | None = None) -> None:
        rules = self.site_rules()
        try:
            self._pump = pump = sse.EventPump(lambda: ws.ask_events(request),
                                              self.state.chat_pool(self.for_owner),
                                              self.state.context_for(self.for_owner))
            sse.start_stream(self)
            worker = pump.start()
        except BaseException:
            if address is not None:
                self.state.visitor_chats.give_back(address)
            raise
        if address is not None:  # held until the worker is free, even when the client left early
            slots = self.state.visitor_chats
            worker.add_done_callback(lambda _: slots.give_back(address))
        try:
            while True:
                kind, item = await pump.next()
                if kind == "end" or pump.cancelled.is_set():
                    break
                if kind == "idle":
                    text = ": keep-alive\n\n"
                elif kind == "raise":
                    log.error("chat failed", exc_info=item)
                    text = self._shown(events.error(_message_for(item, _status_for(item)))).to_sse()
                else:
                    text = self._shown(site_urls.event_with_site_urls(item, rules)).to_sse()
                if not await sse.send(self, text):
                    pump.cancel()
                    break
        finally:
            if not pump.cancelled.is_set():
                await worker
                self.finish()

    def _shown(self, event: Any) -> Any:
        """An error event as this reader may see it: without the server's paths for a visitor."""
        if self.for_owner or event.type != "error":
            return event
        return events.error(without_server_paths(str(event.data.get("message", "")), self.state.opened()))

    def on_connection_close(self) -> None:
        if self._pump is not None:
            self._pump.cancel()


ROUTES: tuple[tuple[str, type[AthenaRoute]], ...] = (
    ("chat", ChatRoute),
    ("conversations", ConversationsRoute),
    (r"conversations/([^/]+)", ConversationRoute),
    (r"conversations/([^/]+)/rewind", ConversationRewindRoute),
    ("reindex", ReindexRoute),
    ("health", HealthRoute),
    ("info", InfoRoute),
    ("status", StatusRoute),
    ("search", SearchRoute),
    ("source", SourceRoute),
    ("pdf/page", PdfPageRoute),
    ("cite", CiteRoute),
    ("papers", PapersRoute),
)
