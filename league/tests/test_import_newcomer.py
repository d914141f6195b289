"""Importing into a fresh instance: the upload makes the club its hands.csv names, with the
uploader as its first organiser; nobody writes into a club that is not theirs by naming it (the
rights are checked row by row, before any game is scored); a refused club or season is named
once; an existing season's dates never change."""

import csv
import datetime
import io

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from clubs.models import Club, ClubRole, Membership, Player, Season
from league import services
from league.csv_io import reader, rows
from league.imports import worker
from league.imports.queue import start
from league.imports.rights import NEW_CLUBS_MAX
from league.models import ImportBatch
from scoring.models import Game, Hand
from tests.access_helpers import ROOT, People
from tests.league_data import small_season

pytestmark = pytest.mark.django_db


def _hands_csv(people: People) -> str:
    """The small season (3 games of Klubbén, season Vår 2026, 2–16 March 2026) as hands.csv, as
    the superuser exports it, and a database with nothing of it left: no game, player, season,
    role or club (the personas' clubs and roles neither), and no superuser."""
    small_season()
    admin = people.superuser()
    raw = people.client(ROOT).get("/league/export/hands.csv").getvalue()
    Game.objects.all().delete()
    Player.objects.all().delete()
    Season.objects.all().delete()
    Club.objects.all().delete()
    admin.delete()
    return raw.decode("utf-8-sig")


def _user(username: str, *, organises: str = "", role: str = ClubRole.Role.ORGANISER) -> Client:
    user = User.objects.create_user(username, f"{username}@example.org", "not-used-here-1")
    if organises:
        club, _made = Club.objects.get_or_create(name=organises)
        ClubRole.objects.create(user=user, club=club, role=role)
    client = Client()
    client.force_login(user)
    return client


def _upload(client: Client, text: str):
    upload = SimpleUploadedFile("hands.csv", text.encode(), content_type="text/csv")
    return client.post("/league/import/", {"file": upload}, follow=True)


def _problems(response) -> list[str]:
    page = response.content.decode()
    return [line.strip() for line in page.split("<li>")[1:] if "Line" in line or "line" in line]


def _nothing_imported() -> None:
    assert not Game.all_objects.exists() and not Hand.objects.exists() and not Player.objects.exists()


def test_a_newcomer_imports_a_file_and_becomes_the_first_organiser_of_its_club(people):
    text = _hands_csv(people)
    newcomer = _user("newcomer")
    assert newcomer.get("/league/import/").status_code == 200

    response = _upload(newcomer, text)

    assert response.status_code == 200
    assert "Imported 3 games with 4 hands." in response.content.decode()
    club = Club.objects.get()
    assert club.name == "Klubbén"
    role = ClubRole.objects.get(club=club)
    assert (role.user.username, role.role) == ("newcomer", ClubRole.Role.ORGANISER)
    assert Game.objects.filter(club=club).count() == 3
    assert sorted(Membership.objects.filter(club=club).values_list("player__name", flat=True)) == sorted(
        ["Åsa", "Örjan", "Čeněk", "Řehoř"]
    )
    # A season the file names is made spanning its games' dates (a hands.csv carries no season dates).
    season = Season.objects.get(club=club)
    assert (season.name, season.starts_on, season.ends_on) == (
        "Vår 2026",
        datetime.date(2026, 3, 2),
        datetime.date(2026, 3, 16),
    )
    # The new organiser runs the club from the organiser pages.
    assert newcomer.get(f"/clubs/{club.pk}/roster/").status_code == 200
    assert "Klubbén" in newcomer.get("/clubs/").content.decode()


def test_an_organiser_of_one_club_cannot_import_into_another_club_nothing_is_written(people):
    text = _hands_csv(people)
    _user("owner", organises="Klubbén")
    intruder = _user("intruder", organises="Club A")

    response = _upload(intruder, text)

    assert response.status_code == 403
    page = response.content.decode()
    assert page.count("you are not a scorer or organiser of Klubbén") == 1  # named once, not per game
    assert "The file was refused: 1 problem" in page
    _nothing_imported()
    assert not Season.objects.exists()
    assert set(ClubRole.objects.values_list("user__username", "club__name")) == {
        ("owner", "Klubbén"),
        ("intruder", "Club A"),
    }


