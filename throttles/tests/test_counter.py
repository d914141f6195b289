"""The one counter of the throttles, with a frozen clock: the attempt after the limit is refused
(and not counted), the window slides, keys and kinds do not share counts, old rows are cleared."""

import datetime

import pytest
from django.db import transaction

from tests.helpers import at_once
from throttles import counter
from throttles.models import Count

pytestmark = pytest.mark.django_db

START = datetime.datetime(2026, 3, 1, 20, 0, tzinfo=datetime.UTC)
WINDOW = 600


@pytest.fixture
def clock(time_machine):
    time_machine.move_to(START, tick=False)
    return time_machine


def attempt(address="192.0.2.1", limit=3, kind="test", window=WINDOW):
    """One attempt; True: refused."""
    return counter.over_limit(kind=kind, limits={"address": (address, limit)}, window=window)


def later(clock, seconds):
    clock.move_to(START + datetime.timedelta(seconds=seconds), tick=False)


def test_the_attempt_after_the_limit_is_refused_and_not_counted(clock):
    assert [attempt() for _ in range(5)] == [False, False, False, True, True]
    assert counter.counts(kind="test", limits={"address": ("192.0.2.1", 3)}, window=WINDOW) == {"address": 3}


def test_an_attempt_counts_for_the_window_after_it_was_made(clock):
    assert not attempt()
    later(clock, 300)
    assert not attempt() and not attempt()
    assert attempt()
    later(clock, WINDOW - 1)  # the first attempt is a second short of a window old: still counted
    assert attempt()
    later(clock, WINDOW)  # a window old, it has left the window: one more is allowed, no more
    assert not attempt()
    assert attempt()
    later(clock, 300 + WINDOW + 1)  # the other two have left too
    assert [attempt() for _ in range(3)] == [False, False, True]


def test_two_keys_and_two_kinds_do_not_share_a_count(clock):
    for _ in range(3):
        attempt("192.0.2.1")
    assert attempt("192.0.2.1")
    assert not attempt("192.0.2.2")
    assert not attempt("192.0.2.1", kind="other")


def test_an_attempt_refused_by_one_limit_is_counted_against_none(clock):
    both = {"address": ("192.0.2.1", 10), "email": ("a@example.org", 2)}
    assert not counter.over_limit(kind="reset", limits=both, window=WINDOW)
    assert not counter.over_limit(kind="reset", limits=both, window=WINDOW)
    assert counter.over_limit(kind="reset", limits=both, window=WINDOW)
    assert counter.counts(kind="reset", limits=both, window=WINDOW) == {"address": 2, "email": 2}


def test_two_increments_both_count():
    """Two attempts at once, one after the other inside their transactions (SQLite runs one writer
    at a time; the parallel tests in accounts/ and scoring/ send them together)."""
    limits = {"address": ("192.0.2.9", 5)}
    with transaction.atomic():
        counter.hold(kind="pair", limits=limits, window=WINDOW).add()
    with transaction.atomic():
        counter.hold(kind="pair", limits=limits, window=WINDOW).add()
    assert counter.counts(kind="pair", limits=limits, window=WINDOW) == {"address": 2}


@pytest.mark.django_db(transaction=True)
def test_hold_needs_a_transaction():
    with pytest.raises(transaction.TransactionManagementError):
        counter.hold(kind="test", limits={"address": ("192.0.2.1", 3)}, window=WINDOW)


def test_a_row_keeps_no_more_times_than_its_limit(clock):
    limits = {"address": ("192.0.2.1", 3)}
    for _ in range(10):
        with transaction.atomic():
            counter.hold(kind="login", limits=limits, window=WINDOW).add()  # counted without a check
    assert len(Count.objects.get().times) == 3


def test_rows_out_of_their_window_are_deleted_by_later_attempts(clock):
    for number in range(5):
        attempt(f"10.0.0.{number}")
    assert Count.objects.count() == 5
    later(clock, WINDOW + 1)
    attempt("10.9.9.9")
    assert list(Count.objects.values_list("times", flat=True)) == [[START.timestamp() + WINDOW + 1]]


def test_the_values_are_stored_hashed(clock):
    attempt("alice@example.org")
    assert "alice" not in Count.objects.get().key


def test_forget_drops_one_value_and_forget_all_a_kind(clock):
    attempt("192.0.2.1")
    attempt("192.0.2.2")
    attempt("192.0.2.1", kind="other")
    assert counter.forget(kind="test", values={"address": "192.0.2.1"}) == 1
    assert not counter.reached(kind="test", limits={"address": ("192.0.2.1", 1)}, window=WINDOW)
    assert counter.reached(kind="test", limits={"address": ("192.0.2.2", 1)}, window=WINDOW)
    assert counter.forget_all(kind="test") == 1
    assert Count.objects.count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(3))
def test_increments_sent_together_all_count_even_while_old_rows_are_cleared(time_machine, round_):
    """Ten attempts at once on a real database (SQLite file or PostgreSQL), two per key, each key's
    row left from long ago (so the attempts also delete each other's rows as they go): none is lost."""
    addresses = [f"10.0.0.{number}" for number in range(5)]
    time_machine.move_to(datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC), tick=False)
    for address in addresses:
        attempt(address, limit=50, kind="together")
    time_machine.move_to(START)

    def add(index):
        limits = {"address": (addresses[index % 5], 50)}
        with transaction.atomic():
            counter.hold(kind="together", limits=limits, window=WINDOW).add()

    at_once(10, add)
    for address in addresses:
        limits = {"address": (address, 50)}
        assert counter.counts(kind="together", limits=limits, window=WINDOW) == {"address": 2}
