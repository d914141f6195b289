"""Answers to the hostile input bench/fuzz/ found breaking a page (a 500), kept as regressions."""

import pytest

from scoring.models import Game
from tests.helpers import check_game, hand_post

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("get", "/g/%00/"),
        ("post", "/g/%00/hands"),
        ("post", "/g/%00/preview"),
        ("get", "/g/%00/hands/1/"),
        ("post", "/g/%00/hands/1/preview"),
        ("post", "/g/%00/hands/last/delete"),
        ("get", "/games/%00/history/"),
        ("post", "/games/%00/hand-over/"),
        ("get", "/games/%00/take-over/x/"),
        ("post", "/league/games/%00/"),
        ("get", "/league/games/a%00b/"),
        ("get", "/s/%00/"),
        ("get", "/s/a%00b/live"),
        ("post", "/g/abc/take-over/%00/"),
        ("get", "/nights/t/%00/"),
        ("get", "/clubs/join/a%00b/"),
        ("get", "/league/results/%00/"),
        ("get", "/nights/results/%00/1/"),
        ("get", "/accounts/password/reset/%00/set-password/"),
        ("get", "/g/a%20b/"),
        ("get", "/s/%C3%BC/"),
    ],
)
def test_a_nul_byte_in_a_game_code_is_not_found_on_every_database(client, method, url):
    """PostgreSQL refuses NUL in text; the lookup used to fail there with a 500. The codes and
    tokens in an address are read by Django's `slug` converter (the alphabet of
    `secrets.token_urlsafe`), which matches no NUL and no other character, so no query sees one."""
    check_game()
    response = getattr(client, method)(url, hand_post(1) if method == "post" else None)
    assert response.status_code == 404
    assert Game.objects.count() == 1


@pytest.mark.parametrize("club_id", ["9223372036854775808", "99999999999999999999", "2147483648"])
def test_a_club_id_past_the_databases_integer_range_is_not_found(people, club_id):
    """bench/fuzz: /games/clubs/<2**63>/corrections/ raised OverflowError on SQLite (a 500)."""
    from clubs.models import Club

    client = people.organiser_of(Club.objects.create(name="Klubben"))
    assert client.get(f"/games/clubs/{club_id}/corrections/").status_code == 404
