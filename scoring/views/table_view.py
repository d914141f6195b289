"""The table view: the scoreboard alone in big type, for a phone stood in the middle of the table or
a tablet. No scoring on it. It follows the game like the share page: htmx asks for it again every
few seconds (204 while the version it shows is current, 304 for its ETag, 286 once the game is
over); without JavaScript the page reloads itself (a meta refresh) and has a reload link."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_safe
from django.views.decorators.vary import vary_on_cookie

from scoring import game_settings
from scoring.models import Game
from scoring.permissions import game_of, require_game_view, require_shared_game
from scoring.selectors.board import scoreboard
from scoring.views.page import HtmxHttpRequest

#: Seconds between two looks at the game: htmx's poll, and the page's reload without JavaScript.
POLL_SECONDS = 5
RELOAD_SECONDS = 20


def _poll_etag(request: HttpRequest, game: Game) -> str | None:
    """The poll's ETag (only htmx polls get one: a whole page carries a fresh CSRF token). The
    fragment polled is the board alone: the game's version and the language make it."""
    if request.headers.get("HX-Request") != "true":
        return None
    return f"{game_settings.version(game)}-table-{get_language()}"


@require_safe
@cache_control(private=True)
@vary_on_cookie
@require_game_view
@condition(etag_func=lambda request, code: _poll_etag(request, game_of(request, code)))
def game_table(request: HtmxHttpRequest, code: str) -> HttpResponse:
    game = game_of(request, code)
    return _table(
        request,
        game,
        here=reverse("scoring:game_table", args=[game.code]),
        back=reverse("scoring:game", args=[game.code]),
    )


@require_safe
@require_shared_game
@condition(etag_func=lambda request, share_code: _poll_etag(request, game_of(request)))
def shared_table(request: HtmxHttpRequest, share_code: str) -> HttpResponse:
    game = game_of(request)
    return _table(
        request,
        game,
        here=reverse("scoring:game_shared_table", args=[share_code]),
        back=reverse("scoring:game_shared", args=[share_code]),
    )


def _table(request: HtmxHttpRequest, game: Game, *, here: str, back: str) -> HttpResponse:
    version = game_settings.version(game)
    if request.htmx and request.GET.get("v") == version:
        return HttpResponse(status=204)  # htmx swaps nothing on 204
    context = {
        "board": scoreboard(game),
        "game": game,
        "here": here,
        "back": back,
        "poll_url": f"{here}?v={version}",
        "poll_seconds": POLL_SECONDS,
        "reload_seconds": RELOAD_SECONDS,
    }
    template = "scoring/table.html#table-board" if request.htmx else "scoring/table.html"
    # 286 tells htmx to stop polling: a finished game changes no more by itself.
    return render(request, template, context, status=286 if request.htmx and game.finished else 200)
