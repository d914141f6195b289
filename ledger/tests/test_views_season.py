"""A season's ledger (balances carried from night to night, settling them) and a player's monthly
statement, as a page and as CSV."""

import csv
import datetime
import io
import uuid
from decimal import Decimal

import pytest
from django.test import Client

from ledger.models import Payment
from tests.helpers import text
from tests.ledger_helpers import EW_MAKES, NS_MAKES, make_night, roster

pytestmark = pytest.mark.django_db


@pytest.fixture
def autumn(club, season):
    """October: Anna & Cleo beat Bo & Dan by 4 chips; November: Anna & Bo against Cleo & Dan, where
    E-W make 25 (2 run + 1 kings... as the engine counts); a third night is still being played."""
    anna, bo, cleo, dan = roster(club, "Anna", '=HYPERLINK("x")', "Cleo", "Dan")
    october = make_night(club=club, season=season, tables=[((anna, bo, cleo, dan), [NS_MAKES])],
                         played_on=datetime.date(2026, 10, 8))  # fmt: skip
    november = make_night(club=club, season=season, tables=[((anna, cleo, bo, dan), [EW_MAKES])],
                          played_on=datetime.date(2026, 11, 5))  # fmt: skip
    running = make_night(club=club, season=season, tables=[((anna, cleo, bo, dan), [NS_MAKES])],
                         played_on=datetime.date(2026, 11, 19), finished=False)  # fmt: skip
    return {"players": (anna, bo, cleo, dan), "nights": (october, november, running)}


def chips_of(ledger_page, name):
    row = next(row for row in ledger_page.context["ledger"].rows if row.name == name)
    return row.balance.get("chips")


def test_the_season_carries_each_balance_over_the_finished_nights_and_sums_to_zero(autumn, season, people):
    page = people.client("charlie").get(f"/ledger/seasons/{season.pk}/")
    ledger = page.context["ledger"]
    october, november, _ = [n for n in autumn["nights"]]
    # Each night alone, from its own settlement page.
    by_night: dict[str, Decimal] = {}
    for night in (october, november):
        for row in people.client("charlie").get(f"/ledger/nights/{night.pk}/").context["ledger"].rows:
            by_night[row.name] = by_night.get(row.name, 0) + row.amount
    assert {row.name: row.balance["chips"] for row in ledger.rows} == by_night
    assert ledger.totals == {"chips": Decimal(0)}
    assert "still being played: not counted yet" in text(page)


def test_an_organiser_settles_the_season_and_the_balances_come_to_zero(autumn, season, people):
    client = people.client("alice")
    for _ in range(4):
        suggestions = client.get(f"/ledger/seasons/{season.pk}/").context["ledger"].suggestion_list
        if not suggestions:
            break
        s = suggestions[0]
        response = client.post(
            f"/ledger/seasons/{season.pk}/pay",
            {
                "payer": s.payer,
                "payee": s.payee,
                "amount": str(s.amount),
                "unit": s.unit,
                "token": str(uuid.uuid4()),
            },
        )
        assert response.status_code == 302
    page = client.get(f"/ledger/seasons/{season.pk}/")
    assert all(value == 0 for row in page.context["ledger"].rows for value in row.balance.values())
    assert "Everyone is square" in text(page)
    assert Payment.objects.filter(night__isnull=True, season=season).count() >= 1


def test_a_statement_shows_the_month_with_the_balance_carried_in(autumn, season, people):
    anna = autumn["players"][0]
    client = people.client("charlie")
    october = client.get(f"/ledger/seasons/{season.pk}/players/{anna.pk}/2026-10/").context["page"]
    november = client.get(f"/ledger/seasons/{season.pk}/players/{anna.pk}/2026-11/").context["page"]
    assert november.statement.opening == october.statement.closing != {}
    assert [line.kind for line in november.statement.lines] == ["night"]
    season_row = next(
        r for r in client.get(f"/ledger/seasons/{season.pk}/").context["ledger"].rows if r.name == "Anna"
    )
    assert november.statement.closing == season_row.balance
    page = text(client.get(f"/ledger/seasons/{season.pk}/players/{anna.pk}/2026-11/"))
    assert "Statement of Anna" in page and "Carried in" in page


