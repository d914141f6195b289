"""The league's record pages: the clubs, a club, a season's standings and its published results,
a player and merging two players."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Case, F, Prefetch, When
from django.forms import Form, ModelChoiceField
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs import seasons as season_services
from clubs import services as club_services
from clubs.models import Club, Player, Season
from clubs.permissions import (
    can_manage_club,
    deny,
    may_change_player,
    organised_club_ids,
    require_club_role,
    season_club,
    viewable_club_ids,
)
from league import standings
from league.forms.files import ExportForm
from league.forms.records import MergeForm
from ratings import selectors as rating_selectors
from scoring.models import GameSeat, new_game_code
from scoring.permissions import readable_games
from scoring.stats import BAND_RULE

_CLOCKWISE_SEATS = Prefetch(
    "seat_rows",
    queryset=GameSeat.objects.order_by(
        Case(When(seat="N", then=0), When(seat="E", then=1), When(seat="S", then=2), default=3)
    ),
)


#: A club's seasons, the newest first; two starting on the same day in the order they were made.
_SEASONS_NEWEST_FIRST = Season.objects.order_by("-starts_on", "-pk")


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    clubs = Club.objects.order_by("name").prefetch_related(
        Prefetch("seasons", queryset=_SEASONS_NEWEST_FIRST)
    )
    viewable = viewable_club_ids(request.user)
    if viewable is not None:
        clubs = clubs.filter(pk__in=viewable)
    casual = (
        readable_games(request)
        .filter(club=None)
        .prefetch_related(_CLOCKWISE_SEATS)
        .order_by("-created_at", "-pk")[:20]
    )
    export_form = _only_clubs(ExportForm(), viewable)
    rated = None
    if viewable is not None:  # the players of the viewer's clubs whose every rated game they may read
        members = Player.objects.filter(memberships__club__in=viewable)
        rated = rating_selectors.all_time_readable(members, readable_games(request)).values("pk")
    board = rating_selectors.leaderboard(rating_selectors.ALL, players=rated, limit=30)
    return render(
        request,
        "league/index.html",
        {"clubs": clubs, "casual": casual, "export_form": export_form, "board": board},
    )


def _only_clubs(form: Form, club_ids: set[int] | None) -> Form:
    """Offer only these clubs (None: all) and their seasons in the form's choices."""
    if club_ids is not None:
        for name, lookup in (("club", "pk__in"), ("season", "club__in")):
            field = form.fields[name]
            assert isinstance(field, ModelChoiceField) and field.queryset is not None
            field.queryset = field.queryset.filter(**{lookup: club_ids})
    return form


@require_GET
@require_club_role("view")
def club(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=club_id)
    # Sorted here, accents aside (Čeněk among the C's): a database sorts by its own collation.
    roster = sorted(
        Player.objects.filter(memberships__club=club),
        key=lambda p: (standings.name_key(p.name), p.name, p.pk),
    )
    games = (
        club.games.select_related("season")
        .prefetch_related("seat_rows")
        .order_by(F("played_on").desc(nulls_last=True), "-created_at", "-pk")[:20]
    )
    return render(
        request,
        "league/club.html",
        {
            "club": club,
            "seasons": club.seasons.order_by("-starts_on", "-pk"),
            "roster": roster,
            "games": games,
            "organiser": can_manage_club(request.user, club.pk),
            "board": rating_selectors.leaderboard(rating_selectors.club_scope(club.pk)),
            "pairs": rating_selectors.partnership_board(rating_selectors.club_scope(club.pk)),
        },
    )


@require_GET
@require_club_role("view", club_of=season_club)
def season(request: HttpRequest, season_id: int) -> HttpResponse:
    season = get_object_or_404(Season.objects.select_related("club"), pk=season_id)
    context = {
        **_season_tables(request, season, link_players=True),
        "organiser": can_manage_club(request.user, season.club_id),
    }
    if season.publish_code:
        context["published_url"] = request.build_absolute_uri(
            reverse("league:results", args=[season.publish_code])
        )
    return render(request, "league/season.html", context)


@require_GET
def season_results(request: HttpRequest, publish_code: str) -> HttpResponse:
    """A season's published results: anyone with the link reads the standings, nothing more."""
    season = get_object_or_404(Season.objects.select_related("club"), publish_code=publish_code)
    context = {**_season_tables(request, season, link_players=False), "published": True}
    return render(request, "league/season.html", context)


