"""Adding a pasted list of names to the roster: one name per line, blank lines and surrounding
spaces ignored, a name already on the roster named and skipped, and a look-alike, mixed-alphabet
or over-long name refusing the whole list, naming its line, with the list kept in the box. The
same form works as a plain post and from htmx (the roster part of the page drawn again)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from clubs.models import Club, Membership, Player
from clubs.tests.test_views import add
from tests.access_helpers import signed_in
from tests.helpers import text

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def founder() -> Client:
    return signed_in("founder")


@pytest.fixture
def club(founder) -> Club:
    founder.post("/clubs/new", {"name": "Klubbén"})
    club = Club.objects.get(name="Klubbén")
    add(founder, club, "Anna", "Åsa")
    return club


def _roster(club: Club) -> list[str]:
    return sorted(Membership.objects.filter(club=club).values_list("player__name", flat=True))


def _paste(client: Client, club: Club, names: str, **headers: Any):
    return client.post(f"/clubs/{club.pk}/roster/add-list", {"names": names}, **headers)


def test_a_pasted_list_adds_each_new_name_and_names_those_already_on_the_roster(founder, club):
    response = _paste(founder, club, "  Bo  \n\nCleo\r\nanna\n   \nDan Eriksson\nÅSA\ncleo\n")

    assert response.status_code == 302
    assert response["Location"] == f"/clubs/{club.pk}/roster/#add-list"
    assert _roster(club) == ["Anna", "Bo", "Cleo", "Dan Eriksson", "Åsa"]
    page = text(founder.get(response["Location"]))
    assert "3 players are on the roster: Bo, Cleo, Dan Eriksson." in page
    assert "Already on the roster, so not added again: Anna (line 4), Åsa (line 7), Cleo (line 8)." in page


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("\u0410nna", "mixes letters of different alphabets (Cyrillic, Latin)"),  # a Cyrillic А
        ("Ann\u0430", "mixes letters of different alphabets"),
        ("\u0410\u043d\u043d\u0430 Lind", "mixes letters of different alphabets"),
        ("Ann\u0430".replace("\u0430", "a") + "\u200b", "holds a control character"),
        ("x" * 101, "is longer than 100 characters"),
        ("\U0001d400nna", "looks like Anna"),  # a mathematical bold capital A
    ],
)
def test_a_bad_line_refuses_the_whole_list_naming_the_line_and_keeps_the_list(founder, club, line, why):
    pasted = f"Bo\n{line}\nCleo"

    response = _paste(founder, club, pasted)

    assert response.status_code == 400
    page = text(response)
    assert "Line 2:" in page and why in page
    assert _roster(club) == ["Anna", "Åsa"]  # nobody added, not even Bo
    assert pasted.replace("\n", "\r\n") in response.content.decode() or pasted in response.content.decode()


def test_two_lines_that_look_alike_refuse_the_list_naming_the_second(founder, club):
    response = _paste(founder, club, "Bo\nIan\nlan")
    assert response.status_code == 400
    assert "Line 3: lan looks like Ian, who is on the roster or higher in the list." in text(response)
    assert _roster(club) == ["Anna", "Åsa"]


def test_a_list_of_only_blank_lines_is_refused(founder, club):
    response = _paste(founder, club, "\n   \n\n")
    assert response.status_code == 400
    assert "Paste or type at least one name." in text(response)


def test_from_htmx_the_answer_is_the_roster_part_with_the_outcome_written_in_it(founder, club):
    response = _paste(founder, club, "Bo\nanna\nCleo", **HTMX)

    assert response.status_code == 200
    page = response.content.decode()
    assert page.startswith('<div id="roster">') and "<html" not in page
    assert "2 players are on the roster: Bo, Cleo." in page
    assert "Already on the roster, so not added again: Anna (line 2)." in page
    assert ">Bo</a>" in page and ">Cleo</a>" in page  # the list of players drawn again
    assert _roster(club) == ["Anna", "Bo", "Cleo", "Åsa"]


def test_from_htmx_a_refused_list_comes_back_in_the_box_with_the_reason(founder, club):
    response = _paste(founder, club, "Bo\n\u0410nna", **HTMX)

    assert response.status_code == 200  # htmx swaps it in; nothing was added
    page = response.content.decode()
    assert page.startswith('<div id="roster">')
    assert "Line 2:" in page and "mixes letters of different alphabets" in page
    assert "Bo\n\u0410nna</textarea>" in page
    assert _roster(club) == ["Anna", "Åsa"]


def test_the_roster_page_offers_the_list_as_a_form_that_works_without_javascript(founder, club):
    page = founder.get(f"/clubs/{club.pk}/roster/").content.decode()
    url = f"/clubs/{club.pk}/roster/add-list"
    assert f'<form method="post" action="{url}" hx-post="{url}" hx-target="#roster"' in page
    assert "If a line is refused, no one is added" in page


def test_someone_who_does_not_organise_the_club_adds_nobody(club):
    User.objects.create_user("mallory")
    response = _paste(signed_in("mallory"), club, "Bo", **HTMX)
    assert response.status_code == 403
    assert not Player.objects.filter(name="Bo").exists()


def test_a_name_whose_accent_is_a_combining_mark_is_added_as_written_not_called_mixed_alphabets(
    founder, club
):
    decomposed = "Bo\u0301b"  # "Bób" as a Mac or a phone may send it (NFD)

    response = _paste(founder, club, f"{decomposed}\nCleo")

    assert response.status_code == 302
    assert _roster(club) == ["Anna", decomposed, "Cleo", "Åsa"]
