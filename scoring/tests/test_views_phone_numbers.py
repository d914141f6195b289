"""The phone's script adds up melds, shares trick points and steps the bid with the rule book's
numbers: the page hands them over in one JSON script drawn from the engine's tables (the legal
bids listed, the meld items' values and the bonuses for families shown together), so the script
decides no rule itself; the sum it still does offline is held to the engine's `meld_sum`, and its
stepper to `next_bid`, by scoring/tests/test_browser_phone_rules.py."""

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from scoring.rules.tables import hand_numbers, setup_numbers
from tests.helpers import check_game, standard_game

pytestmark = pytest.mark.django_db


def _script(page: str, element_id: str) -> Any:  # the JSON on the page
    found = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', page, re.S)
    assert found, f"no #{element_id} on the page"
    return json.loads(found.group(1))


@pytest.mark.parametrize(
    ("game_of", "chips_in_play"),
    [
        (lambda: standard_game(), False),
        (lambda: standard_game(deck="double"), False),
        (lambda: standard_game(seats=3, min_bid=30), False),
        (lambda: check_game(), True),
    ],
)
def test_the_hand_forms_numbers_are_the_engines_tables_for_the_games_settings(
    table_client, game_of, chips_in_play
):
    game = game_of()
    page = table_client.get(f"/g/{game.code}/").content.decode()
    expected = hand_numbers(
        deck=game.deck,
        min_bid=game.min_bid or (50 if game.deck == "double" else 20),
        seats=game.seats,
        chips_in_play=chips_in_play,
    )
    assert _script(page, "hand-numbers") == expected


def test_a_double_deck_bid_ladder_and_its_help_come_from_the_same_numbers(table_client):
    game = standard_game(deck="double")
    page = table_client.get(f"/g/{game.code}/").content.decode()
    assert _script(page, "hand-numbers")["bids"] == [[50, 1, 60], [60, 5, 9995]]
    assert "Minimum 50; above 60 in steps of 5" in page


def test_the_correction_page_hands_its_form_the_same_numbers(table_client):
    from scoring.services.hands import record_hand
    from tests.helpers import quick_hand

    game = standard_game()
    record_hand(game=game, number=1, data=quick_hand(), submission_id=None)
    page = table_client.get(f"/g/{game.code}/hands/1/").content.decode()
    assert _script(page, "hand-numbers")["trick_points"] == 25


def test_the_setup_page_hands_over_the_rule_books_defaults_and_check_pinochles_seats(client):
    page = client.get("/games/new").content.decode()
    numbers = _script(page, "setup-numbers")
    assert numbers == setup_numbers()
    assert numbers["check_seats"] == 4 and numbers["targets"]["single"]["check"] == 100


@pytest.mark.parametrize("name", ["app.js", "outbox.js", "outbox-view.js", "table.js"])
def test_the_phones_scripts_write_no_rule_book_number(name):
    script = (Path(settings.BASE_DIR) / "static" / "js" / name).read_text(encoding="utf-8")
    for rule in ("dataset.points", "dataset.chips", "dataset.roundhouse", "trickTotal", '"4"', "kings"):
        assert rule not in script
    # Which bids are legal is the engine's (`legal_bids`): no ladder, rung or multiple here, and
    # the bonus for families shown together is read from the numbers, not named.
    for ladder in ("by_ones_to", "multiple", "rungs", "% ", "roundhouse", "queens"):
        assert ladder not in script
    # Which default goes with which deck and variant is the engine's (`setup_numbers`): the script
    # looks it up by the checked radios and names no deck.
    for deck in ('"double"', '"single"', "targets.double", "targets.check", "targets.single"):
        assert deck not in script


def test_the_setup_numbers_give_every_deck_and_variant_the_engines_default():
    from scoring.rules.tables import DECKS, VARIANTS, default_min_bid, default_target

    numbers = setup_numbers()
    assert numbers["targets"] == {
        deck: {variant: default_target(deck, variant) for variant in VARIANTS} for deck in DECKS
    }
    assert numbers["min_bids"] == {deck: default_min_bid(deck) for deck in DECKS}
    assert numbers["first"] == {"deck": DECKS[0], "variant": VARIANTS[0]}