def test_a_club_named_in_other_letter_case_is_not_made_and_not_written_into(people):
    text = _hands_csv(people)
    _user("owner", organises="Klubbén")
    intruder = _user("intruder")

    response = _upload(intruder, text.replace("Klubbén", "KLUBBÉN"))

    assert response.status_code == 403
    assert "There is already a club called KLUBBÉN." in response.content.decode()
    assert list(Club.objects.values_list("name", flat=True)) == ["Klubbén"]
    _nothing_imported()


@pytest.mark.parametrize(
    "look_alike",
    ["Klubbe\u0301n", "\u041alubbén", "Klub\u00a0bén", "Ｋｌｕｂｂéｎ"],
)
def test_a_club_named_with_look_alike_letters_is_not_made_and_takes_no_games(people, look_alike):
    text = _hands_csv(people)
    _user("owner", organises="Klub bén" if "\u00a0b" in look_alike else "Klubbén")
    intruder = _user("intruder")

    response = _upload(intruder, text.replace("Klubbén", look_alike))

    assert response.status_code == 403
    assert "a club already here; choose another name." in response.content.decode()
    assert Club.objects.count() == 1
    assert list(ClubRole.objects.values_list("user__username", flat=True)) == ["owner"]
    _nothing_imported()


def _copies_in_clubs(text: str, count: int) -> str:
    """The file's games once per club "Club 1" … "Club <count>", each copy with its own codes."""
    header, *lines = list(csv.reader(io.StringIO(text)))
    club, game_id = header.index("club"), header.index("game_id")
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    for number in range(1, count + 1):
        for row in lines:
            writer.writerow([
                *row[:game_id], f"{row[game_id][:10]}x{number:03d}", *row[game_id + 1 : club],
                f"Club {number}", *row[club + 1 :],
            ])  # fmt: skip
    return out.getvalue()


def test_one_upload_makes_at_most_the_limit_of_new_clubs_and_a_file_naming_more_writes_nothing(people):
    text = _copies_in_clubs(_hands_csv(people), NEW_CLUBS_MAX + 1)
    intruder = _user("intruder")

    response = _upload(intruder, text)

    assert response.status_code == 403
    page = response.content.decode()
    first_row_of_the_club_past_the_limit = 2 + 4 * NEW_CLUBS_MAX  # 4 hand rows per club
    assert (
        f"<strong>Line {first_row_of_the_club_past_the_limit}:</strong> the file names more than 5 clubs"
        " that are not here yet; an import makes at most 5" in page
    )
    assert not Club.objects.exists() and not ClubRole.objects.exists() and not Season.objects.exists()
    _nothing_imported()


def test_the_import_task_holds_the_uploader_to_the_limit_of_new_clubs_too(people):
    text = _copies_in_clubs(_hands_csv(people), NEW_CLUBS_MAX + 1)
    newcomer = User.objects.create_user("newcomer", "n@example.org", "not-used-here-1")

    batch = start(raw=text.encode(), name="hands.csv", user=newcomer)

    assert batch.status == ImportBatch.Status.REFUSED
    assert "an import makes at most 5" in batch.problems[0]["message"]
    assert not Club.objects.exists() and not ClubRole.objects.exists()
    _nothing_imported()


def test_an_upload_naming_as_many_new_clubs_as_the_limit_makes_them_all(people):
    text = _copies_in_clubs(_hands_csv(people), NEW_CLUBS_MAX)
    newcomer = _user("newcomer")

    response = _upload(newcomer, text)

    assert f"Imported {3 * NEW_CLUBS_MAX} games" in response.content.decode()
    assert Club.objects.count() == NEW_CLUBS_MAX
    assert set(ClubRole.objects.values_list("user__username", "role")) == {("newcomer", "organiser")}


def test_the_rights_are_checked_before_any_game_is_scored_or_the_rest_of_the_file_read(people, monkeypatch):
    text = _hands_csv(people)
    _user("owner", organises="Klubbén")
    intruder = _user("intruder")
    scored = []
    for module in (reader, rows):  # the two places a game is scored
        monkeypatch.setattr(module, "check_game", lambda *args: scored.append(args))
    lines = text.splitlines()
    lines[3] = lines[3].replace("Klubbén", "Another club")  # a later row: never asked about
    lines.append('broken,"unclosed')  # a broken row further on: never read

    response = _upload(intruder, "\n".join(lines))

    assert response.status_code == 403
    page = response.content.decode()
    assert "<strong>Line 2:</strong> you are not a scorer or organiser of Klubbén" in page
    assert "The file was refused: 1 problem" in page
    assert scored == []
    assert not Club.objects.filter(name="Another club").exists()
    _nothing_imported()


