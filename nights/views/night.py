"""The organiser's night page: the draw and its changes (swaps, a changed result), rounds, prizes and
groups, finishing the night (removing it is the ledger's page: ledger/views/removal.py). A club's
nights and opening one are `nights.views.opening`; check-in and players coming and going
`nights.views.arrivals`."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

from clubs.selectors import roster
from nights import movement_plan, rounds, selectors, services
from nights.forms.players import NewcomerForm, PlayerChoiceForm, SwapForm, late_arrival_choices
from nights.forms.prizes import GroupsForm, PrizesForm
from nights.models import Night
from nights.views.access import (
    add_form_error,
    back_to_night,
    manage_night,
    night_or_404,
    show_refusal,
)
from scoring.permissions import actor_for

# --- the night: check-in, plan, rounds --------------------------------------------------------


def render_night(request: HttpRequest, night: Night, *, status: int = 200, **forms: Any) -> HttpResponse:
    overview = selectors.night_overview(night)
    version = services.plan_version(night)
    context = {
        "night": night,
        "club": night.club,
        "started": overview.started,
        "drawn": overview.drawn,
        "rounds": overview.rounds,
        "entries": overview.entries,
        "present_ids": overview.present_ids,
        "roster": roster(night.club) if not overview.started else [],
        "next_round": overview.next_round,
        "live": overview.live,
        "newcomer_form": forms.get("newcomer_form") or NewcomerForm(club=night.club),
        "swap_form": forms.get("swap_form")
        or SwapForm(
            players=overview.playing,
            rounds=overview.open_rounds,
            initial={"plan": version},
        ),
        "late_form": forms.get("late_form")
        or PlayerChoiceForm(players=late_arrival_choices(night.club, night), prefix="late"),
        "leave_form": forms.get("leave_form") or PlayerChoiceForm(players=overview.playing, prefix="leave"),
        "prizes_form": forms.get("prizes_form") or PrizesForm(initial={"prizes": night.prizes}),
        "groups_form": forms.get("groups_form") or GroupsForm(entries=overview.entries),
        # A late arrival or leaver refused because it would undo a swap: the organiser's choice.
        "late_choice": forms.get("late_choice"),
        "newcomer_choice": forms.get("newcomer_choice"),
        "leave_choice": forms.get("leave_choice"),
        "check_in_choice": forms.get("check_in_choice"),
        # A result changed under a round the organiser changed by hand: keep it or plan it again.
        "plan_version": version,
    }
    return render(request, "nights/night.html", context, status=status)


@require_safe
@manage_night
def night_page(request: HttpRequest, night_id: int) -> HttpResponse:
    return render_night(request, night_or_404(night_id))


@require_POST
@manage_night
def draw(request: HttpRequest, night_id: int) -> HttpResponse:
    night = night_or_404(night_id)
    try:
        services.draw_plan(night=night)
    except ValidationError as error:
        show_refusal(request, error)
        return back_to_night(night, "check-in")
    if night.moves_by_round:
        messages.success(
            request, _("Round 1 is drawn; each later round is planned when the round before ends.")
        )
    else:
        messages.success(request, _("The tables are drawn for every round."))
    return back_to_night(night, "plan")


@require_POST
@manage_night
def swap(request: HttpRequest, night_id: int) -> HttpResponse:
    night = night_or_404(night_id)
    form = SwapForm(
        request.POST,
        players=selectors.present_players(night),
        rounds=selectors.open_rounds(night, services.started_rounds(night)),
    )
    if form.is_valid():
        data = form.cleaned_data
        try:
            kept = services.swap_players(
                night=night,
                round_no=data["round"],
                first=data["first"],
                second=data["second"],
                expected_plan=data["plan"] or None,
            )
        except ValidationError as error:
            add_form_error(form, error)
        else:
            messages.success(request, _swapped_message(night, data, kept))
            return back_to_night(night, "plan")
    return render_night(request, night, status=400, swap_form=form)


def _swapped_message(night: Night, swap: dict[str, Any], kept: list[int]) -> str:
    """What a swap changed, on this night's movement: on a rotating night, which later rounds are
    drawn again and which (`kept`, swapped by hand before) stay as they were."""
    round_no = swap["round"]
    names = {"a": swap["first"].name, "b": swap["second"].name, "round": round_no}
    if night.moves_by_round:
        return (
            _(
                "%(a)s and %(b)s swapped in round %(round)d. The swap stays: a late arrival, a leaver or "
                "a corrected result of the round before never undoes it without asking first."
            )
            % names
        )
    if round_no >= night.rounds:
        return _("%(a)s and %(b)s swapped in round %(round)d, the last round.") % names
    if not kept:
        return _("%(a)s and %(b)s swapped in round %(round)d; the later rounds are drawn again.") % names
    drawn = [number for number in range(round_no + 1, night.rounds + 1) if number not in kept]
    said = [_("%(a)s and %(b)s swapped in round %(round)d.") % names]
    if drawn:
        said.append(
            ngettext("Round %(rounds)s is drawn again.", "Rounds %(rounds)s are drawn again.", len(drawn))
            % {"rounds": ", ".join(str(number) for number in drawn)}
        )
    said.append(
        ngettext(
            "Round %(rounds)s stays as you swapped it.",
            "Rounds %(rounds)s stay as you swapped them.",
            len(kept),
        )
        % {"rounds": ", ".join(str(number) for number in kept)}
    )
    return " ".join(said)


def plan_sent(request: HttpRequest) -> str | None:
    """The plan version a choice's page was drawn from (`services.check_plan_version`)."""
    return request.POST.get("plan") or None


