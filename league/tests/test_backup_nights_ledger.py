"""The club nights and the ledger in a backup: a finished night stays locked after a restore, an
open night's table link scores again, the games' other columns come back, and a bad part of the
file is refused with a message naming the part, the row and the field (exit status 2, nothing
written)."""

from __future__ import annotations

import copy
import datetime
import io
import json
import uuid
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client

from backups import parts
from clubs.models import Club, Player, Season
from league.backup.whole import dump, load
from ledger.models import NightLock, Payment
from nights import rounds as night_rounds
from nights import services as night_services
from nights.models import Night, NightTable
from scoring.handover import recovery_code
from scoring.models import Game
from tests.access_helpers import CLUB
from tests.helpers import hand_post, text
from tests.ledger_helpers import CHECK_HANDS, make_night, roster

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
        night_services.set_checked_in(night=open_night, player=player, present=True)
    night_services.draw_plan(night=open_night)
    night_rounds.start_round(night=open_night, round_no=1)
    return {
        "finished": NightTable.objects.get(night=finished),
        "open": NightTable.objects.get(night=open_night),
    }


def wipe() -> None:
    """An empty database, as a fresh one after migrate: every table a backup holds emptied, the
    last part first (what they cascade to, statistics and ratings, goes with them)."""
    for model in reversed(parts.held_models()):
        model._base_manager.all().delete()


def restore_fails(data: dict[str, Any], tmp_path) -> str:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(path), stdout=io.StringIO())
    assert refused.value.returncode == 2
    assert not Club.objects.exists() and not Night.objects.exists() and not Payment.all_objects.exists()
    return str(refused.value)


def test_a_finished_night_stays_locked_after_a_restore_and_an_open_one_scores_through_its_link(people):
    tables = a_finished_and_an_open_night(people)
    phone = Client()
    assert phone.post(f"/nights/t/{tables['finished'].token}/").status_code == 410
    code = recovery_code(tables["finished"].game)
    data = dump()
    wipe()
    restored = load(data)
    assert restored["nights.Night"] == 2 and restored["ledger.Payment"] == 1

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
    path = tmp_path / "backup.json"
    call_command("backup", str(path), stderr=io.StringIO())
    wipe()
    call_command("restore", str(path), stdout=io.StringIO())

    assert phone.post(f"/g/{game.code}/hands", hand_post(2)).status_code in (302, 403)
    for browser in (phone, stranger):
        for url in (f"/g/{game.code}/recover", f"/s/{game.share_code}/recover"):
            response = browser.post(url, {"recovery_code": code})
            assert response.status_code == 403 and "no longer score" in text(response)
        assert browser.post(f"/nights/t/{table.token}/").status_code == 410
    restored = Game.objects.get(code=game.code)
    assert restored.hand_count == 1
    assert not restored.hand_changes.filter(action="takeover").exists()


def test_a_games_last_meld_entry_comes_back_with_its_other_columns(people):
    tables = a_finished_and_an_open_night(people)
    game = tables["open"].game
    Game.objects.filter(pk=game.pk).update(meld_mode=Game.MeldMode.POINTS)
    data = dump()
    wipe()
    load(data)
    assert Game.objects.get(code=game.code).meld_mode == "points"


def test_a_file_written_before_a_field_existed_takes_the_fields_default(people):
    a_finished_and_an_open_night(people)
    data = dump()
    for row in data["ledger"]["Payment"]:
        del row["marked_by_label"]
    for row in data["scoring"]["Game"]:
        del row["meld_mode"]
    wipe()
    load(data)
    assert Payment.objects.get().marked_by_label == ""
    assert set(Game.objects.values_list("meld_mode", flat=True)) == {"items"}


def _bad(data: dict[str, Any], part: str, model: str, index: int = 0, **values) -> dict[str, Any]:
    bad = copy.deepcopy(data)
    bad[part][model][index].update(values)
    return bad


