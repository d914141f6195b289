"""Backup and restore of everything: games as game records (docs/record-format.md), plus the club data.

`dump()` builds one JSON-ready object: accounts (with password hashes, so keep backups private),
clubs, players and rosters, seasons, club roles by username, and every game as its game
record (settings, players, hands) with its league details (club, season, date, place, note, which
player sat in each seat), its code and share code. Derived figures (totals, statistics) are not in
the file: `load()` rescores every game with the engine and writes them afresh through
`league.services.store_games`, in one transaction, into an empty database only.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils.dateparse import parse_datetime

from clubs.models import Club, ClubRole, Membership, Player, Season
from league.services import NewGame, store_games
from ratings import services as rating_services
from scoring.models import Game, GameSeat, Hand
from scoring.rules import GameResult, RecordError, parse_hand, parse_settings, score_game

FORMAT = "pinochle-scorekeeper-backup"
VERSION = 1


class BackupRefused(Exception):
    """The file cannot be restored; the message says what is wrong and where."""


# --- backup ------------------------------------------------------------------------------------


def _date(value: datetime.date | datetime.datetime | None) -> str | None:
    return value.isoformat() if value else None


def dump() -> dict[str, Any]:
    """Everything, read in one transaction so the parts agree with each other."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if connection.vendor == "postgresql" and outermost:
            # A snapshot that does not block the tables' writers while it is read.
            connection.cursor().execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        return {
            "format": FORMAT,
            "version": VERSION,
            "created": _date(datetime.datetime.now(datetime.UTC)),
            "users": [
                {
                    "username": user.username,
                    "email": user.email,
                    "first_name": user.first_name,
                    "last_name": user.last_name,
                    "password": user.password,
                    "is_active": user.is_active,
                    "is_staff": user.is_staff,
                    "is_superuser": user.is_superuser,
                    "date_joined": _date(user.date_joined),
                }
                for user in User.objects.order_by("pk")
            ],
            "clubs": [
                {"name": club.name, "created_at": _date(club.created_at)}
                for club in Club.objects.order_by("pk")
            ],
            "players": [
                {
                    "id": player.pk,
                    "name": player.name,
                    "clubs": [
                        {"club": m.club.name, "joined_on": _date(m.joined_on)}
                        for m in player.memberships.all()
                    ],
                }
                for player in Player.objects.order_by("pk").prefetch_related("memberships__club")
            ],
            "seasons": [
                {
                    "club": season.club.name,
                    "name": season.name,
                    "starts_on": _date(season.starts_on),
                    "ends_on": _date(season.ends_on),
                }
                for season in Season.objects.select_related("club").order_by("pk")
            ],
            "club_roles": list(_club_roles()),
            "games": list(_games()),
        }


def _club_roles() -> Iterator[dict[str, Any]]:
    names = dict(Club.objects.values_list("pk", "name"))
    for role in ClubRole.objects.select_related("user").order_by("pk"):
        if role.club_id in names:  # a role in a club that no longer exists means nothing
            yield {"club": names[role.club_id], "username": role.user.username, "role": role.role}


def _games() -> Iterator[dict[str, Any]]:
    games = Game.objects.select_related("club", "season", "created_by").order_by("pk")
    hands: dict[int, list[Any]] = {}
    for game_id, data in Hand.objects.order_by("game_id", "number").values_list("game_id", "data"):
        hands.setdefault(game_id, []).append(data)
    seats: dict[int, list[GameSeat]] = {}
    for row in GameSeat.objects.order_by("game_id", "seat"):
        seats.setdefault(row.game_id, []).append(row)
    for game in games.iterator(chunk_size=500):
        rows = seats.get(game.pk, [])
        yield {
            "code": game.code,
            "record": {
                **game.settings_record(),
                "players": {row.seat: row.name for row in rows if row.name},
                "hands": hands.get(game.pk, []),
            },
            "club": game.club.name if game.club else None,
            "season": game.season.name if game.season else None,
            "played_on": _date(game.played_on),
            "place": game.place,
            "note": game.note,
            "seat_players": {row.seat: row.player_id for row in rows if row.player_id},
            "share_code": game.share_code,
            "edit_token_hash": game.edit_token_hash,
            "created_by": game.created_by.username if game.created_by else None,
            "created_at": _date(game.created_at),
            "updated_at": _date(game.updated_at),
        }


# --- restore -----------------------------------------------------------------------------------


def database_is_empty() -> bool:
    return not any(model.objects.exists() for model in (Game, Club, Player, Season, User, ClubRole))


def _field(obj: Any, key: str, kind: type | tuple[type, ...], where: str, *, optional: bool = False) -> Any:
    if not isinstance(obj, dict):
        raise BackupRefused(f"{where}: an object is expected")
    value = obj.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise BackupRefused(f"{where}: {key!r} is missing or of the wrong type")
    return value


def _day(text: str | None, where: str) -> datetime.date | None:
    if text is None:
        return None
    try:
        return datetime.date.fromisoformat(text)
    except (TypeError, ValueError):
        raise BackupRefused(f"{where}: {str(text)[:30]!r} is not a date like 2026-03-14") from None


