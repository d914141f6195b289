"""The league's part restored, games: each game record scored again by the engine, with its
hands' times and its corrections trail."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User

from backups.rows import BackupRefused, fits, values_of
from clubs.models import Club, Player, Season
from core.strict_input import is_game_code
from league.backup.read import _club, _day, _field, _key, _moment, _new, _score, _text, _unique_key
from league.backup.write import game_columns
from league.services import NewGame, store_games
from scoring.models import Game, GameSeat, Hand, HandChange


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
    columns = game_columns()
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
    for change, when in zip(trail, at, strict=True):
        change.at = when
    HandChange.objects.bulk_update(trail, ["at"], batch_size=1000)
    return len(stored), sum(len(game.hands) for game in new_games)


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
