"""Player and partnership ratings from finished games: openskill's Plackett-Luce model, no Django.

Every finished game is one openskill match between its sides, in order of play:

- 4 seats: two sides of two partners; 3 seats: three sides of one; 2 seats: two sides of one.
- The caller gives each side a rank, 0 the best. Equal ranks are a draw (openskill shares the
  update between tied sides). A Check Pinochle game is ranked by chips, a points game by points:
  that is the caller's business, this module only sees the ranks.

A player starts at μ = 25, σ = 25/3 (openskill's defaults). The number shown is the conservative
estimate μ − 3σ (the player is 99.7% likely to be at least this good), scaled::

    display = round(1000 + 20 × (μ − 3σ))

so a newcomer (25 − 3 × 25/3 = 0) shows 1000 and climbs as the games bring σ down. Worked example:
after one 2-seat win against another newcomer μ ≈ 27.64, σ ≈ 8.07, so the winner shows
round(1000 + 20 × (27.64 − 24.20)) = 1069. In a simulated club of 60 players and 5,000 games an
average regular (μ ≈ 25, σ ≈ 1.9) shows about 1390, the strongest (μ ≈ 39) about 1650 and the
weakest (μ ≈ 10) about 1080: a newcomer starts at the bottom and a "good player" is 1500 and up.
A rating is *provisional* until the player has PROVISIONAL_GAMES (10) finished games, because
until then σ, and so the number, still moves a lot.

Partnerships are rated in a parallel openskill run in which each pair of partners is one "player":
a 4-seat game rates the two pairs against each other and leaves the 2- and 3-seat games out. Every
pair is rated from its first game together; only pairs with PARTNERSHIP_MIN_GAMES (5) games together
are listed by `Ratings.partnerships`. (Deriving a pair's number from the two players' own ratings
would only restate them; a pair entity measures how the two do *together*.)

Same games in, same numbers out: games are taken in order of (order key, game id) whatever order
they are given in, the players of a side by id and the sides by their players' ids, because
openskill's floating-point sums follow the order of its input.

`rate_game` applies one game to the stored ratings of its players only; `compute_ratings` is that
same function folded over the whole list, so when a saved game is the latest, rating it alone gives
exactly the numbers of a full recompute.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date

from openskill.models import PlackettLuce, PlackettLuceRating

MU = 25.0
SIGMA = 25.0 / 3.0
DISPLAY_BASE = 1000
DISPLAY_SCALE = 20
PROVISIONAL_GAMES = 10
PARTNERSHIP_MIN_GAMES = 5

# Compared position by position, so every game of one computation must use the same shape, e.g.
# (played_on, finished_at) or (played_on.toordinal(), sequence). datetime is a date subclass.
OrderKey = tuple[date | int | float | str, ...]
SortKey = tuple[OrderKey, int]
PairKey = tuple[int, int]

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


def display_rating(mu: float, sigma: float) -> int:
    """The friendly number: round(1000 + 20 × (μ − 3σ)).

    >>> display_rating(25.0, 25.0 / 3.0)
    1000
    >>> display_rating(30.0, 2.0)
    1480
    """
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


@dataclass(frozen=True)
class Skill:
    """One player's (or one partnership's) rating after some games."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


NEW = Skill()


@dataclass(frozen=True)
class FinishedGame:
    """A finished game as the ratings see it: who sat on which side and how each side placed.

    `sides[i]` are the player ids of side i and `ranks[i]` its place (0 the best; equal = draw).
    """

    id: int
    order: OrderKey
    sides: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.sides) < 2:
            raise ValueError(f"game {self.id}: a rated game needs at least two sides")
        if len(self.ranks) != len(self.sides):
            raise ValueError(f"game {self.id}: {len(self.sides)} sides but {len(self.ranks)} ranks")
        if any(not side for side in self.sides):
            raise ValueError(f"game {self.id}: a side has no players")
        if any(rank < 0 for rank in self.ranks):
            raise ValueError(f"game {self.id}: ranks start at 0")
        players = [player for side in self.sides for player in side]
        if len(players) != len(set(players)):
            raise ValueError(f"game {self.id}: a player sits on more than one seat")

    @property
    def sort_key(self) -> SortKey:
        return (self.order, self.id)

    def canonical(self) -> tuple[list[tuple[int, ...]], list[int]]:
        """Sides with their players sorted by id, sorted by those ids; ranks in the same order."""
        pairs = sorted((tuple(sorted(side)), rank) for side, rank in zip(self.sides, self.ranks, strict=True))
        return [side for side, _ in pairs], [rank for _, rank in pairs]


