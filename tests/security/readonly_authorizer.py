"""A jupyter_server Authorizer for a read-only user: logged in, may read, may not write.

Loaded by the Jupyter server the tests start (``--ServerApp.authorizer_class=
readonly_authorizer.ReadOnlyAuthorizer``, with this folder on PYTHONPATH)."""

from __future__ import annotations

from typing import Any

from jupyter_server.auth import Authorizer


class ReadOnlyAuthorizer(Authorizer):
    def is_authorized(self, handler: Any, user: Any, action: str, resource: str) -> bool:
        return action == "read"
