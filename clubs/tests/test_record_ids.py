"""Ids in Python's integer syntax (`0_1`, ` 1`, full-width `１`) are refused wherever a form, an
admin address, an action or a list filter names a record: `int()` would read them as another id."""

from __future__ import annotations

import pytest

from clubs.ids import record_id
from clubs.models import Player
from clubs.tests.test_admin_scope import form_data

pytestmark = pytest.mark.django_db

BAD = ["0_{pk}", " {pk}", "{pk} ", "+{pk}", "\uff10{pk}", "{pk}.0", "{pk}\u0663"]


def _variants(pk: int) -> list[str]:
    return [pattern.format(pk=pk) for pattern in BAD] + ["".join(chr(0xFF10 + int(d)) for d in str(pk))]


@pytest.mark.parametrize("text", ["0_1", " 1", "1 ", "\uff11", "+1", "-1", "1e3", "", "1" * 19, "\u0661"])
def test_only_plain_digits_name_a_record(text):
    assert record_id(text) is None


def test_plain_digits_do():
    assert record_id("0") == 0 and record_id("42") == 42 and record_id(7) == 7


def test_the_roster_merge_refuses_an_id_in_integer_syntax(two_clubs):
    client, club = two_clubs["client"], two_clubs["club"]
    keep, duplicate = Player.objects.filter(memberships__club=club).order_by("pk")[:2]
    players = Player.objects.count()
    for text in _variants(duplicate.pk):
        response = client.post(f"/clubs/{club.pk}/players/{keep.pk}/merge", {"duplicate": text})
        assert response.status_code == 400, text
        assert "is not one of the choices (an id is written in plain digits)" in response.content.decode()
    assert Player.objects.count() == players


def test_the_admin_form_refuses_the_organisers_own_season_in_integer_syntax(two_clubs):
    client, game = two_clubs["client"], two_clubs["games"][0]
    url = f"/admin/scoring/game/{game.pk}/change/"
    data = form_data(client.get(url).content.decode(), "game_form")
    data.update({"season": f"0_{two_clubs['season'].pk}", "place": "Forged"})
    response = client.post(url, data)
    assert response.status_code == 200
    assert "is not one of the choices" in response.content.decode()
    game.refresh_from_db()
    assert game.place != "Forged"


def test_an_admin_address_with_an_id_in_integer_syntax_names_nothing(two_clubs):
    client, club = two_clubs["client"], two_clubs["club"]
    assert client.get(f"/admin/clubs/club/{club.pk}/change/").status_code == 200
    for text in (f"0_{club.pk}", f"\uff10{club.pk}"):
        response = client.get(f"/admin/clubs/club/{text}/change/", follow=True)
        assert response.redirect_chain and "doesn’t exist" in response.content.decode(), text


def test_an_admin_list_filter_with_an_id_in_integer_syntax_is_left_out_with_a_message(two_clubs):
    client, club = two_clubs["client"], two_clubs["club"]
    response = client.get(f"/admin/clubs/season/?club__id__exact=0_{club.pk}&q=", follow=True)
    assert response.redirect_chain[0][0] == "/admin/clubs/season/?q="
    page = response.content.decode()
    assert f"Club: “0_{club.pk}” is not an id (plain digits); the filter was left out." in page
    roster = client.get(f"/admin/clubs/player/?memberships__club__id__exact=%EF%BC%91{club.pk}", follow=True)
    assert "Club: “１" in roster.content.decode()


def test_an_admin_action_on_ids_in_integer_syntax_changes_nothing(two_clubs):
    client, club = two_clubs["client"], two_clubs["club"]
    keep, duplicate = Player.objects.filter(memberships__club=club).order_by("pk")[:2]
    players = Player.objects.count()
    response = client.post(
        "/admin/clubs/player/",
        {"action": "merge_selected", "index": "0", "_selected_action": [str(keep.pk), f"0_{duplicate.pk}"]},
        follow=True,
    )
    assert "The selection names no item of this list" in response.content.decode()
    assert Player.objects.count() == players


def test_an_admin_list_page_number_in_integer_syntax_shows_the_first_page_with_a_message(two_clubs):
    response = two_clubs["client"].get("/admin/clubs/season/?p=0_1", follow=True)
    assert response.redirect_chain[0][0] == "/admin/clubs/season/"
    assert "Page: “0_1” is not a page number (plain digits)." in response.content.decode()
