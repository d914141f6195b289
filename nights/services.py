"""Writes of a club night: open it, check players in, draw and change the plan. Keyword-only,
typed, one transaction each. Its rounds (start, finish, a table's link) are `nights.rounds`, its
removal `nights.removal`.

The draw is `nights.planning` (plain Python); this module turns the stored rows into a
`NightPlan`, asks the planner, and writes back the rounds that are not started yet. Games are
made, filed and deleted only through scoring's own services, so the table pages, statistics and
ratings treat a night's games like any other club game.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Sequence
from decimal import Decimal

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club, Membership, Player, Season
from clubs.services import add_roster_player
from nights.models import Night, NightBye, NightPlayer, NightSeat, NightTable, new_seed
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
    deals: int | None = None,
    bid_steps: str = "standard",
    meld_counts_from: int | None = None,
    spread: int | None = None,
    scale: int = 1,
) -> Night:
    """Open a night; the caller's form has checked the settings with the rules engine. The house
    rules (docs/rules.md) are those of every game the night starts; `deals` only for rounds of
    one game."""
    if season is not None:
        _check_season(club=club, season=season, played_on=played_on)
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
        deals=deals if round_ends == Night.RoundEnds.GAME else None,
        bid_steps=bid_steps,
        meld_counts_from=meld_counts_from,
        spread=spread,
        scale=scale,
    )


def _check_season(*, club: Club, season: Season, played_on: datetime.date) -> None:
    refusal = season.refuses(club=club)
    if refusal is None and season.is_closed:
        raise ValidationError({"season": _("This season is closed: it accepts no new games.")})
    refusal = refusal or season.refuses(on=played_on)
    if refusal is not None:
        raise ValidationError({refusal[0]: refusal[1]})


# --- state of the plan --------------------------------------------------------------------------


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
    """The plan the rows hold (every round drawn so far), with the players present now."""
    rounds: list[Round] = []
    tables = list(night.tables.prefetch_related("seats").order_by("round_no", "table_no"))
    byes = list(night.byes.order_by("round_no", "id").values_list("round_no", "player_id"))
    for number in range(1, night.rounds + 1):
        drawn = tuple(
            Table(tuple(seat.player_id for seat in ordered_seats(table)))
            for table in tables
            if table.round_no == number
        )
        rounds.append(Round(drawn, tuple(p for r, p in byes if r == number)))
    present = tuple(row.player_id for row in night.players.all() if row.until_round is None)
    return NightPlan(present, night.table_sizes(), night.seed, tuple(rounds))


def ordered_seats(table: NightTable) -> list[NightSeat]:
    return sorted(table.seats.all(), key=lambda seat: SEAT_ORDER.index(seat.seat))


def _write_rounds(night: Night, plan: NightPlan, *, from_round: int) -> None:
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


def _planner_error(error: PlanError) -> ValidationError:
    messages = {
        "duplicate_player": _("A player is checked in twice."),
        "not_in_round": _("That player does not play in this round."),
        "same_player": _("Choose two different players to swap."),
        "already_present": _("That player is already checked in."),
        "not_present": _("That player is not checked in."),
        "no_round": _("There is no such round in this night."),
    }
    return ValidationError({error.field: messages.get(error.code, error.message)})


# --- check-in -------------------------------------------------------------------------------------


def locked_for_update(night: Night) -> Night:
    return Night.objects.select_for_update().get(pk=night.pk)


@transaction.atomic
def set_checked_in(*, night: Night, player: Player, present: bool) -> None:
    """One tap on a name before the first round starts: check the player in or out. A drawn plan
    is drawn again for the new list (nothing has been played yet)."""
    night = locked_for_update(night)
    check_open(night)
    if started_rounds(night):
        raise ValidationError(
            _("The night has started: add a late arrival or let a player leave for the remaining rounds.")
        )
    if not Membership.objects.filter(club_id=night.club_id, player=player).exists():
        raise ValidationError(_("%(name)s is not on this club's roster.") % {"name": player.name})
    if present:
        NightPlayer.objects.get_or_create(night=night, player=player)
    else:
        NightPlayer.objects.filter(night=night, player=player).delete()
    if is_drawn(night):
        _draw_all(night)


@transaction.atomic
def check_in_newcomer(*, night: Night, name: str) -> tuple[Player, int]:
    """Someone not on the roster yet: added to the club's roster and checked in at once. Once a
    round has started they come as a late arrival and play the rounds not started yet (refused,
    and nobody added to the roster, when every round has started). Returns the player and the
    first round they play."""
    check_open(night)
    player = add_roster_player(club=night.club, name=name)
    if started_rounds(night):
        return player, add_late_arrival(night=night, player=player)
    set_checked_in(night=night, player=player, present=True)
    return player, 1


def _draw_all(night: Night) -> None:
    players = list(night.players.values_list("player_id", flat=True))
    try:
        plan = planner.plan_night(
            players=players, table_sizes=night.table_sizes(), rounds=night.rounds, seed=night.seed
        )
    except PlanError as error:
        raise _planner_error(error) from None
    _write_rounds(night, plan, from_round=1)


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
    _draw_all(night)


def first_open_round(night: Night) -> int:
    return started_rounds(night) + 1


@transaction.atomic
def swap_players(
    *, night: Night, round_no: int, first: Player, second: Player, expected_plan: str | None = None
) -> None:
    """Swap two players' seats (or bye) in a round that has not started; the later rounds are
    drawn again so that the swap makes no partnership repeat. With `expected_plan` (the
    `plan_version` the form was drawn from) nothing changes if the plan changed meanwhile."""
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
    try:
        plan = planner.swap_players(
            stored_plan(night), round_index=round_no - 1, first=first.pk, second=second.pk
        )
    except PlanError as error:
        raise _planner_error(error) from None
    _write_rounds(night, plan, from_round=round_no)


@transaction.atomic
def add_late_arrival(*, night: Night, player: Player) -> int:
    """A player who comes late plays from the first round not started yet; that round and the
    later ones are drawn again. Returns that round's number."""
    night = locked_for_update(night)
    check_open(night)
    from_round = first_open_round(night)
    if from_round > night.rounds:
        raise ValidationError({"player": _("Every round has started: there is no round left to join.")})
    if not Membership.objects.filter(club_id=night.club_id, player=player).exists():
        raise ValidationError({"player": _("%(name)s is not on this club's roster.") % {"name": player.name}})
    entry = NightPlayer.objects.filter(night=night, player=player).first()
    if entry is not None and entry.until_round is None:
        raise ValidationError({"player": _("%(name)s is already checked in.") % {"name": player.name}})
    plan = stored_plan(night)
    try:
        plan = planner.add_player(plan, player=player.pk, from_round=from_round - 1)
    except PlanError as error:
        raise _planner_error(error) from None
    if entry is None:
        NightPlayer.objects.create(night=night, player=player, from_round=from_round)
    else:  # left earlier and came back: plays again from this round
        entry.until_round = None
        entry.save(update_fields=["until_round"])
    _write_rounds(night, plan, from_round=from_round)
    return from_round


@transaction.atomic
def remove_for_remaining_rounds(*, night: Night, player: Player) -> int:
    """A player who leaves: the rounds not started yet are drawn again without them. Their played
    rounds stay. Returns the first round they miss."""
    night = locked_for_update(night)
    check_open(night)
    from_round = first_open_round(night)
    if from_round > night.rounds:
        raise ValidationError({"player": _("Every round has started: there is no round left to change.")})
    entry = NightPlayer.objects.filter(night=night, player=player, until_round=None).first()
    if entry is None:
        raise ValidationError({"player": _("%(name)s is not checked in.") % {"name": player.name}})
    try:
        plan = planner.remove_player(stored_plan(night), player=player.pk, from_round=from_round - 1)
    except PlanError as error:
        raise _planner_error(error) from None
    if from_round == 1 or entry.from_round >= from_round:
        entry.delete()  # never played: as if never checked in
    else:
        entry.until_round = from_round - 1
        entry.save(update_fields=["until_round"])
    _write_rounds(night, plan, from_round=from_round)
    return from_round


def night_players(night: Night) -> Sequence[NightPlayer]:
    return list(night.players.select_related("player"))
