"""Backup and restore of everything a club made, and the league's part of it.

`dump()` builds one JSON-ready object from the parts of every app (`backups.parts`: each app's
`backup.py` says what it holds and what it leaves out as derived), read in one transaction so the
parts agree; `load()` restores them in the order of INSTALLED_APPS (every app after those it
points at), all in one transaction, into an empty database only, and then computes the ratings
afresh from the restored games.

The league's part: accounts (with password hashes, so keep backups private) with their admin
permissions and groups, the groups and their permissions, clubs, players and rosters, seasons
(with their published-results codes), club roles by username, club invites, every game as its
game record (settings, players, hands) with its league details (club, season, date, place, note,
which player sat in each seat), its code, share code and edit secrets, each hand's submission id
and times, the game's correction history, and every other column of the game (`columns`, written
by `backups.rows`, so a field added to `Game` later is kept); and the phones' edit rights. Derived
figures (totals, statistics) are not in the file: `load()` rescores every game with the engine and
writes them afresh through `league.services.store_games`.

Version 2 added the permissions, groups, publish codes, hand submission ids and the correction
history; version 3 the club invites, pending and accepted, and the phones' edit rights (each
device's id hash, the SHA-256 of its cookie, and the games it may score, each with the account it
is held for, without which a lapsed right would count again), so a table's phone goes on scoring
after a restore and an invite link sent before it still works; version 4 the club nights and the
ledger (the parts of `nights` and `ledger`), every row's id (accounts, clubs, players, seasons,
games, corrections and the rows of the new parts keep their ids, so every link and every order
by id is the same after a restore) and the games' other columns. Version 1 to 3 files still restore, without
what they lack.

Every value is checked before it is written: types, references, and each text against its
column's length and choices (a message names the part of the file and the field), so SQLite and
PostgreSQL refuse the same files and neither is asked to store what the other would not.
"""

from __future__ import annotations

import datetime
import re
import uuid
from collections.abc import Iterator, Mapping
from typing import Any

from django.contrib.auth.models import Group, Permission, User
from django.core.management.color import no_style
from django.db import DataError, IntegrityError, connection, models, transaction
from django.utils.dateparse import parse_datetime

from backups import parts
from backups.rows import BackupRefused, fits, row_of, values_of
from clubs.models import Club, ClubRole, Invite, Membership, Player, Season
from core.strict_input import find_bad_text, is_game_code
from league.services import NewGame, store_games
from ratings import services as rating_services
from scoring.models import Device, DeviceGame, Game, GameSeat, Hand, HandChange
from scoring.rules import GameResult, RecordError, check_record

PUBLISH_CODE = re.compile(r"[A-Za-z0-9_-]{1,32}", re.ASCII)

FORMAT = "pinochle-scorekeeper-backup"
VERSION = 4
READABLE = (1, 2, 3, 4)  # versions load() accepts

# The game's fields this part writes by name or in the game record; the others (but the derived
# ones) go into the row's `columns`, field by field, whatever fields Game gains later.
GAME_FIELDS_BY_NAME = {
    "id", "code", "seats", "variant", "deck", "target", "min_bid", "first_dealer", "meld_needs_trick",
    "club", "season", "played_on", "place", "note", "share_code", "edit_token_hash",
    "handover_token_hash", "handover_expires_at", "created_by", "created_at", "updated_at",
}  # fmt: skip
GAME_FIELDS_DERIVED = {
    "hand_count": "the game's summary: the engine scores the restored hands again",
    "finished": "the game's summary: the engine scores the restored hands again",
    "winner": "the game's summary: the engine scores the restored hands again",
    "scores": "the game's summary: the engine scores the restored hands again",
    "chip_totals": "the game's summary: the engine scores the restored hands again",
    "pending_import": "an upload still being imported is not in a backup (its games are hidden)",
}


def _game_columns() -> list[models.Field[Any, Any]]:
    return [
        field
        for field in Game._meta.concrete_fields
        if field.name not in GAME_FIELDS_BY_NAME and field.name not in GAME_FIELDS_DERIVED
    ]


# Each field of the models this part writes by hand, and where it goes (tests/test_backup_coverage.py
# fails on a field that is not here, so a field added to one of these models is not lost unseen).
FIELDS_WRITTEN: dict[str, set[str]] = {
    "auth.User": {
        "id", "username", "email", "first_name", "last_name", "password", "is_active", "is_staff",
        "is_superuser", "date_joined", "last_login",
    },
    "auth.Group": {"id", "name"},  # the groups' ids are not kept: nothing shows them
    "clubs.Club": {"id", "name", "created_at"},
    "clubs.Player": {"id", "name", "created_at", "user"},
    "clubs.Membership": {"id", "club", "player", "joined_on", "retired_on"},
    "clubs.Season": {"id", "club", "name", "starts_on", "ends_on", "publish_code", "closed_at"},
    "clubs.ClubRole": {"id", "club", "user", "role", "updated_at"},
    "clubs.Invite": {
        "id", "club", "player", "token", "created_by", "created_at", "accepted_by", "accepted_at",
    },
    "scoring.GameSeat": {"id", "game", "seat", "name", "player"},
    "scoring.Hand": {"id", "game", "number", "data", "submission_id", "created_at", "updated_at"},
    "scoring.HandChange": {
        "id", "game", "club_id", "hand_number", "action", "old_data", "new_data", "actor", "actor_label",
        "at",
    },
    "scoring.Device": {"id", "id_hash", "created_at", "seen_at"},
    "scoring.DeviceGame": {"id", "device", "game", "active", "holder", "granted_at"},
}  # fmt: skip


