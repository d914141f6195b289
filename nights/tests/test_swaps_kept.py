"""An organiser's swap in a round not started is never undone without a word: not by a note or a
correction saved at a table of the round before, not by a last hand taken back and saved again,
not by a late arrival or a leaver on a rotating night, and not by a tap on a stale page."""

from __future__ import annotations

import html

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs.models import Club, Membership, Player
from nights import services
from nights.models import Night, NightTable
from nights.tests.test_movement_nights import (
    HAND,
    NAMES,
    play_out,
    seats,
    started_night,
    swapped_in_round_two,
)
from scoring.filing import set_game_details
from scoring.models import Game
from scoring.services.confirm import confirm_hand
from scoring.services.hands import delete_last_hand, edit_hand, record_hand
from tests.access_helpers import CLUB
from tests.helpers import text

pytestmark = pytest.mark.django_db

# The last hand of a game corrected so that East-West win it (and the game) instead.
EW_WIN = {"bidder": "E", "bid": 20, "meld_points": {"NS": 0, "EW": 80}, "tricks": {"NS": 0, "EW": 25}}


@pytest.fixture
def club(people) -> Club:
    club = Club.objects.get(pk=CLUB)
    for name in NAMES:
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    return club


def round_one_over(alice: Client, movement: str = "progressive") -> tuple[Night, list[Game]]:
    night = started_night(alice, movement)
    games = [
        play_out(table) for table in NightTable.objects.filter(night=night, round_no=1).order_by("table_no")
    ]
    return night, games


def page(alice: Client, night: Night) -> str:
    return text(alice.get(f"/nights/{night.pk}/"))


def test_a_note_saved_on_a_game_of_the_round_before_keeps_the_swap(club, alice):
    night, games = round_one_over(alice)
    swapped_in_round_two(alice, night)
    planned, version = seats(night, 2), services.plan_version(night)
    game = games[0]
    set_game_details(
        game=game, club=game.club, season=game.season, played_on=game.played_on, note="Cold hall"
    )
    assert seats(night, 2) == planned and services.plan_version(night) == version
    assert "A result of round 1 changed" not in page(alice, night)


def test_a_note_saved_writes_nothing_on_a_round_nobody_swapped(club, alice):
    night, games = round_one_over(alice)
    planned = seats(night, 2)
    game = games[1]
    with CaptureQueriesContext(connection) as saving:
        set_game_details(
            game=game, club=game.club, season=game.season, played_on=game.played_on, note="Table by the door"
        )
    writes = [
        q["sql"] for q in saving.captured_queries if q["sql"].startswith(("INSERT", "UPDATE", "DELETE"))
    ]
    assert not [sql for sql in writes if "nights_" in sql]
    assert seats(night, 2) == planned


def test_an_organisers_correction_to_the_same_result_keeps_the_swap(club, alice):
    night, games = round_one_over(alice)
    swapped_in_round_two(alice, night)
    planned = seats(night, 2)
    edit_hand(game=games[0], number=1, data=HAND, confirmed=True)  # the same hand again
    assert seats(night, 2) == planned
    assert "A result of round 1 changed" not in page(alice, night)


def test_a_corrected_result_keeps_the_swap_and_the_page_asks_until_the_organiser_answers(club, alice):
    night, games = round_one_over(alice)
    swapped_in_round_two(alice, night)
    planned = seats(night, 2)
    game = games[0]
    edit_hand(game=game, number=game.hands.count(), data=EW_WIN, confirmed=True)
    game.refresh_from_db()
    assert game.winner == "EW"
    assert seats(night, 2) == planned  # the organiser's round stays
    notice = (
        "A result of round 1 changed after you changed round 2 by hand (a swap). Round 2 stays as you "
        "changed it; the movement would now seat it differently."
    )
    shown = page(alice, night)
    assert notice in shown
    assert (
        "Keep round 2 as it is" in shown and "Plan round 2 again from the results (undoes the swap)" in shown
    )
    assert notice in page(alice, night)  # still there on the next visit
    # A tap from a page drawn before another swap changes nothing.
    stale = services.plan_version(night)
    a, b = Player.objects.get(name=planned[0][0]), Player.objects.get(name=planned[0][1])
    services.swap_players(night=night, round_no=2, first=a, second=b)
    planned = seats(night, 2)
    response = alice.post(
        f"/nights/{night.pk}/changed-results", {"choice": "replan", "plan": stale}, follow=True
    )
    assert "The plan changed since this page was drawn: nothing was changed." in text(response)
    assert seats(night, 2) == planned
    response = alice.post(
        f"/nights/{night.pk}/changed-results",
        {"choice": "keep", "plan": services.plan_version(night)},
        follow=True,
    )
    assert "Round 2 stays as you changed it." in text(response)
    assert seats(night, 2) == planned and notice not in text(response)


