"""Players left over on a Check Pinochle night, and what a bye earns: the draw, the arithmetic
(worked by hand), the standings and the money agreeing, the form and the pages."""

from __future__ import annotations

import datetime
import html
from decimal import Decimal

import pytest
from django.urls import reverse

from clubs.models import Club, Season
from ledger import selectors
from nights import arrivals, rounds, services
from nights.forms.opening import NightForm
from nights.models import Night, NightBye, NightPlayer
from nights.planning.night import plan_night
from nights.planning.plan import CHECK_TABLE_SIZES
from nights.planning.rounds import table_sizes
from nights.settlement.byes import AVERAGE, FIXED, NONE, ByeRule, PlayedSeat, bye_settlement
from nights.standings import night_standings
from tests.access_helpers import CLUB
from tests.helpers import text
from tests.ledger_helpers import CHECK_HANDS, make_night, roster


@pytest.fixture
def club(people):
    return Club.objects.get(pk=CLUB)


@pytest.fixture
def season(club):
    return Season.objects.create(
        club=club, name="Autumn", starts_on=datetime.date(2026, 9, 1), ends_on=datetime.date(2026, 12, 31)
    )


# --- the draw ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("present", "sizes", "byes"),
    [(9, (4, 4), 1), (10, (4, 4, 2), 0), (11, (4, 4, 3), 0), (12, (4, 4, 4), 0), (3, (3,), 0)],
)
def test_it_seats_the_players_left_over_at_one_standard_table(present, sizes, byes):
    assert table_sizes(present, CHECK_TABLE_SIZES, leftover_table=True) == (sizes, byes)


def test_byes_stay_the_default_of_a_check_night():
    assert table_sizes(10, CHECK_TABLE_SIZES) == ((4, 4), 2)


@pytest.mark.parametrize("present", [9, 10, 11])
def test_every_round_of_a_check_night_with_a_leftover_table_seats_everyone_it_can(present):
    plan = plan_night(
        players=list(range(1, present + 1)),
        table_sizes=CHECK_TABLE_SIZES,
        rounds=6,
        seed=7,
        leftover_table=True,
    )
    for rnd in plan.rounds:
        assert [len(t.seats) for t in rnd.tables][:2] == [4, 4]
        assert len(rnd.byes) == (1 if present == 9 else 0)
        assert sorted((*rnd.seated, *rnd.byes)) == list(range(1, present + 1))
    if present == 11:
        at_small = [p for rnd in plan.rounds for p in rnd.tables[2].seats]
        assert len(set(at_small)) == 11  # 18 seats at the standard table over 6 rounds: everyone's turn


# --- the arithmetic, worked by hand --------------------------------------------------------------


def _round(round_no: int = 1, counted: bool = True) -> list[PlayedSeat]:
    """Table 1: Bo (1) and Dan (3) beat Cy (2) and Eli (4) by 6 chips, points 300 to 250; table 2:
    Gus (5) and Hal (7) beat Ida (6) and Jo (8) by 4 chips, points 260 to 240."""
    return [
        PlayedSeat(round_no, 1, 50, 6, True, counted, 300),
        PlayedSeat(round_no, 2, -50, -6, True, counted, 250),
        PlayedSeat(round_no, 3, 50, 6, True, counted, 300),
        PlayedSeat(round_no, 4, -50, -6, True, counted, 250),
        PlayedSeat(round_no, 5, 20, 4, True, counted, 260),
        PlayedSeat(round_no, 6, -20, -4, True, counted, 240),
        PlayedSeat(round_no, 7, 20, 4, True, counted, 260),
        PlayedSeat(round_no, 8, -20, -4, True, counted, 240),
    ]


ANNA = 9


def test_a_bye_earns_nothing_by_default():
    result = bye_settlement(_round(), [(1, ANNA)], ByeRule(NONE, chips_in_play=True))
    assert result.compensations == [] and result.chips() == {}


def test_a_fixed_score_is_paid_in_whole_chips_by_the_round_s_players_winners_first():
    result = bye_settlement(_round(), [(1, ANNA)], ByeRule(FIXED, 20, 3, True))
    assert result.points() == {ANNA: 20}
    # 3 chips among 8 players: shares of 0, the 3 over paid by Bo, Dan (+6) and Gus (+4, seat order).
    assert result.chips() == {ANNA: 3, 1: -1, 3: -1, 5: -1}
    assert sum(result.chips().values()) == 0