def _moment(text: str | None, where: str) -> datetime.datetime | None:
    if text is None:
        return None
    try:
        value = parse_datetime(text)
    except (TypeError, ValueError):
        value = None
    if value is None:
        raise BackupRefused(f"{where}: {str(text)[:40]!r} is not a date and time")
    return value


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        raise BackupRefused(f"{key!r} is missing or is not a list")
    return value


def _score(record: Any, where: str) -> GameResult:
    if not isinstance(record, dict) or not isinstance(record.get("hands"), list):
        raise BackupRefused(f"{where}: 'record' is not a game record with a list of hands")
    try:
        settings = parse_settings(record)
        hands = [parse_hand(data, number, settings) for number, data in enumerate(record["hands"], start=1)]
        return score_game(settings, hands)
    except RecordError as error:
        raise BackupRefused(f"{where}: {error}") from None


def load(data: Any) -> dict[str, int]:
    """Restore a `dump()` into an empty database, all or nothing; returns what was restored.

    BackupRefused names the first problem (the part of the file, and what is wrong with it).
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupRefused(f'not a backup of this app (no "format": "{FORMAT}")')
    if data.get("version") != VERSION:
        raise BackupRefused(f"backup version {data.get('version')!r}; this app restores version {VERSION}")
    with transaction.atomic():
        if not database_is_empty():
            raise BackupRefused("the database is not empty")
        users = _restore_users(_list(data, "users"))
        clubs = _restore_clubs(_list(data, "clubs"))
        players = _restore_players(_list(data, "players"), clubs)
        seasons = _restore_seasons(_list(data, "seasons"), clubs)
        roles = _restore_roles(_list(data, "club_roles"), users, clubs)
        games, hands = _restore_games(_list(data, "games"), users, clubs, seasons, players)
        rating_services.refresh_all()  # the ratings are derived: rebuilt from the restored games
    return {
        "games": games,
        "hands": hands,
        "clubs": len(clubs),
        "players": len(players),
        "seasons": len(seasons),
        "users": len(users),
        "club_roles": roles,
    }


def _restore_users(rows: list[Any]) -> dict[str, User]:
    users: dict[str, User] = {}
    for index, row in enumerate(rows, start=1):
        where = f"users[{index}]"
        name = _field(row, "username", str, where)
        if not name or name in users:
            raise BackupRefused(f"{where}: the username is empty or repeated")
        users[name] = User(
            username=name,
            email=_field(row, "email", str, where, optional=True) or "",
            first_name=_field(row, "first_name", str, where, optional=True) or "",
            last_name=_field(row, "last_name", str, where, optional=True) or "",
            password=_field(row, "password", str, where, optional=True) or "!",  # "!": no password
            is_active=bool(row.get("is_active", True)),
            is_staff=bool(row.get("is_staff", False)),
            is_superuser=bool(row.get("is_superuser", False)),
            date_joined=_moment(row.get("date_joined"), where) or datetime.datetime.now(datetime.UTC),
        )
    User.objects.bulk_create(users.values())
    return {user.username: user for user in User.objects.all()}


def _restore_clubs(rows: list[Any]) -> dict[str, Club]:
    clubs: dict[str, Club] = {}
    for index, row in enumerate(rows, start=1):
        where = f"clubs[{index}]"
        name = _field(row, "name", str, where)
        if not name.strip() or name in clubs:
            raise BackupRefused(f"{where}: the club name is empty or repeated")
        clubs[name] = Club.objects.create(name=name)
        created = _moment(row.get("created_at"), where)
        if created:
            Club.objects.filter(pk=clubs[name].pk).update(created_at=created)
    return clubs


def _club(clubs: Mapping[str, Club], name: Any, where: str) -> Club:
    if name not in clubs:
        raise BackupRefused(f"{where}: club {str(name)[:100]!r} is not among the clubs")
    return clubs[name]


def _restore_players(rows: list[Any], clubs: Mapping[str, Club]) -> dict[int, Player]:
    players: dict[int, Player] = {}
    for index, row in enumerate(rows, start=1):
        where = f"players[{index}]"
        key, name = _field(row, "id", int, where), _field(row, "name", str, where)
        if key in players or not name.strip():
            raise BackupRefused(f"{where}: the id is repeated or the name is empty")
        player = players[key] = Player.objects.create(name=name)
        memberships = row.get("clubs", [])
        if not isinstance(memberships, list):
            raise BackupRefused(f"{where}: 'clubs' is not a list")
        for membership in memberships:
            club = _club(clubs, _field(membership, "club", str, where), where)
            Membership.objects.create(
                club=club, player=player, joined_on=_day(membership.get("joined_on"), where)
            )
    return players


def _restore_seasons(rows: list[Any], clubs: Mapping[str, Club]) -> dict[tuple[str, str], Season]:
    seasons: dict[tuple[str, str], Season] = {}
    for index, row in enumerate(rows, start=1):
        where = f"seasons[{index}]"
        club = _club(clubs, _field(row, "club", str, where), where)
        name = _field(row, "name", str, where)
        starts, ends = (
            _day(_field(row, "starts_on", str, where), where),
            _day(_field(row, "ends_on", str, where), where),
        )
        if (club.name, name) in seasons or not starts or not ends or ends < starts:
            raise BackupRefused(f"{where}: the season is repeated or ends before it starts")
        seasons[(club.name, name)] = Season.objects.create(
            club=club, name=name, starts_on=starts, ends_on=ends
        )
    return seasons


def _restore_roles(rows: list[Any], users: Mapping[str, User], clubs: Mapping[str, Club]) -> int:
    roles = []
    for index, row in enumerate(rows, start=1):
        where = f"club_roles[{index}]"
        club = _club(clubs, _field(row, "club", str, where), where)
        username, role = _field(row, "username", str, where), _field(row, "role", str, where)
        if username not in users:
            raise BackupRefused(f"{where}: user {username[:150]!r} is not among the users")
        if role not in ClubRole.Role.values:
            raise BackupRefused(f"{where}: {role[:20]!r} is not a club role")
        roles.append(ClubRole(user=users[username], club_id=club.pk, role=role))
    ClubRole.objects.bulk_create(roles)
    return len(roles)


def _restore_games(
    rows: list[Any],
    users: Mapping[str, User],
    clubs: Mapping[str, Club],
    seasons: Mapping[tuple[str, str], Season],
    players: Mapping[int, Player],
) -> tuple[int, int]:
    new_games: list[NewGame] = []
    extras: list[dict[str, Any]] = []
    codes: set[str] = set()
    for index, row in enumerate(rows, start=1):
        code = _field(row, "code", str, f"games[{index}]")
        where = f"games[{index}] (game {code[:16]})"
        if code in codes or not 1 <= len(code) <= 16:
            raise BackupRefused(f"{where}: the game code is repeated or not 1 to 16 characters")
        codes.add(code)
        record = row.get("record")
        result = _score(record, where)
        club_name, season_name = row.get("club"), row.get("season")
        club = _club(clubs, club_name, where) if club_name is not None else None
        season = None
        if season_name is not None:
            if club is None or (club.name, season_name) not in seasons:
                raise BackupRefused(f"{where}: season {str(season_name)[:100]!r} is not among the seasons")
            season = seasons[(club.name, season_name)]
        links = row.get("seat_players") or {}
        if not isinstance(links, dict) or any(
            seat not in result.settings.seat_letters or pid not in players for seat, pid in links.items()
        ):
            raise BackupRefused(f"{where}: 'seat_players' names a seat or a player that is not there")
        created_by = row.get("created_by")
        if created_by is not None and created_by not in users:
            raise BackupRefused(f"{where}: user {str(created_by)[:150]!r} is not among the users")
        place, note = row.get("place") or "", row.get("note") or ""
        if not isinstance(place, str) or not isinstance(note, str) or len(place) > 100:
            raise BackupRefused(f"{where}: 'place' or 'note' is not text (place: at most 100 characters)")
        settings = {
            "seats": result.settings.seats,
            "variant": result.settings.requested_variant,
            "deck": result.settings.deck,
            "target": record.get("target"),
            "min_bid": record.get("min_bid"),
            "first_dealer": result.settings.first_dealer,
            "options": {"meld_needs_trick": result.settings.meld_needs_trick},
        }
        # Club and season are set afterwards: store_games would bind named seats to roster players
        # by name, and the backup says exactly which player sat where.
        new_games.append(
            NewGame(
                settings=settings,
                players=dict(result.settings.players),
                hands=record["hands"],
                result=result,
                code=code,
                played_on=_day(row.get("played_on"), where),
                place=place,
                note=note,
            )
        )
        extras.append(
            {
                "club": club,
                "season": season,
                "links": links,
                "share_code": row.get("share_code") if isinstance(row.get("share_code"), str) else None,
                "edit_token_hash": row.get("edit_token_hash")
                if isinstance(row.get("edit_token_hash"), str)
                else "",
                "created_by": users[created_by] if created_by else None,
                "created_at": _moment(row.get("created_at"), where),
                "updated_at": _moment(row.get("updated_at"), where),
            }
        )
    stored = store_games(games=new_games)
    seat_updates = []
    for game, extra in zip(stored, extras, strict=True):
        changes: dict[str, Any] = {
            "club": extra["club"],
            "season": extra["season"],
            "edit_token_hash": extra["edit_token_hash"][:64],
            "created_by": extra["created_by"],
        }
        if extra["share_code"]:
            changes["share_code"] = extra["share_code"][:16]
        for moment in ("created_at", "updated_at"):
            if extra[moment]:
                changes[moment] = extra[moment]
        Game.objects.filter(pk=game.pk).update(**changes)  # update() leaves the auto_now fields alone
        for seat in game.seat_rows.all():
            pid = extra["links"].get(seat.seat)
            seat.player = players[pid] if pid is not None else None
            seat_updates.append(seat)
    GameSeat.objects.bulk_update(seat_updates, ["player"], batch_size=1000)
    return len(stored), sum(len(game.hands) for game in new_games)


__all__ = ["BackupRefused", "database_is_empty", "dump", "load"]
