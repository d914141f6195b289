"""One large import never stalls the tables.

An upload is checked whole before any write, written in short transactions while its games stay
hidden from every page, standing, export and count, and made visible all at once; a failure
leaves nothing behind. Its page shows the progress ("Imported 600 of 1,500 games") and refreshes
itself without JavaScript. The largest file accepted is a setting, stated on the page.
"""

import datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from clubs.models import Club, Player
from league import services, standings
from league.csv_io.reader import check_bytes, parse_hands_csv
from league.imports import worker
from league.models import ImportBatch, PendingGame
from scoring.models import Game, GameStat, Hand
from tests.helpers import text
from tests.league_data import small_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(people):
    """alice, a club organiser: she organises CLUB, and each test makes her the organiser of the
    club it makes."""
    return people.client("alice")


def _exported(client: Client, organiser: User) -> bytes:
    """The small season as hands.csv, and a database without its games and players (the club and
    season stay: the client organises them, and an organiser imports only into their own clubs)."""
    small_season(organiser)
    raw = client.get("/league/export/hands.csv").getvalue()
    Game.objects.all().delete()
    Player.objects.all().delete()
    return raw


def test_pending_games_are_seen_by_no_page_standing_export_or_count(client, people):
    data = small_season(people["alice"])
    raw = client.get("/league/export/hands.csv").getvalue()
    season_page = text(client.get(f"/league/seasons/{data['season'].pk}/"))
    games = parse_hands_csv(raw.decode("utf-8-sig").replace(",Klubbén,", ",Andra klubben,"))
    for new in games:
        assert new.code is not None
        new.code = new.code[:8] + "x"  # new codes: these are other games
    batch = ImportBatch.objects.create(status=ImportBatch.Status.WRITING, total=3)
    hidden = services.write_pending_games(batch_id=batch.pk, games=games)

    assert Game.all_objects.count() == 6 and Game.objects.count() == 3
    assert GameStat.objects.filter(game__in=hidden).exists()  # written, but belonging to nobody yet
    hidden_code = hidden[0].code
    assert client.get(f"/g/{hidden_code}/").status_code == 404
    assert hidden_code not in client.get("/").content.decode()
    assert hidden_code not in client.get("/league/").content.decode()
    export = b"".join(client.get("/league/export/hands.csv").streaming_content).decode()
    assert hidden_code not in export and "Andra klubben" not in export
    assert text(client.get(f"/league/seasons/{data['season'].pk}/")) == season_page
    assert not Club.objects.filter(name="Andra klubben").exists()

    placed = [(game.pk, new) for game, new in zip(hidden, games, strict=True)]
    services.publish_pending_games(batch_id=batch.pk, placed=placed)
    assert Game.objects.count() == 6
    hidden_club = Game.objects.get(code=hidden_code).club
    assert hidden_club is not None and hidden_club.name == "Andra klubben"
    other = Club.objects.get(name="Andra klubben")
    assert set(other.players.values_list("name", flat=True)) == {"Åsa", "Čeněk", "Örjan", "Řehoř"}
    season = other.seasons.get()

    def figures(season):
        return sorted(
            (ln.name, ln.games, ln.wins, ln.losses) for ln in standings.season_standings(season)["players"]
        )

    assert figures(season) == figures(data["season"])  # the same games, counted once, in the other club


def _other_games(raw: bytes, mark: str) -> list[services.NewGame]:
    games = parse_hands_csv(raw.decode("utf-8-sig"))
    for new in games:
        assert new.code is not None
        new.code = new.code[:8] + mark  # new codes: these are other games
    return games


def test_each_batch_shows_refuses_or_takes_away_exactly_its_own_hidden_games(client, people):
    raw = _exported(client, people["alice"])
    uploader = User.objects.create_user("uploader", "u@example.org", "not-used-here-1")
    shown_batch, other_batch, deleted_batch = (
        ImportBatch.objects.create(user=user, status=ImportBatch.Status.WRITING)
        for user in (None, None, uploader)
    )
    to_show = _other_games(raw, "a")
    shown = services.write_pending_games(batch_id=shown_batch.pk, games=to_show)
    other = services.write_pending_games(batch_id=other_batch.pk, games=_other_games(raw, "b"))
    deleted = services.write_pending_games(batch_id=deleted_batch.pk, games=_other_games(raw, "c"))
    assert Game.all_objects.filter(hidden=True).count() == 9 and not Game.objects.exists()

    services.publish_pending_games(
        batch_id=shown_batch.pk, placed=[(g.pk, new) for g, new in zip(shown, to_show, strict=True)]
    )
    assert set(Game.objects.values_list("pk", flat=True)) == {game.pk for game in shown}
    uploader.delete()  # its unfinished batch goes, and the games it hid with it
    assert not ImportBatch.objects.filter(pk=deleted_batch.pk).exists()
    assert not Game.all_objects.filter(pk__in=[game.pk for game in deleted]).exists()
    assert services.discard_pending_games(batch_id=other_batch.pk) == 3
    shown_batch.delete()  # a finished batch: the games it showed stay
    assert set(Game.all_objects.values_list("pk", flat=True)) == {game.pk for game in shown}
    assert Game.objects.count() == 3 and not PendingGame.objects.exists()
    assert not Game.all_objects.filter(pk__in=[game.pk for game in other]).exists()


