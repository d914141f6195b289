"""The device cookie: one small signed cookie per browser, whatever the number of games it scores.

A browser is known by a random 256-bit id in the signed, HttpOnly cookie `device`; the database
keeps only the id's SHA-256 (`Device`) and, per game, whether this device may score it
(`DeviceGame`), so the cookie stays small however many games the browser scores (docs/security.md,
"Edit rights of a device").
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime
from functools import cached_property
from typing import cast

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ImproperlyConfigured
from django.core.signing import BadSignature
from django.db.models import (
    QuerySet,
)
from django.http import HttpRequest, HttpResponseBase

from clubs.permissions import can_score_for_club
from scoring.handover import token_hash
from scoring.models import Device, DeviceGame, Game

DEVICE_COOKIE = "device"
DEVICE_SALT = "scoring.devices.device-id"


class BrowserDevice:
    """This browser's device during one request, as `request.device` (set by `DeviceMiddleware`
    before the view, as Django's AuthenticationMiddleware sets `request.user`): the id its cookie
    carries, its record read at most once, the id of a device made during the request (whose
    cookie the middleware then sends), its rights to the games read so far (game pk ->
    (active, counts) or None) and whether it may edit each game, as the view's check found it
    (game pk -> bool), so a view that only reads asks no more."""

    def __init__(self, request: HttpRequest) -> None:
        self.request = request
        self.new_id: str | None = None
        self.rights: dict[int, tuple[bool, bool] | None] = {}
        self.editable: dict[int, bool] = {}

    @property
    def id(self) -> str | None:
        """The device id: one made during this request, else the cookie's (None: no cookie, or
        one this site did not sign)."""
        if self.new_id:
            return self.new_id
        try:
            value = self.request.get_signed_cookie(DEVICE_COOKIE, default=None, salt=DEVICE_SALT)
        except BadSignature:
            return None
        return value or None

    @cached_property
    def record(self) -> Device | None:
        device_id = self.id
        return Device.objects.filter(id_hash=token_hash(device_id)).first() if device_id else None


class DeviceRequest(HttpRequest):
    """A request once `attach_device` has run: it carries its `BrowserDevice` (HttpRequest declares
    no such field; Django's stubs declare `request.user` the same way)."""

    device: BrowserDevice


def attach_device(request: HttpRequest) -> BrowserDevice:
    """Set `request.device` (done by `DeviceMiddleware`; a request built by hand calls it too)."""
    device = BrowserDevice(request)
    cast(DeviceRequest, request).device = device  # from here on, this request is a DeviceRequest
    return device


def browser_device(request: HttpRequest) -> BrowserDevice:
    """`request.device`, which `DeviceMiddleware` sets on every request."""
    device = getattr(request, "device", None)
    if not isinstance(device, BrowserDevice):
        raise ImproperlyConfigured("request.device is set by scoring.devices.DeviceMiddleware")
    return device


def device_of(request: HttpRequest) -> Device | None:
    """The device record of this browser, or None (no cookie, or one this site did not sign)."""
    return browser_device(request).record


def ensure_device(request: HttpRequest) -> Device:
    """This browser's device record, made now if it has none; `DeviceMiddleware` (or
    `remember_device`) then sends the new cookie with the response."""
    state = browser_device(request)
    device = state.record
    if device is None:
        device_id = secrets.token_urlsafe(32)
        device = Device.objects.create(id_hash=token_hash(device_id))
        state.new_id = device_id
        state.record = device
    return device


def remember_device(request: HttpRequest, response: HttpResponseBase) -> None:
    """Send the cookie of a device made during this request (idempotent)."""
    device_id = browser_device(request).new_id
    if device_id and DEVICE_COOKIE not in response.cookies:
        response.set_signed_cookie(
            DEVICE_COOKIE,
            device_id,
            salt=DEVICE_SALT,
            max_age=settings.EDIT_TOKEN_MAX_AGE_DAYS * 24 * 3600,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )


def holder_of(request: HttpRequest) -> AbstractBaseUser | None:
    """The account a right given to this browser now is held for: the signed-in user, else None."""
    user = getattr(request, "user", None)
    return user if isinstance(user, AbstractBaseUser) and user.is_authenticated else None


def grant_game(request: HttpRequest, game: Game) -> None:
    """Give this browser the right to score the game it just started, held for the signed-in
    account if any. Handing the scoring on (every other device loses it) is
    `scoring.handover.hand_scoring_to`."""
    device = ensure_device(request)
    DeviceGame.objects.update_or_create(
        device=device, game=game, defaults={"active": True, "holder": holder_of(request)}
    )
    forget_rights(request)


def forget_rights(request: HttpRequest) -> None:
    """This browser's rights are read again from the database at their next use in this request
    (they are kept per request once read): after a change to them, or under a lock taken since."""
    browser = browser_device(request)
    browser.rights.clear()
    browser.editable.clear()


def holder_scores(holder: AbstractBaseUser | None, club_id: int | None) -> bool:
    """The one rule for whom a phone's right to score a game counts: always in a quick game (no
    club) and for a phone nobody is signed in on (no holder); in a club game held for an account,
    only while that account scores for the club (a superuser, an organiser or a scorer of it:
    `clubs.permissions.can_score_for_club`). A scorer taken off the club keeps the right on record,
    but it no longer counts: the phone watches read-only."""
    return club_id is None or holder is None or can_score_for_club(holder, club_id)


def _right_row(device_hash: str, game: Game) -> tuple[bool, bool] | None:
    """(active, counts) of a device's right to the game, or None: one plain query (the right with
    its holder's superuser flag), and a second only for an active right in a club game held for
    an account that is no superuser (its scoring role, `holder_scores`). An inactive right counts
    for nothing, so its holder is not asked."""
    rights = (
        DeviceGame.objects.filter(device__id_hash=device_hash, game=game)
        .select_related("holder")
        .only("active", "holder__is_superuser")
    )
    for right in rights[:1]:
        if not right.active:
            return False, True
        return True, holder_scores(right.holder, game.club_id)
    return None


def _rights_row(request: HttpRequest, game: Game) -> tuple[bool, bool] | None:
    """(active, counts) of this browser's right to the game, or None; read once per request and
    game, however often it is asked. `counts` is False for a right held for an account that no
    longer scores for the game's club (removed, or made a member)."""
    state = browser_device(request)
    cache = state.rights
    if game.pk not in cache:
        device_id = state.id
        cache[game.pk] = _right_row(token_hash(device_id), game) if device_id else None
    return cache[game.pk]


def _right(request: HttpRequest, game: Game) -> bool | None:
    """This browser's right to the game: True (scores it), False (scored it before a handover or
    take-over, or its holder no longer scores for the club: it watches read-only), None (never)."""
    row = _rights_row(request, game)
    if row is None:
        return None
    active, counts = row
    return active and counts


def may_hold(request: HttpRequest, game: Game) -> bool:
    """Whether a right given to this browser now would count (`holder_scores` for the account
    signed in on it, if any)."""
    return holder_scores(holder_of(request), game.club_id)


def right_lapsed(request: HttpRequest, game: Game) -> bool:
    """Whether this browser holds the game's scoring for an account that no longer scores for
    the game's club: the phone keeps watching, read-only, and is told why."""
    row = _rights_row(request, game)
    return row is not None and row[0] and not row[1]


def game_with_right(request: HttpRequest, code: str) -> Game | None:
    """The game with this code (None: there is none), with this browser's right to it read at once
    and kept for the request, so `holds_game`, `held_game_once` and `right_lapsed` ask no more."""
    try:
        game = Game.objects.get(code=code)
    except Game.DoesNotExist:
        return None
    _rights_row(request, game)
    return game


def end_rights(*, games: QuerySet[Game]) -> None:
    """Every phone's right to these games ends: the phones follow them read-only, and an open
    handover link moves nothing any more."""
    games.update(handover_token_hash="", handover_expires_at=None)
    DeviceGame.objects.filter(game__in=games, active=True).update(active=False)


def holds_game(request: HttpRequest, game: Game) -> bool:
    """Whether this browser may score the game (its device holds the active right)."""
    return _right(request, game) is True


def held_game_once(request: HttpRequest, game: Game) -> bool:
    """Whether this browser scored the game before it was handed or taken over: it keeps
    watching, read-only."""
    return _right(request, game) is False


def scoring_moved_at(game: Game) -> datetime | None:
    """When the phone that scores the game now got the scoring (a take-over or a handover): what
    the phone that lost it is told. None when no phone holds it."""
    return (
        DeviceGame.objects.filter(game=game, active=True)
        .order_by("-granted_at")
        .values_list("granted_at", flat=True)
        .first()
    )


def held_game_ids(request: HttpRequest, *, limit: int = 200) -> list[int]:
    """The games this browser may score, most recent first (for the games list): a right whose
    holder no longer scores for the game's club is left out (`holder_scores`), as `holds_game`
    leaves it out. Each holder's role is asked once per club."""
    device = device_of(request)
    if device is None:
        return []
    rights = (
        DeviceGame.objects.filter(device=device, active=True)
        .select_related("holder", "game")
        .only("game_id", "game__club_id", "holder__is_superuser")
        .order_by("-granted_at")
    )
    counted: dict[tuple[int | None, int | None], bool] = {}
    held: list[int] = []
    for right in rights.iterator(chunk_size=limit):
        key = (right.holder_id, right.game.club_id)
        if key not in counted:
            counted[key] = holder_scores(right.holder, right.game.club_id)
        if counted[key]:
            held.append(right.game_id)
            if len(held) == limit:
                break
    return held


class DeviceMiddleware:
    """Sets `request.device` (a `BrowserDevice`) and sends the device cookie when a view made a
    device."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        attach_device(request)
        response = self.get_response(request)
        remember_device(request, response)
        return response


__all__ = [
    "DEVICE_COOKIE",
    "DEVICE_SALT",
    "BrowserDevice",
    "DeviceMiddleware",
    "DeviceRequest",
    "attach_device",
    "browser_device",
    "device_of",
    "ensure_device",
    "game_with_right",
    "grant_game",
    "held_game_ids",
    "held_game_once",
    "holder_of",
    "holder_scores",
    "holds_game",
    "may_hold",
    "remember_device",
    "right_lapsed",
]
