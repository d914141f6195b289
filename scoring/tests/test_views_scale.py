"""Points ×10 (the house rule `scale`, docs/rules.md): display and entry only. A game at ×10
shows and takes every point figure ten times over; the engine, the record and chips stay at 1."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from scoring.models import Game, Hand
from scoring.rules import worked_example
from scoring.rules.errors import RecordError
from scoring.rules.settings import parse_settings
from scoring.services.results import game_record
from tests.helpers import hand_post, save_url, text

pytestmark = pytest.mark.django_db

SETUP = {"seats": "4", "variant": "standard", "deck": "single", "first_dealer": "N"}


@pytest.fixture
def client(table_client):
    return table_client


def new_game(client, **fields: str) -> Game:
    response = client.post("/games/new", {**SETUP, **fields})
    assert response.status_code == 302, text(response)
    return Game.objects.latest("pk")


def ten_times(fields: dict[str, str]) -> dict[str, str]:
    """The worked example's entry as a ×10 table types it: the bid and trick points ×10."""
    return {**fields, "bid": str(int(fields["bid"]) * 10), "tricks_NS": str(int(fields["tricks_NS"]) * 10)}


def numbers(page: str) -> dict[str, Any]:
    found = re.search(r'<script id="hand-numbers" type="application/json">(.*?)</script>', page, re.S)
    assert found
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_a_whole_hand_typed_at_ten_times_stores_the_same_record_as_at_one(client):
    plain = new_game(client)
    tens = new_game(client, scale="10")
    example = worked_example.entry_fields(worked_example.hand(1))
    assert client.post(save_url(plain), hand_post(1, example)).status_code == 302
    assert client.post(save_url(tens), hand_post(1, ten_times(example))).status_code == 302
    plain.refresh_from_db()
    tens.refresh_from_db()
    assert Hand.objects.get(game=tens).data == Hand.objects.get(game=plain).data
    assert tens.scores == plain.scores == {"NS": 36, "EW": 20}
    record = game_record(tens)
    assert record["options"]["scale"] == 10
    assert {**record, "options": {**record["options"], "scale": 1}}["hands"] == game_record(plain)["hands"]
    # The page shows every figure ×10: totals, to go, target and minimum bid, the hand's row.
    page = text(client.get(tens.get_absolute_url()))
    assert "to 1500 · min bid 200" in page and "points ×10" in page
    assert "1140 to go" in page and "1300 to go" in page
    assert "bid 270" in page
    table = text(client.get(f"/g/{tens.code}/table/"))
    assert "360" in table and "1140 to go" in table


def test_quick_meld_points_at_ten_times_are_stored_at_one(client):
    game = new_game(client, scale="10")
    fields = {"bidder": "N", "bid": "250", "meld_mode": "points", "meld_points_N": "100",
              "meld_points_E": "40", "tricks_NS": "160"}  # fmt: skip
    assert client.post(save_url(game), hand_post(1, fields)).status_code == 302
    hand = Hand.objects.get(game=game).data
    assert (hand["bid"], hand["meld_points"], hand["tricks"]) == (
        25,
        {"NS": 10, "EW": 4},
        {"NS": 16, "EW": 9},
    )


@pytest.mark.parametrize(
    ("field", "value", "label"),
    [("bid", "255", "Bid"), ("tricks_NS", "155", "N–S"), ("meld_points_N", "15", "North")],
)
def test_a_figure_that_is_not_a_multiple_of_ten_is_refused_naming_its_field(client, field, value, label):
    game = new_game(client, scale="10")
    fields = {"bidder": "N", "bid": "250", "meld_mode": "points", "tricks_NS": "150", field: value}
    response = client.post(save_url(game), hand_post(1, fields))
    assert response.status_code == 200  # the form again, with the problem
    assert f"{label}: Points are shown ×10 in this game: type a multiple of 10." in text(response)
    assert not Hand.objects.exists()


def test_the_phones_bid_list_and_sums_are_at_ten_times(client):
    game = new_game(client, scale="10")
    page = client.get(game.get_absolute_url()).content.decode()
    data = numbers(page)
    assert data["bids"] == [[200, 10, 99990]]
    assert data["trick_points"] == 250
    assert data["melds"]["run"]["points"] == 150
    assert "Minimum 200" in text(client.get(game.get_absolute_url()))


def test_the_bid_stepper_without_javascript_steps_at_ten_times(client):
    game = new_game(client, scale="10")
    response = client.post(
        f"/g/{game.code}/preview", hand_post(1, {"bidder": "N", "bid": "250", "step": "bid_up"})
    )
    assert 'value="260"' in response.content.decode()


def test_the_new_game_form_takes_its_figures_at_the_chosen_scale(client):
    game = new_game(client, scale="10", target="1000", min_bid="250", meld_counts_from="200", spread="500")
    assert (game.target, game.min_bid, game.meld_counts_from, game.spread, game.scale) == (
        100,
        25,
        20,
        50,
        10,
    )
    response = client.post("/games/new", {**SETUP, "scale": "10", "target": "1005"})
    assert response.context["form"].errors["target"] == [
        "Points are shown ×10 in this game: type a multiple of 10."
    ]
    assert Game.objects.count() == 1


def test_the_settings_page_shows_and_takes_figures_at_the_games_scale(client):
    game = new_game(client, scale="10")
    page = client.get(f"/g/{game.code}/settings/").content.decode()
    assert 'placeholder="1500"' in page and 'placeholder="200"' in page
    form = client.get(f"/g/{game.code}/settings/").context["form"]
    data = {name: "" if value is None else str(value) for name, value in form.initial.items()}
    data.update({"first_dealer": "N", "min_bid": "255", "scale": "10"})
    response = client.post(f"/g/{game.code}/settings/", data)
    assert "Points are shown ×10 in this game: type a multiple of 10." in text(response)
    game.refresh_from_db()
    assert game.min_bid is None
    data.update({"min_bid": "250", "save": "1"})
    response = client.post(f"/g/{game.code}/settings/", data)
    assert response.status_code == 302, text(response)[-1500:]
    game.refresh_from_db()
    assert game.min_bid == 25


def test_the_record_takes_scale_1_or_10_and_nothing_else():
    assert parse_settings({"options": {"scale": 10}}).scale == 10
    assert parse_settings({}).scale == 1
    with pytest.raises(RecordError) as refused:
        parse_settings({"options": {"scale": 5}})
    assert refused.value.field == "options.scale"


def test_the_corrections_and_the_meld_picker_show_figures_at_ten_times(client):
    game = new_game(client, scale="10")
    fields = {"bidder": "N", "bid": "250", "meld_mode": "points", "meld_points_N": "100", "tricks_NS": "160"}
    client.post(save_url(game), hand_post(1, fields))
    edit = client.get(f"/g/{game.code}/hands/1/").content.decode()
    assert 'name="bid" value="250"' in edit and 'name="tricks_NS" value="160"' in edit
    client.post(f"/g/{game.code}/hands/1/", hand_post(1, {**fields, "bid": "260"}))
    history = text(client.get(f"/g/{game.code}/history/"))
    assert "Bid 250 260" in history
    assert "Meld points N–S: 100" in history and "Trick points E–W: 90" in history
    page = client.get(game.get_absolute_url()).content.decode()
    assert '<span class="worth">150' in page  # a run: 15 in the rule book
