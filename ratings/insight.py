"""What a player's games say about them: form, partners, rival, nemesis, buddy, chips per night.

Plain data in, plain data out, no Django. The input is one `PlayerGame` per finished game of the
player, in any order: games are taken in order of (order key, game id), as the ratings take them.

- **Form**: the outcomes of the last FORM_GAMES (10) games, oldest first.
- **Partners**: everyone who sat on the player's side, most games together first, then the better
  record, then name.
- **Rival**: among opponents met at least MIN_GAMES (3) times, the one met most often, with the
  player's record against them. Ties: the closer contest (a score nearer ½), then name.
- **Nemesis**: among opponents met at least MIN_GAMES times, the one against whom the player
  scores worst, where a win counts 1 and a draw ½ — and only if that score is below ½: someone the
  player beats more often than not is nobody's nemesis. Ties: more games, then name.
- **Buddy**: the same for partners, the best score above ½.
- **Chips per night** (Check Pinochle): the player's side's chips summed per club night, or per
  day for games filed without a night.

Against an opponent in a 3-seat game the player wins if they placed above them, draws if level.

Every choice and every list is decided by the games and the names (`names`, player id → name,
compared accents and case aside), never by a database id: the same games give the same insight on
any database and after an export and import. Only two players of the very same name fall back to
their ids, and they read the same on the page.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum

from ratings.compute import FinishedGame, OrderKey

FORM_GAMES = 10
MIN_GAMES = 3


class Outcome(StrEnum):
    WIN = "W"
    DRAW = "D"
    LOSS = "L"


def outcome_between(mine: int, theirs: int) -> Outcome:
    """The outcome for a side ranked `mine` against one ranked `theirs` (0 the best)."""
    if mine < theirs:
        return Outcome.WIN
    return Outcome.DRAW if mine == theirs else Outcome.LOSS


def game_result(mine: int, ranks: Sequence[int]) -> Outcome:
    """A side's result in the game: a win alone at the top, a draw when sharing it, else a loss.

    >>> [game_result(rank, (1, 0, 2)) for rank in (1, 0, 2)]
    [<Outcome.LOSS: 'L'>, <Outcome.WIN: 'W'>, <Outcome.LOSS: 'L'>]
    """
    best = min(ranks)
    if mine != best:
        return Outcome.LOSS
    return Outcome.DRAW if list(ranks).count(best) > 1 else Outcome.WIN


@dataclass(frozen=True)
class Opponent:
    player_id: int
    outcome: Outcome  # the player's outcome against this opponent


@dataclass(frozen=True)
class PlayerGame:
    """One finished game from one player's chair."""

    game_id: int
    order: OrderKey
    played: date
    partners: tuple[int, ...]
    opponents: tuple[Opponent, ...]
    result: Outcome
    chips: int | None = None  # the player's side's chips, Check Pinochle only
    night: int | None = None  # the club night the game was filed under, if any


def player_game(
    game: FinishedGame, player: int, *, played: date, chips: int | None = None, night: int | None = None
) -> PlayerGame:
    """The `PlayerGame` of `player` in a rated game (partners, opponents and results from its ranks)."""
    mine = next(index for index, side in enumerate(game.sides) if player in side)
    my_rank = game.ranks[mine]
    opponents = tuple(
        Opponent(other, outcome_between(my_rank, rank))
        for index, (side, rank) in enumerate(zip(game.sides, game.ranks, strict=True))
        if index != mine
        for other in sorted(side)
    )
    return PlayerGame(
        game_id=game.id,
        order=game.order,
        played=played,
        partners=tuple(sorted(other for other in game.sides[mine] if other != player)),
        opponents=opponents,
        result=game_result(my_rank, game.ranks),
        chips=chips,
        night=night,
    )


@dataclass(frozen=True)
class Record:
    """The player's record with (partners) or against (opponents) one other player."""

    player_id: int
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Wins plus half the draws, per game."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def add(self, outcome: Outcome) -> Record:
        return Record(
            self.player_id,
            self.wins + (outcome is Outcome.WIN),
            self.draws + (outcome is Outcome.DRAW),
            self.losses + (outcome is Outcome.LOSS),
        )


@dataclass(frozen=True)
class NightChips:
    night: int | None  # None: games filed without a night, grouped by day
    played: date  # the day of the night's first game
    games: int
    chips: int


@dataclass(frozen=True)
class Insight:
    games: int
    form: list[Outcome] = field(default_factory=list)
    partners: list[Record] = field(default_factory=list)
    opponents: list[Record] = field(default_factory=list)
    rival: Record | None = None
    nemesis: Record | None = None
    buddy: Record | None = None
    chips_per_night: list[NightChips] = field(default_factory=list)


def _tally(pairs: Iterable[tuple[int, Outcome]]) -> dict[int, Record]:
    records: dict[int, Record] = {}
    for other, outcome in pairs:
        records[other] = records.get(other, Record(other)).add(outcome)
    return records


def _chips_per_night(games: Sequence[PlayerGame]) -> list[NightChips]:
    # A night id and a day never compare equal, so one dict holds both kinds of key.
    nights: dict[int | date, NightChips] = {}
    for game in games:
        if game.chips is None:
            continue
        key: int | date = game.night if game.night is not None else game.played
        seen = nights.get(key, NightChips(game.night, game.played, 0, 0))
        nights[key] = NightChips(seen.night, seen.played, seen.games + 1, seen.chips + game.chips)
    return list(nights.values())


def name_key(name: str) -> str:
    """A name for ordering: accents and case aside, so Čeněk sorts among the C's, Åsa among the A's."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def insight(games: Iterable[PlayerGame], names: Mapping[int, str] | None = None) -> Insight:
    """Everything above, for one player's finished games; `names` (player id → name) breaks ties."""
    known = names or {}

    def name(record: Record) -> tuple[str, str, int]:
        text = known.get(record.player_id, "")
        return name_key(text), text, record.player_id

    def better(record: Record) -> tuple[float, int, int]:
        """The better record first: the higher score, then more wins, then fewer losses."""
        return -record.score, -record.wins, record.losses

    ordered = sorted(games, key=lambda game: (game.order, game.game_id))
    partners = _tally((partner, game.result) for game in ordered for partner in game.partners)
    opponents = _tally((opp.player_id, opp.outcome) for game in ordered for opp in game.opponents)
    by_games = sorted(opponents.values(), key=lambda r: (-r.games, *better(r), *name(r)))
    rivals = [record for record in by_games if record.games >= MIN_GAMES]
    nemeses = [record for record in rivals if record.score < 0.5]
    buddies = [record for record in partners.values() if record.games >= MIN_GAMES and record.score > 0.5]
    return Insight(
        games=len(ordered),
        form=[game.result for game in ordered[-FORM_GAMES:]],
        partners=sorted(partners.values(), key=lambda r: (-r.games, *better(r), *name(r))),
        opponents=by_games,
        rival=min(rivals, key=lambda r: (-r.games, abs(r.score - 0.5), *name(r))) if rivals else None,
        nemesis=min(nemeses, key=lambda r: (r.score, -r.games, *name(r))) if nemeses else None,
        buddy=min(buddies, key=lambda r: (-r.score, -r.games, *name(r))) if buddies else None,
        chips_per_night=_chips_per_night(ordered),
    )
