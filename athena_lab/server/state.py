"""What every route shares: the workspace, the reindex job slot, limits and thread pools.

One ``ServerState`` per server. Disk and index work runs in ``executor``; chat turns,
which can hold a thread for the whole answer, get their own smaller pool so a burst of
chats queues behind itself instead of starving search and health.
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from tornado.web import HTTPError

from athena_lab.errors import ConfigError, JobRunning
from athena_lab.workspace import ChannelStatus, SearchResult


from .jobs import STOP_WAIT_S, ReindexJobs
from .live import ServerLive


# Whom the work in hand is for: True only for the server's owner (a request that passed the
# token, or Jupyter's login). Routes set it on the context their work runs in (``run``,
# ``run_chat``, ``context_for``); anything that did not set it counts as a public visitor.
FOR_OWNER: contextvars.ContextVar[bool] = contextvars.ContextVar("athena_for_owner", default=False)


@dataclass(frozen=True)
class Limits:
    max_body_bytes: int = 256 * 1024
    max_question_chars: int = 8000
    max_messages: int = 200


class ServerState:
    def __init__(self, open_workspace: Callable[[], Any], *, limits: Limits | None = None,
                 lab_root: Path | None = None, chat_workers: int | None = None) -> None:
        """``open_workspace`` builds the Workspace; a ConfigError it raises is kept and
        reported by every route (503) instead of stopping the host server (Jupyter) from starting."""
        self.lab_root = lab_root
        self._ws: Any = None
        self.startup_error: str | None = None
        try:
            self._ws = open_workspace()
        except ConfigError as exc:
            self.startup_error = str(exc)
        if limits is None and self._ws is not None:
            limits = Limits(max_body_bytes=self._ws.config.settings.server.max_body_kb * 1024)
        self.limits = limits or Limits()
        self.jobs = ReindexJobs(lambda **o: self.workspace().index_in_background(**o), self.index_progress)
        self.live = ServerLive(self)  # the live index; its host starts it (live.py)
        if self._ws is not None:
            self._ws.on_foreign_question = self.build_multilingual_on_demand
        # Public visitors' conversations: in memory, bounded, never in the owner's catalog.
        from .public import VisitorConversations

        self.visitor_conversations = VisitorConversations()
        # The owner's first question in another language starts the multilingual build, once.
        self._on_demand_lock = threading.Lock()
        self._on_demand_started = False
        self.executor = ThreadPoolExecutor(max_workers=8, thread_name_prefix="athena-io")
        workers = chat_workers or min(8, (os.cpu_count() or 2) * 2)
        self.chat_executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="athena-chat")
        # Public visitors' turns run in a pool of their own, half the size (at least one), and
        # at most that many at once (more are refused, not queued), two per address: anonymous
        # readers can never occupy the workers the owner's questions run on (issue 22).
        from .public import VisitorChatSlots

        visitor_workers = max(1, workers // 2)
        self.visitor_chat_executor = ThreadPoolExecutor(max_workers=visitor_workers,
                                                        thread_name_prefix="athena-visitor-chat")
        self.visitor_chats = VisitorChatSlots(visitor_workers, per_address=2)

    def opened(self) -> Any:
        """The workspace, or None when it could not be opened (``workspace`` answers 503)."""
        return self._ws

    def workspace(self) -> Any:
        if self._ws is None:
            raise HTTPError(503, log_message=f"athena is not configured: {self.startup_error}")
        return self._ws

    @staticmethod
    def context_for(owner: bool) -> contextvars.Context:
        """A copy of the current context in which ``FOR_OWNER`` is ``owner``."""
        context = contextvars.copy_context()
        context.run(FOR_OWNER.set, owner)
        return context

    async def run(self, fn: Callable[..., Any], *args: Any, owner: bool = False) -> Any:
        """``fn(*args)`` in the disk/index pool; ``owner``: the request passed the token."""
        return await asyncio.get_running_loop().run_in_executor(self.executor, self.context_for(owner).run, fn, *args)

    def chat_pool(self, owner: bool) -> ThreadPoolExecutor:
        """The owner's chat workers, or the public visitors' own."""
        return self.chat_executor if owner else self.visitor_chat_executor

    async def run_chat(self, fn: Callable[..., Any], *args: Any, owner: bool = False) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.chat_pool(owner), self.context_for(owner).run,
                                                                fn, *args)

    def lab_path_prefix(self) -> str | None:
        """The indexed root relative to Jupyter's root_dir: "" when equal, None when outside
        (or standalone, where there is no Jupyter root)."""
        if self.lab_root is None or self._ws is None:
            return None
        root, lab = Path(self._ws.root).resolve(), self.lab_root.resolve()
        if root == lab:
            return ""
        if lab not in root.parents:
            return None
        return root.relative_to(lab).as_posix() + "/"

    def index_progress(self) -> dict[str, Any] | None:
        """The live index run (any process) and the vectors' state, or None without an index."""
        ws = self.workspace()
        if not ws.has_index():
            return None
        return {"run": ws.index_run(), "vectors": ws.vector_state().as_dict()}

    def embed_in_background(self) -> dict[str, Any] | None:
        """Start a background run if the index lacks vectors and no run is filling them in;
        the job's snapshot, or None when there was nothing to do."""
        live = self.index_progress()
        if live is None or live["run"] is not None or live["vectors"]["state"] not in ("partial", "missing"):
            return None
        return self.jobs.start()

    def build_multilingual_on_demand(self, result: SearchResult) -> None:
        """A question in another language and no multilingual vectors yet: with
        ``multilingual.build = "auto"``, build them in the background, and say so.

        Only the owner's question starts the build, and only the first one that can: a
        public visitor's never does (a child process per anonymous question otherwise), and
        a build that failed or was stopped is not retried per question — ``athena index
        --multilingual`` or the reindex route finish it. The job slot (jobs.py) holds one
        run at a time whatever asks."""
        if not FOR_OWNER.get():
            return
        ws = self.workspace()
        if ws.config.settings.multilingual.build != "auto":
            return
        state = ws.multilingual_state()
        if state["total"] and state["done"] >= state["total"]:
            return
        with self._on_demand_lock:
            if not self._on_demand_started:
                try:
                    self.jobs.start(multilingual=True)
                    self._on_demand_started = True
                except JobRunning:
                    pass  # a run is going: it (or the owner's next question) builds the channel
        if self.jobs.current()["state"] != "running":
            return  # the build ended or could not start: the search's own advice stands
        result.channel = ChannelStatus("building", state["done"], state["total"])
        result.warnings = [w for w in result.warnings if "athena index --multilingual" not in w]
        result.warnings.append(
            f"multilingual vectors {state['done']:,} / {state['total']:,} are being built in the "
            "background; until they are, questions in other languages rely on the English model")

    def health(self) -> dict[str, Any]:
        if self._ws is None:
            down = {"status": "down", "latency_ms": 0.0, "error": self.startup_error}
            return {"status": "unhealthy", "components": {"index": down, "embedder": down, "llm": down}}
        return self._ws.health()

    def close(self) -> None:
        self.live.stop()
        # A reindex in progress saves what it has embedded and exits; the next one resumes.
        self.jobs.stop(wait_s=STOP_WAIT_S)
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.chat_executor.shutdown(wait=False, cancel_futures=True)
        self.visitor_chat_executor.shutdown(wait=False, cancel_futures=True)
        if self._ws is not None:
            self._ws.close()
