"""A game whose settings were changed after Start comes back from a backup as it was: its
settings, names, totals and the settings change in its corrections trail (hand number 0)."""

import io

import pytest
from django.core.management import call_command

from scoring import game_settings
from scoring.audit import Actor
from scoring.models import Game, HandChange
from scoring.services.hands import record_hand
from tests.helpers import PLAYERS, quick_hand, standard_game

from .backup_files import fresh_database

pytestmark = pytest.mark.django_db


def test_a_settings_change_survives_backup_and_restore(tmp_path):
    game = standard_game()
    for number in (1, 2):
        record_hand(game=game, number=number, data=quick_hand(ns_meld=10, ns_tricks=20))
    new = game_settings.NewSettings(
        players={**PLAYERS, "E": "Bosse"}, first_dealer="S", target=200, min_bid=18, meld_needs_trick=True
    )
    game_settings.change_settings(game=game, new=new, expected=None, actor=Actor.device())
    fields = ("target", "min_bid", "first_dealer", "meld_needs_trick", "scores")
    before = Game.objects.values(*fields).get()
    trail = list(HandChange.objects.values_list("hand_number", "action", "old_data", "new_data"))
    path = tmp_path / "backup.json"
    call_command("backup", str(path), stderr=io.StringIO())
    fresh_database()

    call_command("restore", str(path), stdout=io.StringIO())
    assert Game.objects.values(*fields).get() == before
    assert Game.objects.get().seat_rows.get(seat="E").name == "Bosse"
    assert list(HandChange.objects.values_list("hand_number", "action", "old_data", "new_data")) == trail
    assert trail[0][:2] == (0, "settings")


def test_the_house_rules_survive_backup_and_restore(tmp_path):
    game = standard_game(deck="double", bid_steps="tens_above_100", meld_counts_from=20, spread=300, scale=10)
    record_hand(game=game, number=1, data={"bidder": "N", "bid": 110, "meld_points": {"NS": 80, "EW": 30},
                                            "tricks": {"NS": 35, "EW": 15}})  # fmt: skip
    fields = ("bid_steps", "meld_counts_from", "spread", "scale", "scores")
    before = Game.objects.values(*fields).get()
    path = tmp_path / "backup.json"
    call_command("backup", str(path), stderr=io.StringIO())
    fresh_database()

    call_command("restore", str(path), stdout=io.StringIO())
    assert Game.objects.values(*fields).get() == before
    assert before["scale"] == 10 and before["scores"] == {"NS": 115, "EW": 15}
