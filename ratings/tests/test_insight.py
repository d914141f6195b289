"""A player's form, partners, rival, nemesis, buddy and chips per night, from hand-made games."""

from __future__ import annotations

from datetime import date

from ratings.compute import FinishedGame
from ratings.insight import (
    NightChips,
    Opponent,
    Outcome,
    PlayerGame,
    Record,
    insight,
    player_game,
)

W, D, L = Outcome.WIN, Outcome.DRAW, Outcome.LOSS
DAY = date(2026, 3, 1)


def game(
    number: int,
    result: Outcome,
    *,
    partners: tuple[int, ...] = (),
    against: dict[int, Outcome] | None = None,
    chips: int | None = None,
    night: int | None = None,
    day: int = 1,
) -> PlayerGame:
    opponents = against if against is not None else {}
    return PlayerGame(
        game_id=number,
        order=(number,),
        played=date(2026, 3, day),
        partners=partners,
        opponents=tuple(Opponent(player, outcome) for player, outcome in opponents.items()),
        result=result,
        chips=chips,
        night=night,
    )


def partnered(number: int, partner: int, result: Outcome, opponents: tuple[int, int] = (8, 9)) -> PlayerGame:
    return game(number, result, partners=(partner,), against=dict.fromkeys(opponents, result))


def test_the_rival_is_the_opponent_met_most_often_with_the_players_record() -> None:
    games = [game(n, W, against={2: W}) for n in range(1, 3)]
    games += [game(n, L, against={3: L}) for n in range(3, 6)]
    games += [game(6, D, against={3: D})]
    assert insight(games).rival == Record(3, wins=0, draws=1, losses=3)


def test_an_opponent_met_fewer_than_three_times_is_nobodys_rival() -> None:
    games = [game(1, W, against={7: W}), game(2, L, against={4: L, 7: L})]
    assert insight(games).rival is None
    games += [game(3, D, against={4: D})]
    assert insight(games).rival is None  # 7 twice, 4 twice
    assert insight([*games, game(4, W, against={4: W})]).rival == Record(4, wins=1, draws=1, losses=1)


def test_equally_met_rivals_go_to_the_closer_contest() -> None:
    games = [game(n, W, against={4: W, 7: outcome}) for n, outcome in enumerate((W, L, D), start=1)]
    assert insight(games, {4: "Anna", 7: "Örjan"}).rival == Record(7, wins=1, draws=1, losses=1)


def swap_names(names: dict[int, str]) -> dict[int, str]:
    first, second = names
    return {first: names[second], second: names[first]}


def test_a_tie_of_games_and_record_goes_to_the_name_never_the_id() -> None:
    games = [game(n, L, against={4: L, 7: L}, partners=(2, 5)) for n in range(1, 4)]
    names = {4: "Örjan", 7: "Åsa"}  # Å sorts with the A's, before Ö, however the ids fall
    assert insight(games, names).rival == insight(games, names).nemesis == Record(7, losses=3)
    assert insight(games, swap_names(names)).rival == Record(4, losses=3)
    assert [r.player_id for r in insight(games, names).opponents] == [7, 4]
    wins = [partnered(n, 2, W) for n in range(1, 4)] + [partnered(n, 5, W) for n in range(4, 7)]
    partners = {2: "Čeněk", 5: "Bo"}
    assert insight(wins, partners).buddy == Record(5, wins=3)
    assert [r.player_id for r in insight(wins, partners).partners] == [5, 2]
    assert [r.player_id for r in insight(wins, swap_names(partners)).partners] == [2, 5]


def test_partners_of_as_many_games_go_by_the_better_record_then_the_name() -> None:
    games = [partnered(1, 2, W), partnered(2, 2, L), partnered(3, 3, D), partnered(4, 3, D)]
    games += [partnered(5, 4, W), partnered(6, 4, W)]
    names = {2: "Anna", 3: "Bo", 4: "Cecilia"}
    assert [r.player_id for r in insight(games, names).partners] == [4, 2, 3]


