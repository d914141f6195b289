"""The games list, a new game, a game's page and its share link, and the live poll that keeps
their scoreboard up to date."""

from __future__ import annotations

import uuid
from typing import Any, cast

from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.http import quote_etag
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_http_methods, require_safe
from django.views.decorators.vary import vary_on_cookie

from scoring import game_settings
from scoring.devices import scoring_moved_at
from scoring.forms.game import GameForm
from scoring.handover import (
    recovery_code,
)
from scoring.models import Game
from scoring.permissions import (
    can_edit_game,
    checked_can_edit,
    game_of,
    get_shared_game_or_404,
    grant_edit_token,
    readable_games,
    require_game_view,
    scoring_moved_away,
)
from scoring.refusals import UNSENT_KEY
from scoring.selectors.board import scoreboard
from scoring.selectors.lists import game_lists
from scoring.unsent import field_labels, unsent_lines, unsent_strings
from scoring.views.page import (
    HtmxHttpRequest,
    board_context,
    game_html,
    game_page_html,
    hand_form,
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
    # The phone that scored the game until another took over: told since when, with the hand it
    # had not sent yet (its last post, or what its script kept) to copy.
    moved = _moved(request, game) if scoring_moved_away(request, game) else None
    if request.htmx:
        response = HttpResponse(game_html(request, game, mode="share", moved=moved))
        if moved is not None:
            # The game's page asked (its poll learnt that the game moved, or a save was refused for
            # it): the read-only game takes the place of the whole game, entry form and all, without
            # a reload (static/js/moved.js then gives the page this page's address, which a reload
            # opens; not htmx's HX-Replace-Url, which would keep the page before, recovery code and
            # all, in htmx's history copy in localStorage).
            response["HX-Retarget"] = "#game"
            response["HX-Reswap"] = "outerHTML"
        return response
    return HttpResponse(game_page_html(request, game, mode="share", moved=moved))


def _moved(request: HttpRequest, game: Game) -> dict[str, Any]:
    labels = field_labels(hand_form(game, None))
    posted = request.session.pop(UNSENT_KEY.format(pk=game.pk), None) if hasattr(request, "session") else None
    fields = (
        [(str(pair[0]), str(pair[1])) for pair in posted if len(pair) == 2]
        if isinstance(posted, list)
        else []
    )
    return {
        "at": scoring_moved_at(game),
        "code": game.code,
        "labels": labels,
        "lines": unsent_lines(labels, fields),
        "strings": unsent_strings(),
    }


def _live_mode(request: HttpRequest, game: Game) -> str:
    """As the guard found it: the poll writes nothing, and its ETag and its answer ask it."""
    return "edit" if checked_can_edit(request, game) else "view"


def _live_etag(request: HttpRequest, code: str) -> str:
    """The poll's ETag: the game's state as this viewer sees it (If-None-Match → 304)."""
    game = game_of(request, code)
    return f"{game_settings.version(game)}-{_live_mode(request, game)}-{get_language()}"


SharedState = tuple[int, str, bool]


class SharedPollRequest(HttpRequest):
    """The share link's poll once its ETag was worked out: the state it read (`_shared_state`)."""

    shared_state: SharedState | None


def _shared_state(request: HttpRequest, share_code: str) -> SharedState | None:
    """The share link's game as its poll needs it, from the version's columns alone: (pk,
    version, finished), or None (no such game). Most polls need no more (304, 204, or the
    scoreboard another watcher's poll drew). Read once per request: the ETag's read serves
    the view."""
    if hasattr(request, "shared_state"):
        return cast(SharedPollRequest, request).shared_state
    rows = (
        Game.objects.filter(share_code=share_code)
        .order_by()
        .values_list("pk", "hand_count", "updated_at", "finished")
    )
    state = next(
        ((pk, game_settings.version_of(count, at), finished) for pk, count, at, finished in rows[:1]),
        None,
    )
    cast(SharedPollRequest, request).shared_state = state
    return state


def _shared_etag(request: HttpRequest, share_code: str) -> str | None:
    """The share link's ETag (None, no such game: the view's 404)."""
    state = _shared_state(request, share_code)
    return f"{state[1]}-share-{get_language()}" if state else None


def _shared_key(pk: int) -> str:
    """Where the share link's scoreboard is kept drawn: one copy per game and language."""
    return f"shared-live:{pk}:{get_language()}"


def _kept_scoreboard(pk: int, version: str) -> str | None:
    """The share link's scoreboard of `version` if one is kept drawn (for another watcher)."""
    kept = cache.get(_shared_key(pk))
    return kept[1] if isinstance(kept, tuple) and kept[0] == version else None


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
@condition(etag_func=_shared_etag)
def shared_live(request: HtmxHttpRequest, share_code: str) -> HttpResponse:
    state = _shared_state(request, share_code)
    if state is not None:
        pk, version, finished = state
        if request.GET.get("v") == version:
            return HttpResponse(status=204)  # the version the phone shows: htmx swaps nothing
        kept = _kept_scoreboard(pk, version)
        if kept is not None:
            return HttpResponse(kept, status=286 if finished else 200)
    game = get_shared_game_or_404(share_code)
    response = _live(request, game, mode="share")
    # The ETag of what is shown: a hand saved since the ETag's read is in this scoreboard already.
    response["ETag"] = quote_etag(f"{game_settings.version(game)}-share-{get_language()}")
    return response


def _live(request: HtmxHttpRequest, game: Game, *, mode: str) -> HttpResponse:
    if request.GET.get("v") == game_settings.version(game):
        return HttpResponse(status=204)  # htmx swaps nothing on 204
    if mode == "share":
        # Every phone on the share link is shown the same: drawn once per version and language,
        # one copy per game and language (a new version replaces the last).
        version = game_settings.version(game)
        html = _kept_scoreboard(game.pk, version)
        if html is None:
            html = _live_html(request, game, mode=mode)
            cache.set(_shared_key(game.pk), (version, html), 600)
    else:
        html = _live_html(request, game, mode=mode)
    # 286 tells htmx to stop polling: a finished game changes no more by itself.
    return HttpResponse(html, status=286 if game.finished else 200)


def _live_html(request: HtmxHttpRequest, game: Game, *, mode: str) -> str:
    """The new scoreboard, with the hands and the end of the game swapped in beside it."""
    context = board_context(request, game, scoreboard(game), mode=mode)
    html: str = render_to_string("scoring/game.html#scoreboard", context, request)
    html += render_to_string("scoring/game.html#history", {**context, "oob": True}, request)
    if game.planned:  # the planner's line (a club night's round) may have changed with the version
        html += render_to_string("scoring/_plan_notice.html", {**context, "oob": True}, request)
    if mode != "edit" or game.finished:
        html += render_to_string("scoring/game.html#game-end", {**context, "oob": True}, request)
    if mode == "edit" and game.finished:
        # The entry form gives way to the end of the game, in place: a whole new page would drop
        # the answer of the save that ended it ("Hand N saved · Undo"), which may still be on its way.
        html += '<section id="entry" hx-swap-oob="true" hidden></section>'
    return html
