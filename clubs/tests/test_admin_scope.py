"""The admin is the operator's tool: an active superuser sees and changes every record; any other
account — a staff organiser with every model permission included — gets the admin's log-in page
and no data from any admin address, and an anonymous visitor is sent to the log-in page. What must
go through the services (hands, seats, the trail, roles) is not changed or deleted behind them, and
a club or season with games filed under it is not deleted (`Game.club`/`Game.season` PROTECT)."""

from __future__ import annotations

import datetime
import html
import re
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.db.models import ProtectedError
from django.test import Client
from django.urls import reverse

from clubs.models import Club, ClubRole, Membership, Player, Season
from scoring.models import DeviceGame, Game, Hand, HandChange
from tests.access_helpers import PASSWORD, edit_token_cookie, make_game
from tests.admin_urls import every_admin_url, registered_models, unchecked_admin_url_names
from tests.league_data import small_season

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


def _signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def world(people) -> dict[str, Any]:
    """The small season's club (games with hands and a correction) organised by staff user bea,
    who holds every model permission of every app; a second club with a season; a superuser."""
    data = small_season()
    other = Club.objects.create(name="Club Alfa")
    Season.objects.create(
        club=other,
        name="Alfa season",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
    )
    Membership.objects.create(club=other, player=Player.objects.create(name="Zdeněk Alfa"))
    bea = User.objects.create_user("bea", "bea@example.org", PASSWORD, is_staff=True)
    bea.user_permissions.set(Permission.objects.all())
    ClubRole.objects.create(user=bea, club=data["club"], role=ClubRole.Role.ORGANISER)
    root = people.superuser()
    Group.objects.create(name="Operators")
    game = data["games"][0]
    HandChange.objects.create(
        game=game, hand_number=1, action="edit", old_data={}, actor_label="bea", club_id=data["club"].pk
    )
    return {**data, "other": other, "bea": bea, "root": root}


def test_the_addresses_checked_are_every_admin_address(world):
    """A new admin page (a model registered, a view added) must be added to the check below."""
    assert not unchecked_admin_url_names(), f"check these admin addresses too: {unchecked_admin_url_names()}"


def _refused(response: Any, url: str) -> None:
    assert response.status_code == 302, (url, response.status_code)
    assert response["Location"].startswith(reverse("admin:login")), (url, response["Location"])
    assert not response.content, url  # nothing of any record


@pytest.mark.parametrize("who", ["staff organiser", "anonymous", "inactive superuser"])
def test_only_an_active_superuser_gets_anything_from_any_admin_address(world, who):
    if who == "staff organiser":
        client = _signed_in(world["bea"])
    elif who == "inactive superuser":
        gone = world["root"]
        client = _signed_in(gone)
        User.objects.filter(pk=gone.pk).update(is_active=False)
    else:
        client = Client()
    counts = {model: model._default_manager.count() for model in registered_models()}
    urls = every_admin_url()
    assert len(urls) >= 40, len(urls)
    for url in urls:
        _refused(client.get(url), url)
        _refused(client.post(url, {"post": "yes", "name": "Forged", "action": "delete_selected"}), url)
    assert counts == {model: model._default_manager.count() for model in registered_models()}
    assert Club.objects.filter(name="Forged").count() == 0


def test_a_staff_organiser_gets_the_log_in_page_and_no_admin_data(world):
    client = _signed_in(world["bea"])
    response = client.get(reverse("admin:index"), follow=True)
    page = response.content.decode()
    assert response.status_code == 200 and 'name="password"' in page
    for name in ("Klubbén", "Club Alfa", "Zdeněk", "/admin/clubs/", "/admin/scoring/", "/admin/auth/"):
        assert name not in page, name


def test_a_superuser_sees_every_club_and_every_admin_page(world):
    client = _signed_in(world["root"])
    clubs = client.get(reverse("admin:clubs_club_changelist")).content.decode()
    assert "Klubbén" in clubs and "Club Alfa" in clubs
    index = client.get(reverse("admin:index")).content.decode()
    for app in ("/admin/clubs/", "/admin/scoring/", "/admin/auth/"):
        assert app in index
    for url in every_admin_url():
        response = client.get(url)
        # 403: the read-only records' delete pages; 404: "view on site" of a model without a page
        allowed = (200, 302, 403, 404) if url.startswith("/admin/r/") else (200, 302, 403)
        assert response.status_code in allowed, (url, response.status_code)
        if response.status_code == 302:
            assert not response["Location"].startswith(reverse("admin:login")), url


def test_a_club_or_season_with_games_is_not_deleted_in_the_admin(world):
    client = _signed_in(world["root"])
    club, season = world["club"], world["season"]
    for url in (
        reverse("admin:clubs_club_delete", args=[club.pk]),
        reverse("admin:clubs_season_delete", args=[season.pk]),
    ):
        page = client.get(url).content.decode()
        assert "would require deleting the following protected related objects" in page, url
        response = client.post(url, {"post": "yes"})
        assert response.status_code == 200, url  # the page again, listing the games
    assert Club.objects.filter(pk=club.pk).exists() and Season.objects.filter(pk=season.pk).exists()
    assert Game.objects.filter(club=club, season=season).count() == len(world["games"])


