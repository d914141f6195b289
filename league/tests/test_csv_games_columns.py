"""games.csv and hands.csv read as a spreadsheet reads them: booleans 1/0, chips only where in play.

A small season, each game worked out by hand (docs/rules.md), target 30 unless said otherwise:

check    Check, single deck, meld needs a trick. h1 all pass. h2 E bids 27 ♦, melds E run+marriage 17,
         W pinochle 4, N aces 10; tricks NS 10 EW 15: EW 36 made, NS 20. Chips EW +4; game chips
         10 + ⌈16/10⌉ = 12: EW 16, NS −16. EW win.
standard 4 seats. h1 E bids 20 and concedes, N dix 1: EW −20, NS 1. h2 N bids 21 ♥, melds N run 15,
         S pinochle 4, E aces 10; tricks NS 15 EW 10: NS 1 + 34 = 35, EW −20 + 20 = 0. NS win.
three    3 seats. h1 N bids 20, melds 14 + tricks 12 = 26; E 8; S 5. h2 E bids 21, run 15 + 15 = 30
         → E 38, N 31, S 10: E (the bidder) wins.
two      2 seats, no bidding. h1 N aces 10 + 15 = 25, E 10. h2 tricks N 10 E 15: N 35, E 25. N wins.
double   Check asked with a double deck: played as standard, no chips (docs/rules.md). Target 60;
         N bids 50 ♥, melds run + aces 25, tricks NS 40 EW 10: NS 65, EW 10. NS win.
draw     Check, target 100. NS set at 45 (EW +32 chips), then NS make 185 with double run and aces:
         NS 140, EW 5; chips level after game chips: a draw (docs/rules.md, "End of the game").
open     Check, target 100, h2 of `check` only: EW 36, NS 20, chips EW +4, still going.
empty    Standard, no hand yet.
"""

import csv
import datetime
import io
from typing import Any

import pytest
from django.contrib.auth.models import User

from clubs.models import Club, ClubRole, Season
from core.spreadsheet import unneutralise
from league.imports.worker import import_bytes
from scoring import filing
from scoring.models import Game, GameStat, HandStat
from scoring.services.games import create_game
from scoring.services.hands import record_hand

pytestmark = pytest.mark.django_db

CHECK_HAND: dict[str, Any] = {
    "bidder": "E",
    "bid": 27,
    "trump": "diamonds",
    "melds": {"E": ["run", "marriage"], "W": ["pinochle"], "N": ["aces"]},
    "tricks": {"NS": 10, "EW": 15},
}
GAMES: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {
    "check": (
        {"seats": 4, "variant": "check", "deck": "single", "target": 30, "meld_needs_trick": True},
        [{"passed": True}, CHECK_HAND],
    ),
    "standard": (
        {"seats": 4, "variant": "standard", "deck": "single", "target": 30},
        [
            {"bidder": "E", "bid": 20, "trump": "spades", "conceded": True, "melds": {"N": ["dix"]}},
            {
                "bidder": "N",
                "bid": 21,
                "trump": "hearts",
                "melds": {"N": ["run"], "S": ["pinochle"], "E": ["aces"]},
                "tricks": {"NS": 15, "EW": 10},
            },
        ],
    ),
    "three": (
        {"seats": 3, "variant": "standard", "deck": "single", "target": 30},
        [
            {
                "bidder": "N",
                "bid": 20,
                "trump": "spades",
                "melds": {"N": ["trump_marriage", "aces"]},
                "tricks": {"N": 12, "E": 8, "S": 5},
            },
            {
                "bidder": "E",
                "bid": 21,
                "trump": "hearts",
                "melds": {"E": ["run"]},
                "tricks": {"N": 5, "E": 15, "S": 5},
            },
        ],
    ),
    "two": (
        {"seats": 2, "variant": "standard", "deck": "single", "target": 30},
        [{"melds": {"N": ["aces"]}, "tricks": {"N": 15, "E": 10}}, {"tricks": {"N": 10, "E": 15}}],
    ),
    "double": (
        {"seats": 4, "variant": "check", "deck": "double", "target": 60},
        [
            {
                "bidder": "N",
                "bid": 50,
                "trump": "hearts",
                "melds": {"N": ["run", "aces"]},
                "tricks": {"NS": 40, "EW": 10},
            }
        ],
    ),
    "draw": (
        {"seats": 4, "variant": "check", "deck": "single", "target": None},
        [
            {
                "bidder": "N",
                "bid": 45,
                "trump": "hearts",
                "melds": {"N": ["trump_marriage"]},
                "tricks": {"NS": 20, "EW": 5},
            },
            {
                "bidder": "S",
                "bid": 20,
                "trump": "clubs",
                "melds": {"S": ["double_run", "aces"]},
                "tricks": {"NS": 25, "EW": 0},
            },
        ],
    ),
    "open": ({"seats": 4, "variant": "check", "deck": "single", "target": None}, [CHECK_HAND]),
    "empty": ({"seats": 4, "variant": "standard", "deck": "single", "target": None}, []),
}
NAMES = {"N": "Åsa", "E": "Örjan", "S": "Čeněk", "W": "Řehoř"}


