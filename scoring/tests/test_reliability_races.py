"""Delete-last and correct race a save, on a real database (SQLite file or
PostgreSQL; the CI runs this on both). Each phone posts from its own thread and connection, let
go together by a barrier, many times over. Whoever loses is told so in words (never a 500), no
hand is both "saved" and "deleted", and what is stored is what the winners were told."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client

from scoring.models import Hand
from scoring.services.hands import record_hand
from tests.helpers import check_game, hand_post, save_url, table_user, text

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 30


def together(requests: list[tuple[str, dict[str, str]]]) -> list[tuple[int, str]]:
    """POST each (url, form) from its own thread, client and connection, at the same moment;
    answers as (status, page text after following the redirect)."""
    user = table_user()
    barrier = threading.Barrier(len(requests))
    answers: list[tuple[int, str]] = [(0, "")] * len(requests)

    def phone(index: int) -> None:
        try:
            client = Client(raise_request_exception=False)
            client.force_login(user)
            url, form = requests[index]
            barrier.wait(timeout=10)
            response = client.post(url, form, follow=True)
            answers[index] = (response.status_code, text(response))
        finally:
            connection.close()

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def two_hand_game():
    game = check_game(target=1000)
    record_hand(game=game, number=1, data={"passed": True})
    record_hand(game=game, number=2, data={"passed": True})
    return game


def test_deleting_the_last_hand_while_another_phone_saves_the_next_never_loses_the_saved_hand():
    outcomes = set()
    for _round in range(ROUNDS):
        game = two_hand_game()
        delete = (f"/g/{game.code}/hands/last/delete", {"number": "2"})
        save = (save_url(game), hand_post(3))
        (delete_status, deleter), (save_status, saver) = together([delete, save])
        assert (delete_status, save_status) == (200, 200), (deleter, saver)
        numbers = list(Hand.objects.filter(game=game).values_list("number", flat=True))
        saved, deleted = "Hand 3 saved." in saver, "Hand 2 deleted." in deleter
        assert "Hand 3 deleted." not in deleter
        assert saved != deleted, (deleter, saver)  # exactly one phone wins
        if saved:
            assert "Nothing deleted: the last hand is now hand 3." in deleter
            assert numbers == [1, 2, 3]
        else:
            assert "a hand was deleted, so the next hand is 2, not 3" in saver
            assert numbers == [1]
        outcomes.add("saved" if saved else "deleted")
    assert outcomes  # at least one round ran; which phone wins is up to the scheduler


def test_correcting_a_hand_while_another_phone_deletes_it_is_answered_in_words_never_500():
    corrected_bid = {**hand_post(2), "bid": "33"}
    for _round in range(ROUNDS):
        game = two_hand_game()
        delete = (f"/g/{game.code}/hands/last/delete", {"number": "2"})
        correct = (f"/g/{game.code}/hands/2/", corrected_bid)
        (delete_status, deleter), (correct_status, corrector) = together([delete, correct])
        assert (delete_status, correct_status) == (200, 200), (deleter, corrector)
        assert "Hand 2 deleted." in deleter  # the delete saw hand 2 as the last either way
        hands = {hand.number: hand.data for hand in Hand.objects.filter(game=game)}
        assert list(hands) == [1]
        assert ("Hand 2 corrected." in corrector) != (
            "Nothing corrected: hand 2 no longer exists (another phone deleted it)." in corrector
        ), corrector
