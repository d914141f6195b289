"""Every main page in Swedish and Czech: no English left in its visible text, errors and plurals too.

For each page the English rendering gives the list of English strings; the Swedish and Czech
renderings of the same page may share none of them, except the names, codes and symbols below.

Each page is read by someone allowed to see all of it (docs/security.md): the game pages by the
browser that created the game (its edit-token cookie, so the entry form, share link and handover
button show), the league pages by a club organiser, the share page, the published results and the
account pages by an anonymous visitor.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from clubs.models import ClubRole
from scoring import game_settings
from scoring.audit import Actor
from scoring.handover import recovery_code, start_handover
from scoring.models import Game
from scoring.services.hands import delete_last_hand, edit_hand, record_hand
from scoring.services.results import players_of
from tests.access_helpers import client_with_token
from tests.helpers import WORKED_EXAMPLE, check_game, hand_post, save_url, table_user
from tests.i18n_helpers import text_segments, wordy
from tests.league_data import small_season

pytestmark = pytest.mark.django_db

LANGS = ["sv", "cs"]

# What every language writes the same: people, clubs, seasons and places from the test data, the
# game's name, the switcher's language names, file names and the seed pages' "slam"; the account
# names of the signed-in readers ("table", the persona "alice"), the personas' clubs ("Club 7",
# "Club 8") and the published results' code.
NAMES = {
    "Anna", "Bo", "Cecilia", "David", "Åsa", "Örjan", "Čeněk", "Řehoř", "Klubbén", "Vår 2026",
    "Bord 1", "Pinochle", "English", "Svenska", "Čeština", "hands.csv", "games.csv", "Partner",
    "table", "alice", "Club 7", "Club 8", "published-results-code",
}  # fmt: skip
# Swedish writes "Standard" and keeps "Check Pinochle"; "Import" is a Czech word too.
# Czech says "Role" too (the roles page's column); as a whole word only, so "Roles" still counts.
# Both keep the card term "Dix" (docs/i18n.md glossary).
SAME_IN = {"sv": {"Standard", "Check Pinochle", "Slam", "Dix"}, "cs": {"Import", "Slam", "Role", "Dix"}}


def words_left(segment: str, lang: str) -> bool:
    """Whether a segment still holds a word once the names, same-in-every-language words, links
    (the share and results links), game codes and recovery codes are out."""
    segment = re.sub(r"https?://\S+", "", segment)
    games = list(Game.objects.all())
    codes = {game.code for game in games} | {recovery_code(game) for game in games}
    for word in sorted(NAMES | SAME_IN[lang] | codes, key=len, reverse=True):
        segment = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", "", segment)
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


def page_html(
    path: str,
    lang: str,
    *,
    client: Client | None = None,
    method: str = "get",
    data: dict[str, Any] | None = None,
) -> str:
    """The page as `client` (an anonymous visitor if None) reads it in `lang`; a refusal fails the test."""
    response = getattr(client or Client(), method)(path, data or {}, headers={"Accept-Language": lang})
    assert response.status_code in (200, 400), (path, response.status_code)
    html: str = response.content.decode()
    assert f'<html lang="{lang}">' in html or method == "post"
    return html


@pytest.fixture
def organiser(people, league) -> Client:
    """alice, made the organiser of the test season's club."""
    client: Client = people.organiser_of(league["club"])
    return client


@pytest.fixture
def league() -> dict[str, Any]:
    return small_season()


@pytest.fixture
def game_in_progress() -> Game:
    game = check_game()
    for number, data in enumerate(CHECK_HANDS, start=1):
        record_hand(game=game, number=number, data=data)
    return game


@pytest.fixture
def editor(game_in_progress) -> Client:
    """The browser that created `game_in_progress`: it holds the game's edit-token cookie."""
    return client_with_token(game_in_progress)


def paths(league: dict[str, Any], game: Game) -> dict[str, str]:
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
        "share page": f"/s/{game.share_code}/",
        "share page of a finished game": f"/s/{finished_check.share_code}/",
        "corrections of a game": f"/g/{game.code}/history/",
        "game settings": f"/g/{game.code}/settings/",
        "corrections of a club": f"/games/clubs/{league['club'].pk}/corrections/",
        "roles": f"/league/clubs/{league['club'].pk}/roles/",
        "published season results": f"/league/results/{league['season'].publish_code}/",
        "take over the scoring": f"/g/{game.code}/take-over/{league.get('handover')}/",
    }