def _season(organiser: User) -> tuple[Season, dict[str, str]]:
    """The season above, its club organised by `organiser`; the games' codes by their names here."""
    club = Club.objects.create(name="Klubbén")
    ClubRole.objects.create(user=organiser, club=club, role=ClubRole.Role.ORGANISER)
    season = Season.objects.create(
        club=club, name="Höst 2026", starts_on=datetime.date(2026, 9, 1), ends_on=datetime.date(2026, 12, 31)
    )
    codes = {}
    for day, (name, (settings, hands)) in enumerate(GAMES.items(), start=1):
        game = create_game(
            min_bid=None,
            first_dealer="N",
            meld_needs_trick=settings.get("meld_needs_trick", False),
            players={seat: NAMES[seat] for seat in "NESW"[: settings["seats"]]},
            **{key: settings[key] for key in ("seats", "variant", "deck", "target")},
        )
        filing.set_game_details(
            game=game, club=club, season=season, played_on=datetime.date(2026, 9, day), place=name
        )
        for number, data in enumerate(hands, start=1):
            record_hand(game=game, number=number, data=data)
        codes[name] = game.code
    return season, codes


def _spreadsheet(client, url: str) -> list[dict[str, str]]:
    """The downloaded file as a spreadsheet program sees it: the bytes, BOM dropped, split by csv."""
    raw = b"".join(client.get(url).streaming_content)
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    header, body = rows[0], rows[1:]
    assert all(len(row) == len(header) for row in body)
    return [dict(zip(header, row, strict=True)) for row in body]


def _games(client, season: Season) -> dict[str, dict[str, str]]:
    return {row["place"]: row for row in _spreadsheet(client, f"/league/export/games.csv?season={season.pk}")}


def _hands(client, season: Season) -> dict[str, list[dict[str, str]]]:
    by_game: dict[str, list[dict[str, str]]] = {}
    for row in _spreadsheet(client, f"/league/export/hands.csv?season={season.pk}"):
        by_game.setdefault(row["place"], []).append(row)
    return by_game


def _cells(row: dict[str, str], *columns: str) -> tuple[str, ...]:
    return tuple(row[column] for column in columns)


GAME_CELLS = ("variant", "deck", "seats", "hands", "finished", "meld_needs_trick", "winner")
POINTS = ("points_NS", "points_EW", "points_N", "points_E", "points_S")


def test_games_csv_writes_finished_and_the_house_rule_as_1_or_0(people):
    alice = people.client("alice")
    season, _codes = _season(people["alice"])
    games = _games(alice, season)
    assert {name: _cells(row, *GAME_CELLS) for name, row in games.items()} == {
        "check": ("check", "single", "4", "2", "1", "1", "EW"),
        "standard": ("standard", "single", "4", "2", "1", "0", "NS"),
        "three": ("standard", "single", "3", "2", "1", "0", "E"),
        "two": ("standard", "single", "2", "2", "1", "0", "N"),
        "double": ("check", "double", "4", "1", "1", "0", "NS"),
        "draw": ("check", "single", "4", "2", "1", "0", "draw"),
        "open": ("check", "single", "4", "1", "0", "0", ""),
        "empty": ("standard", "single", "4", "0", "0", "0", ""),
    }


