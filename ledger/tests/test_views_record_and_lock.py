"""Recording any payment (not only a proposed one) and locking a settled night, on the night's and
the season's ledger pages."""

import uuid
from decimal import Decimal

import pytest

from clubs.models import Player
from ledger.models import NightLock, Payment
from scoring.services.hands import edit_hand
from tests.helpers import text
from tests.ledger_helpers import EW_MAKES, NS_MAKES, make_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(club, season, four):
    """Anna & Cleo beat Bo & Dan at 0.50 a chip: Bo pays Anna 2.00, Dan pays Cleo 2.00."""
    anna, bo, cleo, dan = four
    return make_night(
        club=club, season=season, tables=[((anna, bo, cleo, dan), [NS_MAKES])], stake_per_chip=Decimal("0.50")
    )


def record(client, night, **fields):
    post = {
        "payer": "",
        "payee": "",
        "amount": "",
        "unit": "money",
        "method": "cash",
        "token": str(uuid.uuid4()),
    }
    return client.post(f"/ledger/nights/{night.pk}/record", {**post, **fields}, follow=True)


def proposals(client, night):
    return [
        (s.payer_name, s.payee_name, s.amount)
        for s in client.get(f"/ledger/nights/{night.pk}/").context["ledger"].suggestions
    ]


def test_the_proposals_are_the_fewest_and_read_in_name_order(night, people):
    assert proposals(people.client("charlie"), night) == [
        ("Bo", "Anna", Decimal("2.00")),
        ("Dan", "Cleo", Decimal("2.00")),
    ]


def test_an_organiser_records_a_part_payment_by_swish_and_only_its_proposal_changes(night, four, people):
    anna, bo, *_ = four
    client = people.client("alice")
    response = record(client, night, payer=bo.pk, payee=anna.pk, amount="1.50", method="swish")
    assert "Marked as paid: Bo paid Anna 1.50. How: Swish." in text(response)
    assert "Bo paid Anna 1.50 · Swish" in text(response)
    payment = Payment.objects.get()
    assert (payment.amount, payment.method, payment.night, payment.marked_by_label) == (
        Decimal("1.50"), "swish", night, "alice",
    )  # fmt: skip
    assert proposals(client, night) == [("Bo", "Anna", Decimal("0.50")), ("Dan", "Cleo", Decimal("2.00"))]


def test_a_payment_between_players_nobody_proposed_is_recorded_and_the_rest_is_proposed_again(
    night, four, people
):
    anna, _bo, _cleo, dan = four
    client = people.client("alice")
    record(client, night, payer=dan.pk, payee=anna.pk, amount="2.00")
    assert Payment.objects.get().method == "cash"
    assert proposals(client, night) == [("Bo", "Cleo", Decimal("2.00"))]


def test_marking_a_proposal_leaves_the_other_as_it_was_and_says_how_it_was_paid(night, people):
    client = people.client("alice")
    before = client.get(f"/ledger/nights/{night.pk}/").context["ledger"].suggestions
    dan = before[1]
    response = client.post(
        f"/ledger/nights/{night.pk}/pay",
        {"payer": dan.payer, "payee": dan.payee, "amount": str(dan.amount), "unit": "money",
         "method": "other", "token": str(uuid.uuid4())},
        follow=True,
    )  # fmt: skip
    assert "Marked as paid: Dan paid Cleo 2.00. How: Other." in text(response)
    assert response.context["ledger"].suggestions == [before[0]]
    assert Payment.objects.get().method == "other"


def test_the_same_form_sent_twice_records_one_payment(night, four, people):
    anna, bo, *_ = four
    client = people.client("alice")
    token = str(uuid.uuid4())
    record(client, night, payer=bo.pk, payee=anna.pk, amount="1.00", token=token)
    again = record(client, night, payer=bo.pk, payee=anna.pk, amount="1.00", token=token)
    assert "Already marked: Bo paid Anna 1.00. How: Cash." in text(again)
    assert Payment.objects.count() == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"payee": "payer"}, "Payee: A player cannot pay themselves."),
        ({"amount": "0"}, "The amount must be more than zero."),
        ({"amount": "-2.00"}, "The amount must be more than zero."),
        ({"amount": "1.005"}, "At most two decimals (whole cents)."),
        ({"amount": "1,50"}, "Enter a number."),
        ({"amount": ""}, "This field is required."),
        ({"payer": "outsider"}, "Choose a player of this club."),
        ({"payer": "999999"}, "Choose a player of this club."),
        ({"method": "gold"}, "Select a valid choice."),
        ({"unit": "chips"}, "Select a valid choice."),  # this night is settled in money
    ],
)
def test_bad_input_gets_a_message_next_to_its_field_and_writes_nothing(night, four, change, message, people):
    anna, bo, *_ = four
    outsider = Player.objects.create(name="Zed")  # on no roster of this club
    post = {"payer": bo.pk, "payee": anna.pk, "amount": "1.00"}
    for key, value in change.items():
        post[key] = {"payer": bo.pk, "outsider": outsider.pk}.get(value, value)
    response = record(people.client("alice"), night, **post)
    assert response.status_code == 409
    page = text(response)
    assert "Nothing was recorded. Please correct the fields marked below." in page
    assert message in page
    assert not Payment.objects.exists()


