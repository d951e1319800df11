"""The Jupyter server extension: the /athena/* routes inside a running Jupyter server.

Enabled by the config file the wheel installs (etc/jupyter/jupyter_server_config.d/
athena_lab.json), so ``pip install athena-lab`` is all a user does. The routes use
jupyter_server's APIHandler: the server's token/login and XSRF rules apply unchanged, and
its authorizer decides per request on the resource "athena" (read: GET routes; write:
chat, reindex, deleting conversations), so a read-only user can search but not write.

Which folder is served: ``c.AthenaLab.root`` (or ``workspace.root``: env
ATHENA_WORKSPACE__ROOT, formerly ATHENA_ROOT), default the server's root_dir; its index at
``c.AthenaLab.index_dir`` (or ``workspace.index_dir``), default ROOT/.athena. With no index yet the API still answers and POST /athena/reindex builds it.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any

from traitlets import Bool, Unicode, default
from traitlets.config import Configurable

from athena_lab.config import workspace_default

STATE_KEY = "athena_state"
AUTH_RESOURCE = "athena"  # what a jupyter_server Authorizer is asked about


class AthenaLab(Configurable):
    root = Unicode(help="Folder to index and answer from (default: the server's root_dir).").tag(config=True)
    index_dir = Unicode(help="Where its index lives (default: ROOT/.athena).").tag(config=True)
    live = Bool(help="Run the live index: re-index files as they are saved (default on; env ATHENA_LIVE=0 "
                     "turns it off).").tag(config=True)
    # The old name of ``live`` (and ATHENA_WATCH of ATHENA_LIVE): still read, with a warning.
    watch = Bool(None, allow_none=True, help="The old name of live.").tag(config=True)

    @default("root")
    def _root_default(self) -> str:
        return workspace_default("root")

    @default("index_dir")
    def _index_dir_default(self) -> str:
        return workspace_default("index_dir")

    @default("live")
    def _live_default(self) -> bool:
        value = os.environ.get("ATHENA_LIVE")
        if value is None and "ATHENA_WATCH" in os.environ:
            warnings.warn("ATHENA_WATCH is now ATHENA_LIVE", DeprecationWarning, stacklevel=2)
            value = os.environ["ATHENA_WATCH"]
        return (value or "1").lower() not in ("0", "false", "no", "off")

    def live_index_on(self) -> bool:
        """``live``, or the old ``watch`` when a config still sets that name."""
        if self.watch is not None:
            warnings.warn("c.AthenaLab.watch is now c.AthenaLab.live", DeprecationWarning, stacklevel=2)
            return bool(self.watch)
        return bool(self.live)


def _load_jupyter_server_extension(serverapp: Any) -> None:
    from jupyter_server.base.handlers import APIHandler

    from athena_lab.workspace import Workspace

    from .app import handlers
    from .state import ServerState

    settings = AthenaLab(config=serverapp.config)
    lab_root = Path(serverapp.root_dir).expanduser()
    root = Path(settings.root).expanduser() if settings.root else lab_root
    state = ServerState(lambda: Workspace(root, settings.index_dir or None), lab_root=lab_root)
    web_app = serverapp.web_app
    web_app.settings[STATE_KEY] = state
    # The kernel names folders by their real path; Jupyter's root_dir keeps a symlink. The
    # widget's Copy needs both to turn a folder under the root into /files/ links.
    page_config = web_app.settings.setdefault("page_config_data", {})
    page_config["athenaRealServerRoot"] = lab_root.resolve().as_posix()
    web_app.add_handlers(".*$", handlers(web_app.settings["base_url"], state, APIHandler, AUTH_RESOURCE))
    if state.startup_error:
        serverapp.log.error("athena_lab: %s (the /athena/ API answers 503 until it is fixed)",
                            state.startup_error)
        return
    serverapp.log.info("athena_lab: serving %s at %sathena/", root, web_app.settings["base_url"])
    if settings.live_index_on():
        state.live.start()
    if os.environ.get("ATHENA_EMBED_IN_BACKGROUND") == "1":  # set by `athena lab`
        try:
            job = state.embed_in_background()
        except Exception as exc:  # never stop Lab from starting over this
            serverapp.log.warning("athena_lab: could not start embedding in the background: %s", exc)
        else:
            if job is not None:
                serverapp.log.info("athena_lab: embedding the vectors in the background (pid %s)", job["pid"])


def _unload_jupyter_server_extension(serverapp: Any) -> None:
    state = serverapp.web_app.settings.pop(STATE_KEY, None)
    if state is not None:
        state.close()
