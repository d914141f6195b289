"""Storing checked games in bulk (CSV and JSON imports, in hidden chunks then published; the
benchmark's data, at once).

Keyword-only, typed, one transaction each (an import: a few short ones, all or nothing by its
hidden games). The league builds the unsaved rows and decides where they go; the apps that own
the rows write them: `scoring.imported` the games, seats, hands and statistics, `clubs.services`
and `clubs.seasons` the clubs, roster players and seasons.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.utils.translation import gettext as _

from clubs.models import Club, Membership, Player, Season
from clubs.permissions import can_manage_club, can_score_for_club, is_site_admin
from clubs.seasons import create_season_for_games
from clubs.services import add_player, create_club, create_club_without_founder
from league.models import PendingGame
from ratings import services as rating_services
from scoring import imported, stats
from scoring.models import Game, GameSeat, GameStat, Hand, HandStat
from scoring.rules.engine import GameResult
from scoring.rules.tables import SEAT_ORDER
from scoring.services.results import summary_fields

# --- bulk storing of checked games (imports, the benchmark) ------------------------------------


@dataclass
class NewGame:
    """A game the engine has already checked, with where it belongs in the league."""

    settings: Mapping[str, Any]  # docs/record-format.md settings: seats, variant, deck, ...
    players: Mapping[str, str]  # names by seat
    hands: Sequence[Mapping[str, Any]]
    result: GameResult
    code: str | None = None
    club: str = ""
    season: str = ""
    played_on: datetime.date | None = None
    place: str = ""
    note: str = ""
    line: int | None = None  # where it came from, for messages
    player_ids: dict[str, int] = field(default_factory=dict)
    pk: int | None = None  # a restored game keeps the id it had

    @classmethod
    def of_record(cls, record: Mapping[str, Any], result: GameResult, **league: Any) -> NewGame:
        """A whole game record the engine checked (`rules.engine.check_record(record)` gave `result`)."""
        played = result.settings
        # Each house rule only when the game plays it: a record without them stays as it was.
        house_rules = {
            "deals": played.deals,
            "bid_steps": played.bid_steps if played.bid_steps != "standard" else None,
            "meld_counts_from": played.meld_counts_from,
            "spread": played.spread,
            "scale": played.scale if played.scale != 1 else None,
        }
        settings = {
            "seats": result.settings.seats,
            "variant": result.settings.requested_variant,
            "deck": result.settings.deck,
            "target": record.get("target"),
            "min_bid": record.get("min_bid"),
            "first_dealer": result.settings.first_dealer,
            "options": {
                "meld_needs_trick": result.settings.meld_needs_trick,
                **{name: value for name, value in house_rules.items() if value is not None},
            },
        }
        players = dict(result.settings.players)
        return cls(settings=settings, players=players, hands=record["hands"], result=result, **league)


@dataclass(frozen=True)
class GamePlace:
    """Where a written game belongs (its club, season and date): all that publishing reads of it,
    so an import keeps this of every game it wrote, not the game's hands and scores."""

    club: str = ""
    season: str = ""
    played_on: datetime.date | None = None


def repeated_player(players: Mapping[str, str]) -> str | None:
    """Why a club game cannot take these names: in a club game every named seat is bound to the roster
    player of that name, so one name in two seats would seat one player twice."""
    seen: dict[str, str] = {}
    for seat in sorted(players, key=SEAT_ORDER.index):
        key = (players[seat] or "").strip().casefold()
        if not key:
            continue
        if key in seen:
            return _(
                "players: %(name)s is named in seats %(first)s and %(second)s; in a club game one player "
                "sits in one seat"
            ) % {"name": players[seat].strip(), "first": seen[key], "second": seat}
        seen[key] = seat
    return None


