"""A club night with a movement: round 2 is planned when round 1's last table ends, the night page
says what it waits for, and each finished table's link says where its players sit next."""

from __future__ import annotations

import html

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs.models import Club, Membership, Player
from nights import arrivals, services
from nights.models import Night, NightTable
from scoring.models import Game
from scoring.services.confirm import confirm_hand
from scoring.services.hands import delete_last_hand, edit_hand, record_hand
from tests.access_helpers import CLUB
from tests.helpers import quick_hand, text
from tests.ledger_helpers import CHECK_HANDS

pytestmark = pytest.mark.django_db

HAND = quick_hand(ns_tricks=25)
NAMES = ["Anna", "Bo", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana", "Ida"]


@pytest.fixture
def club(people) -> Club:
    club = Club.objects.get(pk=CLUB)
    for name in NAMES:
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    return club


def started_night(alice: Client, movement: str, players: int = 8) -> Night:
    data = {"played_on": "2026-03-05", "variant": "standard", "deck": "single", "rounds": "3",
            "round_ends": "game", "target": "100", "movement": movement}  # fmt: skip
    assert alice.post(f"/nights/clubs/{CLUB}/new", data).status_code == 302
    night = Night.objects.latest("pk")
    assert night.movement == movement
    for name in NAMES[:players]:
        player = Player.objects.get(name=name)
        assert alice.post(f"/nights/{night.pk}/check-in/{player.pk}", {"present": "yes"}).status_code == 302
    assert alice.post(f"/nights/{night.pk}/draw").status_code == 302
    assert alice.post(f"/nights/{night.pk}/rounds/1/start").status_code == 302
    return night


def play_out(table: NightTable) -> Game:
    """North-South take every trick until the game ends."""
    game = table.game
    assert game is not None
    number = 1
    while not game.finished:
        record_hand(game=game, number=number, data=HAND)
        game.refresh_from_db()
        number += 1
    return game


def seats(night: Night, round_no: int) -> list[list[str]]:
    return [
        [seat.player.name for seat in services.ordered_seats(table)]
        for table in night.tables.filter(round_no=round_no)
        .order_by("table_no")
        .prefetch_related("seats__player")
    ]


def test_it_only_draws_round_one_and_plans_round_two_when_the_last_table_ends(club, alice):
    night = started_night(alice, "progressive")
    assert seats(night, 2) == []
    first, second = seats(night, 1)
    play_out(NightTable.objects.get(night=night, round_no=1, table_no=1))
    assert seats(night, 2) == []  # table 2 is still playing
    page = text(alice.get(f"/nights/{night.pk}/"))
    assert "Round 2 is planned when round 1 ends: table 2 is still playing." in page
    assert "Start round 2" not in page
    response = alice.post(f"/nights/{night.pk}/rounds/2/start", follow=True)
    assert "Round 2 is planned when round 1 ends: table 2 is still playing." in text(response)
    assert not night.tables.filter(round_no=2).exists()

    play_out(NightTable.objects.get(night=night, round_no=1, table_no=2))
    # N-S won both tables: table 1's winners stay (N, E) with table 2's winners (S, W); table 2's
    # losers stay with table 1's losers, who go down to the foot.
    n1, e1, s1, w1 = first
    n2, e2, s2, w2 = second
    assert seats(night, 2) == [[n1, s1, n2, s2], [e2, w2, e1, w1]]
    page = text(alice.get(f"/nights/{night.pk}/"))
    assert "Start round 2" in page and "Round 2 is planned when" not in page
    assert "Round 3 is planned when round 2 ends." in page


def test_a_corrected_last_hand_takes_the_plan_back_until_the_table_ends_again(club, alice):
    night = started_night(alice, "fixed")
    for table in NightTable.objects.filter(night=night, round_no=1):
        game = play_out(table)
    assert night.tables.filter(round_no=2).count() == 2
    delete_last_hand(game=game)  # the organiser takes the last hand back: the table plays again
    assert not night.tables.filter(round_no=2).exists()
    page = text(alice.get(f"/nights/{night.pk}/"))
    assert "Round 2 is planned when round 1 ends: table 2 is still playing." in page
    record_hand(game=game, number=game.hands.count() + 1, data=HAND)
    assert night.tables.filter(round_no=2).count() == 2


def test_the_organisers_swap_and_late_arrival_work_on_the_planned_round(club, alice):
    night = started_night(alice, "lowest_stays")
    for table in NightTable.objects.filter(night=night, round_no=1):
        play_out(table)
    version = services.plan_version(night)
    anna, ida = Player.objects.get(name="Anna"), Player.objects.get(name="Ida")
    bo = Player.objects.get(name="Bo")
    assert arrivals.add_late_arrival(night=night, player=ida) == 2
    # Ida comes in: nine players at the standard game's tables of 4, 3 and 2.
    assert services.plan_version(night) != version
    assert sorted(len(row) for row in seats(night, 2)) == [2, 3, 4]
    assert any("Ida" in row for row in seats(night, 2))
    where_anna = next(row.index("Anna") for row in seats(night, 2) if "Anna" in row)
    services.swap_players(
        night=night, round_no=2, first=anna, second=ida, expected_plan=services.plan_version(night)
    )
    assert next(row.index("Ida") for row in seats(night, 2) if "Ida" in row) == where_anna
    # Nobody sits round 2 out to take Bo's seat: leaving would undo the swap, so it asks first.
    with pytest.raises(arrivals.UndoesSwap):
        arrivals.remove_for_remaining_rounds(night=night, player=bo)
    assert any("Bo" in row for row in seats(night, 2))
    arrivals.remove_for_remaining_rounds(night=night, player=bo, choice=services.REPLAN)
    assert not any("Bo" in row for row in seats(night, 2))
    assert not night.tables.filter(round_no=3).exists()


@pytest.mark.parametrize(
    ("lang", "heading", "line", "waiting"),
    [
        ("en", "Next round", "{name}: table {table}, {seat}", "Round 2 is planned when round 1 ends"),
        ("sv", "Nästa rond", "{name}: bord {table}, {seat}", "Rond 2 planeras när rond 1 är slut"),
        ("cs", "Další kolo", "{name}: stůl {table}, {seat}", "Kolo 2 se naplánuje, až skončí kolo 1"),
    ],
)
def test_a_finished_tables_link_says_where_its_players_go(club, alice, lang, heading, line, waiting):
    night = started_night(alice, "progressive")
    tables = list(NightTable.objects.filter(night=night, round_no=1).order_by("table_no"))
    play_out(tables[0])
    phone = Client()
    page = text(phone.get(f"/nights/t/{tables[0].token}/", headers={"Accept-Language": lang}))
    assert waiting in page and heading not in page
    play_out(tables[1])
    page = text(phone.get(f"/nights/t/{tables[0].token}/", headers={"Accept-Language": lang}))
    assert heading in page
    seat_names = {"en": {"N": "North", "E": "East", "S": "South", "W": "West"},
                  "sv": {"N": "Nord", "E": "Öst", "S": "Syd", "W": "Väst"},
                  "cs": {"N": "Sever", "E": "Východ", "S": "Jih", "W": "Západ"}}[lang]  # fmt: skip
    for seat in services.ordered_seats(tables[0]):
        moved = NightTable.objects.get(night=night, round_no=2, seats__player=seat.player)
        letter = moved.seats.get(player=seat.player).seat
        expected = line.format(name=seat.player.name, table=moved.table_no, seat=seat_names[letter])
        assert expected in page


@pytest.mark.parametrize(
    ("lang", "label"),
    [
        ("en", "Progressive: winners move up a table"),
        ("sv", "Progressiv: vinnarna flyttar upp ett bord"),
        ("cs", "Postupový: vítězové postupují o stůl výš"),
    ],
)
def test_the_opening_form_and_the_night_page_name_the_movement(club, alice, lang, label):
    form = text(alice.get(f"/nights/clubs/{CLUB}/new", headers={"Accept-Language": lang}))
    assert label in form
    night = started_night(alice, "progressive", players=4)
    assert label in text(alice.get(f"/nights/{night.pk}/", headers={"Accept-Language": lang}))


def test_a_movement_the_form_does_not_list_is_refused_and_nothing_opens(club, alice):
    data = {"played_on": "2026-03-05", "variant": "check", "deck": "single", "rounds": "3",
            "round_ends": "game", "movement": "sideways"}  # fmt: skip
    response = alice.post(f"/nights/clubs/{CLUB}/new", data)
    assert response.status_code == 400
    assert "Choose one of the movements listed." in text(response)
    assert not Night.objects.exists()


def test_a_rotating_nights_table_link_also_says_where_its_players_go_until_the_night_is_finished(club, alice):
    night = started_night(alice, "rotating")
    table = NightTable.objects.get(night=night, round_no=1, table_no=1)
    play_out(table)
    north = table.seats.get(seat="N").player
    moved = NightTable.objects.get(night=night, round_no=2, seats__player=north)
    seat = moved.seats.get(player=north).get_seat_display()
    phone = Client()
    page = text(phone.get(f"/nights/t/{table.token}/"))
    assert f"{north.name}: table {moved.table_no}, {seat}" in page
    alice.post(f"/nights/{night.pk}/finish", {"finished": "yes", "confirm": "yes"})
    assert "Next round" not in text(phone.get(f"/nights/t/{table.token}/"))


def test_the_next_round_waits_for_the_other_sides_ok_of_a_last_hand(club, alice):
    # With the opponents' OK on, a table whose last hand is not yet confirmed has not ended: the
    # other side may still say "Not right", and nobody is moved on a result that may change.
    Club.objects.filter(pk=CLUB).update(confirm_hands=True)
    night = started_night(alice, "progressive")
    games = [play_out(NightTable.objects.get(night=night, round_no=1, table_no=n)) for n in (1, 2)]
    assert all(game.finished and game.unconfirmed_hands for game in games)
    assert seats(night, 2) == []
    page = text(alice.get(f"/nights/{night.pk}/"))
    assert "Round 2 is planned when round 1 ends: tables 1, 2 are still playing." in page
    for game in games:
        for hand in game.hands.order_by("number"):
            confirm_hand(game=game, number=hand.number)
    assert len(seats(night, 2)) == 2  # the last OK planned round 2


def night_queries(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries if 'FROM "nights_' in q["sql"] or 'UPDATE "nights_' in q["sql"]]


def test_a_hand_saved_at_a_table_in_play_asks_nothing_of_the_night_until_the_table_ends(club, alice):
    Club.objects.filter(pk=CLUB).update(confirm_hands=True)
    night = started_night(alice, "progressive")
    game = NightTable.objects.get(night=night, round_no=1, table_no=1).game
    assert game is not None
    with CaptureQueriesContext(connection) as playing:
        record_hand(game=game, number=1, data=HAND)
    assert night_queries(playing) == []
    with CaptureQueriesContext(connection) as confirming:
        confirm_hand(game=game, number=1)  # the game goes on: nothing to plan
    assert night_queries(confirming) == []
    number = 2
    while not game.finished:  # the last hand ends the game, but it waits for the other side's OK
        with CaptureQueriesContext(connection) as playing:
            record_hand(game=game, number=number, data=HAND)
        assert night_queries(playing) == []
        if not game.finished:
            confirm_hand(game=game, number=number)
        number += 1
    with CaptureQueriesContext(connection) as confirming:
        confirm_hand(game=game, number=number - 1)  # the table has ended: the night looks at its round
    assert night_queries(confirming)


def test_a_correction_at_a_table_in_play_asks_nothing_of_the_night(club, alice):
    # The table had not ended and does not end with the correction (nor with the deletion of its
    # last hand): nothing about the night's plan can change, so the night is not asked.
    night = started_night(alice, "progressive")
    game = NightTable.objects.get(night=night, round_no=1, table_no=1).game
    assert game is not None
    record_hand(game=game, number=1, data=HAND)
    record_hand(game=game, number=2, data=quick_hand(ns_tricks=20))
    with CaptureQueriesContext(connection) as correcting:
        edit_hand(game=game, number=1, data=quick_hand(ns_tricks=20))
    assert not game.finished and game.hands.get(number=1).data["tricks"]["NS"] == 20
    assert night_queries(correcting) == []
    with CaptureQueriesContext(connection) as deleting:
        delete_last_hand(game=game)
    assert not game.finished and game.hand_count == 1
    assert night_queries(deleting) == []


def swapped_in_round_two(alice: Client, night: Night) -> tuple[Player, Player]:
    """The organiser swaps two players of different tables in the planned round 2."""
    first, second = seats(night, 2)[:2]
    a, b = Player.objects.get(name=first[0]), Player.objects.get(name=second[1])
    response = alice.post(
        f"/nights/{night.pk}/swap",
        {"plan": services.plan_version(night), "round": "2", "first": a.pk, "second": b.pk},
    )
    assert response.status_code == 302
    return a, b


def test_a_late_arrival_who_would_undo_a_swap_is_refused_with_the_choice(club, alice):
    night = started_night(alice, "progressive")
    for table in NightTable.objects.filter(night=night, round_no=1):
        play_out(table)
    swapped_in_round_two(alice, night)
    planned, version = seats(night, 2), services.plan_version(night)
    ida = Player.objects.get(name="Ida")
    response = alice.post(f"/nights/{night.pk}/late", {"late-player": ida.pk})
    assert response.status_code == 400
    page = text(response)
    assert "Round 2 was changed by hand (a swap). Seating Ida in it means planning it again" in page
    assert "undoes that swap: nothing was changed." in page
    assert (
        "Plan round 2 again with Ida (undoes the swap)" in page
        and "Ida sits out round 2 (the swap stays)" in page
    )
    assert seats(night, 2) == planned and services.plan_version(night) == version
    assert not night.players.filter(player=ida).exists()
    # The organiser chooses: Ida sits out round 2, the swap stays.
    response = alice.post(f"/nights/{night.pk}/late", {"late-player": ida.pk, "choice": "sit_out"})
    assert response.status_code == 302
    assert "Ida plays from round 3." in text(alice.get(f"/nights/{night.pk}/"))
    assert seats(night, 2) == planned
    assert list(night.byes.filter(round_no=2).values_list("player__name", flat=True)) == ["Ida"]


def test_a_late_arrival_replans_the_round_only_when_the_organiser_says_so(club, alice):
    night = started_night(alice, "progressive")
    for table in NightTable.objects.filter(night=night, round_no=1):
        play_out(table)
    swapped_in_round_two(alice, night)
    ida = Player.objects.get(name="Ida")
    response = alice.post(f"/nights/{night.pk}/late", {"late-player": ida.pk, "choice": "replan"})
    assert response.status_code == 302
    assert any("Ida" in row for row in seats(night, 2))  # planned again by the movement


def test_a_late_arrival_without_a_swap_is_seated_by_the_movement_as_before(club, alice):
    night = started_night(alice, "progressive")
    for table in NightTable.objects.filter(night=night, round_no=1):
        play_out(table)
    ida = Player.objects.get(name="Ida")
    assert alice.post(f"/nights/{night.pk}/late", {"late-player": ida.pk}).status_code == 302
    assert any("Ida" in row for row in seats(night, 2))


def check_night_of_eleven(club: Club, alice: Client) -> Night:
    """A Check Pinochle night of 11 (tables of four) whose round 1 is over: 3 sit out round 2."""
    for name in ("Jan", "Kai", "Lou"):
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    data = {"played_on": "2026-03-05", "variant": "check", "deck": "single", "rounds": "3",
            "round_ends": "hands", "hands_per_round": "1", "movement": "progressive"}  # fmt: skip
    assert alice.post(f"/nights/clubs/{CLUB}/new", data).status_code == 302
    night = Night.objects.latest("pk")
    for name in [*NAMES, "Jan", "Kai"]:
        player = Player.objects.get(name=name)
        assert alice.post(f"/nights/{night.pk}/check-in/{player.pk}", {"present": "yes"}).status_code == 302
    assert alice.post(f"/nights/{night.pk}/draw").status_code == 302
    assert alice.post(f"/nights/{night.pk}/rounds/1/start").status_code == 302
    for table in NightTable.objects.filter(night=night, round_no=1).select_related("game"):
        assert table.game is not None
        record_hand(game=table.game, number=1, data=CHECK_HANDS[0])
    return night


def test_a_late_arrival_makes_a_table_with_those_who_sit_out_and_the_swap_stays(club, alice):
    # The late arrival makes a table of four with the 3 who sit out round 2, and nobody the
    # organiser swapped moves.
    night = check_night_of_eleven(club, alice)
    sitting_out = list(night.byes.filter(round_no=2).values_list("player__name", flat=True))
    assert len(sitting_out) == 3
    swapped_in_round_two(alice, night)
    planned = seats(night, 2)
    lou = Player.objects.get(name="Lou")
    response = alice.post(f"/nights/{night.pk}/late", {"late-player": lou.pk})
    assert response.status_code == 302
    assert "Lou plays from round 2." in text(alice.get(f"/nights/{night.pk}/"))
    assert seats(night, 2) == [*planned, [*sitting_out, "Lou"]]
    assert not night.byes.filter(round_no=2).exists()


@pytest.mark.parametrize(
    ("lang", "movement", "rotate"),
    [
        ("en", "This night's movement (Progressive: winners move up a table) plans each round from",
         "so that partners still rotate"),
        ("sv", "Kvällens förflyttning (Progressiv: vinnarna flyttar upp ett bord) planerar varje omgång",
         "partnerna fortfarande roterar"),
        ("cs", "Přesuny tohoto večera (Postupový: vítězové postupují o stůl výš) plánují každé kolo",
         "aby se spoluhráči dál střídali"),
    ],
)  # fmt: skip
def test_the_night_page_says_what_a_leaver_changes_on_a_movement_night(club, alice, lang, movement, rotate):
    night = started_night(alice, "progressive")
    page = text(alice.get(f"/nights/{night.pk}/", headers={"Accept-Language": lang}))
    assert html.unescape(movement) in html.unescape(page) and rotate not in page
    rotating = started_night(alice, "rotating")
    assert rotate in text(alice.get(f"/nights/{rotating.pk}/", headers={"Accept-Language": lang}))


@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "{name}: has left"), ("sv", "{name}: har gått hem"), ("cs", "{name}: už nehraje")],
)
def test_a_finished_tables_link_says_who_has_left(club, alice, lang, line):
    night = started_night(alice, "rotating")
    table = NightTable.objects.get(night=night, round_no=1, table_no=1)
    leaver = table.seats.get(seat="E").player
    assert alice.post(f"/nights/{night.pk}/leave", {"leave-player": leaver.pk}).status_code == 302
    play_out(table)
    page = text(Client().get(f"/nights/t/{table.token}/", headers={"Accept-Language": lang}))
    assert line.format(name=leaver.name) in page
    north = table.seats.get(seat="N").player
    assert north.name + ":" in page and line.format(name=north.name) not in page