def test_a_club_without_games_is_deleted_with_its_seasons_and_roles(world):
    client = _signed_in(world["root"])
    other = world["other"]
    ClubRole.objects.create(user=world["bea"], club=other, role=ClubRole.Role.ORGANISER)
    response = client.post(reverse("admin:clubs_club_delete", args=[other.pk]), {"post": "yes"})
    assert response.status_code == 302
    assert (
        not Club.objects.filter(pk=other.pk).exists() and not Season.objects.filter(club_id=other.pk).exists()
    )


def test_deleting_a_club_or_season_with_games_is_refused_everywhere(world):
    with pytest.raises(ProtectedError):
        world["season"].delete()
    with pytest.raises(ProtectedError):
        world["club"].delete()
    with pytest.raises(ProtectedError):
        Club.objects.filter(pk=world["club"].pk).delete()
    assert Game.objects.filter(club=world["club"], season=world["season"]).count() == len(world["games"])


def test_hands_seats_and_the_trail_cannot_be_changed_or_deleted_in_the_admin(world):
    client = _signed_in(world["root"])
    game = world["games"][0]
    hand = game.hands.order_by("number").last()
    assert hand is not None
    assert client.get(reverse("admin:scoring_hand_delete", args=[hand.pk])).status_code == 403
    assert (
        client.post(reverse("admin:scoring_hand_delete", args=[hand.pk]), {"post": "yes"}).status_code == 403
    )
    assert (
        client.post(reverse("admin:scoring_hand_change", args=[hand.pk]), {"data": "{}"}).status_code == 403
    )
    trail = HandChange.objects.first()
    assert trail is not None
    assert (
        client.post(reverse("admin:scoring_handchange_delete", args=[trail.pk]), {"post": "yes"}).status_code
        == 403
    )
    assert "delete_selected" not in client.get(reverse("admin:scoring_hand_changelist")).content.decode()
    url = reverse("admin:scoring_game_change", args=[game.pk])
    page = client.get(url).content.decode()
    assert 'name="seat_rows-0-DELETE"' not in page and 'name="seat_rows-0-player"' not in page
    data = form_data(page, "game_form")
    data.update({"seat_rows-0-DELETE": "on", "seat_rows-0-id": str(game.seat_rows.first().pk)})
    client.post(url, data)
    assert game.seat_rows.count() == 4 and Hand.objects.filter(pk=hand.pk).exists()


def test_a_game_with_hands_cannot_be_deleted_in_the_admin_and_an_empty_one_can(world):
    client = _signed_in(world["root"])
    game = world["games"][0]
    assert (
        client.post(reverse("admin:scoring_game_delete", args=[game.pk]), {"post": "yes"}).status_code == 403
    )
    assert Game.objects.filter(pk=game.pk).exists()
    empty = make_game()
    response = client.post(reverse("admin:scoring_game_delete", args=[empty.pk]), {"post": "yes"})
    assert response.status_code == 302 and not Game.objects.filter(pk=empty.pk).exists()


def test_filing_a_game_in_another_clubs_season_is_refused_naming_the_field(world):
    client = _signed_in(world["root"])
    game = world["games"][0]
    url = reverse("admin:scoring_game_change", args=[game.pk])
    data = form_data(client.get(url).content.decode(), "game_form")
    data["season"] = str(Season.objects.get(name="Alfa season").pk)
    response = client.post(url, data)
    assert response.status_code == 200 and "The season belongs to another club." in response.content.decode()
    game.refresh_from_db()
    assert game.season_id == world["season"].pk


def test_the_last_organiser_is_not_demoted_in_the_admin(world):
    client = _signed_in(world["root"])
    role = ClubRole.objects.get(user=world["bea"], club=world["club"])
    response = client.post(reverse("admin:clubs_clubrole_change", args=[role.pk]), {"role": "member"})
    assert response.status_code == 200
    assert "A club needs at least one organiser." in response.content.decode()
    assert (
        client.post(reverse("admin:clubs_clubrole_delete", args=[role.pk]), {"post": "yes"}).status_code
        == 403
    )
    role.refresh_from_db()
    assert role.role == "organiser"


def test_an_admin_role_change_goes_through_the_service(world):
    client, club = _signed_in(world["root"]), world["club"]
    scorer = User.objects.create_user("sam", "sam@example.org", PASSWORD)
    role = ClubRole.objects.create(user=scorer, club=club, role=ClubRole.Role.SCORER)
    game = make_game(club_id=club.pk)
    game.created_by = scorer
    game.save()
    edit_token_cookie(game)  # the phone that started the game scores it
    response = client.post(reverse("admin:clubs_clubrole_delete", args=[role.pk]), {"post": "yes"})
    assert response.status_code == 302
    assert not ClubRole.objects.filter(pk=role.pk).exists()
    # set_club_role ran: the phone's right to his game in progress is gone
    assert not DeviceGame.objects.filter(game=game, active=True).exists()
