"""The client's address, the one rule every throttle (and django-axes) reads it by."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The client's IP: REMOTE_ADDR, or the address TRUSTED_PROXY_COUNT proxies in front of us saw.

    Each proxy appends the address it received from, so with n trusted proxies the client is the
    n-th entry from the right of X-Forwarded-For; entries further left are written by the client.
    """
    hops = settings.TRUSTED_PROXY_COUNT
    if hops > 0:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [part for part in forwarded if part]
        if len(forwarded) >= hops:
            return str(forwarded[-hops])
    return str(request.META.get("REMOTE_ADDR", ""))
