"""The opponents' OK of each hand and both sides' signatures at the end (a club's rule, copied to
the game): the phone shows the saved hand for the other side's OK or Not right (a correction of that
hand); the history marks hands not yet confirmed; the finished game is signed by each side, and a
signed game is locked for the table's phone (refused server-side, nothing written) while an
organiser still corrects it, named in the audit trail. All without JavaScript."""

from __future__ import annotations

import dataclasses
import datetime
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Club
from scoring.models import Game, GameSignature, Hand, HandChange
from scoring.selectors.board import scoreboard
from scoring.selectors.confirm import confirming_sides, finality
from scoring.services.confirm import CannotSign, confirm_hand, sign_game
from scoring.services.games import create_game
from scoring.services.hands import delete_last_hand, edit_hand, record_hand
from tests.access_helpers import CLUB, client_with_token, in_club
from tests.helpers import found, hand_post, quick_hand, text

pytestmark = pytest.mark.django_db


def signed_sides(game: Game) -> set[str]:
    return set(GameSignature.objects.filter(game=game).values_list("side", flat=True))


NS_MAKES = quick_hand(bidder="N", ns_meld=10, ns_tricks=15)
EW_MAKES = {"bidder": "E", "bid": 20, "meld_points": {"NS": 0, "EW": 10}, "tricks": {"NS": 10, "EW": 15}}
PLAYERS = {"N": "Anna", "E": "Bo", "S": "Cecilia", "W": "David"}


def seen_on(page: Any) -> str:
    """The hand the OK button names (its hidden `seen`): what the other side checked."""
    return found(r'name="seen" value="([^"]*)"', page.content.decode())


def club_game(*, deals: int | None = 2, confirm: bool = True, sign: bool = True) -> Game:
    game = create_game(
        seats=4, variant="standard", deck="single", target=None, min_bid=None, first_dealer="N",
        meld_needs_trick=False, players=PLAYERS, deals=deals, confirm_hands=confirm, sign_at_end=sign,
    )  # fmt: skip
    return in_club(game, CLUB)


def signed_game() -> Game:
    game = club_game()
    for number, hand in enumerate([NS_MAKES, EW_MAKES], start=1):
        record_hand(game=game, number=number, data=hand)
        confirm_hand(game=game, number=number)
    sign_game(game=game, side="NS")
    sign_game(game=game, side="EW")
    game.refresh_from_db()
    return game


# --- services ----------------------------------------------------------------------------------


def test_the_defenders_confirm_a_bid_hand_and_the_side_that_did_not_deal_a_passed_one():
    game = club_game()
    assert confirming_sides(game, 1, NS_MAKES) == ["EW"]
    assert confirming_sides(game, 1, EW_MAKES) == ["NS"]
    # No bidder: the side that did not deal (hand 1: North deals, hand 2: East).
    assert confirming_sides(game, 1, {"passed": True}) == ["EW"]
    assert confirming_sides(game, 2, {"passed": True}) == ["NS"]


def test_a_saved_hand_waits_for_its_ok_and_a_correction_waits_again():
    game = club_game(deals=None)
    record_hand(game=game, number=1, data=NS_MAKES)
    game.refresh_from_db()
    assert game.unconfirmed_hands == 1
    assert confirm_hand(game=game, number=1)
    assert not confirm_hand(game=game, number=1)  # once is enough
    game.refresh_from_db()
    assert game.unconfirmed_hands == 0
    edit_hand(game=game, number=1, data=EW_MAKES)
    game.refresh_from_db()
    assert game.unconfirmed_hands == 1
    edit_hand(game=game, number=1, data=NS_MAKES, confirmed=True)  # an organiser's word is final
    game.refresh_from_db()
    assert game.unconfirmed_hands == 0


def game_row_writes(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].startswith('UPDATE "scoring_game"')]


