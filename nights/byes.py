"""Reads of what byes earn on club nights (the rule is `nights.settlement.byes`): the seats of the
started rounds with the figures the standings count, and the byes. The standings and the ledger
both read it here, so a player's night total and the money always agree.

Four queries whatever the number of nights (one when the caller has read the started tables), and
none for nights whose bye earns nothing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from nights.figures import StartedTable, points_difference, started_tables
from nights.models import Night, NightBye
from nights.settlement.byes import ByeRule, ByeSettlement, PlayedSeat, bye_settlement
from scoring.rules.tables import chips_in_play


def bye_rule(night: Night) -> ByeRule:
    return ByeRule(
        kind=night.bye_compensation,
        points=night.bye_points or 0,
        chips=night.bye_chips or 0,
        chips_in_play=night.is_check,
    )


def bye_settlements(
    nights: Sequence[Night], tables: Sequence[StartedTable] | None = None
) -> dict[int, ByeSettlement]:
    """Per night (by id), what its byes earn and who pays their chips; `tables`: the nights' started
    tables when the caller has read them already (`nights.figures.started_tables`)."""
    wanted = [night for night in nights if night.bye_compensation != Night.ByeCompensation.NONE]
    out = {night.pk: ByeSettlement() for night in nights}
    if not wanted:
        return out
    by_id = {night.pk: night for night in wanted}
    seats: dict[int, list[PlayedSeat]] = defaultdict(list)
    for table in tables if tables is not None else started_tables(wanted):
        night = by_id.get(table.night_id)
        players = table.players
        if night is None or players is None:
            continue  # not a night whose bye earns something, or a seat unlinked by hand
        with_chips = chips_in_play(table.game.variant, table.game.deck)
        for seat, who in players.items():
            side = table.side_of(seat)
            seats[night.pk].append(
                PlayedSeat(
                    table.round_no,
                    who,
                    points_difference(table.points, side),
                    table.chips.get(side, 0) if with_chips else 0,
                    with_chips,
                    table.complete or night.is_finished,
                    table.points.get(side, 0),
                )
            )
    byes: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for night_id, round_no, player in NightBye.objects.filter(night__in=wanted).values_list(
        "night_id", "round_no", "player_id"
    ):
        byes[night_id].append((round_no, player))
    for night in wanted:
        out[night.pk] = bye_settlement(seats[night.pk], byes[night.pk], bye_rule(night))
    return out