# --- backup of every part ----------------------------------------------------------------------


def dump() -> dict[str, Any]:
    """Everything, read in one transaction so the parts agree with each other."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if connection.vendor == "postgresql" and outermost:
            # A snapshot that does not block the tables' writers while it is read.
            connection.cursor().execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "created": _date(datetime.datetime.now(datetime.UTC)),
        }
        for app, part in parts.found():
            if part.dump is None:
                continue
            written = part.dump()
            repeated = set(written) & set(data)
            if repeated:
                raise TypeError(f"the backup part of {app} writes {sorted(repeated)}, written before")
            data.update(written)
        return data


def database_is_empty() -> bool:
    return not any(model._base_manager.exists() for model in parts.held_models())


def load(data: Any) -> dict[str, int]:
    """Restore a `dump()` into an empty database, all or nothing; returns what was restored.

    BackupRefused names the first problem (the part of the file, and what is wrong with it).
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupRefused(f'not a backup of this app (no "format": "{FORMAT}")')
    version = data.get("version")
    if version not in READABLE:
        raise BackupRefused(
            f"backup version {version!r}; this app restores versions {', '.join(str(v) for v in READABLE)}"
        )
    bad = find_bad_text(data)
    if bad is not None:  # no database stores these (PostgreSQL refuses NUL, neither takes surrogates)
        raise BackupRefused(f"{bad[0]}: {bad[1]}")
    counts: dict[str, int] = {}
    try:
        with transaction.atomic():
            if not database_is_empty():
                raise BackupRefused("the database is not empty")
            for _app, part in parts.found():
                if part.load is not None:
                    counts.update(part.load(data, version))
            _restart_ids()
            rating_services.refresh_all()  # the ratings are derived: rebuilt from the restored games
    except (IntegrityError, DataError) as error:
        # What the checks above do not look for (a row given twice, a name longer than its column)
        # the database refuses; the transaction has written nothing.
        raise BackupRefused(f"the database refused the backup: {str(error).splitlines()[0][:200]}") from None
    return counts


def _restart_ids() -> None:
    """Rows written with the file's ids: the next new row of each table takes the next id (on
    PostgreSQL the sequences are set past the restored ids; SQLite does that by itself)."""
    statements = connection.ops.sequence_reset_sql(no_style(), parts.held_models())
    if statements:
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)


# --- the league's part: backup -------------------------------------------------------------------


def _date(value: datetime.date | datetime.datetime | None) -> str | None:
    return value.isoformat() if value else None


def _permission_names(permissions: Any) -> list[str]:
    """Permissions as "app_label.codename", the form `user.has_perm` takes."""
    return sorted(f"{p.content_type.app_label}.{p.codename}" for p in permissions)


def dump_part() -> dict[str, Any]:
    """The league's keys of the file: accounts, clubs, games, phones."""
    return {
        "groups": [
            {"name": group.name, "permissions": _permission_names(group.permissions.all())}
            for group in Group.objects.order_by("pk").prefetch_related("permissions__content_type")
        ],
        "users": [
            {
                "id": user.pk,
                "username": user.username,
                "email": user.email,
                "first_name": user.first_name,
                "last_name": user.last_name,
                "password": user.password,
                "is_active": user.is_active,
                "is_staff": user.is_staff,
                "is_superuser": user.is_superuser,
                "date_joined": _date(user.date_joined),
                "last_login": _date(user.last_login),
                "groups": sorted(group.name for group in user.groups.all()),
                "permissions": _permission_names(user.user_permissions.all()),
            }
            for user in User.objects.order_by("pk").prefetch_related(
                "groups", "user_permissions__content_type"
            )
        ],
        "clubs": [
            {"id": club.pk, "name": club.name, "created_at": _date(club.created_at)}
            for club in Club.objects.order_by("pk")
        ],
        "players": [
            {
                "id": player.pk,
                "name": player.name,
                "created_at": _date(player.created_at),
                "account": player.user.get_username() if player.user else None,
                "clubs": [
                    {
                        "club": m.club.name,
                        "joined_on": _date(m.joined_on),
                        "retired_on": _date(m.retired_on),
                    }
                    for m in player.memberships.all()
                ],
            }
            for player in Player.objects.order_by("pk")
            .select_related("user")
            .prefetch_related("memberships__club")
        ],
        "seasons": [
            {
                "id": season.pk,
                "club": season.club.name,
                "name": season.name,
                "starts_on": _date(season.starts_on),
                "ends_on": _date(season.ends_on),
                "publish_code": season.publish_code,
                "closed_at": _date(season.closed_at),
            }
            for season in Season.objects.select_related("club").order_by("pk")
        ],
        "club_roles": list(_club_roles()),
        "invites": [
            {
                "club": invite.club.name,
                "player": invite.player_id,
                "token": invite.token,
                "created_by": invite.created_by.username if invite.created_by else None,
                "created_at": _date(invite.created_at),
                "accepted_by": invite.accepted_by.username if invite.accepted_by else None,
                "accepted_at": _date(invite.accepted_at),
            }
            for invite in Invite.objects.select_related("club", "created_by", "accepted_by").order_by("pk")
        ],
        "games": list(_games()),
        "devices": list(_devices()),
    }