@transaction.atomic
def store_games(*, games: Sequence[NewGame]) -> list[Game]:
    """Write checked games in bulk, in one transaction: clubs, seasons and roster players are found
    by name or created (the benchmark's data; an import, the upload's or the import_games
    command's, goes through `league.imports.worker.run` instead, in hidden chunks then published;
    a restore does not come here: it loads the rows as they were backed up).

    In a club game every named seat is bound to a roster player of that name (created when the
    roster has none). Games without a club keep their free-text names.
    """
    _refuse_repeated_players(games)
    clubs, seasons, roster = _places(games)
    game_rows = _write(games, clubs=clubs, seasons=seasons, roster=roster)
    rating_services.recompute_scopes(rating_services.scopes_for_clubs({game.club_id for game in game_rows}))
    return game_rows


def write_pending_games(*, batch_id: int, games: Sequence[NewGame]) -> list[Game]:
    """Part of an import, in two short transactions: the games and seats, then their hands and
    statistics, one game at a time (so the import holds one game's rows at once, not the chunk's).

    The games are written hidden (`Game.hidden`: no page sees them), each noted as the batch's
    (`PendingGame`), and belong to no club or season, and no seat to a player, until
    `publish_pending_games` files and shows them all at once."""
    _refuse_repeated_players(games)
    game_rows = _game_rows(games, clubs={}, seasons={}, hidden=True)
    with transaction.atomic():
        _hidden_write()
        imported.insert_games(games=game_rows)
        PendingGame.objects.bulk_create(
            [PendingGame(batch_id=batch_id, game_id=game.pk) for game in game_rows], batch_size=500
        )
        seat_rows = _seat_rows(games, game_rows, roster=None)
        imported.insert_seats(seats=seat_rows)
    with transaction.atomic():
        _hidden_write()
        for new, game, seats in zip(games, game_rows, _seats_by_game(seat_rows, game_rows), strict=True):
            hands, hand_stats, game_stats = _hand_and_stat_rows([new], [game], seats)
            imported.insert_hands_and_stats(
                hands=hands, hand_stats=hand_stats, game_stats=game_stats, batch_size=IMPORT_BATCH_ROWS
            )
    return game_rows


#: Rows per INSERT of an import: bulk_create holds about 5 KB per row while it builds a statement,
#: and an import is held to a few times its file in memory (league/tests/test_import_worker.py).
IMPORT_BATCH_ROWS = 10


def durable_commit() -> None:
    """The commit of the transaction under way waits for the disk again (PostgreSQL), after hidden
    writes made in it (`_hidden_write`): an import made in one transaction (the import_games
    command) is durable once it says so."""
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO ON")


def _hidden_write() -> None:
    """On PostgreSQL, the commit of hidden rows does not wait for the disk: a hand save's commit
    then does not queue behind an import's flushes. Nothing is lost that matters: the publishing
    commit waits as usual and makes every earlier write durable first; a server crash before it
    leaves an unfinished batch, refused and cleaned (league/imports/)."""
    connection = connections[DEFAULT_DB_ALIAS]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


@transaction.atomic
def publish_pending_games(
    *,
    batch_id: int,
    placed: Sequence[tuple[int, NewGame | GamePlace]],
    uploader: AbstractBaseUser | None = None,
) -> None:
    """The last short transaction of an import: clubs, seasons and roster players are found or
    made, every pending game is filed and its seats bound, and all become visible together.

    `placed`: (game id, the game as read from the file) for every game the batch wrote.
    `uploader`: the account the import is for. A club it names that does not exist is made with
    the uploader as its first organiser (`clubs.services.create_club`); an existing club takes its
    games only if the uploader scores for it, and a new season only if they organise it, checked
    again here because a club may have been made, a role changed or a season closed since the file
    was checked (PermissionDenied, ValidationError: nothing is published)."""
    games = [new for _pk, new in placed]
    clubs, seasons, roster = _places(games, uploader=uploader)
    by_place: dict[tuple[str, str], list[int]] = {}
    for pk, new in placed:
        by_place.setdefault((new.club, new.season), []).append(pk)
    for (club_name, season_name), ids in by_place.items():
        if club_name:
            imported.file_hidden_games(
                game_ids=ids, club=clubs[club_name], season=seasons.get((club_name, season_name))
            )
    club_of = {pk: clubs[new.club] for pk, new in placed if new.club}
    seats_by_player: dict[int, list[int]] = {}
    for part in _parts(list(club_of)):
        for seat_pk, game_id, name in GameSeat.objects.filter(game_id__in=part).values_list(
            "pk", "game_id", "name"
        ):
            if not name.strip():
                continue
            club = club_of[game_id]
            key = (club.pk, name.strip().casefold())
            if key not in roster:
                roster[key] = add_player(club=club, name=name)
            seats_by_player.setdefault(roster[key].pk, []).append(seat_pk)
    for player_id, seat_ids in seats_by_player.items():
        imported.bind_seats(seat_ids=seat_ids, player_id=player_id)
    pending = PendingGame.objects.filter(batch_id=batch_id)
    imported.show_hidden_games(game_ids=list(pending.values_list("game_id", flat=True)))
    pending.delete()