def test_a_leaver_keeps_the_swap_when_someone_who_sits_out_takes_the_seat(club, alice):
    night = check_night_of_eleven(club, alice)
    swapped_in_round_two(alice, night)
    planned = seats(night, 2)
    first_out, *others_out = (
        night.byes.filter(round_no=2).order_by("id").values_list("player__name", flat=True)
    )
    leaver = Player.objects.get(name=planned[1][2])
    assert alice.post(f"/nights/{night.pk}/leave", {"leave-player": leaver.pk}).status_code == 302
    planned[1][2] = first_out  # the first who sat out takes the seat; nobody else moves
    assert seats(night, 2) == planned
    assert list(night.byes.filter(round_no=2).values_list("player__name", flat=True)) == others_out
    # One who sits out leaves: nobody moves at all.
    gone = Player.objects.get(name=others_out[0])
    assert alice.post(f"/nights/{night.pk}/leave", {"leave-player": gone.pk}).status_code == 302
    assert seats(night, 2) == planned
    assert list(night.byes.filter(round_no=2).values_list("player__name", flat=True)) == others_out[1:]


def test_a_leaver_who_would_undo_a_swap_is_refused_with_the_choice(club, alice):
    night = started_night(alice, "progressive")
    for table in NightTable.objects.filter(night=night, round_no=1):
        play_out(table)
    swapped_in_round_two(alice, night)
    planned = seats(night, 2)
    leaver = Player.objects.get(name=planned[0][1])
    response = alice.post(f"/nights/{night.pk}/leave", {"leave-player": leaver.pk})
    assert response.status_code == 400
    page = text(response)
    assert (
        f"Round 2 was changed by hand (a swap), and nobody sits it out to take the seat of {leaver.name}."
        in page
    )
    assert f"Plan round 2 again without {leaver.name} (undoes the swap)" in page
    assert seats(night, 2) == planned and night.players.get(player=leaver).until_round is None
    response = alice.post(f"/nights/{night.pk}/leave", {"leave-player": leaver.pk, "choice": "replan"})
    assert response.status_code == 302
    assert not any(leaver.name in row for row in seats(night, 2))
