"""Removing a night whose settlement has payments marked: the confirmation lists them and the
organiser chooses whether they stay in the season ledger or are taken back with the night; a
night in no season always takes its payments back (they would show in no ledger). The page is the
ledger's (/ledger/nights/<id>/remove): it reads the ledger's rows. The ledger's part and the
night's removal are all or nothing, in one transaction."""

from __future__ import annotations

import datetime
import uuid
from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from clubs.models import Club, Season
from ledger import services as ledger_services
from ledger.balances import season_ledger
from ledger.models import NightLock, Payment
from ledger.selectors import marked_payments, night_ledger, settled_and_locked
from nights import removal
from nights.models import Night
from nights.signals import night_removing
from scoring.models import Game
from tests.access_helpers import CLUB
from tests.helpers import text
from tests.ledger_helpers import EW_SLAM, NS_MAKES, S_CONCEDES, make_night, roster

pytestmark = pytest.mark.django_db

HANDS = [NS_MAKES, EW_SLAM, S_CONCEDES, NS_MAKES, NS_MAKES]


@pytest.fixture
def club(people) -> Club:
    return Club.objects.get(pk=CLUB)


@pytest.fixture
def four(club):
    return roster(club, "Anna", "Bo", "Cleo", "Dan")


@pytest.fixture
def season(club):
    return Season.objects.create(
        club=club, name="Autumn", starts_on=datetime.date(2026, 9, 1), ends_on=datetime.date(2026, 12, 31)
    )


def settled_night(club, season, four) -> tuple[Night, Payment]:
    night = make_night(
        club=club, season=season, tables=[(four, HANDS)], stake_per_chip=Decimal("0.50"), target=60
    )
    s = night_ledger(night).suggestions[0]
    payment = Payment.objects.create(
        club=club, season=season, night=night, payer_id=s.payer, payee_id=s.payee,
        amount=s.amount, unit=s.unit, paid_on=night.played_on, token=uuid.uuid4(), marked_by_label="alice",
    )  # fmt: skip
    return night, payment


def line(payment: Payment) -> str:
    return f"{payment.payer.name} paid {payment.payee.name} {payment.amount:.2f}"


def test_the_confirmation_lists_the_payments_and_insists_on_a_choice(club, season, four, alice):
    night, payment = settled_night(club, season, four)
    page = text(alice.get(f"/ledger/nights/{night.pk}/remove"))
    assert "Payments marked for this night" in page and line(payment) in page
    assert "Keep them in the season ledger" in page and "Take them back with the night" in page
    response = alice.post(f"/ledger/nights/{night.pk}/remove")  # no choice: nothing removed
    assert response.status_code == 400
    assert "Choose what happens to the payments marked for this night." in text(response)
    assert Night.objects.filter(pk=night.pk).exists()


def test_kept_payments_stay_in_the_season_ledger(club, season, four, alice):
    night, payment = settled_night(club, season, four)
    assert alice.post(f"/ledger/nights/{night.pk}/remove", {"payments": "keep"}).status_code == 302
    assert not Night.objects.filter(pk=night.pk).exists()
    ledger = season_ledger(season)
    assert [p.pk for p in ledger.payments] == [payment.pk]
    assert line(payment) in text(alice.get(f"/ledger/seasons/{season.pk}/"))
    # The money changed hands and the night is gone: the season proposes paying it back.
    [back] = ledger.suggestion_list
    assert (back.payer, back.payee, back.amount) == (payment.payee_id, payment.payer_id, payment.amount)


def test_payments_taken_back_stop_counting_and_stay_listed_as_removed(club, season, four, alice):
    night, payment = settled_night(club, season, four)
    assert alice.post(f"/ledger/nights/{night.pk}/remove", {"payments": "remove"}).status_code == 302
    payment.refresh_from_db()
    assert payment.removed_at is not None and payment.removed_by_label == "alice"
    ledger = season_ledger(season)
    assert ledger.payments == [] and ledger.suggestion_list == []
    assert [p.pk for p in ledger.removed] == [payment.pk]
    assert "1 payment removed" in text(alice.get(f"/ledger/seasons/{season.pk}/"))


def test_a_night_in_no_season_takes_its_payments_back_with_it(club, four, alice):
    night, payment = settled_night(club, None, four)
    page = text(alice.get(f"/ledger/nights/{night.pk}/remove"))
    assert line(payment) in page and "Keep them in the season ledger" not in page
    assert "in no season" in page
    # Even a post asking to keep them: there is no ledger they could show in.
    assert alice.post(f"/ledger/nights/{night.pk}/remove", {"payments": "keep"}).status_code == 302
    payment.refresh_from_db()
    assert payment.removed_at is not None
    assert not Payment.objects.filter(club=club).exists()  # nothing counts in the club's balances


