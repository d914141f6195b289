"""A club night's settlement page and marking its payments as paid."""

import uuid
from decimal import Decimal

import pytest
from django.test import Client

from ledger.models import Payment
from ledger.selectors import night_ledger
from scoring.services.results import score
from tests.helpers import text
from tests.ledger_helpers import EW_SLAM, NS_MAKES, S_CONCEDES, make_night, standard_hand

pytestmark = pytest.mark.django_db


def engine_chips(night):
    """Each player's net chips worked out here from the engine's results of the night's games."""
    chips: dict[str, int] = {}
    for table in night.tables.select_related("game"):
        game = table.game
        assert game is not None
        result = score(game)
        for seat in game.seat_rows.all():
            side = "NS" if seat.seat in "NS" else "EW"
            assert seat.player is not None
            chips[seat.player.name] = chips.get(seat.player.name, 0) + result.chips[side]
    return chips


@pytest.fixture
def night(club, season, four):
    anna, bo, cleo, dan = four
    # Anna & Cleo against Bo & Dan: one hand each way and a concession, to a target of 60.
    return make_night(
        club=club,
        season=season,
        tables=[((anna, bo, cleo, dan), [NS_MAKES, EW_SLAM, S_CONCEDES, NS_MAKES, NS_MAKES])],
        stake_per_chip=Decimal("0.50"),
        target=60,
    )


def test_it_shows_each_players_net_chips_and_money_as_the_engine_scores_the_games(night, people):
    chips = engine_chips(night)
    assert chips["Anna"] == chips["Cleo"] == -chips["Bo"] == -chips["Dan"] != 0
    page = text(people.client("charlie").get(f"/ledger/nights/{night.pk}/"))
    money = Decimal(chips["Anna"]) / 2
    for name in ("Anna", "Cleo"):
        assert f"{name} {chips['Anna']:+d} {money:+.2f}".replace("-", "\u2212") in page
    payer, payee = ("Bo", "Anna") if chips["Anna"] > 0 else ("Anna", "Bo")
    assert f"{payer} pays {payee} {abs(money):.2f}" in page


def test_an_organiser_marks_a_payment_once_however_often_the_form_is_sent(night, people):
    client = people.client("alice")
    page = client.get(f"/ledger/nights/{night.pk}/")
    suggestion = page.context["ledger"].suggestions[0]
    post = {
        "payer": suggestion.payer,
        "payee": suggestion.payee,
        "amount": str(suggestion.amount),
        "unit": "money",
        "token": str(uuid.uuid4()),
    }
    first = client.post(f"/ledger/nights/{night.pk}/pay", post, follow=True)
    assert "Marked as paid" in text(first)
    again = client.post(f"/ledger/nights/{night.pk}/pay", post, follow=True)
    assert "Already marked" in text(again)
    assert Payment.objects.count() == 1
    payment = Payment.objects.get()
    assert payment.marked_by is not None
    assert (payment.payer_id, payment.payee_id, payment.amount, payment.marked_by.username) == (
        suggestion.payer,
        suggestion.payee,
        suggestion.amount,
        "alice",
    )
    after = client.get(f"/ledger/nights/{night.pk}/")
    assert len(after.context["ledger"].suggestions) == 1  # the other pair still owes
    assert "marked by alice" in text(after)


def test_the_same_payment_from_a_second_copy_of_the_page_is_refused_and_nothing_is_written(night, people):
    client = people.client("alice")
    suggestion = client.get(f"/ledger/nights/{night.pk}/").context["ledger"].suggestions[0]
    post = {
        "payer": suggestion.payer,
        "payee": suggestion.payee,
        "amount": str(suggestion.amount),
        "unit": "money",
    }
    client.post(f"/ledger/nights/{night.pk}/pay", {**post, "token": str(uuid.uuid4())})
    stale = client.post(f"/ledger/nights/{night.pk}/pay", {**post, "token": str(uuid.uuid4())})
    assert stale.status_code == 409
    assert "no longer part of the settlement" in text(stale)
    assert Payment.objects.count() == 1


def test_a_payment_nobody_was_shown_is_refused(night, four, people):
    anna, bo, *_ = four
    client = people.client("alice")
    response = client.post(
        f"/ledger/nights/{night.pk}/pay",
        {"payer": bo.pk, "payee": anna.pk, "amount": "999.00", "unit": "money", "token": str(uuid.uuid4())},
    )
    assert response.status_code == 409
    assert not Payment.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("amount", "12,5x", "Amount: Enter a number."),
        ("amount", "-3", "Amount: Ensure this value is greater than or equal to 0.01."),
        ("unit", "gold", "Unit: Select a valid choice."),
        ("token", "", "Form: This field is required."),
        ("payer", "99999999999999999999", "Payer: Ensure this value is less than or equal to"),
        # Python's number syntax is not a person's: refused, not read as 10.
        ("amount", "1_0", "Amount: Enter a number."),
        ("payer", "\uff11", "Payer: Enter a whole number."),
    ],
)
def test_bad_input_gets_a_message_naming_the_field_and_writes_nothing(
    night, four, field, value, message, people
):
    anna, bo, *_ = four
    post = {"payer": bo.pk, "payee": anna.pk, "amount": "1.00", "unit": "money", "token": str(uuid.uuid4())}
    response = people.client("alice").post(f"/ledger/nights/{night.pk}/pay", {**post, field: value})
    assert response.status_code == 409
    assert message in text(response)
    assert not Payment.objects.exists()


