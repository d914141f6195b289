"""The same games draw the same pages on every database: SQLite and PostgreSQL, byte for byte.

One club season (tests/league_data.py) with a correction, a game still in play in which East–West
lead, and a deleted hand is drawn page by page: the game pages (scoreboard, history, share page,
details), the club's corrections trail, the league pages that show the games (index, club, season,
every player) and the CSV exports. Each page is compared with its committed rendering in
tests/golden/same_pages/. CI runs the suite on SQLite and on PostgreSQL, so both must draw exactly
these pages: a list without a total order (PostgreSQL's JSON keeps keys in its own order, rows
without ORDER BY come in any order) shows up as a difference.

What may differ between two runs is masked before the comparison: CSRF tokens, the entry form's
submission id, the recovery codes (from SECRET_KEY), today's date and the host. Ids are the same on
both databases (the sequences start again for this test).

After a deliberate change of a page, write the renderings again and read the diff before committing:
    GOLDEN_UPDATE=1 .venv/bin/pytest tests/test_same_pages_everywhere.py
"""

from __future__ import annotations

import datetime
import os
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone, translation
from django.utils.formats import date_format

from clubs.models import ClubRole
from scoring import filing
from scoring.audit import Actor
from scoring.handover import recovery_code
from scoring.models import Game, HandChange
from scoring.services.games import create_game
from scoring.services.hands import delete_last_hand, edit_hand, record_hand
from tests.league_data import G3, H1, small_season

pytestmark = pytest.mark.django_db(transaction=True, reset_sequences=True)

GOLDEN = Path(__file__).parent / "golden" / "same_pages"
#: When every correction was made: the same moment for all, so their order rests on the id.
CORRECTED_AT = datetime.datetime(2026, 3, 20, 18, 30, tzinfo=datetime.UTC)
CREATED_AT = datetime.datetime(2026, 3, 1, 12, 0, tzinfo=datetime.UTC)
#: A Check Pinochle hand East–West win: E bids 27, E–W 36 and +16 chips at the end of the game.
EAST_WEST_AHEAD = [
    G3[0],
    {
        "bidder": "W",
        "bid": 25,
        "trump": "spades",
        "melds": {"W": ["run"], "E": ["marriage"], "N": ["dix"]},
        "tricks": {"NS": 9, "EW": 16},
    },
]


def club_with_games() -> dict[str, Any]:
    data = small_season()
    club, season = data["club"], data["season"]
    a, o, c, r = (data["people"][n] for n in ("Åsa", "Örjan", "Čeněk", "Řehoř"))
    organiser = User.objects.create_user("olga", password="x-very-secret-1")
    ClubRole.objects.create(user=organiser, club=club, role=ClubRole.Role.ORGANISER)
    actor = Actor.of_user(organiser)
    g1, g2, g3 = data["games"]
    # A correction with the melds listed in another order than the seats, and one more trick for N–S.
    edit_hand(
        game=g1,
        number=1,
        data={**H1, "melds": {"S": ["pinochle"], "E": ["aces"], "N": ["run"]}, "tricks": {"EW": 9, "NS": 16}},
        actor=actor,
    )
    # A Check Pinochle game still in play, East–West ahead; its last hand deleted and entered again.
    open_game = create_game(
        seats=4,
        variant="check",
        deck="single",
        target=None,
        min_bid=None,
        first_dealer="N",
        meld_needs_trick=False,
        players={"N": r.name, "E": a.name, "S": o.name, "W": c.name},
    )
    filing.set_game_details(
        game=open_game,
        club=club,
        season=season,
        played_on=datetime.date(2026, 3, 23),
        place="Bord 2",
        note="",
    )
    for row in open_game.seat_rows.all():
        filing.link_seat(seat=row, player={"N": r, "E": a, "S": o, "W": c}[row.seat])
    for number, hand in enumerate(EAST_WEST_AHEAD, start=1):
        record_hand(game=open_game, number=number, data=hand)
    delete_last_hand(game=open_game, actor=actor)
    record_hand(game=open_game, number=2, data=EAST_WEST_AHEAD[1])
    games = [g1, g2, g3, open_game]
    for number, game in enumerate(games, start=1):
        Game.objects.filter(pk=game.pk).update(
            code=f"game-{number}", share_code=f"share-{number}", created_at=CREATED_AT, updated_at=CREATED_AT
        )
    HandChange.objects.update(at=CORRECTED_AT)
    client = Client()
    client.force_login(organiser)
    return {**data, "games": list(Game.objects.order_by("pk")), "client": client}


