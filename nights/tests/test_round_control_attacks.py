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
