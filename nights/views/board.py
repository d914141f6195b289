"""The board on the wall: a night's standings, the tables still playing and the next round's plan
in big type for a TV or a projector, for the club and from a published season's results link
(each with the same access as the night's standings). It polls a small fragment that answers 304
while nothing changed."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import quote_etag
from django.utils.translation import get_language
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_safe
from django.views.decorators.vary import vary_on_cookie

from nights import selectors
from nights.models import Night
from nights.views.access import night_or_404, published_night, view_night


def _etag(night: Night, where: str) -> str:
    return f"board-{selectors.board_version(night)}-{where}-{get_language()}"


def _club_etag(request: HttpRequest, night_id: int) -> str:
    return _etag(night_or_404(night_id), "club")


def _published_etag(request: HttpRequest, publish_code: str, night_id: int) -> str:
    return _etag(published_night(publish_code, night_id), "share")


def _board(request: HttpRequest, night: Night, *, live_url: str, etag: str = "") -> HttpResponse:
    """The whole page (it starts polling from `etag`), or, without an ETag, the poll's fragment."""
    context = {
        "night": night,
        "club": night.club,
        "board": selectors.night_board(night),
        "live_url": live_url,
        "etag": quote_etag(etag) if etag else "",
    }
    return render(request, "nights/board.html" if etag else "nights/board.html#board-slides", context)


@require_safe
@view_night
def board(request: HttpRequest, night_id: int) -> HttpResponse:
    night = night_or_404(night_id)
    live = reverse("nights:board_live", args=[night.pk])
    return _board(request, night, live_url=live, etag=_etag(night, "club"))


@require_safe
@cache_control(private=True)
@vary_on_cookie
@view_night
@condition(etag_func=_club_etag)
def board_live(request: HttpRequest, night_id: int) -> HttpResponse:
    """What the board polls: 304 for its ETag while nothing changed, the board's pages otherwise."""
    night = night_or_404(night_id)
    live = reverse("nights:board_live", args=[night.pk])
    return _board(request, night, live_url=live)


@require_safe
def published_board(request: HttpRequest, publish_code: str, night_id: int) -> HttpResponse:
    night = published_night(publish_code, night_id)
    live = reverse("nights:published_board_live", args=[publish_code, night.pk])
    return _board(request, night, live_url=live, etag=_etag(night, "share"))


@require_safe
@condition(etag_func=_published_etag)
def published_board_live(request: HttpRequest, publish_code: str, night_id: int) -> HttpResponse:
    night = published_night(publish_code, night_id)
    live = reverse("nights:published_board_live", args=[publish_code, night.pk])
    return _board(request, night, live_url=live)
