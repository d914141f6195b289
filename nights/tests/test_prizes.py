"""Who wins the night's prizes, worked out by hand: places with ties (shared, and the next place
skipped), high game and high meld shared between sides level on them, each table's winners (none
for a draw, a table in play or one stopped), and each group's winner. No database: the standings
are written out as the night left them."""

from __future__ import annotations

from nights.models import Night
from nights.prizes import (
    group_prizes,
    group_standings,
    high_game,
    high_meld,
    night_results,
    place_prizes,
    table_prizes,
)
from nights.standings import NightStandings, PlayerLine, TableLine, _rank, places
from scoring.models import Game

NAMES = {1: "Anna", 2: "Bo", 3: "Cleo", 4: "Dan", 5: "Eva", 6: "Finn", 7: "Gus", 8: "Hana"}


def table(round_no: int, table_no: int, ns: tuple[int, int], ew: tuple[int, int], points: tuple[int, int],
          winner: str = "", *, stopped: bool = False) -> TableLine:  # fmt: skip
    members: dict[str, list[tuple[str, int | None, str]]] = {
        "NS": [("N", ns[0], NAMES[ns[0]]), ("S", ns[1], NAMES[ns[1]])],
        "EW": [("E", ew[0], NAMES[ew[0]]), ("W", ew[1], NAMES[ew[1]])],
    }
    return TableLine(
        round_no=round_no, table_no=table_no, game=Game(pk=round_no * 10 + table_no), seats=[], scores=[],
        chips=[], hands=3, complete=bool(winner), winner=winner, stopped=stopped, members=members,
        points_by_side={"NS": points[0], "EW": points[1]}, winner_side=winner,
    )  # fmt: skip


def line(player: int, wins: int, diff: int) -> PlayerLine:
    return PlayerLine(player, NAMES[player], games=2, wins=wins, points_diff=diff)


# Two rounds of two tables. Round 1: Anna & Bo beat Cleo & Dan 125–60; Eva & Finn beat Gus & Hana
# 130–95. Round 2: Anna & Cleo beat Bo & Dan 110–20; Eva & Gus and Finn & Hana are level 100–100
# (a draw). Wins and points difference: Anna 2, +65 +90 = +155; Eva 1, +35 + 0 = +35; Finn 1, +35;
# Cleo 1, −65 +90 = +25; Bo 1, +65 −90 = −25; Gus 0, −35; Hana 0, −35; Dan 0, −65 −90 = −155.
def night_tables() -> list[TableLine]:
    return [
        table(1, 1, (1, 2), (3, 4), (125, 60), "NS"),
        table(1, 2, (5, 6), (7, 8), (130, 95), "NS"),
        table(2, 1, (1, 3), (2, 4), (110, 20), "NS"),
        table(2, 2, (5, 7), (6, 8), (100, 100), "draw"),
    ]


def ranked(lines: list[PlayerLine]) -> list[PlayerLine]:
    lines = sorted(lines, key=_rank(False))
    for each, place in zip(lines, places(lines, check=False), strict=True):
        each.place = place
    return lines


def standings(**changed: tuple[int, int]) -> NightStandings:
    """The night's standings; `changed` gives a player (by name) other (wins, points difference)."""
    figures = {
        1: (2, 155),
        2: (1, -25),
        3: (1, 25),
        4: (0, -155),
        5: (1, 35),
        6: (1, 35),
        7: (0, -35),
        8: (0, -35),
    }
    for name, value in changed.items():
        figures[next(p for p, n in NAMES.items() if n == name)] = value
    lines = [line(player, wins, diff) for player, (wins, diff) in figures.items()]
    return NightStandings(lines=ranked(lines), tables=night_tables(), finished=True)


def winners(prize) -> list[tuple[str, ...]]:
    return [winner.names for winner in prize.winners]


def test_players_level_on_every_figure_share_a_place_and_the_next_is_skipped():
    assert [(each.place, each.name) for each in standings().lines] == [
        (1, "Anna"), (2, "Eva"), (2, "Finn"), (4, "Cleo"), (5, "Bo"), (6, "Gus"), (6, "Hana"), (8, "Dan"),
    ]  # fmt: skip


def test_a_tie_for_a_place_gives_the_prize_to_both_says_it_is_shared_and_skips_the_next():
    night = Night(prize_first=True, prize_second=True, prize_third=True)
    first, second, third = place_prizes(night, standings())
    assert winners(first) == [("Anna",)] and not first.shared
    assert winners(second) == [("Eva",), ("Finn",)] and second.shared
    assert winners(third) == [] and third.note == "No one: players level before it share a higher place."


