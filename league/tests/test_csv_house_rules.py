"""The house rules in the CSV files (docs/csv.md): exported as columns of every row, read back by
the import (a missing column or an empty cell is the rule off), refused naming the column."""

from __future__ import annotations

import csv
import io

import pytest

from clubs.models import Club, Player
from league.csv_io.problems import ImportRefused
from league.imports.worker import import_bytes
from scoring.models import Game
from scoring.services.games import create_game
from scoring.services.hands import record_hand
from scoring.services.results import game_record

pytestmark = pytest.mark.django_db

RULES = ("deals", "bid_steps", "meld_counts_from", "spread")


@pytest.fixture
def client(people):
    return people.client("alice")


def _house_rule_game(people) -> Game:
    game = create_game(
        seats=4, variant="standard", deck="double", target=None, min_bid=None, first_dealer="N",
        meld_needs_trick=False, players={"N": "Anna", "E": "Bo"}, deals=6, bid_steps="tens_above_100",
        meld_counts_from=20, spread=300,
    )  # fmt: skip
    # E–W meld 30 but take 15 trick points: on the board at 20 their meld counts 0.
    hand = {"bidder": "N", "bid": 110, "meld_points": {"NS": 80, "EW": 30}, "tricks": {"NS": 35, "EW": 15}}
    record_hand(game=game, number=1, data=hand)
    Game.objects.update(created_by=people["alice"])
    game.refresh_from_db()
    return game


def _export(client, name: str) -> bytes:
    return b"".join(client.get(f"/league/export/{name}").streaming_content)


def _rows(raw: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))


def test_the_export_has_a_column_per_house_rule(client, people):
    _house_rule_game(people)
    for name in ("games.csv", "hands.csv"):
        (row,) = _rows(_export(client, name))
        assert {rule: row[rule] for rule in RULES} == {
            "deals": "6", "bid_steps": "tens_above_100", "meld_counts_from": "20", "spread": "300"
        }  # fmt: skip
    (hand,) = _rows(_export(client, "hands.csv"))
    assert (hand["points_NS"], hand["points_EW"]) == ("115", "15")


def test_a_game_with_house_rules_round_trips_through_hands_csv(client, people):
    game = _house_rule_game(people)
    record, summary = game_record(game), (game.scores, game.winner, game.finished)
    exported = _export(client, "hands.csv")
    Game.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()
    import_bytes(exported, name="hands.csv")
    again = Game.objects.get()
    rules = (again.deals, again.bid_steps, again.meld_counts_from, again.spread)
    assert rules == (6, "tens_above_100", 20, 300)
    assert game_record(again) == record
    assert (again.scores, again.winner, again.finished) == summary
    Game.objects.update(created_by=people["alice"])
    assert _export(client, "hands.csv") == exported


def _without(raw: bytes, columns: tuple[str, ...]) -> bytes:
    rows = _rows(raw)
    out = io.StringIO()
    names = [name for name in rows[0] if name not in columns]
    writer = csv.DictWriter(out, names, extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode()


def test_a_file_without_the_house_rule_columns_imports_with_the_rules_off(client, people):
    _house_rule_game(people)
    exported = _without(_export(client, "hands.csv"), ("deals", "bid_steps", "meld_counts_from", "spread"))
    Game.objects.all().delete()
    import_bytes(exported, name="hands.csv")
    game = Game.objects.get()
    assert (game.deals, game.bid_steps, game.meld_counts_from, game.spread) == (None, "standard", None, None)
    # Scored without "on the board": E–W's 30 meld counts, 30 + 15.
    assert game.scores == {"NS": 115, "EW": 45}


def test_a_house_rule_the_engine_refuses_is_named_by_its_column(client, people):
    _house_rule_game(people)
    exported = _export(client, "hands.csv").replace(b",tens_above_100,", b",tens,")
    Game.objects.all().delete()
    with pytest.raises(ImportRefused) as refused:
        import_bytes(exported, name="hands.csv")
    assert any("bid_steps" in str(problem) for problem in refused.value.problems)
    assert not Game.objects.exists()


def test_a_game_at_points_times_ten_exports_its_points_so_and_round_trips(client, people):
    game = create_game(
        seats=4, variant="standard", deck="single", target=None, min_bid=None, first_dealer="N",
        meld_needs_trick=False, players={"N": "Anna"}, scale=10, spread=50,
    )  # fmt: skip
    hand = {"bidder": "N", "bid": 25, "meld_points": {"NS": 10, "EW": 4}, "tricks": {"NS": 16, "EW": 9}}
    record_hand(game=game, number=1, data=hand)
    Game.objects.update(created_by=people["alice"])
    game.refresh_from_db()
    record, scores = game_record(game), game.scores
    exported = _export(client, "hands.csv")
    (row,) = _rows(exported)
    assert (row["scale"], row["spread"], row["bid"]) == ("10", "500", "250")
    assert (row["meld_points_NS"], row["tricks_NS"], row["points_NS"], row["total_EW"]) == (
        "100",
        "160",
        "260",
        "130",
    )
    (games_row,) = _rows(_export(client, "games.csv"))
    assert (games_row["scale"], games_row["points_NS"]) == ("10", "260")
    Game.objects.all().delete()
    import_bytes(exported, name="hands.csv")
    again = Game.objects.get()
    assert (again.scale, game_record(again), again.scores) == (10, record, scores)
    # A point figure that is not a multiple of the scale is refused naming its column.
    Game.objects.all().delete()
    with pytest.raises(ImportRefused) as refused:
        import_bytes(exported.replace(b",250,", b",255,", 1), name="hands.csv")
    assert any("bid: 255 is not a multiple of 10" in str(problem) for problem in refused.value.problems)
