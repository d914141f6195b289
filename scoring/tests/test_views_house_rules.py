"""The house rules a game may add (docs/rules.md): tens above 100, meld counts from N, a fixed
number of deals and a winning spread, set on the new-game page and the game's settings page,
shown on the game page, and read by the bid entry."""

import json
import re
from typing import Any

import pytest

from scoring.models import Game, Hand, HandChange
from scoring.services.hands import record_hand
from scoring.services.results import game_record
from tests.helpers import PLAYERS, hand_post, save_url, standard_game, text

pytestmark = pytest.mark.django_db

DOUBLE = {"seats": "4", "variant": "standard", "deck": "double", "first_dealer": "N"}


@pytest.fixture
def client(table_client):
    return table_client


def double_hand(bid: int, ns_meld: int = 60, ns_tricks: int = 40) -> dict[str, Any]:
    return {
        "bidder": "N",
        "bid": bid,
        "meld_points": {"NS": ns_meld, "EW": 0},
        "tricks": {"NS": ns_tricks, "EW": 50 - ns_tricks},
    }


def test_a_new_game_keeps_every_house_rule_and_the_game_page_shows_them(client):
    rules = {"bid_steps": "tens_above_100", "meld_counts_from": "20", "spread": "200", "deals": "12"}
    response = client.post("/games/new", {**DOUBLE, **rules})
    game = Game.objects.get()
    assert response.status_code == 302
    assert (game.bid_steps, game.meld_counts_from, game.spread, game.deals) == ("tens_above_100", 20, 200, 12)
    assert game.settings_record()["options"] == {
        "meld_needs_trick": False,
        "deals": 12,
        "bid_steps": "tens_above_100",
        "meld_counts_from": 20,
        "spread": 200,
    }
    page = text(client.get(response["Location"]))
    shown = "12 deals · bids in tens above 100 · meld counts from 20 · ends at a lead of 200"
    assert f"to 500 · min bid 50 · {shown}" in page


def test_a_game_without_house_rules_keeps_its_record_as_it_was(client):
    client.post("/games/new", DOUBLE)
    game = Game.objects.get()
    assert game.settings_record()["options"] == {"meld_needs_trick": False}
    assert "tens above" not in text(client.get(f"/g/{game.code}/"))


@pytest.mark.parametrize(
    ("rules", "field", "message"),
    [
        (
            {"deck": "single", "bid_steps": "tens_above_100"},
            "bid_steps",
            "Tens above 100 is a ladder of the double deck",
        ),
        ({"bid_steps": "tens"}, "bid_steps", "Select a valid choice"),
        ({"meld_counts_from": "0"}, "meld_counts_from", "greater than or equal to 1"),
        ({"meld_counts_from": "twenty"}, "meld_counts_from", "Enter a whole number"),
        ({"spread": "-5"}, "spread", ""),
        ({"deals": "1001"}, "deals", "less than or equal to 1000"),
    ],
)
def test_a_bad_house_rule_is_refused_next_to_its_field_and_nothing_is_written(client, rules, field, message):
    response = client.post("/games/new", {**DOUBLE, **rules})
    assert not Game.objects.exists()
    errors = response.context["form"].errors
    assert list(errors) == [field]
    assert message in " ".join(errors[field])


def test_the_bid_entry_follows_the_tens_ladder(client):
    """Tens above 100: 105 is refused naming the bid, 110 is saved (60 + 40 = 100 < 110, set, −110)."""
    game = standard_game(deck="double", bid_steps="tens_above_100")
    fields = {"bidder": "N", "meld_mode": "points", "meld_points_N": "60", "tricks_NS": "40"}
    refused = client.post(save_url(game), hand_post(1, {**fields, "bid": "105"}))
    assert not Hand.objects.exists()
    assert "Bid: Bid 105 is off its step: above 100 this game&#x27;s bids are multiples of 10" in text(
        refused
    )
    client.post(save_url(game), hand_post(1, {**fields, "bid": "110"}))
    game.refresh_from_db()
    assert game.scores == {"NS": -110, "EW": 10}


def _numbers(page: str) -> Any:
    found = re.search(r'<script id="hand-numbers" type="application/json">(.*?)</script>', page, re.S)
    assert found
    return json.loads(found.group(1))


def test_the_phone_reads_the_chosen_ladder_and_the_stepper_on_the_server_follows_it(client):
    game = standard_game(deck="double", bid_steps="tens_above_100")
    page = client.get(f"/g/{game.code}/").content.decode()
    assert _numbers(page)["bids"] == [[50, 1, 60], [60, 5, 100], [100, 10, 9990]]
    assert "Minimum 50; above 60 in steps of 5; above 100 in steps of 10" in page
    post = hand_post(1, {"bidder": "N", "bid": "100", "tricks_NS": "10", "step": "bid_up"})
    stepped = client.post(f"/g/{game.code}/preview", post).content.decode()
    assert 'name="bid" value="110"' in stepped


