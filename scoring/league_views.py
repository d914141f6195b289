"""League pages: clubs, season standings, players, games, CSV export and import.

The POST views (merge players, import, a game's league details) validate with a form and write
through league_services; everything else only reads.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Case, F, Prefetch, When
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring import league_csv, league_services, standings
from scoring.league_forms import ExportForm, GameDetailsForm, ImportForm, MergeForm
from scoring.league_models import Club, Player, Season
from scoring.models import Game, GameSeat
from scoring.stats import BAND_RULE

_CLOCKWISE_SEATS = Prefetch(
    "seat_rows",
    queryset=GameSeat.objects.order_by(
        Case(When(seat="N", then=0), When(seat="E", then=1), When(seat="S", then=2), default=3)
    ),
)


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    clubs = Club.objects.prefetch_related("seasons")
    casual = Game.objects.filter(club=None).prefetch_related(_CLOCKWISE_SEATS).order_by("-created_at")[:20]
    return render(
        request, "league/index.html", {"clubs": clubs, "casual": casual, "export_form": ExportForm()}
    )


@require_GET
def club(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=club_id)
    roster = Player.objects.filter(memberships__club=club).order_by("name")
    games = (
        club.games.select_related("season")
        .prefetch_related("seat_rows")
        .order_by(  # type: ignore[attr-defined]
            F("played_on").desc(nulls_last=True), "-created_at"
        )[:20]
    )
    return render(
        request,
        "league/club.html",
        {"club": club, "seasons": club.seasons.all(), "roster": roster, "games": games},
    )


@require_GET
def season(request: HttpRequest, season_id: int) -> HttpResponse:
    season = get_object_or_404(Season.objects.select_related("club"), pk=season_id)
    sort = request.GET.get("sort", "rank")
    if sort not in standings.COLUMNS:
        sort = "rank"
    descending = request.GET.get("dir", "desc") != "asc"
    if sort in ("name", "losses", "points_against", "sets") and "dir" not in request.GET:
        descending = False  # the natural order for these: A first, fewest first
    tables = standings.season_standings(season, sort, descending)
    return render(
        request,
        "league/season.html",
        {
            "season": season,
            "player_rows": _rows(tables["players"]),
            "pair_rows": _rows(tables["partnerships"]),
            "headers": _headers(sort, descending),
            "descending": descending,
            "ranking_rule": standings.RANKING_RULE,
        },
    )


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


def _rows(lines: list[standings.Line]) -> list[dict[str, object]]:
    """Table rows with their figures as ready HTML cells.

    A season can hold hundreds of partnerships; rendering ~15 figures each through template
    nodes (with number localisation per value) cost 10x the SQL, so the cells are built here.
    """
    keys = list(standings.COLUMNS)[2:]
    urls: dict[int, str] = {}
    rows = []
    for line in lines:
        people = []
        for pid, name in zip(line.player_ids, line.names, strict=True):
            if pid not in urls:
                urls[pid] = reverse("league:player", args=[pid])
            people.append((urls[pid], name))
        cells = "".join(f'<td class="num">{escape(standings.cell(key, line))}</td>' for key in keys)
        rows.append(
            {"rank": line.rank, "people": people, "cells": mark_safe(cells)}
        )  # each cell escaped above
    return rows


@require_GET
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.prefetch_related("clubs"), pk=player_id)
    figures = standings.player_figures(player)
    return render(
        request,
        "league/player.html",
        {"player": player, "f": figures, "band_rule": BAND_RULE, "merge_form": MergeForm(keep=player)},
    )


@require_POST
def merge_player(request: HttpRequest, player_id: int) -> HttpResponse:
    keep = get_object_or_404(Player, pk=player_id)
    form = MergeForm(request.POST, keep=keep)
    if form.is_valid():
        duplicate = form.cleaned_data["duplicate"]
        name = duplicate.name
        try:
            league_services.merge_players(keep=keep, duplicate=duplicate)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("%(name)s was merged into this player.") % {"name": name})
    else:
        messages.error(request, _("Choose the player who was entered twice."))
    return redirect("league:player", player_id=keep.pk)


@require_GET
def export_csv(request: HttpRequest, which: str) -> HttpResponse:
    form = ExportForm(request.GET)
    if not form.is_valid():
        return render(request, "league/export_error.html", {"form": form}, status=400)
    games = form.games()
    columns = league_csv.GAMES_COLUMNS if which == "games" else league_csv.HANDS_COLUMNS
    # English column names unless asked (?headers=local): the import reads only the English ones.
    header = league_csv.local_header(columns) if form.cleaned_data.get("headers") else columns
    if which == "games":
        lines = league_csv.csv_lines(header, league_csv.games_rows(games))
    else:
        lines = league_csv.csv_lines(header, league_csv.hands_rows(games))
    response = StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{which}.csv"'
    return response


@require_http_methods(["GET", "POST"])
def import_games(request: HttpRequest) -> HttpResponse:
    if request.method == "GET":
        return render(request, "league/import.html", {"form": ImportForm()})
    if _too_big(request):
        # Refused before the body is read: the form would only see the file after receiving it all.
        problem = league_csv.Problem(None, _("The upload is larger than the 10 MB limit."))
        return render(
            request, "league/import.html", {"form": ImportForm(), "problems": [problem]}, status=413
        )
    form = ImportForm(request.POST, request.FILES)
    problems: list[league_csv.Problem] = []
    if form.is_valid():
        data = form.cleaned_data
        season = data["season"]
        club = data["club"] or (season.club if season else None)
        try:
            report = league_csv.import_bytes(
                data["file"].read(),
                name=data["file"].name,
                club=club.name if club else "",
                season=season.name if season else "",
                played_on=data["played_on"],
            )
        except league_csv.ImportRefused as refused:
            problems = refused.problems
        else:
            messages.success(
                request,
                _("Imported %(games)d games with %(hands)d hands.")
                % {"games": report.games, "hands": report.hands},
            )
            return redirect("league:import")
    return render(request, "league/import.html", {"form": form, "problems": problems}, status=400)


def _too_big(request: HttpRequest) -> bool:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    return length > league_csv.MAX_IMPORT_BYTES + 64 * 1024  # room for the form's other fields


@require_http_methods(["GET", "POST"])
def game(request: HttpRequest, code: str) -> HttpResponse:
    """File a game under a club and season, and link its seats to players."""
    game = get_object_or_404(Game.objects.select_related("club", "season"), code=code)
    if request.method == "GET":
        initial = {
            "club": game.club,
            "season": game.season,
            "played_on": game.played_on,
            "place": game.place,
            "note": game.note,
            **{f"seat_{row.seat}": row.player for row in game.seat_rows.all()},
        }
        form = GameDetailsForm(initial=initial, game=game)
        return render(request, "league/game.html", {"game": game, "form": form})
    form = GameDetailsForm(request.POST, game=game)
    if form.is_valid():
        data = form.cleaned_data
        try:
            league_services.file_game(
                game=game,
                club=data["club"],
                season=data["season"],
                played_on=data["played_on"],
                place=data["place"],
                note=data["note"],
                players=form.players(),
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The game's league details were saved."))
            return redirect("league:game", code=game.code)
    return render(request, "league/game.html", {"game": game, "form": form}, status=400)
