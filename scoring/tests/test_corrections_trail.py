import pytest
from django.test import Client

from scoring.audit import Actor, club_corrections, corrected_hand_numbers, game_corrections
from scoring.diff import change_rows
from scoring.models import HandChange
from scoring.permissions import actor_for
from scoring.rules.errors import RecordError
from scoring.services.hands import delete_last_hand, edit_hand
from tests.access_helpers import (
    CLUB,
    HAND_1,
    HAND_2,
    OTHER_CLUB,
    client_with_token,
    in_club,
    make_game,
    request_as,
)

pytestmark = pytest.mark.django_db

CORRECTED = {**HAND_1, "bid": 30}


def test_it_keeps_the_old_and_new_hand_of_an_edit_and_who_made_it(people):
    alice = people["alice"]
    game = make_game(hands=2)
    edit_hand(game=game, number=1, data=CORRECTED, actor=Actor.of_user(alice))
    (change,) = game_corrections(game)
    assert change.action == "edit"
    assert change.hand_number == 1
    assert change.old_data == HAND_1
    assert change.new_data == CORRECTED
    assert change.actor == alice
    assert change.actor_label == "alice"
    assert corrected_hand_numbers(game) == {1}


def test_it_keeps_a_deleted_hand_and_names_the_device():
    game = make_game(hands=2)
    delete_last_hand(game=game, actor=actor_for(request_as()))
    (change,) = game_corrections(game)
    assert (change.action, change.hand_number, change.old_data, change.new_data) == (
        "delete",
        2,
        HAND_2,
        None,
    )
    assert change.actor is None
    assert change.actor_label == "device"


def test_it_records_nothing_for_a_refused_or_empty_change():
    game = make_game(hands=1)
    with pytest.raises(RecordError):
        edit_hand(game=game, number=1, data={**HAND_1, "tricks": {"NS": 1, "EW": 1}})
    edit_hand(game=game, number=1, data=dict(HAND_1))
    assert delete_last_hand(game=make_game()) is None
    assert not HandChange.objects.exists()


def test_it_still_works_without_an_actor():
    game = make_game(hands=1)
    edit_hand(game=game, number=1, data=CORRECTED)
    assert game_corrections(game).get().actor_label == ""


def test_it_lists_every_correction_of_a_club_newest_first():
    game = in_club(make_game(hands=2), CLUB)
    elsewhere = in_club(make_game(hands=2), CLUB + 1)
    edit_hand(game=game, number=1, data=CORRECTED)
    delete_last_hand(game=elsewhere)
    delete_last_hand(game=game)
    assert [(c.action, c.hand_number) for c in club_corrections(CLUB)] == [("delete", 2), ("edit", 1)]
    assert make_game().hand_changes.count() == 0


def test_it_shows_the_history_side_by_side(people):
    game = make_game(hands=2)
    alice = people["alice"]
    edit_hand(game=game, number=1, data=CORRECTED, actor=Actor.of_user(alice))
    delete_last_hand(game=game)
    page = client_with_token(game).get(f"/g/{game.code}/history/").content.decode()
    assert "Hand 1 corrected by alice" in page
    assert "Hand 2 deleted by someone unknown" in page
    assert "<del>25</del>" in page
    assert "<ins>30</ins>" in page
    assert page.index("Hand 2 deleted") < page.index("Hand 1 corrected")


def test_it_keeps_the_history_from_strangers(people):
    game = make_game(hands=1)
    stranger = Client().get(f"/g/{game.code}/history/")
    assert stranger.status_code == 403
    assert "Another phone keeps the score of this game" in stranger.content.decode()
    charlie = people.client("charlie")
    assert charlie.get(f"/g/{game.code}/history/").status_code == 403


def test_it_says_so_when_nothing_was_corrected():
    game = make_game(hands=1)
    page = client_with_token(game).get(f"/g/{game.code}/history/").content.decode()
    assert "No hand of this game has been corrected" in page


def test_it_lays_out_a_change_as_labelled_rows():
    old = {
        "bidder": "N",
        "bid": 25,
        "melds": {"N": ["run", "trump_marriage"]},
        "tricks": {"NS": 15, "EW": 10},
    }
    new = {
        "bidder": "N",
        "bid": 30,
        "melds": {"N": ["run"]},
        "tricks": {"NS": 15, "EW": 10},
        "conceded": True,
    }
    rows = [(row.field, row.before, row.after, row.changed) for row in change_rows(old, new)]
    assert rows == [
        ("Bidder", "North", "North", False),
        ("Bid", "25", "30", True),
        ("Melds North", "Run, Trump marriage", "Run", True),
        ("Trick points N–S", "15", "15", False),
        ("Trick points E–W", "10", "10", False),
        ("Conceded", "—", "yes", True),
    ]
    assert [row.after for row in change_rows({"passed": True}, None)] == ["—"]


def test_it_lists_seats_and_sides_in_table_order_whatever_order_the_hand_was_stored_in():
    """PostgreSQL's jsonb gives a hand's keys back in an order of its own (E before N, EW before NS)."""
    stored = {
        "tricks": {"EW": 10, "NS": 15},
        "melds": {"W": ["dix"], "S": ["aces"], "E": ["kings"], "N": ["run"]},
    }
    fields = [row.field for row in change_rows(stored, None)]
    assert fields == [
        "Melds North", "Melds East", "Melds South", "Melds West", "Trick points N–S", "Trick points E–W",
    ]  # fmt: skip


def test_it_names_the_scoring_phone_and_unknown_actors():
    game = make_game(hands=2)
    edit_hand(game=game, number=1, data=CORRECTED, actor=Actor.device())
    delete_last_hand(game=game)
    assert [c.actor_name() for c in game_corrections(game)] == ["someone unknown", "the scoring phone"]


def test_it_shows_an_organiser_every_correction_in_the_club(people):
    game = in_club(make_game(hands=2), CLUB)
    edit_hand(game=game, number=1, data=CORRECTED, actor=Actor.of_user(people["bob"]))
    alice = people.client("alice")
    page = alice.get(f"/games/clubs/{CLUB}/corrections/").content.decode()
    assert "Hand 1 corrected by bob" in page
    assert f"/g/{game.code}/history/" in page
    assert alice.get(f"/games/clubs/{OTHER_CLUB}/corrections/").status_code == 403


def test_it_says_so_when_a_club_has_no_corrections(people):
    alice = people.client("alice")
    assert "No hand in this club" in alice.get(f"/games/clubs/{CLUB}/corrections/").content.decode()


@pytest.mark.parametrize("persona", ["bob", "charlie", "dave"])
def test_it_keeps_the_club_corrections_from_everyone_but_its_organisers(persona, people):
    client = people.client(persona)
    assert client.get(f"/games/clubs/{CLUB}/corrections/").status_code == 403
    assert Client().get(f"/games/clubs/{CLUB}/corrections/").status_code == 302


def test_it_pages_a_long_list_of_club_corrections(people):
    game = in_club(make_game(hands=1), CLUB)
    HandChange.objects.bulk_create(
        HandChange(game=game, club_id=CLUB, hand_number=1, action="edit", old_data=HAND_1, new_data=CORRECTED)
        for _ in range(51)
    )
    alice = people.client("alice")
    first = alice.get(f"/games/clubs/{CLUB}/corrections/").content.decode()
    assert "Page 1 of 2" in first
    assert first.count('class="change"') == 50
    assert alice.get(f"/games/clubs/{CLUB}/corrections/?page=2").content.decode().count('class="change"') == 1
