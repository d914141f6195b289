"""Two phones saving at the same moment, on a real database (SQLite file or PostgreSQL):
one wins, the other is told, and nothing is stored twice."""

import threading
import uuid

import pytest
from django.db import connection
from django.test import Client

from scoring.models import Hand
from tests.helpers import check_game, hand_post, save_url, table_user, text

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 4


def at_once(posts: list[dict[str, str]], url: str) -> list[tuple[int, str]]:
    """POST each form from its own thread (own client, own database connection), together."""
    barrier = threading.Barrier(len(posts))
    answers: list[tuple[int, str]] = [(0, "")] * len(posts)

    def phone(index: int) -> None:
        try:
            client = Client()
            client.force_login(table_user())  # the games' creator: each phone may enter hands
            barrier.wait(timeout=10)
            response = client.post(url, posts[index])
            answers[index] = (response.status_code, text(response) if response.status_code == 200 else "")
        finally:
            connection.close()

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(len(posts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def test_two_phones_saving_the_same_hand_number_one_wins_the_other_gets_the_conflict():
    game = check_game(target=1000)
    for number in range(1, ROUNDS + 1):
        answers = at_once([hand_post(number), hand_post(number, bid="31")], save_url(game))
        statuses = sorted(status for status, _page in answers)
        assert statuses == [200, 302], answers
        loser = next(page for status, page in answers if status == 200)
        assert f"Hand {number} was just saved on another phone; yours was not saved." in loser
        assert Hand.objects.filter(game=game).count() == number


def test_a_double_tap_racing_itself_is_one_hand_and_both_taps_are_answered_as_saved():
    game = check_game(target=1000)
    for number in range(1, ROUNDS + 1):
        post = hand_post(number, submission_id=str(uuid.uuid4()))
        answers = at_once([post, post], save_url(game))
        assert [status for status, _page in answers] == [302, 302], answers
        assert Hand.objects.filter(game=game).count() == number
