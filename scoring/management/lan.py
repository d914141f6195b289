"""This machine's private (LAN) addresses: what phones on the same Wi-Fi use to reach `make run
HOST=0.0.0.0` in development. No packet is sent: a UDP socket's connect only picks a route."""

from __future__ import annotations

import contextlib
import ipaddress
import socket


def private_addresses() -> list[str]:
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))  # any private address; nothing is sent
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    with contextlib.suppress(OSError):
        found.extend(socket.gethostbyname_ex(socket.gethostname())[2])
    seen: list[str] = []
    for address in found:
        ip = ipaddress.ip_address(address)
        if ip.is_private and not ip.is_loopback and address not in seen:
            seen.append(address)
    return seen