def test_chips_are_recorded_as_whole_numbers(club, season, four, people):
    anna, bo, cleo, dan = four
    chips_night = make_night(club=club, season=season, tables=[((anna, bo, cleo, dan), [NS_MAKES])])
    client = people.client("alice")
    refused = record(client, chips_night, payer=bo.pk, payee=anna.pk, amount="1.50", unit="chips")
    assert refused.status_code == 409 and "Chips are whole numbers." in text(refused)
    record(client, chips_night, payer=bo.pk, payee=anna.pk, amount="4", unit="chips")
    assert Payment.objects.get().amount == 4
    assert proposals(client, chips_night) == [("Dan", "Cleo", Decimal(4))]


def test_a_scorer_and_a_member_cannot_record_a_payment(night, four, people):
    anna, bo, *_ = four
    for username in ("bob", "charlie"):
        response = record(people.client(username), night, payer=bo.pk, payee=anna.pk, amount="1.00")
        assert response.status_code == 403
        assert "Record a payment" not in text(people.client(username).get(f"/ledger/nights/{night.pk}/"))
    assert not Payment.objects.exists()


def test_the_season_page_records_a_payment_of_its_balances(club, season, night, four, people):
    anna, bo, *_ = four
    client = people.client("alice")
    post = {"payer": bo.pk, "payee": anna.pk, "amount": "2.00", "unit": "money", "method": "swish",
            "token": str(uuid.uuid4())}  # fmt: skip
    response = client.post(f"/ledger/seasons/{season.pk}/record", post, follow=True)
    assert "Marked as paid: Bo paid Anna 2.00. How: Swish." in text(response)
    payment = Payment.objects.get()
    assert (payment.night, payment.season) == (None, season)
    assert [(s.payer_name, s.payee_name) for s in response.context["ledger"].suggestion_list] == [
        ("Dan", "Cleo")
    ]
    same = client.post(f"/ledger/seasons/{season.pk}/record", {**post, "payee": bo.pk})
    assert same.status_code == 409 and "A player cannot pay themselves." in text(same)


def settle_all(client, night):
    for s in client.get(f"/ledger/nights/{night.pk}/").context["ledger"].suggestions:
        client.post(
            f"/ledger/nights/{night.pk}/pay",
            {"payer": s.payer, "payee": s.payee, "amount": str(s.amount), "unit": s.unit,
             "token": str(uuid.uuid4())},
        )  # fmt: skip


def test_an_organiser_locks_a_settled_night_and_then_nothing_of_it_can_change(night, four, people):
    anna, bo, *_ = four
    client = people.client("alice")
    assert "Lock as settled" not in text(client.get(f"/ledger/nights/{night.pk}/"))
    early = client.post(f"/ledger/nights/{night.pk}/lock")
    assert early.status_code == 409 and "2 payments are still open" in text(early)
    settle_all(client, night)
    page = client.get(f"/ledger/nights/{night.pk}/")
    assert "Everyone is square" in text(page) and "Lock as settled" in text(page)
    locked = client.post(f"/ledger/nights/{night.pk}/lock", follow=True)
    shown = text(locked)
    assert "Settled — locked Locked by alice," in shown and "No payment of this night can be marked" in shown
    assert "Record a payment" not in shown and "Remove" not in shown
    lock = NightLock.objects.get()
    assert lock.locked_by_label == "alice" and lock.figures == [
        ["Anna", "2.00"], ["Bo", "-2.00"], ["Cleo", "2.00"], ["Dan", "-2.00"],
    ]  # fmt: skip

    refused = record(client, night, payer=bo.pk, payee=anna.pk, amount="1.00")
    assert refused.status_code == 409 and "settled and locked (by alice)" in text(refused)
    payment = Payment.objects.first()
    assert payment is not None
    removal = client.post(f"/ledger/nights/{night.pk}/payments/{payment.pk}/remove")
    assert removal.status_code == 409 and "settled and locked" in text(removal)
    via_season = client.post(f"/ledger/seasons/{night.season_id}/payments/{payment.pk}/remove")
    assert via_season.status_code == 409
    assert Payment.objects.count() == 2 and not Payment.all_objects.filter(removed_at__isnull=False).exists()
    season_page = text(client.get(f"/ledger/seasons/{night.season_id}/"))
    assert "Settled — locked" in season_page

    unlocked = client.post(f"/ledger/nights/{night.pk}/unlock", follow=True)
    assert "Unlocked" in text(unlocked)
    assert "Locked by alice" in text(unlocked) and "unlocked by alice" in text(unlocked)
    removed = client.post(f"/ledger/nights/{night.pk}/payments/{payment.pk}/remove", follow=True)
    assert "no longer counts" in text(removed)


