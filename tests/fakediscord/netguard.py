"""Refuses any socket connection that would leave the machine during a test.

The fake runs on 127.0.0.1 and the bot must never reach the real Discord (or anything
else). Patching `socket.socket.connect` catches asyncio and aiohttp too, because they
connect through ordinary socket objects.
"""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import socket
from typing import Any, Callable, Iterator


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


@contextlib.contextmanager
def loopback_only(on_blocked: Callable[[str], None] | None = None) -> Iterator[None]:
    """Within the block, connecting a TCP/UDP socket to a non-loopback address raises OSError."""
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex

    def check(sock: socket.socket, address: Any) -> None:
        if sock.family in (socket.AF_INET, socket.AF_INET6) and isinstance(address, tuple):
            host = str(address[0])
            if not is_loopback(host):
                if on_blocked is not None:
                    on_blocked(host)
                raise OSError(errno.ENETUNREACH, f"fakediscord: connection to {host} blocked; tests stay on 127.0.0.1")

    def connect(sock: socket.socket, address: Any) -> None:
        check(sock, address)
        return real_connect(sock, address)

    def connect_ex(sock: socket.socket, address: Any) -> int:
        check(sock, address)
        return real_connect_ex(sock, address)

    socket.socket.connect = connect  # type: ignore[method-assign]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]
    try:
        yield
    finally:
        socket.socket.connect = real_connect  # type: ignore[method-assign]
        socket.socket.connect_ex = real_connect_ex  # type: ignore[method-assign]
