"""The games' part of a backup: every visible game with every column (its settings, league details,
code, share code, edit and hand-over secrets, who started it, its last meld entry, its times), its
seats and the players who sat in them, its hands with their submission ids and times, its
correction trail, and the phones with their edit rights (the hash of each phone's cookie and the
account a right is held for, without which a lapsed right would count again); every field of
every row, with its id (`backups.rows`).

A hidden game (`Game.hidden`: an import still being written) is left out with all its rows: no page
sees it, and its import is not in the backup either. The games' statistics are derived: a restore scores every
game again with the rules engine, refuses a game whose hands the engine refuses (naming the game
and the hand), writes the game's summary as the engine gives it and its statistics afresh. A game
code or share code that is not 1 to 16 letters, digits, - or _ is refused (it becomes a path)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from backups.parts import Part, whole_app
from backups.rows import BackupRefused
from clubs.models import Club
from core.strict_input import is_game_code
from scoring import stats
from scoring.models import DeviceGame, Game, GameSeat, GameStat, Hand, HandChange, HandStat
from scoring.rules.engine import check_record
from scoring.rules.errors import RecordError
from scoring.services.results import SUMMARY_FIELDS, summary_fields

_STATS = "statistics: rewritten from the hands when the engine scores each game again"
_ROWS = whole_app(
    "scoring",
    derived={
        "scoring.HandStat": _STATS,
        "scoring.GameStat": _STATS,
        "scoring.GameSetup": "transient: the one-time token of the form that started a game, against a"
        " second tap on Start within moments",
    },
    chosen={
        "scoring.Game": lambda: Game.all_objects.filter(hidden=False),
        "scoring.GameSeat": lambda: GameSeat.objects.filter(game__hidden=False),
        "scoring.Hand": lambda: Hand.objects.filter(game__hidden=False),
        "scoring.HandChange": lambda: HandChange.objects.filter(game__hidden=False),
        "scoring.DeviceGame": lambda: DeviceGame.objects.filter(game__hidden=False),
    },
)


def _grouped(rows: Any) -> dict[int, list[Any]]:
    by_game: dict[int, list[Any]] = {}
    for row in rows:
        by_game.setdefault(row.game_id, []).append(row)
    return by_game


def _score_every_game(section: Mapping[str, Any]) -> None:
    """Each restored game scored again: its summary and statistics written as the engine gives them."""
    games = {game.pk: game for game in Game.all_objects.all()}
    seats = _grouped(GameSeat.objects.order_by("game_id", "pk"))
    hands = _grouped(Hand.objects.order_by("game_id", "number"))
    hand_stats: list[HandStat] = []
    game_stats: list[GameStat] = []
    for index, row in enumerate(section.get("Game", []), start=1):
        game = games[row["id"]]
        where = f"scoring.Game[{index}] (game {game.code})"
        game_hands, seat_rows = hands.get(game.pk, []), seats.get(game.pk, [])
        numbers = [hand.number for hand in game_hands]
        if numbers != list(range(1, len(numbers) + 1)):
            raise BackupRefused(f"{where}: its hands are numbered {numbers[:20]}, not 1, 2, 3…")
        hand_data = [hand.data for hand in game_hands]
        record = {
            **game.settings_record(),
            "players": {seat.seat: seat.name for seat in seat_rows if seat.name},
            "hands": hand_data,
        }
        try:
            result = check_record(record)
        except RecordError as error:
            raise BackupRefused(f"{where}: {error}") from None
        if sorted(seat.seat for seat in seat_rows) != sorted(result.settings.seat_letters):
            raise BackupRefused(
                f"{where}: its seats are not one of each of {''.join(result.settings.seat_letters)}"
            )
        for name, value in summary_fields(result).items():
            setattr(game, name, value)
        made = stats.stat_rows(game, seat_rows, hand_data, result)
        hand_stats += made[0]
        game_stats += made[1]
    # bulk_update leaves `updated_at` as the file has it (save() would stamp the time of the restore).
    Game.all_objects.bulk_update(games.values(), SUMMARY_FIELDS, batch_size=500)
    HandStat.objects.bulk_create(hand_stats, batch_size=1000)
    GameStat.objects.bulk_create(game_stats, batch_size=1000)


def _rows(section: Any, table: str) -> list[dict[str, Any]]:
    rows = section.get(table) if isinstance(section, dict) else None
    return [row for row in rows if isinstance(row, dict)] if isinstance(rows, list) else []


def _check_file(section: Any) -> None:
    """What the columns do not say: a code becomes a path; one person sits in one seat of a game; a
    correction names its club by id (a number, not a foreign key)."""
    for index, row in enumerate(_rows(section, "Game"), start=1):
        if row.get("hidden") is True:
            raise BackupRefused(
                f"scoring.Game[{index}]: 'hidden' is true; a backup holds only games every page shows"
            )
        for name, what in (("code", "game code"), ("share_code", "share code")):
            value = row.get(name)
            if isinstance(value, str) and not is_game_code(value):
                raise BackupRefused(
                    f"scoring.Game[{index}]: {name!r} {value[:20]!r} is not a {what}"
                    " (1 to 16 letters, digits, - or _)"
                )
    seated: dict[tuple[Any, Any], int] = {}
    for index, row in enumerate(_rows(section, "GameSeat"), start=1):
        key = (row.get("game"), row.get("player"))
        if not all(isinstance(value, int) for value in key):
            continue  # no player, or not an id: refused below, naming the field
        if key in seated:
            raise BackupRefused(
                f"scoring.GameSeat[{index}]: puts one player in two seats of a game"
                f" (as scoring.GameSeat[{seated[key]}])"
            )
        seated[key] = index
    clubs = set(Club.objects.values_list("pk", flat=True))  # restored by the clubs' part, before this one
    for index, row in enumerate(_rows(section, "HandChange"), start=1):
        club = row.get("club_id")
        if isinstance(club, int) and club not in clubs:
            raise BackupRefused(
                f"scoring.HandChange[{index}]: 'club_id' {club} is not among the clubs of the backup"
            )


def _load(data: Mapping[str, Any]) -> dict[str, int]:
    assert _ROWS.load is not None
    _check_file(data.get("scoring"))
    counts = _ROWS.load(data)  # every row checked against its column, or refused
    _score_every_game(data["scoring"])
    return counts


PART = Part(_ROWS.holds, _ROWS.derived, _ROWS.dump, _load)