def test_a_season_a_scorer_may_not_make_is_named_once(people):
    text = _hands_csv(people)
    scorer = _user("scorer", organises="Klubbén", role=ClubRole.Role.SCORER)

    response = _upload(scorer, text)

    assert response.status_code == 403
    page = response.content.decode()
    assert page.count("season Vår 2026 does not exist") == 1
    _nothing_imported()


def test_an_import_never_changes_an_existing_seasons_dates(people):
    text = _hands_csv(people)
    organiser = _user("owner", organises="Klubbén")
    club = Club.objects.get(name="Klubbén")
    spring = Season.objects.create(
        club=club, name="Vår 2026", starts_on=datetime.date(2026, 1, 1), ends_on=datetime.date(2026, 6, 30)
    )

    assert "Imported 3 games" in _upload(organiser, text).content.decode()

    spring.refresh_from_db()
    assert (spring.starts_on, spring.ends_on) == (datetime.date(2026, 1, 1), datetime.date(2026, 6, 30))
    assert Game.objects.filter(season=spring).count() == 3


def test_a_game_dated_outside_an_existing_season_refuses_the_file_naming_its_line(people):
    text = _hands_csv(people)
    organiser = _user("owner", organises="Klubbén")
    club = Club.objects.get(name="Klubbén")
    spring = Season.objects.create(
        club=club, name="Vår 2026", starts_on=datetime.date(2026, 3, 5), ends_on=datetime.date(2026, 6, 30)
    )

    response = _upload(organiser, text)

    assert response.status_code == 400
    page = response.content.decode()
    refusal = "The date 2026-03-02 is outside season Vår 2026 (2026-03-05 – 2026-06-30)."
    assert f"<strong>Line 2:</strong> {refusal}" in page
    spring.refresh_from_db()
    assert (spring.starts_on, spring.ends_on) == (datetime.date(2026, 3, 5), datetime.date(2026, 6, 30))
    _nothing_imported()


def test_a_club_made_by_someone_else_after_the_check_takes_none_of_the_games(people, monkeypatch):
    text = _hands_csv(people)
    _user("newcomer")
    newcomer = User.objects.get(username="newcomer")
    other = User.objects.create_user("quick", "q@example.org", "not-used-here-1")
    write = services.write_pending_games

    def someone_makes_the_club_meanwhile(**kwargs):
        if not Club.objects.exists():
            club = Club.objects.create(name="Klubbén")
            ClubRole.objects.create(user=other, club=club, role=ClubRole.Role.ORGANISER)
        return write(**kwargs)

    monkeypatch.setattr(worker, "write_pending_games", someone_makes_the_club_meanwhile)
    batch = start(raw=text.encode(), name="hands.csv", user=newcomer)

    assert batch.status == ImportBatch.Status.REFUSED
    assert [p["message"] for p in batch.problems] == ["you are not a scorer or organiser of Klubbén"]
    assert not Game.all_objects.exists()
    assert list(ClubRole.objects.values_list("user__username", flat=True)) == ["quick"]


def test_a_season_closed_after_the_check_takes_none_of_the_games(people, monkeypatch):
    text = _hands_csv(people)
    _user("owner", organises="Klubbén")
    owner = User.objects.get(username="owner")
    spring = Season.objects.create(
        club=Club.objects.get(name="Klubbén"),
        name="Vår 2026",
        starts_on=datetime.date(2026, 3, 1),
        ends_on=datetime.date(2026, 5, 31),
    )
    write = services.write_pending_games

    def an_organiser_closes_the_season_meanwhile(**kwargs):
        Season.objects.filter(pk=spring.pk).update(
            closed_at=datetime.datetime(2026, 6, 1, tzinfo=datetime.UTC)
        )
        return write(**kwargs)

    monkeypatch.setattr(worker, "write_pending_games", an_organiser_closes_the_season_meanwhile)
    batch = start(raw=text.encode(), name="hands.csv", user=owner)

    assert batch.status == ImportBatch.Status.REFUSED
    assert [p["message"] for p in batch.problems] == ["season Vår 2026 is closed: it accepts no new games"]
    assert not Game.all_objects.exists()


def test_an_anonymous_visitor_is_sent_to_log_in():
    response = Client().get("/league/import/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