def test_the_organiser_can_plan_the_round_again_after_a_corrected_result(club, alice):
    night, games = round_one_over(alice)
    swapped_in_round_two(alice, night)
    planned = seats(night, 2)
    game = games[0]
    edit_hand(game=game, number=game.hands.count(), data=EW_WIN, confirmed=True)
    response = alice.post(
        f"/nights/{night.pk}/changed-results",
        {"choice": "replan", "plan": services.plan_version(night)},
        follow=True,
    )
    shown = text(response)
    assert "Round 2 is planned again from the results; the swap made in it is undone." in shown
    assert seats(night, 2) != planned and "A result of round 1 changed" not in shown


def test_a_corrected_result_still_replans_a_round_nobody_swapped(club, alice):
    night, games = round_one_over(alice)
    planned = seats(night, 2)
    game = games[0]
    edit_hand(game=game, number=game.hands.count(), data=EW_WIN, confirmed=True)
    assert seats(night, 2) != planned
    assert "A result of round 1 changed" not in page(alice, night)


def test_a_last_hand_taken_back_and_saved_again_keeps_the_swap(club, alice):
    night, games = round_one_over(alice, "fixed")
    swapped_in_round_two(alice, night)
    planned = seats(night, 2)
    game = games[1]
    delete_last_hand(game=game)  # the table plays again: the organiser's round waits as it is
    assert seats(night, 2) == planned
    shown = page(alice, night)
    waits = "Round 2 stays as you changed it and can start when round 1 ends: table 2 is playing again."
    assert waits in shown
    assert "Start round 2" not in shown
    response = alice.post(f"/nights/{night.pk}/rounds/2/start", follow=True)
    assert "table 2 is playing again" in text(response)
    assert not night.tables.filter(round_no=2, game__isnull=False).exists()
    record_hand(game=game, number=game.hands.count() + 1, data=HAND)
    assert seats(night, 2) == planned
    assert "Start round 2" in page(alice, night)


def test_a_finished_tables_link_sends_nobody_to_a_kept_round_while_a_table_plays_again(club, alice):
    night, games = round_one_over(alice, "fixed")
    swapped_in_round_two(alice, night)
    finished = NightTable.objects.get(night=night, round_no=1, table_no=1)
    phone = Client()
    assert "Next round" in text(phone.get(f"/nights/t/{finished.token}/"))
    assert "Round 2: where to sit" in text(alice.get(f"/nights/{night.pk}/board/"))
    game = games[1]
    delete_last_hand(game=game)  # table 2 plays again: round 2 may yet be planned again
    assert "Round 2: where to sit" not in text(alice.get(f"/nights/{night.pk}/board/"))  # nor the wall
    wall = text(alice.get(f"/nights/{night.pk}/plan"))  # the plan on the wall says why, to the players
    assert "Round 2 waits until table 2 of round 1 has ended again." in wall
    assert (
        "stays as you changed it" not in wall and "Gus" not in wall.split("Round 2", 1)[1].split("Round 3")[0]
    )
    shown = text(phone.get(f"/nights/t/{finished.token}/"))
    assert (
        "Round 2 waits until table 2 of round 1 has ended again. Where you sit next shows here then." in shown
    )
    assert "Next round" not in shown and ": table 1, " not in shown and ": table 2, " not in shown
    record_hand(game=game, number=game.hands.count() + 1, data=HAND)
    shown = text(phone.get(f"/nights/t/{finished.token}/"))
    assert "Next round" in shown and "Round 2 waits" not in shown


