"""Throttled attempts (sign-ups, password resets, the club roles form) sent at the same moment, on a
real database (SQLite file or PostgreSQL): no more of them get through than the limit allows."""

import pytest

from tests.helpers import at_once
from throttles.counter import over_limit

pytestmark = pytest.mark.django_db(transaction=True)

AT_ONCE = 10


def attempts_at_once(count: int, limit: int) -> list[bool]:
    """`count` requests each count one attempt for one address, together; True: refused."""
    return at_once(
        count,
        lambda _index: over_limit(kind="parallel", limits={"address": ("192.0.2.7", limit)}, window=3600),
    )


@pytest.mark.parametrize("round_", range(3))
def test_parallel_attempts_never_get_past_the_throttles_limit(round_):
    refused = attempts_at_once(AT_ONCE, limit=3)
    assert refused.count(False) == 3, refused