def test_the_statement_csv_has_the_lines_and_neutralises_a_formula_in_a_name(autumn, season, people):
    bo = autumn["players"][1]
    october = autumn["nights"][0]
    suggestion = next(
        s
        for s in people.client("alice").get(f"/ledger/nights/{october.pk}/").context["ledger"].suggestions
        if s.payer == bo.pk
    )
    Payment.objects.create(
        club=october.club,
        season=season,
        night=october,
        payer=bo,
        payee_id=suggestion.payee,
        amount=suggestion.amount,
        unit="chips",
        paid_on=datetime.date(2026, 10, 9),
        token=uuid.uuid4(),
    )
    payee = suggestion.payee
    response = people.client("charlie").get(f"/ledger/seasons/{season.pk}/players/{payee}/2026-10.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    body = response.getvalue().decode()
    assert body.startswith("\ufeffdate,entry,player,unit,amount,balance\r\n")
    rows = list(csv.reader(io.StringIO(body.lstrip("\ufeff"))))
    assert rows[1] == ["2026-10-01", "carried in", "", "chips", "", "0"]
    assert rows[2] == ["2026-10-08", "night", "", "chips", "4", "4"]
    assert rows[3] == ["2026-10-09", "received", '\'=HYPERLINK("x")', "chips", "-4", "0"]


@pytest.mark.parametrize("month", ["2026-08", "2027-01", "2026-13", "0000-00"])
def test_a_month_outside_the_season_is_not_found(autumn, season, month, people):
    anna = autumn["players"][0]
    assert (
        people.client("charlie").get(f"/ledger/seasons/{season.pk}/players/{anna.pk}/{month}/").status_code
        == 404
    )


def test_a_player_of_another_club_has_no_statement_here(autumn, season, people):
    from clubs.models import Player

    stranger = Player.objects.create(name="Stranger")
    assert (
        people.client("alice").get(f"/ledger/seasons/{season.pk}/players/{stranger.pk}/2026-10/").status_code
        == 404
    )


def test_only_the_clubs_roles_read_the_season_ledger_and_statements(autumn, season, people):
    anna = autumn["players"][0]
    for url in (f"/ledger/seasons/{season.pk}/", f"/ledger/seasons/{season.pk}/players/{anna.pk}/2026-10/",
                f"/ledger/seasons/{season.pk}/players/{anna.pk}/2026-10.csv"):  # fmt: skip
        assert people.client("charlie").get(url).status_code == 200
        assert people.client("dave").get(url).status_code == 403
        assert Client().get(url).status_code == 302


def test_the_season_page_links_to_its_ledger_but_the_published_results_do_not(autumn, season, people):
    page = people.client("charlie").get(f"/league/seasons/{season.pk}/").content.decode()
    assert f'href="/ledger/seasons/{season.pk}/"' in page
    season.publish_code = "published-autumn"
    season.save()
    published = Client().get("/league/results/published-autumn/").content.decode()
    assert "/ledger/" not in published


def test_a_season_ending_in_the_last_year_a_date_can_hold_keeps_its_ledger_and_statements(
    club, season, people
):
    # The season form takes any end after the start, 9999-12-31 too: the month after it is no date.
    season.ends_on = datetime.date(9999, 12, 31)
    season.save()
    (anna,) = roster(club, "Anna")
    reader = people.client("charlie")
    assert reader.get(f"/ledger/seasons/{season.pk}/").status_code == 200
    assert reader.get(f"/ledger/seasons/{season.pk}/players/{anna.pk}/9999-12/").status_code == 200
    assert reader.get(f"/ledger/seasons/{season.pk}/players/{anna.pk}/2026-09.csv").status_code == 200