@pytest.mark.parametrize(
    ("lang", "waits"),
    [
        ("en", "Round 2 stays as you changed it and can start when round 1 ends: "
               "table 1 waits for the other side's OK."),
        ("sv", "Omgång 2 står kvar som du ändrade den och kan börja när omgång 1 är slut: "
               "bord 1 väntar på andra sidans OK."),
        ("cs", "Kolo 2 zůstává, jak jste ho změnili, a může začít, až skončí kolo 1: "
               "stůl 1 čeká na potvrzení druhé strany."),
    ],
)  # fmt: skip
def test_a_result_corrected_at_the_table_waits_for_the_other_sides_ok_and_the_page_says_so(
    club, alice, lang, waits
):
    Club.objects.filter(pk=CLUB).update(confirm_hands=True)
    night, games = round_one_over(alice)
    for game in games:
        for hand in game.hands.order_by("number"):
            confirm_hand(game=game, number=hand.number)
    swapped_in_round_two(alice, night)
    planned = seats(night, 2)
    game = games[0]
    edit_hand(game=game, number=game.hands.count(), data=EW_WIN)  # waits for North-South's OK
    game.refresh_from_db()
    assert game.finished and game.unconfirmed_hands
    assert seats(night, 2) == planned
    language = {"Accept-Language": lang}
    assert waits in html.unescape(text(alice.get(f"/nights/{night.pk}/", headers=language)))
    response = alice.post(f"/nights/{night.pk}/rounds/2/start", follow=True, headers=language)
    assert waits in html.unescape(text(response)) and "playing again" not in text(response)
    assert not night.tables.filter(round_no=2, game__isnull=False).exists()


def test_the_page_tells_a_table_playing_again_from_one_waiting_for_the_other_sides_ok(club, alice):
    Club.objects.filter(pk=CLUB).update(confirm_hands=True)
    night = started_night(alice, "fixed")
    games = [
        play_out(table) for table in NightTable.objects.filter(night=night, round_no=1).order_by("table_no")
    ]
    for game in games:
        for hand in game.hands.order_by("number"):
            confirm_hand(game=game, number=hand.number)
    swapped_in_round_two(alice, night)
    edit_hand(game=games[0], number=games[0].hands.count(), data=EW_WIN)
    delete_last_hand(game=games[1])
    assert (
        "Round 2 stays as you changed it and can start when round 1 ends: table 2 is playing again. "
        "Table 1 waits for the other side's OK." in html.unescape(page(alice, night))
    )


def test_a_late_arrival_who_sits_out_to_keep_a_swap_stays_out_after_a_note(club, alice):
    night, games = round_one_over(alice)
    swapped_in_round_two(alice, night)
    planned = seats(night, 2)
    ida = Player.objects.get(name="Ida")
    response = alice.post(f"/nights/{night.pk}/late", {"late-player": ida.pk})
    plan = services.plan_version(night)
    assert f'name="plan" value="{plan}"' in response.content.decode()
    response = alice.post(
        f"/nights/{night.pk}/late", {"late-player": ida.pk, "choice": "sit_out", "plan": plan}
    )
    assert response.status_code == 302
    game = games[0]
    set_game_details(
        game=game, club=game.club, season=game.season, played_on=game.played_on, note="Ida came late"
    )
    edit_hand(game=game, number=1, data=HAND, confirmed=True)
    assert seats(night, 2) == planned
    assert list(night.byes.filter(round_no=2).values_list("player__name", flat=True)) == ["Ida"]


def test_a_choice_from_a_stale_page_changes_nothing(club, alice):
    night, _games = round_one_over(alice)
    swapped_in_round_two(alice, night)
    ida = Player.objects.get(name="Ida")
    stale = services.plan_version(night)
    swapped_in_round_two(alice, night)  # another swap meanwhile, from another phone
    planned = seats(night, 2)
    response = alice.post(
        f"/nights/{night.pk}/late", {"late-player": ida.pk, "choice": "replan", "plan": stale}
    )
    assert response.status_code == 400
    assert "The plan changed since this page was drawn: nothing was changed." in text(response)
    assert seats(night, 2) == planned and not night.players.filter(player=ida).exists()
    leaver = Player.objects.get(name=planned[0][1])
    response = alice.post(
        f"/nights/{night.pk}/leave", {"leave-player": leaver.pk, "choice": "replan", "plan": stale}
    )
    assert response.status_code == 400
    assert "The plan changed since this page was drawn: nothing was changed." in text(response)
    assert seats(night, 2) == planned