def test_a_fixed_score_larger_than_the_round_divides_in_equal_shares_first():
    result = bye_settlement(_round(), [(1, ANNA)], ByeRule(FIXED, 0, 10, True))
    # 10 chips among 8: 1 each, and 2 more from Bo and Dan.
    assert result.chips() == {ANNA: 10, 1: -2, 3: -2, 2: -1, 4: -1, 5: -1, 6: -1, 7: -1, 8: -1}


def test_the_average_of_a_partnership_round_is_zero_points_and_zero_chips():
    # Points difference: (50 - 50 + 50 - 50 + 20 - 20 + 20 - 20) / 8 = 0; chips likewise.
    result = bye_settlement(_round(), [(1, ANNA)], ByeRule(AVERAGE, chips_in_play=True))
    [item] = result.compensations
    assert (item.points, item.chips, item.averaged) == (0, 0, True)


def test_the_average_of_the_round_gives_a_bye_the_mean_of_what_the_players_scored():
    # Own points: (300 + 250 + 300 + 250 + 260 + 240 + 260 + 240) / 8 = 2100 / 8 = 262.5 -> 263.
    result = bye_settlement(_round(), [(1, ANNA)], ByeRule(AVERAGE, chips_in_play=True))
    [item] = result.compensations
    assert item.own == 263
    # A fixed score adds its points to the own points as well.
    [fixed] = bye_settlement(_round(), [(1, ANNA)], ByeRule(FIXED, 20, 0, True)).compensations
    assert (fixed.own, fixed.points) == (20, 20)


def test_the_average_of_a_round_with_a_three_seat_table_is_rounded_to_a_whole_point():
    # A standard night: table of three, points 300, 250, 180: differences +50, -50, -120;
    # a table of four at +40 / -40: (50 - 50 - 120 + 40 - 40 + 40 - 40) / 7 = -120 / 7 = -17.14 -> -17.
    seats = [PlayedSeat(1, p, d, 0, False, True) for p, d in [(1, 50), (2, -50), (3, -120)]]
    seats += [PlayedSeat(1, p, d, 0, False, True) for p, d in [(4, 40), (5, -40), (6, 40), (7, -40)]]
    result = bye_settlement(seats, [(1, ANNA)], ByeRule(AVERAGE))
    assert result.points() == {ANNA: -17} and result.chips() == {ANNA: 0}


def test_a_round_where_no_table_has_finished_has_nothing_to_average():
    result = bye_settlement(_round(counted=False), [(1, ANNA)], ByeRule(AVERAGE, chips_in_play=True))
    [item] = result.compensations
    assert (item.points, item.chips, item.averaged) == (0, 0, False)


def test_a_bye_in_a_round_not_started_earns_nothing_yet():
    result = bye_settlement(_round(1), [(2, ANNA)], ByeRule(FIXED, 20, 3, True))
    assert result.compensations == []


def test_a_leftover_standard_table_earns_a_bye_s_chips_but_not_its_points():
    seats = _round() + [PlayedSeat(1, p, d, 0, False, True) for p, d in [(10, 30), (11, -30)]]
    result = bye_settlement(seats, [], ByeRule(FIXED, 20, 1, True))
    assert result.points() == {10: 0, 11: 0}
    assert result.chips() == {10: 1, 11: 1, 1: -1, 3: -1}


# --- the standings and the money agree -----------------------------------------------------------


@pytest.mark.django_db
def test_a_bye_s_fixed_chips_are_in_the_standings_and_the_money_alike(club, season):
    players = roster(club, *"ABCDEFGHI")
    night = make_night(
        club=club,
        season=season,
        tables=[(players[:4], CHECK_HANDS), (players[4:8], CHECK_HANDS[::-1])],
        stake_per_chip=Decimal("0.50"),
    )
    night.bye_compensation, night.bye_points, night.bye_chips = Night.ByeCompensation.FIXED, 25, 3
    night.save()
    NightBye.objects.create(night=night, round_no=1, player=players[8])
    standings = night_standings(night)
    lines = {line.player_id: line for line in standings.lines}
    assert lines[players[8].pk].chips == 3 and lines[players[8].pk].points_diff == 25
    assert standings.chip_sum == 0
    ledger = selectors.night_ledger(night)
    assert {row.player: row.chips for row in ledger.rows} == {p: line.chips for p, line in lines.items()}
    assert {row.player: row.amount for row in ledger.rows} == {
        p: line.chips * Decimal("0.50") for p, line in lines.items()
    }
    assert ledger.total_amount == 0
    assert ledger.suggestions  # the bye is paid like any winner