@pytest.mark.parametrize(
    ("part", "model", "values", "message"),
    [
        ("nights", "NightTable", {"token": "x" * 40}, "'token' is 40 characters long; at most 32 fit"),
        ("nights", "Night", {"variant": "bridge"}, "'variant' 'bridge' is not one of the values"),
        ("nights", "Night", {"hands_per_round": 4}, "the row breaks the rule 'night_hands_per_round_only"),
        ("nights", "Night", {"rounds": 40}, "'rounds' 40: Ensure this value is less than or equal to 12"),
        ("nights", "Night", {"finished_at": "yesterday"}, "'finished_at' 'yesterday'"),
        ("nights", "NightSeat", {"player": 999}, "'player' 999 is not among the players"),
        ("nights", "NightPlayer", {"from_round": "1"}, "'from_round' is not a number"),
        ("ledger", "Payment", {"amount": "lots"}, "'amount' 'lots'"),
        ("ledger", "Payment", {"amount": "-3.50"}, "the row breaks the rule 'ledger_payment_positive'"),
        ("ledger", "Payment", {"amount": "3.505"}, "'amount' '3.505': Ensure that there are no more"),
        ("ledger", "Payment", {"token": None}, "'token' is empty; this field needs a value"),
        ("ledger", "Payment", {"paid_by_card": True}, "'paid_by_card' is not a field of ledger.Payment"),
    ],
)  # fmt: skip
def test_a_restore_refuses_a_bad_value_naming_the_part_and_field_and_writes_nothing(
    tmp_path, part, model, values, message, people
):
    a_finished_and_an_open_night(people)
    data = dump()
    wipe()
    assert f"{part}.{model}[1]: {message}" in restore_fails(_bad(data, part, model, **values), tmp_path)


def test_a_restore_refuses_two_tables_with_one_link_and_a_table_this_app_does_not_have(tmp_path, people):
    a_finished_and_an_open_night(people)
    data = dump()
    wipe()
    twice = _bad(data, "nights", "NightTable", 1, token=data["nights"]["NightTable"][0]["token"])
    assert "nights.NightTable[2]: 'token' repeat those of nights.NightTable[1]" in restore_fails(
        twice, tmp_path
    )
    unknown = copy.deepcopy(data)
    unknown["nights"]["NightDrinks"] = []
    assert "nights: 'NightDrinks' is not a table of this app" in restore_fails(unknown, tmp_path)
    missing = copy.deepcopy(data)
    del missing["ledger"]
    assert "'ledger' is missing" in restore_fails(missing, tmp_path)


def test_a_restore_refuses_a_game_column_outside_its_choices(tmp_path, people):
    a_finished_and_an_open_night(people)
    data = dump()
    data["scoring"]["Game"][0]["meld_mode"] = "dial"
    wipe()
    assert "scoring.Game[1]: 'meld_mode' 'dial' is not one of the values" in restore_fails(data, tmp_path)
    assert not Player.objects.exists()


@pytest.mark.parametrize(
    "figures", ["junk", [["Anna"]], [["Anna", "lots"]], [["Anna", 3.5]], [[1, "3.50"]], [["Anna", "NaN"]]]
)
def test_a_restore_refuses_a_nights_lock_whose_figures_are_not_names_with_amounts(tmp_path, figures, people):
    tables = a_finished_and_an_open_night(people)
    NightLock.objects.create(night=tables["finished"].night, unit="money", figures=[["Anna", "3.50"]])
    data = dump()
    wipe()
    refused = restore_fails(_bad(data, "ledger", "NightLock", figures=figures), tmp_path)
    assert "ledger.NightLock[1]: 'figures' is not a list of [name, amount] pairs" in refused


def test_a_nights_lock_comes_back_with_its_figures(people):
    tables = a_finished_and_an_open_night(people)
    NightLock.objects.create(night=tables["finished"].night, unit="money", figures=[["Anna", "3.50"]])
    data = dump()
    wipe()
    load(data)
    assert NightLock.objects.get().figures == [["Anna", "3.50"]]


@pytest.mark.parametrize("key", ["accounts.User", "clubs.Club", "clubs.Season", "scoring.Game"])
def test_a_file_whose_rows_lack_their_ids_is_refused_as_the_nights_would_point_elsewhere(
    tmp_path, key, people
):
    tables = a_finished_and_an_open_night(people)
    Season.objects.create(
        club=tables["finished"].night.club, name="Autumn", starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2026, 12, 31),
    )  # fmt: skip
    data = dump()
    wipe()
    part, table = key.split(".")
    for row in data[part][table]:
        del row["id"]
    assert f"{key}[1]: 'id' is missing" in restore_fails(data, tmp_path)