def test_a_save_a_correction_and_an_undo_each_write_the_game_row_once_with_the_count_of_waiting_hands():
    game = club_game(deals=None)
    record_hand(game=game, number=1, data=NS_MAKES)
    with CaptureQueriesContext(connection) as saving:
        record_hand(game=game, number=2, data=EW_MAKES)
    assert len(game_row_writes(saving)) == 1
    assert Game.objects.get(pk=game.pk).unconfirmed_hands == 2
    with CaptureQueriesContext(connection) as confirming:
        confirm_hand(game=game, number=2)
    assert len(game_row_writes(confirming)) == 1
    with CaptureQueriesContext(connection) as correcting:
        edit_hand(game=game, number=2, data=NS_MAKES)
    assert len(game_row_writes(correcting)) == 1
    assert Game.objects.get(pk=game.pk).unconfirmed_hands == 2
    with CaptureQueriesContext(connection) as undoing:
        delete_last_hand(game=game)
    assert len(game_row_writes(undoing)) == 1
    assert Game.objects.get(pk=game.pk).unconfirmed_hands == 1


def test_a_game_without_the_rule_has_nothing_to_confirm_or_sign():
    game = club_game(confirm=False, sign=False)
    record_hand(game=game, number=1, data=NS_MAKES)
    game.refresh_from_db()
    assert game.unconfirmed_hands == 0
    assert not confirm_hand(game=game, number=1)
    with pytest.raises(CannotSign):
        sign_game(game=game, side="NS")


def test_signing_needs_the_game_over_its_hands_confirmed_and_each_side_once():
    game = club_game()
    record_hand(game=game, number=1, data=NS_MAKES)
    with pytest.raises(CannotSign) as refused:
        sign_game(game=game, side="NS")
    assert refused.value.reason == "not_over"
    record_hand(game=game, number=2, data=EW_MAKES)
    with pytest.raises(CannotSign) as refused:
        sign_game(game=game, side="NS")
    assert refused.value.reason == "unconfirmed"
    confirm_hand(game=game, number=1)
    confirm_hand(game=game, number=2)
    assert sign_game(game=game, side="NS") is False
    with pytest.raises(CannotSign):
        sign_game(game=game, side="NS")
    assert sign_game(game=game, side="EW") is True
    game.refresh_from_db()
    assert signed_sides(game) == {"NS", "EW"} and game.signed_at is not None


# --- the phone's pages, without JavaScript -----------------------------------------------------


def test_the_phone_shows_the_saved_hand_for_the_other_sides_ok(people):
    game = club_game()
    phone = client_with_token(game)
    page = phone.post(f"/g/{game.code}/hands", hand_post(1), follow=True)
    words = text(page)
    assert "Hand 1 saved: is it right?" in words
    assert "Pass the phone to E–W (Bo & David)" in words
    assert "Totals after:" in words  # the hand as the engine scored it
    assert "not yet confirmed" in words  # the history's mark
    assert 'name="submission_id"' not in page.content.decode()  # no next hand before the OK

    page = phone.post(f"/g/{game.code}/hands/1/confirm", {"seen": seen_on(page)}, follow=True)
    words = text(page)
    assert "Hand 1 confirmed." in words
    assert "not yet confirmed" not in words
    assert 'name="submission_id"' in page.content.decode()  # the next hand's entry
    assert Hand.objects.get(game=game, number=1).confirmed_at is not None


def test_not_right_takes_the_table_to_the_correction_of_that_hand(people):
    game = club_game()
    phone = client_with_token(game)
    phone.post(f"/g/{game.code}/hands", hand_post(1))
    before = Hand.objects.get(game=game, number=1).data

    page = phone.post(f"/g/{game.code}/hands/1/not-right", follow=True)
    assert page.redirect_chain[-1][0] == f"/g/{game.code}/hands/1/"
    assert "Hand 1 is not right, says the other side" in text(page)
    assert Hand.objects.get(game=game, number=1).data == before  # nothing written
    assert 'name="bid" value="' in page.content.decode()  # the hand's values on the form

    corrected = hand_post(1, bid="25")
    page = phone.post(f"/g/{game.code}/hands/1/", corrected, follow=True)
    assert "Hand 1 corrected." in text(page)
    change = HandChange.objects.get(game=game, action=HandChange.Action.EDIT)
    assert change.old_data == before and change.actor_label == "device"
    # The corrected hand goes back to the other side for their OK.
    assert "Hand 1 saved: is it right?" in text(page)


