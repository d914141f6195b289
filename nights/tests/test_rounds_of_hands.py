"""A night's round of N hands is a game of N deals: it ends after hand N, counts as finished
everywhere (season standings, ratings, CSV, the night and its ledger), follows a correction, opens
again when hand N is deleted; games stored before games had a length get it on `migrate`."""

from __future__ import annotations

import csv
import datetime
import io
import json
from decimal import Decimal
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from clubs.models import Club, Season
from league.standings import season_standings
from ledger import selectors as ledger_selectors
from nights import arrivals, removal, rounds, services
from nights.models import Night
from nights.standings import night_standings
from ratings.models import RatingPoint
from scoring.models import Game, GameStat
from scoring.rules.errors import RecordError
from scoring.services.hands import delete_last_hand, edit_hand, record_hand
from tests.access_helpers import CLUB
from tests.helpers import hand_post, quick_hand, text
from tests.ledger_helpers import roster

pytestmark = pytest.mark.django_db

NS_MAKES = quick_hand(bidder="N", ns_meld=10, ns_tricks=15)  # N-S 25, E-W 10
EW_MAKES = {"bidder": "E", "bid": 20, "meld_points": {"NS": 0, "EW": 10}, "tricks": {"NS": 10, "EW": 15}}
EW_SET = quick_hand(bidder="E", ns_meld=0, ns_tricks=10)  # E-W 15 < 20: −20; N-S 10


@pytest.fixture
def club(people) -> Club:
    return Club.objects.get(pk=CLUB)


@pytest.fixture
def season(club: Club) -> Season:
    return Season.objects.create(
        club=club, name="Autumn", starts_on=datetime.date(2026, 9, 1), ends_on=datetime.date(2026, 12, 31)
    )


def started_night(club: Club, season: Season, *, hands: int | None = 3, variant: str = "standard") -> Night:
    """A night of 4 players, one round, started: one table's game."""
    night = services.open_night(
        club=club, season=season, played_on=datetime.date(2026, 11, 5), variant=variant, deck="single",
        target=None, min_bid=None, meld_needs_trick=False, rounds=1,
        round_ends=Night.RoundEnds.HANDS if hands else Night.RoundEnds.GAME, hands_per_round=hands,
        stake_per_chip=Decimal("0.10") if variant == "check" else None,
        stake_per_win=None if variant == "check" else Decimal("1.00"), created_by=None,
    )  # fmt: skip
    for player in roster(club, "Anna", "Bo", "Cleo", "Dan"):
        arrivals.set_checked_in(night=night, player=player, present=True)
    services.draw_plan(night=night)
    rounds.start_round(night=night, round_no=1)
    return night


def play(game: Game, hands: list[dict[str, Any]]) -> Game:
    for hand in hands:
        record_hand(game=game, number=game.hand_count + 1, data=hand)
    game.refresh_from_db()
    return game


def outcomes(game: Game) -> dict[str, str]:
    return dict(GameStat.objects.filter(game=game).values_list("seat", "outcome"))


def names_by_side(game: Game) -> dict[str, set[str]]:
    sides: dict[str, set[str]] = {"NS": set(), "EW": set()}
    for row in game.seat_rows.select_related("player"):
        assert row.player is not None
        sides["NS" if row.seat in "NS" else "EW"].add(row.player.name)
    return sides


def test_a_round_of_three_hands_starts_games_of_three_deals_and_a_round_of_one_game_plays_to_the_target(
    club, season
):
    assert started_night(club, season, hands=3).games.get().deals == 3
    assert started_night(club, season, hands=None).games.get().deals is None


