"""An existing database upgrades with `migrate` and loses nothing.

A club's records (games and hands, a correction, a club, a season, roles, a published results
link, a share link) are written and their pages read; the database is then taken back to the
migrations the project had before its apps were split (scoring 0004, no clubs app), where an
admin group gets a permission on clubs, and it is migrated forward. The records are written with
today's models, which know the columns later migrations add, hence before going back. Every page
then shows the same figures, and the group still holds its permission under the club models' new
app. Runs on the suite's database: SQLite by default, PostgreSQL under `.ci/run`.
"""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from clubs.models import ClubRole, Season
from ratings.models import PlayerRating
from scoring import services
from scoring.audit import Actor
from scoring.models import Game, GameStat, Hand, HandChange, HandStat
from tests.league_data import G2, small_season

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_SPLIT = [("scoring", "0004_clubrole_club_foreign_key_season_publish_code"), ("clubs", None)]


def _migrate(targets: list[tuple[str, str | None]] | None = None) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    targets = targets or executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    ContentType.objects.clear_cache()
    return MigrationExecutor(connection)


def _page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    # What changes between two reads of the same page: the CSRF token (forms and htmx headers).
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return re.sub(r'(csrfmiddlewaretoken" value="|X-CSRFToken": ")[^"]+"', "", body.decode())


@pytest.fixture
def old_database():
    def back_to_before_the_split() -> None:
        executor = _migrate(BEFORE_SPLIT)
        old = executor.loader.project_state(BEFORE_SPLIT[:1]).apps
        assert old.get_model("scoring", "Club")._meta.db_table == "scoring_club"  # the models live in scoring

    yield back_to_before_the_split
    _migrate()  # leave the database at the latest migrations whatever happened


def test_an_existing_database_migrates_forward_with_every_record_figure_and_page(old_database):
    data = small_season()
    club, season, (g1, g2, g3) = data["club"], data["season"], data["games"]
    organiser = User.objects.create_user("olga", password="x-very-secret-1")
    scorer = User.objects.create_user("sven", password="x-very-secret-2")
    ClubRole.objects.create(user=organiser, club=club, role=ClubRole.Role.ORGANISER)
    ClubRole.objects.create(user=scorer, club=club, role=ClubRole.Role.SCORER)
    # A correction: g2's first hand re-entered with one more trick for EW, then put back.
    changed = {**G2[0], "tricks": {"NS": 11, "EW": 14}}
    services.edit_hand(game=g2, number=1, data=changed, actor=Actor.of_user(organiser))
    services.edit_hand(game=g2, number=1, data=G2[0], actor=Actor.of_user(organiser))
    Season.objects.filter(pk=season.pk).update(publish_code="published-vaar-2026")

    reader = Client()
    reader.force_login(organiser)
    pages = {
        "game page": f"/g/{g2.code}/",
        "check game page": f"/g/{g3.code}/",
        "corrections": f"/g/{g2.code}/history/",
        "club corrections": f"/games/clubs/{club.pk}/corrections/",
        "standings": f"/league/seasons/{season.pk}/",
        "player page": f"/league/players/{data['people']['Åsa'].pk}/",
        "club page": f"/league/clubs/{club.pk}/",
        "published results": "/league/results/published-vaar-2026/",
        "share link": f"/s/{g1.share_code}/",
        "hands.csv": f"/league/export/hands.csv?season={season.pk}",
    }
    before = {name: _page(reader if name != "share link" else Client(), url) for name, url in pages.items()}
    counts = {
        model: model.objects.count() for model in (Game, Hand, HandChange, HandStat, GameStat, ClubRole)
    }

    old_database()  # back to before the split
    # An admin group allowed to change clubs, on the content type the club model had in scoring.
    club_type = ContentType.objects.get(app_label="scoring", model="club")
    helpers = Group.objects.create(name="Club helpers")
    helpers.permissions.add(Permission.objects.get(content_type=club_type, codename="change_club"))
    staff = User.objects.create_user("hanna", password="x-very-secret-3", is_staff=True)
    staff.groups.add(helpers)

    _migrate()
    # The ratings are derived (their tables are younger than the split): `refresh_ratings`, a step
    # of the upgrade (README, "Upgrading"), builds them from the old games before anyone looks.
    call_command("refresh_ratings", stdout=io.StringIO())

    assert _page(reader, pages["game page"]) == before["game page"]
    for name, url in pages.items():
        assert _page(reader if name != "share link" else Client(), url) == before[name], name
    assert {model: model.objects.count() for model in counts} == counts
    # The figures themselves (tests/league_data.py): NS win 34–20, 37–(−20); check chips ±16.
    scores = {game.code: game.scores for game in Game.objects.all()}
    assert scores[g1.code] == {"NS": 34, "EW": 20}
    assert scores[g2.code] == {"NS": 37, "EW": -20}
    assert Game.objects.get(pk=g3.pk).chip_totals == {"NS": -16, "EW": 16}
    assert (
        "37" in before["game page"]
        and "Åsa" in before["standings"]
        and "Klubbén" in before["published results"]
    )
    assert HandChange.objects.filter(game=g2).count() == 2
    assert Game.objects.get(pk=g2.pk).club == club and Game.objects.get(pk=g2.pk).season.pk == season.pk
    assert set(ClubRole.objects.values_list("user__username", "role")) == {
        ("olga", "organiser"),
        ("sven", "scorer"),
    }
    # The content type moved with the model: same row, same permissions, same groups.
    moved = ContentType.objects.get(pk=club_type.pk)
    assert (moved.app_label, moved.model) == ("clubs", "club")
    assert not ContentType.objects.filter(
        app_label="scoring", model__in=["club", "player", "season"]
    ).exists()
    assert User.objects.get(pk=staff.pk).has_perm("clubs.change_club")
    assert PlayerRating.objects.filter(scope="all").count() == 4
