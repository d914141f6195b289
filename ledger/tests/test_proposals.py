"""The proposed payments, with no database: the fewest there can be for up to 20 open balances,
each set settles the balances exactly, and marking a proposal leaves the others as they were."""

import random
from decimal import Decimal
from functools import cache
from itertools import permutations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ledger.compute import CHIPS, MONEY, Transfer, proposals, settle
from nights.settlement.payments import EXACT_LIMIT, fewest_count

CENT = Decimal("0.01")


def settled(book, payments):
    after = dict(book)
    for pay in payments:
        assert pay.amount > 0 and pay.payer != pay.payee
        after[pay.payer] = after.get(pay.payer, 0) + pay.amount
        after[pay.payee] = after.get(pay.payee, 0) - pay.amount
    return all(value == 0 for value in after.values())


@cache
def brute_force_minimum(balances: tuple[int, ...]) -> int:
    """Fewest payments by trying every payment that evens out one player completely (some best
    settlement is a forest of payments, and a leaf is evened out by its one payment)."""
    left = tuple(sorted(value for value in balances if value))
    if not left:
        return 0
    best = len(left) - 1
    for i, j in permutations(range(len(left)), 2):
        if (left[i] < 0) == (left[j] < 0):
            continue  # a payment goes from one who owes to one who is owed
        rest = list(left)
        rest[j] += rest[i]
        rest[i] = 0
        best = min(best, 1 + brute_force_minimum(tuple(rest)))
    return best


def zero_sum_book(values):
    book = {10 + i: Decimal(v).scaleb(-2) for i, v in enumerate(values)}
    book[1] = -sum(book.values(), Decimal(0))
    return book


@settings(deadline=None)
@given(st.lists(st.integers(-900, 900), min_size=1, max_size=8))
def test_up_to_nine_players_the_proposals_are_as_few_as_a_brute_force_finds(values):
    book = zero_sum_book(values)
    payments = settle(book, MONEY)
    assert settled(book, payments)
    assert len(payments) == brute_force_minimum(tuple(int(v * 100) for v in book.values()))


@settings(deadline=None)
@given(st.lists(st.integers(-6, 6), min_size=1, max_size=8))
def test_small_amounts_with_many_ways_to_group_them_are_still_the_fewest(values):
    """Small chip counts give many zero-sum subsets, the hard case for the search."""
    book = {10 + i: Decimal(v) for i, v in enumerate(values)}
    book[1] = -sum(book.values(), Decimal(0))
    payments = settle(book, CHIPS)
    assert settled(book, payments)
    assert len(payments) == brute_force_minimum(tuple(int(v) for v in book.values()))


def planted(rng: random.Random, sizes: list[int]) -> dict[int, Decimal]:
    """Balances in cents made of len(sizes) groups that each add up to zero, shuffled."""
    values = []
    for size in sizes:
        group = [rng.randint(-9000, 9000) or 1 for _ in range(size - 1)]
        values.append([*group, -sum(group)])
    flat = [v for group in values for v in group]
    rng.shuffle(flat)
    return {100 + i: Decimal(v).scaleb(-2) for i, v in enumerate(flat)}


@settings(deadline=None)
@given(st.lists(st.integers(2, 5), min_size=1, max_size=10), st.randoms(use_true_random=False))
def test_up_to_twenty_players_in_k_groups_that_break_even_need_at_most_n_minus_k(sizes, rng):
    assume(sum(sizes) <= EXACT_LIMIT)
    book = planted(rng, sizes)
    payments = settle(book, MONEY)
    assert settled(book, payments)
    movers = sum(1 for value in book.values() if value)
    assert len(payments) <= movers - len(sizes)


def test_twenty_players_in_seven_groups_are_settled_in_thirteen_where_one_at_a_time_needs_more():
    rng = random.Random(7)
    book = planted(rng, [2, 2, 3, 3, 3, 3, 4])
    payments = settle(book, MONEY)
    assert len(book) == 20 and settled(book, payments)
    assert len(payments) == 13