def _devices() -> Iterator[dict[str, Any]]:
    """Each phone's record (the hash of its cookie) and its edit rights, by game code."""
    rights: dict[int, list[dict[str, Any]]] = {}
    for device_id, code, active, granted, holder in (
        DeviceGame.objects.filter(game__pending_import__isnull=True)
        .order_by("device_id", "game_id")
        .values_list("device_id", "game__code", "active", "granted_at", "holder__username")
    ):
        # The account a right is held for: without it a restored right of a scorer taken off the
        # club would count again (a right held for nobody always counts).
        rights.setdefault(device_id, []).append(
            {"game": code, "active": active, "granted_at": _date(granted), "holder": holder}
        )
    for device in Device.objects.order_by("pk"):
        yield {
            "id_hash": device.id_hash,
            "created_at": _date(device.created_at),
            "seen_at": _date(device.seen_at),
            "games": rights.get(device.pk, []),
        }


def _club_roles() -> Iterator[dict[str, Any]]:
    names = dict(Club.objects.values_list("pk", "name"))
    for role in ClubRole.objects.select_related("user").order_by("pk"):
        if role.club_id in names:  # a role in a club that no longer exists means nothing
            yield {
                "club": names[role.club_id],
                "username": role.user.username,
                "role": role.role,
                "updated_at": _date(role.updated_at),
            }


def _games() -> Iterator[dict[str, Any]]:
    games = Game.objects.select_related("club", "season", "created_by").order_by("pk")
    hands: dict[int, list[Any]] = {}
    hand_times: dict[int, list[dict[str, Any]]] = {}
    for game_id, data, submission, created, updated in Hand.objects.order_by("game_id", "number").values_list(
        "game_id", "data", "submission_id", "created_at", "updated_at"
    ):
        hands.setdefault(game_id, []).append(data)
        hand_times.setdefault(game_id, []).append(
            {
                "submission_id": str(submission) if submission else None,
                "created_at": _date(created),
                "updated_at": _date(updated),
            }
        )
    clubs = dict(Club.objects.values_list("pk", "name"))
    changes: dict[int, list[dict[str, Any]]] = {}
    for change in HandChange.objects.select_related("actor").order_by("game_id", "at", "pk"):
        changes.setdefault(change.game_id, []).append(
            {
                "id": change.pk,  # the club's corrections page lists changes of one moment by id
                "hand_number": change.hand_number,
                "action": change.action,
                "old_data": change.old_data,
                "new_data": change.new_data,
                "actor": change.actor.username if change.actor else None,
                "actor_label": change.actor_label,
                "club": clubs.get(change.club_id) if change.club_id is not None else None,
                "at": _date(change.at),
            }
        )
    seats: dict[int, list[GameSeat]] = {}
    for row in GameSeat.objects.order_by("game_id", "seat"):
        seats.setdefault(row.game_id, []).append(row)
    columns = _game_columns()
    for game in games.iterator(chunk_size=500):
        seat_rows = seats.get(game.pk, [])
        yield {
            "id": game.pk,
            "code": game.code,
            "record": {
                **game.settings_record(),
                "players": {row.seat: row.name for row in seat_rows if row.name},
                "hands": hands.get(game.pk, []),
            },
            "club": game.club.name if game.club else None,
            "season": game.season.name if game.season else None,
            "played_on": _date(game.played_on),
            "place": game.place,
            "note": game.note,
            "seat_players": {row.seat: row.player_id for row in seat_rows if row.player_id},
            "share_code": game.share_code,
            "edit_token_hash": game.edit_token_hash,
            "handover_token_hash": game.handover_token_hash,
            "handover_expires_at": _date(game.handover_expires_at),
            "hand_meta": hand_times.get(game.pk, []),
            "changes": changes.get(game.pk, []),
            "created_by": game.created_by.username if game.created_by else None,
            "created_at": _date(game.created_at),
            "updated_at": _date(game.updated_at),
            "columns": row_of(game, columns),
        }