def test_the_nemesis_is_the_opponent_the_player_scores_worst_against_in_three_games_or_more() -> None:
    games = [game(n, L, against={2: L}) for n in range(1, 3)]  # 0 of 2: too few games to count
    games += [game(n, L, against={3: L}) for n in range(3, 5)] + [game(5, W, against={3: W})]  # 1 of 3
    games += [game(n, L, against={4: L}) for n in range(6, 8)] + [game(8, D, against={4: D})]  # ½ of 3
    assert insight(games).nemesis == Record(4, draws=1, losses=2)


def test_nobody_is_a_nemesis_of_a_player_who_beats_everyone_more_often_than_not() -> None:
    games = [game(n, W, against={2: W}) for n in range(1, 4)] + [game(4, L, against={2: L})]
    assert insight(games).nemesis is None


def test_the_buddy_is_the_partner_with_the_best_record_in_three_games_or_more() -> None:
    games = [partnered(n, 2, W) for n in range(1, 3)]  # 2 of 2: too few games to count
    games += [partnered(n, 3, W) for n in range(3, 6)] + [partnered(6, 3, L)]  # 3 of 4
    games += [partnered(n, 4, W) for n in range(7, 9)] + [partnered(9, 4, D)]  # 2½ of 3
    result = insight(games)
    assert result.buddy == Record(4, wins=2, draws=1)
    assert result.partners == [Record(3, wins=3, losses=1), Record(4, wins=2, draws=1), Record(2, wins=2)]


def test_a_partner_the_player_mostly_loses_with_is_not_a_buddy() -> None:
    games = [partnered(n, 2, L) for n in range(1, 4)] + [partnered(4, 2, W)]
    assert insight(games).buddy is None


def test_form_is_the_last_ten_results_oldest_first_whatever_order_the_games_come_in() -> None:
    results = [W, W, L, D, L, W, W, W, L, D, L, W]
    games = [game(n, outcome) for n, outcome in enumerate(results, start=1)]
    result = insight(reversed(games))
    assert result.form == results[2:]
    assert result.games == 12


def test_chips_are_summed_per_night_and_per_day_for_games_without_a_night() -> None:
    games = [
        game(1, W, chips=14, night=5, day=1),
        game(2, L, chips=-6, night=5, day=1),
        game(3, W, chips=None, night=5, day=1),  # a points game has no chips
        game(4, L, chips=-3, night=None, day=2),
        game(5, W, chips=9, night=None, day=2),
        game(6, W, chips=20, night=6, day=8),
    ]
    assert insight(games).chips_per_night == [
        NightChips(night=5, played=DAY, games=2, chips=8),
        NightChips(night=None, played=date(2026, 3, 2), games=2, chips=6),
        NightChips(night=6, played=date(2026, 3, 8), games=1, chips=20),
    ]


def test_a_three_seat_game_counts_a_win_against_whoever_the_player_placed_above() -> None:
    rated = FinishedGame(id=4, order=(1,), sides=((1,), (2,), (3,)), ranks=(1, 0, 2))
    seen = player_game(rated, 1, played=DAY)
    assert seen.result is L
    assert seen.partners == ()
    assert seen.opponents == (Opponent(2, L), Opponent(3, W))


def test_a_four_seat_game_gives_the_partner_and_both_opponents_the_sides_result() -> None:
    rated = FinishedGame(id=4, order=(1,), sides=((3, 1), (2, 4)), ranks=(0, 0))
    seen = player_game(rated, 1, played=DAY, chips=0, night=2)
    assert (seen.result, seen.partners, seen.chips, seen.night) == (D, (3,), 0, 2)
    assert seen.opponents == (Opponent(2, D), Opponent(4, D))


def test_a_player_with_no_games_has_no_insight_yet() -> None:
    empty = insight([])
    assert (empty.games, empty.form, empty.rival, empty.nemesis, empty.buddy) == (0, [], None, None, None)
