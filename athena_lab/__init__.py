"""athena_lab: a local-first research assistant for Jupyter.

``from athena_lab import Athena`` is the Python API; ``athena`` is the command line.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["Athena", "__version__"]


def __getattr__(name: str):
    # Imported lazily so `import athena_lab` (the server extension, the magic) stays cheap.
    # The notebook-facing Athena (athena_lab.api) is the workspace plus auto-index,
    # progress bars and rich display; front ends inside the package use the workspace.
    if name == "Athena":
        from athena_lab.api import Athena

        return Athena
    raise AttributeError(name)


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    # Jupyter imports the named module only when the server loads the extension.
    return [{"module": "athena_lab.server.extension"}]


def load_ipython_extension(ipython) -> None:  # noqa: ANN001 - IPython's hook signature
    """`%load_ext athena_lab`: the %athena magic and rich display of results."""
    from athena_lab.magic import load

    load(ipython)
