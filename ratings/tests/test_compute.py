"""Ratings from finished games, checked against openskill's own Plackett-Luce updates. No database."""

from __future__ import annotations

import math
import random
import subprocess
import sys
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from ratings.compute import (
    NEW,
    FinishedGame,
    NotLatestError,
    Skill,
    compute_ratings,
    display_rating,
    rate_game,
)

# A small club: Ann 1, Bob 2, Cy 3, Dot 4, Eve 5.
SMALL_CLUB = [
    # 4 seats: Ann and Bob beat Cy and Dot.
    FinishedGame(id=10, order=(1,), sides=((1, 2), (3, 4)), ranks=(0, 1)),
    # 3 seats: Cy first, Ann second, Eve third.
    FinishedGame(id=11, order=(2,), sides=((1,), (3,), (5,)), ranks=(1, 0, 2)),
    # 2 seats: Bob and Eve draw.
    FinishedGame(id=12, order=(3,), sides=((2,), (5,)), ranks=(0, 0)),
    # 4 seats: Bob and Dot beat Ann and Cy.
    FinishedGame(id=13, order=(4,), sides=((1, 3), (2, 4)), ranks=(1, 0)),
]


def random_club(seed: int, games: int, players: int = 12) -> list[FinishedGame]:
    rng = random.Random(seed)
    out = []
    for number in range(games):
        seats = rng.choice([4, 3, 2])
        chosen = rng.sample(range(1, players + 1), seats)
        if seats == 4:
            sides: tuple[tuple[int, ...], ...] = ((chosen[0], chosen[1]), (chosen[2], chosen[3]))
        else:
            sides = tuple((player,) for player in chosen)
        ranks = tuple(rng.randrange(len(sides)) for _ in sides)
        out.append(FinishedGame(id=number + 1, order=(number // 3,), sides=sides, ranks=ranks))
    return out


def test_it_shows_a_newcomer_as_1000_and_provisional() -> None:
    assert NEW.display == 1000
    assert NEW.provisional
    assert display_rating(25.0, 25.0 / 3.0) == 1000


def test_it_gives_a_first_head_to_head_win_the_numbers_worked_out_in_the_module() -> None:
    ratings = compute_ratings([FinishedGame(id=1, order=(1,), sides=((7,), (8,)), ranks=(0, 1))])
    winner, loser = ratings.players[7], ratings.players[8]
    assert winner.mu == pytest.approx(27.6354, abs=1e-4)
    assert winner.sigma == pytest.approx(8.0659, abs=1e-4)
    assert loser.mu == pytest.approx(22.3646, abs=1e-4)
    assert winner.display == 1069
    assert loser.display < 1000


def test_a_first_head_to_head_win_follows_the_plackett_luce_update_worked_by_hand() -> None:
    # Weng & Lin (2011), algorithm 4, two newcomers: τ widens σ first; each side's chance of being
    # ranked first is ½; the winner gains σ²/c × ½, the loser loses as much; both shrink alike.
    sigma2 = (25 / 3) ** 2 + (25 / 300) ** 2
    c = math.sqrt(2 * (sigma2 + (25 / 6) ** 2))
    gain = sigma2 / c * 0.5
    shrink = 0.25 * sigma2 / c**2 * (math.sqrt(sigma2) / c)
    sigma = math.sqrt(sigma2) * math.sqrt(1 - shrink)

    ratings = compute_ratings([FinishedGame(id=1, order=(1,), sides=((7,), (8,)), ranks=(0, 1))])

    assert ratings.players[7].mu == pytest.approx(25 + gain, rel=1e-12)
    assert ratings.players[8].mu == pytest.approx(25 - gain, rel=1e-12)
    assert ratings.players[7].sigma == pytest.approx(sigma, rel=1e-12)
    assert ratings.players[8].sigma == pytest.approx(sigma, rel=1e-12)


def test_it_rates_the_small_club_exactly_as_openskill_does_game_by_game() -> None:
    model = PlackettLuce(mu=25.0, sigma=25.0 / 3.0)
    ann, bob, cy, dot, eve = (model.rating() for _ in range(5))
    [[ann, bob], [cy, dot]] = model.rate([[ann, bob], [cy, dot]], ranks=[0, 1])
    [[ann], [cy], [eve]] = model.rate([[ann], [cy], [eve]], ranks=[1, 0, 2])
    [[bob], [eve]] = model.rate([[bob], [eve]], ranks=[0, 0])
    [[ann, cy], [bob, dot]] = model.rate([[ann, cy], [bob, dot]], ranks=[1, 0])

    ratings = compute_ratings(SMALL_CLUB)

    expected = {1: (ann, 3), 2: (bob, 3), 3: (cy, 3), 4: (dot, 2), 5: (eve, 2)}
    for player, (rating, games) in expected.items():
        assert ratings.players[player] == Skill(mu=rating.mu, sigma=rating.sigma, games=games)
    assert [point.game_id for point in ratings.history[2]] == [10, 12, 13]
    assert [point.game_id for point in ratings.history[5]] == [11, 12]


def test_a_draw_costs_the_stronger_player_and_gains_the_weaker_one() -> None:
    before, after = compute_ratings(SMALL_CLUB[:2]), compute_ratings(SMALL_CLUB[:3])
    bob_change = after.players[2].mu - before.players[2].mu
    eve_change = after.players[5].mu - before.players[5].mu
    assert before.players[2].mu > before.players[5].mu
    assert bob_change < 0 < eve_change


def test_it_rates_pairs_of_partners_as_one_player_in_their_own_run() -> None:
    model = PlackettLuce()
    ab, cd, ac, bd = (model.rating() for _ in range(4))
    [[ab], [cd]] = model.rate([[ab], [cd]], ranks=[0, 1])
    [[ac], [bd]] = model.rate([[ac], [bd]], ranks=[1, 0])

    ratings = compute_ratings(SMALL_CLUB)

    assert ratings.pairs[(1, 2)] == Skill(mu=ab.mu, sigma=ab.sigma, games=1)
    assert ratings.pairs[(3, 4)] == Skill(mu=cd.mu, sigma=cd.sigma, games=1)
    assert ratings.pairs[(1, 3)] == Skill(mu=ac.mu, sigma=ac.sigma, games=1)
    assert ratings.pairs[(2, 4)] == Skill(mu=bd.mu, sigma=bd.sigma, games=1)
    assert ratings.partnerships() == {}


def test_it_lists_a_partnership_once_the_pair_has_played_five_games_together() -> None:
    games = [
        FinishedGame(id=n, order=(n,), sides=((1, 2), (3, 4 + n % 2)), ranks=(0, 1)) for n in range(1, 6)
    ]
    assert list(compute_ratings(games[:4]).partnerships()) == []
    listed = compute_ratings(games).partnerships()
    assert list(listed) == [(1, 2)]
    assert listed[(1, 2)].games == 5


def test_the_order_games_were_entered_in_does_not_change_a_single_number() -> None:
    games = random_club(seed=4, games=120)
    reference = compute_ratings(games)
    for seed in range(3):
        shuffled = games[:]
        random.Random(seed).shuffle(shuffled)
        assert compute_ratings(shuffled) == reference


def test_the_order_of_seats_and_sides_does_not_change_a_single_number() -> None:
    flipped = [
        FinishedGame(
            id=game.id,
            order=game.order,
            sides=tuple(tuple(reversed(side)) for side in reversed(game.sides)),
            ranks=tuple(reversed(game.ranks)),
        )
        for game in SMALL_CLUB
    ]
    assert compute_ratings(flipped) == compute_ratings(SMALL_CLUB)


def test_rating_only_the_latest_game_gives_the_numbers_of_a_full_recompute() -> None:
    games = random_club(seed=9, games=200)
    stored = compute_ratings(games[:-1])
    # The save loads only the ratings of the new game's players and pairs.
    latest = games[-1]
    seated = {player for side in latest.sides for player in side}
    update = rate_game(
        players={player: stored.players[player] for player in seated if player in stored.players},
        pairs=stored.pairs,
        game=latest,
        after=stored.last,
    )
    stored.apply(update)
    assert stored == compute_ratings(games)


def test_it_refuses_to_rate_a_game_played_before_the_last_rated_one() -> None:
    stored = compute_ratings(SMALL_CLUB)
    earlier = FinishedGame(id=9, order=(2,), sides=((1,), (2,)), ranks=(0, 1))
    with pytest.raises(NotLatestError):
        rate_game(players=stored.players, pairs=stored.pairs, game=earlier, after=stored.last)


def test_a_rating_stops_being_provisional_at_the_tenth_game() -> None:
    games = [FinishedGame(id=n, order=(n,), sides=((1,), (2,)), ranks=(n % 2, 1 - n % 2)) for n in range(10)]
    assert compute_ratings(games[:9]).players[1].provisional
    assert not compute_ratings(games).players[1].provisional


def test_the_leaderboard_puts_the_strongest_first_and_equal_ratings_by_player_id() -> None:
    games = [FinishedGame(id=1, order=(1,), sides=((5,), (3,), (4,)), ranks=(0, 1, 1))]
    board = [player for player, _ in compute_ratings(games).leaderboard()]
    assert board == [5, 3, 4]


@pytest.mark.parametrize(
    ("sides", "ranks", "message"),
    [
        (((1,),), (0,), "at least two sides"),
        (((1,), (2,)), (0,), "2 sides but 1 ranks"),
        (((1,), ()), (0, 1), "a side has no players"),
        (((1, 2), (2, 3)), (0, 1), "more than one seat"),
        (((1,), (2,)), (0, -1), "ranks start at 0"),
    ],
)
def test_it_refuses_a_game_it_cannot_rate_and_says_why(
    sides: tuple[tuple[int, ...], ...], ranks: tuple[int, ...], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        FinishedGame(id=1, order=(1,), sides=sides, ranks=ranks)


def test_the_ratings_modules_run_without_django() -> None:
    code = "import sys, ratings.compute, ratings.insight, ratings.svg; sys.exit('django' in sys.modules)"
    root = Path(__file__).resolve().parents[2]
    assert subprocess.run([sys.executable, "-c", code], cwd=root, check=False).returncode == 0
