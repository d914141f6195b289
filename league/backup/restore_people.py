"""The league's part restored, people and places: groups, accounts, clubs, rosters, seasons, club
roles, invites and phones."""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import Group, Permission, User

from backups.rows import BackupRefused, fits
from clubs.models import Club, ClubRole, Invite, Membership, Player, Season
from league.backup.read import _club, _day, _field, _key, _list, _moment, _new, _or, _unique_key, _user
from scoring.models import Device, DeviceGame, Game

PUBLISH_CODE = re.compile(r"[A-Za-z0-9_-]{1,32}", re.ASCII)


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