@require_POST
@require_club_role("manage", club_of=season_club)
def publish_season(request: HttpRequest, season_id: int) -> HttpResponse:
    """Organisers turn the published results page on (a new unguessable link) or off."""
    season = get_object_or_404(Season, pk=season_id)
    if request.POST.get("publish") == "on":
        season_services.set_publish_code(season=season, publish_code=new_game_code() + new_game_code())
        messages.success(
            request, _("The season's results are published: anyone with the link can read them.")
        )
    else:
        season_services.set_publish_code(season=season, publish_code=None)
        messages.success(request, _("The season's results are no longer published; the old link is dead."))
    return redirect("league:season", season_id=season.pk)


def _season_tables(request: HttpRequest, season: Season, *, link_players: bool) -> dict[str, object]:
    sort = request.GET.get("sort", "rank")
    if sort not in standings.COLUMNS:
        sort = "rank"
    descending = request.GET.get("dir", "desc") != "asc"
    if sort in ("name", "losses", "points_against", "sets") and "dir" not in request.GET:
        descending = False  # the natural order for these: A first, fewest first
    tables = standings.season_standings(season, sort, descending)
    return {
        "season": season,
        "player_rows": _rows(tables["players"], link_players=link_players),
        "pair_rows": _rows(tables["partnerships"], link_players=link_players),
        "headers": _headers(sort, descending),
        "descending": descending,
        "ranking_rule": standings.RANKING_RULE,
        "link_players": link_players,
        "board": rating_selectors.leaderboard(
            rating_selectors.club_scope(season.club_id),
            players=GameSeat.objects.filter(game__season=season).values("player_id"),
        ),
    }


def _headers(sort: str, descending: bool) -> list[dict[str, object]]:
    """Column headings as plain sort links: a second tap on the sorted column flips the order."""
    headers = []
    for key, (label, _value) in standings.COLUMNS.items():
        current = key == sort
        flip = "asc" if descending else "desc"
        headers.append(
            {
                "key": key,
                "label": label,
                "current": current,
                "query": f"?sort={key}" + (f"&dir={flip}" if current else ""),
                "aria": ("descending" if descending else "ascending") if current else None,
            }
        )
    return headers


def _rows(lines: list[standings.Line], *, link_players: bool = True) -> list[dict[str, object]]:
    """Table rows with their figures as ready HTML cells.

    A season can hold hundreds of partnerships; rendering ~15 figures each through template
    nodes (with number localisation per value) cost 10x the SQL, so the cells are built here.
    """
    keys = list(standings.COLUMNS)[2:]
    urls: dict[int, str | None] = {}
    rows = []
    for line in lines:
        people = []
        for pid, name in zip(line.player_ids, line.names, strict=True):
            if pid not in urls:
                urls[pid] = reverse("league:player", args=[pid]) if link_players else None
            people.append((urls[pid], name))
        cells = "".join(f'<td class="num">{escape(standings.cell(key, line))}</td>' for key in keys)
        rows.append(
            {"rank": line.rank, "people": people, "cells": mark_safe(cells)}
        )  # each cell escaped above
    return rows


@require_GET
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.prefetch_related("clubs"), pk=player_id)
    club_ids = {club.pk for club in player.clubs.all()}
    viewable = viewable_club_ids(request.user)
    if viewable is not None and not club_ids & viewable:
        return deny(request)
    # Only what the viewer may read: the games of their clubs (and quick games they may open),
    # every figure computed from those; the clubs listed, the ones they read.
    games = None if viewable is None else readable_games(request)
    context = {
        "player": player,
        "clubs": [club for club in player.clubs.all() if viewable is None or club.pk in viewable],
        "f": standings.player_figures(player, games=games),
        "band_rule": BAND_RULE,
        "r": rating_selectors.player_ratings(player, games=games, club_ids=viewable),
    }
    if may_change_player(request.user, player):
        context["merge_form"] = MergeForm(keep=player, clubs=organised_club_ids(request.user))
    return render(request, "league/player.html", context)


@require_POST
def merge_player(request: HttpRequest, player_id: int) -> HttpResponse:
    keep = get_object_or_404(Player, pk=player_id)
    if not may_change_player(request.user, keep):
        return deny(request)
    form = MergeForm(request.POST, keep=keep, clubs=organised_club_ids(request.user))
    if form.is_valid():
        duplicate = form.cleaned_data["duplicate"]
        name = duplicate.name
        try:
            club_services.merge_players_as(actor=request.user, keep=keep, duplicate=duplicate)
        except PermissionDenied:
            return deny(request)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("%(name)s was merged into this player.") % {"name": name})
    else:
        messages.error(request, _("Choose the player who was entered twice."))
    return redirect("league:player", player_id=keep.pk)