def test_both_sides_sign_the_finished_game_on_the_phone(people):
    game = club_game()
    phone = client_with_token(game)
    for number in (1, 2):
        page = phone.post(f"/g/{game.code}/hands", hand_post(number), follow=True)
        phone.post(f"/g/{game.code}/hands/{number}/confirm", {"seen": seen_on(page)})
    page = phone.get(f"/g/{game.code}/")
    assert "Sign for N–S (Anna & Cecilia)" in text(page)
    assert "Sign for E–W (Bo & David)" in text(page)

    page = phone.post(f"/g/{game.code}/sign", {"side": "NS"}, follow=True)
    assert "N–S signed." in text(page)
    assert "N–S (Anna & Cecilia) signed at" in text(page)
    assert "(the scoring phone)" in text(page)  # no account: the phone that holds the game signed
    signature = GameSignature.objects.get(game=game)
    assert signature.side == "NS" and signature.signer is None and signature.signer_label == "device"
    page = phone.post(f"/g/{game.code}/sign", {"side": "EW"}, follow=True)
    words = text(page)
    assert "Signed by both sides: the game is final." in words
    assert "Signed by both sides at" in words and "only an organiser can change it" in words
    assert "Edit hand" not in words and "Delete hand" not in words  # the edit controls are gone
    game.refresh_from_db()
    assert signed_sides(game) == {"NS", "EW"} and game.signed_at is not None


def test_a_signed_game_refuses_the_phones_correction_and_takes_the_organisers(people):
    game = signed_game()
    phone = client_with_token(game)
    before = Hand.objects.get(game=game, number=1).data

    page = phone.post(f"/g/{game.code}/hands/1/", hand_post(1, bid="25"), follow=True)
    assert "only an organiser can change it" in text(page)
    assert Hand.objects.get(game=game, number=1).data == before
    assert not HandChange.objects.filter(game=game).exists()
    assert phone.post(f"/g/{game.code}/hands/last/delete", {"number": "2"}).status_code == 302
    assert Game.objects.get(pk=game.pk).hand_count == 2

    alice = people.client("alice")
    page = alice.post(f"/g/{game.code}/hands/1/", hand_post(1, bid="25"), follow=True)
    assert "Hand 1 corrected." in text(page)
    change = HandChange.objects.get(game=game, action=HandChange.Action.EDIT)
    assert change.actor_label == "alice" and change.old_data == before
    assert Hand.objects.get(game=game, number=1).confirmed_at is not None  # her word is final


def test_a_signature_keeps_when_and_which_account_signed(people):
    game = club_game()
    for number, hand in enumerate([NS_MAKES, EW_MAKES], start=1):
        record_hand(game=game, number=number, data=hand)
        confirm_hand(game=game, number=number)
    alice = people.client("alice")
    page = alice.post(f"/g/{game.code}/sign", {"side": "EW"}, follow=True)
    assert "E–W signed." in text(page)
    signature = GameSignature.objects.get(game=game)
    assert signature.signer == people["alice"] and signature.signer_label == "alice"
    assert signature.side == "EW" and signature.signed_at is not None
    assert "E–W (Bo & David) signed at" in text(page) and "(alice)" in text(page)
    assert "Sign for N–S (Anna & Cecilia)" in text(page)


@pytest.mark.parametrize("side", [None, "", "XX", "N", "NS EW"])
def test_a_sign_without_one_of_the_games_sides_says_so_and_writes_nothing(people, side):
    game = club_game()
    for number, hand in enumerate([NS_MAKES, EW_MAKES], start=1):
        record_hand(game=game, number=number, data=hand)
        confirm_hand(game=game, number=number)
    before = Game.objects.filter(pk=game.pk).values().get()
    phone = client_with_token(game)
    response = phone.post(f"/g/{game.code}/sign", {} if side is None else {"side": side})
    assert response.status_code == 302
    page = phone.get(response["Location"])
    assert "Nothing signed: choose the side that signs." in text(page)
    assert signed_sides(game) == set()
    assert Game.objects.filter(pk=game.pk).values().get() == before


