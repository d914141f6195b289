"""A night with a movement (progressive, lowest stays): its next round is planned from the results
of the round before, once every table of it has ended, and planned again when those results
change, unless the organiser changed it by hand (a swap): then the night page asks first."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from nights.figures import awaits_confirmation
from nights.models import (
    Night,
    NightPlayer,
    NightTable,
)
from nights.planning import movements
from nights.planning.plan import NightPlan, PlanError, Round, Table
from nights.services import (
    KEEP,
    REPLAN,
    changed_by_hand,
    check_open,
    check_plan_version,
    drawn_again,
    first_open_round,
    locked_for_update,
    ordered_seats,
    planner_error,
    round_version,
    started_rounds,
    stored_plan,
    write_rounds,
)
from scoring.rules.tables import side_of


def night_players(night: Night) -> Sequence[NightPlayer]:
    return list(night.players.select_related("player"))


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
        raise planner_error(error) from None
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
    by_hand = not again and changed_by_hand(night, number) is not None
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
        same = night.planned_from.endswith(f":{round_version(planned_round)}")
        if same:
            _set_planned_from(night, results, planned_round)
        _set_results_changed(night, None if same else number)
        return True
    rounds = (*plan.rounds[:started], planned_round)
    write_rounds(night, NightPlan(plan.players, plan.table_sizes, plan.seed, rounds), from_round=number)
    _set_planned_from(night, results, planned_round)
    _set_results_changed(night, None)
    drawn_again(night, from_round=number)
    return True


def _set_planned_from(night: Night, results: str, planned: Round) -> None:
    """Remember what round `planned`, the movement's, was planned from (`plan_moved_round`)."""
    night.planned_from = f"{results}:{round_version(planned)}"
    night.save(update_fields=["planned_from"])


def _set_results_changed(night: Night, number: int | None) -> None:
    if night.results_changed_round != number:
        night.results_changed_round = number
        night.save(update_fields=["results_changed_round"])


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
