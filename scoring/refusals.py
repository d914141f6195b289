"""The answers a phone gets when it may not do what it asked to a game: the refusal `get_game_for`
raises (`scoring.permissions`), the page of a phone without the right, the answer to a phone that
may change nothing now, and to a phone that no longer scores the game."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from scoring.models import Game


class Refused(Exception):
    """Raised by `get_game_for`: the request may not do this to the game; `response` answers it."""

    def __init__(self, response: HttpResponse) -> None:
        super().__init__("refused")
        self.response = response


def no_right_page(request: HttpRequest, game: Game) -> HttpResponse:
    """What a phone without the right to a game sees instead of an unexplained login page: that
    another phone keeps the score, the form to take over with the recovery code, and a login link."""
    context = {
        "game": game,
        "landing": True,
        "recover_url": reverse("scoring:game_recover", args=[game.code]),
    }
    return render(request, "scoring/recover.html", context, status=403)


def nothing_to_change(request: HttpRequest, game: Game) -> HttpResponse:
    """The answer to the phone that scores a game but may change nothing in it now: a club game
    that has just finished (its live preview, sent as it saved the round's last hand, read after
    that save) or one of a night its organiser finished. It stays on its game, never the login
    page: an htmx request changes nothing on the page (204: its game already shows, or its poll
    soon shows, that the game is over), a plain request goes to the game's page, which says so."""
    if getattr(request, "htmx", None):
        return HttpResponse(status=204)
    return redirect("scoring:game", code=game.code)


#: Where a phone that lost the scoring leaves the hand it was still sending (the share page shows it).
UNSENT_KEY = "scoring:unsent:{pk}"


def scoring_moved(request: HttpRequest, game: Game) -> HttpResponse:
    """The answer to a hand sent by a phone that no longer scores the game (it was taken over or
    handed over): nothing is written; the values it sent are kept in the session and the phone
    goes to the read-only page, which says since when another phone scores and shows them to copy.
    A script's request gets 409 and nothing is kept here: its outbox keeps the hand, and its page
    shows it with the read-only game until the player copies or discards it (static/js/moved.js)."""
    if getattr(request, "htmx", None):
        return HttpResponse(status=409)
    fields = [
        (name, value)
        for name, values in request.POST.lists()
        if name not in ("csrfmiddlewaretoken", "submission_id", "number", "step")
        for value in values
    ]
    if fields and hasattr(request, "session"):
        request.session[UNSENT_KEY.format(pk=game.pk)] = fields
    return redirect("scoring:game_shared", share_code=game.share_code)
