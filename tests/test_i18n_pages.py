"""Every main page in Swedish and Czech: no English left in its visible text, errors and plurals too.

For each page the English rendering gives the list of English strings; the Swedish and Czech
renderings of the same page may share none of them, except the names, codes and symbols below.
"""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from scoring import services
from scoring.models import Game
from tests.helpers import WORKED_EXAMPLE, check_game, hand_post, save_url
from tests.i18n_helpers import text_segments, wordy
from tests.league_data import small_season

pytestmark = pytest.mark.django_db

LANGS = ["sv", "cs"]

# What every language writes the same: people, clubs, seasons and places from the test data, the
# game's name, the switcher's language names, file names and the seed pages' "slam".
NAMES = {
    "Anna", "Bo", "Cecilia", "David", "Åsa", "Örjan", "Čeněk", "Řehoř", "Klubbén", "Vår 2026",
    "Bord 1", "Pinochle", "English", "Svenska", "Čeština", "hands.csv", "games.csv", "Partner",
}  # fmt: skip
# Swedish writes "Standard" and keeps "Check Pinochle"; "Import" is a Czech word too.
SAME_IN = {"sv": {"Standard", "Check Pinochle", "Slam"}, "cs": {"Import", "Slam"}}


def words_left(segment: str, lang: str) -> bool:
    """Whether a segment still holds a word once the names and same-in-every-language words are out."""
    for word in sorted(NAMES | SAME_IN[lang], key=len, reverse=True):
        segment = segment.replace(word, "")
    return bool(wordy([segment]))


#: Hands of a Check Pinochle game still in progress (target 100): two hands, then the entry form.
CHECK_HANDS = [
    {
        "bidder": "N",
        "bid": 27,
        "trump": "hearts",
        "melds": {"N": ["run", "marriage"], "S": ["pinochle"], "E": ["aces"]},
        "tricks": {"NS": 15, "EW": 10},
    },
    {
        "bidder": "E",
        "bid": 25,
        "trump": "spades",
        "melds": {"E": ["trump_marriage", "kings"], "N": ["dix"]},
        "tricks": {"NS": 12, "EW": 13},
    },
]


def page_html(path: str, lang: str, *, method: str = "get", data: dict | None = None) -> str:
    client = Client()
    response = getattr(client, method)(path, data or {}, headers={"Accept-Language": lang})
    assert response.status_code in (200, 400), (path, response.status_code)
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html or method == "post"
    return html


@pytest.fixture
def league() -> dict:
    return small_season()


@pytest.fixture
def game_in_progress() -> Game:
    game = check_game()
    for number, data in enumerate(CHECK_HANDS, start=1):
        services.record_hand(game=game, number=number, data=data)
    return game


def paths(league: dict, game: Game) -> dict[str, str]:
    finished_check = league["games"][2]
    return {
        "games list": "/",
        "game setup": "/games/new",
        "game page with history and entry form": f"/g/{game.code}/",
        "end-of-game awards": f"/g/{finished_check.code}/",
        "standings": f"/league/seasons/{league['season'].pk}/",
        "player page": f"/league/players/{league['people']['Åsa'].pk}/",
        "league": "/league/",
        "club": f"/league/clubs/{league['club'].pk}/",
        "import page": "/league/import/",
        "login": "/accounts/login/",
        "signup": "/accounts/signup/",
        "rules": "/rules/",
    }