def test_two_level_first_both_win_first_and_no_one_second():
    first, second, third = place_prizes(
        Night(prize_first=True, prize_second=True, prize_third=True), standings(Eva=(2, 155))
    )
    assert winners(first) == [("Anna",), ("Eva",)] and first.shared
    assert winners(second) == []
    assert winners(third) == [("Finn",)]


def test_only_the_places_ticked_on_are_prizes():
    assert [prize.title for prize in place_prizes(Night(prize_third=True), standings())] == ["3rd place"]


def test_the_high_game_goes_to_the_side_with_the_most_points_in_one_game():
    prize = high_game(standings())
    assert winners(prize) == [("Eva", "Finn")]
    assert prize.figure == "130 points" and prize.winners[0].where == "Round 1 · Table 2"
    assert prize.winners[0].player_ids == {5, 6} and not prize.shared


def test_a_high_game_level_between_two_sides_is_shared():
    tied = standings()
    tied.tables[0].points_by_side["NS"] = 130  # Anna & Bo as high as Eva & Finn
    prize = high_game(tied)
    assert winners(prize) == [("Anna", "Bo"), ("Eva", "Finn")] and prize.shared


def test_the_high_meld_is_a_sides_best_meld_in_one_hand_shared_when_level():
    melds = {(11, "NS"): 40, (11, "EW"): 80, (12, "NS"): 60, (21, "EW"): 80, (22, "NS"): 20}
    prize = high_meld(standings(), melds)
    assert winners(prize) == [("Cleo", "Dan"), ("Bo", "Dan")] and prize.shared
    assert [w.where for w in prize.winners] == ["Round 1 · Table 1", "Round 2 · Table 1"]
    assert prize.figure == "80 points"
    assert high_meld(standings(), {}).winners == ()


def test_each_table_has_its_winners_and_a_draw_has_none():
    prizes = table_prizes(standings())
    assert [p.title for p in prizes] == [
        "Round 1 · Table 1", "Round 1 · Table 2", "Round 2 · Table 1", "Round 2 · Table 2",
    ]  # fmt: skip
    assert [winners(p) for p in prizes[:3]] == [[("Anna", "Bo")], [("Eva", "Finn")], [("Anna", "Cleo")]]
    assert prizes[3].winners == () and prizes[3].note == "A draw: no winner."


def test_a_table_stopped_at_the_finish_or_still_in_play_has_no_winner():
    stopped = table(3, 1, (1, 2), (3, 4), (60, 40), stopped=True)
    playing = table(3, 2, (5, 6), (7, 8), (60, 40))
    notes = [p.note for p in table_prizes(NightStandings(tables=[stopped, playing]))]
    assert notes == ["Stopped when the night was finished: no winner.", "Still in play."]


def test_each_group_is_ranked_on_its_own_and_its_first_wins():
    group_of = {1: "Women", 3: "Women", 5: "Women", 8: "Women", 2: "Men", 4: "Men", 6: "Men", 7: "Men"}
    groups = group_standings(standings(), group_of, check=False)
    assert [g.label for g in groups] == ["Men", "Women"]
    men, women = groups
    assert [(place, each.name) for place, each in men.lines] == [
        (1, "Finn"),
        (2, "Bo"),
        (3, "Gus"),
        (4, "Dan"),
    ]
    assert [each.name for _place, each in women.lines] == ["Anna", "Eva", "Cleo", "Hana"]
    prizes = group_prizes(groups)
    assert [(p.title, winners(p)) for p in prizes] == [
        ("Winner of the group Men", [("Finn",)]),
        ("Winner of the group Women", [("Anna",)]),
    ]


def test_a_group_level_at_the_top_shares_its_prize():
    group_of = {5: "Over 80", 6: "Over 80", 7: "Over 80"}
    (prize,) = group_prizes(group_standings(standings(), group_of, check=False))
    assert winners(prize) == [("Eva",), ("Finn",)] and prize.shared


def test_no_prize_ticked_on_means_no_prize(db):
    from clubs.models import Club

    club = Club.objects.create(name="Quiet club")
    night = Night.objects.create(club=club, played_on="2026-03-05")
    assert night_results(night).prizes == []
