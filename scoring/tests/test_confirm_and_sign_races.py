"""What the opponents' OK and the signatures hold against: an OK sent for a hand that another phone
corrected meanwhile confirms nothing, and a signature only ever stands for the result it signed (a
side that signed signs again once its game's result changes, and a game reopened is signed no more)."""

from __future__ import annotations

import re

import pytest

from scoring.models import Game, GameSignature, Hand
from scoring.services.confirm import confirm_hand, sign_game
from scoring.services.hands import delete_last_hand, edit_hand, record_hand
from scoring.tests.test_confirm_and_sign import EW_MAKES, NS_MAKES, club_game, signed_game
from tests.access_helpers import client_with_token
from tests.helpers import hand_post, text

pytestmark = pytest.mark.django_db


def signed_sides(game: Game) -> set[str]:
    return set(GameSignature.objects.filter(game=game).values_list("side", flat=True))


def test_an_ok_sent_for_a_hand_corrected_meanwhile_confirms_nothing(people):
    game = club_game()
    phone = client_with_token(game)
    phone.post(f"/g/{game.code}/hands", hand_post(1))
    shown = phone.get(f"/g/{game.code}/").content.decode()
    seen = re.search(r'name="seen" value="([^"]+)"', shown)
    assert seen is not None  # the OK names the hand as the other side saw it
    # Meanwhile another phone of the table corrects hand 1 (it waits for the OK again).
    edit_hand(game=Game.objects.get(pk=game.pk), number=1, data=EW_MAKES)

    page = phone.post(f"/g/{game.code}/hands/1/confirm", {"seen": seen.group(1)}, follow=True)
    assert "Hand 1 was changed meanwhile" in text(page)
    assert Hand.objects.get(game=game, number=1).confirmed_at is None
    assert Game.objects.get(pk=game.pk).unconfirmed_hands == 1
    # The page now shows the corrected hand, and its OK confirms it.
    seen = re.search(r'name="seen" value="([^"]+)"', page.content.decode())
    assert seen is not None
    phone.post(f"/g/{game.code}/hands/1/confirm", {"seen": seen.group(1)})
    assert Hand.objects.get(game=game, number=1).confirmed_at is not None


def test_a_side_that_signed_signs_again_once_the_result_changes():
    game = club_game()
    for number, hand in enumerate([NS_MAKES, EW_MAKES], start=1):
        record_hand(game=game, number=number, data=hand)
        confirm_hand(game=game, number=number)
    assert sign_game(game=game, side="NS") is False
    # An organiser takes the last hand back and the table plays another one.
    delete_last_hand(game=game)
    game.refresh_from_db()
    assert signed_sides(game) == set() and game.signed_at is None
    record_hand(game=game, number=2, data=NS_MAKES)
    confirm_hand(game=game, number=2)
    assert sign_game(game=game, side="EW") is False  # N–S signed another result: they sign again
    game.refresh_from_db()
    assert signed_sides(game) == {"EW"} and game.signed_at is None


def test_a_correction_of_a_half_signed_game_asks_for_the_signature_again():
    game = club_game()
    for number, hand in enumerate([NS_MAKES, EW_MAKES], start=1):
        record_hand(game=game, number=number, data=hand)
        confirm_hand(game=game, number=number)
    sign_game(game=game, side="NS")
    edit_hand(game=game, number=1, data=EW_MAKES, confirmed=True)
    game.refresh_from_db()
    assert signed_sides(game) == set()


def test_a_signed_game_an_organiser_reopens_is_no_longer_signed_and_the_table_plays_on(people):
    game = signed_game()
    delete_last_hand(game=game)
    game.refresh_from_db()
    assert not game.finished
    assert game.signed_at is None and signed_sides(game) == set()
    phone = client_with_token(game)
    page = phone.post(f"/g/{game.code}/hands", hand_post(2), follow=True)
    assert "only an organiser can change it" not in text(page)
    assert Game.objects.get(pk=game.pk).hand_count == 2


def test_an_organisers_correction_of_a_signed_game_that_stays_over_keeps_it_signed():
    game = signed_game()
    edit_hand(game=game, number=1, data=NS_MAKES | {"bid": 25}, confirmed=True)
    game.refresh_from_db()
    assert game.finished and game.signed_at is not None and signed_sides(game) == {"NS", "EW"}


def test_a_signed_game_an_organisers_settings_change_reopens_is_no_longer_signed():
    from scoring.game_settings import NewSettings, change_settings
    from scoring.services.results import players_of

    game = signed_game()
    new = NewSettings(
        players=players_of(game), first_dealer=game.first_dealer, target=game.target, min_bid=game.min_bid,
        meld_needs_trick=game.meld_needs_trick, deals=3,
    )  # fmt: skip
    change_settings(game=game, new=new, expected=None, actor=None)
    game = Game.objects.get(pk=game.pk)
    assert not game.finished
    assert game.signed_at is None and signed_sides(game) == set()


def test_a_scorer_signs_nothing_on_a_night_its_organiser_finished(people):
    from clubs.models import Club
    from nights import rounds
    from nights.tests.test_round_control import games, open_night, save_hand
    from tests.access_helpers import CLUB

    Club.objects.filter(pk=CLUB).update(sign_at_end=True)
    night = open_night("hands", hands=1)
    game = save_hand(games(night)[0])
    assert game.finished and game.sign_at_end
    rounds.finish_night(night=night)
    bob = people.client("bob")  # a scorer of the club
    page = bob.post(f"/g/{game.code}/sign", {"side": "NS"}, follow=True)
    assert "N–S signed." not in text(page)
    assert signed_sides(game) == set()