def discard_pending_games(*, batch_id: int, chunk: int = 25) -> int:
    """Delete a refused, broken or deleted import's hidden games, a few per short transaction; the
    number deleted."""
    deleted = 0
    while True:
        with transaction.atomic():
            pending = PendingGame.objects.filter(batch_id=batch_id)
            ids = list(pending.values_list("game_id", flat=True)[:chunk])
            if not ids:
                return deleted
            deleted += imported.delete_hidden_games(game_ids=ids)
            PendingGame.objects.filter(game_id__in=ids).delete()  # those whose game was not hidden


def _parts(ids: Sequence[int], size: int = 500) -> list[Sequence[int]]:
    return [ids[i : i + size] for i in range(0, len(ids), size)]


def _refuse_repeated_players(games: Sequence[NewGame]) -> None:
    for new in games:
        if new.club and (problem := repeated_player(new.players)):
            raise ValueError(problem)  # the imports refuse this before they write anything


def _places(
    games: Sequence[NewGame | GamePlace], *, uploader: AbstractBaseUser | None = None
) -> tuple[dict[str, Club], dict[tuple[str, str], Season], dict[tuple[int, str], Player]]:
    """The clubs and seasons the games name (found or created) and the clubs' rosters by name.

    A season made here spans the dates of its games (a hands.csv does not carry a season's dates);
    an existing season's dates are never changed (the check refuses a game outside them)."""
    clubs: dict[str, Club] = {}
    seasons: dict[tuple[str, str], Season] = {}
    for new in games:
        if not new.club or new.club in clubs:
            continue
        club = Club.objects.filter(name=new.club).first()
        if club is None and uploader is not None:
            club = create_club(name=new.club, founder=uploader)
        elif club is None:
            club = create_club_without_founder(name=new.club)
        elif uploader is not None and not can_score_for_club(uploader, club.pk):
            raise PermissionDenied(_("you are not a scorer or organiser of %(club)s") % {"club": club.name})
        clubs[new.club] = club
    for key in sorted({(new.club, new.season) for new in games if new.club and new.season}):
        dates = [g.played_on for g in games if (g.club, g.season) == key and g.played_on]
        today = datetime.date.today()
        season = Season.objects.filter(club=clubs[key[0]], name=key[1]).first()
        if season is None:
            if uploader is not None and not can_manage_club(uploader, clubs[key[0]].pk):
                raise PermissionDenied(
                    _("season %(season)s does not exist; an organiser of the club creates it")
                    % {"season": key[1]}
                )
            season = create_season_for_games(
                club=clubs[key[0]],
                name=key[1],
                starts_on=min(dates, default=today),
                ends_on=max(dates, default=today),
            )
        elif season.closed_at is not None and uploader is not None and not is_site_admin(uploader):
            # Closed by an organiser since the file was checked: it accepts no new games.
            raise PermissionDenied(
                _("season %(season)s is closed: it accepts no new games") % {"season": key[1]}
            )
        seasons[key] = season
    roster: dict[tuple[int, str], Player] = {}
    for club in clubs.values():
        for membership in Membership.objects.filter(club=club).select_related("player"):
            roster.setdefault((club.pk, membership.player.name.casefold()), membership.player)
    return clubs, seasons, roster


