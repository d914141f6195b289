"""An existing database upgrades with `migrate` and loses nothing.

A club's records (games and hands, a correction, a club, a season, roles, a published results
link, a share link) are written and their pages read; the database is then taken back to the
migrations the project had before its apps were split (scoring 0004, no clubs app), where an
admin group gets a permission on clubs, and it is migrated forward. These records are written with
today's models, which know the columns later migrations add, hence before going back. One more
game is written through the old schema itself (the models as migration 0004 knew them: game,
seats, hands, summary and statistics rows, as the code of that time wrote them), so the columns
added since meet rows that never had them. Every page then shows the same figures, the old-schema
game opens and continues, and the group still holds its permission under the club models' new
app. Runs on the suite's database: SQLite by default, PostgreSQL under `.ci/run`.
"""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from clubs.models import ClubRole, Season
from ratings.models import PlayerRating
from scoring import services, stats, worked_example
from scoring.audit import Actor
from scoring.models import Game, GameStat, Hand, HandChange, HandStat
from scoring.rules import check_record
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
    def back_to_before_the_split() -> Any:
        executor = _migrate(BEFORE_SPLIT)
        old = executor.loader.project_state(BEFORE_SPLIT[:1]).apps
        assert old.get_model("scoring", "Club")._meta.db_table == "scoring_club"  # the models live in scoring
        return old

    yield back_to_before_the_split
    _migrate()  # leave the database at the latest migrations whatever happened


OLD_CODE = "oldschema-01"


def _write_through_the_old_schema(old: Any) -> dict[str, Any]:
    """A Check Pinochle game of the worked example's first three hands, written with the models
    of migration 0004 (the summary and statistics rows as that code wrote them). A quick game, in
    no club: the league pages compared before and after stay as they were."""
    record = {**worked_example.record(), "variant": "check", "target": None}
    hands = record["hands"][:3]
    result = check_record({**record, "hands": hands})
    game = old.get_model("scoring", "Game").objects.create(
        code=OLD_CODE,
        share_code="oldschema-share",
        seats=4,
        variant="check",
        deck="single",
        first_dealer=record.get("first_dealer", "N"),
        hand_count=len(hands),
        finished=result.finished,
        winner=result.winner or "",
        scores=dict(result.scores),
        chip_totals=dict(result.chips),
    )
    seat_model = old.get_model("scoring", "GameSeat")
    seat_rows = [
        seat_model.objects.create(game=game, seat=seat, name=name) for seat, name in record["players"].items()
    ]
    hand_model = old.get_model("scoring", "Hand")
    for number, data in enumerate(hands, start=1):
        hand_model.objects.create(game=game, number=number, data=data)
    hand_stats, game_stats = stats.stat_rows(game, seat_rows, hands, result)
    for model, rows in (("HandStat", hand_stats), ("GameStat", game_stats)):
        old_model = old.get_model("scoring", model)
        columns = [f.attname for f in old_model._meta.concrete_fields if not f.primary_key]
        old_model.objects.bulk_create(
            [old_model(**{name: getattr(row, name) for name in columns}) for row in rows]
        )
    return {"scores": dict(result.scores), "chips": dict(result.chips), "players": record["players"]}


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

    old = old_database()  # back to before the split
    written = _write_through_the_old_schema(old)
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
    old_game_rows = {Game: 1, Hand: 3, HandChange: 0, HandStat: 12, GameStat: 4, ClubRole: 0}
    assert {model: model.objects.count() for model in counts} == {
        model: count + old_game_rows[model] for model, count in counts.items()
    }
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

    # The game the old code wrote: its figures stand, its pages show them, and the table carries
    # on with it.
    game = Game.objects.get(code=OLD_CODE)
    assert (game.club, game.season, game.meld_mode) == (None, None, Game.MeldMode.ITEMS)
    assert (game.scores, game.chip_totals) == (written["scores"], written["chips"])
    result = services.score(game)
    assert (dict(result.scores), dict(result.chips)) == (written["scores"], written["chips"])
    assert (
        HandStat.objects.filter(game=game).count() == 12 and GameStat.objects.filter(game=game).count() == 4
    )
    shared = _page(Client(), "/s/oldschema-share/")
    assert all(name in shared for name in written["players"].values())
    for side, total in written["scores"].items():
        assert f'data-testid="total-{side}">{total}</div>' in shared
    services.record_hand(game=game, number=4, data=worked_example.hand(4))
    assert Game.objects.get(pk=game.pk).hand_count == 4
    assert HandStat.objects.filter(game=game).count() == 16