@settings(deadline=None)
@given(st.lists(st.integers(-9000, 9000), min_size=20, max_size=40))
def test_beyond_the_exact_search_it_still_settles_in_at_most_one_fewer_than_the_players(values):
    book = zero_sum_book(values)
    payments = settle(book, MONEY)
    assert settled(book, payments)
    assert len(payments) <= max(sum(1 for value in book.values() if value) - 1, 0)


@settings(deadline=None)
@given(st.lists(st.integers(-60, 60), min_size=3, max_size=11), st.data())
def test_marking_a_proposal_leaves_every_other_proposal_as_it_was(values, data):
    book = {i + 1: Decimal(v) for i, v in enumerate(values)}
    book[len(values) + 1] = -sum(book.values(), Decimal(0))
    order = data.draw(st.permutations(sorted(book)))
    before = proposals(book, CHIPS, [], order=order)
    assume(before)
    marked = data.draw(st.sampled_from(before))
    after = proposals(book, CHIPS, [Transfer(marked.payer, marked.payee, marked.amount, CHIPS)], order=order)
    assert after == [p for p in before if p != marked]


@settings(deadline=None)
@given(st.lists(st.integers(2, 4), min_size=2, max_size=5), st.randoms(use_true_random=False), st.data())
def test_a_part_payment_keeps_the_proposals_of_the_groups_it_does_not_touch(sizes, rng, data):
    book = planted(rng, sizes)
    before = proposals(book, MONEY, [])
    touched = data.draw(st.sampled_from(before))
    part = (touched.amount / 2).quantize(CENT)
    assume(part > 0)
    paid = [Transfer(touched.payer, touched.payee, part, MONEY)]
    after = proposals(book, MONEY, paid)
    now = dict(book)
    now[touched.payer] += part
    now[touched.payee] -= part
    assert settled(now, after)
    assert len(after) == fewest_count(now)
    # The proposals among players the part payment did not touch stay, where that costs nothing.
    others = [p for p in before if {p.payer, p.payee}.isdisjoint({touched.payer, touched.payee})]
    rest = {player: value for player, value in now.items()}
    for p in others:
        rest[p.payer] += p.amount
        rest[p.payee] -= p.amount
    if len(others) + fewest_count(rest) == fewest_count(now):
        assert set(others) <= set(after)


def test_a_payback_after_a_correction_goes_straight_back_to_the_one_who_paid():
    """Ylva paid Anna 12; a correction then gives Anna +9, Ylva -9: Anna owes Ylva 3 back. Settled
    from scratch, the same balances would send Anna's 3 to Dan and Cleo's 3 to Ylva (as few
    payments, through third parties); the proposals send it straight back."""
    anna, cleo, dan, ylva = 1, 2, 3, 4
    order = [anna, cleo, dan, ylva]  # by name
    corrected = {anna: Decimal("9.00"), ylva: Decimal("-9.00"), cleo: Decimal("-3.00"), dan: Decimal("3.00")}
    paid = [Transfer(ylva, anna, Decimal("12.00"), MONEY)]
    now = {anna: Decimal("-3.00"), ylva: Decimal("3.00"), cleo: Decimal("-3.00"), dan: Decimal("3.00")}
    from_scratch = [(p.payer, p.payee) for p in settle(now, MONEY, order=order)]
    assert from_scratch == [(anna, dan), (cleo, ylva)]
    replayed = proposals(corrected, MONEY, paid, order=order)
    assert [(p.payer, p.payee, p.amount) for p in replayed] == [
        (anna, ylva, Decimal("3.00")),
        (cleo, dan, Decimal("3.00")),
    ]


def test_the_order_of_players_not_their_ids_breaks_ties():
    book = {7: Decimal(5), 3: Decimal(5), 9: Decimal(-5), 1: Decimal(-5)}
    by_name = [9, 7, 3, 1]  # e.g. Anna, Bo, Cleo, Dan
    first = settle(book, CHIPS, order=by_name)
    renumbered = {30 + k: v for k, v in book.items()}
    second = settle(renumbered, CHIPS, order=[30 + k for k in by_name])
    assert [(p.payer + 30, p.payee + 30, p.amount) for p in first] == [
        (p.payer, p.payee, p.amount) for p in second
    ]
    assert [p.payer for p in first] == [9, 1]  # read out in name order
