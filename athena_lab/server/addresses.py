"""Client addresses and Host names as the standalone server's front door reads them.

The rate limits key a client by its address (IPv6 by its /64); behind a reverse proxy the
address is the one the proxy added to ``X-Forwarded-For``; a ``Host`` header is reduced to
its name and checked against loopback names and addresses (middleware.py, cli_server.py).
"""

from __future__ import annotations

import ipaddress
from typing import Any

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARD_ADDRESSES = frozenset({"0.0.0.0", "::", ""})


def client_key(address: str | None) -> str:
    """The rate limits' key for a client address: IPv4 as it is, IPv6 by its /64 (one host
    gets a whole /64 and can pick any of 2^64 addresses in it)."""
    if not address:
        return "?"
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def client_from_proxy(headers: Any, peer: str, protocol: str) -> tuple[str, str]:
    """(client address, scheme) of a request a reverse proxy passed on (``server.behind_proxy``).

    The address is the **last** ``X-Forwarded-For`` entry: the one the proxy in front added
    (nginx's ``$proxy_add_x_forwarded_for`` and Caddy append the address they were connected
    from; anything before it came from the client and may be made up). ``X-Real-Ip`` is
    ignored: Caddy passes a client's own on unchanged, so trusting it (as tornado's
    ``xheaders`` does, before X-Forwarded-For) let a client name any address and get a
    fresh rate-limit budget each time. The scheme is the last ``X-Forwarded-Proto`` entry.
    Without the headers (a request that did not come through the proxy) the peer stands."""
    address = peer
    forwarded = headers.get("X-Forwarded-For", "")
    if forwarded:
        last = forwarded.split(",")[-1].strip()
        if is_ip_address(last):
            address = last
    proto = headers.get("X-Forwarded-Proto", "").split(",")[-1].strip().lower()
    return address, proto if proto in ("http", "https") else protocol


def host_name(host: str) -> str:
    """The name part of a Host header: ``[::1]:4317`` → ``::1``, ``Example.org:80`` → ``example.org``."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    name, colon, port = host.rpartition(":")
    return name if colon and port.isdigit() and ":" not in name else host


def is_ip_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def is_loopback(name: str) -> bool:
    """True for loopback names and addresses (localhost, 127.0.0.0/8, ::1)."""
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False
