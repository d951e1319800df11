"""athena_lab: a local-first research assistant for Jupyter.

The public Python API is what this module exports (``__all__``, guarded by
tests/test_exported_members.py); everything else is an implementation module that may
move. ``Athena`` is the notebook-facing workspace, ``Workspace`` the facade every front
end uses, ``AskRequest`` / ``AskOptions`` a question, ``Answer`` and ``Event`` what comes
back, and ``AthenaError`` the root of every error a user can cause (its tree is in
athena_lab/errors.py). ``athena`` is the command line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# Public name -> the module that holds it. Imported on first use, so `import athena_lab`
# (the server extension, the magic) stays cheap.
_EXPORTS = {
    "Answer": "athena_lab.answer",
    "AskOptions": "athena_lab.request",
    "AskRequest": "athena_lab.request",
    "Athena": "athena_lab.api",
    "AthenaError": "athena_lab.errors",
    "Event": "athena_lab.events",
    "RequestError": "athena_lab.errors",
    "SearchResult": "athena_lab.workspace",
    "Workspace": "athena_lab.workspace",
}

__all__ = ["__version__", "Answer", "AskOptions", "AskRequest", "Athena", "AthenaError", "Event", "RequestError",
           "SearchResult", "Workspace"]

if TYPE_CHECKING:
    from athena_lab.answer import Answer
    from athena_lab.api import Athena
    from athena_lab.errors import AthenaError, RequestError
    from athena_lab.events import Event
    from athena_lab.request import AskOptions, AskRequest
    from athena_lab.workspace import SearchResult, Workspace


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'athena_lab' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted(__all__)


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    # Jupyter imports the named module only when the server loads the extension.
    return [{"module": "athena_lab.server.extension"}]


def load_ipython_extension(ipython: Any) -> None:
    """`%load_ext athena_lab`: the %athena magic and rich display of results."""
    from athena_lab.magic import load

    load(ipython)