def swapped_back(alice: Client, night: Night, a: Player, b: Player) -> None:
    response = alice.post(
        f"/nights/{night.pk}/swap",
        {"plan": services.plan_version(night), "round": "2", "first": b.pk, "second": a.pk},
    )
    assert response.status_code == 302


def test_a_corrected_result_replans_a_round_swapped_back_without_asking(club, alice):
    night, games = round_one_over(alice)
    planned = seats(night, 2)
    a, b = swapped_in_round_two(alice, night)
    swapped_back(alice, night, a, b)
    assert seats(night, 2) == planned  # as the movement planned it
    game = games[0]
    edit_hand(game=game, number=game.hands.count(), data=EW_WIN, confirmed=True)
    assert seats(night, 2) != planned  # planned again from the results, as for any round
    assert "A result of round 1 changed" not in page(alice, night)


def test_a_late_arrival_on_a_rotating_night_asks_nothing_of_a_round_swapped_back(club, alice):
    night = started_night(alice, "rotating")
    planned = seats(night, 2)
    a, b = swapped_in_round_two(alice, night)
    swapped_back(alice, night, a, b)
    assert seats(night, 2) == planned
    ida = Player.objects.get(name="Ida")
    response = alice.post(f"/nights/{night.pk}/late", {"late-player": ida.pk})
    assert response.status_code == 302
    assert "Ida plays from round 2." in page(alice, night)
    assert any("Ida" in row for row in seats(night, 2))


def test_a_round_swapped_twice_but_not_back_still_counts_as_changed_by_hand(club, alice):
    night = started_night(alice, "rotating")
    swapped_in_round_two(alice, night)
    first, second = seats(night, 2)[:2]
    c, d = Player.objects.get(name=first[2]), Player.objects.get(name=second[3])
    services.swap_players(night=night, round_no=2, first=c, second=d)  # two others: not the draw's round
    ida = Player.objects.get(name="Ida")
    response = alice.post(f"/nights/{night.pk}/late", {"late-player": ida.pk})
    assert response.status_code == 400
    assert "Round 2 was changed by hand (a swap)." in text(response)


@pytest.mark.parametrize(
    ("movement", "says"),
    [
        ("progressive", "The swap stays: a late arrival, a leaver or a corrected result of the round before"),
        ("rotating", "; the later rounds are drawn again."),
    ],
)
def test_the_swap_message_says_what_the_nights_movement_does(club, alice, movement, says):
    night = started_night(alice, movement)
    if movement != "rotating":
        for table in NightTable.objects.filter(night=night, round_no=1):
            play_out(table)
    swapped_in_round_two(alice, night)
    shown = page(alice, night)
    assert says in shown
    assert movement == "rotating" or "drawn again" not in shown.split("swapped in round 2")[1][:200]


# --- a rotating night ------------------------------------------------------------------------------


def test_a_late_arrival_on_a_rotating_night_asks_before_undoing_a_swap(club, alice):
    night = started_night(alice, "rotating")
    swapped_in_round_two(alice, night)
    planned, version = seats(night, 2), services.plan_version(night)
    ida = Player.objects.get(name="Ida")
    response = alice.post(f"/nights/{night.pk}/late", {"late-player": ida.pk})
    assert response.status_code == 400
    shown = text(response)
    assert (
        "Round 2 was changed by hand (a swap). Seating Ida in it means drawing the rounds not started "
        "again, which undoes that swap: nothing was changed." in shown
    )
    assert "Draw the rounds not started again with Ida (undoes the swap in round 2)" in shown
    assert "Ida sits out round 2 (the swap stays)" in shown
    assert seats(night, 2) == planned and services.plan_version(night) == version
    # The form's own button comes first: Enter taps it, and it undoes nothing.
    body = response.content.decode()
    form = body[body.index(f'action="/nights/{night.pk}/late"') :]
    assert form.index("Add for the remaining rounds") < form.index('value="replan"')
    response = alice.post(
        f"/nights/{night.pk}/late", {"late-player": ida.pk, "choice": "sit_out", "plan": version}
    )
    assert response.status_code == 302
    assert "Ida plays from round 3." in page(alice, night)
    assert seats(night, 2) == planned
    assert list(night.byes.filter(round_no=2).values_list("player__name", flat=True)) == ["Ida"]
    assert any("Ida" in row for row in seats(night, 3))