def test_an_upload_is_written_in_short_chunks_and_appears_all_at_once(client, settings, monkeypatch, people):
    raw = _exported(client, people["alice"])
    settings.IMPORT_CHUNK_GAMES = 1
    seen: list[tuple[int, int]] = []
    real = services.write_pending_games

    def spy(*, batch_id, games):
        seen.append((Game.objects.count(), Game.all_objects.count()))  # before this chunk
        return real(batch_id=batch_id, games=games)

    monkeypatch.setattr(worker, "write_pending_games", spy)
    response = client.post("/league/import/", {"file": _upload(raw)}, follow=True)
    assert "Imported 3 games with 4 hands." in response.content.decode()
    assert seen == [(0, 0), (0, 1), (0, 2)]  # three transactions, nothing visible meanwhile
    assert Game.objects.count() == 3 and not Game.all_objects.filter(hidden=True).exists()
    batch = ImportBatch.objects.get()
    assert (batch.status, batch.written, batch.total, batch.hands) == ("done", 3, 3, 4)
    assert set(Player.objects.values_list("name", flat=True)) == {"Åsa", "Čeněk", "Örjan", "Řehoř"}


def test_a_failure_half_way_leaves_nothing_behind(client, settings, monkeypatch, people):
    raw = _exported(client, people["alice"])
    settings.IMPORT_CHUNK_GAMES = 1
    real = services.write_pending_games
    calls = []

    def breaks_on_the_third(*, batch_id, games):
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("disk full")
        return real(batch_id=batch_id, games=games)

    monkeypatch.setattr(worker, "write_pending_games", breaks_on_the_third)
    response = client.post("/league/import/", {"file": _upload(raw)})
    assert response.status_code == 400
    assert "the import failed on the server; nothing was imported" in response.content.decode()
    assert not Game.all_objects.exists() and not Hand.objects.exists() and not GameStat.objects.exists()
    assert not Player.objects.exists()  # no player written; the club and season were there before
    assert ImportBatch.objects.get().status == "refused"


def test_the_import_page_shows_progress_and_refreshes_itself(client, people):
    organiser = people["alice"]
    batch = ImportBatch.objects.create(
        user=organiser, file_name="big.json", status=ImportBatch.Status.WRITING, total=1500, written=600
    )
    page = client.get(f"/league/import/{batch.pk}/").content.decode()
    assert "Imported 600 of 1,500 games" in page
    assert '<meta http-equiv="refresh" content="2">' in page
    ImportBatch.objects.filter(pk=batch.pk).update(status=ImportBatch.Status.DONE, written=1500, hands=150000)
    page = client.get(f"/league/import/{batch.pk}/").content.decode()
    assert "Imported 1,500 games with 150,000 hands." in page and "refresh" not in page


def test_only_the_uploader_sees_an_import_page(client, people):
    batch = ImportBatch.objects.create(user=people["alice"], file_name="x.csv")
    other = Client()
    other.force_login(User.objects.create_user("someone", password="x-very-secret-1"))
    assert other.get(f"/league/import/{batch.pk}/").status_code == 403
    assert Client().get(f"/league/import/{batch.pk}/").status_code in (302, 403)


def test_an_import_left_unfinished_by_a_stopped_worker_is_refused_and_cleaned(client, people):
    raw = _exported(client, people["alice"])
    games = check_bytes(raw)
    batch = ImportBatch.objects.create(user=people["alice"], status=ImportBatch.Status.WRITING, total=3)
    services.write_pending_games(batch_id=batch.pk, games=games[:2])
    ImportBatch.objects.filter(pk=batch.pk).update(updated_at=timezone.now() - datetime.timedelta(minutes=10))
    page = client.get(f"/league/import/{batch.pk}/").content.decode()
    assert "the import stopped before it was finished; nothing was imported" in page
    assert not Game.all_objects.exists()


def test_the_largest_file_accepted_is_a_setting_stated_on_the_page(client, settings):
    settings.IMPORT_MAX_MB = 3
    page = client.get("/league/import/").content.decode()
    assert "The largest file accepted is 3 MB." in page
    response = client.post("/league/import/", {"file": _upload(b"x" * (3 * 1024 * 1024 + 1))})
    assert response.status_code == 400 and "the limit is 3 MB" in response.content.decode()


def _upload(raw: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("hands.csv", raw, content_type="text/csv")
