"""The games list, a new game, a game's page and its share link, and the live poll that keeps
their scoreboard up to date."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_http_methods, require_safe
from django.views.decorators.vary import vary_on_cookie

from scoring import game_settings
from scoring.forms.game import GameForm
from scoring.handover import (
    recovery_code,
)
from scoring.models import Game
from scoring.permissions import (
    can_edit_game,
    game_of,
    get_shared_game_or_404,
    grant_edit_token,
    readable_games,
    require_game_view,
    require_shared_game,
)
from scoring.selectors.board import scoreboard
from scoring.selectors.lists import game_lists
from scoring.views.page import (
    HtmxHttpRequest,
    board_context,
    game_html,
    game_page_html,
)


@require_safe
def game_list(request: HttpRequest) -> HttpResponse:
    lists = game_lists(readable_games(request))
    return render(request, "scoring/game_list.html", {"playing": lists.playing, "done": lists.done})


@require_http_methods(["GET", "HEAD", "POST"])
def game_new(request: HttpRequest) -> HttpResponse:
    if request.method in ("GET", "HEAD"):
        form = GameForm(initial={"setup_token": uuid.uuid4()})  # one game per drawn form
        return render(request, "scoring/game_new.html", {"form": form})
    form = GameForm(request.POST)
    if form.is_valid():
        token = form.cleaned_data.get("setup_token")
        made = Game.objects.filter(setup__token=token).first() if token else None
        if made is not None:  # a second Start, or Back and Start: this form already made its game
            messages.info(request, _("This game was already started; here it is."))
            return redirect("scoring:game", code=made.code)
        game = form.save()
        if game is not None:
            # The creating browser may enter hands at once, with or without an account.
            grant_edit_token(request, game, user=request.user)
            messages.success(
                request,
                _(
                    "Game started. Its recovery code is %(code)s: note it down. With it another phone "
                    "can take over the scoring if this one is lost or runs flat."
                )
                % {"code": recovery_code(game)},
            )
            return redirect("scoring:game", code=game.code)
    return render(request, "scoring/game_new.html", {"form": form})


@require_safe
@cache_control(private=True)  # what it shows depends on who asks (edit cookie, session)
@vary_on_cookie
@require_game_view
def game_page(request: HtmxHttpRequest, code: str) -> HttpResponse:
    game = game_of(request, code)
    mode = "edit" if can_edit_game(request, game) else "view"
    if request.htmx:
        return HttpResponse(game_html(request, game, mode=mode))
    return HttpResponse(game_page_html(request, game, mode=mode))


@require_safe
def shared_game(request: HtmxHttpRequest, share_code: str) -> HttpResponse:
    """The read-only share link: scoreboard, history and awards, no controls."""
    game = get_shared_game_or_404(share_code)
    if request.htmx:
        return HttpResponse(game_html(request, game, mode="share"))
    return HttpResponse(game_page_html(request, game, mode="share"))


def _live_mode(request: HttpRequest, game: Game) -> str:
    return "edit" if can_edit_game(request, game) else "view"


def _live_etag(request: HttpRequest, code: str) -> str:
    """The poll's ETag: the game's state as this viewer sees it (If-None-Match → 304)."""
    game = game_of(request, code)
    return f"{game_settings.version(game)}-{_live_mode(request, game)}-{get_language()}"


def _shared_etag(request: HttpRequest, share_code: str) -> str:
    return f"{game_settings.version(game_of(request))}-share-{get_language()}"


@require_safe
@cache_control(private=True)
@vary_on_cookie
@require_game_view
@condition(etag_func=_live_etag)
def game_live(request: HtmxHttpRequest, code: str) -> HttpResponse:
    """What a phone polls every few seconds: while nothing changed, 204 for the version it shows
    (`v`: htmx swaps nothing) or 304 for its ETag (the game's version, answered by `condition()`
    before the view runs); else the new scoreboard."""
    game = game_of(request, code)
    return _live(request, game, mode=_live_mode(request, game))


@require_safe
@require_shared_game
@condition(etag_func=_shared_etag)
def shared_live(request: HtmxHttpRequest, share_code: str) -> HttpResponse:
    return _live(request, game_of(request), mode="share")


def _live(request: HtmxHttpRequest, game: Game, *, mode: str) -> HttpResponse:
    if request.GET.get("v") == game_settings.version(game):
        return HttpResponse(status=204)  # htmx swaps nothing on 204
    if mode == "edit" and game.finished:
        # The entry form gives way to the end of the game: a whole new page.
        response = HttpResponse(status=204)
        response["HX-Refresh"] = "true"
        return response
    if mode == "share":
        # Every phone on the share link is shown the same: drawn once per version and language,
        # one copy per game and language (a new version replaces the last).
        key, version = f"shared-live:{game.pk}:{get_language()}", game_settings.version(game)
        kept = cache.get(key)
        if isinstance(kept, tuple) and kept[0] == version:
            html = kept[1]
        else:
            html = _live_html(request, game, mode=mode)
            cache.set(key, (version, html), 600)
    else:
        html = _live_html(request, game, mode=mode)
    # 286 tells htmx to stop polling: a finished game changes no more by itself.
    return HttpResponse(html, status=286 if game.finished else 200)


def _live_html(request: HtmxHttpRequest, game: Game, *, mode: str) -> str:
    """The new scoreboard, with the hands and the end of the game swapped in beside it."""
    context = board_context(request, game, scoreboard(game), mode=mode)
    html = render_to_string("scoring/game.html#scoreboard", context, request)
    html += render_to_string("scoring/game.html#history", {**context, "oob": True}, request)
    if mode != "edit":
        html += render_to_string("scoring/game.html#game-end", {**context, "oob": True}, request)
    return html