def test_a_second_tap_on_lock_or_unlock_changes_nothing(night, people):
    client = people.client("alice")
    settle_all(client, night)
    client.post(f"/ledger/nights/{night.pk}/lock")
    assert "was locked already" in text(client.post(f"/ledger/nights/{night.pk}/lock", follow=True))
    client.post(f"/ledger/nights/{night.pk}/unlock")
    assert "was not locked" in text(client.post(f"/ledger/nights/{night.pk}/unlock", follow=True))
    assert NightLock.objects.count() == 1


def test_only_an_organiser_locks_or_unlocks(night, people):
    settle_all(people.client("alice"), night)
    for username in ("bob", "charlie", "dave"):
        assert people.client(username).post(f"/ledger/nights/{night.pk}/lock").status_code == 403
    people.client("alice").post(f"/ledger/nights/{night.pk}/lock")
    for username in ("bob", "charlie"):
        client = people.client(username)
        assert client.post(f"/ledger/nights/{night.pk}/unlock").status_code == 403
        assert "Unlock the night" not in text(client.get(f"/ledger/nights/{night.pk}/"))
    assert NightLock.objects.get().unlocked_at is None


def test_a_correction_after_the_lock_says_plainly_that_the_locked_figures_no_longer_match(night, people):
    client = people.client("alice")
    settle_all(client, night)
    client.post(f"/ledger/nights/{night.pk}/lock")
    edit_hand(game=night.tables.get().game, number=1, data=EW_MAKES)  # the other side made it
    page = client.get(f"/ledger/nights/{night.pk}/")
    words = text(page)
    assert "The locked figures no longer match" in words
    assert "Anna +2.00" in words  # locked at +2.00, the row goes on with what it is now
    assert NightLock.objects.get().figures[0] == ["Anna", "2.00"]  # the lock keeps what it locked
    assert "Settled — locked" in words and "Record a payment" not in words
    assert "the locked figures no longer match" in text(client.get(f"/ledger/seasons/{night.season_id}/"))
    # Unlocked, the overpaid are paid straight back by the ones they paid.
    client.post(f"/ledger/nights/{night.pk}/unlock")
    back = client.get(f"/ledger/nights/{night.pk}/").context["ledger"].suggestions
    assert {(s.payer_name, s.payee_name) for s in back} == {("Anna", "Bo"), ("Cleo", "Dan")}


def test_a_locked_night_cannot_be_removed_until_it_is_unlocked(night, people):
    client = people.client("alice")
    settle_all(client, night)
    client.post(f"/ledger/nights/{night.pk}/lock")
    asked = client.get(f"/ledger/nights/{night.pk}/remove")
    assert "settled and locked in the ledger" in text(asked)
    assert "Remove the night and its games" not in text(asked)
    refused = client.post(f"/ledger/nights/{night.pk}/remove", {"payments": "remove"})
    assert refused.status_code == 409
    assert night.__class__.objects.filter(pk=night.pk).exists()
    assert Payment.objects.count() == 2
    client.post(f"/ledger/nights/{night.pk}/unlock")
    client.post(f"/ledger/nights/{night.pk}/remove", {"payments": "keep"})
    assert not night.__class__.objects.filter(pk=night.pk).exists()
    assert Payment.objects.count() == 2  # kept in the season's ledger


def test_a_payer_id_past_the_largest_id_is_refused_next_to_the_field_and_nothing_is_written(
    night, four, people
):
    anna, *_ = four
    client = people.client("alice")
    response = record(client, night, payer="9" * 20, payee=anna.pk, amount="1.00")
    assert response.status_code == 409  # the page's answer to a refused payment
    assert "is not one of the choices (an id is written in plain digits)" in text(response)
    assert not Payment.objects.exists()