def test_a_late_arrival_on_a_rotating_night_replans_only_when_told(club, alice):
    night = started_night(alice, "rotating")
    swapped_in_round_two(alice, night)
    ida = Player.objects.get(name="Ida")
    response = alice.post(
        f"/nights/{night.pk}/late",
        {"late-player": ida.pk, "choice": "replan", "plan": services.plan_version(night)},
    )
    assert response.status_code == 302
    assert any("Ida" in row for row in seats(night, 2)) and any("Ida" in row for row in seats(night, 3))


def rotating_check_night_of_eleven(club: Club, alice: Client) -> Night:
    """A rotating Check Pinochle night of 11 at tables of four, round 1 started: 3 sit out a round."""
    for name in ("Jan", "Kai", "Lou"):
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    data = {"played_on": "2026-03-05", "variant": "check", "deck": "single", "rounds": "3",
            "round_ends": "hands", "hands_per_round": "1", "movement": "rotating"}  # fmt: skip
    assert alice.post(f"/nights/clubs/{CLUB}/new", data).status_code == 302
    night = Night.objects.latest("pk")
    for name in [*NAMES, "Jan", "Kai"]:
        player = Player.objects.get(name=name)
        assert alice.post(f"/nights/{night.pk}/check-in/{player.pk}", {"present": "yes"}).status_code == 302
    assert alice.post(f"/nights/{night.pk}/draw").status_code == 302
    assert alice.post(f"/nights/{night.pk}/rounds/1/start").status_code == 302
    return night


def test_a_late_arrival_on_a_rotating_night_keeps_a_swap_in_a_later_round(club, alice):
    night = rotating_check_night_of_eleven(club, alice)
    first, second = seats(night, 3)[:2]
    a, b = Player.objects.get(name=first[0]), Player.objects.get(name=second[1])
    services.swap_players(night=night, round_no=3, first=a, second=b)
    planned = seats(night, 3)
    sitting_out = list(night.byes.filter(round_no=3).order_by("id").values_list("player__name", flat=True))
    lou = Player.objects.get(name="Lou")
    response = alice.post(f"/nights/{night.pk}/late", {"late-player": lou.pk})
    assert response.status_code == 302
    assert "Lou plays from round 2." in page(alice, night)
    assert any("Lou" in row for row in seats(night, 2))  # round 2 drawn again with Lou
    assert seats(night, 3) == [*planned, [*sitting_out, "Lou"]]  # the swap in round 3 stays


def test_a_leaver_on_a_rotating_night_keeps_the_swap_when_someone_sits_out(club, alice):
    night = rotating_check_night_of_eleven(club, alice)
    swapped_in_round_two(alice, night)
    planned = seats(night, 2)
    first_out = night.byes.filter(round_no=2).order_by("id").values_list("player__name", flat=True)[0]
    leaver = Player.objects.get(name=planned[1][2])
    assert alice.post(f"/nights/{night.pk}/leave", {"leave-player": leaver.pk}).status_code == 302
    planned[1][2] = first_out
    assert seats(night, 2) == planned
    assert not any(leaver.name in row for row in seats(night, 3))


def test_a_leaver_on_a_rotating_night_asks_before_undoing_a_swap(club, alice):
    night = started_night(alice, "rotating")
    swapped_in_round_two(alice, night)
    planned = seats(night, 2)
    leaver = Player.objects.get(name=planned[0][1])
    response = alice.post(f"/nights/{night.pk}/leave", {"leave-player": leaver.pk})
    assert response.status_code == 400
    shown = text(response)
    assert (
        f"Drawing the rounds not started again without {leaver.name} undoes that swap: nothing was changed."
        in shown
    )
    assert f"Draw the rounds not started again without {leaver.name} (undoes the swap in round 2)" in shown
    assert seats(night, 2) == planned and night.players.get(player=leaver).until_round is None
    response = alice.post(
        f"/nights/{night.pk}/leave",
        {"leave-player": leaver.pk, "choice": "replan", "plan": services.plan_version(night)},
    )
    assert response.status_code == 302
    assert not any(leaver.name in row for row in seats(night, 2))


