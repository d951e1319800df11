"""athena_lab: a local-first research assistant for Jupyter.

``from athena_lab import Athena`` is the Python API; ``athena`` is the command line.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["Athena", "__version__"]


def __getattr__(name: str):
    # Imported lazily so `import athena_lab` (the server extension, the magic) stays cheap.
    if name == "Athena":
        from athena_lab.workspace import Athena

        return Athena
    raise AttributeError(name)
