"""Reads of what byes earn on club nights (the rule is `nights.settlement.byes`): the seats of the
started rounds with the figures the standings count, and the byes. The standings and the ledger
both read it here, so a player's night total and the money always agree.

Four queries whatever the number of nights, and none for nights whose bye earns nothing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from nights.figures import points_difference, table_figures
from nights.models import Night, NightBye, NightTable
from nights.settlement.byes import ByeRule, ByeSettlement, PlayedSeat, bye_settlement
from scoring.models import GameSeat, GameStat
from scoring.rules.tables import chips_in_play, sides_for


def bye_rule(night: Night) -> ByeRule:
    return ByeRule(
        kind=night.bye_compensation,
        points=night.bye_points or 0,
        chips=night.bye_chips or 0,
        chips_in_play=night.is_check,
    )


def bye_settlements(nights: Sequence[Night]) -> dict[int, ByeSettlement]:
    """Per night (by id), what its byes earn and who pays their chips."""
    wanted = [night for night in nights if night.bye_compensation != Night.ByeCompensation.NONE]
    out = {night.pk: ByeSettlement() for night in nights}
    if not wanted:
        return out
    by_id = {night.pk: night for night in wanted}
    tables = list(NightTable.objects.filter(night__in=wanted, game__isnull=False).select_related("game"))
    game_ids = [table.game_id for table in tables]
    players: dict[int, dict[str, int | None]] = defaultdict(dict)
    for game_id, seat, player in GameSeat.objects.filter(game_id__in=game_ids).values_list(
        "game_id", "seat", "player_id"
    ):
        players[game_id][seat] = player
    stats: dict[int, list[GameStat]] = defaultdict(list)
    for stat in GameStat.objects.filter(game_id__in=game_ids):
        stats[stat.game_id].append(stat)
    seats: dict[int, list[PlayedSeat]] = defaultdict(list)
    for table in sorted(tables, key=lambda t: (t.night_id, t.round_no, t.table_no)):
        game, night = table.game, by_id[table.night_id]
        assert game is not None
        linked = players.get(game.pk, {})
        if not linked or any(player is None for player in linked.values()):
            continue  # a seat unlinked by hand: the game counts for nobody's chips
        points, chips, complete, _winner = table_figures(game, stats[game.pk])
        with_chips = chips_in_play(game.variant, game.deck)
        sides = sides_for(game.seats)
        for seat in sorted(linked, key=lambda letter: "NESW".index(letter)):
            side = next(side for side in sides if seat in side)
            who = linked[seat]
            assert who is not None
            seats[night.pk].append(
                PlayedSeat(
                    table.round_no,
                    who,
                    points_difference(points, side),
                    chips.get(side, 0) if with_chips else 0,
                    with_chips,
                    complete or night.is_finished,
                    points.get(side, 0),
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
