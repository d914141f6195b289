"""games.csv and hands.csv: columns, BOM, names intact, injection neutralised, filters."""

import csv
import io

import pytest

from core.spreadsheet import neutralise, unneutralise
from league.csv_io.columns import GAMES_COLUMNS, HANDS_COLUMNS
from scoring.models import GameSeat
from tests.league_data import small_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(people):
    """alice, a club organiser: she organises CLUB, and each test makes her the organiser of the
    club it makes."""
    return people.client("alice")


def _download(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.streaming
    raw = b"".join(response.streaming_content)
    assert raw.startswith(b"\xef\xbb\xbf")  # the BOM spreadsheet programs look for
    return list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))


def test_it_exports_one_row_per_game_with_the_documented_columns(client, people):
    data = small_season(people["alice"])
    rows = _download(client, f"/league/export/games.csv?season={data['season'].pk}")
    assert list(rows[0]) == GAMES_COLUMNS
    assert len(rows) == 3
    g3 = next(row for row in rows if row["variant"] == "check")
    assert (g3["points_NS"], g3["points_EW"], g3["chips_NS"], g3["chips_EW"], g3["winner"]) == (
        "20", "36", "-16", "16", "EW",
    )  # fmt: skip
    assert (g3["player_N"], g3["player_E"], g3["player_S"], g3["player_W"]) == (
        "Åsa",
        "Čeněk",
        "Örjan",
        "Řehoř",
    )
    assert g3["club"] == "Klubbén" and g3["season"] == "Vår 2026" and g3["date"] == "2026-03-16"


def test_it_exports_one_row_per_hand_with_results_and_running_totals(client, people):
    data = small_season(people["alice"])
    rows = _download(client, f"/league/export/hands.csv?game={data['games'][1].code}")
    assert list(rows[0]) == HANDS_COLUMNS
    assert [row["hand"] for row in rows] == ["1", "2"]
    first, second = rows
    assert (first["dealer"], first["bidder"], first["bid"], first["trump"], first["result"]) == (
        "N", "E", "25", "spades", "set",
    )  # fmt: skip
    assert (first["melds_E"], first["meld_E"], first["melds_N"], first["meld_N"]) == (
        "kings",
        "8",
        "dix",
        "1",
    )
    assert (first["points_EW"], first["points_NS"]) == ("-25", "13")  # a plain negative number stays a number
    assert (second["total_NS"], second["total_EW"]) == ("37", "-20")


def test_it_filters_by_club_and_date_range(client, people):
    data = small_season(people["alice"])
    assert len(_download(client, f"/league/export/games.csv?club={data['club'].pk}")) == 3
    rows = _download(client, "/league/export/games.csv?date_from=2026-03-05&date_to=2026-03-10")
    assert [row["date"] for row in rows] == ["2026-03-09"]
    assert client.get("/league/export/games.csv?date_from=2026-04-01&date_to=2026-03-01").status_code == 400
    assert client.get("/league/export/games.csv?season=999").status_code == 400


@pytest.mark.parametrize(
    "name", ['=HYPERLINK("http://x","click")', "+cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3", "\tx"]
)
def test_it_neutralises_a_formula_looking_name(client, name, people):
    data = small_season(people["alice"])
    GameSeat.objects.filter(game=data["games"][0], seat="N").update(name=name, player=None)
    rows = _download(client, f"/league/export/hands.csv?game={data['games'][0].code}")
    cell = rows[0]["player_N"]
    assert cell == "'" + name
    assert unneutralise(cell) == name


def test_it_keeps_accented_names_intact(client, people):
    data = small_season(people["alice"])
    raw = b"".join(client.get(f"/league/export/games.csv?season={data['season'].pk}").streaming_content)
    text = raw.decode("utf-8")
    for name in ("Åsa", "Örjan", "Čeněk", "Řehoř", "Klubbén", "Vår 2026"):
        assert name in text


def test_it_neutralises_only_what_needs_it():
    assert neutralise(-22) == -22
    assert neutralise("-22") == "-22"
    assert neutralise("3.5") == "3.5"
    assert neutralise("Anna") == "Anna"
    assert neutralise("'Bo") == "''Bo"
    assert unneutralise("''Bo") == "'Bo"
    assert unneutralise("'Bo") == "'Bo"
    assert neutralise(None) == ""