# --- restore -----------------------------------------------------------------------------------


def _field(obj: Any, key: str, kind: type | tuple[type, ...], where: str, *, optional: bool = False) -> Any:
    if not isinstance(obj, dict):
        raise BackupRefused(f"{where}: an object is expected")
    value = obj.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise BackupRefused(f"{where}: {key!r} is missing or of the wrong type")
    return value


def _or(value: str | None, default: str) -> str:
    return default if value is None else value


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
        return check_record(record)
    except RecordError as error:
        raise BackupRefused(f"{where}: {error}") from None


def _new(model: type[Any], where: str, **values: Any) -> Any:
    """An unsaved row, every value checked against its column first (`backups.rows.fits`)."""
    fits(model, where, values)
    return model(**values)


def _key(row: Mapping[str, Any], where: str) -> int | None:
    """The row's id in the source database (version 4), kept by the restore; None in older files."""
    key = _field(row, "id", int, where, optional=True)
    if key is not None and not 0 < key < 2**31:
        raise BackupRefused(f"{where}: 'id' {key} is not a row id")
    return key


def _unique_key(row: Mapping[str, Any], where: str, seen: set[int]) -> int | None:
    key = _key(row, where)
    if key is not None and key in seen:
        raise BackupRefused(f"{where}: the id {key} is repeated")
    if key is not None:
        seen.add(key)
    return key


def _load_league(data: Mapping[str, Any], version: int) -> dict[str, int]:
    """The league's part back: accounts, clubs, rosters, seasons, roles, invites, games, phones."""
    if version >= 4:
        _refuse_rows_without_ids(data)
    groups = _restore_groups(data.get("groups") or [])
    users = _restore_users(_list(data, "users"), groups)
    clubs = _restore_clubs(_list(data, "clubs"))
    players = _restore_players(_list(data, "players"), clubs, users)
    seasons = _restore_seasons(_list(data, "seasons"), clubs)
    roles = _restore_roles(_list(data, "club_roles"), users, clubs)
    invites = _restore_invites(data.get("invites") or [], users, clubs, players)
    games, hands = _restore_games(_list(data, "games"), users, clubs, seasons, players)
    devices, rights = _restore_devices(data.get("devices") or [], users)
    return {
        "games": games,
        "hands": hands,
        "clubs": len(clubs),
        "players": len(players),
        "seasons": len(seasons),
        "users": len(users),
        "groups": len(groups),
        "club_roles": roles,
        "invites": invites,
        "devices": devices,
        "device_rights": rights,
    }


def _refuse_rows_without_ids(data: Mapping[str, Any]) -> None:
    """A version 4 file keeps every account's, club's, season's and game's id, and its club nights
    and payments point at those ids: a row without one would take the next free id, and a night or
    payment would then point at another row, or at none."""
    for key in ("users", "clubs", "seasons", "games"):
        for index, row in enumerate(_list(data, key), start=1):
            if isinstance(row, dict) and row.get("id") is None:
                raise BackupRefused(
                    f"{key}[{index}]: 'id' is missing (a version 4 file keeps every row's id, which its"
                    " club nights and payments point at)"
                )


def _permissions(names: Any, where: str) -> list[Permission]:
    """Permissions named "app_label.codename"; a name this app does not have is refused."""
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise BackupRefused(f"{where}: 'permissions' is not a list of names")
    wanted = {tuple(name.split(".", 1)) for name in names if "." in name}
    found = {
        (p.content_type.app_label, p.codename): p
        for p in Permission.objects.select_related("content_type").filter(
            codename__in={codename for _app, codename in wanted}
        )
    }
    missing = [name for name in names if tuple(name.split(".", 1)) not in found]
    if missing:
        raise BackupRefused(f"{where}: permission {missing[0][:100]!r} does not exist in this app")
    return [found[key] for key in sorted(wanted)]


def _restore_groups(rows: Any) -> dict[str, Group]:
    if not isinstance(rows, list):
        raise BackupRefused("'groups' is not a list")
    groups: dict[str, Group] = {}
    for index, row in enumerate(rows, start=1):
        where = f"groups[{index}]"
        name = _field(row, "name", str, where)
        if not name or name in groups:
            raise BackupRefused(f"{where}: the group name is empty or repeated")
        fits(Group, where, {"name": name})
        groups[name], _created = Group.objects.get_or_create(name=name)
        groups[name].permissions.set(_permissions(row.get("permissions", []), where))
    return groups


