"""The table draw of a club night: invariants over generated nights, and the draw's aims."""

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nights.planning.night import add_player, plan_night, plan_stats, remove_player, swap_players
from nights.planning.plan import CHECK_TABLE_SIZES, STANDARD_TABLE_SIZES, NightPlan, PlanError, Table
from nights.planning.rounds import table_sizes

VARIANTS = st.sampled_from([CHECK_TABLE_SIZES, STANDARD_TABLE_SIZES])
assert settings.default is not None  # hypothesis always loads a default profile
DEFAULT_EXAMPLES = settings.default.max_examples
FAST = settings(
    max_examples=min(40, DEFAULT_EXAMPLES),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def players(count: int) -> list[int]:
    # Ids that are neither 0..n-1 nor in order, as a club's roster ids would be.
    return [100 + 7 * i for i in range(count)][::-1]


def assert_well_formed(plan: NightPlan) -> None:
    for rnd in plan.rounds:
        everyone = [*rnd.seated, *rnd.byes]
        assert sorted(everyone) == sorted(plan.players), "every player is seated or on a bye, once"
        for table in rnd.tables:
            assert len(table.seats) in plan.table_sizes
        sizes, byes = table_sizes(len(plan.players), plan.table_sizes)
        assert sorted((len(t.seats) for t in rnd.tables), reverse=True) == list(sizes)
        assert len(rnd.byes) == byes


@FAST
@given(count=st.integers(0, 40), rounds=st.integers(0, 8), variant=VARIANTS, seed=st.integers(0, 2**32))
def test_every_player_present_is_seated_or_sits_out_once_in_every_round(count, rounds, variant, seed):
    plan = plan_night(players=players(count), table_sizes=variant, rounds=rounds, seed=seed)
    assert len(plan.rounds) == rounds
    assert_well_formed(plan)


@FAST
@given(count=st.integers(2, 40), rounds=st.integers(1, 8), variant=VARIANTS, seed=st.integers(0, 2**32))
def test_the_same_night_is_always_drawn_the_same_way(count, rounds, variant, seed):
    first = plan_night(players=players(count), table_sizes=variant, rounds=rounds, seed=seed)
    again = plan_night(players=players(count), table_sizes=variant, rounds=rounds, seed=seed)
    assert first == again


def test_another_seed_draws_another_night():
    first = plan_night(players=players(12), table_sizes=CHECK_TABLE_SIZES, rounds=3, seed=1)
    other = plan_night(players=players(12), table_sizes=CHECK_TABLE_SIZES, rounds=3, seed=2)
    assert first.rounds != other.rounds


@pytest.mark.parametrize("variant", [CHECK_TABLE_SIZES, STANDARD_TABLE_SIZES])
def test_eight_players_over_seven_rounds_partner_everyone_once_and_meet_everyone_twice(variant):
    plan = plan_night(players=players(8), table_sizes=variant, rounds=7, seed=5)
    stats = plan_stats(plan)
    assert stats.partner_repeats == 0
    assert stats.pairs_never_partners == 0
    assert (stats.opponents_min, stats.opponents_max) == (2, 2)


@pytest.mark.parametrize("variant", [CHECK_TABLE_SIZES, STANDARD_TABLE_SIZES])
@pytest.mark.parametrize("count", range(9, 41))
def test_nine_to_forty_players_over_six_rounds_never_repeat_a_partnership(count, variant):
    plan = plan_night(players=players(count), table_sizes=variant, rounds=6, seed=count)
    assert plan_stats(plan).partner_repeats == 0
    assert_well_formed(plan)


def test_forty_players_are_drawn_in_under_a_second():
    started = time.perf_counter()
    plan_night(players=players(40), table_sizes=STANDARD_TABLE_SIZES, rounds=8, seed=1)
    assert time.perf_counter() - started < 1.0


def test_standard_tables_prefer_four_seats_then_three_then_two():
    assert table_sizes(9, STANDARD_TABLE_SIZES) == ((4, 3, 2), 0)
    assert table_sizes(10, STANDARD_TABLE_SIZES) == ((4, 4, 2), 0)
    assert table_sizes(11, STANDARD_TABLE_SIZES) == ((4, 4, 3), 0)
    assert table_sizes(5, STANDARD_TABLE_SIZES) == ((3, 2), 0)
    assert table_sizes(1, STANDARD_TABLE_SIZES) == ((), 1)


def test_check_pinochle_seats_fours_only_and_the_rest_sit_out():
    assert table_sizes(11, CHECK_TABLE_SIZES) == ((4, 4), 3)
    assert table_sizes(3, CHECK_TABLE_SIZES) == ((), 3)


@pytest.mark.parametrize("count", [9, 10, 11, 13, 18])
def test_byes_rotate_so_nobody_sits_out_twice_before_everyone_sat_out_once(count):
    rounds = 8
    plan = plan_night(players=players(count), table_sizes=CHECK_TABLE_SIZES, rounds=rounds, seed=3)
    byes: dict[int, int] = {}
    for rnd in plan.rounds:
        for player in rnd.byes:
            byes[player] = byes.get(player, 0) + 1
        counts = [byes.get(p, 0) for p in plan.players]
        assert max(counts) - min(counts) <= 1


def test_a_four_seat_table_partners_north_with_south_and_east_with_west():
    table = Table((1, 2, 3, 4))
    assert table.partnerships == ((1, 3), (2, 4))
    assert set(table.opponent_pairs) == {(1, 2), (1, 4), (3, 2), (3, 4)}
    assert table.seat_of(4) == "W"
    assert Table((1, 2, 3)).partnerships == ()
    assert set(Table((1, 2, 3)).opponent_pairs) == {(1, 2), (1, 3), (2, 3)}


@FAST
@given(
    count=st.integers(4, 24),
    rounds=st.integers(2, 7),
    variant=VARIANTS,
    seed=st.integers(0, 1000),
    data=st.data(),
)
def test_a_swap_changes_only_that_round_and_the_ones_after_it(count, rounds, variant, seed, data):
    plan = plan_night(players=players(count), table_sizes=variant, rounds=rounds, seed=seed)
    at = data.draw(st.integers(0, rounds - 1))
    first, second = data.draw(st.lists(st.sampled_from(plan.players), min_size=2, max_size=2, unique=True))
    swapped = swap_players(plan, round_index=at, first=first, second=second)
    assert swapped.rounds[:at] == plan.rounds[:at]
    before, after = plan.rounds[at], swapped.rounds[at]
    for old, new in zip(before.tables, after.tables, strict=True):
        assert new.seats == tuple(second if p == first else first if p == second else p for p in old.seats)
    assert_well_formed(swapped)


@FAST
@given(count=st.integers(4, 24), variant=VARIANTS, seed=st.integers(0, 1000), data=st.data())
def test_a_swap_keeps_the_later_rounds_it_is_told_to_keep(count, variant, seed, data):
    plan = plan_night(players=players(count), table_sizes=variant, rounds=5, seed=seed)
    at = data.draw(st.integers(0, 3))
    keep = data.draw(st.sets(st.integers(at + 1, 4), min_size=1))
    first, second = data.draw(st.lists(st.sampled_from(plan.players), min_size=2, max_size=2, unique=True))
    swapped = swap_players(plan, round_index=at, first=first, second=second, keep=keep)
    assert swapped.rounds[:at] == plan.rounds[:at]
    assert all(swapped.rounds[index] == plan.rounds[index] for index in keep)
    assert_well_formed(swapped)


@FAST
@given(
    count=st.integers(4, 24),
    rounds=st.integers(2, 7),
    variant=VARIANTS,
    seed=st.integers(0, 1000),
    data=st.data(),
)
def test_a_late_arrival_or_a_leaver_keeps_the_rounds_already_played(count, rounds, variant, seed, data):
    plan = plan_night(players=players(count), table_sizes=variant, rounds=rounds, seed=seed)
    at = data.draw(st.integers(1, rounds - 1))
    joined = add_player(plan, player=1, from_round=at)
    assert joined.rounds[:at] == plan.rounds[:at]
    assert all(1 in (*rnd.seated, *rnd.byes) for rnd in joined.rounds[at:])
    leaver = data.draw(st.sampled_from(plan.players))
    left = remove_player(joined, player=leaver, from_round=at)
    assert left.rounds[:at] == plan.rounds[:at]
    assert all(leaver not in (*rnd.seated, *rnd.byes) for rnd in left.rounds[at:])
    for changed in (joined, left):
        for rnd in changed.rounds[at:]:
            assert sorted((*rnd.seated, *rnd.byes)) == sorted(changed.players)


def test_a_late_arrival_after_the_first_round_of_twelve_repeats_no_partnership():
    plan = plan_night(players=players(12), table_sizes=CHECK_TABLE_SIZES, rounds=6, seed=4)
    joined = add_player(add_player(plan, player=1, from_round=1), player=2, from_round=2)
    assert plan_stats(joined).partner_repeats == 0


def test_a_late_arrival_is_not_sent_to_sit_out_straight_away():
    plan = plan_night(players=players(9), table_sizes=CHECK_TABLE_SIZES, rounds=6, seed=4)
    joined = add_player(plan, player=1, from_round=2)
    assert 1 not in joined.rounds[2].byes


def test_it_refuses_to_swap_a_player_who_is_not_in_the_round():
    plan = plan_night(players=players(8), table_sizes=CHECK_TABLE_SIZES, rounds=2, seed=1)
    with pytest.raises(PlanError) as refused:
        swap_players(plan, round_index=0, first=plan.players[0], second=999)
    assert refused.value.field == "second"
    with pytest.raises(PlanError) as refused:
        swap_players(plan, round_index=2, first=plan.players[0], second=plan.players[1])
    assert refused.value.code == "no_round"


def test_it_refuses_a_player_checked_in_twice_and_a_table_of_five():
    with pytest.raises(PlanError) as refused:
        plan_night(players=[1, 2, 2, 3], table_sizes=CHECK_TABLE_SIZES, rounds=1, seed=1)
    assert refused.value.field == "players"
    with pytest.raises(PlanError) as refused:
        plan_night(players=[1, 2, 3, 4, 5], table_sizes=(5,), rounds=1, seed=1)
    assert refused.value.field == "table_sizes"


@settings(max_examples=min(30, DEFAULT_EXAMPLES), deadline=None)
@given(count=st.integers(9, 40), variant=VARIANTS, seed=st.integers(0, 2**32))
def test_whatever_the_seed_six_rounds_repeat_no_partnership(count, variant, seed):
    plan = plan_night(players=players(count), table_sizes=variant, rounds=6, seed=seed)
    assert plan_stats(plan).partner_repeats == 0


@settings(max_examples=min(20, DEFAULT_EXAMPLES), deadline=None)
@given(variant=VARIANTS, seed=st.integers(0, 2**32))
def test_whatever_the_seed_eight_players_partner_everyone_once_in_seven_rounds(variant, seed):
    stats = plan_stats(plan_night(players=players(8), table_sizes=variant, rounds=7, seed=seed))
    assert (stats.partner_repeats, stats.pairs_never_partners) == (0, 0)
