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
from collections.abc import Collection, Mapping, Sequence
from decimal import Decimal

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club, Membership, Player, Season
from clubs.services import add_roster_player
from nights.figures import awaits_confirmation
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
from nights.planning import movements
from nights.planning import night as planner
from nights.planning.plan import NightPlan, PlanError, Round, Table
from nights.planning.rounds import table_sizes
from scoring.rules.tables import SEAT_ORDER, seats_for, side_of


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
def set_checked_in(
    *, night: Night, player: Player, present: bool, choice: str = "", expected_plan: str | None = None
) -> None:
    """One tap on a name before the first round starts: check the player in or out (a tap that
    changes nothing writes nothing). A drawn plan is drawn again for the new list (nothing has been
    played yet), but a round the organiser changed by hand (a swap) keeps the change as for a late
    arrival or a leaver (`add_late_arrival`, `remove_for_remaining_rounds`): when it cannot,
    `UndoesSwap` is raised and nothing is written, unless `choice` says what to do. With
    `expected_plan` (the plan the choice was offered on) nothing changes if the plan changed
    meanwhile."""
    night = locked_for_update(night)
    check_open(night)
    if started_rounds(night):
        raise ValidationError(
            _("The night has started: add a late arrival or let a player leave for the remaining rounds.")
        )
    if not Membership.objects.filter(club_id=night.club_id, player=player).exists():
        raise ValidationError(_("%(name)s is not on this club's roster.") % {"name": player.name})
    entry = NightPlayer.objects.filter(night=night, player=player).first()
    if (entry is not None) == present:
        return  # a second tap (its plan version is the first tap's, gone by now): nothing changes
    check_plan_version(night, expected_plan)
    kept: dict[int, Round] = {}
    if is_drawn(night) and night.swapped_rounds:
        keeping = _kept_for_arrival if present else _kept_for_leaver
        kept = keeping(night, player, 1, choice)
    plan = stored_plan(night) if kept else None
    if present:
        NightPlayer.objects.create(night=night, player=player)
    else:
        NightPlayer.objects.filter(night=night, player=player).delete()
    if plan is not None:  # the swaps stay; the other rounds are drawn again around them
        players = (*plan.players, player.pk) if present else tuple(p for p in plan.players if p != player.pk)
        _write_changed_rounds(night, plan, players, 1, kept=kept)
    elif is_drawn(night):
        _draw_all(night)


@transaction.atomic
def check_in_newcomer(
    *, night: Night, name: str, choice: str = "", expected_plan: str | None = None
) -> tuple[Player, int]:
    """Someone not on the roster yet: added to the club's roster and checked in at once. Once a
    round has started they come as a late arrival and play the rounds not started yet (refused,
    and nobody added to the roster, when every round has started). Returns the player and the
    first round they play."""
    check_open(night)
    check_plan_version(night, expected_plan)
    player = add_roster_player(club=night.club, name=name)
    if started_rounds(night):
        return player, add_late_arrival(
            night=night, player=player, choice=choice, expected_plan=expected_plan
        )
    set_checked_in(night=night, player=player, present=True, choice=choice)
    return player, 1


def _draw_all(night: Night) -> None:
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
        raise _planner_error(error) from None
    _write_rounds(night, plan, from_round=1)
    _drawn_again(night, from_round=1)


