"""The chip ledger: pair-wise chips, stakes, and the fewest payments that settle a night."""

from decimal import Decimal
from functools import cache
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nights.settlement.chips import (
    GameOutcome,
    LedgerError,
    SideChips,
    chips_to_money,
    game_stakes,
    night_chips,
)
from nights.settlement.payments import EXACT_LIMIT, Payment, fewest_payments


def zero_sum(draw_values: list[int]) -> dict[int, int]:
    balances = {10 + i: value for i, value in enumerate(draw_values)}
    balances[1] = -sum(draw_values)
    return balances


def balance_lists(min_size: int, max_size: int, limit: int = 60) -> st.SearchStrategy[dict[int, int]]:
    return st.lists(st.integers(-limit, limit), min_size=min_size, max_size=max_size).map(zero_sum)


def settle(balances, payments):
    after = dict(balances)
    for pay in payments:
        assert pay.amount > 0
        assert pay.payer != pay.payee
        after[pay.payer] += pay.amount
        after[pay.payee] -= pay.amount
    return after


@cache
def brute_force_minimum(balances: tuple[int, ...]) -> int:
    """Fewest payments found by trying every payment that evens out one player completely.

    Independent of the subset search: some optimal settlement is a forest of payments, and a leaf
    of a forest is evened out by its one payment, so trying every (leaf, counterpart) finds it.
    """
    left = tuple(sorted(value for value in balances if value))
    if not left:
        return 0
    best = len(left) - 1
    for i, j in permutations(range(len(left)), 2):
        rest = list(left)
        rest[j] += rest[i]
        rest[i] = 0
        best = min(best, 1 + brute_force_minimum(tuple(rest)))
    return best


@settings(deadline=None)  # examples: the profile's (conftest.py)
@given(balances=balance_lists(0, 30, limit=1000))
def test_the_payments_settle_every_balance_exactly_with_at_most_one_fewer_than_the_players(balances):
    payments = fewest_payments(balances)
    assert all(value == 0 for value in settle(balances, payments).values())
    owing = sum(1 for value in balances.values() if value)
    assert len(payments) <= max(owing - 1, 0)
    keys = [(pay.payer, pay.payee) for pay in payments]
    assert keys == sorted(keys)


@settings(deadline=None)
@given(balances=balance_lists(1, 6, limit=12))
def test_up_to_seven_players_the_payments_are_as_few_as_a_brute_force_finds(balances):
    assert len(fewest_payments(balances)) == brute_force_minimum(tuple(balances.values()))


@settings(deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 30), st.integers(1, 30)),
        min_size=EXACT_LIMIT // 3,
        max_size=EXACT_LIMIT // 3,
    )
)
def test_twelve_players_in_four_groups_that_break_even_need_at_most_eight_payments(triples):
    # Each triple (a + b, -a, -b) settles within itself in 2 payments, so 12 players need at most
    # 12 - 4; the order "largest debtor pays largest creditor" often needs more.
    balances: dict[int, int] = {}
    for number, (a, b) in enumerate(triples):
        balances |= {3 * number: a + b, 3 * number + 1: -a, 3 * number + 2: -b}
    payments = fewest_payments(balances)
    assert all(value == 0 for value in settle(balances, payments).values())
    assert len(payments) <= EXACT_LIMIT - 4


def test_money_is_settled_to_the_cent():
    balances = {1: Decimal("12.50"), 2: Decimal("-7.25"), 3: Decimal("-5.25"), 4: Decimal("0.00")}
    payments = fewest_payments(balances)
    assert payments == [Payment(2, 1, Decimal("7.25")), Payment(3, 1, Decimal("5.25"))]


def test_the_greedy_order_is_beaten_by_the_exact_search():
    # Largest debtor to largest creditor would need 4 payments here.
    payments = fewest_payments({1: 5, 2: 4, 3: -4, 4: -3, 5: -2})
    assert payments == [Payment(3, 2, 4), Payment(4, 1, 3), Payment(5, 1, 2)]


def test_the_worked_example_of_the_module_settles_in_three_payments():
    anna, bo, cleo, dan, eva = 1, 2, 3, 4, 5
    payments = fewest_payments({anna: 12, bo: -12, cleo: 5, dan: -3, eva: -2})
    assert payments == [Payment(bo, anna, 12), Payment(dan, cleo, 3), Payment(eva, cleo, 2)]


def test_forty_players_are_settled_greedily_in_at_most_thirty_nine_payments():
    balances = zero_sum([(i * 37) % 23 - 11 for i in range(39)])
    payments = fewest_payments(balances)
    assert len(payments) <= 39
    assert all(value == 0 for value in settle(balances, payments).values())


def test_it_refuses_balances_that_do_not_add_up_to_zero():
    with pytest.raises(LedgerError) as refused:
        fewest_payments({1: 5, 2: -4})
    assert refused.value.code == "not_zero_sum"


def test_each_partner_collects_or_pays_the_sides_chips_in_full():
    games = [
        [SideChips((1, 3), 6), SideChips((2, 4), -6)],
        [SideChips((1, 2), -4), SideChips((3, 4), 4)],
    ]
    assert night_chips(games) == {1: 2, 3: 10, 2: -10, 4: -2}


@given(
    st.lists(
        st.tuples(st.permutations([1, 2, 3, 4, 5, 6]), st.integers(-40, 40)),
        max_size=20,
    )
)
def test_a_nights_chips_always_add_up_to_zero(games):
    sides = [[SideChips(seats[:2], chips), SideChips(seats[2:4], -chips)] for seats, chips in games]
    assert sum(night_chips(sides).values()) == 0


def test_it_refuses_a_game_whose_chips_do_not_add_up_to_zero():
    with pytest.raises(LedgerError) as refused:
        night_chips([[SideChips((1, 3), 6), SideChips((2, 4), -5)]])
    assert refused.value.code == "chips_not_zero"


def test_chips_become_money_at_the_clubs_stake():
    assert chips_to_money({1: 6, 2: -6}, Decimal("0.50")) == {1: Decimal("3.00"), 2: Decimal("-3.00")}


def test_each_loser_pays_the_stake_once_and_the_winners_share_it():
    stake = Decimal("1.00")
    four_seats = GameOutcome(winners=(1, 3), losers=(2, 4))
    three_seats = GameOutcome(winners=(5,), losers=(6, 7))
    drawn = GameOutcome(winners=(), losers=(1, 2))
    money = game_stakes([four_seats, three_seats, drawn], stake)
    assert money == {1: stake, 3: stake, 2: -stake, 4: -stake, 5: 2 * stake, 6: -stake, 7: -stake}
    assert sum(money.values()) == 0


def test_it_refuses_stakes_that_cannot_be_shared_to_the_cent():
    with pytest.raises(LedgerError) as refused:
        game_stakes([GameOutcome(winners=(1, 2, 3), losers=(4,))], Decimal("1.00"))
    assert refused.value.code == "uneven_share"
