"""The league's part of the backup: what it holds, what it leaves to be derived, and its restore
in order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from backups import parts
from league.backup.read import _list
from league.backup.restore_games import _restore_games
from league.backup.restore_people import (
    _refuse_rows_without_ids,
    _restore_clubs,
    _restore_devices,
    _restore_groups,
    _restore_invites,
    _restore_players,
    _restore_roles,
    _restore_seasons,
    _restore_users,
)
from league.backup.write import dump_part


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