def test_a_night_without_payments_is_removed_without_a_choice(club, season, four, alice):
    night = make_night(club=club, season=season, tables=[(four, HANDS)], target=60)
    assert "Payments marked" not in text(alice.get(f"/ledger/nights/{night.pk}/remove"))
    assert alice.post(f"/ledger/nights/{night.pk}/remove").status_code == 302
    assert not Night.objects.filter(pk=night.pk).exists()


def test_the_ledger_names_the_marked_payments_and_the_lock_of_a_night(club, season, four):
    night, payment = settled_night(club, season, four)
    assert marked_payments(night) == [payment] and not settled_and_locked(night)
    NightLock.objects.create(night=night, unit="money", figures=[], locked_by_label="alice")
    assert settled_and_locked(night)
    Payment.objects.filter(pk=payment.pk).update(removed_at=timezone.now())
    assert marked_payments(night) == []


def test_the_old_address_of_the_removal_page_is_gone(club, season, four, alice):
    night, _payment = settled_night(club, season, four)
    assert alice.get(f"/nights/{night.pk}/remove").status_code == 404
    assert f'href="/ledger/nights/{night.pk}/remove"' in alice.get(f"/nights/{night.pk}/").content.decode()


def _untouched(night: Night, payment: Payment, games: list[int]) -> None:
    assert Night.objects.filter(pk=night.pk).exists()
    assert sorted(Game.objects.filter(pk__in=games).values_list("pk", flat=True)) == sorted(games)
    payment.refresh_from_db()
    assert payment.removed_at is None and payment.night_id == night.pk


def test_a_failure_after_the_ledger_took_the_payments_back_removes_nothing(
    club, season, four, alice, monkeypatch
):
    """The ledger's part and the night's removal are one transaction: the games failing to go
    leaves the payments as they were too."""
    night, payment = settled_night(club, season, four)
    games = [game.pk for game in night.games]

    def breaks(*, game: Game) -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(removal, "delete_game", breaks)
    with pytest.raises(RuntimeError):
        alice.post(f"/ledger/nights/{night.pk}/remove", {"payments": "remove"})
    _untouched(night, payment, games)


def test_a_failure_in_the_ledgers_part_removes_nothing(club, season, four, alice):
    night, payment = settled_night(club, season, four)
    games = [game.pk for game in night.games]

    def breaks(**_kwargs: object) -> None:
        raise RuntimeError("the ledger's part failed")

    night_removing.connect(breaks, sender=Night, dispatch_uid="test.breaks")  # after the ledger's
    try:
        with pytest.raises(RuntimeError):
            alice.post(f"/ledger/nights/{night.pk}/remove", {"payments": "remove"})
    finally:
        night_removing.disconnect(sender=Night, dispatch_uid="test.breaks")
    _untouched(night, payment, games)


def test_a_night_locked_after_the_page_was_shown_is_kept(club, season, four, alice):
    """The POST checks the lock again within the removal: 409, the page says why, nothing goes."""
    night, payment = settled_night(club, season, four)
    games = [game.pk for game in night.games]
    assert alice.get(f"/ledger/nights/{night.pk}/remove").status_code == 200
    NightLock.objects.create(night=night, unit="money", figures=[], locked_by_label="bob")
    response = alice.post(f"/ledger/nights/{night.pk}/remove", {"payments": "remove"})
    assert response.status_code == 409
    assert "The night is settled and locked in the ledger" in text(response)
    _untouched(night, payment, games)


def test_the_ledgers_removal_refuses_a_missing_choice_and_a_locked_night(club, season, four, people):
    night, payment = settled_night(club, season, four)
    with pytest.raises(ValidationError) as refused:
        ledger_services.remove_night(actor=people["alice"], night=night, payments=None)
    assert refused.value.code == "choice"
    with pytest.raises(PermissionDenied):
        ledger_services.remove_night(actor=people["bob"], night=night, payments="keep")
    NightLock.objects.create(night=night, unit="money", figures=[], locked_by_label="bob")
    with pytest.raises(ValidationError) as refused:
        ledger_services.remove_night(actor=people["alice"], night=night, payments="keep")
    assert refused.value.code == "locked"
    with pytest.raises(ValidationError) as refused:  # the nights' own removal asks the ledger too
        removal.remove_night(night=night)
    assert refused.value.code == "locked"
    _untouched(night, payment, [game.pk for game in night.games])
