"""A hand sent twice (a double tap, or a phone resending after a lost answer) is one hand."""

import uuid

import pytest

from scoring.models import Hand
from scoring.services.hands import record_hand
from tests.helpers import WORKED_EXAMPLE, check_game, hand_post, quick_hand, save_url, standard_game, text

pytestmark = pytest.mark.django_db


def test_it_returns_the_stored_hand_for_a_known_submission():
    game = standard_game()
    submission = uuid.uuid4()
    first = record_hand(game=game, number=1, data=quick_hand(), submission_id=submission)
    again = record_hand(game=game, number=1, data=quick_hand(), submission_id=submission)
    assert again.hand.pk == first.hand.pk
    assert Hand.objects.filter(game=game).count() == 1


def test_a_resent_form_is_answered_as_saved_not_as_a_conflict(table_client):
    client = table_client
    game = check_game()
    post = hand_post(1)
    assert client.post(save_url(game), post).status_code == 302
    response = client.post(save_url(game), post, follow=True)
    page = text(response)
    assert "Hand 1 saved." in page
    assert "was just saved on another phone" not in page
    assert Hand.objects.filter(game=game).count() == 1


def test_a_late_resend_after_the_next_hand_is_still_the_same_hand(table_client):
    client = table_client
    """The answer to hand 1 was lost, the phone reloaded and saved hand 2, then the browser
    resent hand 1's form: it is the hand already stored, not a conflict and not a third hand."""
    game = check_game()
    first = hand_post(1)
    client.post(save_url(game), first)
    client.post(save_url(game), hand_post(2))
    response = client.post(save_url(game), first)
    assert response.status_code == 302
    assert list(Hand.objects.filter(game=game).values_list("number", flat=True)) == [1, 2]


def test_a_resent_last_hand_of_a_finished_game_is_saved_not_refused(table_client):
    client = table_client
    game = standard_game(target=30)
    post = hand_post(1, {**WORKED_EXAMPLE, "meld_mode": "points", "meld_points_N": "25"})
    assert client.post(save_url(game), post).status_code == 302
    game.refresh_from_db()
    assert game.finished
    assert client.post(save_url(game), post).status_code == 302
    assert Hand.objects.filter(game=game).count() == 1


def test_the_same_submission_for_another_game_is_a_new_hand(table_client):
    client = table_client
    one, two = check_game(), check_game()
    post = hand_post(1)
    client.post(save_url(one), post)
    client.post(save_url(two), post)
    assert Hand.objects.filter(submission_id=post["submission_id"]).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_form_saved_meanwhile_is_answered_as_saved_and_keeps_its_meld_entry(monkeypatch):
    """The save lost the race to the same form sent at once (a unique constraint refused it and
    its transaction rolled back): it is answered with the hand saved, and the meld entry the
    table chose is kept, written in a transaction of its own."""
    from django.db import connection

    from scoring.models import Game
    from scoring.services import hands

    game = standard_game()
    submission = uuid.uuid4()
    first = record_hand(game=game, number=1, data=quick_hand(), submission_id=submission)
    in_transaction: list[bool] = []
    keep = hands._keep_meld_mode

    def watched(game: Game, mode: str | None) -> None:
        in_transaction.append(connection.in_atomic_block)
        keep(game, mode)

    monkeypatch.setattr(hands, "_keep_meld_mode", watched)
    repeat = hands._saved_meanwhile(game, submission, quick_hand(), "points")
    assert repeat is not None and repeat.hand.pk == first.hand.pk
    assert in_transaction == [True]
    assert Game.objects.get(pk=game.pk).meld_mode == "points"
    assert hands._saved_meanwhile(game, uuid.uuid4(), quick_hand(), "items") is None
    assert Game.objects.get(pk=game.pk).meld_mode == "points"
