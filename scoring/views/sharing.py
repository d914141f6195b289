"""Handing the scoring to another phone: a one-time link (with its QR code), or the game's
recovery code typed on the phone taking over."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from core.qr import qr_svg
from scoring.audit import Actor
from scoring.devices import ensure_device, forget_rights, holder_of, may_hold
from scoring.handover import (
    claim_handover,
    handover_is_open,
    start_handover,
    take_over_with_code,
)
from scoring.models import Game
from scoring.permissions import (
    NIGHT_FINISHED,
    actor_for,
    can_edit_game,
    game_of,
    get_shared_game_or_404,
    night_is_over,
    require_game_edit,
)
from throttles.address import client_address


@require_POST
@require_game_edit
@never_cache
def hand_over(request: HttpRequest, code: str) -> HttpResponse:
    """A fresh one-time link (and its QR code) that moves the edit right to the phone opening it.
    Shown once, not redirected to: the secret is not stored anywhere it could be shown again."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_of(request, code).pk)
        # The right read again under the lock: another phone may have taken the scoring over since
        # this request's checks; its phone gets no link to take it back.
        forget_rights(request)
        if not can_edit_game(request, game):
            return redirect("scoring:game", code=game.code)
        token = start_handover(game=game)
    url = request.build_absolute_uri(
        reverse("scoring:game_take_over", kwargs={"code": game.code, "token": token})
    )
    context = {
        "game": game,
        "url": url,
        "qr": qr_svg(url, title=gettext("QR code of the handover link")),
        "minutes": settings.HANDOVER_LINK_MINUTES,
        "back": reverse("scoring:game", kwargs={"code": game.code}),
    }
    return render(request, "scoring/hand_over.html", context)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def take_over(request: HttpRequest, code: str, token: str) -> HttpResponse:
    """Opening the link asks first (link previews must not use the secret); the POST claims it."""
    game = get_object_or_404(Game, code=code)
    if night_is_over(game):  # a link started before the night was finished gives nothing now
        return render(request, "scoring/take_over.html", {"game": game, "open": False}, status=410)
    if request.method in ("GET", "HEAD") and not handover_is_open(game=game, token=token):
        return render(request, "scoring/take_over.html", {"game": game, "open": False}, status=410)
    if request.method in ("GET", "HEAD") and may_hold(request, game):
        return render(request, "scoring/take_over.html", {"game": game, "open": True})
    if not may_hold(request, game):  # said before the button is offered, and again on a POST
        context = {"game": game, "open": False, "error": _not_a_scorer(request)}
        return render(request, "scoring/take_over.html", context, status=403)
    if not claim_handover(game=game, token=token, device=ensure_device(request), holder=holder_of(request)):
        return render(request, "scoring/take_over.html", {"game": game, "open": False}, status=410)
    return redirect("scoring:game", code=game.code)


def _not_a_scorer(request: HttpRequest) -> str:
    return _(
        "You are signed in as %(name)s, who does not score for this game's club: only its scorers "
        "and organisers, or a phone nobody is signed in on, may take the scoring over."
    ) % {"name": request.user.get_username()}


def _taker(request: HttpRequest) -> Actor:
    """Who the trail names for a take-over: the signed-in user, or "a phone with the recovery code"."""
    return actor_for(request) if request.user.is_authenticated else Actor(user=None, label="recovery")


@never_cache
@require_POST
def recover(request: HttpRequest, code: str | None = None, share_code: str | None = None) -> HttpResponse:
    """Take over the scoring with the game's recovery code (from the read-only page, the share
    page or the page a phone without the right lands on). Wrong codes at a game are counted per
    browser, per client address and in all; the take-over is written to the corrections trail."""
    game = get_object_or_404(Game, code=code) if code else get_shared_game_or_404(share_code or "")
    address = client_address(request)
    typed = request.POST.get("recovery_code", "")
    if night_is_over(game):
        error, status = str(NIGHT_FINISHED), 403
    elif not may_hold(request, game):
        error, status = _not_a_scorer(request), 403
    elif not typed.strip():
        error, status = _("Recovery code: enter the 6 letters shown on the scoring phone."), 400
    else:
        outcome = take_over_with_code(
            game=game,
            code=typed,
            device=ensure_device(request),
            address=address,
            actor=_taker(request),
            holder=holder_of(request),
        )
        if outcome:
            messages.success(request, _("This phone now keeps the score of this game."))
            return redirect("scoring:game", code=game.code)
        if outcome is None:
            error, status = _("Too many wrong codes: wait a quarter of an hour, then try again."), 429
        else:
            error, status = (
                _(
                    "Recovery code: that is not this game's code. Check it on the scoring phone or "
                    "the note you made at the start."
                ),
                400,
            )
    context = {"game": game, "error": error, "recover_url": request.path, "typed": typed[:20]}
    return render(request, "scoring/recover.html", context, status=status)
