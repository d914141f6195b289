"""Movements of a club night worked by hand: who sits where in the next round (no database)."""

import pytest

from nights.planning.movements import (
    FIXED,
    LOWEST_STAYS,
    PROGRESSIVE,
    TableOutcome,
    next_round,
)
from nights.planning.plan import CHECK_TABLE_SIZES, STANDARD_TABLE_SIZES, PlanError, Round, Table


def won(*players: int) -> TableOutcome:
    return TableOutcome(winners=frozenset(players))


def tables(*seats: tuple[int, ...]) -> tuple[Table, ...]:
    return tuple(Table(s) for s in seats)


THREE_TABLES = Round(tables((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)))
EVERYONE = list(range(1, 13))


def test_progressive_winners_move_up_and_both_pairs_switch_partners() -> None:
    # N-S win at tables 1 and 3, E-W at table 2.
    outcomes = [won(1, 3), won(6, 8), won(9, 11)]
    nxt = next_round(
        THREE_TABLES, outcomes, movement=PROGRESSIVE, present=EVERYONE, allowed=CHECK_TABLE_SIZES
    )
    # Table 1: its winners 1 and 3 stay (N, E), table 2's winners 6 and 8 arrive (S, W).
    # Table 2: its losers 5 and 7 stay, table 3's winners 9 and 11 arrive.
    # Table 3: its losers 10 and 12 stay, table 1's losers 2 and 4 come down to the foot.
    assert nxt == Round(tables((1, 3, 6, 8), (5, 7, 9, 11), (10, 12, 2, 4)))
    assert nxt.tables[0].partnerships == ((1, 6), (3, 8))


def test_progressive_at_one_table_the_pairs_switch_partners() -> None:
    one = Round(tables((1, 2, 3, 4)))
    nxt = next_round(one, [won(2, 4)], movement=PROGRESSIVE, present=[1, 2, 3, 4], allowed=CHECK_TABLE_SIZES)
    assert nxt == Round(tables((2, 4, 1, 3)))
    assert nxt.tables[0].partnerships == ((2, 1), (4, 3))


def test_progressive_a_drawn_game_moves_the_north_south_pair() -> None:
    outcomes = [won(1, 3), won(), won(9, 11)]
    nxt = next_round(
        THREE_TABLES, outcomes, movement=PROGRESSIVE, present=EVERYONE, allowed=CHECK_TABLE_SIZES
    )
    assert nxt.tables[0] == Table((1, 3, 5, 7))


def test_progressive_at_tables_of_three_the_winner_moves_up() -> None:
    rnd = Round(tables((1, 2, 3), (4, 5, 6)))
    nxt = next_round(rnd, [won(2), won(6)], movement=PROGRESSIVE, present=[1, 2, 3, 4, 5, 6], allowed=(3,))
    # Table 1: winner 2 stays, 6 arrives from table 2... and table 1's losers go to the foot.
    assert nxt == Round(tables((2, 6, 4), (5, 1, 3)))


def test_lowest_total_stays_and_the_others_move_down_one_table() -> None:
    rnd = Round(tables((1, 2, 3, 4), (5, 6, 7, 8)))
    outcomes = [
        TableOutcome(totals={1: 300, 3: 300, 2: 120, 4: 120}),
        TableOutcome(totals={5: 80, 7: 80, 6: 500, 8: 500}),
    ]
    nxt = next_round(
        rnd, outcomes, movement=LOWEST_STAYS, present=list(range(1, 9)), allowed=CHECK_TABLE_SIZES
    )
    # Table 1: E-W (120) stay, N-S move to table 2. Table 2: N-S (80) stay, E-W move down, from
    # the bottom table round to table 1.
    assert nxt == Round(tables((2, 4, 6, 8), (5, 7, 1, 3)))


def test_lowest_total_a_tie_keeps_the_north_south_pair() -> None:
    rnd = Round(tables((1, 2, 3, 4), (5, 6, 7, 8)))
    outcomes = [
        TableOutcome(totals=dict.fromkeys(range(1, 5), 0)),
        TableOutcome(totals=dict.fromkeys(range(5, 9), 0)),
    ]
    nxt = next_round(
        rnd, outcomes, movement=LOWEST_STAYS, present=list(range(1, 9)), allowed=CHECK_TABLE_SIZES
    )
    assert nxt == Round(tables((1, 3, 6, 8), (5, 7, 2, 4)))


