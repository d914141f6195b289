"""League pages: clubs, season standings, players, published results, CSV export and import.

The POST views (merge players, import, roles, publishing a season)
validate with a form and write through clubs.services or league.services; everything else only
reads. Who may do what (docs/security.md): a club's records are read by its roles; organisers
merge players, change roles and publish seasons; scorers and organisers file and import games.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Case, F, Prefetch, Q, When
from django.forms import Form, ModelChoiceField
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clubs import services as club_services
from clubs.models import Club, ClubRole, Player, Season
from clubs.permissions import (
    can_manage_club,
    deny,
    is_site_admin,
    may_change_player,
    organised_club_ids,
    require_club_role,
    role_changes_throttled,
    scoring_club_ids,
    season_club,
    viewable_club_ids,
)
from core.spreadsheet import csv_lines
from league import csv_io, imports, standings
from league.forms import ExportForm, ImportForm, MergeForm, RoleForm
from league.models import ImportBatch
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
            assert isinstance(field, ModelChoiceField)
            field.queryset = field.queryset.filter(**{lookup: club_ids})  # type: ignore[union-attr]
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
        .order_by(  # type: ignore[attr-defined]
            F("played_on").desc(nulls_last=True), "-created_at", "-pk"
        )[:20]
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
        season.publish_code = new_game_code() + new_game_code()
        messages.success(
            request, _("The season's results are published: anyone with the link can read them.")
        )
    else:
        season.publish_code = None
        messages.success(request, _("The season's results are no longer published; the old link is dead."))
    season.save(update_fields=["publish_code"])
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


@require_GET
def export_csv(request: HttpRequest, which: str) -> HttpResponse:
    form = ExportForm(request.GET)
    if not form.is_valid():
        return render(request, "league/export_error.html", {"form": form}, status=400)
    games = form.games()
    viewable = viewable_club_ids(request.user)
    if viewable is not None:  # a club's records for its roles; a quick game for whoever may read it
        games = games.filter(Q(club__in=viewable) | Q(pk__in=readable_games(request).filter(club=None)))
    columns = csv_io.GAMES_COLUMNS if which == "games" else csv_io.HANDS_COLUMNS
    # English column names unless asked (?headers=local): the import reads only the English ones.
    header = csv_io.local_header(columns) if form.cleaned_data.get("headers") else columns
    if which == "games":
        lines = csv_lines(header, csv_io.games_rows(games))
    else:
        lines = csv_lines(header, csv_io.hands_rows(games))
    response = StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{which}.csv"'
    return response


@require_http_methods(["GET", "POST"])
def import_games(request: HttpRequest) -> HttpResponse:
    # Any signed-in user: a hands.csv naming a club that does not exist yet makes it, with the
    # uploader as its organiser; what they may not import is refused by the rights check below.
    if not request.user.is_authenticated:
        return deny(request)
    clubs = scoring_club_ids(request.user)  # None: every club
    if request.method == "GET":
        return _import_page(request, {"form": _only_clubs(ImportForm(), clubs)})
    if _too_big(request):
        # Refused before the body is read: the form would only see the file after receiving it all.
        problem = csv_io.Problem(
            None,
            _("The upload is larger than the %(limit)s MB limit.")
            % {"limit": csv_io.max_import_bytes() // 1024 // 1024},
        )
        return _import_page(request, {"form": ImportForm(), "problems": [problem]}, status=413)
    if waiting := imports.waiting_problem(request.user):  # before the body is read, too
        return _too_many(request, waiting)
    # Any club validates: the rights check below refuses a club the user may not import into with
    # 403, named once; the page drawn again offers only the user's own clubs.
    form = ImportForm(request.POST, request.FILES)
    problems: list[csv_io.Problem] = []
    if form.is_valid():
        data = form.cleaned_data
        season = data["season"]
        club = data["club"] or (season.club if season else None)
        place = {"club": club.name if club else "", "season": season.name if season else ""}
        raw = data["file"].read()
        # The clubs and seasons the form or the file's first rows name, before the file is kept.
        problems = imports.import_rights(request.user, csv_io.first_places(raw, **place), new_clubs=set())
        if problems:
            return _import_page(request, {"form": _only_clubs(form, clubs), "problems": problems}, status=403)
        try:
            batch = imports.start(
                raw=raw,
                name=data["file"].name,
                user=request.user,
                played_on=data["played_on"],
                language=get_language(),
                **place,
            )
        except imports.TooManyImports as error:
            return _too_many(request, str(error))
        if not batch.finished:  # queued for a task worker: its page shows the progress
            return redirect("league:import_status", batch_id=batch.pk)
        if batch.status == batch.Status.DONE:
            messages.success(
                request,
                _("Imported %(games)d games with %(hands)d hands.")
                % {"games": batch.total, "hands": batch.hands},
            )
            return redirect("league:import")
        problems = imports.problems_of(batch)
    context = {"form": _only_clubs(form, clubs), "problems": problems}
    return _import_page(request, context, status=400)


def _too_many(request: HttpRequest, problem: str) -> HttpResponse:
    context = {
        "form": _only_clubs(ImportForm(), scoring_club_ids(request.user)),
        "problems": [csv_io.Problem(None, problem)],
    }
    response = _import_page(request, context, status=429)
    response["Retry-After"] = "60"
    return response


def _import_page(request: HttpRequest, context: dict[str, object], status: int = 200) -> HttpResponse:
    context["limit_mb"] = csv_io.max_import_bytes() // 1024 // 1024
    return render(request, "league/import.html", context, status=status)


@require_GET
def import_status(request: HttpRequest, batch_id: int) -> HttpResponse:
    """An upload's progress ("Imported 600 of 1,500 games"), then its outcome. The page refreshes
    itself while the import waits or runs (no JavaScript needed). Only its uploader (or a
    superuser) sees it."""
    batch = ImportBatch.objects.filter(pk=batch_id).first()
    if batch is None or not (
        request.user.is_authenticated and (batch.user_id == request.user.pk or is_site_admin(request.user))
    ):
        return deny(request)
    batch = imports.settle_if_stalled(batch)
    context = {
        "batch": batch,
        "quiet": imports.is_quiet(batch),
        "quiet_seconds": int((timezone.now() - batch.updated_at).total_seconds()),
        "ahead": imports.waiting_ahead(batch) if batch.status == batch.Status.QUEUED else 0,
        "no_worker": imports.no_worker_seen(batch),
        "problems": imports.problems_of(batch),
        "written": number_format(batch.written, force_grouping=True),
        "total": number_format(batch.total, force_grouping=True),
        "hands": number_format(batch.hands, force_grouping=True),
    }
    return render(request, "league/import_status.html", context)


def _too_big(request: HttpRequest) -> bool:
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    return length > csv_io.max_import_bytes() + 64 * 1024  # room for the form's other fields


@require_http_methods(["GET", "POST"])
@require_club_role("manage")
def club_roles(request: HttpRequest, club_id: int) -> HttpResponse:
    """Organisers give accounts a role in the club, change it, or take it away. The answer is the
    same whether the account named exists or not (the list of roles shows who has one), and the
    form is rate-limited (`role_changes_throttled`), so it is no way to find out account names."""
    club = get_object_or_404(Club, pk=club_id)
    form = RoleForm(request.POST if request.method == "POST" else None)
    status, throttled = (400 if form.is_bound else 200), False
    if form.is_bound and role_changes_throttled(request):
        form, status, throttled = RoleForm(initial=request.POST.dict()), 429, True
    elif form.is_bound and form.is_valid():
        name = form.cleaned_data["username"]
        user = get_user_model().objects.filter(username=name).first()
        role = form.cleaned_data["role"] or None
        try:
            if user is not None:
                club_services.set_club_role(actor=request.user, user=user, club_id=club.pk, role=role)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request,
                _(
                    "Saved for %(name)s, if there is an account with that name. The list shows every "
                    "role in the club: a name missing from it may be misspelt, or its owner has not "
                    "signed up yet."
                )
                % {"name": name},
            )
            return redirect("league:roles", club_id=club.pk)
    roles = ClubRole.objects.filter(club=club).select_related("user").order_by("role", "user__username")
    context = {"club": club, "roles": roles, "form": form, "throttled": throttled}
    return render(request, "league/roles.html", context, status=status)
