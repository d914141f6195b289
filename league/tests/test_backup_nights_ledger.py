"""The club nights and the ledger in a backup: a finished night stays locked after a restore, an
open night's table link scores again, the games' other columns come back, and a bad part of the
file is refused (league/tests/test_backup_hostile_files.py)."""

from __future__ import annotations

import datetime
import uuid
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from clubs.models import Club
from ledger.models import Payment
from nights import arrivals
from nights import rounds as night_rounds
from nights import services as night_services
from nights.models import Night, NightTable
from scoring.handover import recovery_code
from scoring.models import Game
from tests.access_helpers import CLUB
from tests.helpers import hand_post, text
from tests.ledger_helpers import CHECK_HANDS, make_night, roster

from .backup_files import back_up, fresh_database, restore

pytestmark = pytest.mark.django_db


def a_finished_and_an_open_night(people: dict[str, User]) -> dict[str, Any]:
    club = Club.objects.get(pk=CLUB)
    players = roster(club, "Anna", "Bo", "Cleo", "Dan")
    finished = make_night(club=club, season=None, tables=[(players, CHECK_HANDS)],
                          stake_per_chip=Decimal("0.50"))  # fmt: skip
    Payment.objects.create(
        club=club, night=finished, payer=players[1], payee=players[0], amount=Decimal("3.50"), unit="money",
        paid_on=datetime.date(2026, 11, 6), marked_by=people["alice"], marked_by_label="alice",
        token=uuid.uuid4(),
    )  # fmt: skip
    open_night = night_services.open_night(
        club=club, season=None, played_on=datetime.date(2026, 11, 12), variant="standard", deck="single",
        target=None, min_bid=None, meld_needs_trick=False, rounds=1, round_ends="game", hands_per_round=None,
        stake_per_chip=None, stake_per_win=None, created_by=people["alice"],
    )  # fmt: skip
    for player in players:
        arrivals.set_checked_in(night=open_night, player=player, present=True)
    night_services.draw_plan(night=open_night)
    night_rounds.start_round(night=open_night, round_no=1)
    return {
        "finished": NightTable.objects.get(night=finished),
        "open": NightTable.objects.get(night=open_night),
    }


def wipe() -> None:
    fresh_database()


def test_a_finished_night_stays_locked_after_a_restore_and_an_open_one_scores_through_its_link(
    tmp_path, people
):
    tables = a_finished_and_an_open_night(people)
    phone = Client()
    assert phone.post(f"/nights/t/{tables['finished'].token}/").status_code == 410
    code = recovery_code(tables["finished"].game)
    path = back_up(tmp_path)
    wipe()
    restore(path)
    assert Night.objects.count() == 2 and Payment.objects.count() == 1

    response = phone.post(f"/g/{tables['finished'].game.code}/recover", {"recovery_code": code})
    assert response.status_code == 403 and "no longer score" in text(response)
    assert phone.post(f"/nights/t/{tables['finished'].token}/").status_code == 410
    assert phone.post(f"/nights/t/{tables['open'].token}/").status_code == 302
    assert phone.post(f"/g/{tables['open'].game.code}/hands", hand_post(1)).status_code in (200, 302)
    assert Game.objects.get(pk=tables["open"].game.pk).hand_count == 1
    payment = Payment.objects.get()
    assert payment.marked_by is not None and payment.night is not None
    assert (payment.amount, payment.marked_by.username, payment.night.pk) == (
        Decimal("3.50"),
        "alice",
        tables["finished"].night_id,
    )


def test_the_phone_of_a_night_finished_while_it_scored_cannot_take_the_table_back_after_a_restore(
    tmp_path, people
):
    table = a_finished_and_an_open_night(people)["open"]
    game = table.game
    phone, stranger = Client(), Client()
    assert phone.post(f"/nights/t/{table.token}/").status_code == 302
    assert phone.post(f"/g/{game.code}/hands", hand_post(1)).status_code in (200, 302)
    code = recovery_code(game)  # shown on the table's phone, noted by anyone at the table
    night_rounds.finish_night(night=table.night)
    path = back_up(tmp_path)
    wipe()
    restore(path)

    assert phone.post(f"/g/{game.code}/hands", hand_post(2)).status_code in (302, 403)
    for browser in (phone, stranger):
        for url in (f"/g/{game.code}/recover", f"/s/{game.share_code}/recover"):
            response = browser.post(url, {"recovery_code": code})
            assert response.status_code == 403 and "no longer score" in text(response)
        assert browser.post(f"/nights/t/{table.token}/").status_code == 410
    restored = Game.objects.get(code=game.code)
    assert restored.hand_count == 1
    assert not restored.hand_changes.filter(action="takeover").exists()


def test_a_games_last_meld_entry_comes_back_with_its_other_columns(tmp_path, people):
    tables = a_finished_and_an_open_night(people)
    game = tables["open"].game
    Game.objects.filter(pk=game.pk).update(meld_mode=Game.MeldMode.POINTS)
    path = back_up(tmp_path)
    wipe()
    restore(path)
    assert Game.objects.get(code=game.code).meld_mode == "points"
