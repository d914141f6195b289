"""The admin is scoped per club for every choice, and what must go through
the services (hands, seats, games with a history, roles) is not changed or deleted behind them."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client

from clubs.models import ClubRole, Membership, Player
from scoring.models import Game, GameSeat, Hand, HandChange
from tests.access_helpers import PASSWORD, make_game

pytestmark = pytest.mark.django_db


def form_data(page: str, form_id: str) -> dict[str, str]:
    """What a browser would send for the admin form as drawn (inputs, selects, textareas)."""
    body = page[page.index(f'id="{form_id}"') :]
    body = body[: body.index("</form>")]
    data: dict[str, str] = {}
    for tag in re.findall(r"<input[^>]*>", body):
        name = re.search(r'name="([^"]*)"', tag)
        kind = re.search(r'type="([^"]*)"', tag)
        if not name or (kind and kind.group(1) in ("submit", "button", "file")):
            continue
        if kind and kind.group(1) == "checkbox" and "checked" not in tag:
            continue
        value = re.search(r'value="([^"]*)"', tag)
        data[name.group(1)] = html.unescape(value.group(1)) if value else ""
    for name, inner in re.findall(r'<select[^>]*name="([^"]*)"[^>]*>(.*?)</select>', body, re.S):
        chosen = re.findall(r'<option value="([^"]*)"[^>]*selected', inner)
        data[name] = html.unescape(chosen[0]) if chosen else ""
    for name, inner in re.findall(r'<textarea[^>]*name="([^"]*)"[^>]*>(.*?)</textarea>', body, re.S):
        data[name] = html.unescape(inner.strip("\n"))
    return data


def test_organiser_cannot_pick_another_clubs_season_in_the_admin(two_clubs):
    client, game = two_clubs["client"], two_clubs["games"][0]
    url = f"/admin/scoring/game/{game.pk}/change/"
    page = client.get(url).content.decode()
    assert "Alfa season" not in page and "Club Alfa" not in page
    data = form_data(page, "game_form")
    data["season"] = str(two_clubs["season_a"].pk)
    response = client.post(url, data)
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    game.refresh_from_db()
    assert game.season == two_clubs["season"]


def test_organiser_cannot_seat_another_clubs_player_in_a_game_in_the_admin(two_clubs):
    client, game = two_clubs["client"], two_clubs["games"][0]
    url = f"/admin/scoring/game/{game.pk}/change/"
    page = client.get(url).content.decode()
    data = form_data(page, "game_form")
    seat = game.seat_rows.order_by("seat").first()
    data.update({"seat_rows-0-id": str(seat.pk), "seat_rows-0-player": str(two_clubs["player_a"].pk)})
    client.post(url, data)
    seat.refresh_from_db()
    assert seat.player != two_clubs["player_a"]
    assert not GameSeat.objects.filter(player=two_clubs["player_a"]).exists()


def test_organiser_cannot_add_another_clubs_player_to_the_roster_in_the_admin(two_clubs):
    client, club = two_clubs["client"], two_clubs["club"]
    url = f"/admin/clubs/club/{club.pk}/change/"
    data = form_data(client.get(url).content.decode(), "club_form")
    total = int(data["memberships-TOTAL_FORMS"])
    data[f"memberships-{total - 1}-player"] = str(two_clubs["player_a"].pk)
    response = client.post(url, data)
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not Membership.objects.filter(club=club, player=two_clubs["player_a"]).exists()
    found = client.get(
        "/admin/autocomplete/",
        {"app_label": "clubs", "model_name": "membership", "field_name": "player", "term": "Zden"},
    ).json()
    assert found["results"] == []


def test_role_and_list_filter_choices_name_only_the_organisers_clubs(two_clubs):
    client = two_clubs["client"]
    add_role = client.get("/admin/clubs/clubrole/add/").content.decode()
    assert "arne_alfa" not in add_role and "Club Alfa" not in add_role
    for url in ("/admin/clubs/season/", "/admin/clubs/player/", "/admin/clubs/clubrole/"):
        assert "Club Alfa" not in client.get(url).content.decode(), url
    response = client.post(
        "/admin/clubs/clubrole/add/",
        {"user": str(two_clubs["arne"].pk), "club": str(two_clubs["club_a"].pk), "role": "member"},
    )
    assert response.status_code == 200
    assert not ClubRole.objects.filter(user=two_clubs["arne"], club=two_clubs["club"]).exists()


def test_the_admin_merge_refuses_a_player_of_another_club_as_the_web_does(two_clubs):
    client = two_clubs["client"]
    mine = two_clubs["people"]["Řehoř"]
    shared = Player.objects.create(name="Rehor")
    Membership.objects.create(club=two_clubs["club"], player=shared)
    Membership.objects.create(club=two_clubs["club_a"], player=shared)
    for pair in ([mine.pk, two_clubs["player_a"].pk], [mine.pk, shared.pk]):
        response = client.post(
            "/admin/clubs/player/", {"action": "merge_selected", "_selected_action": pair}, follow=True
        )
        assert response.status_code == 200
    assert Player.objects.filter(pk__in=[mine.pk, shared.pk, two_clubs["player_a"].pk]).count() == 3
    web = client.post(f"/league/players/{mine.pk}/merge", {"duplicate": shared.pk})
    assert web.status_code == 403


def test_a_superuser_still_sees_every_club(two_clubs):
    root = User.objects.create_superuser("root", "root@example.org", PASSWORD)
    client = Client()
    client.force_login(root)
    page = client.get(f"/admin/scoring/game/{two_clubs['games'][0].pk}/change/").content.decode()
    assert "Alfa season" in page


def test_hands_seats_and_the_trail_cannot_be_deleted_in_the_admin(two_clubs):
    root = User.objects.create_superuser("root", "root@example.org", PASSWORD)
    client = Client()
    client.force_login(root)
    game = two_clubs["games"][1]
    hand = game.hands.order_by("number").last()
    assert client.get(f"/admin/scoring/hand/{hand.pk}/delete/").status_code == 403
    assert client.post(f"/admin/scoring/hand/{hand.pk}/delete/", {"post": "yes"}).status_code == 403
    listing = client.get("/admin/scoring/hand/").content.decode()
    assert "delete_selected" not in listing
    page = client.get(f"/admin/scoring/game/{game.pk}/change/").content.decode()
    assert 'name="seat_rows-0-DELETE"' not in page and 'name="seat_rows-0-player"' not in page
    data = form_data(page, "game_form")
    data.update({"seat_rows-0-DELETE": "on", "seat_rows-0-id": str(game.seat_rows.first().pk)})
    client.post(f"/admin/scoring/game/{game.pk}/change/", data)
    assert game.seat_rows.count() == 4 and Hand.objects.filter(pk=hand.pk).exists()


def test_a_game_with_hands_or_corrections_cannot_be_deleted_in_the_admin(two_clubs):
    root = User.objects.create_superuser("root", "root@example.org", PASSWORD)
    client = Client()
    client.force_login(root)
    game = two_clubs["games"][0]
    assert client.post(f"/admin/scoring/game/{game.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Game.objects.filter(pk=game.pk).exists()
    empty = make_game()
    response = client.post(f"/admin/scoring/game/{empty.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302 and not Game.objects.filter(pk=empty.pk).exists()


def test_an_organiser_cannot_demote_himself_as_the_last_organiser_in_the_admin(two_clubs):
    client, bea = two_clubs["client"], two_clubs["bea"]
    role = ClubRole.objects.get(user=bea, club=two_clubs["club"])
    url = f"/admin/clubs/clubrole/{role.pk}/change/"
    response = client.post(url, {"role": "member"})
    assert response.status_code == 200
    assert "A club needs at least one organiser." in response.content.decode()
    assert client.post(f"/admin/clubs/clubrole/{role.pk}/delete/", {"post": "yes"}).status_code == 403
    role.refresh_from_db()
    assert role.role == "organiser"


def test_an_admin_role_change_goes_through_the_service(two_clubs):
    client, club = two_clubs["client"], two_clubs["club"]
    scorer = User.objects.create_user("sam", "sam@example.org", PASSWORD)
    role = ClubRole.objects.create(user=scorer, club=club, role=ClubRole.Role.SCORER)
    game = make_game(club_id=club.pk)
    game.created_by = scorer
    game.edit_token_hash = "x" * 64
    game.save()
    response = client.post(f"/admin/clubs/clubrole/{role.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not ClubRole.objects.filter(pk=role.pk).exists()
    game.refresh_from_db()
    assert game.edit_token_hash == ""  # set_club_role ran: his games' device right is gone
    assert not HandChange.objects.filter(game=game).exists()


def test_a_staff_organiser_sees_no_accounts_even_with_the_permission(two_clubs):
    client, bea = two_clubs["client"], two_clubs["bea"]
    bea.user_permissions.add(*Permission.objects.filter(content_type__app_label="auth"))
    assert client.get("/admin/auth/user/").status_code == 403
    assert client.get(f"/admin/auth/user/{two_clubs['arne'].pk}/change/").status_code == 403
    assert "/admin/auth/" not in client.get("/admin/").content.decode()


def test_no_admin_form_offers_a_staff_organiser_another_clubs_record(two_clubs, rf):
    """Every foreign-key and many-to-many choice of every club and table admin form and inline."""
    from django import forms
    from django.contrib import admin

    from tests.access_helpers import make_game

    game_a = make_game(club_id=two_clubs["club_a"].pk)
    foreign = {
        two_clubs["club_a"],
        two_clubs["season_a"],
        two_clubs["player_a"],
        two_clubs["arne"],
        game_a,
    }
    request = rf.get("/admin/")
    request.user = two_clubs["bea"]
    game_b = two_clubs["games"][0]
    checked = 0
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label not in ("clubs", "scoring"):
            continue
        obj = game_b if model is Game else None
        form_classes = [model_admin.get_form(request, obj)]
        for inline in model_admin.get_inline_instances(request, obj):
            form_classes.append(inline.get_formset(request, obj).form)
        for form_class in form_classes:
            for name, field in form_class.base_fields.items():
                if isinstance(field, forms.ModelChoiceField):
                    assert field.queryset is not None
                    offered = set(field.queryset)
                    assert not offered & foreign, (model.__name__, name)
                    checked += 1
    assert checked >= 8, checked
