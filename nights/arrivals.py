"""Players checking in or out, a newcomer at the door, a late arrival and a leaver: the rounds not
started yet are drawn again (a night with a movement: its next round is planned again), keeping
every round the organiser changed by hand (a swap) that can be kept, or asking first
(`UndoesSwap`). Keyword-only, typed, one transaction each."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Membership, Player
from clubs.services import add_roster_player
from nights.models import (
    Night,
    NightPlayer,
)
from nights.movement_plan import plan_moved_round
from nights.planning import night as planner
from nights.planning.plan import NightPlan, PlanError, Round, Table
from nights.planning.rounds import table_sizes
from nights.services import (
    REPLAN,
    SIT_OUT,
    changed_by_hand,
    check_open,
    check_plan_version,
    draw_all,
    drawn_again,
    first_open_round,
    is_drawn,
    locked_for_update,
    plan_version,
    planner_error,
    started_rounds,
    stored_plan,
    swapped_from,
    write_rounds,
)


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
        draw_all(night)


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


def _swaps_kept(
    night: Night, from_round: int, change: Callable[[Round], Round | None]
) -> tuple[dict[int, Round], list[int]]:
    """Each round from `from_round` the organiser changed by hand (a swap), changed by `change`
    without undoing the swap: the rounds it can change that way, and the numbers of those it
    cannot (`change` gave None)."""
    kept: dict[int, Round] = {}
    stuck: list[int] = []
    for number in swapped_from(night, from_round):
        by_hand = changed_by_hand(night, number)
        assert by_hand is not None
        changed = change(by_hand)
        if changed is None:
            stuck.append(number)
        else:
            kept[number] = changed
    return kept, stuck


def _kept_for_arrival(night: Night, player: Player, from_round: int, choice: str) -> dict[int, Round]:
    """The rounds from `from_round` the organiser changed by hand (swaps), each with `player`
    coming in seated without moving anybody (`_seated_keeping`). A round where that cannot be is
    drawn or planned again with `choice` `REPLAN` (its swap undone), or has `player` sit it out
    with `SIT_OUT` while they still play another round; else `UndoesSwap` names every such round
    and nothing is written."""
    kept, unseated = _swaps_kept(
        night, from_round, lambda by_hand: _seated_keeping(night, by_hand, player.pk)
    )
    if not unseated or choice == REPLAN:
        return kept
    can_sit_out = any(r not in unseated for r in range(from_round, night.rounds + 1))  # still plays
    if choice == SIT_OUT and can_sit_out:
        for number in unseated:
            by_hand = changed_by_hand(night, number)
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
    kept, stuck = _swaps_kept(night, from_round, lambda by_hand: _unseated_keeping(by_hand, player.pk))
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
            write_rounds(
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
        raise planner_error(error) from None
    write_rounds(night, drawn, from_round=from_round)
    drawn_again(night, from_round=from_round, keep=kept)