PAGES = [
    "games list",
    "game setup",
    "game page with history and entry form",
    "end-of-game awards",
    "standings",
    "player page",
    "league",
    "club",
    "import page",
    "login",
    "signup",
    "rules",
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", PAGES)
def test_each_main_page_has_no_english_left(league, game_in_progress, name, lang):
    path = paths(league, game_in_progress)[name]
    english = wordy(text_segments(page_html(path, "en")))
    assert len(english) > 5, f"{name}: the English page is nearly empty"
    translated = wordy(text_segments(page_html(path, lang)))
    leftovers = {s for s in english & translated if words_left(s, lang)}
    assert leftovers == set(), f"English left on the {lang} {name} page: {sorted(leftovers)}"


def test_the_pages_show_what_they_are_about_in_czech(league, game_in_progress):
    urls = paths(league, game_in_progress)
    assert "Zapsat rozdání 3" in page_html(urls["game page with history and entry form"], "cs")
    awards = page_html(urls["end-of-game awards"], "cs")
    assert "Konec hry" in awards and "Přidělené žetony" in awards
    assert "Pořadí" in page_html(urls["standings"], "cs")


def test_czech_plural_forms_on_pages():
    rules = " ".join(text_segments(page_html("/rules/", "cs")))
    for form in ("1 žeton", "2 žetony", "4 žetony", "5 žetonů", "10 žetonů"):
        assert re.search(rf"(?<!\d){form}\b", rules), form
    assert not re.search(r"(?<!\d)[2-4] žetonů|(?<!\d)(?:[5-9]|1\d) žetony", rules)
    game = check_game()
    services.record_hand(game=game, number=1, data=CHECK_HANDS[0])
    assert "4 hráči" in " ".join(text_segments(page_html("/", "cs")))


def test_the_import_report_counts_problems_in_czech_forms():
    bad = {"bidder": "N", "bid": 20, "tricks": {"NS": 20, "EW": 4}}
    for count, words in ((1, "1 problém"), (2, "2 problémy"), (5, "5 problémů")):
        raw = json.dumps([{"hands": [bad]}] * count).encode()
        html = (
            Client()
            .post(
                "/league/import/",
                {"file": SimpleUploadedFile("g.json", raw, content_type="application/json")},
                headers={"Accept-Language": "cs"},
            )
            .content.decode()
        )
        assert f"Soubor byl odmítnut: {words}" in html


def test_czech_chip_counts_take_three_forms():
    from django.template.loader import render_to_string
    from django.utils import translation

    with translation.override("cs"):
        counts = [render_to_string("_chip_count.html", {"n": n}).strip() for n in (1, 2, 5)]
    assert counts == ["1 žeton", "2 žetony", "5 žetonů"]


def _field_block(html: str, marker: str) -> str:
    start = html.index(marker)
    return html[start : start + 2500]


def test_a_bid_below_the_minimum_shows_the_czech_message_next_to_the_bid(game_in_progress):
    post = hand_post(3, {**WORKED_EXAMPLE, "bid": "15"})
    html = page_html(save_url(game_in_progress), "cs", method="post", data=post)
    bid_field = _field_block(html, 'id="bid-field"')
    assert "Nabídka 15 je nižší než nejnižší nabídka 20." in bid_field
    assert "below the minimum" not in html


def test_tricks_that_do_not_add_up_show_the_czech_message_by_the_tricks(game_in_progress):
    post = hand_post(3, {**WORKED_EXAMPLE, "tricks_NS": "20", "tricks_EW": "4"})
    html = page_html(save_url(game_in_progress), "cs", method="post", data=post)
    assert "Body ze zdvihů dávají dohromady 24; musí dát 25." in html
    assert html.index("Body ze zdvihů dávají dohromady 24") > html.index('class="field bid')
    assert "add up to" not in html


def test_a_swedish_table_reads_the_engine_in_swedish(game_in_progress):
    post = hand_post(3, {**WORKED_EXAMPLE, "bid": "15"})
    html = page_html(save_url(game_in_progress), "sv", method="post", data=post)
    assert "Budet 15 är lägre än lägsta bud, 20." in html


def test_the_import_report_speaks_czech(league):
    raw = b'{"hands": [{"bidder": "N", "bid": 20, "tricks": {"NS": 20, "EW": 4}}]}'

    client = Client()
    response = client.post(
        "/league/import/",
        {"file": SimpleUploadedFile("g.json", raw, content_type="application/json")},
        headers={"Accept-Language": "cs"},
    )
    html = response.content.decode()
    assert "Soubor byl odmítnut: 1 problém" in html
    assert "Rozdání 1: Body ze zdvihů dávají dohromady 24; musí dát 25." in html
