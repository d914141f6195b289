"""The client's address, the one rule every throttle (the login limits too) reads it by."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The client's IP as the throttles count it: REMOTE_ADDR, or the address TRUSTED_PROXY_COUNT
    proxies in front of us saw (`as_counted`).

    Each proxy appends the address it received from, so with n trusted proxies the client is the
    n-th entry from the right of X-Forwarded-For; entries further left are written by the client.
    """
    hops = settings.TRUSTED_PROXY_COUNT
    if hops > 0:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [part for part in forwarded if part]
        if len(forwarded) >= hops:
            return as_counted(str(forwarded[-hops]))
    return as_counted(str(request.META.get("REMOTE_ADDR", "")))


def as_counted(address: str) -> str:
    """An IPv6 address as its /64 network: a home or a phone is given a whole /64 and can send from
    any of its addresses, so counting each address on its own would give it countless budgets. An
    IPv4 address written as IPv6 (::ffff:192.0.2.1) is that IPv4 address; anything else as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)