def masked(text: str, games: list[Game]) -> str:
    text = re.sub(r'(csrfmiddlewaretoken" value="|X-CSRFToken": ")[^"]+"', r'\1<csrf>"', text)
    text = re.sub(r'(name="submission_id" value=")[^"]+"', r'\1<submission>"', text)
    text = re.sub(r"https?://(testserver|localhost|127\.0\.0\.1)(:\d+)?", "http://<host>", text)
    for game in games:
        text = text.replace(recovery_code(game), "<recovery>")
    today = timezone.localdate()
    for lang in ("en", "sv", "cs"):
        with translation.override(lang):
            for name in ("DATE_FORMAT", "SHORT_DATE_FORMAT"):
                text = text.replace(date_format(today, name), "<today>")
    return text.replace(today.isoformat(), "<today>")


def drawn(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    body = response.getvalue()  # a streamed page's body too
    text = body.decode()
    if "<main" in text:  # the page's own part: the head, navigation and scripts are no one game's
        text = text[text.index("<main") : text.index("</main>") + len("</main>")]
    return text


def pages(data: dict[str, Any]) -> dict[str, str]:
    club, season = data["club"], data["season"]
    urls = {
        "league-index": "/league/",
        "club": f"/league/clubs/{club.pk}/",
        "season": f"/league/seasons/{season.pk}/",
    }
    urls["corrections"] = f"/games/clubs/{club.pk}/corrections/"
    for game in data["games"]:
        urls[f"{game.code}"] = f"/g/{game.code}/"
        urls[f"{game.code}-history"] = f"/g/{game.code}/history/"
        urls[f"{game.code}-details"] = f"/g/{game.code}/details/"
        urls[f"{game.code}-share"] = f"/s/{game.share_code}/"
    for player in data["people"].values():
        urls[f"player-{player.pk}"] = f"/league/players/{player.pk}/"
    urls["games.csv"] = f"/league/export/games.csv?club={club.pk}"
    urls["hands.csv"] = f"/league/export/hands.csv?club={club.pk}"
    return {name: masked(drawn(data["client"], url), data["games"]) for name, url in urls.items()}


def golden_name(name: str) -> str:
    return name if name.endswith(".csv") else f"{name}.html"


def test_every_page_of_the_clubs_games_is_drawn_as_committed():
    found = pages(club_with_games())
    if os.environ.get("GOLDEN_UPDATE"):
        GOLDEN.mkdir(parents=True, exist_ok=True)
        for old in GOLDEN.iterdir():
            old.unlink()
        for name, text in found.items():
            (GOLDEN / golden_name(name)).write_text(text, encoding="utf-8", newline="")
    committed = {path.name: path.read_bytes().decode() for path in GOLDEN.iterdir()}
    assert sorted(committed) == sorted(golden_name(name) for name in found)
    different = [name for name in found if found[name] != committed[golden_name(name)]]
    for name in different:  # the first line that differs, to read in the failure
        mine, theirs = found[name].splitlines(), committed[golden_name(name)].splitlines()
        first = next(
            (i for i, (x, y) in enumerate(zip(mine, theirs, strict=False)) if x != y),
            min(len(mine), len(theirs)),
        )
        print(f"--- {name}, line {first + 1}:\n  drawn:     {mine[first : first + 1]}")
        print(f"  committed: {theirs[first : first + 1]}")
    assert different == []


def test_the_open_game_shows_east_west_ahead_with_north_south_first():
    data = club_with_games()
    page = drawn(data["client"], f"/g/{data['games'][3].code}/details/")
    assert re.search(r"N–S&nbsp;-?\d+ · E–W&nbsp;\d+", page), page
