"""The login limits of every login form: the site's, the admin's, and the password change's old
password (`accounts.forms.LimitedPasswordChangeForm`).

LOGIN_FAILURES_PER_USERNAME per username and LOGIN_FAILURES_PER_ADDRESS per client address, each
counted on its own by the throttles' counter (`throttles.counter`, in the database, so every app
server and worker sees the same counts). A failure counts for LOGIN_FAILURE_WINDOW_SECONDS after it.

`LoginLimitsBackend`, first in AUTHENTICATION_BACKENDS, counts each attempt before the next
backend checks its password, in one transaction with the check of the limits (`reserve`), so
attempts sent together are counted one after the other and no more of them reach the password
check than the limits allow. Once a limit is reached it refuses the attempt unchecked and uncounted
(PermissionDenied stops Django's `authenticate`), marking the request's `LoginAttempt`, and the
log-in views, the site's and the admin's (`LimitedAdminSite`), answer with the log-in page, status
429 (`answer_refusals`). A login takes its attempt back (`forget_failures`): only failures count.
The attempt is one typed object on the request (`request.login_attempt`, `attempt_of`), as the
browser's device is (`scoring.devices`).

The username is counted as Django's log-in form reads it: NFKC-normalised (as `UsernameField`
does) and case-folded, so "ＡＬＩＣＥ", "𝐚𝐥𝐢𝐜𝐞" and "alice" share one budget.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from django.conf import settings
from django.contrib import admin
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.signals import user_logged_in
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers
from django.utils.http import url_has_allowed_host_and_scheme

from throttles import counter
from throttles.address import client_address


@dataclass
class LoginAttempt:
    """This request's login attempt, as `request.login_attempt` (read it with `attempt_of`): when
    it was counted (`reserve`; Unix seconds, as counted), so that a right password gives it back
    (`give_back`), and whether the limits refused it (`LoginLimitsBackend`, read by
    `answer_refusals`)."""

    counted_at: float | None = None
    refused: bool = False


class LoginRequest(HttpRequest):
    """A request once `attempt_of` has run: it carries its `LoginAttempt` (HttpRequest declares no
    such field; `scoring.devices.DeviceRequest` declares `request.device` the same way)."""

    login_attempt: LoginAttempt


def attempt_of(request: HttpRequest) -> LoginAttempt:
    """`request.login_attempt`, set here on first use: the backend that counts it, the view that
    answers its refusal and the receiver that gives it back share the one object."""
    attempt = getattr(request, "login_attempt", None)
    if isinstance(attempt, LoginAttempt):
        return attempt
    attempt = LoginAttempt()
    cast(LoginRequest, request).login_attempt = attempt  # from here on, a LoginRequest
    return attempt


def normalised_username(name: str) -> str:
    """The username as the login budget counts it: NFKC (Django's UsernameField) then casefold."""
    return unicodedata.normalize("NFKC", name).strip().casefold()


def reserve(request: HttpRequest, username: str) -> bool:
    """Count a login attempt before its password is checked: False, with nothing counted, when
    the username or the address has had its limit of failures in the window. The check and the
    count hold the counts' rows together (`throttles.counter.hold`), so attempts sent together
    are counted one after the other."""
    limits = {
        "username": (normalised_username(username), int(settings.LOGIN_FAILURES_PER_USERNAME)),
        "address": (client_address(request), int(settings.LOGIN_FAILURES_PER_ADDRESS)),
    }
    with transaction.atomic():
        held = counter.hold(kind="login", limits=limits, window=settings.LOGIN_FAILURE_WINDOW_SECONDS)
        if held.full():
            return False
        held.add()
    attempt_of(request).counted_at = held.at.timestamp()
    return True


def give_back(request: HttpRequest, values: dict[str, str]) -> None:
    """Uncount the request's attempt (`reserve`) against `values` (name -> value): it was right."""
    attempt = attempt_of(request)
    at, attempt.counted_at = attempt.counted_at, None
    if at is not None:
        counter.take_back(kind="login", values=values, at=at)


class LoginLimitsBackend:
    """First in AUTHENTICATION_BACKENDS: counts the attempt before the next backend checks its
    password, or refuses it unchecked when a limit is reached (`reserve`). It never logs anyone in,
    and has no `get_user` (so `force_login` and the session pass it by) nor permissions.
    Every login form passes the request; a call without one (the test client's `login`, a shell)
    is not a login over the network and is not limited."""

    def authenticate(self, request: HttpRequest | None, username: str | None = None, **kwargs: Any) -> None:
        if request is not None and not reserve(request, username or ""):
            attempt_of(request).refused = True
            raise PermissionDenied
        return None


@receiver(user_logged_in)
def forget_failures(sender: Any, request: HttpRequest | None, user: AbstractBaseUser, **kwargs: Any) -> None:
    """On Django's `user_logged_in`: clear the username's count; the address keeps its count (else
    logging in to one's own account would reset the count of guesses at others), but for this
    attempt, counted before its password was checked."""
    counter.forget(kind="login", values={"username": normalised_username(user.get_username())})
    if request is not None:
        give_back(request, {"address": client_address(request)})


def locked_out(request: HttpRequest) -> HttpResponse:
    """The log-in page again, status 429, with the "too many failed attempts" message."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    form = AuthenticationForm(request, initial={"username": request.POST.get("username", "")})
    response = render(
        request, "registration/login.html", {"form": form, "blocked": True, "next": next_url}, status=429
    )
    add_never_cache_headers(response)
    return response


View = Callable[..., HttpResponse]


def answer_refusals(view: View) -> View:
    """A login view whose attempt the limits refused answers with `locked_out` instead (the
    site's log-in view and the admin's)."""

    @functools.wraps(view)
    def answered(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        return locked_out(request) if attempt_of(request).refused else response

    return answered


class LimitedAdminSite(admin.AdminSite):
    """Django's admin site (`admin.site`, pinochle_site/apps.py): the operator's tool, for active
    superusers only (every other account, staff included, gets its log-in page and no data; club
    organisers use the club pages), whose log-in answers like the site's once the login limits
    refuse an attempt."""

    def has_permission(self, request: HttpRequest) -> bool:
        user = request.user
        return bool(user.is_active and user.is_superuser)

    def login(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        return answer_refusals(super().login)(request, extra_context)