def _drawn_again(
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
    _draw_all(night)


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
    (`_changed_by_hand`). With `expected_plan` (the `plan_version` the form was drawn from) nothing
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
    kept = _swapped_from(night, round_no + 1)
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
        raise _planner_error(error) from None
    _write_rounds(night, plan, from_round=round_no)
    # The round as drawn: remembered at its first swap. A swap that brings it back (the same two
    # swapped back) leaves it the draw's own again.
    drawn = night.swapped_rounds.get(str(round_no)) or _round_version(stored.rounds[round_no - 1])
    back = _round_version(plan.rounds[round_no - 1]) == drawn
    _drawn_again(night, from_round=round_no, keep=kept, swapped={} if back else {round_no: drawn})
    return kept


class UndoesSwap(ValidationError):
    """A player checked in or out, a late arrival or a leaver who cannot be seated in (or left out
    of) the rounds `rounds` the organiser changed by hand (swaps) without drawing or planning them
    again, which would undo the swaps: nothing changes until the organiser chooses (`choice`), on
    the page drawn from plan `plan` (`plan_version`)."""

    def __init__(
        self,
        message: str,
        *,
        rounds: Sequence[int],
        name: str,
        plan: str,
        moves: bool,
        can_sit_out: bool = False,
        leaving: bool = False,
        player_id: int | None = None,
    ) -> None:
        super().__init__({"player": message})
        self.rounds = list(rounds)
        self.name = name
        self.plan = plan
        self.moves = moves  # a night with a movement (the round is planned again), else drawn again
        self.can_sit_out = can_sit_out
        self.leaving = leaving  # leaving (checked out, `remove_for_remaining_rounds`), not coming
        self.player_id = player_id

    @property
    def round_no(self) -> int:
        return self.rounds[0]

    @property
    def rounds_text(self) -> str:
        """The rounds as a page names them: "2, 3"."""
        return ", ".join(map(str, self.rounds))


#: The organiser's answers to `UndoesSwap`: plan the round again (the swap is undone), or the late
#: arrival sits out that round (the swap stays).
REPLAN, SIT_OUT = "replan", "sit_out"


def _changed_by_hand(night: Night, number: int) -> Round | None:
    """Round `number` as stored, when the organiser changed it by hand (a swap) since it was last
    drawn or planned; None when it was not, or is not planned yet."""
    if str(number) not in night.swapped_rounds:
        return None
    plan = stored_plan(night)
    if len(plan.rounds) < number or not plan.rounds[number - 1].tables:
        return None
    return plan.rounds[number - 1]


def _swapped_from(night: Night, from_round: int) -> list[int]:
    """The rounds from `from_round` on the organiser changed by hand (a night with a movement has
    only its next round planned)."""
    numbers = sorted(int(key) for key in night.swapped_rounds)
    return [r for r in numbers if r >= from_round and _changed_by_hand(night, r) is not None]


def _seated_keeping(night: Night, planned: Round, player: int) -> Round | None:
    """`planned` with a late arrival seated and nobody moved: the players who sit out the round and
    the late arrival make a table of their own when the night's table sizes allow, or (a Check
    Pinochle night whose leftovers play at a standard table) the late arrival makes its table of
    three a full table of four; else None."""
    short = [i for i, t in enumerate(planned.tables) if len(t.seats) == 3]
    if night.leftover_table and not planned.byes and len(short) == 1:
        tables = list(planned.tables)
        tables[short[0]] = Table((*tables[short[0]].seats, player))
        return Round(tuple(tables), ())
    group = (*planned.byes, player)
    sizes, left = table_sizes(len(group), night.table_sizes(), leftover_table=night.leftover_table)
    if left or len(sizes) != 1:
        return None
    return Round((*planned.tables, Table(group)), ())


def _unseated_keeping(planned: Round, player: int) -> Round | None:
    """`planned` without a leaver and nobody else moved: a leaver who sits out the round is just
    left out; a seated one's seat goes to the first player who sits out it; else None."""
    if player in planned.byes:
        return Round(planned.tables, tuple(p for p in planned.byes if p != player))
    if not planned.byes:
        return None
    stand_in = planned.byes[0]
    tables = tuple(Table(tuple(stand_in if p == player else p for p in t.seats)) for t in planned.tables)
    return Round(tables, planned.byes[1:])


def _kept_for_arrival(night: Night, player: Player, from_round: int, choice: str) -> dict[int, Round]:
    """The rounds from `from_round` the organiser changed by hand (swaps), each with `player`
    coming in seated without moving anybody (`_seated_keeping`). A round where that cannot be is
    drawn or planned again with `choice` `REPLAN` (its swap undone), or has `player` sit it out
    with `SIT_OUT` while they still play another round; else `UndoesSwap` names every such round
    and nothing is written."""
    kept: dict[int, Round] = {}
    unseated: list[int] = []
    for number in _swapped_from(night, from_round):
        by_hand = _changed_by_hand(night, number)
        assert by_hand is not None
        seated = _seated_keeping(night, by_hand, player.pk)
        if seated is None:
            unseated.append(number)
        else:
            kept[number] = seated
    if not unseated or choice == REPLAN:
        return kept
    can_sit_out = any(r not in unseated for r in range(from_round, night.rounds + 1))  # still plays
    if choice == SIT_OUT and can_sit_out:
        for number in unseated:
            by_hand = _changed_by_hand(night, number)
            assert by_hand is not None
            kept[number] = Round(by_hand.tables, (*by_hand.byes, player.pk))
        return kept
    moves = night.moves_by_round and from_round > 1  # round 1 is drawn, the later ones planned
    if moves:
        message = _(
            "Round %(round)d was changed by hand (a swap). Seating %(name)s in it means "
            "planning it again from the results, which undoes that swap: nothing was changed. "
            "Choose below."
        ) % {"round": unseated[0], "name": player.name}
    else:
        message = ngettext(
            "Round %(rounds)s was changed by hand (a swap). Seating %(name)s in it means drawing the "
            "rounds not started again, which undoes that swap: nothing was changed. Choose below.",
            "Rounds %(rounds)s were changed by hand (swaps). Seating %(name)s in them means drawing "
            "the rounds not started again, which undoes those swaps: nothing was changed. Choose below.",
            len(unseated),
        ) % {"rounds": ", ".join(map(str, unseated)), "name": player.name}
    raise UndoesSwap(
        message,
        rounds=unseated,
        name=player.name,
        plan=plan_version(night),
        moves=moves,
        can_sit_out=can_sit_out,
        player_id=player.pk,
    )


def _kept_for_leaver(night: Night, player: Player, from_round: int, choice: str) -> dict[int, Round]:
    """The rounds from `from_round` the organiser changed by hand (swaps), each without `player`
    and nobody else moved (`_unseated_keeping`). A round where that cannot be is drawn or planned
    again with `choice` `REPLAN` (its swap undone); else `UndoesSwap` names every such round and
    nothing is written."""
    kept: dict[int, Round] = {}
    stuck: list[int] = []
    for number in _swapped_from(night, from_round):
        by_hand = _changed_by_hand(night, number)
        assert by_hand is not None
        unseated = _unseated_keeping(by_hand, player.pk)
        if unseated is None:
            stuck.append(number)
        else:
            kept[number] = unseated
    if not stuck or choice == REPLAN:
        return kept
    moves = night.moves_by_round and from_round > 1
    if moves:
        message = _(
            "Round %(round)d was changed by hand (a swap), and nobody sits it out to take the "
            "seat of %(name)s. Planning it again without %(name)s undoes that swap: nothing was "
            "changed. Choose below."
        ) % {"round": stuck[0], "name": player.name}
    else:
        message = ngettext(
            "Round %(rounds)s was changed by hand (a swap), and nobody sits it out to take the seat of "
            "%(name)s. Drawing the rounds not started again without %(name)s undoes that swap: nothing "
            "was changed. Choose below.",
            "Rounds %(rounds)s were changed by hand (swaps), and nobody sits them out to take the seat "
            "of %(name)s. Drawing the rounds not started again without %(name)s undoes those swaps: "
            "nothing was changed. Choose below.",
            len(stuck),
        ) % {"rounds": ", ".join(map(str, stuck)), "name": player.name}
    raise UndoesSwap(
        message,
        rounds=stuck,
        name=player.name,
        plan=plan_version(night),
        moves=moves,
        leaving=True,
        player_id=player.pk,
    )


@transaction.atomic
def add_late_arrival(
    *, night: Night, player: Player, choice: str = "", expected_plan: str | None = None
) -> int:
    """A player who comes late plays from the first round not started yet; that round and the
    later ones are drawn again (a night with a movement: its next round is planned again from the
    results). Returns the first round they play.

    A round the organiser changed by hand (a swap) keeps the change: the late arrival makes a new
    table with the players who sit out that round when the table sizes allow; else `UndoesSwap` is
    raised and nothing is written, unless `choice` says what to do (`REPLAN`: draw or plan those
    rounds again, undoing their swaps; `SIT_OUT`: the late arrival sits them out). With
    `expected_plan` (the plan the choice was offered on) nothing changes if the plan changed
    meanwhile."""
    night = locked_for_update(night)
    check_open(night)
    check_plan_version(night, expected_plan)
    from_round = first_open_round(night)
    if from_round > night.rounds:
        raise ValidationError({"player": _("Every round has started: there is no round left to join.")})
    if not Membership.objects.filter(club_id=night.club_id, player=player).exists():
        raise ValidationError({"player": _("%(name)s is not on this club's roster.") % {"name": player.name}})
    entry = NightPlayer.objects.filter(night=night, player=player).first()
    if entry is not None and entry.until_round is None:
        raise ValidationError({"player": _("%(name)s is already checked in.") % {"name": player.name}})
    kept = _kept_for_arrival(night, player, from_round, choice)
    plan = stored_plan(night)
    players = (*plan.players, player.pk)
    if entry is None:
        NightPlayer.objects.create(night=night, player=player, from_round=from_round)
    else:  # left earlier and came back: plays again from this round
        entry.until_round = None
        entry.save(update_fields=["until_round"])
    _write_changed_rounds(night, plan, players, from_round, kept=kept)
    first = from_round  # seated by the movement or the draw, unless sitting out a kept round
    while first in kept and player.pk in kept[first].byes:
        first += 1
    return first


@transaction.atomic
def remove_for_remaining_rounds(
    *, night: Night, player: Player, choice: str = "", expected_plan: str | None = None
) -> int:
    """A player who leaves: the rounds not started yet are drawn again without them (a night with
    a movement: its next round is planned again from the results). Their played rounds stay.
    Returns the first round they miss.

    A round the organiser changed by hand (a swap) keeps the change: a leaver who sits out that
    round is just left out, a seated one's seat goes to a player who sits it out; when nobody does,
    `UndoesSwap` is raised and nothing is written, unless `choice` is `REPLAN` (draw or plan the
    rounds again without them, undoing the swap). With `expected_plan` (the plan the choice was
    offered on) nothing changes if the plan changed meanwhile."""
    night = locked_for_update(night)
    check_open(night)
    check_plan_version(night, expected_plan)
    from_round = first_open_round(night)
    if from_round > night.rounds:
        raise ValidationError({"player": _("Every round has started: there is no round left to change.")})
    entry = NightPlayer.objects.filter(night=night, player=player, until_round=None).first()
    if entry is None:
        raise ValidationError({"player": _("%(name)s is not checked in.") % {"name": player.name}})
    kept = _kept_for_leaver(night, player, from_round, choice)
    plan = stored_plan(night)
    players = tuple(p for p in plan.players if p != player.pk)
    if from_round == 1 or entry.from_round >= from_round:
        entry.delete()  # never played: as if never checked in
    else:
        entry.until_round = from_round - 1
        entry.save(update_fields=["until_round"])
    _write_changed_rounds(night, plan, players, from_round, kept=kept)
    return from_round


def _write_changed_rounds(
    night: Night, plan: NightPlan, players: Sequence[int], from_round: int, *, kept: Mapping[int, Round]
) -> None:
    """The rounds from `from_round` after a player came or went (`players`: those present now):
    `kept`, the rounds the organiser changed by hand with only that player's seat changed (the
    swaps stay); on a night with a movement the next round otherwise planned again from the
    results; on a rotating night the other rounds drawn again around the kept ones."""
    if night.moves_by_round and from_round > 1:
        if kept:
            rounds = (*plan.rounds[: from_round - 1], kept[from_round])
            _write_rounds(
                night, NightPlan(plan.players, plan.table_sizes, plan.seed, rounds), from_round=from_round
            )
        else:
            plan_moved_round(night=night, again=True)
        return
    try:
        drawn = planner.draw_keeping(
            plan, players=players, from_round=from_round - 1, kept={r - 1: k for r, k in kept.items()}
        )
    except PlanError as error:
        raise _planner_error(error) from None
    _write_rounds(night, drawn, from_round=from_round)
    _drawn_again(night, from_round=from_round, keep=kept)


def night_players(night: Night) -> Sequence[NightPlayer]:
    return list(night.players.select_related("player"))


# --- movements: the next round planned from the results of the last one ---------------------------


def tables_still_playing(night: Night, round_no: int) -> list[int]:
    """The tables of round `round_no` whose game has not ended (or not started), or whose last hand
    still waits for the other side's OK: they hold up the plan of the next round of a night with a
    movement (a result the other side may still call "Not right" moves nobody)."""
    tables = night.tables.filter(round_no=round_no).select_related("game").order_by("table_no")
    return [t.table_no for t in tables if not table_final(t)]


def table_final(table: NightTable) -> bool:
    """The table's game is over and no hand of it waits for the other side's OK."""
    return table.game is not None and table.game.finished and not awaits_confirmation(table.game)


def _outcomes(tables: list[NightTable]) -> list[movements.TableOutcome]:
    """What a movement reads of each table of a round (every one final): who won, and totals."""
    outcomes = []
    for t in tables:
        assert t.game is not None
        game, seats = t.game, ordered_seats(t)
        side = "" if game.winner == "draw" else game.winner  # a draw: no winner (movements.py)
        outcomes.append(
            movements.TableOutcome(
                winners=frozenset(s.player_id for s in seats if side and side_of(s.seat, len(seats)) == side),
                totals={s.player_id: game.scores.get(side_of(s.seat, len(seats)), 0) for s in seats},
            )
        )
    return outcomes


def results_version(tables: list[NightTable]) -> str:
    """A fingerprint of a round's results as a movement reads them (`_outcomes`): a note, a
    signature or a hand corrected to the same result leave it as it was."""
    rows = [
        (t.table_no, sorted(o.winners), sorted(o.totals.items()))
        for t, o in zip(tables, _outcomes(tables), strict=True)
    ]
    return hashlib.sha256(repr(rows).encode()).hexdigest()[:16]


def _movement_round(night: Night, started: int, tables: list[NightTable], plan: NightPlan) -> Round:
    """What the night's movement plans for round `started` + 1 from the results of round
    `started` (its `tables`, every one final) for the players present in it now."""
    number = started + 1
    previous = Round(
        tuple(Table(tuple(seat.player_id for seat in ordered_seats(t))) for t in tables),
        tuple(night.byes.filter(round_no=started).order_by("id").values_list("player_id", flat=True)),
    )
    outcomes = _outcomes(tables)
    entries = list(night.players.all())
    present = [e.player_id for e in entries if e.plays_in(number)]
    byes_so_far: dict[int, int] = {}
    for player_id in night.byes.filter(round_no__lte=started).values_list("player_id", flat=True):
        byes_so_far[player_id] = byes_so_far.get(player_id, 0) + 1
    partners: dict[tuple[int, int], int] = {}
    for played in plan.rounds[:started]:
        for drawn in played.tables:
            for a, b in drawn.partnerships:
                partners[(min(a, b), max(a, b))] = partners.get((min(a, b), max(a, b)), 0) + 1
    try:
        planned = movements.next_round(
            previous,
            outcomes,
            movement=night.movement,
            present=present,
            allowed=night.table_sizes(),
            byes_so_far=byes_so_far,
            partners_so_far=partners,
            leftover_table=night.leftover_table,
        )
    except PlanError as error:
        raise _planner_error(error) from None
    return planned


@transaction.atomic
def plan_moved_round(*, night: Night, again: bool = False) -> bool:
    """A night with a movement: plan the round after the last started one once every table of that
    round has ended, from their results (`nights.planning.movements`). Returns whether the round is
    planned now.

    A planned round is planned again only when the results it was planned from changed (a table
    corrected to another result), or with `again` (the players present changed); a saved note or
    the same result saved again writes nothing. A round the organiser changed by hand (a swap) is
    never planned again without a word: it stays as it is, and the night page says that a result
    changed and offers to plan it again (`answer_changed_results`). A round not changed by hand is
    taken back while a table of the round before plays again (a last hand taken back)."""
    night = locked_for_update(night)
    started = started_rounds(night)
    if not night.moves_by_round or night.is_finished or not 0 < started < night.rounds:
        return False
    number = started + 1
    by_hand = not again and _changed_by_hand(night, number) is not None
    tables = list(night.tables.filter(round_no=started).select_related("game").prefetch_related("seats"))
    tables.sort(key=lambda t: t.table_no)
    if not all(table_final(t) for t in tables):
        if not by_hand:  # the organiser's round waits for the table as it is
            night.tables.filter(round_no__gte=number, game__isnull=True).delete()
            night.byes.filter(round_no__gte=number).delete()
        return False
    results = results_version(tables)
    planned = night.tables.filter(round_no=number).exists()
    if planned and not again and night.planned_from.startswith(f"{results}:"):
        _set_results_changed(night, None)  # the same results as before (maybe corrected back)
        return True
    plan = stored_plan(night)
    planned_round = _movement_round(night, started, tables, plan)
    if by_hand:
        # The movement seats the round as before (its results moved nobody): the swap stays
        # without a word. Else it stays, and the night page says so and offers to plan it again.
        same = night.planned_from.endswith(f":{_round_version(planned_round)}")
        if same:
            _set_planned_from(night, results, planned_round)
        _set_results_changed(night, None if same else number)
        return True
    rounds = (*plan.rounds[:started], planned_round)
    _write_rounds(night, NightPlan(plan.players, plan.table_sizes, plan.seed, rounds), from_round=number)
    _set_planned_from(night, results, planned_round)
    _set_results_changed(night, None)
    _drawn_again(night, from_round=number)
    return True


def _round_version(planned: Round) -> str:
    return hashlib.sha256(repr(planned).encode()).hexdigest()[:16]


def _set_planned_from(night: Night, results: str, planned: Round) -> None:
    """Remember what round `planned`, the movement's, was planned from (`plan_moved_round`)."""
    night.planned_from = f"{results}:{_round_version(planned)}"
    night.save(update_fields=["planned_from"])


def _set_results_changed(night: Night, number: int | None) -> None:
    if night.results_changed_round != number:
        night.results_changed_round = number
        night.save(update_fields=["results_changed_round"])


#: The organiser's answers when a result changed under a round they changed by hand: keep the
#: round as it is, or plan it again from the results (the swap is undone).
KEEP = "keep"


@transaction.atomic
def answer_changed_results(*, night: Night, choice: str, expected_plan: str | None) -> int:
    """The organiser's answer to "a result changed after you changed round N by hand"
    (`plan_moved_round`): `KEEP` the round as it is (the notice goes), or `REPLAN` it from the
    results now (undoing the swap). Nothing changes if the plan changed since the page was drawn.
    Returns the round."""
    night = locked_for_update(night)
    check_open(night)
    check_plan_version(night, expected_plan)
    number = night.results_changed_round
    if number is None or number != first_open_round(night) or choice not in (KEEP, REPLAN):
        raise ValidationError(
            _("There is nothing to choose now: the plan changed since this page was drawn.")
        )
    tables = list(night.tables.filter(round_no=number - 1).select_related("game").prefetch_related("seats"))
    tables.sort(key=lambda t: t.table_no)
    if not all(table_final(t) for t in tables):
        raise ValidationError(
            _("A table of round %(round)d plays again: choose once it has ended.") % {"round": number - 1}
        )
    if choice == REPLAN:
        plan_moved_round(night=night, again=True)
    else:
        movement_round = _movement_round(night, number - 1, tables, stored_plan(night))
        _set_planned_from(night, results_version(tables), movement_round)
        _set_results_changed(night, None)
    return number