@pytest.mark.django_db
def test_a_leftover_table_of_a_check_night_plays_standard_and_earns_the_bye_s_chips(alice, club, season):
    players = roster(club, *"ABCDEF")
    night = services.open_night(
        club=club, season=season, played_on=datetime.date(2026, 11, 5), variant="check", deck="single",
        target=None, min_bid=None, meld_needs_trick=False, rounds=2, round_ends="game",
        hands_per_round=None, stake_per_chip=None, stake_per_win=None, created_by=None,
        leftovers="table", bye_compensation="fixed", bye_points=10, bye_chips=2,
    )  # fmt: skip
    for player in players:
        arrivals.set_checked_in(night=night, player=player, present=True)
    services.draw_plan(night=night)
    games = rounds.start_round(night=night, round_no=1)
    assert [(game.seats, game.variant) for game in games] == [(4, "check"), (2, "standard")]
    lines = {line.player_id: line for line in night_standings(night).lines}
    small = [p for p, line in lines.items() if line.byes]
    assert len(small) == 2 and all(lines[p].chips == 2 and lines[p].points_diff == 0 for p in small)
    # 4 chips paid by the four at the Check Pinochle table, one each.
    assert sorted(line.chips for p, line in lines.items() if p not in small) == [-1, -1, -1, -1]
    standings = alice.get(reverse("nights:standings", args=[night.pk])).content.decode()
    assert standings.count("standard table in round 1: chips as for a bye (2 chips)") == 2
    assert alice.get(reverse("nights:night", args=[night.pk])).status_code == 200


# --- the form --------------------------------------------------------------------------------------


def _form(club, **changes):
    data = {
        "played_on": "2026-11-05", "variant": "check", "deck": "single", "rounds": "3",
        "round_ends": "game", "leftovers": "bye", "bye_compensation": "fixed",
        "bye_points": "20", "bye_chips": "2",
    }  # fmt: skip
    data.update(changes)
    return NightForm(data, club=club)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("bye_points", "-5", "Points for a bye: enter a whole number, 0 or more."),
        ("bye_points", "ten", "Points for a bye: enter a whole number, 0 or more."),
        ("bye_chips", "-1", "Chips for a bye: enter a whole number, 0 or more."),
        ("bye_chips", "2.5", "Chips for a bye: enter a whole number, 0 or more."),
        ("bye_points", "", "Enter the points a bye earns."),
        ("bye_chips", "", "Enter the chips a bye earns."),
    ],
)
def test_the_form_refuses_a_fixed_score_naming_the_field(club, field, value, message):
    form = _form(club, **{field: value})
    assert not form.is_valid()
    assert form.errors[field] == [message]


@pytest.mark.django_db
def test_the_fixed_figures_are_dropped_unless_the_bye_earns_a_fixed_score(club):
    form = _form(club, bye_compensation="average", bye_points="20")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["bye_points"] is None and form.cleaned_data["bye_chips"] is None


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["A bye earns", "The average of the round"]),
        ("sv", ["En frirunda ger", "Rundans medelvärde"]),
        ("cs", ["Volné kolo přináší", "Průměr kola"]),
    ],
)
def test_the_opening_page_offers_the_choices_in_every_language(alice, club, language, words):
    page = alice.get(reverse("nights:new", args=[club.pk]), headers={"Accept-Language": language})
    text = page.content.decode()
    for word in words:
        assert word in text


# --- the pages -------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["bye: fixed score in round 1", "25 points", "3 chips", "paid 1 chip towards byes"]),
        ("sv", ["frirunda: fast poäng i runda 1", "25 poäng", "3 marker", "betalade 1 mark till frirundor"]),
        (
            "cs",
            ["volné kolo: pevné skóre v kole 1", "25 bodů", "3 žetony", "za volná kola zaplaceno: 1 žeton"],
        ),
    ],
)
def test_the_standings_show_a_bye_as_its_own_line_in_every_language(alice, club, season, language, words):
    players = roster(club, *"ABCDEFGHI")
    night = make_night(
        club=club, season=season, tables=[(players[:4], CHECK_HANDS), (players[4:8], CHECK_HANDS[::-1])]
    )
    night.bye_compensation, night.bye_points, night.bye_chips = Night.ByeCompensation.FIXED, 25, 3
    night.save()
    NightBye.objects.create(night=night, round_no=1, player=players[8])
    page = alice.get(reverse("nights:standings", args=[night.pk]), headers={"Accept-Language": language})
    text = page.content.decode()
    for word in words:
        assert word in text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "heading"),
    [
        ("en", "Club nights: players left over and byes"),
        ("sv", "Klubbkvällar: spelare som blir över och frirundor"),
        ("cs", "Klubové večery: zbývající hráči a volná kola"),
    ],
)
def test_the_rules_page_explains_byes_in_every_language(client, language, heading):
    text = client.get("/rules/", headers={"Accept-Language": language}).content.decode()
    assert text.count(heading) == 2  # the contents and the section
    assert 'id="byes"' in text