@require_POST
@manage_night
def changed_results(request: HttpRequest, night_id: int) -> HttpResponse:
    """The organiser's answer when a result changed under a round they changed by hand: keep the
    round (`choice=keep`) or plan it again from the results (`choice=replan`)."""
    night = night_or_404(night_id)
    choice = request.POST.get("choice", "")
    try:
        round_no = movement_plan.answer_changed_results(
            night=night, choice=choice, expected_plan=plan_sent(request)
        )
    except ValidationError as error:
        show_refusal(request, error)
        return back_to_night(night, "plan")
    if choice == services.REPLAN:
        text = _("Round %(round)d is planned again from the results; the swap made in it is undone.")
    else:
        text = _("Round %(round)d stays as you changed it.")
    messages.success(request, text % {"round": round_no})
    return back_to_night(night, f"round-{round_no}")


@require_POST
@manage_night
def round_start(request: HttpRequest, night_id: int, round_no: int) -> HttpResponse:
    night = night_or_404(night_id)
    try:
        rounds.start_round(night=night, round_no=round_no, actor=actor_for(request))
    except ValidationError as error:
        show_refusal(request, error)
        return back_to_night(night, "plan")
    messages.success(
        request,
        _("Round %(round)d has started: every table scores through its link or QR code.")
        % {"round": round_no},
    )
    return back_to_night(night, f"round-{round_no}")


@require_safe
@manage_night
def live_tables(request: HttpRequest, night_id: int) -> HttpResponse:
    """The round in play, table by table (the night page's htmx poll; the fragment stops polling
    once no table plays)."""
    night = night_or_404(night_id)
    context = {"night": night, "live": selectors.night_overview(night).live}
    return render(request, "nights/night.html#live-tables", context)


@require_POST
@manage_night
def last_hand(request: HttpRequest, night_id: int) -> HttpResponse:
    """Call the last hand of the round in play, or (take_back=yes) take it back."""
    night = night_or_404(night_id)
    try:
        if request.POST.get("take_back") == "yes":
            round_no = rounds.take_back_last_hand(night=night)
            text = _("The last hand of round %(round)d is taken back: the round goes on.")
        else:
            round_no = rounds.call_last_hand(night=night)
            text = _("Last hand of round %(round)d: each table's game ends after its next hand.")
    except ValidationError as error:
        show_refusal(request, error)
        return back_to_night(night, "live-tables")
    messages.success(request, text % {"round": round_no})
    return back_to_night(night, "live-tables")


@require_POST
@manage_night
def finish(request: HttpRequest, night_id: int) -> HttpResponse:
    night = night_or_404(night_id)
    if request.POST.get("finished") == "no":
        rounds.reopen_night(night=night)
        messages.success(
            request, _("The night is open again; a phone opens its table's link again to score.")
        )
    else:
        still = rounds.open_play(night)
        if still and not night.is_finished and request.POST.get("confirm") != "yes":
            # Asks first (works without JavaScript): what is still open and how it will count.
            return render(request, "nights/finish.html", {"night": night, "club": night.club, "open": still})
        rounds.finish_night(night=night)
        messages.success(request, _("The night is finished: the table links no longer score."))
    return back_to_night(night)


# --- prizes and groups ---------------------------------------------------------------------------


@require_POST
@manage_night
def prizes(request: HttpRequest, night_id: int) -> HttpResponse:
    """Tick the night's prizes on or off (any time: a prize only reads the standings)."""
    night = night_or_404(night_id)
    form = PrizesForm(request.POST)
    if not form.is_valid():
        return render_night(request, night, status=400, prizes_form=form)
    services.set_prizes(night=night, prizes=form.cleaned_data["prizes"])
    messages.success(request, _("The night's prizes are saved."))
    return back_to_night(night, "prizes")


@require_POST
@manage_night
def groups(request: HttpRequest, night_id: int) -> HttpResponse:
    """The group label of each player of the night; nothing is saved while one is wrong."""
    night = night_or_404(night_id)
    form = GroupsForm(request.POST, entries=selectors.night_entries(night))
    if form.is_valid():
        try:
            services.set_groups(night=night, groups=form.groups())
        except ValidationError as error:
            add_form_error(form, error)
        else:
            messages.success(request, _("The groups are saved."))
            return back_to_night(night, "groups")
    return render_night(request, night, status=400, groups_form=form)
