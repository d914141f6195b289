"""A club night's house rules (docs/rules.md): set when the night opens, shown on its page, and
played by every game its rounds start; refused naming the field as the new-game form refuses them."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import Club, Membership, Player
from nights.models import Night
from scoring.models import Game
from scoring.services.hands import record_hand
from tests.access_helpers import CLUB
from tests.helpers import text

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Bo", "Cleo", "Dan"]
OPENING = {"played_on": "2026-03-05", "variant": "standard", "rounds": "1", "round_ends": "game"}


@pytest.fixture
def club(people) -> Club:
    club = Club.objects.get(pk=CLUB)
    for name in NAMES:
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    return club


def start_round_one(alice: Client, night: Night) -> Game:
    for player in Player.objects.filter(name__in=NAMES):
        alice.post(f"/nights/{night.pk}/check-in/{player.pk}", {"present": "yes"})
    assert alice.post(f"/nights/{night.pk}/draw").status_code == 302
    assert alice.post(f"/nights/{night.pk}/rounds/1/start").status_code == 302
    return night.games.get()


def test_a_night_with_house_rules_starts_games_that_score_by_them(club, alice):
    fields = {"deck": "double", "bid_steps": "tens_above_100", "meld_counts_from": "20", "spread": "120",
              "deals": "8"}  # fmt: skip
    response = alice.post(f"/nights/clubs/{CLUB}/new", {**OPENING, **fields})
    assert response.status_code == 302, text(response)
    night = Night.objects.get()
    page = text(alice.get(f"/nights/{night.pk}/"))
    for shown in ("8 deals", "bids in tens above 100", "meld counts from 20", "ends at a lead of 120"):
        assert shown in page
    game = start_round_one(alice, night)
    assert (game.deals, game.bid_steps, game.meld_counts_from, game.spread) == (8, "tens_above_100", 20, 120)
    # On the board: E–W meld 30 but take only 15 trick points (< 20), so their meld counts 0.
    hand = {"bidder": "N", "bid": 60, "meld_points": {"NS": 45, "EW": 30}, "tricks": {"NS": 35, "EW": 15}}
    record_hand(game=game, number=1, data=hand)
    game.refresh_from_db()
    assert game.scores == {"NS": 80, "EW": 15}
    # A lead of 120 ends the game: N–S made 80 + 60 = 140 against E–W's 15 + 0.
    second = {"bidder": "N", "bid": 60, "meld_points": {"NS": 40, "EW": 0}, "tricks": {"NS": 50, "EW": 0}}
    record_hand(game=game, number=2, data=second)
    game.refresh_from_db()
    assert game.finished and game.winner == "NS"
    assert "bids in tens above 100" in text(alice.get(game.get_absolute_url()))


def test_a_night_without_house_rules_starts_games_without_them(club, alice):
    assert alice.post(f"/nights/clubs/{CLUB}/new", {**OPENING, "deck": "single"}).status_code == 302
    game = start_round_one(alice, Night.objects.get())
    assert (game.deals, game.bid_steps, game.meld_counts_from, game.spread) == (None, "standard", None, None)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"deck": "single", "bid_steps": "tens_above_100"}, "Tens above 100 is a ladder of the double deck"),
        ({"deck": "double", "meld_counts_from": "twenty"}, "Enter a whole number"),
        ({"deck": "double", "spread": "0"}, "Ensure this value is greater than or equal to 1."),
        ({"deck": "single", "round_ends": "hands", "hands_per_round": "6", "deals": "8"},
         "A round of a fixed number of hands already sets the deals"),
    ],
)  # fmt: skip
def test_a_house_rule_the_night_cannot_play_is_refused_naming_the_field(club, alice, fields, message):
    response = alice.post(f"/nights/clubs/{CLUB}/new", {**OPENING, **fields})
    assert response.status_code == 400
    assert message in text(response)
    assert not Night.objects.exists()


def test_a_round_of_hands_plays_that_many_deals_with_the_nights_other_house_rules(club, alice):
    fields = {"deck": "double", "round_ends": "hands", "hands_per_round": "6", "meld_counts_from": "20"}
    assert alice.post(f"/nights/clubs/{CLUB}/new", {**OPENING, **fields}).status_code == 302
    game = start_round_one(alice, Night.objects.get())
    assert (game.deals, game.meld_counts_from) == (6, 20)


def test_a_night_at_points_times_ten_takes_its_figures_so_and_starts_games_so(club, alice):
    fields = {"deck": "single", "scale": "10", "target": "1000", "min_bid": "250"}
    assert alice.post(f"/nights/clubs/{CLUB}/new", {**OPENING, **fields}).status_code == 302
    night = Night.objects.get()
    assert (night.scale, night.target, night.min_bid) == (10, 100, 25)
    assert "to 1000" in text(alice.get(f"/nights/{night.pk}/"))
    game = start_round_one(alice, night)
    assert (game.scale, game.target, game.min_bid) == (10, 100, 25)
    hand = {"bidder": "N", "bid": 25, "meld_points": {"NS": 10, "EW": 4}, "tricks": {"NS": 16, "EW": 9}}
    record_hand(game=game, number=1, data=hand)
    standings = text(alice.get(f"/nights/{night.pk}/standings/"))
    assert "N–S 260 · E–W 130" in standings and "+130" in standings
    response = alice.post(f"/nights/clubs/{CLUB}/new", {**OPENING, **fields, "target": "1005"})
    assert response.status_code == 400
    assert "Points are shown ×10 in this game: type a multiple of 10." in text(response)


def test_a_night_at_points_times_ten_shows_its_points_so_on_every_page_of_the_night(club, alice):
    fields = {"deck": "single", "scale": "10", "round_ends": "hands", "hands_per_round": "1",
              "prizes": ["high_game", "high_meld"]}  # fmt: skip
    assert alice.post(f"/nights/clubs/{CLUB}/new", {**OPENING, **fields}).status_code == 302
    night = Night.objects.get()
    game = start_round_one(alice, night)
    # Stored at the rule book's scale: N–S 10 meld + 20 tricks = 30, E–W 5; shown as 300 and 50.
    record_hand(game=game, number=1, data={"bidder": "N", "bid": 25, "meld_points": {"NS": 10, "EW": 0},
                                           "tricks": {"NS": 20, "EW": 5}})  # fmt: skip
    game.refresh_from_db()
    assert game.finished and game.scores == {"NS": 30, "EW": 5}
    anna = Player.objects.get(name="Anna")
    table = night.tables.get()

    night_page = text(alice.get(f"/nights/{night.pk}/"))
    assert "N–S 300 · E–W 50" in night_page  # the round's tables as the organiser follows them
    assert "N–S 300 · E–W 50" in text(alice.get(f"/nights/t/{table.token}/"))  # the table's link
    board = text(alice.get(f"/nights/{night.pk}/board/"))
    assert "+250" in board and "-250" in board  # points ± on the wall: 300 − 50
    card = text(alice.get(f"/nights/{night.pk}/players/{anna.pk}/"))
    assert ("300 : 50" in card or "50 : 300" in card) and ("+250" in card or "-250" in card)
    results = text(alice.get(f"/nights/{night.pk}/results/"))
    assert "High game 300 points" in results and "High meld 100 points" in results


def test_a_byes_fixed_score_on_a_night_at_points_times_ten_is_typed_as_the_night_shows_points(club, alice):
    fields = {"deck": "single", "scale": "10", "bye_compensation": "fixed", "bye_points": "150"}
    assert alice.post(f"/nights/clubs/{CLUB}/new", {**OPENING, **fields}).status_code == 302
    night = Night.objects.get()
    assert night.bye_points == 15  # stored at the rule book's scale, as the target and the bids
    assert "(150 points)" in text(alice.get(f"/nights/{night.pk}/"))
    refused = alice.post(f"/nights/clubs/{CLUB}/new", {**OPENING, **fields, "bye_points": "155"})
    assert refused.status_code == 400 and Night.objects.count() == 1


def test_a_table_whose_last_hand_waits_for_the_opponents_ok_is_not_finished_on_the_night_page(club, alice):
    Club.objects.filter(pk=CLUB).update(confirm_hands=True)
    fields = {"deck": "single", "round_ends": "hands", "hands_per_round": "1"}
    assert alice.post(f"/nights/clubs/{CLUB}/new", {**OPENING, **fields}).status_code == 302
    night = Night.objects.get()
    game = start_round_one(alice, night)
    record_hand(game=game, number=1, data={"bidder": "N", "bid": 25, "meld_points": {"NS": 10, "EW": 0},
                                           "tricks": {"NS": 20, "EW": 5}})  # fmt: skip
    game.refresh_from_db()
    assert game.finished and game.unconfirmed_hands == 1

    page = text(alice.get(f"/nights/{night.pk}/"))

    assert "waiting for the other side's confirmation" in page
    assert "Every table of round 1 has finished." not in page and "Last hand" in page