def pair_key(a: int, b: int) -> PairKey:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True)
class HistoryPoint:
    """A player's rating just after one game."""

    game_id: int
    conservative: float
    display: int


@dataclass(frozen=True)
class GameUpdate:
    """What one game changes: the new ratings of its players and pairs, and their history points."""

    game_id: int
    sort_key: SortKey
    players: dict[int, Skill]
    pairs: dict[PairKey, Skill]
    history: dict[int, HistoryPoint]


class NotLatestError(ValueError):
    """The game is not after the last rated game, so only a full recompute gives the right numbers."""


def _rate(skills: list[list[Skill]], ranks: list[int]) -> list[list[PlackettLuceRating]]:
    teams = [[PlackettLuceRating(skill.mu, skill.sigma) for skill in side] for side in skills]
    return _MODEL.rate(teams, ranks=[float(rank) for rank in ranks])


def rate_game(
    *,
    players: Mapping[int, Skill],
    pairs: Mapping[PairKey, Skill],
    game: FinishedGame,
    after: SortKey | None = None,
) -> GameUpdate:
    """Rate one game from the current ratings of its players and pairs (missing ones are new).

    `after` is the sort key of the last game already in those ratings; a game that does not sort
    after it raises NotLatestError, because rating it now would differ from a full recompute.
    """
    if after is not None and not game.sort_key > after:
        raise NotLatestError(f"game {game.id} is not after the last rated game {after[1]}")
    sides, ranks = game.canonical()
    before = [[players.get(player, NEW) for player in side] for side in sides]
    rated = _rate(before, ranks)
    new_players: dict[int, Skill] = {}
    history: dict[int, HistoryPoint] = {}
    for side, old_side, new_side in zip(sides, before, rated, strict=True):
        for player, old, new in zip(side, old_side, new_side, strict=True):
            skill = Skill(mu=new.mu, sigma=new.sigma, games=old.games + 1)
            new_players[player] = skill
            history[player] = HistoryPoint(game.id, skill.conservative, skill.display)
    new_pairs: dict[PairKey, Skill] = {}
    if all(len(side) == 2 for side in sides):
        keys = [pair_key(side[0], side[1]) for side in sides]
        old_pairs = [pairs.get(key, NEW) for key in keys]
        rated_pairs = _rate([[old] for old in old_pairs], ranks)
        for key, old, new_side in zip(keys, old_pairs, rated_pairs, strict=True):
            new_pairs[key] = Skill(mu=new_side[0].mu, sigma=new_side[0].sigma, games=old.games + 1)
    return GameUpdate(game.id, game.sort_key, new_players, new_pairs, history)


@dataclass
class Ratings:
    """Everything the games say: each player's rating and history, each pair's rating."""

    players: dict[int, Skill] = field(default_factory=dict)
    history: dict[int, list[HistoryPoint]] = field(default_factory=dict)
    pairs: dict[PairKey, Skill] = field(default_factory=dict)
    last: SortKey | None = None

    def apply(self, update: GameUpdate) -> None:
        self.players.update(update.players)
        self.pairs.update(update.pairs)
        for player, point in update.history.items():
            self.history.setdefault(player, []).append(point)
        self.last = update.sort_key

    def partnerships(self, min_games: int = PARTNERSHIP_MIN_GAMES) -> dict[PairKey, Skill]:
        """Pairs who partnered at least `min_games` times, best first (ties by ids)."""
        listed = [(key, skill) for key, skill in self.pairs.items() if skill.games >= min_games]
        listed.sort(key=lambda item: (-item[1].conservative, item[0]))
        return dict(listed)

    def leaderboard(self) -> list[tuple[int, Skill]]:
        """Players best first by the conservative rating; equal ratings by player id."""
        return sorted(self.players.items(), key=lambda item: (-item[1].conservative, item[0]))


def compute_ratings(games: Iterable[FinishedGame]) -> Ratings:
    """Rate all games in order of play (order key, then game id), from scratch."""
    ratings = Ratings()
    for game in sorted(games, key=lambda game: game.sort_key):
        ratings.apply(rate_game(players=ratings.players, pairs=ratings.pairs, game=game))
    return ratings