def test_games_csv_fills_chips_only_where_check_pinochle_is_played_with_chips(people):
    alice = people.client("alice")
    season, _codes = _season(people["alice"])
    games = _games(alice, season)
    chips = {name: _cells(row, "chips_NS", "chips_EW") for name, row in games.items()}
    assert chips == {
        "check": ("-16", "16"),
        "standard": ("", ""),
        "three": ("", ""),
        "two": ("", ""),
        "double": ("", ""),  # Check asked with a double deck falls back to standard: no chips
        "draw": ("0", "0"),  # chips in play and level: zero, not empty
        "open": ("-4", "4"),
        "empty": ("", ""),
    }


def test_games_csv_puts_each_sides_points_in_its_own_columns(people):
    alice = people.client("alice")
    season, _codes = _season(people["alice"])
    games = _games(alice, season)
    assert {name: _cells(row, *POINTS) for name, row in games.items()} == {
        "check": ("20", "36", "", "", ""),
        "standard": ("35", "0", "", "", ""),
        "three": ("", "", "31", "38", "10"),
        "two": ("", "", "35", "25", ""),
        "double": ("65", "10", "", "", ""),
        "draw": ("140", "5", "", "", ""),
        "open": ("20", "36", "", "", ""),
        "empty": ("0", "0", "", "", ""),  # no hand yet: both sides on 0
    }


def test_hands_csv_writes_every_flag_as_the_readme_says(people):
    alice = people.client("alice")
    season, _codes = _season(people["alice"])
    hands = _hands(alice, season)
    flags = {name: [_cells(row, "meld_needs_trick", "passed", "conceded", "result") for row in rows]
             for name, rows in hands.items()}  # fmt: skip
    assert flags == {
        "check": [("1", "1", "", "passed"), ("1", "", "", "made")],
        "standard": [("0", "", "1", "conceded"), ("0", "", "", "made")],
        "three": [("0", "", "", "made"), ("0", "", "", "made")],
        "two": [("0", "", "", "nobid"), ("0", "", "", "nobid")],
        "double": [("0", "", "", "made")],
        "draw": [("0", "", "", "set"), ("0", "", "", "made")],
        "open": [("0", "", "", "made")],
    }  # a game with no hand has no row in hands.csv


def test_hands_csv_and_games_csv_agree_on_where_chips_are_in_play(people):
    alice = people.client("alice")
    season, _codes = _season(people["alice"])
    games, hands = _games(alice, season), _hands(alice, season)
    chip_columns = ("chips_NS", "chips_EW", "chip_total_NS", "chip_total_EW")
    for name, rows in hands.items():
        in_play = games[name]["chips_NS"] != ""
        assert in_play == (name in ("check", "draw", "open")), name
        for row in rows:
            assert all((cell != "") == in_play for cell in _cells(row, *chip_columns)), (name, row["hand"])
    last = {name: _cells(rows[-1], "chip_total_NS", "chip_total_EW") for name, rows in hands.items()}
    # The running chips before the end-of-game chips, which games.csv includes.
    assert (last["check"], last["open"]) == (("-4", "4"), ("-4", "4"))


def test_the_exported_hands_csv_imports_back_to_the_same_games_csv(people):
    alice = people.client("alice")
    season, codes = _season(people["alice"])
    games = _games(alice, season)
    exported = b"".join(alice.get(f"/league/export/hands.csv?season={season.pk}").streaming_content)
    HandStat.objects.all().delete()
    GameStat.objects.all().delete()
    Game.objects.all().delete()
    report = import_bytes(exported, name="hands.csv")
    assert (report.games, report.hands) == (7, 12)  # the game with no hand has no row to import
    again = _games(alice, season)
    assert set(again) == set(games) - {"empty"}
    for name, row in again.items():
        assert row == games[name], name
    # A code starting with "-" is written "'-…" (CSV injection) and read back without the apostrophe.
    assert {name: unneutralise(row["game_id"]) for name, row in again.items()} == {
        name: code for name, code in codes.items() if name != "empty"
    }
