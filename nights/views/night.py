"""The organiser's night: a club's nights, opening one, check-in, the draw and its changes, rounds,
finishing the night (removing it is the ledger's page:
ledger/views/removal.py)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from clubs.models import Club, Player
from clubs.permissions import can_manage_club, require_club_role
from clubs.selectors import roster
from nights import arrivals, movement_plan, rounds, selectors, services
from nights.forms.opening import NightForm
from nights.forms.players import NewcomerForm, PlayerChoiceForm, SwapForm, late_arrival_choices
from nights.forms.prizes import GroupsForm, PrizesForm
from nights.models import Night
from nights.views.access import (
    HtmxHttpRequest,
    SignedInRequest,
    _back,
    _form_error,
    _night,
    _refusal,
    manage_night,
)
from scoring.permissions import actor_for

# --- a club's nights and opening one -----------------------------------------------------------


@require_safe
@require_club_role("view")
def club_nights(request: HttpRequest, club_id: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=club_id)
    context = {
        "club": club,
        "nights": club.nights.select_related("season"),
        "manager": can_manage_club(request.user, club.pk),
    }
    return render(request, "nights/club_nights.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@require_club_role("manage")
def night_new(request: SignedInRequest, club_id: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=club_id)
    form = NightForm(request.POST if request.method == "POST" else None, club=club)
    if form.is_bound and form.is_valid():
        try:
            night = services.open_night(club=club, created_by=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The night is open: check in who is here."))
            return redirect("nights:night", night_id=night.pk)
    return render(
        request, "nights/night_new.html", {"club": club, "form": form}, status=400 if form.is_bound else 200
    )


# --- the night: check-in, plan, rounds --------------------------------------------------------


def _night_page(request: HttpRequest, night: Night, *, status: int = 200, **forms: Any) -> HttpResponse:
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
    return _night_page(request, _night(night_id))


@require_POST
@manage_night
def check_in(request: HtmxHttpRequest, night_id: int, player_id: int) -> HttpResponse:
    """One tap per name: `present` "yes" checks the player in, "no" out. From htmx the answer is
    the name's row drawn again (and the count, and a drawn plan, drawn again out of band), so the
    page does not reload; a plain post goes back to the same name on the page. A tap that would
    undo a swap changes nothing: the row asks (`arrivals.UndoesSwap`), and its buttons send the
    answer (`choice`) with the plan it was asked on."""
    night = _night(night_id)
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
            expected_plan=_plan_sent(request),
        )
    except arrivals.UndoesSwap as error:
        choice = error
        if not request.htmx:
            return _night_page(request, night, status=400, check_in_choice=error)
    except ValidationError as error:
        refusal = " ".join(error.messages)
        if not request.htmx:
            _refusal(request, error)
    if not request.htmx:
        return _back(night, f"check-in-{player.pk}")
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
    night = _night(night_id)
    form = NewcomerForm(request.POST, club=night.club)
    if not form.is_valid():
        return _night_page(request, night, status=400, newcomer_form=form)
    choice = request.POST.get("choice", "")
    try:
        player, first = arrivals.check_in_newcomer(
            night=night, name=form.cleaned_data["name"], choice=choice, expected_plan=_plan_sent(request)
        )
    except arrivals.UndoesSwap as error:
        form.add_error("name", error.messages)
        return _night_page(request, night, status=400, newcomer_form=form, newcomer_choice=error)
    except ValidationError as error:
        if services.started_rounds(night) >= night.rounds:  # no form on the page to show it next to
            _refusal(request, error)
            return _back(night, "plan")
        form.add_error("name", error.messages)
        return _night_page(request, night, status=400, newcomer_form=form)
    if first > 1:  # a late arrival: the rounds not started yet are drawn again with them
        messages.success(
            request,
            _("%(name)s is on the roster and plays from round %(round)d.")
            % {"name": player.name, "round": first},
        )
        return _back(night, "plan")
    messages.success(request, _("%(name)s is on the roster and checked in.") % {"name": player.name})
    return _back(night, "check-in")


@require_POST
@manage_night
def draw(request: HttpRequest, night_id: int) -> HttpResponse:
    night = _night(night_id)
    try:
        services.draw_plan(night=night)
    except ValidationError as error:
        _refusal(request, error)
        return _back(night, "check-in")
    if night.moves_by_round:
        messages.success(
            request, _("Round 1 is drawn; each later round is planned when the round before ends.")
        )
    else:
        messages.success(request, _("The tables are drawn for every round."))
    return _back(night, "plan")


@require_POST
@manage_night
def swap(request: HttpRequest, night_id: int) -> HttpResponse:
    night = _night(night_id)
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
            _form_error(form, error)
        else:
            messages.success(request, _swapped_message(night, data, kept))
            return _back(night, "plan")
    return _night_page(request, night, status=400, swap_form=form)


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


def _plan_sent(request: HttpRequest) -> str | None:
    """The plan version a choice's page was drawn from (`services.check_plan_version`)."""
    return request.POST.get("plan") or None


