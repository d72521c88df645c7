"""This machine's addresses on the local network, for URLs a TV or a phone can open.

``ifaddr`` lists the interfaces and their addresses on Linux, macOS and Windows
(no traffic, no ioctl by hand); the resolver's addresses for the host name are
added after them, in case an interface was missed.
"""

from __future__ import annotations

import socket

import ifaddr


def interface_addresses() -> list[str]:
    """IPv4 addresses of this machine's network interfaces, loopback included."""
    found: list[str] = []
    try:
        for adapter in ifaddr.get_adapters():
            for ip in adapter.ips:
                if ip.is_IPv4 and isinstance(ip.ip, str):
                    found.append(ip.ip)
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    return list(dict.fromkeys(found))


def lan_addresses() -> list[str]:
    """The non-loopback IPv4 addresses (what another device on the network types)."""
    return [a for a in interface_addresses() if not a.startswith("127.")]


def reachable_addresses(host: str) -> list[str]:
    """The addresses a bind to ``host`` answers on, as a person would type them.

    For a wildcard bind: this machine's non-loopback IPv4 addresses, then its
    name, then ``127.0.0.1``.
    """
    if host not in ("0.0.0.0", "::", ""):
        return [f"[{host}]" if ":" in host else host]
    found = lan_addresses()
    name = socket.gethostname()
    return [*found, name, "127.0.0.1"] if name else [*found, "127.0.0.1"]