CHECK_AGAIN = "Nothing confirmed: the OK did not say which hand you checked. Check the hand again and tap OK."


def game_rows(game: Game) -> tuple[object, ...]:
    return (Game.objects.filter(pk=game.pk).values().get(), list(Hand.objects.filter(game=game).values()))


@pytest.mark.parametrize("seen", [None, "", "12", "ok", "0123456789ABCDEF", "0123456789abcdef0", "x" * 5000])
def test_an_ok_that_does_not_say_which_hand_was_checked_says_so_and_writes_nothing(people, seen):
    game = club_game()
    phone = client_with_token(game)
    phone.post(f"/g/{game.code}/hands", hand_post(1))
    before = game_rows(game)
    response = phone.post(f"/g/{game.code}/hands/1/confirm", {} if seen is None else {"seen": seen})
    assert response.status_code == 302 and response["Location"] == f"/g/{game.code}/"
    words = text(phone.get(response["Location"]))
    assert CHECK_AGAIN in words and "Hand 1 saved: is it right?" in words  # asked again
    assert game_rows(game) == before


def test_an_ok_naming_another_hand_or_a_hand_not_there_confirms_nothing(people):
    game = club_game()
    phone = client_with_token(game)
    first = seen_on(phone.post(f"/g/{game.code}/hands", hand_post(1), follow=True))
    phone.post(f"/g/{game.code}/hands/1/confirm", {"seen": first})
    phone.post(f"/g/{game.code}/hands", hand_post(2, bid="25"))
    before = game_rows(game)
    page = phone.post(f"/g/{game.code}/hands/2/confirm", {"seen": first}, follow=True)  # hand 1's
    assert "Hand 2 was changed meanwhile: nothing is confirmed. Check it again and tap OK." in text(page)
    page = phone.post(f"/g/{game.code}/hands/9/confirm", {"seen": first}, follow=True)
    assert "Hand 9 has nothing to confirm." in text(page)
    assert game_rows(game) == before


@pytest.mark.parametrize(
    "back", ["https://elsewhere.example/", "//elsewhere.example/", "javascript:alert(1)", "/" + "x" * 300]
)
def test_an_ok_goes_back_only_to_a_page_of_this_site(people, back):
    game = club_game()
    phone = client_with_token(game)
    page = phone.post(f"/g/{game.code}/hands", hand_post(1), follow=True)
    response = phone.post(f"/g/{game.code}/hands/1/confirm", {"seen": seen_on(page), "next": back})
    assert response.status_code == 302 and response["Location"] == f"/g/{game.code}/"
    assert Hand.objects.get(game=game, number=1).confirmed_at is not None


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("sv", "Inget bekräftat: OK sa inte vilken giv ni kontrollerade. "
               "Kontrollera given igen och tryck på OK."),
        ("cs", "Nic nepotvrzeno: OK neuvedlo, které rozdání jste zkontrolovali. "
               "Zkontrolujte rozdání znovu a klepněte na OK."),
    ],
)  # fmt: skip
def test_an_ok_without_its_hand_says_so_in_each_language(people, language, said):
    game = club_game()
    phone = client_with_token(game)
    phone.cookies["django_language"] = language
    phone.post(f"/g/{game.code}/hands", hand_post(1))
    assert said in text(phone.post(f"/g/{game.code}/hands/1/confirm", follow=True))


def test_the_page_reads_the_ok_and_the_signatures_from_one_frozen_answer(people):
    game = club_game()
    record_hand(game=game, number=1, data=NS_MAKES)
    board = scoreboard(game)
    final = finality(game, board, scoring=True, may_sign=lambda: True, sign_url="/sign")
    assert final.unconfirmed == {1} and final.awaiting is not None and final.awaiting.number == 1
    assert final.signing is None and final.signed_note == ""  # not over yet
    with pytest.raises(dataclasses.FrozenInstanceError):
        final.awaiting = None  # type: ignore[misc]
    game = signed_game()
    final = finality(game, scoreboard(game), scoring=True, may_sign=lambda: True, sign_url="/sign")
    assert final.awaiting is None and final.signing is not None
    assert [(side.side, side.by) for side in final.signing.sides] == [
        ("NS", "the scoring phone"),
        ("EW", "the scoring phone"),
    ]
    assert "Signed by both sides at" in final.signed_note