def test_a_late_arrival_makes_the_leftover_table_of_three_a_full_table_and_the_swap_stays(club, alice):
    # A Check Pinochle night of 11 whose leftovers play at a standard table: two tables of four
    # and one of three. The late arrival fills the table of three; nobody the organiser swapped moves.
    for name in ("Jan", "Kai", "Lou"):
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    data = {"played_on": "2026-03-05", "variant": "check", "deck": "single", "rounds": "3",
            "round_ends": "hands", "hands_per_round": "1", "movement": "rotating",
            "leftovers": "table"}  # fmt: skip
    assert alice.post(f"/nights/clubs/{CLUB}/new", data).status_code == 302
    night = Night.objects.latest("pk")
    assert night.leftover_table
    for name in [*NAMES, "Jan", "Kai"]:
        player = Player.objects.get(name=name)
        assert alice.post(f"/nights/{night.pk}/check-in/{player.pk}", {"present": "yes"}).status_code == 302
    assert alice.post(f"/nights/{night.pk}/draw").status_code == 302
    assert alice.post(f"/nights/{night.pk}/rounds/1/start").status_code == 302
    swapped_in_round_two(alice, night)
    planned = seats(night, 2)
    assert sorted(len(row) for row in planned) == [3, 4, 4]
    lou = Player.objects.get(name="Lou")
    response = alice.post(f"/nights/{night.pk}/late", {"late-player": lou.pk})
    assert response.status_code == 302
    assert seats(night, 2) == [[*row, "Lou"] if len(row) == 3 else row for row in planned]
    assert "Lou plays from round 2." in page(alice, night)


def rotating_night_of_four_rounds(alice: Client) -> Night:
    """A rotating night of 8 at tables of four over four rounds, round 1 started: nobody sits out."""

    """A rotating night of 8 players over four rounds, round 1 started."""
    data = {"played_on": "2026-03-05", "variant": "standard", "deck": "single", "rounds": "4",
            "round_ends": "game", "target": "100", "movement": "rotating"}  # fmt: skip
    assert alice.post(f"/nights/clubs/{CLUB}/new", data).status_code == 302
    night = Night.objects.latest("pk")
    for name in NAMES[:8]:
        player = Player.objects.get(name=name)
        assert alice.post(f"/nights/{night.pk}/check-in/{player.pk}", {"present": "yes"}).status_code == 302
    assert alice.post(f"/nights/{night.pk}/draw").status_code == 302
    assert alice.post(f"/nights/{night.pk}/rounds/1/start").status_code == 302
    return night


def swapped_in(night: Night, round_no: int) -> None:
    first, second = seats(night, round_no)[:2]
    a, b = Player.objects.get(name=first[0]), Player.objects.get(name=second[1])
    services.swap_players(night=night, round_no=round_no, first=a, second=b)


def test_a_late_arrival_who_would_undo_several_swaps_is_told_every_round_and_sits_them_all_out(club, alice):
    night = rotating_night_of_four_rounds(alice)
    swapped_in(night, 2)
    swapped_in(night, 3)
    planned = [seats(night, 2), seats(night, 3)]
    ida = Player.objects.get(name="Ida")
    response = alice.post(f"/nights/{night.pk}/late", {"late-player": ida.pk})
    assert response.status_code == 400
    shown = text(response)
    assert (
        "Rounds 2, 3 were changed by hand (swaps). Seating Ida in them means drawing the rounds not "
        "started again, which undoes those swaps: nothing was changed. Choose below." in shown
    )
    assert "Ida sits out rounds 2, 3 (the swaps stay)" in shown
    assert "Draw the rounds not started again with Ida (undoes the swaps in rounds 2, 3)" in shown
    response = alice.post(
        f"/nights/{night.pk}/late",
        {"late-player": ida.pk, "choice": "sit_out", "plan": services.plan_version(night)},
    )
    assert response.status_code == 302
    assert "Ida plays from round 4." in page(alice, night)
    assert [seats(night, 2), seats(night, 3)] == planned
    assert sorted(night.byes.filter(player=ida).values_list("round_no", flat=True)) == [2, 3]
    assert any("Ida" in row for row in seats(night, 4))


