"""A night's standings: for the club, live while it is played, and published for everyone."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_safe
from django.views.decorators.vary import vary_on_cookie

from clubs.permissions import can_manage_club
from nights.models import Night
from nights.prizes import PlayerCard, night_results, player_card
from nights.standings import version
from nights.views.access import night_or_404, published_night, view_night

# --- standings --------------------------------------------------------------------------------


def _standings_context(
    request: HttpRequest, night: Night, *, live_url: str, publish_code: str = ""
) -> dict[str, Any]:
    results = night_results(night)
    return {
        "published": bool(publish_code),
        "publish_code": publish_code,
        "night": night,
        "club": night.club,
        "standings": results.standings,
        "results": results,
        "version": version(night),
        "live_url": live_url,
        "polling": not night.is_finished,
    }


def _standings_etag(request: HttpRequest, night_id: int) -> str:
    return f"{version(night_or_404(night_id))}-{get_language()}"


@require_safe
@view_night
def standings(request: HttpRequest, night_id: int) -> HttpResponse:
    night = night_or_404(night_id)
    live = reverse("nights:standings_live", args=[night.pk])
    context = {
        **_standings_context(request, night, live_url=live),
        "manager": can_manage_club(request.user, night.club_id),
    }
    return render(request, "nights/standings.html", context)


def _live(request: HttpRequest, night: Night, live_url: str, publish_code: str = "") -> HttpResponse:
    if request.GET.get("v") == version(night):
        return HttpResponse(status=204)
    context = _standings_context(request, night, live_url=live_url, publish_code=publish_code)
    html = render_to_string("nights/standings.html#night-standings", context, request)
    return HttpResponse(html, status=286 if night.is_finished else 200)


@require_safe
@cache_control(private=True)
@vary_on_cookie
@view_night
@condition(etag_func=_standings_etag)
def standings_live(request: HttpRequest, night_id: int) -> HttpResponse:
    """What the standings page polls: 204 (or 304 for its ETag) while nothing changed."""
    night = night_or_404(night_id)
    return _live(request, night, reverse("nights:standings_live", args=[night.pk]))


def _published_etag(request: HttpRequest, publish_code: str, night_id: int) -> str:
    return f"{version(published_night(publish_code, night_id))}-share-{get_language()}"


@require_safe
def published_standings(request: HttpRequest, publish_code: str, night_id: int) -> HttpResponse:
    """A published season's night: its standings for anyone with the season's results link."""
    night = published_night(publish_code, night_id)
    live = reverse("nights:published_live", args=[publish_code, night.pk])
    context = _standings_context(request, night, live_url=live, publish_code=publish_code)
    return render(request, "nights/standings.html", context)


@require_safe
@condition(etag_func=_published_etag)
def published_live(request: HttpRequest, publish_code: str, night_id: int) -> HttpResponse:
    night = published_night(publish_code, night_id)
    return _live(
        request, night, reverse("nights:published_live", args=[publish_code, night.pk]), publish_code
    )


# --- the night's results and each player's card, at permanent links ---------------------------


@require_safe
@view_night
def results(request: HttpRequest, night_id: int) -> HttpResponse:
    """The night's results: final standings, prizes, groups and a link to each player's card."""
    night = night_or_404(night_id)
    context = {"night": night, "club": night.club, "results": night_results(night)}
    return render(request, "nights/results.html", context)


@require_safe
def published_results(request: HttpRequest, publish_code: str, night_id: int) -> HttpResponse:
    """The night's results for anyone with the season's results link."""
    night = published_night(publish_code, night_id)
    context = {
        "night": night,
        "club": night.club,
        "results": night_results(night),
        "published": True,
        "publish_code": publish_code,
    }
    return render(request, "nights/results.html", context)


def _card(night: Night, player_id: int) -> PlayerCard:
    card = player_card(night, player_id)
    if card is None:
        raise Http404("no such player at this night")
    return card


@require_safe
@view_night
def card(request: HttpRequest, night_id: int, player_id: int) -> HttpResponse:
    """A player's night on one printable page: tables, partners, opponents, scores, prizes."""
    night = night_or_404(night_id)
    context = {"night": night, "club": night.club, "card": _card(night, player_id)}
    return render(request, "nights/player_card.html", context)


@require_safe
def published_card(request: HttpRequest, publish_code: str, night_id: int, player_id: int) -> HttpResponse:
    night = published_night(publish_code, night_id)
    context = {
        "night": night,
        "club": night.club,
        "card": _card(night, player_id),
        "published": True,
        "publish_code": publish_code,
    }
    return render(request, "nights/player_card.html", context)