def test_a_scorer_cannot_sign_for_a_game_that_does_not_ask_for_it(people):
    game = club_game(sign=False)
    for number, hand in enumerate([NS_MAKES, EW_MAKES], start=1):
        record_hand(game=game, number=number, data=hand)
        confirm_hand(game=game, number=number)
    bob = people.client("bob")
    bob.post(f"/g/{game.code}/sign", {"side": "NS"})
    assert signed_sides(game) == set()
    assert "Sign for" not in text(bob.get(f"/g/{game.code}/"))


@pytest.mark.parametrize(
    ("language", "confirm", "signed"),
    [
        ("en", "is it right?", "only an organiser can change it"),
        ("sv", "stämmer den?", "bara en arrangör kan ändra det"),
        ("cs", "je v pořádku?", "změnit ji může jen organizátor"),
    ],
)
def test_the_texts_in_each_language(people, language, confirm, signed):
    game = club_game()
    phone = client_with_token(game)
    phone.cookies["django_language"] = language
    phone.post(f"/g/{game.code}/hands", hand_post(1))
    assert confirm in text(phone.get(f"/g/{game.code}/"))
    locked = signed_game()
    other = client_with_token(locked)
    other.cookies["django_language"] = language
    assert signed in text(other.get(f"/g/{locked.code}/"))


# --- the club's settings and the night's standings ---------------------------------------------


def test_the_clubs_settings_are_copied_to_the_games_its_night_starts(people):
    from ledger.selectors import night_figures
    from nights import arrivals, rounds, services
    from nights.models import Night
    from tests.ledger_helpers import roster

    alice = people.client("alice")
    page = alice.post(f"/clubs/{CLUB}/settings/", {"confirm_hands": "on", "sign_at_end": "on"}, follow=True)
    assert "Settings saved: games started from now on follow them." in text(page)
    club = Club.objects.get(pk=CLUB)
    assert club.confirm_hands and club.sign_at_end
    assert people.client("charlie").get(f"/clubs/{CLUB}/settings/").status_code == 403

    night = services.open_night(
        club=club, season=None, played_on=datetime.date(2026, 11, 5), variant="standard", deck="single",
        target=None, min_bid=None, meld_needs_trick=False, rounds=1, round_ends=Night.RoundEnds.HANDS,
        hands_per_round=1, stake_per_chip=None, stake_per_win=Decimal("1.00"), created_by=None,
    )  # fmt: skip
    for player in roster(club, "Anna", "Bo", "Cleo", "Dan"):
        arrivals.set_checked_in(night=night, player=player, present=True)
    services.draw_plan(night=night)
    [game] = rounds.start_round(night=night, round_no=1)
    assert game.confirm_hands and game.sign_at_end

    record_hand(game=game, number=1, data=NS_MAKES)  # the round's only hand: the game is over
    page = alice.get(f"/nights/{night.pk}/standings/")
    words = text(page)
    assert "Round 1: waiting for table 1's confirmation of a hand." in words
    assert "N–S won" not in words
    # The money waits with the standings: no game won, nothing owed for it yet.
    figures = night_figures([night])[night.pk]
    assert sum(figures.wins.values()) == 0
    assert not any(figures.amounts.values())

    confirm_hand(game=Game.objects.get(pk=game.pk), number=1)
    words = text(alice.get(f"/nights/{night.pk}/standings/"))
    assert "waiting for table 1" not in words
    assert "N–S won" in words
    figures = night_figures([night])[night.pk]
    assert sum(figures.wins.values()) == 2
    assert sum(figures.amounts.values()) == 0 and any(figures.amounts.values())
