"""Wrong recovery codes sent at the same moment, on a real database (SQLite file or PostgreSQL):
no more of them are checked than the limit allows, however many arrive together."""

import pytest
from django.test import Client

from scoring.models import HandChange
from tests.access_helpers import make_game
from tests.helpers import at_once

pytestmark = pytest.mark.django_db(transaction=True)

GUESSERS = 10


def guess_at_once(url: str, count: int) -> list[int]:
    """POST a wrong code from `count` browsers (each its own client and connection), together."""
    return at_once(count, lambda _index: Client().post(url, {"recovery_code": "AAAAAA"}).status_code)


@pytest.mark.parametrize("round_", range(3))
def test_parallel_wrong_codes_never_get_more_checks_than_the_games_limit(settings, round_):
    settings.RECOVERY_FAILURES_PER_GAME = 5
    settings.RECOVERY_FAILURES_PER_CLIENT = 5
    settings.RECOVERY_FAILURES_PER_ADDRESS = 100
    game = make_game()
    statuses = guess_at_once(f"/s/{game.share_code}/recover", GUESSERS)
    checked = statuses.count(400)  # a wrong code that was compared with the game's
    assert checked <= 5, statuses
    assert sorted(set(statuses)) <= [400, 429], statuses
    assert not HandChange.objects.filter(game=game).exists()
