"""Pages about a game's access and history: corrections, handing the edit right to another phone."""

from __future__ import annotations

from django.conf import settings
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring.access_services import claim_handover, handover_is_open, start_handover
from scoring.audit import club_corrections, game_corrections
from scoring.diff import change_rows
from scoring.models import Game
from scoring.permissions import can_manage_club, deny, require_game_edit, require_game_view, set_edit_cookie
from scoring.qr import qr_svg


def game_page_url(game: Game) -> str | None:
    """The game's own page (URL name "game", from the game screens), or None while there is none."""
    try:
        return reverse("game", kwargs={"code": game.code})
    except NoReverseMatch:
        return None


@require_GET
@require_game_view
def game_history(request: HttpRequest, code: str) -> HttpResponse:
    game = get_object_or_404(Game, code=code)
    changes = [(change, change_rows(change.old_data, change.new_data)) for change in game_corrections(game)]
    context = {"game": game, "changes": changes, "back": game_page_url(game)}
    return render(request, "scoring/game_history.html", context)


@require_GET
def club_corrections_page(request: HttpRequest, club_id: int) -> HttpResponse:
    """Every correction in the club's games, newest first: for its organisers."""
    if not can_manage_club(request.user, club_id):
        return deny(request)
    page = Paginator(club_corrections(club_id), 50).get_page(request.GET.get("page"))
    changes = [(change, change_rows(change.old_data, change.new_data)) for change in page]
    context = {"club_id": club_id, "page": page, "changes": changes}
    return render(request, "scoring/club_corrections.html", context)


@require_POST
@require_game_edit
@never_cache
def hand_over(request: HttpRequest, code: str) -> HttpResponse:
    """A fresh one-time link (and its QR code) that moves the edit right to the phone opening it.
    Shown once, not redirected to: the secret is not stored anywhere it could be shown again."""
    game = get_object_or_404(Game, code=code)
    token = start_handover(game=game)
    url = request.build_absolute_uri(reverse("game_take_over", kwargs={"code": game.code, "token": token}))
    context = {
        "game": game,
        "url": url,
        "qr": qr_svg(url, title=gettext("QR code of the handover link")),
        "minutes": settings.HANDOVER_LINK_MINUTES,
        "back": game_page_url(game) or reverse("game_history", kwargs={"code": game.code}),
    }
    return render(request, "scoring/hand_over.html", context)


@never_cache
@require_http_methods(["GET", "POST"])
def take_over(request: HttpRequest, code: str, token: str) -> HttpResponse:
    """Opening the link asks first (link previews must not use the secret); the POST claims it."""
    game = get_object_or_404(Game, code=code)
    if request.method == "GET":
        status = 200 if handover_is_open(game=game, token=token) else 410
        return render(request, "scoring/take_over.html", {"game": game, "open": status == 200}, status=status)
    new_token = claim_handover(game=game, token=token)
    if new_token is None:
        return render(request, "scoring/take_over.html", {"game": game, "open": False}, status=410)
    response = redirect(game_page_url(game) or reverse("game_history", kwargs={"code": game.code}))
    set_edit_cookie(response, game, new_token)
    return response