def test_the_settings_page_changes_meld_counts_from_and_rescores(client):
    """Hand 1 (double deck, N = 20 after the change): N–S bid 55, meld 40, take 18 < 20: set, −55;
    E–W's meld 0, +32. Before the change: 40 + 18 = 58 ≥ 55, made, +58 · +32."""
    game = standard_game(deck="double")
    record_hand(game=game, number=1, data=double_hand(55, ns_meld=40, ns_tricks=18))
    game.refresh_from_db()
    assert game.scores == {"NS": 58, "EW": 32}
    page = client.get(f"/g/{game.code}/settings/").content.decode()
    version = re.search(r'name="version" value="([^"]+)"', page)
    assert version
    names = {f"name_{seat}": name for seat, name in PLAYERS.items()}
    post = {
        "version": version.group(1), "first_dealer": "N", "target": "500", "min_bid": "50",
        "bid_steps": "standard", "meld_counts_from": "20", "save": "1", **names,
    }  # fmt: skip
    response = client.post(f"/g/{game.code}/settings/", post)
    assert response.status_code == 302  # the game's end does not change: saved at once
    game.refresh_from_db()
    assert game.meld_counts_from == 20
    assert game.scores == {"NS": -55, "EW": 32}
    change = HandChange.objects.get(game=game)
    assert change.new_data == {"meld_counts_from": 20}
    assert "Meld counts from — 20" in text(client.get(f"/g/{game.code}/history/"))


def test_the_settings_page_refuses_a_spread_that_would_end_the_game_before_recorded_hands(client):
    """After hand 1 N–S lead 98 − 2 = 96; a spread of 50 would end the game after hand 1 with hand 2
    recorded: refused next to the spread, nothing written."""
    game = standard_game(deck="double")
    record_hand(game=game, number=1, data=double_hand(60, ns_meld=50, ns_tricks=48))
    record_hand(game=game, number=2, data=double_hand(60, ns_meld=50, ns_tricks=48))
    game.refresh_from_db()
    page = client.get(f"/g/{game.code}/settings/").content.decode()
    version = re.search(r'name="version" value="([^"]+)"', page)
    assert version
    post = {
        "version": version.group(1),
        "first_dealer": "N",
        "target": "500",
        "min_bid": "50",
        "spread": "50",
    }
    response = client.post(f"/g/{game.code}/settings/", {**post, "save": "1"})
    game.refresh_from_db()
    assert game.spread is None and not HandChange.objects.exists()
    assert "ends after hand 1" in " ".join(response.context["form"].errors["spread"])


def test_a_single_deck_game_has_no_bid_steps_to_change(client):
    game = standard_game()
    page = client.get(f"/g/{game.code}/settings/").content.decode()
    assert 'name="bid_steps"' not in page
    assert 'name="meld_counts_from"' in page and 'name="spread"' in page


def test_the_game_page_says_a_spread_ended_the_game(client):
    """Spread 50: hand 1 N–S 60 + 48 = 108 · E–W 2: a lead of 106, N–S win on points."""
    game = standard_game(deck="double", spread=50)
    record_hand(game=game, number=1, data=double_hand(60, ns_meld=60, ns_tricks=48))
    game.refresh_from_db()
    assert (game.finished, game.winner) == (True, "NS")
    assert game_record(game)["options"]["spread"] == 50
    page = text(client.get(f"/g/{game.code}/"))
    assert "lead by 50 or more after hand 1: win on points" in page


def test_an_imported_record_keeps_its_house_rules_and_scores_by_them():
    """A double-deck record with all four rules: N bids 55, meld 40, takes 18 < 20 (N = 20): set,
    −55; E–W +32. Imported, the game keeps the rules and the engine's scores."""
    from league.imports.worker import import_bytes

    options = {"bid_steps": "tens_above_100", "meld_counts_from": 20, "spread": 300, "deals": 8}
    record = {"deck": "double", "options": options, "hands": [double_hand(55, ns_meld=40, ns_tricks=18)]}
    import_bytes(json.dumps(record).encode())
    game = Game.objects.get()
    assert (game.bid_steps, game.meld_counts_from, game.spread, game.deals) == ("tens_above_100", 20, 300, 8)
    assert game.scores == {"NS": -55, "EW": 32}
    assert game_record(game)["options"] == {"meld_needs_trick": False, **options}


def test_the_bidders_need_follows_meld_counts_from(client):
    """Double deck, N = 20: N bids 55 with 40 meld. Bid less meld is 15, but the meld counts only
    from 20 trick points, so N–S need 20; the preview says so and why."""
    game = standard_game(deck="double", meld_counts_from=20)
    fields = {"bidder": "N", "bid": "55", "meld_mode": "points", "meld_points_N": "40"}
    page = text(client.post(f"/g/{game.code}/preview", hand_post(1, fields), headers={"HX-Request": "true"}))
    assert "N–S need 20 trick points (bid 55 − meld 40)." in page
    assert "Meld counts from 20: only with at least 20 meld and 20 trick points." in page