@require_POST
@manage_night
def late_arrival(request: HttpRequest, night_id: int) -> HttpResponse:
    night = _night(night_id)
    form = PlayerChoiceForm(request.POST, players=late_arrival_choices(night.club, night), prefix="late")
    if form.is_valid():
        player = form.cleaned_data["player"]
        try:
            first = arrivals.add_late_arrival(
                night=night,
                player=player,
                choice=request.POST.get("choice", ""),
                expected_plan=_plan_sent(request),
            )
        except arrivals.UndoesSwap as error:
            _form_error(form, error)
            return _night_page(request, night, status=400, late_form=form, late_choice=error)
        except ValidationError as error:
            _form_error(form, error)
        else:
            messages.success(
                request, _("%(name)s plays from round %(round)d.") % {"name": player.name, "round": first}
            )
            return _back(night, "plan")
    return _night_page(request, night, status=400, late_form=form)


@require_POST
@manage_night
def leave(request: HttpRequest, night_id: int) -> HttpResponse:
    night = _night(night_id)
    form = PlayerChoiceForm(request.POST, players=selectors.present_players(night), prefix="leave")
    if form.is_valid():
        player = form.cleaned_data["player"]
        choice = request.POST.get("choice", "")
        try:
            first = arrivals.remove_for_remaining_rounds(
                night=night, player=player, choice=choice, expected_plan=_plan_sent(request)
            )
        except arrivals.UndoesSwap as error:
            _form_error(form, error)
            return _night_page(request, night, status=400, leave_form=form, leave_choice=error)
        except ValidationError as error:
            _form_error(form, error)
        else:
            messages.success(
                request,
                _("%(name)s is out of the plan from round %(round)d on.")
                % {"name": player.name, "round": first},
            )
            return _back(night, "plan")
    return _night_page(request, night, status=400, leave_form=form)


@require_POST
@manage_night
def changed_results(request: HttpRequest, night_id: int) -> HttpResponse:
    """The organiser's answer when a result changed under a round they changed by hand: keep the
    round (`choice=keep`) or plan it again from the results (`choice=replan`)."""
    night = _night(night_id)
    choice = request.POST.get("choice", "")
    try:
        round_no = movement_plan.answer_changed_results(
            night=night, choice=choice, expected_plan=_plan_sent(request)
        )
    except ValidationError as error:
        _refusal(request, error)
        return _back(night, "plan")
    if choice == services.REPLAN:
        text = _("Round %(round)d is planned again from the results; the swap made in it is undone.")
    else:
        text = _("Round %(round)d stays as you changed it.")
    messages.success(request, text % {"round": round_no})
    return _back(night, f"round-{round_no}")


@require_POST
@manage_night
def round_start(request: HttpRequest, night_id: int, round_no: int) -> HttpResponse:
    night = _night(night_id)
    try:
        rounds.start_round(night=night, round_no=round_no, actor=actor_for(request))
    except ValidationError as error:
        _refusal(request, error)
        return _back(night, "plan")
    messages.success(
        request,
        _("Round %(round)d has started: every table scores through its link or QR code.")
        % {"round": round_no},
    )
    return _back(night, f"round-{round_no}")


@require_safe
@manage_night
def live_tables(request: HttpRequest, night_id: int) -> HttpResponse:
    """The round in play, table by table (the night page's htmx poll; the fragment stops polling
    once no table plays)."""
    night = _night(night_id)
    context = {"night": night, "live": selectors.night_overview(night).live}
    return render(request, "nights/night.html#live-tables", context)


@require_POST
@manage_night
def last_hand(request: HttpRequest, night_id: int) -> HttpResponse:
    """Call the last hand of the round in play, or (take_back=yes) take it back."""
    night = _night(night_id)
    try:
        if request.POST.get("take_back") == "yes":
            round_no = rounds.take_back_last_hand(night=night)
            text = _("The last hand of round %(round)d is taken back: the round goes on.")
        else:
            round_no = rounds.call_last_hand(night=night)
            text = _("Last hand of round %(round)d: each table's game ends after its next hand.")
    except ValidationError as error:
        _refusal(request, error)
        return _back(night, "live-tables")
    messages.success(request, text % {"round": round_no})
    return _back(night, "live-tables")


@require_POST
@manage_night
def finish(request: HttpRequest, night_id: int) -> HttpResponse:
    night = _night(night_id)
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
    return _back(night)


# --- prizes and groups ---------------------------------------------------------------------------


@require_POST
@manage_night
def prizes(request: HttpRequest, night_id: int) -> HttpResponse:
    """Tick the night's prizes on or off (any time: a prize only reads the standings)."""
    night = _night(night_id)
    form = PrizesForm(request.POST)
    if not form.is_valid():
        return _night_page(request, night, status=400, prizes_form=form)
    services.set_prizes(night=night, prizes=form.cleaned_data["prizes"])
    messages.success(request, _("The night's prizes are saved."))
    return _back(night, "prizes")


@require_POST
@manage_night
def groups(request: HttpRequest, night_id: int) -> HttpResponse:
    """The group label of each player of the night; nothing is saved while one is wrong."""
    night = _night(night_id)
    form = GroupsForm(request.POST, entries=selectors.night_entries(night))
    if form.is_valid():
        try:
            services.set_groups(night=night, groups=form.groups())
        except ValidationError as error:
            _form_error(form, error)
        else:
            messages.success(request, _("The groups are saved."))
            return _back(night, "groups")
    return _night_page(request, night, status=400, groups_form=form)
