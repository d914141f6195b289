"""Round control once its night is over: an organiser's stale page cannot call or take back the
last hand of a finished night (nothing written, a clear message)."""

from __future__ import annotations

import pytest

from nights import rounds
from nights.models import Night
from nights.tests.test_round_control import games, open_night, save_hand
from scoring.models import Game
from tests.access_helpers import CLUB
from tests.helpers import text

pytestmark = pytest.mark.django_db


def test_a_finished_nights_last_hand_is_not_taken_back(people):
    night = open_night()
    first, _second = games(night)
    save_hand(first)
    rounds.call_last_hand(night=night)
    rounds.finish_night(night=night)
    before = Game.objects.get(pk=first.pk).last_hand_from
    alice = people.organiser_of(CLUB)
    page = alice.post(f"/nights/{night.pk}/last-hand", {"take_back": "yes"}, follow=True)
    assert "is taken back" not in text(page)
    assert "finished" in text(page)
    night = Night.objects.get(pk=night.pk)
    assert night.last_hand_round == 1 and night.last_hand_called_at is not None
    assert Game.objects.get(pk=first.pk).last_hand_from == before


def test_a_second_call_of_the_last_hand_keeps_the_first_and_a_table_that_ended_bars_the_take_back(people):
    night = open_night()
    first, second = games(night)
    save_hand(first)
    rounds.call_last_hand(night=night)
    first = save_hand(first)
    assert first.finished  # its last hand: the table's game is over
    # A second tap on Last hand (a stale page) then Take back: the ended table would stay ended
    # while the round goes on.
    assert rounds.call_last_hand(night=night) == 1
    alice = people.organiser_of(CLUB)
    page = alice.post(f"/nights/{night.pk}/last-hand", {"take_back": "yes"}, follow=True)
    assert "A table has saved a hand since the last hand was called" in text(page)
    assert Night.objects.get(pk=night.pk).last_hand_round == 1
    assert Game.objects.get(pk=second.pk).last_hand_from is not None
