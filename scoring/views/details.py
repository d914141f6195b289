"""A game's place in a club's league, its corrections trail, and a club's corrections page."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from clubs.ids import record_id
from clubs.permissions import can_manage_club, can_score_for_club, require_club_role, scoring_club_ids
from scoring import filing
from scoring.audit import club_corrections, game_corrections
from scoring.diff import change_rows
from scoring.forms.details import GameDetailsForm
from scoring.permissions import (
    NIGHT_PLAN_LOCKED,
    actor_for,
    game_of,
    night_plan_locked,
    require_game_edit,
    require_game_view,
)


@require_http_methods(["GET", "HEAD", "POST"])
@require_game_edit
def game_details(request: HttpRequest, code: str) -> HttpResponse:
    """File a game under a club and season, and link its seats to players (whoever may edit the
    game; moving it into or out of a club also takes a scorer or organiser of that club)."""
    game = game_of(request, code)
    if request.method in ("GET", "HEAD"):
        initial = {
            "club": game.club,
            "season": game.season,
            "played_on": game.played_on,
            "place": game.place,
            "note": game.note,
            **{f"seat_{row.seat}": row.player for row in game.seat_rows.all()},
        }
        form = GameDetailsForm(initial=initial, game=game, clubs=scoring_club_ids(request.user))
        return render(request, "scoring/game_details.html", {"game": game, "form": form})
    form = GameDetailsForm(request.POST, game=game, clubs=scoring_club_ids(request.user))
    if night_plan_locked(request, game):
        form.is_valid()
        form.add_error(None, NIGHT_PLAN_LOCKED)
    elif form.is_valid():
        data = form.cleaned_data
        new_club = data["filed_club"].pk if data["filed_club"] else None
        old_club = game.club_id
        if new_club != old_club:
            if new_club is not None and not can_score_for_club(request.user, new_club):
                raise PermissionDenied(_("Only a scorer or organiser of the club files games in it."))
            if old_club is not None and not can_manage_club(request.user, old_club):
                raise PermissionDenied(_("Only an organiser of the club takes a game out of it."))
        try:
            filing.file_game(
                game=game,
                club=data["club"],
                season=data["season"],
                played_on=data["played_on"],
                place=data["place"],
                note=data["note"],
                players=form.players(),
                actor=actor_for(request),
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The game's league details were saved."))
            return redirect("scoring:game_details", code=game.code)
    return render(request, "scoring/game_details.html", {"game": game, "form": form}, status=400)


@require_safe
@require_game_view
def game_history(request: HttpRequest, code: str) -> HttpResponse:
    game = game_of(request, code)
    changes = [
        (change, change_rows(change.old_data, change.new_data, game.scale))
        for change in game_corrections(game)
    ]
    context = {"game": game, "changes": changes, "back": reverse("scoring:game", kwargs={"code": game.code})}
    return render(request, "scoring/game_history.html", context)


@require_safe
@require_club_role("manage")
def club_corrections_page(request: HttpRequest, club_id: int) -> HttpResponse:
    """Every correction in the club's games, newest first: for its organisers."""
    # A page number that is not plain digits (`0_1`, `１`) shows the first page, as any other
    # page that is not a number does (Django's int() would read them as page 1 or more).
    page = Paginator(club_corrections(club_id), 50).get_page(record_id(request.GET.get("page")))
    changes = [(change, change_rows(change.old_data, change.new_data, change.game.scale)) for change in page]
    context = {"club_id": club_id, "page": page, "changes": changes}
    return render(request, "scoring/club_corrections.html", context)