#: Who reads each page: the game's creating browser, a club organiser, or an anonymous visitor.
READER = {
    "games list": "table",
    "game page with history and entry form": "editor",
    "end-of-game awards": "organiser",
    "standings": "organiser",
    "player page": "organiser",
    "league": "organiser",
    "club": "organiser",
    "import page": "organiser",
    "corrections of a game": "editor",
    "game settings": "editor",
    "corrections of a club": "organiser",
    "roles": "organiser",
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
    "share page",
    "share page of a finished game",
    "corrections of a game",
    "corrections of a club",
    "game settings",
    "roles",
    "published season results",
    "take over the scoring",
]


@pytest.fixture
def readers(organiser, table_client, editor) -> dict[str, Client]:
    return {"organiser": organiser, "table": table_client, "editor": editor}


@pytest.fixture
def access_pages(league: dict[str, Any], game_in_progress: Game) -> dict[str, Any]:
    """What the access pages show: a corrected and a deleted hand (in the quick game and in a club
    game), club roles, published season results and an open handover link."""
    record_hand(game=game_in_progress, number=3, data=CHECK_HANDS[0])
    edit_hand(game=game_in_progress, number=1, data=CHECK_HANDS[1], actor=Actor.device())
    delete_last_hand(game=game_in_progress, actor=Actor.of_user(table_user()))
    # A change of the game's settings: a new name and a lower minimum bid, in its corrections.
    players = {**players_of(game_in_progress), "E": "Åsa"}
    new = game_settings.NewSettings(
        players=players, first_dealer="E", target=None, min_bid=19, meld_needs_trick=False
    )
    game_settings.change_settings(game=game_in_progress, new=new, expected=None, actor=Actor.device())
    club_game = league["games"][0]
    corrected = {**club_game.hands.get(number=1).data, "tricks": {"NS": 16, "EW": 9}}
    edit_hand(game=club_game, number=1, data=corrected, actor=Actor.of_user(table_user()))
    from django.contrib.auth.models import User

    for name, role in (("Anna", ClubRole.Role.ORGANISER), ("Bo", ClubRole.Role.SCORER),
                       ("Cecilia", ClubRole.Role.MEMBER)):  # fmt: skip
        ClubRole.objects.create(user=User.objects.create_user(name), club=league["club"], role=role)
    season = league["season"]
    season.publish_code = "published-results-code"
    season.save(update_fields=["publish_code"])
    league["handover"] = start_handover(game=game_in_progress)
    return league


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", PAGES)
def test_each_main_page_has_no_english_left(access_pages, game_in_progress, readers, name, lang):
    path = paths(access_pages, game_in_progress)[name]
    client = readers.get(READER.get(name, ""))
    english = wordy(text_segments(page_html(path, "en", client=client)))
    assert len(english) > 5, f"{name}: the English page is nearly empty"
    translated = wordy(text_segments(page_html(path, lang, client=client)))
    leftovers = {s for s in english & translated if words_left(s, lang)}
    assert leftovers == set(), f"English left on the {lang} {name} page: {sorted(leftovers)}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_handover_page_has_no_english_left(game_in_progress, editor, lang):
    """The page with the handover link and its QR code answers the button's POST (a new link each time)."""
    url = f"/g/{game_in_progress.code}/hand-over/"
    english = wordy(text_segments(page_html(url, "en", client=editor, method="post")))
    assert len(english) > 5
    html = page_html(url, lang, client=editor, method="post")
    assert f'<html lang="{lang}">' in html
    leftovers = {s for s in english & wordy(text_segments(html)) if words_left(s, lang)}
    assert leftovers == set(), f"English left on the {lang} handover page: {sorted(leftovers)}"


def test_the_pages_show_what_they_are_about_in_czech(league, game_in_progress, organiser, editor):
    urls = paths(league, game_in_progress)
    game_page = page_html(urls["game page with history and entry form"], "cs", client=editor)
    assert "Zapsat rozdání 3" in game_page and ">Předat zapisování<" in game_page
    awards = page_html(urls["end-of-game awards"], "cs", client=organiser)
    assert "Konec hry" in awards and "Přidělené žetony" in awards
    assert "Pořadí" in page_html(urls["standings"], "cs", client=organiser)
    shared = page_html(urls["share page"], "cs")
    assert "Jen pro čtení" in shared and "Zapsat rozdání" not in shared


