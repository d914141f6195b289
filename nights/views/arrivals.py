"""The night's players: check-in (a name's row), a newcomer at the door, a late arrival and a leaver.
Each redraws the rounds not started (`nights.arrivals`) or asks first when that would undo the
organiser's swaps; the night page (`nights.views.night.render_night`) shows what was refused."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.models import Player
from nights import arrivals, selectors, services
from nights.forms.players import NewcomerForm, PlayerChoiceForm, late_arrival_choices
from nights.models import Night
from nights.views.access import (
    HtmxHttpRequest,
    add_form_error,
    back_to_night,
    manage_night,
    night_or_404,
    show_refusal,
)
from nights.views.night import plan_sent, render_night


@require_POST
@manage_night
def check_in(request: HtmxHttpRequest, night_id: int, player_id: int) -> HttpResponse:
    """One tap per name: `present` "yes" checks the player in, "no" out. From htmx the answer is
    the name's row drawn again (and the count, and a drawn plan, drawn again out of band), so the
    page does not reload; a plain post goes back to the same name on the page. A tap that would
    undo a swap changes nothing: the row asks (`arrivals.UndoesSwap`), and its buttons send the
    answer (`choice`) with the plan it was asked on."""
    night = night_or_404(night_id)
    # Only a player on the night's club roster: another club's player id answers 404 and never
    # shows that player's name.
    player = get_object_or_404(Player, pk=player_id, memberships__club_id=night.club_id)
    present = request.POST.get("present") == "yes"
    refusal, choice = "", None
    try:
        arrivals.set_checked_in(
            night=night,
            player=player,
            present=present,
            choice=request.POST.get("choice", ""),
            expected_plan=plan_sent(request),
        )
    except arrivals.UndoesSwap as error:
        choice = error
        if not request.htmx:
            return render_night(request, night, status=400, check_in_choice=error)
    except ValidationError as error:
        refusal = " ".join(error.messages)
        if not request.htmx:
            show_refusal(request, error)
    if not request.htmx:
        return back_to_night(night, f"check-in-{player.pk}")
    return _check_in_row(request, night, player, refusal, choice)


def _check_in_row(
    request: HttpRequest, night: Night, player: Player, refusal: str, choice: arrivals.UndoesSwap | None
) -> HttpResponse:
    context = {
        "night": night,
        "player": player,
        "present_ids": selectors.present_ids(night),
        "refusal": refusal,
        "check_in_choice": choice,
        "oob": True,
    }
    parts = [
        render_to_string("nights/night.html#check-in-row", context, request),
        render_to_string("nights/night.html#check-in-count", context, request),
    ]
    if services.is_drawn(night) and choice is None:  # the plan was drawn again for the new list
        plan = {
            **context,
            "rounds": selectors.plan_rounds(night),
            "next_round": selectors.next_round(night, services.started_rounds(night)),
        }
        parts.append(render_to_string("nights/night.html#plan", plan, request))
    return HttpResponse("".join(parts))


@require_POST
@manage_night
def newcomer(request: HttpRequest, night_id: int) -> HttpResponse:
    night = night_or_404(night_id)
    form = NewcomerForm(request.POST, club=night.club)
    if not form.is_valid():
        return render_night(request, night, status=400, newcomer_form=form)
    choice = request.POST.get("choice", "")
    try:
        player, first = arrivals.check_in_newcomer(
            night=night, name=form.cleaned_data["name"], choice=choice, expected_plan=plan_sent(request)
        )
    except arrivals.UndoesSwap as error:
        form.add_error("name", error.messages)
        return render_night(request, night, status=400, newcomer_form=form, newcomer_choice=error)
    except ValidationError as error:
        if services.started_rounds(night) >= night.rounds:  # no form on the page to show it next to
            show_refusal(request, error)
            return back_to_night(night, "plan")
        form.add_error("name", error.messages)
        return render_night(request, night, status=400, newcomer_form=form)
    if first > 1:  # a late arrival: the rounds not started yet are drawn again with them
        messages.success(
            request,
            _("%(name)s is on the roster and plays from round %(round)d.")
            % {"name": player.name, "round": first},
        )
        return back_to_night(night, "plan")
    messages.success(request, _("%(name)s is on the roster and checked in.") % {"name": player.name})
    return back_to_night(night, "check-in")


@require_POST
@manage_night
def late_arrival(request: HttpRequest, night_id: int) -> HttpResponse:
    night = night_or_404(night_id)
    form = PlayerChoiceForm(request.POST, players=late_arrival_choices(night.club, night), prefix="late")
    if form.is_valid():
        player = form.cleaned_data["player"]
        try:
            first = arrivals.add_late_arrival(
                night=night,
                player=player,
                choice=request.POST.get("choice", ""),
                expected_plan=plan_sent(request),
            )
        except arrivals.UndoesSwap as error:
            add_form_error(form, error)
            return render_night(request, night, status=400, late_form=form, late_choice=error)
        except ValidationError as error:
            add_form_error(form, error)
        else:
            messages.success(
                request, _("%(name)s plays from round %(round)d.") % {"name": player.name, "round": first}
            )
            return back_to_night(night, "plan")
    return render_night(request, night, status=400, late_form=form)


@require_POST
@manage_night
def leave(request: HttpRequest, night_id: int) -> HttpResponse:
    night = night_or_404(night_id)
    form = PlayerChoiceForm(request.POST, players=selectors.present_players(night), prefix="leave")
    if form.is_valid():
        player = form.cleaned_data["player"]
        choice = request.POST.get("choice", "")
        try:
            first = arrivals.remove_for_remaining_rounds(
                night=night, player=player, choice=choice, expected_plan=plan_sent(request)
            )
        except arrivals.UndoesSwap as error:
            add_form_error(form, error)
            return render_night(request, night, status=400, leave_form=form, leave_choice=error)
        except ValidationError as error:
            add_form_error(form, error)
        else:
            messages.success(
                request,
                _("%(name)s is out of the plan from round %(round)d on.")
                % {"name": player.name, "round": first},
            )
            return back_to_night(night, "plan")
    return render_night(request, night, status=400, leave_form=form)
