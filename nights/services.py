"""Writes of a club night: open it, its prizes and groups, draw the plan and change it by hand
(a swap). Keyword-only, typed, one transaction each. Players checking in, arriving late or
leaving are `nights.arrivals`; a night with a movement plans its next round from the results in
`nights.movement_plan`; its rounds (start, finish, a table's link) are `nights.rounds`, its
removal `nights.removal`.

The draw is `nights.planning` (plain Python); this module turns the stored rows into a
`NightPlan`, asks the planner, and writes back the rounds that are not started yet. Games are
made, filed and deleted only through scoring's own services, so the table pages, statistics and
ratings treat a night's games like any other club game.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Collection, Mapping
from decimal import Decimal

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club, Player, Season
from nights.models import (
    GROUP_MAX_LENGTH,
    PRIZES,
    Night,
    NightBye,
    NightPlayer,
    NightSeat,
    NightTable,
    new_seed,
)
from nights.planning import night as planner
from nights.planning.plan import NightPlan, PlanError, Round, Table
from scoring.rules.tables import SEAT_ORDER, seats_for


@transaction.atomic
def open_night(
    *,
    club: Club,
    season: Season | None,
    played_on: datetime.date,
    variant: str,
    deck: str,
    target: int | None,
    min_bid: int | None,
    meld_needs_trick: bool,
    rounds: int,
    round_ends: str,
    hands_per_round: int | None,
    stake_per_chip: Decimal | None,
    stake_per_win: Decimal | None,
    created_by: User | None,
    leftovers: str = Night.Leftovers.BYE,
    bye_compensation: str = Night.ByeCompensation.NONE,
    bye_points: int | None = None,
    bye_chips: int | None = None,
    movement: str = Night.Movement.ROTATING,
    prizes: Collection[str] = (),
    round_minutes: int | None = None,
    deals: int | None = None,
    bid_steps: str = "standard",
    meld_counts_from: int | None = None,
    spread: int | None = None,
    scale: int = 1,
) -> Night:
    """Open a night; the caller's form has checked the settings with the rules engine. `prizes`:
    the names of the prizes ticked on (`nights.models.PRIZES`). The house rules (docs/rules.md) are
    those of every game the night starts; `deals` not for rounds of a fixed number of hands (they
    set the deals themselves)."""
    if season is not None:
        _check_season(club=club, season=season, played_on=played_on)
    fixed = bye_compensation == Night.ByeCompensation.FIXED
    return Night.objects.create(
        club=club,
        season=season,
        played_on=played_on,
        variant=variant,
        deck=deck,
        target=target,
        min_bid=min_bid,
        meld_needs_trick=meld_needs_trick,
        rounds=rounds,
        round_ends=round_ends,
        hands_per_round=hands_per_round if round_ends == Night.RoundEnds.HANDS else None,
        stake_per_chip=stake_per_chip,
        stake_per_win=stake_per_win,
        created_by=created_by,
        leftovers=leftovers,
        bye_compensation=bye_compensation,
        bye_points=bye_points if fixed else None,
        bye_chips=bye_chips if fixed else None,
        movement=movement,
        **_prize_fields(prizes),
        round_minutes=round_minutes if round_ends == Night.RoundEnds.MINUTES else None,
        deals=deals if round_ends != Night.RoundEnds.HANDS else None,
        bid_steps=bid_steps,
        meld_counts_from=meld_counts_from,
        spread=spread,
        scale=scale,
    )


def _prize_fields(prizes: Collection[str]) -> dict[str, bool]:
    unknown = set(prizes) - set(PRIZES)
    if unknown:
        raise ValidationError({"prizes": _("Choose prizes from the list.")})
    return {f"prize_{name}": name in prizes for name in PRIZES}


def set_prizes(*, night: Night, prizes: Collection[str]) -> None:
    """Tick the night's prizes on (those named) and off (the others); any time, even after the
    night: a prize only reads the standings."""
    for name, ticked in _prize_fields(prizes).items():
        setattr(night, name, ticked)
    night.save(update_fields=list(_prize_fields(prizes)))


def check_group_label(label: str) -> None:
    """A group's label is short: it stands next to a name on a phone's standings."""
    if len(label.strip()) > GROUP_MAX_LENGTH:
        raise ValidationError(
            ngettext(
                "A group's name has at most %(count)d character.",
                "A group's name has at most %(count)d characters.",
                GROUP_MAX_LENGTH,
            )
            % {"count": GROUP_MAX_LENGTH}
        )


def set_groups(*, night: Night, groups: Mapping[int, str]) -> None:
    """Give players of the night their group label (player id -> label; blank: no group). Every
    player named must be checked in for the night; nothing is written otherwise."""
    labels = {player: label.strip() for player, label in groups.items()}
    for label in labels.values():
        check_group_label(label)
    with transaction.atomic():
        entries = {e.player_id: e for e in night.players.select_for_update().filter(player_id__in=labels)}
        if set(entries) != set(labels):
            raise ValidationError(_("Only players checked in for the night can have a group."))
        changed = [entry for player, entry in entries.items() if entry.group != labels[player]]
        for entry in changed:
            entry.group = labels[entry.player_id]
        NightPlayer.objects.bulk_update(changed, ["group"])


def _check_season(*, club: Club, season: Season, played_on: datetime.date) -> None:
    refusal = season.refuses(club=club)
    if refusal is None and season.is_closed:
        raise ValidationError({"season": _("This season is closed: it accepts no new games.")})
    refusal = refusal or season.refuses(on=played_on)
    if refusal is not None:
        raise ValidationError({refusal[0]: refusal[1]})


def started_rounds(night: Night) -> int:
    """How many rounds have started (their tables have games); rounds start in order."""
    numbers = night.tables.filter(game__isnull=False).values_list("round_no", flat=True)
    return max(numbers, default=0)


def is_drawn(night: Night) -> bool:
    return night.tables.exists()


def plan_version(night: Night) -> str:
    """A short fingerprint of the stored plan: a form drawn from one plan refuses to change
    another (a double tap on Swap would otherwise swap the two players back)."""
    seats = NightSeat.objects.filter(table__night=night)
    seats = seats.order_by("table__round_no", "table__table_no", "seat")
    rows: list[tuple[object, ...]] = [
        *seats.values_list("table__round_no", "table__table_no", "seat", "player_id")
    ]
    rows += night.byes.order_by("round_no", "player_id").values_list("round_no", "player_id")
    return hashlib.sha256(repr(rows).encode()).hexdigest()[:16]


def check_open(night: Night) -> None:
    if night.is_finished:
        raise ValidationError(_("This night is finished: its plan no longer changes."))


def stored_plan(night: Night) -> NightPlan:
    """The plan the rows hold (every round drawn so far), with the players present now. A night
    with a movement holds only the rounds planned so far (the later ones need results)."""
    rounds: list[Round] = []
    tables = list(night.tables.prefetch_related("seats").order_by("round_no", "table_no"))
    byes = list(night.byes.order_by("round_no", "id").values_list("round_no", "player_id"))
    last = max((t.round_no for t in tables), default=0) if night.moves_by_round else night.rounds
    for number in range(1, last + 1):
        drawn = tuple(
            Table(tuple(seat.player_id for seat in ordered_seats(table)))
            for table in tables
            if table.round_no == number
        )
        rounds.append(Round(drawn, tuple(p for r, p in byes if r == number)))
    present = tuple(row.player_id for row in night.players.all() if row.until_round is None)
    return NightPlan(present, night.table_sizes(), night.seed, tuple(rounds), night.leftover_table)


def ordered_seats(table: NightTable) -> list[NightSeat]:
    return sorted(table.seats.all(), key=lambda seat: SEAT_ORDER.index(seat.seat))


def write_rounds(night: Night, plan: NightPlan, *, from_round: int) -> None:
    """Store rounds `from_round`.. of `plan`. A table keeps its row (and so the token of its link
    and its printed card) when its round and number stay; only its seats are written again."""
    kept = {(t.round_no, t.table_no): t for t in night.tables.filter(round_no__gte=from_round)}
    NightSeat.objects.filter(table__in=list(kept.values())).delete()
    night.byes.filter(round_no__gte=from_round).delete()
    seats: list[NightSeat] = []
    byes: list[NightBye] = []
    for number, drawn in enumerate(plan.rounds, start=1):
        if number < from_round:
            continue
        for table_no, table in enumerate(drawn.tables, start=1):
            row = kept.pop((number, table_no), None) or NightTable.objects.create(
                night=night, round_no=number, table_no=table_no
            )
            seats += [
                NightSeat(table=row, seat=letter, player_id=player)
                for letter, player in zip(seats_for(len(table.seats)), table.seats, strict=True)
            ]
        byes += [NightBye(night=night, round_no=number, player_id=player) for player in drawn.byes]
    NightTable.objects.filter(pk__in=[t.pk for t in kept.values()]).delete()
    NightSeat.objects.bulk_create(seats)
    NightBye.objects.bulk_create(byes)


def planner_error(error: PlanError) -> ValidationError:
    messages = {
        "duplicate_player": _("A player is checked in twice."),
        "not_in_round": _("That player does not play in this round."),
        "same_player": _("Choose two different players to swap."),
        "already_present": _("That player is already checked in."),
        "not_present": _("That player is not checked in."),
        "no_round": _("There is no such round in this night."),
    }
    return ValidationError({error.field: messages.get(error.code, error.message)})


def locked_for_update(night: Night) -> Night:
    return Night.objects.select_for_update().get(pk=night.pk)


def draw_all(night: Night) -> None:
    players = list(night.players.values_list("player_id", flat=True))
    try:
        plan = planner.plan_night(
            players=players,
            table_sizes=night.table_sizes(),
            rounds=1 if night.moves_by_round else night.rounds,  # a movement plans round 2 on later
            seed=night.seed,
            leftover_table=night.leftover_table,
        )
    except PlanError as error:
        raise planner_error(error) from None
    write_rounds(night, plan, from_round=1)
    drawn_again(night, from_round=1)


def drawn_again(
    night: Night, *, from_round: int, keep: Collection[int] = (), swapped: Mapping[int, str] | None = None
) -> None:
    """The rounds from `from_round` were drawn or planned again: no longer the organiser's by hand,
    but those in `keep` (a late arrival or a leaver changed only their own seat in them) and those
    of `swapped` (a round just swapped -> the fingerprint of the round as drawn)."""
    kept = {
        key: drawn for key, drawn in night.swapped_rounds.items() if int(key) < from_round or int(key) in keep
    }
    kept.update({str(number): drawn for number, drawn in (swapped or {}).items()})
    if kept != night.swapped_rounds:
        night.swapped_rounds = kept
        night.save(update_fields=["swapped_rounds"])


def check_plan_version(night: Night, expected_plan: str | None) -> None:
    """A choice made on a page drawn from another plan (a stale page, a second tap) changes
    nothing: it might undo a swap made meanwhile."""
    if expected_plan is not None and expected_plan != plan_version(night):
        raise ValidationError(
            {
                "player": _(
                    "The plan changed since this page was drawn: nothing was changed. "
                    "Look at the plan again and choose."
                )
            }
        )


@transaction.atomic
def draw_plan(*, night: Night) -> None:
    """Draw every round for the players checked in (again, while no round has started)."""
    night = locked_for_update(night)
    check_open(night)
    if started_rounds(night):
        raise ValidationError(_("The night has started: its played rounds stay as they are."))
    smallest = min(night.table_sizes())
    if night.players.count() < smallest:
        raise ValidationError(
            {
                "players": ngettext(
                    "Check in at least %(count)d player to draw the tables.",
                    "Check in at least %(count)d players to draw the tables.",
                    smallest,
                )
                % {"count": smallest}
            }
        )
    if is_drawn(night):
        night.seed = new_seed()  # drawing again gives another draw
        night.save(update_fields=["seed"])
    draw_all(night)


def first_open_round(night: Night) -> int:
    return started_rounds(night) + 1


@transaction.atomic
def swap_players(
    *, night: Night, round_no: int, first: Player, second: Player, expected_plan: str | None = None
) -> list[int]:
    """Swap two players' seats (or bye) in a round that has not started; on a rotating night the
    later rounds are drawn again so that the swap makes no partnership repeat (a night with a
    movement has no later round planned yet), but a later round the organiser swapped before
    stays as it is, the others drawn around it. The round counts as changed by hand from then on
    (`changed_by_hand`). With `expected_plan` (the `plan_version` the form was drawn from) nothing
    changes if the plan changed meanwhile. Returns the later rounds kept as they were."""
    night = locked_for_update(night)
    check_open(night)
    if expected_plan is not None and expected_plan != plan_version(night):
        raise ValidationError(
            _("The plan changed since this page was drawn (a second tap?): nothing was swapped.")
        )
    if round_no < first_open_round(night):
        raise ValidationError(
            {"round": _("Round %(round)d has started: its tables stay.") % {"round": round_no}}
        )
    stored = stored_plan(night)
    kept = swapped_from(night, round_no + 1)
    for number in kept:  # seats every player present, or drawing around it would lose someone
        held = stored.rounds[number - 1]
        if sorted((*held.seated, *held.byes)) != sorted(stored.players):
            raise ValidationError(
                {
                    "round": _(
                        "Round %(round)d was changed by hand (a swap) but does not seat every player "
                        "checked in, so it cannot stay as it is: nothing was swapped."
                    )
                    % {"round": number}
                }
            )
    try:
        plan = planner.swap_players(
            stored,
            round_index=round_no - 1,
            first=first.pk,
            second=second.pk,
            keep=[number - 1 for number in kept],
        )
    except PlanError as error:
        raise planner_error(error) from None
    write_rounds(night, plan, from_round=round_no)
    # The round as drawn: remembered at its first swap. A swap that brings it back (the same two
    # swapped back) leaves it the draw's own again.
    drawn = night.swapped_rounds.get(str(round_no)) or round_version(stored.rounds[round_no - 1])
    back = round_version(plan.rounds[round_no - 1]) == drawn
    drawn_again(night, from_round=round_no, keep=kept, swapped={} if back else {round_no: drawn})
    return kept


#: The organiser's answers to `UndoesSwap`: plan the round again (the swap is undone), or the late
#: arrival sits out that round (the swap stays).
REPLAN, SIT_OUT = "replan", "sit_out"


def changed_by_hand(night: Night, number: int) -> Round | None:
    """Round `number` as stored, when the organiser changed it by hand (a swap) since it was last
    drawn or planned; None when it was not, or is not planned yet."""
    if str(number) not in night.swapped_rounds:
        return None
    plan = stored_plan(night)
    if len(plan.rounds) < number or not plan.rounds[number - 1].tables:
        return None
    return plan.rounds[number - 1]


def swapped_from(night: Night, from_round: int) -> list[int]:
    """The rounds from `from_round` on the organiser changed by hand (a night with a movement has
    only its next round planned)."""
    numbers = sorted(int(key) for key in night.swapped_rounds)
    return [r for r in numbers if r >= from_round and changed_by_hand(night, r) is not None]


def round_version(planned: Round) -> str:
    return hashlib.sha256(repr(planned).encode()).hexdigest()[:16]


#: The organiser's answers when a result changed under a round they changed by hand: keep the
#: round as it is, or plan it again from the results (the swap is undone).
KEEP = "keep"