def _restore_users(rows: list[Any], groups: Mapping[str, Group]) -> dict[str, User]:
    users: dict[str, User] = {}
    ids: set[int] = set()
    memberships: dict[str, list[Group]] = {}
    permissions: dict[str, list[Permission]] = {}
    for index, row in enumerate(rows, start=1):
        where = f"users[{index}]"
        name = _field(row, "username", str, where)
        if not name or name in users:
            raise BackupRefused(f"{where}: the username is empty or repeated")
        users[name] = _new(
            User,
            where,
            id=_unique_key(row, where, ids),
            username=name,
            email=_field(row, "email", str, where, optional=True) or "",
            first_name=_field(row, "first_name", str, where, optional=True) or "",
            last_name=_field(row, "last_name", str, where, optional=True) or "",
            password=_or(_field(row, "password", str, where, optional=True), "!"),  # "!": no password
            is_active=bool(row.get("is_active", True)),
            is_staff=bool(row.get("is_staff", False)),
            is_superuser=bool(row.get("is_superuser", False)),
            date_joined=_moment(row.get("date_joined"), where) or datetime.datetime.now(datetime.UTC),
            last_login=_moment(row.get("last_login"), where),
        )
        names = row.get("groups", [])
        if not isinstance(names, list) or any(name not in groups for name in names):
            raise BackupRefused(f"{where}: 'groups' names a group that is not among the groups")
        memberships[name] = [groups[group] for group in names]
        permissions[name] = _permissions(row.get("permissions", []), where)
    User.objects.bulk_create(users.values())
    stored = {user.username: user for user in User.objects.all()}
    User.groups.through.objects.bulk_create(
        User.groups.through(user_id=stored[name].pk, group_id=group.pk)
        for name, chosen in memberships.items()
        for group in chosen
    )
    User.user_permissions.through.objects.bulk_create(
        User.user_permissions.through(user_id=stored[name].pk, permission_id=permission.pk)
        for name, chosen in permissions.items()
        for permission in chosen
    )
    return stored


def _restore_clubs(rows: list[Any]) -> dict[str, Club]:
    clubs: dict[str, Club] = {}
    ids: set[int] = set()
    for index, row in enumerate(rows, start=1):
        where = f"clubs[{index}]"
        name = _field(row, "name", str, where)
        if not name.strip() or name in clubs:
            raise BackupRefused(f"{where}: the club name is empty or repeated")
        clubs[name] = _new(Club, where, id=_unique_key(row, where, ids), name=name)
        clubs[name].save(force_insert=True)
        created = _moment(row.get("created_at"), where)
        if created:
            Club.objects.filter(pk=clubs[name].pk).update(created_at=created)
    return clubs


def _club(clubs: Mapping[str, Club], name: Any, where: str) -> Club:
    if name not in clubs:
        raise BackupRefused(f"{where}: club {str(name)[:100]!r} is not among the clubs")
    return clubs[name]


def _restore_players(
    rows: list[Any], clubs: Mapping[str, Club], users: Mapping[str, User]
) -> dict[int, Player]:
    players: dict[int, Player] = {}
    tied: set[str] = set()
    for index, row in enumerate(rows, start=1):
        where = f"players[{index}]"
        key, name = _field(row, "id", int, where), _field(row, "name", str, where)
        _key(row, where)  # a player keeps the id the file gives it (every version has one)
        if key in players or not name.strip():
            raise BackupRefused(f"{where}: the id is repeated or the name is empty")
        account = _field(row, "account", str, where, optional=True)
        if account is not None and (account not in users or account in tied):
            raise BackupRefused(f"{where}: account {account[:150]!r} is unknown or tied to another player")
        if account is not None:
            tied.add(account)
        player = players[key] = _new(
            Player, where, id=key, name=name, user=users[account] if account else None
        )
        player.save(force_insert=True)
        created = _moment(row.get("created_at"), where)
        if created:
            Player.objects.filter(pk=player.pk).update(created_at=created)
        memberships = row.get("clubs", [])
        if not isinstance(memberships, list):
            raise BackupRefused(f"{where}: 'clubs' is not a list")
        for membership in memberships:
            club = _club(clubs, _field(membership, "club", str, where), where)
            Membership.objects.create(
                club=club,
                player=player,
                joined_on=_day(membership.get("joined_on"), where),
                retired_on=_day(membership.get("retired_on"), where),
            )
    return players


def _restore_seasons(rows: list[Any], clubs: Mapping[str, Club]) -> dict[tuple[str, str], Season]:
    seasons: dict[tuple[str, str], Season] = {}
    codes: set[str] = set()
    ids: set[int] = set()
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
        code = _field(row, "publish_code", str, where, optional=True)
        if code is not None and (PUBLISH_CODE.fullmatch(code) is None or code in codes):
            # The code becomes a path segment (/league/results/<code>/): a "/" would break every
            # page that links to the season.
            raise BackupRefused(
                f"{where}: the publish code is repeated or not 1 to 32 letters, digits, '-' or '_'"
            )
        if code is not None:
            codes.add(code)
        seasons[(club.name, name)] = season = _new(
            Season,
            where,
            id=_unique_key(row, where, ids),
            club=club,
            name=name,
            starts_on=starts,
            ends_on=ends,
            publish_code=code,
            closed_at=_moment(row.get("closed_at"), where),
        )
        season.save(force_insert=True)
    return seasons