def test_a_late_arrival_is_never_offered_to_sit_out_every_round_left(club, alice):
    night = started_night(alice, "rotating")  # three rounds: 2 and 3 are left
    swapped_in(night, 2)
    swapped_in(night, 3)
    ida = Player.objects.get(name="Ida")
    response = alice.post(f"/nights/{night.pk}/late", {"late-player": ida.pk})
    assert response.status_code == 400
    assert "Rounds 2, 3 were changed by hand (swaps)." in text(response)
    assert 'value="sit_out"' not in response.content.decode()
    response = alice.post(
        f"/nights/{night.pk}/late",
        {"late-player": ida.pk, "choice": "sit_out", "plan": services.plan_version(night)},
    )
    assert response.status_code == 400  # asked again: nothing written
    assert not night.players.filter(player=ida).exists()


def test_a_leaver_who_would_undo_several_swaps_is_told_every_round(club, alice):
    night = rotating_night_of_four_rounds(alice)
    swapped_in(night, 2)
    swapped_in(night, 3)
    leaver = seats(night, 2)[0][1]
    response = alice.post(f"/nights/{night.pk}/leave", {"leave-player": Player.objects.get(name=leaver).pk})
    assert response.status_code == 400
    shown = text(response)
    assert (
        f"Rounds 2, 3 were changed by hand (swaps), and nobody sits them out to take the seat of {leaver}."
        in shown
    )
    assert f"Draw the rounds not started again without {leaver} (undoes the swaps in rounds 2, 3)" in shown


def swap_in_round(alice: Client, night: Night, round_no: int, status: int = 200) -> str:
    """The organiser swaps two players of different tables in round `round_no`: the page after."""
    first, second = seats(night, round_no)[:2]
    a, b = Player.objects.get(name=first[0]), Player.objects.get(name=second[1])
    response = alice.post(
        f"/nights/{night.pk}/swap",
        {"plan": services.plan_version(night), "round": str(round_no), "first": a.pk, "second": b.pk},
        follow=True,
    )
    assert response.status_code == status
    return text(response)


def test_a_swap_in_an_earlier_round_keeps_the_organisers_swap_in_a_later_one(club, alice):
    night = rotating_night_of_four_rounds(alice)
    swap_in_round(alice, night, 4)
    swapped_four = seats(night, 4)
    shown = swap_in_round(alice, night, 3)
    assert seats(night, 4) == swapped_four
    assert "swapped in round 3. Round 4 stays as you swapped it." in shown
    assert "the later rounds are drawn again" not in shown
    night.refresh_from_db()
    assert set(night.swapped_rounds) == {"3", "4"}


def test_the_rounds_between_two_swaps_are_drawn_again_and_the_message_says_which(club, alice):
    night = rotating_night_of_four_rounds(alice)
    swap_in_round(alice, night, 4)
    swapped_four = seats(night, 4)
    shown = swap_in_round(alice, night, 2)
    assert "swapped in round 2. Round 3 is drawn again. Round 4 stays as you swapped it." in shown
    assert seats(night, 4) == swapped_four
    night.refresh_from_db()
    assert set(night.swapped_rounds) == {"2", "4"}
    # Round 3 drawn around the swaps: every player plays it, once.
    assert sorted(name for table in seats(night, 3) for name in table) == sorted(NAMES[:8])


def test_a_swap_that_cannot_keep_a_later_swap_changes_nothing_and_says_why(club, alice):
    night = rotating_night_of_four_rounds(alice)
    swap_in_round(alice, night, 4)
    version = services.plan_version(night)
    # A player checked in behind the plan's back (as a hand-edited database would): round 4, kept
    # as swapped, would not seat them.
    night.players.create(player=Player.objects.get(name="Ida"))
    shown = swap_in_round(alice, night, 3, status=400)
    assert (
        "Round 4 was changed by hand (a swap) but does not seat every player checked in, so it "
        "cannot stay as it is: nothing was swapped." in shown
    )
    assert services.plan_version(night) == version