@pytest.mark.django_db
def test_an_organiser_opens_a_check_night_with_a_leftover_table_and_a_fixed_score(alice, club):
    data = {
        "played_on": "2026-11-05", "variant": "check", "deck": "single", "rounds": "3",
        "round_ends": "game", "leftovers": "table", "bye_compensation": "fixed",
        "bye_points": "20", "bye_chips": "2",
    }  # fmt: skip
    response = alice.post(reverse("nights:new", args=[club.pk]), data)
    night = Night.objects.get(club=club)
    assert response.status_code == 302
    assert (night.leftovers, night.bye_compensation, night.bye_points, night.bye_chips) == (
        "table",
        "fixed",
        20,
        2,
    )
    page = alice.get(response["Location"]).content.decode()
    assert (
        "players left over: play at a standard table · a bye earns: a fixed score (20 points, 2 chips)"
        in page
    )


@pytest.mark.django_db
def test_a_refused_fixed_score_opens_no_night_and_names_the_field(alice, club):
    data = {
        "played_on": "2026-11-05", "variant": "check", "deck": "single", "rounds": "3",
        "round_ends": "game", "bye_compensation": "fixed", "bye_points": "-3", "bye_chips": "2",
    }  # fmt: skip
    response = alice.post(reverse("nights:new", args=[club.pk]), data)
    assert "Points for a bye: enter a whole number, 0 or more." in response.content.decode()
    assert not Night.objects.filter(club=club).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "Round 1 · sat out — earned a fixed score: 25 points, 3 chips"),
        ("sv", "Omgång 1 · stod över — fick fast poäng: 25 poäng, 3 marker"),
        ("cs", "Kolo 1 · mimo hru — připsáno pevné skóre: 25 bodů, 3 žetony"),
    ],
)
def test_a_player_s_card_shows_what_a_bye_earned_in_every_language(alice, club, season, language, line):
    players = roster(club, *"ABCDEFGHI")
    night = make_night(
        club=club, season=season, tables=[(players[:4], CHECK_HANDS), (players[4:8], CHECK_HANDS[::-1])]
    )
    night.bye_compensation, night.bye_points, night.bye_chips = Night.ByeCompensation.FIXED, 25, 3
    night.save()
    NightBye.objects.create(night=night, round_no=1, player=players[8])
    card = alice.get(
        reverse("nights:card", args=[night.pk, players[8].pk]), headers={"Accept-Language": language}
    )
    assert line in html.unescape(text(card))


@pytest.mark.django_db
def test_a_player_s_card_shows_the_round_s_average_as_the_standings_count_it(alice, club, season):
    players = roster(club, *"ABCDEFGHI")
    night = make_night(
        club=club, season=season, tables=[(players[:4], CHECK_HANDS), (players[4:8], CHECK_HANDS[::-1])]
    )
    night.bye_compensation = Night.ByeCompensation.AVERAGE
    night.save()
    NightBye.objects.create(night=night, round_no=1, player=players[8])
    line = next(line for line in night_standings(night).lines if line.player_id == players[8].pk)
    (item,) = line.byes
    card = alice.get(reverse("nights:card", args=[night.pk, players[8].pk])).content.decode()
    earned = card.split('data-testid="bye-earned">')[1].split("</span>")[0]
    points = f"{item.own} point" if item.own == 1 else f"{item.own} points"
    chips = f"{item.chips} chip" if item.chips == 1 else f"{item.chips} chips"
    assert earned.startswith("earned the round's average:") and points in earned and chips in earned


@pytest.mark.django_db
def test_a_player_s_card_says_a_bye_earned_nothing_when_the_night_gives_nothing(alice, club, season):
    players = roster(club, *"ABCDEFGHI")
    night = make_night(
        club=club, season=season, tables=[(players[:4], CHECK_HANDS), (players[4:8], CHECK_HANDS[::-1])]
    )
    NightPlayer.objects.create(night=night, player=players[8])  # checked in, sat out
    NightBye.objects.create(night=night, round_no=1, player=players[8])
    card = alice.get(reverse("nights:card", args=[night.pk, players[8].pk])).content.decode()
    assert 'data-testid="bye-earned">earned nothing</span>' in card