def _restore_roles(rows: list[Any], users: Mapping[str, User], clubs: Mapping[str, Club]) -> int:
    roles = []
    times: list[datetime.datetime | None] = []
    for index, row in enumerate(rows, start=1):
        where = f"club_roles[{index}]"
        club = _club(clubs, _field(row, "club", str, where), where)
        username, role = _field(row, "username", str, where), _field(row, "role", str, where)
        if username not in users:
            raise BackupRefused(f"{where}: user {username[:150]!r} is not among the users")
        if role not in ClubRole.Role.values:
            raise BackupRefused(f"{where}: {role[:20]!r} is not a club role")
        roles.append(_new(ClubRole, where, user=users[username], club_id=club.pk, role=role))
        times.append(_moment(row.get("updated_at"), where))
    ClubRole.objects.bulk_create(roles)
    # bulk_update writes the times as given (bulk_create stamps `updated_at` with now).
    for role_row, moment in zip(roles, times, strict=True):
        if moment:
            role_row.updated_at = moment
    ClubRole.objects.bulk_update(roles, ["updated_at"], batch_size=1000)
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
    ids: set[int] = set()
    columns = _game_columns()
    for index, row in enumerate(rows, start=1):
        code = _field(row, "code", str, f"games[{index}]")
        where = f"games[{index}] (game {code[:16]})"
        if not is_game_code(code):
            raise BackupRefused(
                f"games[{index}]: 'code' {code[:20]!r} is not a game code (1 to 16 letters, digits, - or _)"
            )
        if code in codes:
            raise BackupRefused(f"{where}: the game code is repeated")
        codes.add(code)
        share_code = row.get("share_code")
        if share_code is not None and not is_game_code(share_code):
            raise BackupRefused(
                f"{where}: 'share_code' {str(share_code)[:20]!r} is not a share code"
                " (1 to 16 letters, digits, - or _)"
            )
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
        if len(set(links.values())) != len(links):
            raise BackupRefused(f"{where}: 'seat_players' puts one player in two seats")
        created_by = row.get("created_by")
        if created_by is not None and created_by not in users:
            raise BackupRefused(f"{where}: user {str(created_by)[:150]!r} is not among the users")
        place, note = row.get("place") or "", row.get("note") or ""
        if not isinstance(place, str) or not isinstance(note, str):
            raise BackupRefused(f"{where}: 'place' or 'note' is not text")
        edit_token_hash = row.get("edit_token_hash") if isinstance(row.get("edit_token_hash"), str) else ""
        fits(Game, where, {"place": place, "note": note, "edit_token_hash": edit_token_hash})
        # Club and season are set afterwards: store_games would bind named seats to roster players
        # by name, and the backup says exactly which player sat where.
        played_on = _day(row.get("played_on"), where)
        new_games.append(
            NewGame.of_record(
                record,
                result,
                pk=_unique_key(row, where, ids),
                code=code,
                played_on=played_on,
                place=place,
                note=note,
            )
        )
        extras.append(
            {
                "club": club,
                "season": season,
                "links": links,
                "share_code": share_code,
                "edit_token_hash": edit_token_hash,
                "created_by": users[created_by] if created_by else None,
                "created_at": _moment(row.get("created_at"), where),
                "updated_at": _moment(row.get("updated_at"), where),
                "handover_token_hash": _text(row, "handover_token_hash", 64, where),
                "handover_expires_at": _moment(row.get("handover_expires_at"), where),
                "hand_meta": _hand_meta(row.get("hand_meta"), len(record["hands"]), where),
                "changes": _changes(row.get("changes"), users, clubs, where),
                # Version 4: every other column of the game (its last meld entry, whatever Game
                # gains later), each checked against its column.
                "columns": values_of(Game, row["columns"], f"{where} columns", columns)
                if "columns" in row
                else {},
            }
        )
    stored = store_games(games=new_games)
    seat_updates = []
    trail: list[HandChange] = []
    hand_game_ids: list[int] = []
    hand_meta: dict[int, list[dict[str, Any]]] = {}
    for game, extra in zip(stored, extras, strict=True):
        changes: dict[str, Any] = {
            "club": extra["club"],
            "season": extra["season"],
            "edit_token_hash": extra["edit_token_hash"],
            "created_by": extra["created_by"],
            **extra["columns"],
        }
        if extra["share_code"]:
            changes["share_code"] = extra["share_code"]
        for moment in ("created_at", "updated_at"):
            if extra[moment]:
                changes[moment] = extra[moment]
        if extra["handover_token_hash"]:
            changes["handover_token_hash"] = extra["handover_token_hash"]
            changes["handover_expires_at"] = extra["handover_expires_at"]
        Game.objects.filter(pk=game.pk).update(**changes)  # update() leaves the auto_now fields alone
        for change in extra["changes"]:
            change.game_id = game.pk
            trail.append(change)
        if extra["hand_meta"]:
            hand_game_ids.append(game.pk)
            hand_meta[game.pk] = extra["hand_meta"]
        for seat in game.seat_rows.all():
            pid = extra["links"].get(seat.seat)
            seat.player = players[pid] if pid is not None else None
            seat_updates.append(seat)
    GameSeat.objects.bulk_update(seat_updates, ["player"], batch_size=1000)
    # Hands and the trail keep their ids and times: bulk_update writes the values as given, where
    # save() and bulk_create would stamp the auto_now fields with the time of the restore.
    hands = list(Hand.objects.filter(game_id__in=hand_game_ids).order_by("game_id", "number"))
    for hand in hands:
        meta = hand_meta[hand.game_id][hand.number - 1]
        hand.submission_id = meta["submission_id"]
        hand.created_at = meta["created_at"] or hand.created_at
        hand.updated_at = meta["updated_at"] or hand.updated_at
    Hand.objects.bulk_update(hands, ["submission_id", "created_at", "updated_at"], batch_size=1000)
    at = [change.at for change in trail]
    HandChange.objects.bulk_create(trail, batch_size=1000)
    for change, moment in zip(trail, at, strict=True):
        change.at = moment
    HandChange.objects.bulk_update(trail, ["at"], batch_size=1000)
    return len(stored), sum(len(game.hands) for game in new_games)