def test_a_night_still_being_played_is_provisional_and_cannot_be_settled(club, season, four, people):
    anna, bo, cleo, dan = four
    night = make_night(club=club, season=season, tables=[((anna, bo, cleo, dan), [NS_MAKES])], finished=False)
    client = people.client("alice")
    page = client.get(f"/ledger/nights/{night.pk}/")
    assert "provisional" in text(page)
    assert "Mark as paid" not in text(page)
    suggestion = page.context["ledger"].suggestions[0]
    response = client.post(
        f"/ledger/nights/{night.pk}/pay",
        {"payer": suggestion.payer, "payee": suggestion.payee, "amount": str(suggestion.amount),
         "unit": "chips", "token": str(uuid.uuid4())},
    )  # fmt: skip
    assert response.status_code == 409
    assert "still being played" in text(response)
    assert not Payment.objects.exists()


def test_a_night_without_money_is_settled_in_chips(club, season, four, people):
    anna, bo, cleo, dan = four
    night = make_night(club=club, season=season, tables=[((anna, bo, cleo, dan), [NS_MAKES])])
    page = text(people.client("charlie").get(f"/ledger/nights/{night.pk}/"))
    assert "Bo pays Anna 4 chips" in page and "Dan pays Cleo 4 chips" in page


def test_members_read_the_settlement_others_do_not(night, people):
    assert people.client("bob").get(f"/ledger/nights/{night.pk}/").status_code == 200
    assert people.client("dave").get(f"/ledger/nights/{night.pk}/").status_code == 403
    anonymous = Client().get(f"/ledger/nights/{night.pk}/")
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    assert "Mark as paid" not in text(people.client("charlie").get(f"/ledger/nights/{night.pk}/"))


def test_a_scorer_cannot_mark_a_payment(night, people):
    client = people.client("bob")
    suggestion = people.client("alice").get(f"/ledger/nights/{night.pk}/").context["ledger"].suggestions[0]
    response = client.post(
        f"/ledger/nights/{night.pk}/pay",
        {"payer": suggestion.payer, "payee": suggestion.payee, "amount": str(suggestion.amount),
         "unit": "money", "token": str(uuid.uuid4())},
    )  # fmt: skip
    assert response.status_code == 403
    assert not Payment.objects.exists()


def test_an_organiser_removes_a_payment_marked_by_mistake_and_it_stops_counting(night, people):
    client = people.client("alice")
    before = client.get(f"/ledger/nights/{night.pk}/").context["ledger"].suggestions
    s = before[0]
    client.post(
        f"/ledger/nights/{night.pk}/pay",
        {
            "payer": s.payer,
            "payee": s.payee,
            "amount": str(s.amount),
            "unit": "money",
            "token": str(uuid.uuid4()),
        },
    )
    payment = Payment.objects.get()
    removed = client.post(f"/ledger/nights/{night.pk}/payments/{payment.pk}/remove", follow=True)
    assert "no longer counts" in text(removed)
    assert removed.context["ledger"].suggestions == before
    assert "removed by alice" in text(removed)
    again = client.post(f"/ledger/nights/{night.pk}/payments/{payment.pk}/remove", follow=True)
    assert "already removed" in text(again)
    assert not Payment.objects.exists() and Payment.all_objects.get().removed_by_label == "alice"
    # The form that marked it, sent again, does not bring it back.
    repost = client.post(
        f"/ledger/nights/{night.pk}/pay",
        {
            "payer": s.payer,
            "payee": s.payee,
            "amount": str(s.amount),
            "unit": "money",
            "token": str(payment.token),
        },
    )
    assert repost.status_code == 409 and "marked and then removed" in text(repost)
    assert not Payment.objects.exists()


def test_a_payment_of_another_night_is_not_removed_through_this_one(night, club, season, four, people):
    other = make_night(club=club, season=season, tables=[(four, [NS_MAKES])])
    s = night_ledger(night).suggestions[0]
    payment = Payment.objects.create(
        club=club, season=season, night=night, payer_id=s.payer, payee_id=s.payee,
        amount=s.amount, unit=s.unit, paid_on=night.played_on, token=uuid.uuid4(),
    )  # fmt: skip
    response = people.client("alice").post(
        f"/ledger/nights/{other.pk}/payments/{payment.pk}/remove", follow=True
    )
    assert "already removed" in text(response)
    assert Payment.objects.filter(pk=payment.pk).exists()


def test_a_standard_nights_players_read_their_record_as_won_lost_drawn(club, season, four, people):
    anna, bo, cleo, dan = four
    night = make_night(
        club=club,
        season=season,
        variant="standard",
        tables=[((anna, bo, cleo, dan), [standard_hand("N", True)])],
        stake_per_win=Decimal("1.00"),
        hands_per_round=1,
    )
    page = text(people.client("charlie").get(f"/ledger/nights/{night.pk}/"))
    assert "Player Won–lost–drawn Money Still open" in page
    assert "Anna 1–0–0 +1.00" in page and "Bo 0–1–0 \u22121.00" in page