def _write(
    games: Sequence[NewGame],
    *,
    clubs: Mapping[str, Club],
    seasons: Mapping[tuple[str, str], Season],
    roster: dict[tuple[int, str], Player] | None,
) -> list[Game]:
    """Games, seats, hands and statistics in bulk, shown. `roster` None: no seat is bound to a player."""
    game_rows = _game_rows(games, clubs=clubs, seasons=seasons, hidden=False)
    imported.insert_games(games=game_rows)
    seat_rows = _seat_rows(games, game_rows, roster=roster)
    imported.insert_seats(seats=seat_rows)
    hands, hand_stats, game_stats = _hand_and_stat_rows(games, game_rows, seat_rows)
    imported.insert_hands_and_stats(hands=hands, hand_stats=hand_stats, game_stats=game_stats)
    return game_rows


def _game_rows(
    games: Sequence[NewGame],
    *,
    clubs: Mapping[str, Club],
    seasons: Mapping[tuple[str, str], Season],
    hidden: bool,
) -> list[Game]:
    game_rows = []
    for new in games:
        row = Game(
            seats=new.settings["seats"],
            variant=new.settings["variant"],
            deck=new.settings["deck"],
            target=new.settings.get("target"),
            min_bid=new.settings.get("min_bid"),
            first_dealer=new.settings.get("first_dealer") or "N",
            meld_needs_trick=bool(new.settings.get("options", {}).get("meld_needs_trick")),
            deals=new.result.settings.deals,
            bid_steps=new.result.settings.bid_steps,
            meld_counts_from=new.result.settings.meld_counts_from,
            spread=new.result.settings.spread,
            scale=new.result.settings.scale,
            club=clubs.get(new.club),
            season=seasons.get((new.club, new.season)),
            played_on=new.played_on,
            place=new.place,
            note=new.note,
            hidden=hidden,
            **summary_fields(new.result),
        )
        if new.code:
            row.code = new.code
        if new.pk is not None:
            row.pk = new.pk
        game_rows.append(row)
    return game_rows


def _seat_rows(
    games: Sequence[NewGame], game_rows: Sequence[Game], *, roster: dict[tuple[int, str], Player] | None
) -> list[GameSeat]:
    seat_rows: list[GameSeat] = []
    for new, game in zip(games, game_rows, strict=True):
        for seat in new.result.settings.seat_letters:
            name = (new.players.get(seat) or "").strip()
            player = None
            if name and game.club is not None and roster is not None:
                key = (game.club.pk, name.casefold())
                if key not in roster:
                    roster[key] = add_player(club=game.club, name=name)
                player = roster[key]
            seat_rows.append(GameSeat(game=game, seat=seat, name=name, player=player))
    return seat_rows


def _hand_and_stat_rows(
    games: Sequence[NewGame], game_rows: Sequence[Game], seat_rows: Sequence[GameSeat]
) -> tuple[list[Hand], list[HandStat], list[GameStat]]:
    """Unsaved hands and statistics rows (scoring.stats.stat_rows)."""
    hand_rows: list[Hand] = []
    hand_stats: list[HandStat] = []
    game_stats: list[GameStat] = []
    for new, game, seats in zip(games, game_rows, _seats_by_game(seat_rows, game_rows), strict=True):
        hand_rows.extend(
            Hand(game=game, number=number, data=dict(data)) for number, data in enumerate(new.hands, start=1)
        )
        more_hands, more_games = stats.stat_rows(game, seats, new.hands, new.result)
        hand_stats.extend(more_hands)
        game_stats.extend(more_games)
    return hand_rows, hand_stats, game_stats


def _seats_by_game(seat_rows: Sequence[GameSeat], game_rows: Sequence[Game]) -> list[list[GameSeat]]:
    """The seat rows of each game, in the order of `game_rows`."""
    by_game: dict[int, list[GameSeat]] = {game.pk: [] for game in game_rows}
    for seat_row in seat_rows:
        by_game[seat_row.game_id].append(seat_row)
    return list(by_game.values())