def test_fixed_movement_wraps_round_the_room() -> None:
    four = Round(tables((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)))
    nxt = next_round(four, [], movement=FIXED, present=list(range(1, 17)), allowed=CHECK_TABLE_SIZES)
    # N stays; E comes from the table below (up one); S from the table above (down one), table 1's
    # from the bottom table; W from two tables below, wrapping.
    assert nxt == Round(tables((1, 6, 15, 12), (5, 10, 3, 16), (9, 14, 7, 4), (13, 2, 11, 8)))


def test_fixed_movement_ignores_results() -> None:
    rnd = Round(tables((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)))
    with_results = next_round(
        rnd, [won(1, 3), won(5, 7), won(9, 11)], movement=FIXED, present=EVERYONE, allowed=CHECK_TABLE_SIZES
    )
    assert with_results == next_round(rnd, [], movement=FIXED, present=EVERYONE, allowed=CHECK_TABLE_SIZES)
    # With three tables "up two" wraps to "down one": W goes down with S.
    assert with_results == Round(tables((1, 6, 11, 12), (5, 10, 3, 4), (9, 2, 7, 8)))


def test_the_player_back_from_a_bye_takes_the_seat_of_the_one_who_sits_out() -> None:
    rnd = Round(tables((1, 2, 3, 4), (5, 6, 7, 8)), byes=(9,))
    nxt = next_round(
        rnd,
        [won(1, 3), won(5, 7)],
        movement=PROGRESSIVE,
        present=list(range(1, 10)),
        allowed=CHECK_TABLE_SIZES,
        byes_so_far={9: 1},
    )
    # Without a bye: table 1 (1, 3, 5, 7), table 2 (6, 8, 2, 4); 4 is lowest in the room.
    assert nxt == Round(tables((1, 3, 5, 7), (6, 8, 2, 9)), byes=(4,))


def test_a_late_arrival_sits_in_and_one_who_left_is_not_seated() -> None:
    rnd = Round(tables((1, 2, 3, 4), (5, 6, 7, 8)))
    present = [1, 2, 3, 4, 5, 6, 8, 9]  # 7 left, 9 came
    nxt = next_round(
        rnd, [won(1, 3), won(5, 7)], movement=PROGRESSIVE, present=present, allowed=CHECK_TABLE_SIZES
    )
    assert nxt == Round(tables((1, 3, 5, 6), (8, 2, 4, 9)))


def test_mixed_table_sizes_fill_table_after_table() -> None:
    rnd = Round(tables((1, 2, 3, 4), (5, 6, 7)))
    nxt = next_round(
        rnd,
        [won(1, 3), won(6)],
        movement=PROGRESSIVE,
        present=list(range(1, 8)),
        allowed=STANDARD_TABLE_SIZES,
    )
    assert sorted(len(t.seats) for t in nxt.tables) == [3, 4]
    assert sorted(nxt.seated) == list(range(1, 8))
    assert nxt.tables[0].seats[:3] == (1, 3, 6)


def test_a_movement_needs_a_result_of_every_table() -> None:
    with pytest.raises(PlanError) as refused:
        next_round(
            THREE_TABLES, [won(1, 3)], movement=PROGRESSIVE, present=EVERYONE, allowed=CHECK_TABLE_SIZES
        )
    assert refused.value.code == "no_result"


def test_the_arrivals_swap_seats_when_that_avoids_a_repeated_partnership() -> None:
    # 1 partnered 6 earlier tonight: table 1's arrivals 6 and 8 take W and S instead.
    outcomes = [won(1, 3), won(6, 8), won(9, 11)]
    nxt = next_round(
        THREE_TABLES,
        outcomes,
        movement=PROGRESSIVE,
        present=EVERYONE,
        allowed=CHECK_TABLE_SIZES,
        partners_so_far={(1, 6): 1},
    )
    assert nxt.tables[0] == Table((1, 3, 8, 6))
    assert nxt.tables[0].partnerships == ((1, 8), (3, 6))


def test_a_check_night_that_seats_its_leftovers_keeps_the_standard_table_in_the_next_round() -> None:
    # Ten players at a Check Pinochle night that seats the two left over at a standard table:
    # tables of 4, 4 and 2 in round 1, and again in the round the movement plans, nobody sitting out.
    rnd = Round(tables((1, 2, 3, 4), (5, 6, 7, 8), (9, 10)))
    nxt = next_round(
        rnd,
        [won(1, 3), won(5, 7), won(9)],
        movement=PROGRESSIVE,
        present=list(range(1, 11)),
        allowed=CHECK_TABLE_SIZES,
        leftover_table=True,
    )
    assert [len(t.seats) for t in nxt.tables] == [4, 4, 2]
    assert nxt.byes == ()
    assert sorted(p for t in nxt.tables for p in t.seats) == list(range(1, 11))