def _restore_invites(
    rows: Any, users: Mapping[str, User], clubs: Mapping[str, Club], players: Mapping[int, Player]
) -> int:
    """Club invites (version 3): pending ones keep their link working, accepted ones their record."""
    if not isinstance(rows, list):
        raise BackupRefused("'invites' is not a list")
    invites: list[Invite] = []
    times: list[tuple[datetime.datetime | None, datetime.datetime | None]] = []
    tokens: set[str] = set()
    for index, row in enumerate(rows, start=1):
        where = f"invites[{index}]"
        club = _club(clubs, _field(row, "club", str, where), where)
        player = players.get(_field(row, "player", int, where))
        token = _field(row, "token", str, where)
        if player is None:
            raise BackupRefused(f"{where}: 'player' is not among the players")
        if not token or token in tokens:
            raise BackupRefused(f"{where}: the token is empty or repeated")
        tokens.add(token)
        by, accepted_by = (_user(users, row, key, where) for key in ("created_by", "accepted_by"))
        accepted_at = _moment(row.get("accepted_at"), where)
        invites.append(
            _new(
                Invite,
                where,
                club=club,
                player=player,
                token=token,
                created_by=by,
                accepted_by=accepted_by,
                accepted_at=accepted_at,
            )
        )
        times.append((_moment(row.get("created_at"), where), accepted_at))
    Invite.objects.bulk_create(invites)
    for invite, (created, _accepted) in zip(invites, times, strict=True):
        if created:
            invite.created_at = created
    Invite.objects.bulk_update(invites, ["created_at"], batch_size=1000)
    return len(invites)


def _user(users: Mapping[str, User], row: Mapping[str, Any], key: str, where: str) -> User | None:
    name = _field(row, key, str, where, optional=True)
    if name is not None and name not in users:
        raise BackupRefused(f"{where}: {key!r} {name[:150]!r} is not among the users")
    return users[name] if name is not None else None


def _restore_devices(rows: Any, users: Mapping[str, User]) -> tuple[int, int]:
    """The phones and their edit rights (version 3), so a table's phone keeps scoring its game:
    its cookie holds the device id, whose hash is restored here."""
    if not isinstance(rows, list):
        raise BackupRefused("'devices' is not a list")
    games = dict(Game.objects.values_list("code", "pk"))
    devices: list[Device] = []
    device_times: list[tuple[datetime.datetime | None, datetime.datetime | None]] = []
    rights: list[tuple[int, DeviceGame, datetime.datetime | None]] = []
    hashes: set[str] = set()
    for index, row in enumerate(rows, start=1):
        where = f"devices[{index}]"
        id_hash = _field(row, "id_hash", str, where)
        if not id_hash or id_hash in hashes:
            raise BackupRefused(f"{where}: the id hash is empty or repeated")
        hashes.add(id_hash)
        devices.append(_new(Device, where, id_hash=id_hash))
        device_times.append((_moment(row.get("created_at"), where), _moment(row.get("seen_at"), where)))
        held = row.get("games", [])
        if not isinstance(held, list):
            raise BackupRefused(f"{where}: 'games' is not a list")
        seen: set[str] = set()
        for number, right in enumerate(held, start=1):
            here = f"{where} games[{number}]"
            code = _field(right, "game", str, here)
            if code not in games or code in seen:
                raise BackupRefused(f"{here}: game {code[:16]!r} is not among the games, or is given twice")
            seen.add(code)
            active = right.get("active", True)
            if not isinstance(active, bool):
                raise BackupRefused(f"{here}: 'active' is not true or false")
            rights.append(
                (
                    len(devices) - 1,
                    DeviceGame(
                        game_id=games[code], active=active, holder=_user(users, right, "holder", here)
                    ),
                    _moment(right.get("granted_at"), here),
                )
            )
    Device.objects.bulk_create(devices, batch_size=1000)
    for device, (created, seen_at) in zip(devices, device_times, strict=True):
        device.created_at = created or device.created_at
        device.seen_at = seen_at or device.seen_at
    Device.objects.bulk_update(devices, ["created_at", "seen_at"], batch_size=1000)
    rows_made = []
    for position, right_row, _granted in rights:
        right_row.device_id = devices[position].pk
        rows_made.append(right_row)
    DeviceGame.objects.bulk_create(rows_made, batch_size=1000)
    for right_row, (_position, _row, granted) in zip(rows_made, rights, strict=True):
        right_row.granted_at = granted or right_row.granted_at
    DeviceGame.objects.bulk_update(rows_made, ["granted_at"], batch_size=1000)
    return len(devices), len(rows_made)