def test_after_hand_three_the_game_is_over_and_counts_in_the_season_standings_and_ratings(club, season):
    night = started_night(club, season)
    game = night.games.get()
    play(game, [NS_MAKES, NS_MAKES])
    assert not game.finished
    assert not RatingPoint.objects.filter(game=game).exists()
    assert all(line.games == 0 for line in season_standings(season)["players"])
    play(game, [EW_SET])
    assert game.finished and game.hand_count == 3 and game.scores == {"NS": 60, "EW": 0}
    assert game.winner == "NS"
    assert outcomes(game) == {"N": "win", "S": "win", "E": "loss", "W": "loss"}
    sides = names_by_side(game)
    lines = {line.name: (line.games, line.wins) for line in season_standings(season)["players"]}
    assert lines == {**dict.fromkeys(sides["NS"], (1, 1)), **dict.fromkeys(sides["EW"], (1, 0))}
    assert RatingPoint.objects.filter(game=game).count() == 8  # 4 players, all-time and club scopes
    standings = night_standings(night)
    assert [table.complete for table in standings.tables] == [True]
    assert all(line.games == 1 and not line.playing for line in standings.lines)
    assert not rounds.open_play(night).tables
    with pytest.raises(RecordError) as refused:
        record_hand(game=game, number=4, data=NS_MAKES)
    assert refused.value.code == "game_over" and game.hands.count() == 3


def test_a_correction_that_changes_the_winner_moves_the_standings_and_the_ratings(club, season):
    night = started_night(club, season)
    game = play(night.games.get(), [NS_MAKES, NS_MAKES, NS_MAKES])
    assert game.winner == "NS"
    before = set(RatingPoint.objects.filter(game=game).values_list("player_id", "rank"))
    big_ew = {"bidder": "E", "bid": 60, "meld_points": {"NS": 0, "EW": 80}, "tricks": {"NS": 0, "EW": 25}}
    edit_hand(game=game, number=1, data=big_ew)
    game.refresh_from_db()
    assert game.finished and game.winner == "EW"
    assert outcomes(game) == {"N": "loss", "S": "loss", "E": "win", "W": "win"}
    after = set(RatingPoint.objects.filter(game=game).values_list("player_id", "rank"))
    assert after != before and len(after) == 4
    sides = names_by_side(game)
    wins = {line.name: line.wins for line in season_standings(season)["players"]}
    assert wins == {**dict.fromkeys(sides["EW"], 1), **dict.fromkeys(sides["NS"], 0)}
    ledger = ledger_selectors.night_ledger(night)
    assert {row.name: row.amount for row in ledger.rows} == {
        **dict.fromkeys(sides["EW"], Decimal("1.00")),
        **dict.fromkeys(sides["NS"], Decimal("-1.00")),
    }


def test_deleting_hand_three_opens_the_game_again(club, season):
    night = started_night(club, season)
    game = play(night.games.get(), [NS_MAKES, NS_MAKES, NS_MAKES])
    assert game.finished and RatingPoint.objects.filter(game=game).exists()
    delete_last_hand(game=game, expected=3)
    game.refresh_from_db()
    assert not game.finished and game.hand_count == 2
    assert not RatingPoint.objects.filter(game=game).exists()
    assert all(line.games == 0 for line in season_standings(season)["players"])
    assert all(line.playing for line in night_standings(night).lines)
    play(game, [NS_MAKES])  # hand 3 again
    assert game.finished


def test_level_points_after_the_last_hand_are_a_draw_on_the_night_and_in_the_season(club, season):
    night = started_night(club, season, hands=2)
    game = play(night.games.get(), [NS_MAKES, EW_MAKES])
    assert game.scores == {"NS": 35, "EW": 35} and game.winner == "draw"
    assert set(outcomes(game).values()) == {"draw"}
    assert all(line.draws == 1 for line in season_standings(season)["players"])
    assert all(line.draws == 1 and line.wins == 0 for line in night_standings(night).lines)
    assert all(row.amount == 0 for row in ledger_selectors.night_ledger(night).rows)  # a draw moves no money


