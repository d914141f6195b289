"""The export's order and cost: games by id, each game's hands by number, whatever order the games
were asked in or their hands were saved in; one query for games.csv and two for hands.csv, however
many games, read in chunks that do not change a byte of the file."""

import csv
import io
from collections.abc import Iterable, Sequence

import pytest
from django.db.models import QuerySet

from clubs.models import Player
from core.spreadsheet import csv_lines
from league.csv_io import export
from league.csv_io.columns import GAMES_COLUMNS, HANDS_COLUMNS
from league.csv_io.export import games_rows, hands_rows
from scoring.models import Game, GameSeat
from scoring.services.games import create_game
from scoring.services.hands import record_hand

pytestmark = pytest.mark.django_db

FOUR = {"bidder": "N", "bid": 21, "trump": "hearts", "melds": {"N": ["run"]}, "tricks": {"NS": 15, "EW": 10}}
THREE = {
    "bidder": "S", "bid": 20, "trump": "clubs", "melds": {"S": ["aces"]}, "tricks": {"N": 5, "E": 5, "S": 15}
}  # fmt: skip
TWO = {"melds": {"E": ["dix"]}, "tricks": {"N": 10, "E": 15}}
HANDS = {4: FOUR, 3: THREE, 2: TWO}


def _hand_count(index: int) -> int:
    return 2 - index % 3


def _games(count: int) -> list[Game]:
    """`count` games of 4, 3 and 2 seats in turn; two hands, one, none in turn. Their hands are saved
    newest game first, so the hands' own ids run against the order of the games."""
    games = []
    for index, seats in enumerate(((4, 3, 2) * count)[:count]):
        players = {seat: f"{seat}{index}" for seat in "NESW"[:seats]}
        games.append(
            create_game(
                seats=seats,
                variant="standard",
                deck="single",
                target=None,
                min_bid=None,
                first_dealer="N",
                meld_needs_trick=False,
                players=players,
            )
        )
    for index, game in reversed(list(enumerate(games))):
        for number in range(1, 1 + _hand_count(index)):
            record_hand(game=game, number=number, data=HANDS[game.seats])
    return games


def _text(columns: list[str], rows: Iterable[Sequence[object]]) -> str:
    return "".join(csv_lines(columns, rows))


def _exports(games: QuerySet[Game]) -> tuple[str, str]:
    return _text(GAMES_COLUMNS, games_rows(games)), _text(HANDS_COLUMNS, hands_rows(games))


def _cells(text: str, *columns: str) -> list[tuple[str, ...]]:
    return [
        tuple(row[c] for c in columns) for row in csv.DictReader(io.StringIO(text.removeprefix("\ufeff")))
    ]


def test_games_come_out_by_id_and_hands_by_number_whatever_the_order_asked():
    games = _games(7)
    code_order = [game.code for game in games]
    games_csv, hands_csv = _exports(Game.objects.order_by("-id"))

    assert [code for (code,) in _cells(games_csv, "game_id")] == code_order
    hands = _cells(hands_csv, "game_id", "hand")
    assert hands == [
        (game.code, str(number))
        for index, game in enumerate(games)
        for number in range(1, 1 + _hand_count(index))
    ]


def test_a_seats_linked_player_is_named_and_an_empty_seat_is_blank():
    game = _games(1)[0]
    seat = GameSeat.objects.get(game=game, seat="E")
    seat.player = Player.objects.create(name="=Örjan")
    seat.save()
    GameSeat.objects.filter(game=game, seat="S").update(name="")

    games_csv, hands_csv = _exports(Game.objects.all())

    names = ("player_N", "player_E", "player_S", "player_W")
    assert _cells(games_csv, *names) == [("N0", "'=Örjan", "", "W0")]
    assert set(_cells(hands_csv, *names)) == {("N0", "'=Örjan", "", "W0")}


@pytest.mark.parametrize("count", [1, 9])
def test_the_number_of_queries_is_fixed_whatever_the_number_of_games(count, django_assert_max_num_queries):
    _games(count)
    with django_assert_max_num_queries(1):
        games_csv = _text(GAMES_COLUMNS, games_rows(Game.objects.all()))
    with django_assert_max_num_queries(2):
        hands_csv = _text(HANDS_COLUMNS, hands_rows(Game.objects.all()))
    assert games_csv.count("\r\n") == count + 1
    assert hands_csv.count("\r\n") == 1 + sum(_hand_count(index) for index in range(count))


def test_reading_in_small_chunks_writes_the_same_files(monkeypatch):
    _games(9)
    whole = _exports(Game.objects.all())
    monkeypatch.setattr(export, "CHUNK", 2)  # a chunk ends inside a game's hands, and between games
    assert _exports(Game.objects.all()) == whole


def test_no_game_exports_the_header_alone():
    _games(3)
    games_csv, hands_csv = _exports(Game.objects.none())
    assert games_csv == "\ufeff" + ",".join(GAMES_COLUMNS) + "\r\n"
    assert hands_csv == "\ufeff" + ",".join(HANDS_COLUMNS) + "\r\n"