def _text(row: Mapping[str, Any], key: str, longest: int, where: str) -> str:
    value = row.get(key) or ""
    if not isinstance(value, str) or len(value) > longest:
        raise BackupRefused(f"{where}: {key!r} is not text of at most {longest} characters")
    return value


def _hand_meta(rows: Any, hands: int, where: str) -> list[dict[str, Any]]:
    """Each hand's submission id and times (version 2), in hand order; [] when the file has none."""
    if rows is None:
        return []
    if not isinstance(rows, list) or len(rows) != hands:
        raise BackupRefused(f"{where}: 'hand_meta' is not a list with one entry per hand")
    meta, seen = [], set()
    for number, row in enumerate(rows, start=1):
        here = f"{where} hand {number}"
        text = _field(row, "submission_id", str, here, optional=True)
        try:
            submission = uuid.UUID(text) if text is not None else None
        except ValueError:
            raise BackupRefused(f"{here}: {text[:40]!r} is not a submission id") from None
        if submission is not None and submission in seen:
            raise BackupRefused(f"{here}: the submission id is repeated")
        seen.add(submission)
        meta.append(
            {
                "submission_id": submission,
                "created_at": _moment(row.get("created_at"), here),
                "updated_at": _moment(row.get("updated_at"), here),
            }
        )
    return meta


def _changes(rows: Any, users: Mapping[str, User], clubs: Mapping[str, Club], where: str) -> list[HandChange]:
    """The game's correction history (version 2), as HandChange rows without their game."""
    if rows is None:
        return []
    if not isinstance(rows, list):
        raise BackupRefused(f"{where}: 'changes' is not a list")
    trail = []
    for index, row in enumerate(rows, start=1):
        here = f"{where} changes[{index}]"
        number = _field(row, "hand_number", int, here)
        action = _field(row, "action", str, here)
        old = _field(row, "old_data", dict, here)
        new = _field(row, "new_data", dict, here, optional=True)
        actor = _field(row, "actor", str, here, optional=True)
        club = _field(row, "club", str, here, optional=True)
        # A change of the game rather than of a hand (its club, its settings, a take-over) is
        # kept under hand number 0.
        of_a_hand = action in (HandChange.Action.EDIT, HandChange.Action.DELETE)
        if number < (1 if of_a_hand else 0) or action not in HandChange.Action.values:
            raise BackupRefused(f"{here}: the hand number or the action is not one this app knows")
        if actor is not None and actor not in users:
            raise BackupRefused(f"{here}: user {actor[:150]!r} is not among the users")
        trail.append(
            _new(
                HandChange,
                here,
                id=_key(row, here),
                hand_number=number,
                action=action,
                old_data=old,
                new_data=new,
                actor=users[actor] if actor is not None else None,
                actor_label=_text(row, "actor_label", 150, here),
                club_id=_club(clubs, club, here).pk if club is not None else None,
                at=_moment(_field(row, "at", str, here), here),
            )
        )
    return trail


PART = parts.Part(
    holds=(
        "auth.Group", "auth.Group_permissions", "auth.User", "auth.User_groups", "auth.User_user_permissions",
        "clubs.Club", "clubs.Player", "clubs.Membership", "clubs.Season", "clubs.ClubRole", "clubs.Invite",
        "scoring.Game", "scoring.GameSeat", "scoring.Hand", "scoring.HandChange",
        "scoring.Device", "scoring.DeviceGame",
    ),
    derived={
        "scoring.HandStat": "statistics: rewritten from the hands when the engine scores each game again",
        "scoring.GameStat": "statistics: rewritten from the hands when the engine scores each game again",
        "scoring.GameSetup": "transient: the one-time token of the form that started a game, against a"
        " second tap on Start within moments",
        "league.ImportBatch": "transient: an upload's progress page; its games, once published, are games",
        "league.ImportFile": "transient: an upload waiting for its import, deleted when the import ends",
    },
    dump=dump_part,
    load=_load_league,
)  # fmt: skip

__all__ = ["PART", "BackupRefused", "database_is_empty", "dump", "load"]
