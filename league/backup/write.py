"""The league's part of a backup, written: accounts, clubs, games as game records, phones."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

from django.contrib.auth.models import Group, User
from django.db import models

from backups.rows import row_of
from clubs.models import Club, ClubRole, Invite, Player, Season
from scoring.models import Device, DeviceGame, Game, GameSeat, Hand, HandChange

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


def game_columns() -> list[models.Field[Any, Any]]:
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
    columns = game_columns()
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
