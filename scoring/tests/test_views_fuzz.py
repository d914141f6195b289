"""Whatever a phone (or a forger) posts, the answer is a page or a redirect, never a 500."""

import random

import pytest

from scoring.models import Hand
from scoring.services.hands import record_hand
from tests.helpers import WORKED_EXAMPLE, check_game, hand_post, standard_game
from tests.hostile import HAND_FIELDS as FIELDS  # the lists bench/fuzz sends too
from tests.hostile import NASTY

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(table_client):
    """The scoring phone: signed in as the account that created the game, so it may enter hands."""
    return table_client


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("make_game", [check_game, standard_game])
def test_random_bad_input_never_breaks_a_page(client, seed, make_game):
    rng = random.Random(seed)
    game = make_game()
    record_hand(
        game=game,
        number=1,
        data={
            "bidder": "N",
            "bid": 20,
            "trump": "hearts",
            "melds": {"N": ["trump_marriage"]},
            "tricks": {"NS": 25, "EW": 0},
        },
    )
    urls = [
        f"/g/{game.code}/hands",
        f"/g/{game.code}/preview",
        f"/g/{game.code}/hands/1/",
        f"/g/{game.code}/hands/1/preview",
        f"/g/{game.code}/hands/last/delete",
    ]
    for _ in range(8):
        post = hand_post(2, WORKED_EXAMPLE)
        for field in rng.sample(FIELDS, 4):
            post[field] = rng.choice(NASTY)
        for url in urls:
            for headers in ({}, {"HX-Request": "true"}):
                response = client.post(url, post, headers=headers)
                assert response.status_code in (200, 302), (url, post)
    assert Hand.objects.filter(game=game).count() <= 1 + 8 * 2  # only valid posts saved, once each