def test_a_check_pinochle_round_pays_the_game_chips_of_its_end_in_the_night_money(club, season):
    night = started_night(club, season, hands=2, variant="check")
    run = {
        "bidder": "N",
        "bid": 20,
        "trump": "hearts",
        "melds": {"N": ["run"]},
        "tricks": {"NS": 20, "EW": 5},
    }
    game = play(night.games.get(), [run, {"passed": True}])
    # N-S 35, E-W 5 after the 2 deals: lead 30 → 13 game chips on top of the hand's 4 (run 2, bid 2).
    assert game.finished and game.chip_totals == {"NS": 17, "EW": -17} and game.winner == "NS"
    sides = names_by_side(game)
    chips = {line.name: line.chips for line in night_standings(night).lines}
    assert chips == {**dict.fromkeys(sides["NS"], 17), **dict.fromkeys(sides["EW"], -17)}
    amounts = {row.name: row.amount for row in ledger_selectors.night_ledger(night).rows}
    assert amounts == {
        **dict.fromkeys(sides["NS"], Decimal("1.70")),
        **dict.fromkeys(sides["EW"], Decimal("-1.70")),
    }


def test_the_table_phone_says_round_over_with_the_result_and_the_server_refuses_hand_four(
    club, season, alice
):
    night = started_night(club, season)
    game = play(night.games.get(), [NS_MAKES, NS_MAKES])
    table = night.tables.get()
    page = text(alice.get(f"/g/{game.code}/"))
    assert "Hand 3 of 3" in page and "Round over" not in page
    response = alice.post(f"/g/{game.code}/hands", hand_post(3), follow=True)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.finished and game.hand_count == 3
    scores = f"N–S {game.scores['NS']} · E–W {game.scores['EW']}"
    page = text(alice.get(f"/g/{game.code}/"))
    assert "Round over" in page and "Save hand 4" not in page and "Hand 4" not in page
    assert f"The game was 3 deals: N–S have the most points, {scores} ." in page  # a tag before "."
    response = alice.post(f"/g/{game.code}/hands", hand_post(4))
    shown = text(response)
    assert "The round was 3 hands and they are all played, so this hand was not saved." in shown
    assert game.hands.count() == 3
    link = text(Client().get(f"/nights/t/{table.token}/"))
    assert "Round over" in link and "N–S (" in link and ") won" in link and f"Final points: {scores}" in link


def test_the_settings_page_shows_the_length_and_keeps_it(club, season, alice):
    night = started_night(club, season)
    game = night.games.get()
    page = text(alice.get(f"/g/{game.code}/settings/"))
    assert "Length: 3 deals. The game ends after hand 3" in page
    casual = started_night(club, season, hands=None).games.get()
    assert "Length: until a side reaches the target." in text(alice.get(f"/g/{casual.code}/settings/"))


def test_the_csv_export_carries_the_length_and_counts_the_round_as_finished(club, season, alice):
    game = play(started_night(club, season).games.get(), [NS_MAKES, NS_MAKES, NS_MAKES])
    response = alice.get(f"/league/export/games.csv?game={game.code}")
    rows = b"".join(response.streaming_content).decode().lstrip("\ufeff")
    (line,) = csv.DictReader(io.StringIO(rows))
    assert (line["deals"], line["hands"], line["finished"], line["winner"]) == ("3", "3", "1", "NS")


def test_a_round_of_three_hands_goes_through_a_hands_csv_import_and_a_backup_as_a_game_of_three_deals(
    club, season, alice
):
    from league.imports.worker import import_bytes

    night = started_night(club, season)
    game = play(night.games.get(), [NS_MAKES, NS_MAKES, EW_SET])
    out = io.StringIO()
    call_command("backup", "-", stdout=out)
    (row,) = [
        item["fields"] for item in json.loads(out.getvalue()) if item["fields"].get("code") == game.code
    ]
    assert (row["meld_needs_trick"], row["deals"]) == (False, 3)
    exported = b"".join(alice.get(f"/league/export/hands.csv?game={game.code}").streaming_content)
    code, winner, scores = game.code, game.winner, game.scores
    removal.remove_night(night=night)
    report = import_bytes(exported, name="hands.csv")
    assert (report.games, report.hands) == (1, 3)
    imported = Game.objects.get(code=code)
    assert (imported.deals, imported.finished, imported.winner, imported.scores) == (3, True, winner, scores)
    assert RatingPoint.objects.filter(game=imported).count() == 8
