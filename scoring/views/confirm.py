"""The opponents' OK of each saved hand and both sides' signatures at the end (a club's rule,
scoring/services/confirm.py). Plain forms: they work without JavaScript."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from clubs.permissions import deny
from scoring.forms.confirm import ConfirmForm
from scoring.forms.sign import SignForm
from scoring.labels import side_short
from scoring.permissions import actor_for, game_of, may_sign, require_game_edit, require_game_view
from scoring.selectors.confirm import awaiting
from scoring.services.confirm import CannotSign, HandChangedMeanwhile, confirm_hand, sign_game
from scoring.views.page import HtmxHttpRequest


@require_POST
@require_game_edit
def hand_confirm(request: HtmxHttpRequest, code: str, number: int) -> HttpResponse:
    """The other side's one-tap OK of hand `number`; back to where it was asked (`next`: a club
    night's table link), else to the game's page."""
    game = game_of(request, code)
    form = ConfirmForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.refusal())
        return _back(request, form, code)
    try:
        confirmed = confirm_hand(game=game, number=number, seen=form.cleaned_data["seen"])
    except HandChangedMeanwhile:
        messages.warning(
            request,
            _("Hand %(number)d was changed meanwhile: nothing is confirmed. Check it again and tap OK.")
            % {"number": number},
        )
        return _back(request, form, code)
    if confirmed:
        messages.success(request, _("Hand %(number)d confirmed.") % {"number": number})
    else:
        messages.info(request, _("Hand %(number)d has nothing to confirm.") % {"number": number})
    return _back(request, form, code)


def _back(request: HtmxHttpRequest, form: ConfirmForm, code: str) -> HttpResponse:
    """The page the OK was asked on; an htmx request is sent there as a whole page."""
    back = form.cleaned_data.get("next") or reverse("scoring:game", kwargs={"code": code})
    return HttpResponseClientRedirect(back) if request.htmx else redirect(back)


@require_POST
@require_game_edit
def hand_not_right(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """ "Not right": nothing is written; the table goes to the correction of hand `number`, its
    values on the form, and the corrected hand waits for the other side's OK again."""
    game = game_of(request, code)
    if not any(hand.number == number for hand in awaiting(game)):
        messages.info(request, _("Hand %(number)d has nothing to confirm.") % {"number": number})
        return redirect("scoring:game", code=code)
    messages.warning(
        request,
        _(
            "Hand %(number)d is not right, says the other side: its values are on the form below. "
            "Correct what is wrong and save; then the other side confirms it again."
        )
        % {"number": number},
    )
    return redirect("scoring:hand_edit", code=code, number=number)


@require_POST
@require_game_view
def game_sign(request: HttpRequest, code: str) -> HttpResponse:
    """One side signs the finished game (one tap per side on the scoring phone)."""
    game = game_of(request, code)
    if not may_sign(request, game):
        return deny(request)
    form = SignForm(request.POST, game=game)
    if not form.is_valid():
        messages.error(request, form.refusal())
        return redirect("scoring:game", code=code)
    side = form.cleaned_data["side"]
    try:
        complete = sign_game(game=game, side=side, actor=actor_for(request))
    except CannotSign as refused:
        messages.error(request, _sign_refusal(refused.reason))
        return redirect("scoring:game", code=code)
    if complete:
        messages.success(request, _("Signed by both sides: the game is final."))
    else:
        messages.success(request, _("%(side)s signed.") % {"side": side_short(side)})
    return redirect("scoring:game", code=code)


def _sign_refusal(reason: str) -> str:
    return {
        "not_over": _("Nothing signed: the game is not over yet."),
        "unconfirmed": _("Nothing signed: a hand still waits for the other side's OK."),
        "signed": _("Nothing signed: this side has signed already."),
        "off": _("Nothing signed: this game is not signed at the end."),
    }.get(reason, _("Nothing signed: choose the side that signs."))