def test_sides_and_seats_use_the_languages_compass_letters(game_in_progress, editor):
    """Czech S–J / V–Z (Sever–Jih, Východ–Západ), Swedish N–S / Ö–V; English N–S / E–W."""
    path = f"/g/{game_in_progress.code}/"
    czech = " ".join(text_segments(page_html(path, "cs", client=editor)))
    assert "S–J" in czech and "V–Z" in czech and "N–S" not in czech and "E–W" not in czech
    swedish = " ".join(text_segments(page_html(path, "sv", client=editor)))
    assert "N–S" in swedish and "Ö–V" in swedish and "E–W" not in swedish
    english = " ".join(text_segments(page_html(path, "en", client=editor)))
    assert "N–S" in english and "E–W" in english


def test_czech_plural_forms_on_pages(table_client):
    rules = " ".join(text_segments(page_html("/rules/", "cs")))
    for form in ("1 žeton", "2 žetony", "4 žetony", "5 žetonů", "10 žetonů"):
        assert re.search(rf"(?<!\d){form}\b", rules), form
    assert not re.search(r"(?<!\d)[2-4] žetonů|(?<!\d)(?:[5-9]|1\d) žetony", rules)
    game = check_game()
    record_hand(game=game, number=1, data=CHECK_HANDS[0])
    assert "4 hráči" in " ".join(text_segments(page_html("/", "cs", client=table_client)))


def test_the_import_report_counts_problems_in_czech_forms(league, organiser):
    bad = {"bidder": "N", "bid": 20, "tricks": {"NS": 20, "EW": 4}}
    for count, words in ((1, "1 problém"), (2, "2 problémy"), (5, "5 problémů")):
        raw = json.dumps([{"hands": [bad]}] * count).encode()
        html = organiser.post(
            "/league/import/",
            {
                "file": SimpleUploadedFile("g.json", raw, content_type="application/json"),
                "club": league["club"].pk,
            },
            headers={"Accept-Language": "cs"},
        ).content.decode()
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


def test_a_bid_below_the_minimum_shows_the_czech_message_next_to_the_bid(game_in_progress, editor):
    post = hand_post(3, {**WORKED_EXAMPLE, "bid": "15"})
    html = page_html(save_url(game_in_progress), "cs", client=editor, method="post", data=post)
    bid_field = _field_block(html, 'id="bid-field"')
    assert "Nabídka 15 je nižší než nejnižší nabídka 20." in bid_field
    assert "below the minimum" not in html


def test_tricks_that_do_not_add_up_show_the_czech_message_by_the_tricks(game_in_progress, editor):
    post = hand_post(3, {**WORKED_EXAMPLE, "tricks_NS": "20", "tricks_EW": "4"})
    html = page_html(save_url(game_in_progress), "cs", client=editor, method="post", data=post)
    assert "Body ze zdvihů dávají dohromady 24; musí dát 25." in html
    assert html.index("Body ze zdvihů dávají dohromady 24") > html.index('class="field bid')
    assert "add up to" not in html


def test_a_swedish_table_reads_the_engine_in_swedish(game_in_progress, editor):
    post = hand_post(3, {**WORKED_EXAMPLE, "bid": "15"})
    html = page_html(save_url(game_in_progress), "sv", client=editor, method="post", data=post)
    assert "Budet 15 är lägre än lägsta bud, 20." in html


def test_the_import_report_speaks_czech(league, organiser):
    raw = b'{"hands": [{"bidder": "N", "bid": 20, "tricks": {"NS": 20, "EW": 4}}]}'

    response = organiser.post(
        "/league/import/",
        {
            "file": SimpleUploadedFile("g.json", raw, content_type="application/json"),
            "club": league["club"].pk,
        },
        headers={"Accept-Language": "cs"},
    )
    html = response.content.decode()
    assert "Soubor byl odmítnut: 1 problém" in html
    assert "Rozdání 1: Body ze zdvihů dávají dohromady 24; musí dát 25." in html
